// summarywords.js: a run's progress and summary in words, with no DOM: the rate, the progress
// line, the calls and the pace, and the summary cards (pass rate, mean score, undetermined,
// tokens), from one RunCounts (counts.js); the Batch view's summary (batch/summary.js) and a
// report (report/data.js) show the same words.

import { fmtInt, fmtNum, fmtDuration, fmtMoney } from "../lib/format.js";

const RATE_WINDOW_MS = 15_000; // the rate is of the rows finished in the last 15 s

/**
 * rate is rows finished per second over the recent window, or null when there is no telling yet.
 * @param {number[]} doneTimes when rows finished (performance.now()); entries older than the window are dropped
 * @param {number} startedAt
 * @param {number} now
 */
export function rate(doneTimes, startedAt, now) {
  while (doneTimes.length && doneTimes[0] < now - RATE_WINDOW_MS) doneTimes.shift();
  const span = Math.min(RATE_WINDOW_MS, now - (startedAt || now));
  return span > 500 && doneTimes.length ? doneTimes.length / (span / 1000) : null;
}

/**
 * @typedef {object} RunPace  how many calls a run has in flight at most now (batch/runcontroller.js pace)
 * @property {number} limit   calls at once now
 * @property {number} chosen  the concurrency chosen
 * @property {string | null} why  "429" (the endpoint asked to slow down), "http1" (the browser's 6 per host), or null
 * @property {string} [origin] the endpoint's origin, for "http1"
 */

/**
 * paceText says why a run has fewer calls in flight than chosen, or "" when it has not.
 * @param {RunPace | null | undefined} pace
 */
export function paceText(pace) {
  if (!pace || !pace.why || pace.limit >= pace.chosen) return "";
  if (pace.why === "http1") return `calls to ${pace.origin} are limited to ${fmtInt(pace.limit)} at a time by the browser (HTTP/1.1); the dev server has no such limit`;
  return `${fmtInt(pace.limit)} of ${fmtInt(pace.chosen)} calls at once: the endpoint asked to slow down (429)`;
}

/**
 * callsText is the progress line's calls: the cache hits of the answered calls, and the attempts
 * that failed; a run whose every call failed says that, not "0 of 0 calls".
 * @param {import("../results/counts.js").RunCounts} c
 */
export function callsText(c) {
  const failed = c.failedCalls || 0;
  const answered = c.cacheHits + c.paidCalls;
  const failedText = `${fmtInt(failed)} call${failed === 1 ? "" : "s"} failed`;
  if (!answered && failed) return failedText;
  return `cache hits ${fmtInt(c.cacheHits)} of ${fmtInt(answered)} calls` + (failed ? ` · ${failedText}` : "");
}

/**
 * progressLine is the line under the progress bar.
 * @param {import("../results/counts.js").RunCounts} c
 * @param {number|null} perSecond rows per second while running, null otherwise
 * @param {RunPace | null} [pace] while running (null otherwise): said when fewer calls are in flight than chosen
 */
export function progressLine(c, perSecond, pace = null) {
  const flight = [c.inFlight ? `${fmtInt(c.inFlight)} judging` : "", c.retrying ? `${fmtInt(c.retrying)} retrying` : ""].filter(Boolean).join(", ");
  return [
    `${fmtInt(c.done)} of ${fmtInt(c.total)} done`,
    `${fmtInt(c.withoutVerdict)} without a verdict`,
    `${fmtInt(c.remaining)} remaining` + (flight ? ` (${flight})` : ""),
    perSecond ? `${fmtNum(perSecond, 1)} rows/s` : null,
    perSecond && c.remaining ? `ETA ${fmtDuration(c.remaining / perSecond)}` : null,
    callsText(c),
    `${fmtInt(c.promptTokens)} in + ${fmtInt(c.completionTokens)} out tokens`,
    c.cost !== null ? fmtMoney(c.cost) : null,
    paceText(pace) || null,
  ]
    .filter(Boolean)
    .join(" · ");
}


/**
 * @typedef {{ref: string, label: string, value: string, sub: string}} SummaryCard
 */

/**
 * tokensCalls is the tokens card's calls: paid and from the cache, and the attempts that failed
 * ("12 calls failed, none answered" for a run whose every call failed).
 * @param {import("../results/counts.js").RunCounts} c
 */
function tokensCalls(c) {
  const failed = c.failedCalls || 0;
  const failedText = `${fmtInt(failed)} call${failed === 1 ? "" : "s"} failed`;
  if (!c.paidCalls && !c.cacheHits && failed) return failedText + ", none answered";
  return `${fmtInt(c.paidCalls)} paid calls, ${fmtInt(c.cacheHits)} from cache` + (failed ? `, ${failedText}` : "");
}

/**
 * summaryCards are the run's summary cards (pass rate, mean score, undetermined, tokens) in words:
 * what the page's cards and a report's show, from one RunCounts.
 * @param {import("../results/counts.js").RunCounts} c
 * @param {number} [repeats] each row's judging count: above 1, the pass rate says it counts each row's majority
 * @returns {SummaryCard[]}
 */
export function summaryCards(c, repeats = 1) {
  return [
    {
      ref: "batch-pass-rate",
      label: "pass rate",
      value: c.passRate === null ? "–" : Math.round(c.passRate * 1000) / 10 + "%",
      sub:
        (c.decided ? `${fmtInt(c.counts.passed)} passed of ${fmtInt(c.decided)} with a pass/fail verdict` : "no pass/fail verdicts yet") +
        (repeats > 1 ? ` (each row's majority of ${fmtInt(repeats)} repeats)` : ""),
    },
    { ref: "batch-mean-score", label: "mean score", value: c.meanScore === null ? "–" : fmtNum(c.meanScore), sub: c.scored ? `over ${fmtInt(c.scored)} scored rows` : "no scores yet" },
    { ref: "batch-undetermined", label: "undetermined", value: fmtInt(c.counts.undetermined), sub: `${fmtInt(c.counts.error)} error${c.counts.error === 1 ? "" : "s"}` },
    {
      ref: "batch-tokens",
      label: "tokens",
      value: fmtInt(c.tokens),
      sub: (c.cost !== null ? fmtMoney(c.cost) + " · " : "") + tokensCalls(c),
    },
  ];
}
