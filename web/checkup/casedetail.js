// casedetail.js: one missed case drawn in place, for a report (where nothing opens a dialog): a
// folded block whose summary says the case and why it was missed, and whose body holds the right
// verdict beside the one read, what was done to the row, the prompt and the judge's answers. A
// pure builder (doc, case) => Element on stats/make.js, for chart.js's caseDetail.

import { el } from "../stats/make.js";

/**
 * caseDetail draws missed case m (data.js checkupView with details: its prompt, answers and the
 * verdict in words).
 * @param {Document} doc
 * @param {import("./chart.js").MissedCase} m
 * @returns {HTMLElement}
 */
export function caseDetail(doc, m) {
  const where = m.row >= 0 ? `Row ${m.row + 1}` : "The example";
  return el(
    doc,
    "details",
    { class: "cu-case", dataset: { index: String(m.index) } },
    el(doc, "summary", { text: `✗ ${where}: ${m.detail}` }),
    el(
      doc,
      "div",
      { class: "cu-versus" },
      el(doc, "div", { class: "cu-expect" }, el(doc, "div", { class: "stat-label", text: "Right verdict" }), el(doc, "div", { class: "cu-verdict-word", text: m.expected })),
      el(doc, "div", { class: "cu-read" }, el(doc, "div", { class: "stat-label", text: "The judge's verdict, as read" }), el(doc, "div", { class: "cu-verdict-word", text: m.said || "" })),
    ),
    el(doc, "p", { class: "hint", text: "What was done to the row: " + m.note }),
    m.prompt ? el(doc, "details", {}, el(doc, "summary", { text: "The prompt the judge got" }), el(doc, "pre", { class: "mono", attrs: { tabindex: 0, "aria-label": "The prompt the judge got" }, text: m.prompt })) : null,
    (m.answers || []).map((a, k) => el(doc, "details", { attrs: { open: k === 0 } }, el(doc, "summary", { text: k ? `The judge's answer (${k + 1})` : "The judge's answer" }), el(doc, "pre", { class: "mono", attrs: { tabindex: 0, "aria-label": "The judge's answer" }, text: a }))),
  );
}
