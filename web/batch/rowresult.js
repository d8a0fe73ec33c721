// rowresult.js: what a batch row leaves behind: the result object the engine fills in and stores,
// its accounting of calls and tokens, the error a failure leaves on it, and the judge's render and
// parse with their throws turned into row errors. The engine (scheduler.js) decides when; this says what.

import { RowErrorKind } from "./states.js";
import { CallError } from "../model/callerror.js";

/**
 * @typedef {{kind: string, status: number, message: string, attempts: number, detail: string, stage?: string, code?: string}} RowError  code: a batch output line's code for its failure (batchfile.js lineErrorCode)
 * @typedef {{runId: any, index: number, verdict: any, answers: string[], error: RowError | null,
 *   usage: {prompt_tokens: number, completion_tokens: number}, calls: number, cachedCalls: number,
 *   attempts: number, repaired: boolean, ms: number, finishedAt: number, storeError?: string, earlier?: Spend,
 *   repeats?: import("../results/majority.js").Repeat[], orders?: import("./orders.js").Order[],
 *   jury?: {rule: string, pass_at?: number, members: import("./juryrow.js").JuryMember[]}}} RowResult  repeats: each repeat's verdict when the run judges rows several times;
 *   orders: a row judged in both orders, as it is and with its answers exchanged (orders.js);
 *   jury: a row judged by a jury, each judge's part (juryrow.js);
 *   earlier: what the row's earlier tries in this run spent (carrySpend), besides this one's calls, usage and attempts
 * @typedef {{calls: number, cachedCalls: number, attempts: number, prompt_tokens: number, completion_tokens: number}} Spend
 */

/**
 * messageOf is what a throw says, whatever was thrown.
 * @param {unknown} e
 * @returns {string}
 */
export function messageOf(e) {
  return String((e && /** @type {any} */ (e).message) || e);
}

/**
 * newRowResult is row index's result before anything is known: no verdict, no error, nothing spent.
 * @param {any} runId
 * @param {number} index
 * @returns {RowResult}
 */
export function newRowResult(runId, index) {
  return {
    runId,
    index,
    verdict: null,
    answers: [],
    error: null,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    calls: 0,
    cachedCalls: 0,
    attempts: 0,
    repaired: false,
    ms: 0,
    finishedAt: 0,
  };
}

/**
 * countAnswer adds one answer (the engine's ask) to result's calls, tokens and attempts; its cache
 * write, if any, joins cacheWrites, which the result waits for before it is stored.
 * @param {RowResult} result
 * @param {{written?: Promise<unknown> | null, cached: boolean, usage?: {prompt_tokens: number, completion_tokens: number} | null, attempts: number}} r
 * @param {Promise<unknown>[]} cacheWrites
 */
export function countAnswer(result, r, cacheWrites) {
  if (r.written) cacheWrites.push(r.written);
  if (r.cached) result.cachedCalls++;
  else {
    result.calls++;
    result.usage.prompt_tokens += (r.usage && r.usage.prompt_tokens) || 0;
    result.usage.completion_tokens += (r.usage && r.usage.completion_tokens) || 0;
  }
  result.attempts += r.attempts;
}

/**
 * carrySpend keeps, on the result of a row run again (Retry, Ask again, Resume), what its earlier
 * results spent: their calls, cache hits, attempts and tokens were paid for, and a run's counts
 * (results/aggregate.js) add them to the latest try's, so that they never go down when a row is
 * asked again. The row's own fields stay its latest try's (its answers, what an export writes).
 * @param {RowResult} result
 * @param {RowResult | null | undefined} prior the row's result before this try, if any
 */
export function carrySpend(result, prior) {
  if (!prior || prior === result) return;
  const was = prior.earlier || { calls: 0, cachedCalls: 0, attempts: 0, prompt_tokens: 0, completion_tokens: 0 };
  result.earlier = {
    calls: was.calls + (prior.calls || 0),
    cachedCalls: was.cachedCalls + (prior.cachedCalls || 0),
    attempts: was.attempts + (prior.attempts || 0),
    prompt_tokens: was.prompt_tokens + ((prior.usage && prior.usage.prompt_tokens) || 0),
    completion_tokens: was.completion_tokens + ((prior.usage && prior.usage.completion_tokens) || 0),
  };
}

/**
 * failRow records on result the error a row ended with: a CallError as stored (a failed repair
 * request says so), anything else as an internal failure.
 * @param {RowResult} result
 * @param {unknown} e
 * @param {string} stage  "call" or "repair"
 */
export function failRow(result, e, stage) {
  if (e instanceof CallError) {
    result.error = e.toJSON();
    result.attempts += e.attempts || 0;
    if (stage === "repair") Object.assign(result.error, { stage, message: "The repair request failed: " + e.toJSON().message });
  } else {
    result.error = { kind: RowErrorKind.INTERNAL, status: 0, message: "Unexpected failure: " + messageOf(e), attempts: 0, detail: "" };
  }
}

/**
 * renderRow renders the judge's prompt for inputs; a throw is a row error of kind "render".
 * @param {{render(inputs: any): {messages: {role: string, content: string}[]}}} judge
 * @param {any} inputs
 */
export function renderRow(judge, inputs) {
  try {
    return judge.render(inputs);
  } catch (e) {
    throw new CallError("The prompt could not be rendered: " + messageOf(e), { kind: RowErrorKind.RENDER });
  }
}

/**
 * parseAnswer reads the judge's answer; the judge throwing (bad inputs) is a row error, not a crash.
 * @param {{parse(inputs: any, text: string): any}} judge
 * @param {any} inputs
 * @param {string} text
 */
export function parseAnswer(judge, inputs, text) {
  try {
    return judge.parse(inputs, text);
  } catch (e) {
    throw new CallError("The verdict could not be computed: " + ((e && /** @type {any} */ (e).detail) || messageOf(e)), { kind: RowErrorKind.PARSE });
  }
}

/**
 * storeResult stores result once its fresh answers are in the cache, so that a reload between the
 * two writes never leaves a stored row whose answer the next run of the same rows would pay for
 * again. A store that fails leaves storeError on the result rather than throwing.
 * @param {{putResult(result: RowResult): Promise<unknown>, flush?: () => Promise<unknown>} | null | undefined} store
 * @param {RowResult} result
 * @param {Promise<unknown>[]} cacheWrites
 * @param {() => boolean} finishing  whether the run is ending: the last write then need not wait out the store's coalescing delay
 */
export async function storeResult(store, result, cacheWrites, finishing) {
  if (!store) return;
  try {
    await Promise.all(cacheWrites);
    const stored = store.putResult(result);
    if (finishing() && typeof store.flush === "function") store.flush().catch(() => {});
    await stored;
  } catch (e) {
    result.storeError = messageOf(e);
  }
}
