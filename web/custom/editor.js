// editor.js: a template editor: a plain textarea beside a gutter of line numbers, grown to fit its
// lines (so the gutter never has to follow a scroll), its long lines wrapped to the editor's width
// (a phone's too: no line runs off sideways), each number as tall as its line's wrapped rows (read
// from a hidden copy of the text laid out as the textarea lays it out), with each error of the template marked on
// its line's number and listed beneath the editor with the line it points at quoted and a ▲ under
// its column, and a button that selects the span. The quote sits under the editor, not over the
// text: a box drawn over the lines below the error hid them while the user fixed it. No
// framework: the text is the textarea's value, and everything drawn from it goes through
// textContent.

import { h, replace, selectSpan } from "../lib/dom.js";
import { lineStarts } from "./specedit.js";

/**
 * @typedef {{severity: string, code?: string, message: string, path?: string, line?: number, col?: number, len?: number}} Check
 */

/**
 * templateEditor builds an editor for one template. label names it for assistive technology
 * (and is shown above it); ref is its data-ref; onInput is called after every edit.
 * @param {{label: string, ref: string, value: string, onInput: (value: string) => void}} opts
 */
export function templateEditor({ label, ref, value, onInput }) {
  const id = "tpl-" + ref;
  const gutter = h("div", { class: "tpl-gutter", attrs: { "aria-hidden": "true" } });
  const ta = h("textarea", {
    id,
    class: "tpl-input mono",
    value,
    dataset: { ref: ref + "-input" },
    attrs: { spellcheck: "false", autocomplete: "off", autocapitalize: "off", "aria-describedby": id + "-checks" },
    on: {
      input: () => {
        fit();
        onInput(ta.value);
      },
    },
  });
  const list = h("ul", { class: "checks tpl-checks", id: id + "-checks", dataset: { ref: ref + "-checks" }, attrs: { "aria-live": "polite" } });
  // The text again, one block per line, wrapped as the textarea wraps it and never shown: it gives
  // the editor its height and each line number the height of its line.
  const mirror = h("div", { class: "tpl-mirror mono", attrs: { "aria-hidden": "true" } });
  const code = h("div", { class: "tpl-code" }, mirror, ta);
  const el = h(
    "div",
    { class: "tpl", dataset: { ref } },
    h("label", { class: "field-label", htmlFor: id, text: label }),
    h("div", { class: "tpl-box" }, gutter, code),
    list,
  );
  /** @type {Check[]} */
  let shown = [];
  let lines = 0;

  /** fit lays the text out in the mirror (which sizes the textarea), numbers the gutter and gives each number its line's height. */
  function fit() {
    const texts = ta.value.split("\n");
    const n = texts.length;
    if (n !== lines) {
      lines = n;
      replace(gutter, Array.from({ length: n }, (_, i) => h("div", { class: "tpl-ln", dataset: { line: String(i + 1) }, text: String(i + 1) })));
      marked = new Map();
      markGutter();
    }
    const rows = mirror.children;
    while (rows.length > n) /** @type {Element} */ (mirror.lastElementChild).remove();
    while (rows.length < n) mirror.append(h("div", { class: "tpl-mirror-ln" }));
    for (let i = 0; i < n; i++) if (rows[i].textContent !== texts[i]) rows[i].textContent = texts[i];
    heights();
  }

  /** heights gives each line number the height its line takes, wrapped, in the mirror. */
  function heights() {
    const rows = mirror.children;
    const nums = /** @type {HTMLCollectionOf<HTMLElement>} */ (gutter.children);
    for (let i = 0; i < rows.length && i < nums.length; i++) {
      const px = rows[i].getBoundingClientRect().height + "px";
      if (nums[i].style.height !== px) nums[i].style.height = px;
    }
    ta.scrollTop = 0; // a caret kept in view may have scrolled it before the mirror grew
  }
  // A new width wraps the lines anew (a window turned, a pane resized).
  if (typeof ResizeObserver === "function") new ResizeObserver(() => heights()).observe(code);

  /** @type {Map<number, string>} the lines marked now, and how */
  let marked = new Map();
  /** markGutter marks the lines the checks point at; only lines whose mark changes are touched. */
  function markGutter() {
    const bad = new Map();
    for (const c of shown) if (c.line) bad.set(c.line, bad.get(c.line) === "error" || c.severity === "error" ? "error" : "warning");
    const rows = /** @type {HTMLCollectionOf<HTMLElement>} */ (gutter.children);
    for (const line of new Set([...marked.keys(), ...bad.keys()])) {
      const ln = rows[line - 1];
      const sev = bad.get(line);
      if (!ln || marked.get(line) === sev) continue;
      ln.className = "tpl-ln" + (sev ? " tpl-ln-" + sev : "");
      ln.textContent = (sev === "error" ? "✗ " : sev === "warning" ? "⚠ " : "") + line;
    }
    marked = bad;
  }

  /**
   * setChecks shows checks (those of this template; line/col relative to it).
   * @param {Check[]} checks
   */
  function setChecks(checks) {
    shown = checks;
    markGutter();
    // Every check is in the list; the first of each line quotes that line with a ▲ under its column.
    const text = ta.value;
    const starts = lineStarts(text);
    const quoted = new Set();
    const width = checks.some((c) => c.line) ? quoteWidth(el) : QUOTE_WIDTH;
    replace(
      list,
      checks.map((c) => {
        const sev = c.severity === "error" ? "error" : "warning";
        const quote = c.line && c.line <= lines && !quoted.has(c.line);
        if (quote) quoted.add(c.line ?? 0);
        return h(
          "li",
          { class: "check-" + sev, dataset: { code: c.code || "", line: String(c.line || "") } },
          h("span", { class: "check-icon", text: sev === "error" ? "✗ Error" : "⚠ Warning" }),
          " ",
          c.line ? h("span", { class: "tpl-where", text: `line ${c.line}${c.col ? ", column " + c.col : ""}: ` }) : null,
          h("span", { text: c.message }),
          c.line
            ? [" ", h("button", { type: "button", class: "btn btn-small btn-ghost locate", text: "Show", attrs: { "aria-label": `Show line ${c.line} in ${label}` }, on: { click: () => selectSpan(ta, { line: c.line || 1, col: c.col, len: c.len }) } })]
            : null,
          quote ? lineQuote(text, starts, c, sev, width) : null,
        );
      }),
    );
  }

  fit();
  return {
    el,
    textarea: ta,
    setChecks,
    /** @param {string} v */
    setValue(v) {
      if (ta.value === v) return;
      ta.value = v;
      fit();
    },
  };
}

const QUOTE_WIDTH = 72; // characters of a long line quoted around the column, at most
const QUOTE_MIN = 24; // ... and at least, on the narrowest screen

/**
 * quoteWidth is how many characters of a quoted line fit in the editor's width (a phone's is
 * narrower than QUOTE_WIDTH), so that a quote is cut around its column rather than scrolled sideways.
 * @param {HTMLElement} editor
 */
function quoteWidth(editor) {
  const box = editor.clientWidth;
  if (!box) return QUOTE_WIDTH; // not laid out (hidden): the widest
  const probe = h("span", { class: "tpl-probe", text: "0".repeat(20) });
  editor.append(probe);
  const ch = probe.getBoundingClientRect().width / 20;
  probe.remove();
  // The line's number (up to 4 digits and the gap) and the quote's padding and border beside it.
  const fits = ch > 0 ? Math.floor((box - 40) / ch) - 6 : QUOTE_WIDTH;
  return Math.max(QUOTE_MIN, Math.min(QUOTE_WIDTH, fits));
}

/**
 * lineQuote is check c's line of text quoted, its number beside it and a ▲ under c's column (a
 * line longer than width characters cut around the column, "…" where it is cut).
 * @param {string} text @param {number[]} starts @param {Check} c @param {string} sev
 * @param {number} [width] characters shown at most
 * @returns {HTMLElement}
 */
function lineQuote(text, starts, c, sev, width = QUOTE_WIDTH) {
  const line = c.line ?? 1;
  const from = starts[line - 1] ?? 0;
  const to = line < starts.length ? starts[line] - 1 : text.length;
  let chars = [...text.slice(from, to).replace(/\t/g, " ")];
  let col = Math.min(Math.max(1, c.col || 1), chars.length + 1);
  let head = "";
  // A column far to the right is shown with two thirds of the width before it.
  if (col > width - Math.round(width / 6)) {
    const cut = col - Math.round((width * 2) / 3);
    chars = chars.slice(cut);
    col -= cut - 1;
    head = "…";
  }
  const tail = chars.length > width ? "…" : "";
  const shown = head + chars.slice(0, width).join("") + tail;
  return h(
    "div",
    { class: "tpl-pin tpl-pin-" + sev, dataset: { ref: "tpl-pin", line: String(line), col: String(c.col || 1), code: c.code || "" }, attrs: { "aria-hidden": "true" } },
    h("span", { class: "tpl-pin-ln", text: String(line) }),
    h("span", { class: "tpl-pin-src", text: shown || " " }),
    h("span", { class: "tpl-pin-ln" }),
    h("span", { class: "tpl-caret", text: " ".repeat(col - 1 + head.length) + "▲" }),
  );
}
