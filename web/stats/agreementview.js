// agreementview.js: the Agreement panel in the Batch view's run card, for a run with a human label
// column: the labels read once per run from its rows' sources, the panel redrawn from the open
// run's statuses as results come in (at most once a second while rows stream in), the per-row
// agreement the table's "Disagree" filter and the exports read, and the label beside the judge's
// verdict in the row dialog. A run without a label column can be given one here (any column of
// its dataset); the choice is kept in the run's record.

import { readLabels, suggestLabelColumn, runLabel, yesNote, labelSummary, labelExportFields } from "./labels.js";
import { agreementData, rowAgreement, judgeOf } from "./agreement.js";
import { agreementPanel } from "./agreementpanel.js";
import { hIn } from "../lib/dom.js";
import { juryData, juryPanel } from "./jury.js";
import { juryNames } from "../results/jury.js";

const REDRAW_MS = 1000;

/**
 * mountAgreement builds the panel's place; draw(counts) redraws it for the controller's open run.
 * threshold is the pass threshold for scores (a jury's judges are read with it, as the rows are).
 * @param {{rj: any, controller: import("../batch/runcontroller.js").RunController, words: (ev: any) => {passed: string, failed: string}, threshold?: () => number|null}} ctx
 */
export function mountAgreement({ rj, controller, words, threshold = () => null }) {
  const root = document.createElement("div");
  root.className = "trust";
  root.dataset.ref = "batch-agreement";
  root.hidden = true;
  const picker = document.createElement("div");
  picker.className = "label-pick";
  const panel = document.createElement("div");
  root.append(picker, panel);

  let runId = "";
  let key = "";
  let at = 0;
  /** @type {import("./labels.js").Labels|null} */
  let labels = null;
  /** @type {(boolean|null)[]} */
  let agrees = [];
  /** @type {import("../results/counts.js").RunCounts|null} */
  let last = null;

  /** labelsOf reads the open run's label column from its rows (once per run and column). */
  function labelsOf(c) {
    const column = c.run.label && c.run.label.column;
    if (!column) return null;
    const yes = c.run.label.yes || "";
    if (labels && labels.column === column && (labels.yesChosen ? labels.yes : "") === yes && runId === c.run.id) return labels;
    return readLabels(
      c.items.map((/** @type {any} */ it) => (it ? it.source : null)),
      column,
      c.run.label.yes,
    );
  }

  function drawPicker(c) {
    const cols = Array.isArray(c.run.columns) ? c.run.columns : [];
    const id = "agree-col-" + c.run.id;
    const sel = /** @type {HTMLSelectElement} */ (
      hIn(document, "select", { class: "input", dataset: { ref: "agreement-column" }, attrs: { id } }, hIn(document, "option", { text: "(none)", attrs: { value: "" } }), cols.map((k) => hIn(document, "option", { text: k, attrs: { value: k } })))
    );
    sel.value = (c.run.label && c.run.label.column) || "";
    // What a yes (true, 1) in the column means, as in the mapping's field (stats/labelfield.js).
    const yesSel = /** @type {HTMLSelectElement} */ (
      hIn(
        document,
        "select",
        { class: "input", dataset: { ref: "agreement-yes" }, attrs: { id: id + "-yes", "aria-label": "Yes, true and 1 mean" } },
        hIn(document, "option", { text: "yes means: as its name says", attrs: { value: "" } }),
        hIn(document, "option", { text: "yes means pass", attrs: { value: "pass" } }),
        hIn(document, "option", { text: "yes means fail", attrs: { value: "fail" } }),
      )
    );
    yesSel.value = (c.run.label && c.run.label.yes) || "";
    const shown = labels && labels.column === sel.value ? labels : null;
    yesSel.hidden = !(shown && shown.kind === "boolean" && shown.answers > 0);
    const choose = () => {
      c.run.label = runLabel(sel.value, yesSel.value);
      // The choice is the run's: kept in its record (a running run writes it with its next state).
      if (!c.readOnly && controller.store) controller.store.putRun({ ...c.run }).catch(() => {});
      key = "";
      if (last) draw(last, true);
    };
    sel.addEventListener("change", () => {
      yesSel.value = "";
      choose();
    });
    yesSel.addEventListener("change", choose);
    const suggested = suggestLabelColumn(cols);
    picker.replaceChildren(
      hIn(
        document,
        "div",
        { class: "field label-pick-field" },
        hIn(document, "label", { attrs: { for: id }, text: "Compare with human labels in column" }),
        sel,
        yesSel,
        !sel.value && suggested ? hIn(document, "span", { class: "hint", text: ` ${suggested} looks like one.` }) : null,
        shown && shown.kind === "boolean" && shown.answers > 0
          ? hIn(document, "span", { class: "hint", dataset: { ref: "agreement-yes-note" }, text: " " + yesNote(shown) })
          : null,
      ),
    );
  }

  /**
   * draw redraws the panel for counts (the open run's RunCounts); force skips the once-a-second limit.
   * @param {import("../results/counts.js").RunCounts} counts
   * @param {boolean} [force]
   */
  function draw(counts, force = false) {
    last = counts;
    const c = controller.current;
    if (!c) {
      root.hidden = true;
      return;
    }
    if (c.run.id !== runId || force) {
      labels = labelsOf(c);
      runId = c.run.id;
      drawPicker(c);
      key = "";
    }
    root.hidden = false;
    agrees = rowAgreement(labels, counts.status);
    const k = `${c.run.id}|${labels ? labels.column : ""}|${counts.done}|${counts.remaining}|${counts.counts.passed}|${counts.counts.failed}`;
    const now = performance.now();
    if (!force && (k === key || (key && counts.remaining > 0 && now - at < REDRAW_MS))) return;
    key = k;
    at = now;
    panel.replaceChildren();
    const names = juryNames(c.run.settings);
    // A jury: each judge's κ against the labels beside the jury's, and the κ between judges (with or without labels).
    const jury = names.length ? juryPanel(document, juryData(rj, { names, rule: (c.run.settings.jury && c.run.settings.jury.rule) || "majority", results: c.results, status: counts.status, labels, threshold: threshold(), running: counts.remaining > 0 })) : null;
    if (!labels) return void (jury && panel.append(jury));
    const data = agreementData(rj, { labels, status: counts.status, results: c.results, words: words(c.ev), running: counts.remaining > 0, score: c.ev ? c.ev.score : null });
    if (!data) {
      panel.append(hIn(document, "p", { class: "batch-msg msg-error", dataset: { ref: "agreement-none" }, text: `Column ${labelSummary(labels)}` }));
      return;
    }
    panel.append(agreementPanel(document, data));
    if (jury) panel.append(jury);
  }

  /**
   * labelLine is the judge's verdict beside the human label, for the row dialog; null when the
   * run has no label column.
   * @param {number} index
   * @param {string} status the row's status
   * @param {any} ev the evaluator
   * @returns {HTMLElement|null}
   */
  function labelLine(index, status, ev) {
    if (!labels || controller.current?.run.id !== runId) return null;
    const w = words(ev);
    const h = labels.values[index];
    const j = judgeOf(status);
    const verdict = (/** @type {any} */ v) => (v === true ? "✓ " + w.passed : v === false ? "✗ " + w.failed : "? Undetermined");
    const bad = labels.unreadable.find((u) => u.row === index + 1);
    const humanText = labels.kind === "number" ? (typeof h === "number" ? String(h) : "–") : h === null || h === undefined ? (bad ? `unreadable: “${bad.text}”` : "no label") : verdict(h);
    const r = controller.current?.results[index];
    const judgeText = labels.kind === "number" ? (r && r.verdict && typeof r.verdict.score === "number" ? String(Math.round(r.verdict.score * 1000) / 1000) : "–") : j === undefined ? (status === "error" ? "! error" : "not judged yet") : verdict(j);
    const a = agrees[index];
    return hIn(
      document,
      "div",
      { class: "label-beside", dataset: { ref: "batch-row-label", agrees: a === null ? "" : String(a) } },
      hIn(document, "div", { class: "label-side" }, hIn(document, "div", { class: "stat-label", text: labels.kind === "number" ? "Judge's score" : "Judge" }), hIn(document, "div", { class: "label-value", text: judgeText })),
      hIn(document, "div", { class: "label-side" }, hIn(document, "div", { class: "stat-label", text: `Human label (${labels.column})` }), hIn(document, "div", { class: "label-value", dataset: { ref: "batch-row-human" }, text: humanText })),
      a === null ? null : hIn(document, "div", { class: "label-agree " + (a ? "agree" : "disagree"), text: a ? "✓ they agree" : "✗ they disagree" }),
    );
  }

  return {
    el: root,
    draw,
    labelLine,
    /** agrees: per row, whether the judge agrees with the label (null: no label or no verdict). */
    agrees: () => agrees,
    /** exportFields: the label and agrees fields of each exported row, or null without a label column. */
    exportFields: () => {
      const c = controller.current;
      if (!labels || !c || c.run.id !== runId) return null;
      return labelExportFields(labels, agrees);
    },
  };
}
