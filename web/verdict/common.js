// common.js: what every verdict view shares: numbers as people read them, a verdict's score
// printed from its evaluator's score descriptor (in words.js's words), and any JSON shown generically.

import { h } from "../lib/dom.js";
import { scoreWords } from "./words.js";


/**
 * scoreView prints verdict v's score as its evaluator declares it, in words.js's words (scoreWords):
 * the value large, the words after it, the exact value under it; null where the page shows no
 * score (a binary score, none, an answer cut short).
 * @param {any} ev
 * @param {{score?: number|null, verdict?: any, checks?: any[]}} v
 * @returns {HTMLElement|null}
 */
export function scoreView(ev, v) {
  const w = scoreWords(ev, v);
  if (!w) return null;
  return h("div", { class: "big-number", dataset: { ref: "score" } }, h("strong", { text: w.value }), w.words ? " " + w.words : null, w.exact ? h("span", { class: "exact", text: w.exact }) : null);
}

/** generic shows any JSON value as nested lists, all text via textContent. */
export function generic(x, depth = 0) {
  if (x === null || x === undefined) return h("span", { class: "mono", text: "null" });
  if (typeof x !== "object") return h("span", { text: String(x) });
  if (depth > 6) return h("span", { class: "mono", text: JSON.stringify(x) });
  if (Array.isArray(x)) return h("ol", { class: "generic" }, x.map((e) => h("li", {}, generic(e, depth + 1))));
  return h(
    "dl",
    { class: "generic" },
    Object.entries(x).flatMap(([k, val]) => [h("dt", { text: k.replace(/_/g, " ") }), h("dd", {}, generic(val, depth + 1))]),
  );
}

/** rest is obj without the given keys, for showing what a view does not draw itself. */
export function rest(obj, keys) {
  const known = new Set(keys);
  return Object.fromEntries(Object.entries(obj || {}).filter(([k]) => !known.has(k)));
}
