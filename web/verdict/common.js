// common.js: what every verdict view shares: numbers as people read them, a verdict's score
// printed from its evaluator's score descriptor, and any JSON shown generically.

import { h } from "../dom.js";

/** fmt prints a number as people read it: at most `decimals` decimals (2), no trailing zeros. */
export function fmt(n, decimals = 2) {
  if (typeof n !== "number" || !Number.isFinite(n)) return String(n);
  const k = 10 ** Math.max(0, Math.min(6, decimals));
  return String(Math.round(n * k) / k);
}

/** at reads a dotted path ("counts.grounded") in a verdict's detail; undefined when absent. */
export function at(obj, path) {
  let x = obj;
  for (const k of String(path || "").split(".")) {
    if (!k) continue;
    if (!x || typeof x !== "object") return undefined;
    x = x[k];
  }
  return x;
}

/**
 * scoreView prints verdict v's score as its evaluator declares (ev.score, see core/judge's
 * package doc): a fraction as "3 of 4 claims grounded", a scale as "4.38 / 5"; a binary score
 * says no more than the badge, so null. Null too when there is nothing to print.
 * @param {{score?: {kind: string, unit?: string, passed?: string, total?: string, max?: number, decimals?: number}, words?: {passed: string}}} ev
 * @param {{score?: number|null, verdict?: any}} v
 * @returns {HTMLElement|null}
 */
export function scoreView(ev, v) {
  const sc = ev.score || { kind: "" };
  const d = v.verdict && typeof v.verdict === "object" ? v.verdict : {};
  if (sc.kind === "fraction") {
    const passed = at(d, sc.passed);
    const total = at(d, sc.total);
    if (typeof passed !== "number" || typeof total !== "number") return null;
    const unit = total === 1 && String(sc.unit).endsWith("s") ? String(sc.unit).slice(0, -1) : sc.unit;
    const word = String((ev.words && ev.words.passed) || "passed").toLowerCase();
    return h("div", { class: "big-number", dataset: { ref: "score" } }, h("strong", { text: `${passed} of ${total}` }), ` ${unit} ${word}`);
  }
  if (typeof v.score !== "number" || !Number.isFinite(v.score)) return null;
  if (sc.kind === "binary") return null;
  if (sc.kind === "scale") {
    return h("div", { class: "big-number", dataset: { ref: "score" } }, h("strong", { text: `${fmt(v.score, sc.decimals ?? 2)} / ${fmt(sc.max)}` }));
  }
  return h("div", { class: "big-number", dataset: { ref: "score" } }, h("strong", { text: fmt(v.score) }));
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
