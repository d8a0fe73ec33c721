// summary.js: the open run's numbers: the progress bar and line, the summary cards (pass rate,
// mean score, undetermined, tokens), the score histogram, the causes of undetermined rows and
// errors, and the score threshold. Everything it shows is one RunCounts (counts.js), drawn at once.

import { h, replace, uid } from "../lib/dom.js";
import { histogramSVG } from "../stats/histogram.js";
import { fmtInt, fmtNum, fmtDuration, fmtMoney } from "./words.js";
import { prefsOf, setPrefs, thresholdOf } from "./prefs.js";

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
 * @typedef {object} RunPace  how many calls a run has in flight at most now (run.js pace)
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

/** runCounts0 is a run's counts before anything is known: what the cards are first drawn from. */
function runCounts0() {
  return /** @type {import("../results/counts.js").RunCounts} */ (/** @type {unknown} */ ({ passRate: null, decided: 0, counts: { passed: 0, failed: 0, scored: 0, undetermined: 0, error: 0, pending: 0 }, meanScore: null, scored: 0, tokens: 0, cost: null, paidCalls: 0, cacheHits: 0, failedCalls: 0 }));
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

/**
 * causesList lists the causes of undetermined rows and errors, most frequent first, in doc.
 * @param {Document} doc
 * @param {{cause: string, count: number}[]} causes
 * @returns {HTMLElement}
 */
export function causesList(doc, causes) {
  const el = (/** @type {string} */ tag, /** @type {string} */ cls, /** @type {string} */ text) => {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  };
  if (!causes.length) return el("p", "hint", "No undetermined rows and no errors.");
  const ul = el("ul", "causes", "");
  ul.dataset.ref = "batch-causes";
  for (const x of causes) {
    const li = el("li", "", "");
    li.append(el("span", "cause-count", fmtInt(x.count)), " ", el("span", "", x.cause));
    ul.append(li);
  }
  return ul;
}

/**
 * mountSummary builds the progress and summary parts of the run card.
 * @param {{state: import("../shell/state.js").State}} ctx
 */
export function mountSummary({ state }) {
  const bar = h("div", { class: "pbar", attrs: { role: "progressbar", "aria-valuemin": "0", "aria-valuemax": "100", "aria-label": "Rows finished" }, dataset: { ref: "batch-progress" } });
  const barOK = h("div", { class: "pbar-ok" });
  const barBad = h("div", { class: "pbar-bad" });
  bar.append(barOK, barBad);
  const progText = h("div", { class: "prog-text", dataset: { ref: "batch-progress-text" }, attrs: { "aria-live": "off" } });

  const stat = (label, ref) => {
    const value = h("div", { class: "stat-value" });
    const sub = h("div", { class: "hint" });
    return { el: h("div", { class: "stat", dataset: { ref } }, value, h("div", { class: "stat-label", text: label }), sub), value, sub };
  };
  // The cards, their labels and order are summaryCards', as a report shows them.
  const cards = summaryCards(runCounts0()).map((card) => stat(card.label, card.ref));
  const histBlock = h("div", { class: "summary-block" }, h("h3", { class: "sub-title", text: "Score histogram" }));
  const causesBlock = h("div", { class: "summary-block" }, h("h3", { class: "sub-title", text: "Undetermined and errors, by cause" }));
  const histEl = h("div");
  const causesEl = h("div");
  histBlock.append(histEl);
  causesBlock.append(causesEl);
  const summaryEl = h("div", { class: "summary", dataset: { ref: "batch-summary" } }, h("div", { class: "stats" }, cards.map((x) => x.el)), h("div", { class: "summary-row" }, histBlock, causesBlock));
  let histKey = "";
  let causesKey = "";

  const thresholdIn = h("input", { type: "number", class: "input narrow", id: uid("bf"), value: String(prefsOf(state).threshold), dataset: { ref: "batch-threshold" }, attrs: { min: 0, step: "any", placeholder: "none" } });
  thresholdIn.addEventListener("change", () => setPrefs(state, { threshold: thresholdIn.value }));
  const thresholdField = h(
    "div",
    { class: "threshold", dataset: { ref: "batch-threshold-field" } },
    h("div", { class: "field" }, h("label", { htmlFor: thresholdIn.id, text: "Pass when score ≥" }), thresholdIn, h("div", { class: "hint", text: "for evaluators whose verdict is a score (rag-recall)" })),
  );

  /**
   * drawProgress draws the bar and the line; the line's data-* attributes carry the counts for tests.
   * @param {import("../results/counts.js").RunCounts} c
   * @param {number|null} perSecond
   * @param {RunPace | null} [pace]
   */
  function drawProgress(c, perSecond, pace = null) {
    const total = c.total || 1;
    barOK.style.width = ((c.done - c.withoutVerdict) / total) * 100 + "%";
    barBad.style.width = (c.withoutVerdict / total) * 100 + "%";
    bar.setAttribute("aria-valuenow", String(Math.round((c.done / total) * 100)));
    progText.textContent = progressLine(c, perSecond, pace);
    progText.dataset.limit = pace ? String(pace.limit) : "";
    progText.dataset.done = String(c.done);
    progText.dataset.total = String(c.total);
    progText.dataset.cacheHits = String(c.cacheHits);
    progText.dataset.failedCalls = String(c.failedCalls || 0);
  }

  /**
   * drawSummary draws the cards, the histogram and the causes; repeats > 1 says the verdicts
   * counted are each row's majority over its repeats.
   * @param {import("../results/counts.js").RunCounts} c
   * @param {number} [repeats]
   */
  function drawSummary(c, repeats = 1) {
    summaryCards(c, repeats).forEach((card, i) => {
      cards[i].value.textContent = card.value;
      cards[i].sub.textContent = card.sub;
    });
    const hk = c.scored ? JSON.stringify(c.histogram) : "";
    if (hk !== histKey || !histEl.firstChild) {
      histKey = hk;
      replace(histEl, c.scored ? histogramSVG(c.histogram) : h("p", { class: "hint", text: "No scores yet." }));
    }
    const ck = JSON.stringify(c.causes);
    if (ck !== causesKey || !causesEl.firstChild) {
      causesKey = ck;
      replace(causesEl, causesList(document, c.causes));
    }
    thresholdField.hidden = !(c.counts.scored > 0 || thresholdOf(prefsOf(state)) !== null);
  }

  return { bar, progText, summaryEl, thresholdField, drawProgress, drawSummary };
}
