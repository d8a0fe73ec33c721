// table.js: the open run's rows: the filter chips (with their counts), the virtualized results
// table, and the dialog that opens one row in the same verdict view as Evaluate. It owns which
// filter is chosen; the rows, their statuses and the counts come from the run controller's one
// RunCounts per draw, so a chip never counts differently from the progress line.

import { h, replace } from "../lib/dom.js";
import { VTable } from "./vtable.js";
import { causeOf, reasonOf, judgedInput } from "../results/status.js";
import { LIVE } from "../results/counts.js";
import { repeatNote, repeatAnswers, shownAnswer } from "../stats/consistency.js";
import { ordersAnswers } from "../checkup/position.js";
import { wordFor, stateBadge } from "../verdict/statebadge.js";
import { fmtInt, fmtNum, clip, cellText } from "../lib/format.js";
import { juryNote, juryNames, juryStatuses } from "../results/jury.js";
import { juryMembers, shownMember } from "./juryview.js";

const ROW_H = 40;
/** PHONE: where a row is two lines (batch.css), its verdict, score and note over its input: taller
 * rows, all of one height still (the table is virtualized). */
const PHONE = "(max-width: 760px)";
const ROW_H_PHONE = 64;
const rowHeight = () => (matchMedia(PHONE).matches ? ROW_H_PHONE : ROW_H);
/** CELLS: the columns, their header and class (batch.css places them by class on a phone). */
const CELLS = [
  ["#", "vt-num"],
  ["Verdict", "vt-verdict"],
  ["Score", "vt-score"],
  ["Input", "vt-text"],
  ["Why / note", "vt-note"],
];

/** FILTERS: the chips, in order; "pending" counts the rows without a result, in flight or not. */
const FILTERS = [
  ["all", "All"],
  ["passed", "✓ Passed"],
  ["failed", "✗ Failed"],
  ["undetermined", "? Undetermined"],
  ["error", "! Errors"],
  ["scored", "◆ Scored"],
  ["split", "⇄ Flipped"],
  ["disagree", "≠ Disagree with label"],
  ["pending", "… Remaining"],
];

/** liveWords: what a row in flight says instead of "Not run yet". */
function liveWords(row) {
  if (row.state === LIVE.RETRYING) {
    const s = row.retryAt ? Math.max(0, Math.ceil((row.retryAt - Date.now()) / 1000)) : 0;
    return s > 0 ? `Retrying in ${s} s` : "Retrying…";
  }
  return row.state === LIVE.SAVING ? "Saving…" : "Judging…";
}

/**
 * mountTable builds the filters, the table and the row dialog for the controller's open run.
 * agreement (stats/agreementview.js), when given, says per row whether the judge agrees with the
 * human label (the "disagree" filter) and puts the label beside the verdict in the row dialog.
 * @param {{rj: Object, controller: import("./runcontroller.js").RunController, renderVerdict: Function, threshold: () => number|null,
 *   agreement?: {agrees: () => (boolean|null)[], labelLine: (index: number, status: string, ev: any) => HTMLElement|null}}} ctx
 */
export function mountTable({ rj, controller, renderVerdict, threshold, agreement }) {
  let filter = "all";
  let view = []; // row indices shown, in order
  /** @type {import("../results/counts.js").RunCounts|null} */
  let counts = null;
  const cur = () => /** @type {import("./openrun.js").OpenRun} */ (controller.current);

  const filterEl = h("div", { class: "filters", attrs: { role: "radiogroup", "aria-label": "Show rows" }, dataset: { ref: "batch-filters" } });
  const head = h(
    "div",
    { class: "vt-head", attrs: { role: "row", "aria-rowindex": "1" } },
    CELLS.map(([t, cls]) => h("span", { class: "vt-cell " + cls, attrs: { role: "columnheader" }, text: t })),
  );
  const viewport = h("div", { class: "vt", dataset: { ref: "batch-table" } });
  const tableCount = h("span", { class: "hint", dataset: { ref: "batch-table-count" } });
  // The header row and the scrolling body rows make one table for assistive technology.
  const wrap = h("div", { class: "vt-wrap" }, h("div", { attrs: { role: "rowgroup" } }, head), viewport);
  const table = new VTable(viewport, { rowHeight: rowHeight(), renderRow: (i, el) => drawRow(i, el), onOpen: (i) => openRow(view[i]), label: "Batch results", table: wrap, headRows: 1 });
  matchMedia(PHONE).addEventListener("change", () => table.setRowHeight(rowHeight()));
  const dialog = h("dialog", { class: "batch-dialog", dataset: { ref: "batch-dialog" }, attrs: { "aria-label": "Row verdict" } });
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) dialog.close();
  });

  /** drawFilters builds the chips for the open run's evaluator (on open, and when the filter changes). */
  function drawFilters() {
    const ev = cur() ? cur().ev : undefined;
    replace(
      filterEl,
      FILTERS.map(([key, label]) => {
        const b = h("button", {
          type: "button",
          class: "filter-chip",
          dataset: { ref: "batch-filter-" + key, filter: key },
          attrs: { role: "radio", "aria-checked": String(filter === key) },
          on: {
            click: () => {
              filter = key;
              viewport.scrollTop = 0;
              drawFilters();
              if (counts) draw(counts);
            },
          },
        });
        const word = key === "passed" || key === "failed" ? label.slice(0, 2) + wordFor(key, ev) : label;
        b.append(h("span", { text: word }), h("span", { class: "chip-count" }));
        return b;
      }),
    );
  }

  /** draw shows the rows and chip counts of c (the open run's RunCounts at this moment). */
  function draw(c) {
    counts = c;
    const agrees = agreement ? agreement.agrees() : [];
    const byKey = { ...c.counts, all: c.total, pending: c.remaining, split: c.split.size, disagree: agrees.filter((a) => a === false).length };
    const next = [];
    for (let i = 0; i < c.total; i++) if (filter === "all" || c.status[i] === filter || (filter === "split" && c.split.has(i)) || (filter === "disagree" && agrees[i] === false)) next.push(i);
    view = next;
    for (const b of filterEl.querySelectorAll("[data-filter]")) {
      const k = b.dataset.filter;
      /** @type {HTMLElement} */ (b.lastChild).textContent = " " + fmtInt(byKey[k]);
      b.hidden = byKey[k] === 0 && k !== filter && (k === "scored" || k === "pending" || k === "split" || k === "disagree");
    }
    tableCount.textContent = `${fmtInt(view.length)} row${view.length === 1 ? "" : "s"} shown`;
    table.setCount(view.length);
    table.refresh();
  }

  /** inputText is the text of the input the row's verdict is about (the answer judged), else its first text. */
  function inputText(item) {
    if (!item || !item.inputs) return item && item.error ? item.error : "";
    const judged = judgedInput(cur().ev);
    if (judged && typeof item.inputs[judged] === "string" && item.inputs[judged]) return item.inputs[judged];
    for (const input of cur().ev.inputs || []) {
      const v = item.inputs[input.name];
      if (typeof v === "string" && v) return v;
    }
    return cellText(Object.values(item.inputs)[0]);
  }

  function drawRow(i, el) {
    const c = cur();
    if (!c || !counts) return;
    const index = view[i];
    const r = c.results[index];
    const st = counts.status[index] || "pending";
    const live = !r ? counts.live.get(index) : null;
    const th = threshold();
    const v = r && r.verdict;
    let note = "";
    // An undetermined or error row's badge is its state's word alone, and its cause leads the note:
    // in the badge a cause such as "HTTP 400 (context_length_exceeded)" was cut mid-word by the column.
    const cause = r && (st === "undetermined" || st === "error") ? causeOf(r, th) : null;
    if (r) note = cause ? [cause, reasonOf(r)].filter(Boolean).join(" · ") : r.repaired ? "repaired after one correction request" : r.cachedCalls && !r.calls ? "from cache" : "";
    else if (live && (live.attempt || 1) > 1) note = `attempt ${live.attempt}`;
    if (r && st !== "error" && Array.isArray(r.repeats)) note = repeatNote(r, th) + (note ? " · " + note : "");
    // A jury's row says what each judge said ("jury: a ✓ · b ✗"), before why it is undetermined.
    const jury = r && r.jury ? juryStatuses(r, th) : null;
    if (r && jury) note = juryNote(r, null, th) + (note ? " · " + note : "");
    if (jury) el.dataset.judges = jury.join(" ");
    else delete el.dataset.judges;
    el.dataset.status = st;
    el.dataset.index = String(index);
    if (live) el.dataset.live = live.state;
    else delete el.dataset.live;
    el.replaceChildren(
      h("span", { class: "vt-cell vt-num", attrs: { role: "cell" }, text: String(index + 1) }),
      h("span", { class: "vt-cell vt-verdict", attrs: { role: "cell" } }, live ? stateBadge(live.state, null, undefined, { text: liveWords(live) }) : stateBadge(st, null, c.ev)),
      h("span", { class: "vt-cell vt-score", attrs: { role: "cell" }, text: v && typeof v.score === "number" ? fmtNum(v.score) : "–" }),
      h("span", { class: "vt-cell vt-text", attrs: { role: "cell" }, text: clip(inputText(c.items[index]), 160) }),
      h("span", { class: "vt-cell vt-note", attrs: { role: "cell" }, text: clip(note, 200) }),
    );
  }

  function openRow(index) {
    const c = cur();
    const r = c.results[index];
    const item = c.items[index] || {};
    const th = threshold();
    const st = counts ? counts.status[index] : "pending";
    const close = h("button", { type: "button", class: "btn btn-ghost dialog-close", text: "✕ Close", on: { click: () => dialog.close() } });
    const prev = h("button", { type: "button", class: "btn btn-small", text: "← Previous", disabled: index === 0, on: { click: () => openRow(index - 1) } });
    const next = h("button", { type: "button", class: "btn btn-small", text: "Next →", disabled: index >= c.run.total - 1, on: { click: () => openRow(index + 1) } });
    let body;
    const live = !r && counts ? counts.live.get(index) : null;
    if (!r) body = h("p", { text: live ? liveWords(live) : "This row has not been judged yet." });
    else if (r.error) body = h("div", { class: "verdict v-undetermined" }, stateBadge("error", causeOf(r, th)), h("p", { class: "msg-error", dataset: { ref: "batch-row-error" }, text: r.error.message }));
    else {
      let v = r.verdict;
      if (st === "passed" || st === "failed") v = { ...v, passed: st === "passed" };
      try {
        const from = r.jury ? shownMember(r) : r;
        body = renderVerdict({ rj, ev: c.ev, inputs: item.inputs, v, answer: from.repeats ? shownAnswer(from) : from.answers[from.answers.length - 1] });
      } catch {
        body = h("pre", { class: "mono", text: JSON.stringify(r.verdict, null, 2) });
      }
    }
    const answers =
      r && r.jury
        ? juryMembers(r, juryNames(c.run.settings), th, c.ev)
        : r && Array.isArray(r.repeats)
        ? repeatAnswers(document, r, th, c.ev ? c.ev.words || null : null)
        : r && Array.isArray(r.orders)
        ? ordersAnswers(document, r)
        : r && r.answers.length
        ? r.answers.map((a, k) => h("details", { class: "raw", open: k === r.answers.length - 1 }, h("summary", { text: k === 0 ? "The judge's answer" : "The judge's corrected answer (after one repair request)" }), h("pre", { class: "mono", text: a })))
        : [];
    replace(
      dialog,
      h("div", { class: "dialog-head" }, h("h2", { class: "card-title", text: `Row ${index + 1} of ${fmtInt(c.run.total)}` }), prev, next, close),
      agreement ? agreement.labelLine(index, st || "pending", c.ev) : null,
      body,
      answers,
      h("details", { class: "raw" }, h("summary", { text: "Inputs" }), h("pre", { class: "mono", text: item.inputs ? JSON.stringify(item.inputs, null, 2) : item.error || "" })),
      r ? h("p", { class: "hint", text: `${r.calls} call${r.calls === 1 ? "" : "s"}, ${r.cachedCalls} from cache, ${r.attempts} attempt${r.attempts === 1 ? "" : "s"}, ${fmtInt(r.usage.prompt_tokens)} + ${fmtInt(r.usage.completion_tokens)} tokens, ${fmtNum(r.ms / 1000, 1)} s` }) : null,
    );
    dialog.dataset.index = String(index);
    if (!dialog.open) dialog.showModal();
    close.focus();
  }

  return {
    bar: h("div", { class: "table-bar" }, filterEl, tableCount),
    table: wrap,
    dialog,
    draw,
    /** reset goes back to every row, with chips for a newly opened run. */
    reset() {
      filter = "all";
      counts = null;
      viewport.scrollTop = 0;
      drawFilters();
    },
  };
}
