// casedialog.js: one check-up case opened from the chart (a missed case, one click away): what the
// verdict had to be beside what the judge's verdict was read as, what was done to the row, the
// prompt the judge got, its answer (each order's, each repeat's), and the verdict drawn as
// Evaluate draws it. Previous and Next walk the cases listed. Text only through textContent.

import { h, replace } from "../lib/dom.js";
import { saidWords } from "./data.js";
import { shownAnswer } from "../stats/consistency.js";

/**
 * mountCaseDialog builds the dialog; open(c, grades, index, list) shows case index of open run c
 * (graded in grades), list being the case indices Previous and Next walk.
 * @param {{rj: any, renderVerdict: Function}} ctx
 */
export function mountCaseDialog({ rj, renderVerdict }) {
  const dialog = h("dialog", { class: "batch-dialog cu-dialog", dataset: { ref: "checkup-dialog" }, attrs: { "aria-label": "Check-up case" } });
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) dialog.close();
  });

  /**
   * @param {import("../batch/openrun.js").OpenRun} c
   * @param {import("./grade.js").CheckupGrades} grades
   * @param {number} index
   * @param {number[]} list
   */
  function open(c, grades, index, list) {
    const g = grades.cases.find((x) => x.index === index);
    const item = c.items[index];
    const r = c.results[index];
    if (!g || !item) return;
    const at = list.indexOf(index);
    const go = (/** @type {number} */ k) => open(c, grades, list[k], list);
    const close = h("button", { type: "button", class: "btn btn-ghost dialog-close", text: "✕ Close", on: { click: () => dialog.close() } });
    const prev = h("button", { type: "button", class: "btn btn-small", text: "← Previous", disabled: at <= 0, on: { click: () => go(at - 1) } });
    const next = h("button", { type: "button", class: "btn btn-small", text: "Next →", disabled: at < 0 || at >= list.length - 1, on: { click: () => go(at + 1) } });
    const where = g.row >= 0 ? `row ${g.row + 1} of the dataset` : "the evaluator's worked example";
    const mark = g.outcome === "caught" ? "✓ Caught" : g.outcome === "missed" ? "✗ Missed" : g.outcome === "undetermined" ? "? Undetermined" : g.outcome === "error" ? "! No answer" : "… Not judged yet";
    let prompt = "";
    try {
      prompt = rj.render(c.ev.id, item.inputs).prompt;
    } catch (e) {
      prompt = "The prompt could not be rendered: " + String((e && /** @type {any} */ (e).message) || e);
    }
    // The prompt opens on its end, where the case's inputs are (its start is the evaluator's instructions).
    // Scrolled boxes take the focus, so that a keyboard scrolls them too.
    const promptEl = h("pre", { class: "mono cu-prompt", tabIndex: 0, dataset: { ref: "checkup-case-prompt" }, attrs: { "aria-label": "The prompt the judge got" }, text: prompt });
    let verdictEl = null;
    if (r && !r.error && r.verdict) {
      try {
        verdictEl = renderVerdict({ rj, ev: c.ev, inputs: item.inputs, v: r.verdict, answer: Array.isArray(r.repeats) ? shownAnswer(r) : r.answers[r.answers.length - 1] });
      } catch {
        verdictEl = h("pre", { class: "mono", text: JSON.stringify(r.verdict, null, 2) });
      }
    }
    replace(
      dialog,
      h("div", { class: "dialog-head" }, h("h2", { class: "card-title", text: at >= 0 ? `${g.outcome === "missed" ? "Missed case" : "Case"} ${at + 1} of ${list.length}` : `Case ${index + 1}` }), prev, next, close),
      h("p", { class: `cu-outcome cu-is-${g.outcome}`, dataset: { ref: "checkup-case-outcome", outcome: g.outcome } }, h("strong", { text: mark }), ` · ${g.name} · ${where}`),
      h(
        "div",
        { class: "cu-versus" },
        h("div", { class: "cu-expect" }, h("div", { class: "stat-label", text: "Right verdict" }), h("div", { class: "cu-verdict-word", dataset: { ref: "checkup-case-expected" }, text: g.expected })),
        h("div", { class: "cu-read cu-read-" + g.outcome }, h("div", { class: "stat-label", text: "The judge's verdict, as read" }), h("div", { class: "cu-verdict-word", dataset: { ref: "checkup-case-read" }, text: r ? saidWords(c.ev, r) : "not judged yet" })),
      ),
      h("p", { dataset: { ref: "checkup-case-detail" }, text: g.detail }),
      h("p", { class: "hint", text: "What was done to the row: " + g.note }),
      h("details", { class: "raw", open: true }, h("summary", { text: "The case's inputs" }), inputsOf(c.ev, item.inputs)),
      answersOf(r),
      h("details", { class: "raw", open: true }, h("summary", { text: "The prompt the judge got" }), promptEl),
      verdictEl ? h("div", { class: "cu-verdict-view" }, h("h3", { class: "sub-title", text: "The verdict, as Evaluate shows it" }), verdictEl) : null,
    );
    dialog.dataset.index = String(index);
    if (!dialog.open) dialog.showModal();
    promptEl.scrollTop = promptEl.scrollHeight;
    close.focus();
  }

  return { dialog, open };
}

/**
 * inputsOf is a case's inputs in the evaluator's order, each under its label (the one the
 * verdict is about marked), a list numbered.
 * @param {any} ev
 * @param {any} inputs
 */
function inputsOf(ev, inputs) {
  const text = (/** @type {any} */ v) => (typeof v === "string" ? v : v && typeof v === "object" && typeof v.text === "string" ? (v.title ? v.title + ": " : "") + v.text : JSON.stringify(v));
  const declared = ((ev && ev.inputs) || []).filter((/** @type {any} */ i) => inputs && i.name in inputs);
  return h(
    "dl",
    { class: "cu-inputs" },
    declared.map((/** @type {any} */ i) => [
      h("dt", { text: (i.label || i.name) + (i.judged ? " (judged)" : "") }),
      h("dd", {}, Array.isArray(inputs[i.name]) ? h("ol", {}, inputs[i.name].map((/** @type {any} */ x) => h("li", { text: text(x) }))) : h("div", { class: "cu-input-text", text: text(inputs[i.name]) })),
    ]),
  );
}

/**
 * answersOf is the judge's answers to a case, each in a block: one order (the last answer open),
 * each order of a case judged in both, each repeat.
 * @param {any} r
 * @returns {HTMLElement[]}
 */
function answersOf(r) {
  if (!r) return [];
  /** @type {HTMLElement[]} */
  const out = [];
  const block = (/** @type {string} */ title, /** @type {string[]} */ answers, /** @type {boolean} */ open) =>
    answers.forEach((a, k) => out.push(h("details", { class: "raw", open: open && k === answers.length - 1 }, h("summary", { text: title + (k ? " (corrected, after one repair request)" : "") }), h("pre", { class: "mono", tabIndex: 0, dataset: { ref: "checkup-case-answer" }, attrs: { "aria-label": title }, text: a }))));
  const one = (/** @type {any} */ x, /** @type {string} */ prefix, /** @type {boolean} */ open) => {
    if (Array.isArray(x.orders) && x.orders.length === 2) {
      block(prefix + "The judge's answer, the answers as they are", x.orders[0].answers || [], open);
      block(prefix + "The judge's answer, the answers exchanged", x.orders[1].answers || [], open);
    } else block(prefix + "The judge's answer", x.answers || [], open);
  };
  if (Array.isArray(r.repeats) && r.repeats.length > 1) r.repeats.forEach((x, k) => one(x, `Repeat ${k + 1}: `, k === 0));
  else one(r, "", true);
  if (r.error) out.push(h("p", { class: "msg-error", text: r.error.message || "The call failed." }));
  return out;
}
