// status.js: what a finished row is, in one word, and why it is undetermined. Every row ends as
// one of: "passed", "failed", "scored" (a score with no pass/fail of its own, as rag-recall gives
// without a threshold), "undetermined" (the judge answered but no verdict could be read) or
// "error" (no answer: the call, the inputs or the prompt failed). Causes come from check codes
// (web/results/causes.js), never from a check's message.

import { causeOfChecks, firstError, hasCode, CAUSES } from "./causes.js";
import { majority, SPLIT_CODE } from "./majority.js";

/** STATUSES in display order. */
export const STATUSES = ["passed", "failed", "scored", "undetermined", "error"];

/**
 * statusOf decides a row's status from its verdict or error. threshold (a number or null) turns
 * a score into pass/fail for evaluators whose verdicts leave passed null while giving a score.
 * @param {any} result a row's result ({verdict} or {error}); falsy for a row not yet run
 * @param {number|null} [threshold]
 * @returns {string}
 */
export function statusOf(result, threshold = null) {
  if (!result) return "pending";
  if (result.error) return "error";
  if (Array.isArray(result.repeats) && result.repeats.length > 1) return majorityStatus(result.repeats, threshold);
  const v = result.verdict || {};
  if (v.passed === true) return "passed";
  if (v.passed === false) return "failed";
  if (!firstError(v.checks) && typeof v.score === "number" && Number.isFinite(v.score)) {
    if (typeof threshold === "number" && Number.isFinite(threshold)) return v.score >= threshold ? "passed" : "failed";
    return "scored";
  }
  return "undetermined";
}

/**
 * repeatVerdicts is each repeat's verdict of a row judged several times, as true (passed), false
 * (failed) or null (anything else), with the threshold applied to each repeat's score; null for
 * a row without repeats.
 * @param {any} result
 * @param {number|null} [threshold]
 * @returns {(boolean|null)[] | null}
 */
export function repeatVerdicts(result, threshold = null) {
  if (!result || result.error || !Array.isArray(result.repeats) || result.repeats.length < 2) return null;
  return result.repeats.map((r) => repeatVote(r, threshold));
}

/**
 * repeatVote is one repeat's verdict as true (passed), false (failed) or null (anything else,
 * a repeat that failed too), with the threshold applied to its score.
 * @param {{verdict: any, error?: any}} rep
 * @param {number|null} [threshold]
 * @returns {boolean|null}
 */
export function repeatVote(rep, threshold = null) {
  const st = statusOf({ verdict: rep.verdict, error: rep.error || null }, threshold);
  return st === "passed" ? true : st === "failed" ? false : null;
}

/**
 * majorityStatus is the status of a row judged several times: its repeats' majority (stats/
 * majority.js), "scored" when every repeat is a score without pass/fail, else undetermined.
 * @param {any[]} repeats
 * @param {number|null} threshold
 */
function majorityStatus(repeats, threshold) {
  const each = repeats.map((r) => statusOf(r, threshold));
  const m = majority(each.map((st) => (st === "passed" ? true : st === "failed" ? false : null)));
  if (m !== null) return m ? "passed" : "failed";
  return each.every((st) => st === "scored") ? "scored" : "undetermined";
}

/** BATCH_CAUSES: the causes of a batch file's requests that did not run, by OpenAI's codes. */
const BATCH_CAUSES = Object.freeze({
  batch_expired: "batch expired before it ran",
  batch_cancelled: "batch cancelled before it ran",
  request_timeout: "timed out in the batch",
});

/**
 * causeOf names, in a few words, why a row is undetermined or an error (null otherwise).
 * @param {any} result as in statusOf
 * @param {number|null} [threshold] as in statusOf
 * @returns {string|null}
 */
export function causeOf(result, threshold = null) {
  const st = statusOf(result, threshold);
  if (st === "error") {
    const e = result.error;
    switch (e.kind) {
      case "input":
        return "bad row inputs";
      case "render":
        return "prompt could not be rendered";
      case "timeout":
        return "timed out";
      case "network":
        return "endpoint unreachable";
      case "bad-response":
        return "malformed endpoint reply";
      case "aborted":
        return "cancelled";
      case "worker":
        return "call worker failed";
      case "parse":
        return "verdict could not be computed";
      case "batch": // batch/states.js BatchErrorKind.NOT_RUN, written as the other kinds here are
        return BATCH_CAUSES[e.code] || "not run by the batch service" + (e.code ? " (" + e.code + ")" : "");
      case "http":
        if (e.status === 429 && e.code === "too_many_calls_in_flight") return "dev server busy (429)"; // its own cap, not the provider's
        if (e.status === 429) return "rate limited (429)";
        if (e.status === 401 || e.status === 403) return "key refused (" + e.status + ")";
        // The dev server could not connect to its upstream: not a server failing, an address nothing answers at.
        if (e.status === 502 && e.code === "upstream_unreachable") return "endpoint unreachable (502)";
        if (e.status >= 500) return "server error (" + e.status + ")";
        // A batch output line's failure says its code (context_length_exceeded, content_filter…).
        return "HTTP " + e.status + (e.code ? " (" + e.code + ")" : "");
      default:
        return "call failed";
    }
  }
  if (st !== "undetermined") return null;
  const votes = repeatVerdicts(result, threshold);
  if (votes && votes.some((x) => x !== null)) return CAUSES[SPLIT_CODE];
  const checks = (result.verdict && result.verdict.checks) || [];
  return causeOfChecks(checks) || (checks.length ? "incomplete judge answer" : "no verdict given");
}

/**
 * causeCodeOf is the check code behind causeOf for an undetermined row (the code of its first
 * error check, answer.truncated first), for filters and counts that group rows by cause; null
 * for other rows.
 * @param {any} result as in statusOf
 * @param {number|null} [threshold] as in statusOf
 * @returns {string|null}
 */
export function causeCodeOf(result, threshold = null) {
  if (statusOf(result, threshold) !== "undetermined") return null;
  const checks = (result.verdict && result.verdict.checks) || [];
  if (hasCode(checks, "answer.truncated")) return "answer.truncated";
  const err = firstError(checks);
  if (!err && hasCode(checks, "answer.neutral-label")) return "answer.neutral-label";
  return err ? err.code || null : null;
}

/** needsRepair: the judge answered but its answer could not be read into a verdict. */
export function needsRepair(verdict) {
  if (!verdict || verdict.passed === true || verdict.passed === false) return false;
  return (verdict.checks || []).some((c) => c.severity === "error");
}

/** reasonOf is the full sentence behind causeOf: the error's message or the first error check. */
export function reasonOf(result) {
  if (!result) return "";
  if (result.error) return result.error.message || "";
  const checks = (result.verdict && result.verdict.checks) || [];
  const c = checks.find((x) => x.severity === "error") || checks[0];
  return c ? c.message : "";
}

/**
 * judgedInput names the input a row's verdict is about (the answer being judged, not the
 * expected one): the one input the evaluator's declaration marks `judged` (the core refuses a
 * declaration without exactly one), or null for a declaration that marks none. A results table
 * shows this input's text in its "Input" column.
 * @param {{inputs?: {name: string, judged?: boolean}[]}} ev an entry of rj.evaluators()
 * @returns {string|null}
 */
export function judgedInput(ev) {
  const marked = ((ev && ev.inputs) || []).find((i) => i && i.judged === true);
  return marked ? marked.name : null;
}
