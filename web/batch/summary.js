// summary.js: the open run's numbers: the progress bar and line, the summary cards (pass rate,
// mean score, undetermined, tokens), the score histogram, the causes of undetermined rows and
// errors, and the score threshold. Everything it shows is one RunCounts (counts.js), drawn at once.

import { h, replace, uid } from "../lib/dom.js";
import { histogramSVG } from "../stats/histogram.js";
import { causesList } from "../stats/figures.js";
import { progressLine, summaryCards } from "../results/summarywords.js";
import { prefsOf, setPrefs, thresholdOf } from "./prefs.js";

/** runCounts0 is a run's counts before anything is known: what the cards are first drawn from. */
function runCounts0() {
  return /** @type {import("../results/counts.js").RunCounts} */ (/** @type {unknown} */ ({ passRate: null, decided: 0, counts: { passed: 0, failed: 0, scored: 0, undetermined: 0, error: 0, pending: 0 }, meanScore: null, scored: 0, tokens: 0, cost: null, paidCalls: 0, cacheHits: 0, failedCalls: 0 }));
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
   * @param {import("../results/summarywords.js").RunPace | null} [pace]
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
    // Rows whose calls are over and whose result is being stored: not in the line, yet not done.
    progText.dataset.saving = String(c.saving || 0);
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
