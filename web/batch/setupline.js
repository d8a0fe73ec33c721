// setupline.js: the one line a run's setup shows before Run and before a batch file is exported,
// holding every setting that changes what the run costs or what it asks: how many calls (rows ×
// repeats), the model, the temperature, the cap on each answer's tokens, and the cache when it is
// off. Nothing a run is about to spend is carried over from the last run without being said here.

import { runSettings } from "./repeatopts.js";
import { modelParams } from "../model/modelparams.js";
import { fmtInt } from "../lib/format.js";

/**
 * @typedef {{model: string, params: Record<string, any>, repeats: number, orders?: number, judges?: string[]}} Plan what the calls of
 *   a run set up now would ask (plannedRequest); orders 2: each row judged in both orders (a live run's
 *   "judge both orders", repeatopts.js ordersOf); judges: a jury's judges by name (each row asked of each)
 */

/**
 * setupLine is the line: "100 rows × 3 repeats = 300 calls · gpt-4o-mini · temperature 0.7 ·
 * max tokens 2,048" ("100 calls, one per row · …" without repeats; "100 rows × 2 orders = 200
 * calls" when each row is judged in both orders). unit names what each one is: "call" for a live
 * run, "request" for a batch file. cache false (a live run that bypasses the request cache) adds
 * "cache off". A check-up counts cases (noun "case"), `doubled` of which are judged in both orders
 * whatever the plan says: "60 cases (6 in both orders) = 66 calls".
 * @param {{rows: number, plan: Plan, unit?: string, cache?: boolean, noun?: string, doubled?: number}} o
 * @returns {string}
 */
export function setupLine({ rows, plan, unit = "call", cache = true, noun = "row", doubled = 0 }) {
  const twice = plan.orders === 2 ? rows : Math.min(rows, doubled);
  const judges = plan.judges && plan.judges.length > 1 ? plan.judges : null;
  const n = (rows + twice) * plan.repeats * (judges ? judges.length : 1);
  const many = (/** @type {number} */ k, /** @type {string} */ word) => `${fmtInt(k)} ${word}${k === 1 ? "" : "s"}`;
  const units = many(n, unit);
  const times = plan.repeats > 1 ? ` × ${fmtInt(plan.repeats)} repeats` : "";
  let head = "";
  if (twice && twice === rows) head = `${many(rows, noun)}${times} × 2 orders`;
  else if (twice) head = `${many(rows, noun)} (${fmtInt(twice)} in both orders)${times}`;
  else if (times) head = `${many(rows, noun)}${times}`;
  // A jury asks each row of each judge: "28 rows × 2 judges = 56 calls · a jury of m1 @ a, m2 @ b".
  if (judges) head = `${head || many(rows, noun)} × ${judges.length} judges`;
  const lead = head ? `${head} = ${units}` : `${units}, one per ${noun}`;
  const parts = [lead, judges ? `a jury of ${judges.join(", ")}` : plan.model];
  const p = plan.params || {};
  // Reasoning models take no temperature (modelparams.js): the request carries none.
  parts.push(typeof p.temperature === "number" ? `temperature ${p.temperature}` : "the model's own temperature");
  const cap = p.max_completion_tokens ?? p.max_tokens;
  parts.push(typeof cap === "number" && cap > 0 ? `max tokens ${fmtInt(cap)}` : "no cap on answer tokens");
  if (!cache) parts.push("cache off");
  return parts.join(" · ");
}

/**
 * plannedRequest is what the calls of a run (or the lines of a batch file) set up now would ask:
 * the model settings' model and parameters, with the run options' temperature and repeats, as
 * runSettings records them in a new run; null when no model is set.
 * @param {{model?: string, temperature?: number | string, maxTokens?: number | string}} settings the model settings
 * @param {{repeats?: number|string, temperature?: number|string}} prefs the run options
 * @returns {{model: string, params: Object, repeats: number} | null}
 */
export function plannedRequest(settings, prefs) {
  const model = String((settings && settings.model) || "").trim();
  if (!model) return null;
  const s = runSettings({ request: { endpoint: "", model, params: modelParams({ ...settings, model }) }, where: "" }, prefs);
  return { model: s.model, params: s.params, repeats: s.repeats };
}
