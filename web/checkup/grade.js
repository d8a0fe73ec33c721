// grade.js: a check-up run graded from what is stored: each case item's verdict (its result, as
// the batch engine stored it) graded by the core (rj.checkupGrade, with the same row's other
// cases' verdicts as references), and the outcomes counted into the matrix with Wilson intervals
// (rj.checkupMatrix). A case judged several times (the run's repeats) is graded repeat by repeat
// and takes the majority of its outcomes, by the rule a row's verdict takes (results/majority.js,
// held equal to the core's): caught, missed, or undetermined on a tie. Pure over rj.

import { caseOf } from "./cases.js";
import { majority, votes } from "../results/majority.js";
import { expectedWords } from "./words.js";

/** OUTCOMES are a graded case's outcomes, in the chart's order. */
export const OUTCOMES = Object.freeze(["caught", "missed", "undetermined"]);

/**
 * @typedef {Object} GradedCase one case of a check-up run
 * @property {number} index the case's index in the run (its item)
 * @property {number} row the dataset row it was made from (0-based; -1: the evaluator's example)
 * @property {string} transform @property {string} name
 * @property {string} expected what the verdict had to say, in words
 * @property {string} note what was done to the row
 * @property {"caught"|"missed"|"undetermined"|"error"|"pending"} outcome error: the case got no
 *   answer (its call failed); pending: not judged yet
 * @property {string} detail why, in words (the core's, or the row's error)
 * @property {string} [code] for undetermined: the verdict's check code that left it so
 */

/**
 * @typedef {Object} CheckupGrades
 * @property {GradedCase[]} cases every case item, in run order
 * @property {{rows: import("../api/types.js").CheckupRow[], overall: import("../api/types.js").CheckupRow}} matrix
 *   the graded cases by transformation (rows in the check-up's order of transformations)
 * @property {number} pending cases not judged yet
 * @property {number} errors cases whose call failed (not graded: no answer to grade)
 */

/**
 * verdictsOf is a result's verdicts to grade: each repeat's, or the one.
 * @param {any} r
 * @returns {any[]}
 */
function verdictsOf(r) {
  if (Array.isArray(r.repeats) && r.repeats.length > 1) return r.repeats.map((/** @type {any} */ x) => (x && x.verdict) || null);
  return [r.verdict || null];
}

/**
 * gradeOne grades case c by one verdict, with refs; a verdict the core cannot grade (none) is
 * undetermined, saying so.
 * @param {{checkupGrade: Function}} rj
 * @param {any} c
 * @param {any} verdict
 * @param {Object<string, any>} refs
 * @returns {{outcome: string, detail: string, code?: string}}
 */
function gradeOne(rj, c, verdict, refs) {
  if (!verdict || typeof verdict !== "object") return { outcome: "undetermined", detail: "no verdict was read" };
  try {
    return rj.checkupGrade(c, verdict, refs);
  } catch (e) {
    return { outcome: "undetermined", detail: "the case could not be graded: " + String((e && /** @type {any} */ (e).detail) || (e && /** @type {any} */ (e).message) || e) };
  }
}

/**
 * gradeCheckup grades a check-up run's stored cases. order is the check-up's transformations in
 * the order to show them (its record's transforms); those it does not name follow.
 * @param {{checkupGrade: Function, checkupMatrix: Function}} rj
 * @param {any[]} items the run's items (case items: cases.js)
 * @param {Array<any>} results by item index
 * @param {string[]} [order]
 * @returns {CheckupGrades}
 */
export function gradeCheckup(rj, items, results, order = []) {
  // The verdicts of each row's cases by transformation (and by repeat), for the references one
  // case's expectation may name (rag-recall: below the complete answer's recall).
  /** @type {Map<number, Map<string, any[]>>} */
  const byRow = new Map();
  items.forEach((it, i) => {
    const r = results[i];
    if (!it || !it.checkup || !r || r.error) return;
    let m = byRow.get(it.checkup.row);
    if (!m) byRow.set(it.checkup.row, (m = new Map()));
    m.set(it.checkup.transform, verdictsOf(r));
  });
  /** @type {GradedCase[]} */
  const cases = [];
  let pending = 0;
  let errors = 0;
  items.forEach((it, i) => {
    const c = caseOf(it);
    if (!c) return;
    const r = results[i];
    const base = { index: i, row: it.checkup.row, transform: c.transform, name: c.name, expected: expectedWords(c.expect), note: String(c.note || "") };
    if (!r) {
      pending++;
      cases.push({ ...base, outcome: "pending", detail: "not judged yet" });
      return;
    }
    if (r.error) {
      errors++;
      cases.push({ ...base, outcome: "error", detail: String(r.error.message || "the call failed") });
      return;
    }
    const row = /** @type {Map<string, any[]>} */ (byRow.get(it.checkup.row));
    const verdicts = verdictsOf(r);
    const graded = verdicts.map((v, k) => {
      /** @type {Object<string, any>} */
      const refs = {};
      for (const [t, vs] of row) if (t !== c.transform) refs[t] = vs[Math.min(k, vs.length - 1)];
      return gradeOne(rj, c, v, refs);
    });
    cases.push({ ...base, ...combine(graded) });
  });
  const counted = cases.filter((g) => OUTCOMES.includes(g.outcome)).map((g) => ({ transform: g.transform, outcome: g.outcome }));
  const m = rj.checkupMatrix(counted);
  const rank = (/** @type {string} */ t) => (order.includes(t) ? order.indexOf(t) : order.length);
  m.rows.sort((/** @type {any} */ a, /** @type {any} */ b) => rank(a.transform) - rank(b.transform));
  return { cases, matrix: m, pending, errors };
}

/**
 * combine is a case's outcome from its repeats' gradings: the one grading, or the majority of
 * several (caught, missed; undetermined on a tie or when most say nothing), whose detail counts
 * them and quotes the first grading of the majority.
 * @param {{outcome: string, detail: string, code?: string}[]} graded
 * @returns {{outcome: any, detail: string, code?: string}}
 */
export function combine(graded) {
  if (graded.length === 1) return graded[0];
  const as = graded.map((g) => (g.outcome === "caught" ? true : g.outcome === "missed" ? false : null));
  const m = majority(as);
  const outcome = m === true ? "caught" : m === false ? "missed" : "undetermined";
  const { yes, no, none } = votes(as);
  const first = graded.find((g) => g.outcome === outcome) || graded[0];
  const count = `${graded.length} repeats: ${yes} caught, ${no} missed` + (none ? `, ${none} undetermined` : "");
  return { outcome, detail: `${count}. ${first.detail}`, ...(outcome === "undetermined" && first.code ? { code: first.code } : {}) };
}
