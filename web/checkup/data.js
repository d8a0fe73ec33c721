// data.js: what the check-up chart draws (chart.js CheckupView), gathered from a stored check-up
// run: its record (run.checkup: the seed, the rows drawn, the transformations and what no row
// allowed), its case items and their results, graded by grade.js. The page and the report draw
// the same data; a report's missed cases carry their prompt, answers and verdict in words too.

import { gradeCheckup } from "./grade.js";
import { MISSED_SHOWN } from "./chart.js";
import { expectedWords } from "./words.js";
import { statusOf, causeOf } from "../results/status.js";
import { plural, fmtNum } from "../lib/format.js";

/**
 * @typedef {Object} CheckupRecord what a check-up run's record keeps (run.checkup)
 * @property {number} seed
 * @property {"dataset"|"example"} source
 * @property {string} dataset the dataset's name (or the evaluator's, for its example)
 * @property {number} rows the rows drawn
 * @property {number} of the rows they were drawn from
 * @property {import("./cases.js").TransformLine[]} transforms
 * @property {{row: number, transform: string, name: string, reason: string}[]} skipped
 * @property {number} skips
 * @property {{row: number, reason: string}[]} refused
 */

/**
 * isCheckup says whether a run's record is a check-up's.
 * @param {any} run
 */
export function isCheckup(run) {
  return !!(run && run.checkup && typeof run.checkup === "object" && Array.isArray(run.checkup.transforms));
}

/**
 * aboutLine says in one line what a check-up checked: "54 cases from 20 of 120 rows of
 * qa.jsonl (seed 4242) · judge-mini · Answer grounding".
 * @param {any} run
 * @param {any} ev
 * @param {number} cases
 */
export function aboutLine(run, ev, cases) {
  const rec = /** @type {CheckupRecord} */ (run.checkup);
  const s = run.settings || {};
  const from = rec.source === "example" ? "the evaluator's worked example" : `${rec.rows} of ${rec.of} rows of ${rec.dataset}`;
  const repeats = s.repeats > 1 ? ` · each case judged ${s.repeats} times (majority)` : "";
  return `${plural(cases, "case")} made from ${from} (seed ${rec.seed}) · judged by ${s.model || "?"} · ${(ev && (ev.title || ev.id)) || run.evaluator}${repeats}`;
}

/**
 * modesOf is every transformation of a check-up in order, with its cases, what its verdict must
 * be (the first case's expectation) and, for one no row allowed, why.
 * @param {CheckupRecord} rec
 * @param {any[]} items
 */
export function modesOf(rec, items) {
  /** @type {Map<string, any>} */
  const first = new Map();
  for (const it of items) if (it && it.checkup && !first.has(it.checkup.transform)) first.set(it.checkup.transform, it.checkup);
  const lines = [...(rec.transforms || [])];
  for (const [t, c] of first) if (!lines.some((l) => l.transform === t)) lines.push({ transform: t, name: c.name, cases: 0, skipped: 0, reason: "" });
  return lines.map((l) => {
    const c = first.get(l.transform);
    const cases = items.filter((it) => it && it.checkup && it.checkup.transform === l.transform).length;
    return { transform: l.transform, name: l.name, cases, reason: l.reason || "", expected: c ? expectedWords(c.expect) : "" };
  });
}

/**
 * saidWords is a verdict as the page says it: "✓ Grounded", "✗ Not grounded", "? Undetermined — cause".
 * @param {any} ev
 * @param {any} result
 */
export function saidWords(ev, result) {
  const st = statusOf(result);
  const w = (ev && ev.words) || {};
  if (st === "passed") return "✓ " + (w.passed || "Passed");
  if (st === "failed") return "✗ " + (w.failed || "Failed");
  if (st === "scored") return "◆ score " + fmtNum(result.verdict.score);
  if (st === "error") return "! no answer: " + causeOf(result);
  return "? Undetermined — " + causeOf(result);
}

/**
 * checkupView gathers a check-up run's chart. With details (a report), each missed case listed
 * carries its prompt, the judge's answers and its verdict in words.
 * @param {any} rj
 * @param {{run: any, ev: any, items: any[], results: any[]}} r
 * @param {{references: readonly import("../api/types.js").CheckupReference[], details?: boolean}} o
 * @returns {import("./chart.js").CheckupView & {grades: import("./grade.js").CheckupGrades}}
 */
export function checkupView(rj, { run, ev, items, results }, { references, details = false }) {
  const rec = /** @type {CheckupRecord} */ (run.checkup);
  const modes = modesOf(rec, items);
  const grades = gradeCheckup(rj, items, results, modes.map((m) => m.transform));
  const missedAll = grades.cases.filter((g) => g.outcome === "missed");
  const missed = missedAll.slice(0, MISSED_SHOWN).map((g) => {
    /** @type {import("./chart.js").MissedCase} */
    const m = { index: g.index, row: g.row, name: g.name, transform: g.transform, expected: g.expected, detail: g.detail, note: g.note };
    if (!details) return m;
    const r = results[g.index];
    const item = items[g.index];
    try {
      m.prompt = rj.render(ev.id, item.inputs).prompt;
    } catch {
      m.prompt = "";
    }
    m.answers = answersOf(r);
    m.said = saidWords(ev, r);
    return m;
  });
  return { matrix: grades.matrix, modes, pending: grades.pending, errors: grades.errors, missed, missedTotal: missedAll.length, about: aboutLine(run, ev, grades.cases.length), references, grades };
}

/**
 * answersOf is every answer a case's judge gave, in order: each repeat's, and for a case judged
 * in both orders the exchanged order's after the first's.
 * @param {any} r
 * @returns {string[]}
 */
export function answersOf(r) {
  if (!r) return [];
  const one = (/** @type {any} */ x) => [...(x.answers || []), ...(Array.isArray(x.orders) && x.orders[1] ? x.orders[1].answers || [] : [])];
  return Array.isArray(r.repeats) && r.repeats.length > 1 ? r.repeats.flatMap(one) : one(r);
}

/**
 * checkupExportFields are the fields a check-up case adds to its exported row, after its score: the
 * dataset row it was made from (1-based), its failure mode, the right verdict, the outcome and why.
 * @param {import("./grade.js").CheckupGrades} grades
 * @returns {import("../batch/export.js").Extra}
 */
export function checkupExportFields(grades) {
  const byIndex = new Map(grades.cases.map((g) => [g.index, g]));
  return {
    keys: ["checkup_row", "failure_mode", "right_verdict", "outcome", "outcome_detail"],
    of: (i) => {
      const g = byIndex.get(i);
      if (!g) return { checkup_row: null, failure_mode: null, right_verdict: null, outcome: null, outcome_detail: null };
      return { checkup_row: g.row >= 0 ? g.row + 1 : null, failure_mode: g.transform, right_verdict: g.expected, outcome: g.outcome, outcome_detail: g.detail };
    },
  };
}
