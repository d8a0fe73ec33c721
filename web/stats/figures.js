// figures.js: the small pieces the trust panels, the run summary and reports share. Every builder
// takes the document it builds in (the page's, or a report's), so that a panel is a pure function (doc, data) =>
// Element; text is only ever set as textContent.

import { hIn, badgeIn, STATES, stateOf } from "../lib/dom.js";
import { fmtInt, fmtNum } from "../lib/format.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * svgIn builds an SVG element in doc with attributes attrs and, if given, text.
 * @param {Document} doc
 * @param {string} tag
 * @param {Object<string, string|number>} [attrs]
 * @param {string|null} [text]
 * @returns {SVGElement}
 */
export function svgIn(doc, tag, attrs = {}, text = null) {
  const e = /** @type {SVGElement} */ (doc.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

/**
 * stat is one large number with its label and a sentence saying what it means.
 * @param {Document} doc
 * @param {string} ref data-ref of the card
 * @param {string} value
 * @param {string} label
 * @param {string} sub
 */
export function stat(doc, ref, value, label, sub) {
  return hIn(doc, "div", { class: "stat", dataset: { ref } }, hIn(doc, "div", { class: "stat-value", text: value }), hIn(doc, "div", { class: "stat-label", text: label }), hIn(doc, "div", { class: "hint", text: sub }));
}

/**
 * kappaWords is Landis and Koch's (1977) name for the strength of agreement a κ shows.
 * @param {number} k
 */
export function kappaWords(k) {
  if (k < 0) return "poor, worse than chance";
  if (k <= 0.2) return "slight";
  if (k <= 0.4) return "fair";
  if (k <= 0.6) return "moderate";
  if (k <= 0.8) return "substantial";
  return "almost perfect";
}

/** VERDICT_MARK is how one verdict is written in a short list: an icon a grey projector keeps. */
export const VERDICT_MARK = Object.freeze({ true: "✓", false: "✗", null: "?" });

/**
 * mark is the icon of a verdict true, false or null.
 * @param {boolean|null|undefined} v
 */
export function mark(v) {
  return v === true ? "✓" : v === false ? "✗" : "?";
}

/**
 * @typedef {{passed?: string, failed?: string}} VerdictWords the evaluator's words for its two
 * verdicts ("Grounded" / "Not grounded"), as its declaration gives them (ev.words)
 */

/**
 * verdictWord is a verdict in words, with its icon: the evaluator's words when given, so the
 * panels say "✓ Grounded" as the rest of the page does; "passed"/"failed" otherwise.
 * @param {boolean|null|undefined} v
 * @param {VerdictWords|null} [words]
 */
export function verdictWord(v, words) {
  const w = words || {};
  return v === true ? "✓ " + (w.passed || "passed") : v === false ? "✗ " + (w.failed || "failed") : "? undetermined";
}

/**
 * verdictBadge is a verdict as the page's badge (lib/dom.js badgeIn: icon, word, colour), the
 * evaluator's words when given, with its score beside it: a verdict in a table looks as it does
 * everywhere else.
 * @param {Document} doc
 * @param {boolean|null} v
 * @param {VerdictWords|null|undefined} words
 * @param {number|null} [score]
 */
export function verdictBadge(doc, v, words, score = null) {
  const st = STATES[stateOf(v)];
  const w = words || {};
  const word = v === true ? w.passed || st.word : v === false ? w.failed || st.word : st.word;
  return hIn(doc, "span", { class: "verdict-cell" }, badgeIn(doc, { state: stateOf(v), icon: st.icon, word, cls: st.cls, size: "badge-small" }), score !== null ? hIn(doc, "span", { class: "verdict-score", text: fmtNum(score) }) : null);
}

/**
 * scrollTable is a table that scrolls inside its box on a narrow screen: its header cells, then
 * its rows (each a <tr> the caller made).
 * @param {Document} doc
 * @param {{ref: string, heads: string[], rows: Element[], class?: string}} t
 */
export function scrollTable(doc, { ref, heads, rows, class: cls = "ptable" }) {
  return hIn(doc, "div", { class: "table-scroll" }, hIn(doc, "table", { class: cls, dataset: { ref } }, hIn(doc, "thead", {}, hIn(doc, "tr", {}, heads.map((t) => hIn(doc, "th", { text: t })))), hIn(doc, "tbody", {}, rows)));
}

/**
 * causesList lists the causes of undetermined rows and errors, most frequent first, in doc.
 * @param {Document} doc
 * @param {{cause: string, count: number}[]} causes
 * @returns {HTMLElement}
 */
export function causesList(doc, causes) {
  if (!causes.length) return hIn(doc, "p", { class: "hint", text: "No undetermined rows and no errors." });
  return hIn(
    doc,
    "ul",
    { class: "causes", dataset: { ref: "batch-causes" } },
    causes.map((x) => hIn(doc, "li", {}, hIn(doc, "span", { class: "cause-count", text: fmtInt(x.count) }), " ", hIn(doc, "span", { text: x.cause }))),
  );
}
