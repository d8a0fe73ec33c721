// vtable.js: a results table that stays smooth at any row count: only the rows in view (plus a
// small margin) exist in the DOM, positioned inside a spacer as tall as all rows. Rows have a fixed
// height; a row is opened with a click or Enter, and arrow keys move between rows.

/**
 * VTable shows `count` rows in `viewport` (a scrolling element). renderRow(i, rowEl) fills a row
 * element for display index i; onOpen(i) opens it. refresh() redraws the rows in view (call it
 * when the data changes); setCount(n) changes the number of rows. With `table` (an element around
 * the viewport that also holds `headRows` header rows) that element is the table for assistive
 * technology and the viewport the group of its body rows; otherwise the viewport is the table.
 */
export class VTable {
  /**
   * @param {HTMLElement} viewport
   * @param {{rowHeight?: number, renderRow: (i: number, el: HTMLElement) => void, onOpen: (i: number) => void, label?: string, table?: HTMLElement, headRows?: number}} opts
   */
  constructor(viewport, { rowHeight = 40, renderRow, onOpen, label = "Results", table, headRows = 0 }) {
    this.vp = viewport;
    this.rowHeight = rowHeight;
    this.renderRow = renderRow;
    this.onOpen = onOpen;
    this.count = 0;
    this.focusIndex = 0;
    this.spacer = document.createElement("div");
    this.spacer.className = "vt-spacer";
    this.table = table || viewport;
    this.headRows = table ? headRows : 0;
    this.spacer.setAttribute("role", table ? "none" : "rowgroup");
    if (table) this.vp.setAttribute("role", "rowgroup");
    this.table.setAttribute("role", "table");
    this.table.setAttribute("aria-label", label);
    this.vp.tabIndex = 0;
    this.vp.append(this.spacer);
    this.pool = new Map(); // display index -> row element
    this.pending = false;
    this.vp.addEventListener("scroll", () => this.schedule(), { passive: true });
    this.vp.addEventListener("click", (e) => {
      /** @type {HTMLElement|null} */
      const row = /** @type {Element} */ (e.target).closest(".vt-row");
      if (row) this.open(Number(row.dataset.i));
    });
    this.vp.addEventListener("keydown", (e) => this.key(e));
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this.schedule()).observe(this.vp);
  }

  /** setRowHeight changes the rows' height (a phone's rows are two lines): every row is placed anew. @param {number} px */
  setRowHeight(px) {
    if (px === this.rowHeight) return;
    this.rowHeight = px;
    for (const el of this.pool.values()) el.remove();
    this.pool.clear();
    this.setCount(this.count);
  }

  setCount(n) {
    this.count = n;
    this.spacer.style.height = n * this.rowHeight + "px";
    if (this.focusIndex >= n) this.focusIndex = Math.max(0, n - 1);
    this.table.setAttribute("aria-rowcount", String(n + this.headRows));
    this.refresh();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw(false);
    });
  }

  /** refresh redraws every row in view (the data behind them changed). */
  refresh() {
    this.draw(true);
  }

  draw(all) {
    const h = this.vp.clientHeight || 400;
    const first = Math.max(0, Math.floor(this.vp.scrollTop / this.rowHeight) - 5);
    const last = Math.min(this.count, Math.ceil((this.vp.scrollTop + h) / this.rowHeight) + 5);
    for (const [i, el] of this.pool) {
      if (i < first || i >= last) {
        el.remove();
        this.pool.delete(i);
      }
    }
    for (let i = first; i < last; i++) {
      let el = this.pool.get(i);
      const fresh = !el;
      if (fresh) {
        el = document.createElement("div");
        el.className = "vt-row";
        el.setAttribute("role", "row");
        el.dataset.i = String(i);
        el.style.top = i * this.rowHeight + "px";
        el.style.height = this.rowHeight + "px";
        this.pool.set(i, el);
        this.spacer.append(el);
      }
      if (fresh || all) {
        el.setAttribute("aria-rowindex", String(i + 1 + this.headRows));
        el.classList.toggle("vt-focus", i === this.focusIndex);
        this.renderRow(i, el);
      }
    }
  }

  open(i) {
    if (i < 0 || i >= this.count) return;
    this.focusIndex = i;
    this.refresh();
    this.onOpen(i);
  }

  key(e) {
    if (!this.count) return;
    let i = this.focusIndex;
    const page = Math.max(1, Math.floor(this.vp.clientHeight / this.rowHeight) - 1);
    if (e.key === "ArrowDown") i++;
    else if (e.key === "ArrowUp") i--;
    else if (e.key === "PageDown") i += page;
    else if (e.key === "PageUp") i -= page;
    else if (e.key === "Home") i = 0;
    else if (e.key === "End") i = this.count - 1;
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.open(this.focusIndex);
      return;
    } else return;
    e.preventDefault();
    this.focusIndex = Math.max(0, Math.min(this.count - 1, i));
    const top = this.focusIndex * this.rowHeight;
    if (top < this.vp.scrollTop) this.vp.scrollTop = top;
    else if (top + this.rowHeight > this.vp.scrollTop + this.vp.clientHeight) this.vp.scrollTop = top + this.rowHeight - this.vp.clientHeight;
    this.refresh();
  }
}
