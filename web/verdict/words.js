// words.js: what a verdict says in words, with no DOM: its score as the page writes it ("2 of 3
// claims grounded", "4 / 5") and the reasons the judge gave in its JSON. The verdict views
// (common.js, render.js) draw these, and a report (report/data.js) holds the same words, made by
// the same functions, so that a report says what the page showed.

import { hasCode } from "../results/causes.js";
import { fmtNum } from "../lib/format.js";

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
 * ScoreWords is a score as the page writes it: value in large type, then words after it, and
 * under it the exact value where the score is a rounded one ("exactly 35/8").
 * @typedef {{value: string, words: string, exact: string}} ScoreWords
 */

/**
 * scoreWords writes verdict v's score as its evaluator declares (ev.score, see core/judge's
 * package doc): a fraction as "3 of 4" "claims grounded", a scale as "4.38 / 5"; null where the
 * page shows no score: a binary score (the badge says it all), no score, or an answer cut short
 * (undetermined whatever it said).
 * @param {{score?: {kind: string, unit?: string, passed?: string, total?: string, max?: number, decimals?: number}, words?: {passed: string}}} ev
 * @param {{score?: number|null, verdict?: any, checks?: any[]}} v
 * @returns {ScoreWords|null}
 */
export function scoreWords(ev, v) {
  if (hasCode(v.checks || [], "answer.truncated")) return null;
  const sc = ev.score || { kind: "" };
  const d = v.verdict && typeof v.verdict === "object" ? v.verdict : {};
  const rec = d.recomputed && typeof d.recomputed === "object" ? d.recomputed : null;
  const exact = rec && rec.exact && rec.exact.final ? `exactly ${rec.exact.final}` : "";
  if (sc.kind === "fraction") {
    const passed = at(d, sc.passed);
    const total = at(d, sc.total);
    if (typeof passed !== "number" || typeof total !== "number") return null;
    const unit = total === 1 && String(sc.unit).endsWith("s") ? String(sc.unit).slice(0, -1) : sc.unit;
    const word = String((ev.words && ev.words.passed) || "passed").toLowerCase();
    return { value: `${passed} of ${total}`, words: `${unit} ${word}`, exact: "" };
  }
  if (typeof v.score !== "number" || !Number.isFinite(v.score)) return null;
  if (sc.kind === "binary") return null;
  if (sc.kind === "scale") return { value: `${fmtNum(v.score, sc.decimals ?? 2)} / ${fmtNum(sc.max)}`, words: "", exact };
  return { value: fmtNum(v.score), words: "", exact };
}

/** REASON_KEYS are the names judges give the reasoning in their JSON (in any case, _ - and spaces ignored). */
const REASON_KEYS = new Set(["reason", "reasons", "reasoning", "explanation", "rationale", "justification", "analysis", "thoughts", "thinking", "critique", "feedback", "comment", "comments"]);

/**
 * judgeReasons is the reasoning a judge wrote in its JSON, as the verdict view shows it: a custom
 * reader's `reason` (the field its definition names), then the fields of the JSON it read that
 * are named as reasoning is (reasoning, explanation, rationale, …), each once. Each is {label,
 * text}; [] when there is none.
 * @param {any} d a verdict's detail (rj.parse's `verdict`)
 * @returns {{label: string, text: string}[]}
 */
export function judgeReasons(d) {
  if (!d || typeof d !== "object" || Array.isArray(d)) return [];
  const out = [];
  const seen = new Set();
  const add = (/** @type {string} */ label, /** @type {any} */ text) => {
    if (typeof text !== "string" || !text.trim() || seen.has(text.trim())) return;
    seen.add(text.trim());
    out.push({ label, text });
  };
  add("The judge's reason", d.reason);
  const fields = d.fields && typeof d.fields === "object" && !Array.isArray(d.fields) ? d.fields : null;
  for (const [k, x] of Object.entries(fields || {})) {
    if (!REASON_KEYS.has(k.toLowerCase().replace(/[\s_-]/g, ""))) continue;
    add(k.charAt(0).toUpperCase() + k.slice(1).replace(/_/g, " "), Array.isArray(x) && x.every((s) => typeof s === "string") ? x.join("\n") : x);
  }
  return out;
}
