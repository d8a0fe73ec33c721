// counts.js: everything the Batch view counts, derived in one place from one moment of a run. The
// progress line, the filter chips, the summary cards, the tokens card and the runs list all read
// the same RunCounts, so they cannot disagree (a reload once showed "8 remaining" beside "Not run
// 23"). Pure: Node tests cover it.

import { aggregate } from "./aggregate.js";
import { statusOf, repeatVerdicts } from "./status.js";
import { unanimous } from "./majority.js";

/** LIVE: the states of a row that has no result yet but is being worked on. */
export const LIVE = Object.freeze({ JUDGING: "judging", RETRYING: "retrying", SAVING: "saving" });

/**
 * @typedef {Object} LiveRow a row in flight
 * @property {string} state LIVE.JUDGING (a call is out), LIVE.RETRYING or LIVE.SAVING (its calls are over, its result is being stored)
 * @property {number} [attempt] the call attempt under way or next (1-based)
 * @property {number} [retryAt] when the next attempt goes out (Date.now() milliseconds)
 */

/**
 * @typedef {Object} RunCounts
 * @property {number} total rows in the run
 * @property {number} done rows with a result (a verdict or an error)
 * @property {number} remaining rows without one: notRun + inFlight + retrying + saving
 * @property {number} notRun rows nothing has happened to yet
 * @property {number} inFlight rows whose call is out
 * @property {number} retrying rows waiting to retry
 * @property {number} saving rows whose calls are over and whose result is being stored
 * @property {{passed: number, failed: number, scored: number, undetermined: number, error: number, pending: number}} counts
 *   rows by status; pending is remaining
 * @property {number} withoutVerdict undetermined + error
 * @property {string[]} status each row's status (statusOf), by row index
 * @property {Map<number, LiveRow>} live the rows in flight, by row index
 * @property {number} cacheHits calls answered from the cache
 * @property {number} paidCalls calls that went to the endpoint
 * @property {number} failedCalls attempts that went out and got no answer (an HTTP error, a timeout), retried or not:
 *   those the results hold, and those of rows put back in the queue this session
 * @property {number} promptTokens
 * @property {number} completionTokens
 * @property {number} tokens promptTokens + completionTokens
 * @property {number|null} cost
 * @property {number|null} passRate
 * @property {number} decided passed + failed
 * @property {number|null} meanScore
 * @property {number} scored rows with a score
 * @property {{cause: string, count: number}[]} causes
 * @property {{lo: number, hi: number, bins: {from: number, to: number, count: number}[]}} histogram
 * @property {number} repaired
 * @property {Set<number>} split rows judged several times whose repeats did not all give the same verdict
 */

/**
 * runCounts derives every count of a run from its results and its rows in flight at one moment.
 * @param {Object} snap
 * @param {number} snap.total
 * @param {Array<Object|undefined>} snap.results by row index; undefined is a row without a result
 * @param {Map<number, LiveRow>|null} [snap.live]
 * @param {number|null} [snap.threshold] as in statusOf
 * @param {string|number|null} [snap.priceIn] per million input tokens
 * @param {string|number|null} [snap.priceOut] per million output tokens
 * @param {number} [snap.unstoredFailed] failed attempts no result holds (rows put back in the queue by an outage or a hold)
 * @returns {RunCounts}
 */
export function runCounts({ total, results, live = null, threshold = null, priceIn = null, priceOut = null, unstoredFailed = 0 }) {
  const a = aggregate(results, total, { threshold, priceIn, priceOut });
  const status = new Array(total);
  /** @type {Set<number>} */
  const split = new Set();
  for (let i = 0; i < total; i++) {
    status[i] = statusOf(results[i], threshold);
    const votes = repeatVerdicts(results[i], threshold);
    if (votes && !unanimous(votes)) split.add(i);
  }
  const inLive = new Map();
  let inFlight = 0;
  let retrying = 0;
  let saving = 0;
  for (const [index, row] of live || []) {
    if (index < 0 || index >= total || results[index]) continue; // finished meanwhile: its result counts
    inLive.set(index, row);
    if (row.state === LIVE.RETRYING) retrying++;
    else if (row.state === LIVE.SAVING) saving++;
    else inFlight++;
  }
  const remaining = a.counts.pending;
  return {
    total,
    done: a.finished,
    remaining,
    notRun: remaining - inFlight - retrying - saving,
    inFlight,
    retrying,
    saving,
    counts: a.counts,
    withoutVerdict: a.counts.undetermined + a.counts.error,
    status,
    live: inLive,
    cacheHits: a.cachedCalls,
    paidCalls: a.calls,
    failedCalls: a.failedCalls + unstoredFailed,
    promptTokens: a.promptTokens,
    completionTokens: a.completionTokens,
    tokens: a.promptTokens + a.completionTokens,
    cost: a.cost,
    passRate: a.passRate,
    decided: a.decided,
    meanScore: a.meanScore,
    scored: a.scored,
    causes: a.causes,
    histogram: a.histogram,
    repaired: a.repaired,
    split,
  };
}
