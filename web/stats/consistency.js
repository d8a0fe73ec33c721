// consistency.js: how far a judge agrees with itself, for a run whose rows were judged several
// times. consistencyData gathers the numbers (every statistic from the core: rj.consistency for
// the unanimous and split rows and Fleiss' κ, rj.describe for the scores' spread); the builders
// draw them as pure functions (doc, data) => Element, so that the Batch view and a report draw the
// same panel: consistencyPanel (the cards, the bar and the rows that flipped) and splitBarSVG.

import { repeatVerdicts, repeatVote } from "../results/status.js";
import { svgIn, stat, kappaWords, mark, verdictWord } from "./figures.js";
import { spread } from "../results/majority.js";
import { pct, fmtNum } from "../lib/format.js";
import { hIn } from "../lib/dom.js";

/** FLIPPED_SHOWN: how many rows that flipped the panel lists (the table's filter shows them all). */
export const FLIPPED_SHOWN = 12;

/**
 * @typedef {Object} ConsistencyRow one row judged several times
 * @property {number} index the row's index in the run
 * @property {(boolean|null)[]} verdicts each repeat's verdict, in repeat order
 * @property {boolean|null} majority
 * @property {boolean} unanimous
 * @property {number|null} mean the mean of its repeats' scores
 * @property {number|null} sd their sample standard deviation
 */

/**
 * @typedef {Object} ConsistencyData a run's consistency over its repeats
 * @property {number} repeats how many times each row was judged (the most of any row)
 * @property {number} rows rows judged (with a verdict from every repeat: errors and unfinished rows are left out)
 * @property {number} total rows in the run
 * @property {number} unanimous rows whose repeats all gave the same verdict
 * @property {number} split rows whose repeats did not
 * @property {number|null} fleiss_kappa Fleiss' κ over the repeats (rj.consistency)
 * @property {string} [fleiss_reason] why κ is undefined
 * @property {number|null} meanSD the mean over rows of their scores' standard deviation (rj.describe)
 * @property {number} sdRows rows with a standard deviation (two scores or more)
 * @property {ConsistencyRow[]} flipped the rows that were not unanimous, in row order
 * @property {number} decided repeats that gave passed or failed (0: scores only, no threshold set)
 * @property {import("./figures.js").VerdictWords|null} words the evaluator's words for the verdicts
 */

/**
 * consistencyData is the consistency of a run's results over its repeats, or null when no row of
 * it was judged more than once. threshold as in statusOf (applied to each repeat's score).
 * @param {{consistency: Function, describe: Function}} rj
 * @param {Array<any>} results by row index
 * @param {number|null} threshold
 * @param {number} [total] rows in the run (results.length by default)
 * @param {import("./figures.js").VerdictWords|null} [words] the evaluator's words for the verdicts
 * @returns {ConsistencyData|null}
 */
export function consistencyData(rj, results, threshold, total = results.length, words = null) {
  /** @type {number[]} */
  const index = [];
  /** @type {(boolean|null)[][]} */
  const rows = [];
  let repeats = 0;
  for (let i = 0; i < results.length; i++) {
    const v = repeatVerdicts(results[i], threshold);
    if (!v) continue;
    index.push(i);
    rows.push(v);
    repeats = Math.max(repeats, v.length);
  }
  if (!rows.length) return null;
  const c = rj.consistency(rows);
  const decided = rows.reduce((n, v) => n + v.filter((x) => x !== null).length, 0);
  /** @type {(number|null)[]} */
  const sds = [];
  /** @type {ConsistencyRow[]} */
  const flipped = [];
  rows.forEach((verdicts, k) => {
    const r = results[index[k]];
    const d = rj.describe(r.repeats.map((/** @type {any} */ x) => (x.verdict && typeof x.verdict.score === "number" && Number.isFinite(x.verdict.score) ? x.verdict.score : null)));
    sds.push(d.sd);
    const per = c.per_row[k];
    if (!per.unanimous) flipped.push({ index: index[k], verdicts, majority: per.majority, unanimous: per.unanimous, mean: d.mean, sd: d.sd });
  });
  const spread = rj.describe(sds);
  return {
    repeats,
    rows: c.rows,
    total,
    unanimous: c.unanimous,
    split: c.split,
    fleiss_kappa: c.fleiss_kappa,
    fleiss_reason: c.fleiss_reason,
    meanSD: spread.mean,
    sdRows: spread.n,
    flipped,
    decided,
    words,
  };
}

/**
 * repeatNote is a row's repeats in a few characters, for the results table: "✓ ✗ ✓ · score 0.67 ± 0.58".
 * @param {any} result a row's result with repeats
 * @param {number|null} threshold
 */
export function repeatNote(result, threshold) {
  const v = repeatVerdicts(result, threshold) || [];
  const v0 = result.verdict || {};
  const { sd } = spread((result.repeats || []).map((/** @type {any} */ r) => (r.verdict ? r.verdict.score : null)));
  const score = typeof v0.score === "number" ? ` · score ${fmtNum(v0.score)}` + (sd !== null && sd > 0 ? ` ± ${fmtNum(sd)}` : "") : "";
  return `repeats ${v.map(mark).join(" ")}` + score;
}

/**
 * shownAnswer is the answer a row judged several times opens on: the last answer of the first
 * repeat that gave the row's verdict (its majority), else of the first repeat.
 * @param {any} result
 * @returns {string}
 */
export function shownAnswer(result) {
  const reps = result.repeats || [];
  const p = result.verdict ? result.verdict.passed : null;
  const r = reps.find((/** @type {any} */ x) => x.verdict && x.verdict.passed === p) || reps[0];
  const a = r ? r.answers : result.answers;
  return a && a.length ? a[a.length - 1] : "";
}

/**
 * repeatAnswers is one collapsible block per repeat of a row, its verdict in the summary and its
 * answers inside (the first one open), for the row dialog.
 * @param {Document} doc
 * @param {any} result
 * @param {number|null} threshold
 * @param {import("./figures.js").VerdictWords|null} [words] the evaluator's words for the verdicts
 * @returns {HTMLElement[]}
 */
export function repeatAnswers(doc, result, threshold, words = null) {
  // A row that ended in an error has no majority: each repeat says its own verdict, or its error.
  const v = repeatVerdicts(result, threshold) || (result.repeats || []).map((/** @type {any} */ r) => repeatVote(r, threshold));
  return (result.repeats || []).map((/** @type {any} */ r, /** @type {number} */ k) => {
    const score = r.verdict && typeof r.verdict.score === "number" ? ` · score ${fmtNum(r.verdict.score)}` : "";
    const said = r.error ? "no answer: " + (r.error.message || "failed") : verdictWord(v[k], words) + score;
    const title = `Repeat ${k + 1} of ${result.repeats.length}: ${said}` + (r.repaired ? " (after one repair request)" : "");
    return hIn(doc, "details", { class: "raw", dataset: { repeat: String(k + 1) }, attrs: { open: k === 0 } }, hIn(doc, "summary", { text: title }), (r.answers || []).map((/** @type {string} */ a) => hIn(doc, "pre", { class: "mono", text: a })));
  });
}

/**
 * splitBarSVG is the unanimous/split bar: one horizontal bar, the unanimous rows (✓ pattern-free
 * green) then the split ones (amber, hatched so a grey projector still tells them apart), and a
 * <title> saying it all for screen readers. It has no viewBox: its segments are in percent of its
 * width and its height is fixed, so a phone narrows the bar without shrinking it or its hatching.
 * Its labels are text beside it (splitBar), which keeps the page's font size at any width.
 * @param {Document} doc
 * @param {{rows: number, unanimous: number, split: number, repeats?: number}} d
 * @returns {SVGElement}
 */
export function splitBarSVG(doc, d) {
  const barY = 1;
  const barH = 34;
  const H = barH + 2;
  const n = Math.max(1, d.unanimous + d.split);
  const shareU = (d.unanimous / n) * 100;
  const words = `${d.unanimous} of ${d.rows} rows unanimous (${pct(d.unanimous / n)}), ${d.split} split (${pct(d.split / n)})`;
  const root = svgIn(doc, "svg", { width: "100%", height: H, role: "img", class: "split-bar", "data-ref": "split-bar", "data-unanimous": d.unanimous, "data-split": d.split });
  root.append(svgIn(doc, "title", {}, "Repeat consistency: " + words));
  const defs = svgIn(doc, "defs");
  const pat = svgIn(doc, "pattern", { id: "split-hatch-" + Math.random().toString(36).slice(2, 8), width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pat.append(svgIn(doc, "rect", { width: 8, height: 8, class: "split-seg-split" }), svgIn(doc, "line", { x1: 0, y1: 0, x2: 0, y2: 8, class: "split-hatch" }));
  defs.append(pat);
  root.append(defs);
  const p = (/** @type {number} */ x) => Math.round(x * 1000) / 1000 + "%";
  if (d.unanimous) root.append(svgIn(doc, "rect", { x: 0, y: barY, width: p(shareU), height: barH, class: "split-seg-unanimous", "data-seg": "unanimous" }));
  if (d.split) root.append(svgIn(doc, "rect", { x: p(shareU), y: barY, width: p(100 - shareU), height: barH, fill: `url(#${pat.id})`, class: "split-seg-split-fill", "data-seg": "split" }));
  root.append(svgIn(doc, "rect", { x: 0, y: barY, width: "100%", height: barH, class: "split-frame" }));
  return root;
}

/**
 * splitBar is the unanimous/split bar with its labels under it, at its two ends, as page text:
 * large enough for the back of a room, and as readable on a phone (they wrap, never shrink).
 * @param {Document} doc
 * @param {{rows: number, unanimous: number, split: number, repeats?: number}} d
 * @returns {HTMLElement}
 */
export function splitBar(doc, d) {
  const n = Math.max(1, d.unanimous + d.split);
  return hIn(
    doc,
    "div",
    { class: "split-wrap" },
    splitBarSVG(doc, d),
    hIn(
      doc,
      "div",
      { class: "split-labels", attrs: { "aria-hidden": "true" } },
      hIn(doc, "span", { class: "split-label", text: `✓ ${d.unanimous} unanimous · ${pct(d.unanimous / n)}` }),
      hIn(doc, "span", { class: "split-label", text: `⇄ ${d.split} split · ${pct(d.split / n)}` }),
    ),
  );
}

/**
 * leftOutLine says how many rows the panel leaves out (" " first, "" for none): those without
 * every repeat's verdict (an error, or not run yet).
 * @param {number} left
 * @returns {string}
 */
export function leftOutLine(left) {
  if (left <= 0) return "";
  return left === 1 ? " 1 row is left out here: it ended in an error or has not run yet." : ` ${left} rows are left out here: they ended in an error or have not run yet.`;
}

/**
 * consistencyPanel is the Consistency panel of a run judged several times: the share of
 * unanimous rows, Fleiss' κ and the scores' spread, each with a sentence saying what it means,
 * the unanimous/split bar, and the first rows that flipped. Its data-* attributes carry the raw
 * numbers (for tests and reports).
 * @param {Document} doc
 * @param {ConsistencyData} d
 * @returns {HTMLElement}
 */
export function consistencyPanel(doc, d) {
  const n = d.unanimous + d.split;
  const left = d.total - d.rows;
  const k = d.fleiss_kappa;
  const w = d.words || {};
  const kappaSub =
    k === null
      ? `undefined: ${d.fleiss_reason || "no verdicts to compare"}`
      : k >= 0
        ? `the repeats agree ${k > 0 ? "beyond chance" : "no better than chance"}: ${kappaWords(k)} (${w.passed || "passed"}, ${w.failed || "failed"} and undetermined as the three verdicts)`
        : "the repeats agree less than chance would: the judge's verdicts on these rows are noise";
  const cards = hIn(
    doc,
    "div",
    { class: "stats" },
    stat(doc, "consistency-unanimous", pct(n ? d.unanimous / n : null), "unanimous rows", `${d.unanimous} of ${d.rows} rows got the same verdict all ${d.repeats} times; ${d.split} flipped`),
    stat(doc, "consistency-kappa", k === null ? "–" : "κ " + fmtNum(k), "Fleiss' kappa", kappaSub),
    stat(
      doc,
      "consistency-sd",
      d.meanSD === null ? "–" : "± " + fmtNum(d.meanSD),
      "mean score spread",
      d.meanSD === null ? "no row has two scores to compare" : `a row's score moves by this much between repeats (standard deviation, mean over ${d.sdRows} rows)`,
    ),
  );
  const shown = d.flipped.slice(0, FLIPPED_SHOWN);
  const flippedBlock = d.flipped.length
    ? hIn(
        doc,
        "div",
        { class: "flipped" },
        hIn(doc, "h4", { class: "sub-title", text: `Rows that flipped, first (${d.flipped.length})` }),
        hIn(
          doc,
          "ol",
          { class: "flipped-list", dataset: { ref: "consistency-flipped" } },
          shown.map((r) =>
            hIn(
              doc,
              "li",
              { dataset: { index: String(r.index) } },
              hIn(doc, "span", { class: "flipped-row", text: `Row ${r.index + 1}` }),
              hIn(doc, "span", { class: "flipped-marks", attrs: { "aria-label": r.verdicts.map((v) => verdictWord(v, d.words)).join(", ") }, text: r.verdicts.map(mark).join(" ") }),
              hIn(doc, "span", { class: "hint", text: `→ ${r.majority === null ? "no majority" : verdictWord(r.majority, d.words)}` + (r.sd !== null && r.sd > 0 ? ` · score ${fmtNum(r.mean)} ± ${fmtNum(r.sd)}` : "") }),
            ),
          ),
        ),
        d.flipped.length > shown.length ? hIn(doc, "p", { class: "hint", text: `… and ${d.flipped.length - shown.length} more: the ⇄ Flipped filter of the table shows them all.` }) : null,
      )
    : hIn(doc, "p", { class: "hint", text: "No row flipped: every repeat of every row gave the same verdict." });
  return hIn(
    doc,
    "section",
    {
      class: "trust-panel consistency-panel",
      dataset: { ref: "consistency-panel", rows: String(d.rows), unanimous: String(d.unanimous), split: String(d.split), kappa: k === null ? "" : String(k), meanSd: d.meanSD === null ? "" : String(d.meanSD), repeats: String(d.repeats) },
    },
    hIn(doc, "h3", { class: "sub-title", text: `Consistency: each row judged ${d.repeats} times` }),
    hIn(
      doc,
      "p",
      { class: "hint" },
      `The run's verdicts, pass rate and exports use each row's majority verdict (a tie is undetermined).` + leftOutLine(left),
    ),
    d.decided === 0
      ? hIn(doc, "p", { class: "hint", dataset: { ref: "consistency-scores-only" }, text: "No repeat gave a pass/fail verdict, only scores: the score spread is the measure here, or set “Pass when score ≥” to count verdicts." })
      : null,
    cards,
    splitBar(doc, d),
    flippedBlock,
  );
}
