// judging.js: how the batch engine judges one row: one call with the one repair request an
// unreadable answer gets, or `repeats` such calls and their majority verdict. The calls go through
// the Runner's ask (its slots, cache and retry policy); this module decides what to ask and how
// the answers become the row's verdict. Split from scheduler.js, which schedules the rows.

import { needsRepair } from "../results/status.js";
import { repairPrompt, afterRepair } from "./repair.js";
import { RunState, holds } from "./states.js";
import { countAnswer, parseAnswer, newRowResult, failRow } from "./rowresult.js";
import { majorityVerdict } from "../results/majority.js";
import { CallError, CallKind, unreachable } from "../model/callerror.js";

/**
 * judgeOnce asks the judge once for a row (repeat k of it), with the one repair request an
 * unreadable answer gets, and counts the calls on result; at.stage says which request failed
 * when it throws. The answers are pushed onto answers as they come (a row whose repair request
 * fails keeps its first answer). Resolves to {verdict, answers, repaired}.
 * @param {import("./scheduler.js").Runner} runner
 * @param {any} item
 * @param {{messages: {role: string, content: string}[]}} rendered
 * @param {number} index
 * @param {number} k
 * @param {import("./rowresult.js").RowResult} result
 * @param {Promise<unknown>[]} cacheWrites
 * @param {{stage: string}} at
 * @param {string[]} [answers]
 */
export async function judgeOnce(runner, item, rendered, index, k, result, cacheWrites, at, answers = []) {
  const o = runner.o;
  const first = await runner.ask(rendered.messages, index, false, k);
  countAnswer(result, first, cacheWrites);
  answers.push(first.content);
  let verdict = parseAnswer(o.judge, item.inputs, first.content);
  let repaired = false;
  if (needsRepair(verdict)) {
    runner.stats.repairs++;
    at.stage = "repair";
    const repairMessages = [...rendered.messages, { role: "assistant", content: first.content }, { role: "user", content: repairPrompt(verdict) }];
    const second = await runner.ask(repairMessages, index, true, k);
    at.stage = "call";
    countAnswer(result, second, cacheWrites);
    answers.push(second.content);
    repaired = true;
    verdict = afterRepair(parseAnswer(o.judge, item.inputs, second.content));
  }
  return { verdict, answers, repaired };
}

/**
 * judgeSingle judges a row judged once with once (judgeOnce, or orders.js judgeOrders in both
 * orders) and stores its verdict on result, and its orders when it has them (a failed row keeps
 * the order that was answered). Resolves to the stage reached and, when it failed, the error.
 * @param {import("./scheduler.js").Runner} runner @param {any} item
 * @param {{messages: {role: string, content: string}[]}} rendered @param {number} index
 * @param {import("./rowresult.js").RowResult} result @param {Promise<unknown>[]} cacheWrites
 * @param {typeof judgeOnce} [once]
 * @returns {Promise<{stage: string, error?: unknown}>}
 */
export async function judgeSingle(runner, item, rendered, index, result, cacheWrites, once = judgeOnce) {
  /** @type {{stage: string, orders?: any[]}} */
  const at = { stage: "call" };
  try {
    /** @type {{verdict: any, repaired: boolean, orders?: any[]}} */
    const one = await once(runner, item, rendered, index, 0, result, cacheWrites, at, result.answers);
    result.verdict = one.verdict;
    result.repaired = one.repaired;
    if (one.orders) result.orders = one.orders;
    return { stage: at.stage };
  } catch (error) {
    if (at.orders) result.orders = at.orders;
    return { stage: at.stage, error };
  }
}

/**
 * judgeRepeats judges a row `repeats` times at once (the calls share the run's slots like any
 * other) and stores on result every repeat and their majority verdict (results/majority.js). A
 * repeat that fails fails the row, as one call would, and the row keeps the repeats that were
 * answered (failedRepeat marks the others); they are in the cache, so running the row again pays
 * only for the failed one. Of several failures, the one
 * that puts the row back in the queue (cancel, outage, refused key) wins, else the first.
 * @param {import("./scheduler.js").Runner} runner @param {any} item
 * @param {{messages: {role: string, content: string}[]}} rendered @param {number} index
 * @param {number} repeats @param {import("./rowresult.js").RowResult} result
 * @param {Promise<unknown>[]} cacheWrites
 * @param {typeof judgeOnce} [once] how one repeat is judged: judgeOnce, or orders.js judgeOrders (both orders)
 * @returns {Promise<{stage: string, error?: unknown}>}
 */
export async function judgeRepeats(runner, item, rendered, index, repeats, result, cacheWrites, once = judgeOnce) {
  const ats = Array.from({ length: repeats }, () => ({ stage: "call" }));
  /** @type {string[][]} each repeat's answers as they come, kept when the repeat fails later (its repair request) */
  const answers = ats.map(() => []);
  const settled = await Promise.allSettled(ats.map((at, k) => once(runner, item, rendered, index, k, result, cacheWrites, at, answers[k])));
  const failed = settled.map((s, k) => (s.status === "rejected" ? { error: s.reason, stage: ats[k].stage } : null)).filter((f) => f !== null);
  /** @type {import("../results/majority.js").Repeat[]} */
  const reps = settled.map((s, k) => (s.status === "fulfilled" ? s.value : { ...failedRepeat(s.reason, ats[k].stage, answers[k]), ...(/** @type {any} */ (ats[k]).orders ? { orders: /** @type {any} */ (ats[k]).orders } : {}) }));
  result.repeats = reps;
  result.answers = reps.flatMap((r) => r.answers);
  result.repaired = reps.some((r) => r.repaired);
  // The row is an error, but what the judge answered stays with it (exports keep it, and a
  // retry reads those answers from the cache).
  if (failed.length) return firstFailure(runner, failed);
  result.verdict = majorityVerdict(reps);
  return { stage: "call" };
}

/**
 * firstFailure is the failure of several (a row's repeats, or its two orders) that decides what
 * happens to the row: the one that puts it back in the queue (a cancel, an outage, a refused
 * key), else the first.
 * @template {{error: unknown, stage: string}} F
 * @param {import("./scheduler.js").Runner} runner
 * @param {F[]} failed
 * @returns {F}
 */
export function firstFailure(runner, failed) {
  const requeues = (/** @type {any} */ e) =>
    e instanceof CallError && (e.kind === CallKind.ABORTED || (unreachable(e) && (e.outage || runner.state === RunState.OUTAGE)) || holds(e));
  return failed.find((f) => requeues(f.error)) || failed[0];
}

/**
 * failedRepeat is the entry a repeat whose call (or repair request) failed leaves in a row's
 * repeats: no verdict, the answers it got before failing, and its error as a row's error is stored.
 * @param {unknown} e
 * @param {string} stage
 * @param {string[]} answers
 * @returns {import("../results/majority.js").Repeat & {error: import("./rowresult.js").RowError}}
 */
export function failedRepeat(e, stage, answers) {
  const scratch = newRowResult(null, 0);
  failRow(scratch, e, stage);
  return { verdict: null, answers, repaired: false, error: /** @type {import("./rowresult.js").RowError} */ (scratch.error) };
}
