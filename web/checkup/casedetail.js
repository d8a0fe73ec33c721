// casedetail.js: one missed case drawn in place, for a report (where nothing opens a dialog): a
// folded block whose summary says the case and why it was missed, and whose body holds the right
// verdict beside the one read, what was done to the row, the prompt and the judge's answers. A
// pure builder (doc, case) => Element on lib/dom.js hIn, for chart.js's caseDetail.

import { hIn } from "../lib/dom.js";

/**
 * caseDetail draws missed case m (data.js checkupView with details: its prompt, answers and the
 * verdict in words).
 * @param {Document} doc
 * @param {import("./chart.js").MissedCase} m
 * @returns {HTMLElement}
 */
export function caseDetail(doc, m) {
  const where = m.row >= 0 ? `Row ${m.row + 1}` : "The example";
  return hIn(
    doc,
    "details",
    { class: "cu-case", dataset: { index: String(m.index) } },
    hIn(doc, "summary", { text: `✗ ${where}: ${m.detail}` }),
    hIn(
      doc,
      "div",
      { class: "cu-versus" },
      hIn(doc, "div", { class: "cu-expect" }, hIn(doc, "div", { class: "stat-label", text: "Right verdict" }), hIn(doc, "div", { class: "cu-verdict-word", text: m.expected })),
      hIn(doc, "div", { class: "cu-read" }, hIn(doc, "div", { class: "stat-label", text: "The judge's verdict, as read" }), hIn(doc, "div", { class: "cu-verdict-word", text: m.said || "" })),
    ),
    hIn(doc, "p", { class: "hint", text: "What was done to the row: " + m.note }),
    m.prompt ? hIn(doc, "details", {}, hIn(doc, "summary", { text: "The prompt the judge got" }), hIn(doc, "pre", { class: "mono", attrs: { tabindex: 0, "aria-label": "The prompt the judge got" }, text: m.prompt })) : null,
    (m.answers || []).map((a, k) => hIn(doc, "details", { attrs: { open: k === 0 } }, hIn(doc, "summary", { text: k ? `The judge's answer (${k + 1})` : "The judge's answer" }), hIn(doc, "pre", { class: "mono", attrs: { tabindex: 0, "aria-label": "The judge's answer" }, text: a }))),
  );
}
