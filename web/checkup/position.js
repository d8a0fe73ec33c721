// position.js: position bias in a run judged in both orders ("judge both orders"): how often a
// row's grade changed when its two answers exchanged places (the flip rate) and how often the
// answer in the first slot won, both from the core (rj.positionStats over the rows' combined
// verdicts, every repeat's). positionData gathers it, positionPanel draws it as a pure builder
// (doc, data) => Element for the run card and the report, mountPosition is the run card's glue.

import { hIn } from "../lib/dom.js";
import { stat } from "../stats/figures.js";
import { intervalText } from "./words.js";
import { pct, plural } from "../lib/format.js";
import { redrawGate } from "./redraw.js";

/**
 * @typedef {import("../api/types.js").PositionStats & {judged: number, repeats: number}} PositionData
 *   rj.positionStats over the combined verdicts of the rows judged in both orders (each repeat's),
 *   with judged: the rows they came from, and the run's repeats
 */

/**
 * positionData is a run's position statistics, or null when no row of it was judged in both
 * orders (yet).
 * @param {{positionStats: Function}} rj
 * @param {Array<any>} results by row index
 * @param {number} [repeats]
 * @returns {PositionData|null}
 */
export function positionData(rj, results, repeats = 1) {
  const verdicts = [];
  let judged = 0;
  for (const r of results) {
    if (!r || r.error) continue;
    const reps = Array.isArray(r.repeats) && r.repeats.length > 1 ? r.repeats : [r];
    const both = reps.filter((x) => x && Array.isArray(x.orders) && x.verdict);
    if (!both.length) continue;
    judged++;
    for (const x of both) verdicts.push(x.verdict);
  }
  if (!verdicts.length) return null;
  return { ...rj.positionStats(verdicts), judged, repeats };
}

/**
 * slotWords says what the first slot's share of wins means: a preference for a slot when its
 * interval leaves out one half, else none that the data shows.
 * @param {import("../api/types.js").Proportion} first
 */
export function slotWords(first) {
  if (first.rate === null || !first.ci) return "no order had one answer graded 1 and the other 0";
  if (first.ci[0] > 0.5) return "the judge favours the answer it reads first";
  if (first.ci[1] < 0.5) return "the judge favours the answer it reads second";
  return "no clear preference for a slot (an unbiased judge is near 50%)";
}

/**
 * positionPanel draws a run's position statistics: the flip rate and the first slot's wins in
 * large type, each with its 95% interval and what it means.
 * @param {Document} doc
 * @param {PositionData} d
 * @returns {HTMLElement}
 */
export function positionPanel(doc, d) {
  const per = d.repeats > 1 ? ` (${d.judged} rows × up to ${d.repeats} repeats)` : "";
  const flipSub = d.compared
    ? `${d.flips} of ${d.compared} judgements${per} changed an answer's grade when the answers exchanged places; 95% interval ${intervalText(d.flip.ci)}. Those rows are undetermined (position flip).`
    : "no row's two orders could be compared yet";
  const firstSub = d.decided ? `${d.first_won} of ${d.decided} orders where one answer got 1 and the other 0; 95% interval ${intervalText(d.first.ci)}: ${slotWords(d.first)}.` : slotWords(d.first) + ".";
  return hIn(
    doc,
    "section",
    { class: "trust-panel position-panel", dataset: { ref: "position-panel", flips: String(d.flips), compared: String(d.compared), firstWon: String(d.first_won), decided: String(d.decided) } },
    hIn(doc, "h3", { class: "sub-title", text: "Position bias: each row judged in both orders" }),
    hIn(
      doc,
      "div",
      { class: "stats" },
      stat(doc, "position-flip", pct(d.flip.rate, 0), "position flips", flipSub),
      stat(doc, "position-first", pct(d.first.rate, 0), "first slot won", firstSub),
    ),
    d.not_both ? hIn(doc, "p", { class: "hint", text: `${plural(d.not_both, "judgement")} could not be combined (an order without a grade) and ${d.not_both === 1 ? "is" : "are"} not counted.` }) : null,
  );
}

/**
 * mountPosition builds the panel's place in the run card; draw(counts) redraws it for the
 * controller's open run, at most once a second while rows stream in, hidden for a run judged in
 * one order.
 * @param {{rj: any, controller: import("../batch/runcontroller.js").RunController}} ctx
 */
export function mountPosition({ rj, controller }) {
  const host = hIn(document, "div", { class: "trust", dataset: { ref: "batch-position" } });
  host.hidden = true;
  const gate = redrawGate();
  /** @param {import("../results/counts.js").RunCounts} counts */
  function draw(counts) {
    const c = controller.current;
    if (!c || c.run.settings.orders !== 2) {
      host.hidden = true;
      host.replaceChildren();
      gate.reset();
      return;
    }
    if (!gate.due(c.run.id, counts)) return;
    const data = positionData(rj, c.results, c.run.settings.repeats || 1);
    host.hidden = !data;
    host.replaceChildren(...(data ? [positionPanel(document, data)] : []));
  }
  return { el: host, draw };
}

/**
 * ordersExportFields are the fields a row judged in both orders adds to its exported row, after
 * its score: whether an answer's grade changed when the answers exchanged places (position_flip:
 * true, false, or null when the orders could not be compared), the judge's answer with the
 * answers exchanged (the first repeat's last, as read) and every answer of the exchanged order
 * (exchanged_answers: one list per repeat, a repair request's answer after the first), so that an
 * export holds both orders' answers in full. Null for a run where no row is judged in both orders
 * (neither "judge both orders" nor a check-up's position-swap case).
 * @param {any} run
 * @param {any[]} results by row index
 * @param {any[]} [items] the run's items (a check-up's position-swap case is judged in both orders alone)
 * @returns {import("../batch/export.js").Extra | null}
 */
export function ordersExportFields(run, results, items = []) {
  const all = !!(run && run.settings && run.settings.orders === 2);
  if (!all && !items.some((it) => it && it.bothOrders)) return null;
  return {
    keys: ["position_flip", "exchanged_answer", "exchanged_answers"],
    of: (i) => {
      const r = results[i];
      const reps = r ? (Array.isArray(r.repeats) && r.repeats.length > 1 ? r.repeats : [r]) : [];
      const orders = reps[0] && Array.isArray(reps[0].orders) ? reps[0].orders : null;
      const o = r && r.verdict && r.verdict.verdict ? r.verdict.verdict.orders : null;
      const answers = orders && orders[1] ? orders[1].answers || [] : [];
      const exchanged = orders ? reps.map((x) => (x && Array.isArray(x.orders) && x.orders[1] ? x.orders[1].answers || [] : [])) : null;
      return { position_flip: o && typeof o.agree === "boolean" ? !o.agree : null, exchanged_answer: answers.length ? answers[answers.length - 1] : null, exchanged_answers: exchanged };
    },
  };
}

/** ORDER_WORDS name a row's two orders where its answers are shown. */
export const ORDER_WORDS = Object.freeze(["the answers as they are", "the answers exchanged (the actual output is answer 1)"]);

/**
 * ordersAnswers is one block per order of a row judged in both, each with its answers (the last
 * one, after any repair request, open), for the row dialog.
 * @param {Document} doc
 * @param {{orders: {answers?: string[], error?: {message?: string}}[]}} r
 * @returns {HTMLElement[]}
 */
export function ordersAnswers(doc, r) {
  return r.orders.flatMap((o, k) => {
    const answers = o.answers || [];
    const blocks = answers.map((a, j) =>
      hIn(doc, "details", { class: "raw", dataset: { order: String(k + 1) }, attrs: { open: j === answers.length - 1 } }, hIn(doc, "summary", { text: `The judge's answer, ${ORDER_WORDS[k]}` + (j ? " (corrected, after one repair request)" : "") }), hIn(doc, "pre", { class: "mono", text: a })),
    );
    return o.error ? [...blocks, hIn(doc, "p", { class: "msg-error", text: `${ORDER_WORDS[k]}: no answer: ${o.error.message || "the call failed"}` })] : blocks;
  });
}
