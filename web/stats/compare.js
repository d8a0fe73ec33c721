// compare.js: two stored runs over the same dataset, side by side: the typical use is the same
// evaluator with two judge models, or two versions of a custom prompt. matchRuns pairs their rows
// (by the dataset's id column when both runs have one, else by index) and reports a mismatch
// instead of guessing; compareData gathers both runs' numbers, Cohen's κ between them (the core's
// rj.agreement, run A as "judge" and run B as "human") and the rows whose verdict changed;
// comparePanel draws it as a pure function (doc, data) => Element, for the page and for reports.

import { runCounts } from "../results/counts.js";
import { statusOf } from "../results/status.js";
import { stat, kappaWords, verdictBadge, scrollTable } from "./figures.js";
import { shownAnswer } from "./consistency.js";
import { idColumn, sourceColumns } from "../results/columns.js";
import { pct, fmtNum, fmtInt, cut, fmtMoney } from "../lib/format.js";
import { hIn } from "../lib/dom.js";

/** CHANGED_SHOWN: how many changed rows the panel's table lists. */
export const CHANGED_SHOWN = 200;

/**
 * @typedef {{run: any, items: any[], results: any[]}} LoadedRun a stored run as batch/runrecords.js loadRun gives it
 * @typedef {{by: "id"|"index", column: string|null, pairs: [number, number][], error?: undefined} | {error: string, by?: undefined, pairs?: undefined, column?: undefined}} Matching
 */

/**
 * idsOf is a run's id column and its rows' ids (as text), or null when its dataset has none.
 * @param {LoadedRun} r
 * @returns {{column: string, ids: string[]} | null}
 */
function idsOf(r) {
  const cols = sourceColumns(r.items, Array.isArray(r.run.columns) ? r.run.columns : null);
  const column = idColumn(r.items, cols);
  if (!column) return null;
  return { column, ids: r.items.map((it) => String(it && it.source ? it.source[column] : "")) };
}

/**
 * matchRuns pairs the rows of runs a and b: by the id column when both datasets have one (every
 * id of one found in the other, else a mismatch), by index when neither has one (the same number
 * of rows, else a mismatch); an id column on one side only is a mismatch too. A mismatch is
 * {error} in one sentence that says what differs.
 * @param {LoadedRun} a
 * @param {LoadedRun} b
 * @returns {Matching}
 */
export function matchRuns(a, b) {
  const ia = idsOf(a);
  const ib = idsOf(b);
  if (ia && ib) {
    const where = new Map(ib.ids.map((id, i) => [id, i]));
    const onlyA = ia.ids.filter((id) => !where.has(id));
    const inA = new Set(ia.ids);
    const onlyB = ib.ids.filter((id) => !inA.has(id));
    if (onlyA.length || onlyB.length) {
      const say = (/** @type {string[]} */ ids, /** @type {string} */ side) => (ids.length ? `${ids.length} id${ids.length === 1 ? "" : "s"} only in run ${side} (${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ", …" : ""})` : "");
      return { error: `The two runs are not over the same rows: ${[say(onlyA, "A"), say(onlyB, "B")].filter(Boolean).join("; ")}.` };
    }
    return { by: "id", column: ia.column, pairs: ia.ids.map((id, i) => /** @type {[number, number]} */ ([i, /** @type {number} */ (where.get(id))])) };
  }
  if (ia || ib) {
    const [has, lacks] = ia ? ["A", "B"] : ["B", "A"];
    const col = /** @type {{column: string}} */ (ia || ib).column;
    return { error: `Run ${has}'s dataset has an id column (${col}) and run ${lacks}'s has none: its rows cannot be matched by id, and matching them by position would be a guess.` };
  }
  if (a.run.total !== b.run.total) return { error: `Run A has ${a.run.total} rows and run B ${b.run.total}, and neither dataset has an id column to match rows by.` };
  return { by: "index", column: null, pairs: Array.from({ length: a.run.total }, (_, i) => /** @type {[number, number]} */ ([i, i])) };
}

/**
 * verdictOf is a row's verdict for agreement: true passed, false failed, null anything else.
 * @param {any} result
 * @param {number|null} threshold
 * @returns {boolean|null}
 */
export function verdictOf(result, threshold) {
  const st = statusOf(result, threshold);
  return st === "passed" ? true : st === "failed" ? false : null;
}

/**
 * wallTime is how long a run took: from its first row's start to its last row's end, in seconds
 * (null before a row finished). A run resumed days later counts the days between.
 * @param {any[]} results
 * @returns {number|null}
 */
export function wallTime(results) {
  let first = Infinity;
  let last = -Infinity;
  for (const r of results) {
    if (!r || !r.finishedAt) continue;
    first = Math.min(first, r.finishedAt - (r.ms || 0));
    last = Math.max(last, r.finishedAt);
  }
  return Number.isFinite(first) ? (last - first) / 1000 : null;
}

/**
 * @typedef {Object} RunSide one run's card
 * @property {string} id @property {string} name @property {string} evaluator @property {string} model
 * @property {number} repeats @property {number} total @property {number} done
 * @property {number|null} passRate @property {number} decided @property {number|null} meanScore
 * @property {number} undetermined @property {number} errors @property {number} tokens
 * @property {number|null} cost @property {number|null} seconds @property {string} createdAt ISO time
 */

/**
 * @typedef {Object} ChangedRow a row whose verdict differs between the two runs
 * @property {number} a its index in run A @property {number} b its index in run B
 * @property {string|null} id its id, when matched by id
 * @property {boolean|null} verdictA @property {boolean|null} verdictB
 * @property {number|null} scoreA @property {number|null} scoreB
 * @property {string} answerA @property {string} answerB the judges' answers (the one each verdict is read from)
 * @property {string} input the text judged
 */

/**
 * @typedef {Object} CompareData
 * @property {RunSide} a @property {RunSide} b
 * @property {string} [error] the mismatch, when the rows could not be matched (nothing else is then set but a and b)
 * @property {"id"|"index"} [by] @property {string|null} [column]
 * @property {import("../ragjudge.js").Agreement} [agreement] rj.agreement(verdicts of A, verdicts of B)
 * @property {ChangedRow[]} [changed]
 * @property {boolean} [sameEvaluator]
 * @property {{a: import("./figures.js").VerdictWords|null, b: import("./figures.js").VerdictWords|null}} [words] each run's evaluator's words for its verdicts
 */

/**
 * side is one run's card numbers (counts.js RunCounts at this moment).
 * @param {LoadedRun} r
 * @param {{threshold: number|null, priceIn?: any, priceOut?: any}} o
 * @returns {RunSide}
 */
function side(r, o) {
  const c = runCounts({ total: r.run.total, results: r.results, threshold: o.threshold, priceIn: o.priceIn, priceOut: o.priceOut });
  const s = r.run.settings || {};
  return {
    id: r.run.id,
    name: r.run.name,
    evaluator: r.run.evaluator,
    model: s.model || "",
    repeats: s.repeats || 1,
    total: c.total,
    done: c.done,
    passRate: c.passRate,
    decided: c.decided,
    meanScore: c.meanScore,
    undetermined: c.counts.undetermined,
    errors: c.counts.error,
    tokens: c.tokens,
    cost: c.cost,
    seconds: wallTime(r.results),
    createdAt: new Date(r.run.createdAt).toISOString(),
  };
}

/**
 * inputText is the text a row's verdict is about: the first text input of its inputs.
 * @param {any} item
 * @param {string[]} names the evaluator's input names, in order
 */
function inputText(item, names) {
  if (!item || !item.inputs) return item && item.error ? String(item.error) : "";
  for (const n of [...names, ...Object.keys(item.inputs)]) if (typeof item.inputs[n] === "string" && item.inputs[n]) return item.inputs[n];
  return "";
}

/**
 * answerOf is the answer a row's verdict is read from ("" for a row without one).
 * @param {any} r
 */
function answerOf(r) {
  if (!r) return "";
  if (r.error) return r.error.message || "";
  if (Array.isArray(r.repeats)) return shownAnswer(r);
  return r.answers && r.answers.length ? r.answers[r.answers.length - 1] : "";
}

/**
 * compareData compares runs a and b. threshold, prices as in the Batch view.
 * @param {{agreement: Function}} rj
 * @param {LoadedRun} a
 * @param {LoadedRun} b
 * @param {{threshold?: number|null, priceIn?: any, priceOut?: any, inputNames?: string[], words?: {a?: import("./figures.js").VerdictWords|null, b?: import("./figures.js").VerdictWords|null}}} [o]
 *   inputNames: run A's evaluator's inputs (the text shown per row); words: each run's evaluator's words for its verdicts
 * @returns {CompareData}
 */
export function compareData(rj, a, b, { threshold = null, priceIn = null, priceOut = null, inputNames = [], words = {} } = {}) {
  const o = { threshold, priceIn, priceOut };
  const out = { a: side(a, o), b: side(b, o), words: { a: words.a || null, b: words.b || null } };
  const m = matchRuns(a, b);
  if (m.error !== undefined) return { ...out, error: m.error };
  const pairs = /** @type {[number, number][]} */ (m.pairs);
  const va = pairs.map(([i]) => verdictOf(a.results[i], threshold));
  const vb = pairs.map(([, j]) => verdictOf(b.results[j], threshold));
  const agreement = rj.agreement(va, vb);
  /** @type {ChangedRow[]} */
  const changed = [];
  pairs.forEach(([i, j], k) => {
    if (va[k] === vb[k]) return;
    const ra = a.results[i];
    const rb = b.results[j];
    // A row not judged yet on one side has not changed: it has no verdict to compare.
    if (!ra || !rb) return;
    const score = (/** @type {any} */ r) => (r && r.verdict && typeof r.verdict.score === "number" ? r.verdict.score : null);
    const item = a.items[i];
    changed.push({
      a: i,
      b: j,
      id: m.column && item && item.source ? String(item.source[m.column]) : null,
      verdictA: va[k],
      verdictB: vb[k],
      scoreA: score(ra),
      scoreB: score(rb),
      answerA: answerOf(ra),
      answerB: answerOf(rb),
      input: inputText(item, inputNames),
    });
  });
  return { ...out, by: m.by, column: m.column, agreement, changed, sameEvaluator: a.run.evaluator === b.run.evaluator };
}

/**
 * seconds writes a duration as "12 s", "3 min 4 s" or "1 h 2 min"; "–" for none.
 * @param {number|null} s
 */
function duration(s) {
  if (s === null || !Number.isFinite(s) || s < 0) return "–";
  if (s < 60) return Math.ceil(s) + " s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + " min " + Math.round(s - m * 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}

/**
 * undeterminedText is a run card's undetermined count, errors added: "2 (+ 1 error)".
 * @param {{undetermined: number, errors: number}} s
 */
export function undeterminedText(s) {
  return `${s.undetermined}` + (s.errors ? ` (+ ${s.errors} error${s.errors === 1 ? "" : "s"})` : "");
}

/**
 * runCard is one run's card in the comparison.
 * @param {Document} doc
 * @param {RunSide} s
 * @param {"A"|"B"} label
 */
function runCard(doc, s, label) {
  const row = (/** @type {string} */ k, /** @type {string} */ v, /** @type {string} */ ref) => [hIn(doc, "dt", { text: k }), hIn(doc, "dd", { text: v, dataset: { ref: `compare-${label.toLowerCase()}-${ref}` } })];
  return hIn(
    doc,
    "div",
    { class: "compare-card", dataset: { ref: "compare-card-" + label.toLowerCase(), run: s.id } },
    hIn(doc, "h4", { text: `Run ${label}: ${s.model || "?"} · ${s.evaluator}` }),
    hIn(doc, "p", { class: "hint", text: `${s.name} · ${s.done} of ${s.total} rows done` + (s.repeats > 1 ? ` · each row judged ${s.repeats} times (majority)` : "") + ` · started ${new Date(s.createdAt).toLocaleString()}` }),
    hIn(
      doc,
      "dl",
      {},
      row("pass rate", s.passRate === null ? "–" : `${pct(s.passRate)} of ${s.decided}`, "pass-rate"),
      row("mean score", fmtNum(s.meanScore), "mean-score"),
      row("undetermined", undeterminedText(s), "undetermined"),
      row("tokens", fmtInt(s.tokens), "tokens"),
      row("cost", fmtMoney(s.cost, "–"), "cost"),
      row("time", duration(s.seconds), "time"),
    ),
  );
}

/**
 * comparePanel draws a comparison: the two runs' cards side by side, then Cohen's κ between them
 * in large type with what it means, then only the rows whose verdict changed, with both answers
 * side by side. A mismatch is said instead of the κ and the rows.
 * @param {Document} doc
 * @param {CompareData} d
 * @returns {HTMLElement}
 */
export function comparePanel(doc, d) {
  const cards = hIn(doc, "div", { class: "compare-cards" }, runCard(doc, d.a, "A"), runCard(doc, d.b, "B"));
  const head = hIn(doc, "h3", { class: "sub-title", text: "Two runs side by side" });
  if (d.error !== undefined) {
    return hIn(doc, "section", { class: "trust-panel compare-panel", dataset: { ref: "compare-panel", mismatch: "true" } }, head, cards, hIn(doc, "p", { class: "compare-mismatch", dataset: { ref: "compare-mismatch" }, attrs: { role: "alert" }, text: "✗ " + d.error }));
  }
  const ag = /** @type {import("../ragjudge.js").Agreement} */ (d.agreement);
  const changed = /** @type {ChangedRow[]} */ (d.changed);
  const k = ag.kappa;
  const kappaSub =
    k === null
      ? `undefined: ${ag.kappa_reason || "no row has a verdict in both runs"}`
      : (k > 0 ? `the two runs agree beyond chance: ${kappaWords(k)}` : "the two runs agree no better than chance") + (ag.kappa_ci ? ` (95% interval ${fmtNum(ag.kappa_ci[0])} to ${fmtNum(ag.kappa_ci[1])})` : "");
  const matched = d.by === "id" ? `rows matched by their ${d.column} column` : "rows matched by position (neither dataset has an id column)";
  const stats = hIn(
    doc,
    "div",
    { class: "stats" },
    stat(doc, "compare-kappa", k === null ? "–" : "κ " + fmtNum(k), "Cohen's kappa, A vs B", kappaSub),
    stat(doc, "compare-accuracy", pct(ag.accuracy), "same verdict", `${ag.agree} of ${ag.compared} rows with a verdict in both runs; ${matched}`),
    stat(doc, "compare-changed", String(changed.length), "verdicts changed", changed.length ? "listed below, each with both judges' answers" : "every row got the same verdict in both runs"),
  );
  const shown = changed.slice(0, CHANGED_SHOWN);
  const table = changed.length
    ? scrollTable(doc, {
        ref: "compare-changed-table",
        class: "ptable compare-table",
        heads: ["Row", "Run A", "Run B", "Input", "Answer A", "Answer B"],
        rows: shown.map((r) =>
          hIn(
            doc,
            "tr",
            { dataset: { a: String(r.a), b: String(r.b) } },
            hIn(doc, "td", { text: String(r.a + 1) + (r.id !== null ? ` (${r.id})` : "") }),
            hIn(doc, "td", { dataset: { verdict: String(r.verdictA) } }, verdictBadge(doc, r.verdictA, d.words && d.words.a, r.scoreA)),
            hIn(doc, "td", { dataset: { verdict: String(r.verdictB) } }, verdictBadge(doc, r.verdictB, d.words && d.words.b, r.scoreB)),
            hIn(doc, "td", {}, hIn(doc, "div", { class: "compare-input", text: cut(r.input, 400) })),
            hIn(doc, "td", {}, hIn(doc, "pre", { class: "mono", text: r.answerA })),
            hIn(doc, "td", {}, hIn(doc, "pre", { class: "mono", text: r.answerB })),
          ),
        ),
      })
    : null;
  return hIn(
    doc,
    "section",
    { class: "trust-panel compare-panel", dataset: { ref: "compare-panel", kappa: k === null ? "" : String(k), changed: String(changed.length), compared: String(ag.compared), by: String(d.by) } },
    head,
    cards,
    d.sameEvaluator ? null : hIn(doc, "p", { class: "hint", text: `The runs use different evaluators (${d.a.evaluator}, ${d.b.evaluator}): their verdicts are compared as passed or failed.` }),
    stats,
    changed.length ? hIn(doc, "h4", { class: "sub-title", text: `Rows whose verdict changed (${changed.length})` }) : null,
    table,
    changed.length > shown.length ? hIn(doc, "p", { class: "hint", text: `… and ${changed.length - shown.length} more.` }) : null,
  );
}
