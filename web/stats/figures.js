// make.js: the small DOM builders the trust panels share. Every builder takes the document it
// builds in (the page's, or a report's), so that a panel is a pure function (doc, data) =>
// Element; text is only ever set as textContent.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * el builds an HTML element in doc. props: class, text, dataset, attrs; children: nodes, strings,
 * arrays, null/false (skipped).
 * @param {Document} doc
 * @param {string} tag
 * @param {{class?: string, text?: string, dataset?: Object<string, string>, attrs?: Object<string, string|number|boolean|null|undefined>}} [props]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function el(doc, tag, props = {}, ...children) {
  const e = doc.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.text !== undefined) e.textContent = props.text;
  if (props.dataset) Object.assign(e.dataset, props.dataset);
  for (const [k, v] of Object.entries(props.attrs || {})) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" ? doc.createTextNode(c) : c);
  }
  return e;
}

/**
 * svg builds an SVG element in doc with attributes attrs and, if given, text.
 * @param {Document} doc
 * @param {string} tag
 * @param {Object<string, string|number>} [attrs]
 * @param {string|null} [text]
 * @returns {SVGElement}
 */
export function svg(doc, tag, attrs = {}, text = null) {
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
  return el(doc, "div", { class: "stat", dataset: { ref } }, el(doc, "div", { class: "stat-value", text: value }), el(doc, "div", { class: "stat-label", text: label }), el(doc, "div", { class: "hint", text: sub }));
}

/**
 * pct writes a share as a percentage with at most one decimal ("87.5%"), "–" for null.
 * @param {number|null} x a share in 0..1
 */
export function pct(x) {
  return x === null || !Number.isFinite(x) ? "–" : Math.round(x * 1000) / 10 + "%";
}

/**
 * num writes x with at most digits decimals, "–" for null.
 * @param {number|null|undefined} x
 * @param {number} [digits]
 */
export function num(x, digits = 2) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  const f = 10 ** digits;
  return String(Math.round(x * f) / f);
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
