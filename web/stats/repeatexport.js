// repeatexport.js: what an export says of a run whose rows were judged several times. Every
// format keeps one record per dataset row; a repeat run adds the majority verdict, whether the
// repeats were unanimous, the spread of their scores and each repeat's verdict (and, in JSON and
// JSONL, its score, answers and error; in CSV a column per repeat for each). A row that ended in an
// error keeps the repeats that were answered.

import { repeatVerdicts, repeatVote } from "../results/status.js";
import { majority, unanimous, spread } from "../results/majority.js";

/**
 * repeatCount is the most repeats any finished row of results has (1 for a run without repeats).
 * @param {any[]} results
 * @returns {number}
 */
export function repeatCount(results) {
  let n = 1;
  for (const r of results) if (r && Array.isArray(r.repeats)) n = Math.max(n, r.repeats.length);
  return n;
}

/**
 * repeatFields are a record's repeat fields: majority (true, false or null), unanimous, score_sd
 * (the sample standard deviation of the repeats' scores) and repeats [{passed, score, answers,
 * error}], each null for a row without repeats (not run). A row that ended in an error keeps the
 * repeats that were answered (its majority, unanimous and score_sd are null: it has no verdict),
 * and a repeat that failed has its error's message.
 * @param {any} result
 * @param {number|null} threshold as in statusOf
 */
export function repeatFields(result, threshold) {
  const votes = repeatVerdicts(result, threshold);
  const failedRow = !votes && result && result.error && Array.isArray(result.repeats) && result.repeats.length > 1;
  if (!votes && !failedRow) return { majority: null, unanimous: null, score_sd: null, repeats: null };
  const reps = result.repeats;
  const passed = votes || reps.map((/** @type {any} */ r) => repeatVote(r, threshold));
  return {
    majority: votes ? majority(votes) : null,
    unanimous: votes ? unanimous(votes) : null,
    score_sd: votes ? spread(reps.map((/** @type {any} */ r) => (r.verdict ? r.verdict.score : null))).sd : null,
    repeats: reps.map((/** @type {any} */ r, /** @type {number} */ k) => ({
      passed: passed[k],
      score: r.verdict && typeof r.verdict.score === "number" ? r.verdict.score : null,
      answers: r.answers || [],
      error: r.error ? r.error.message || "failed" : null,
    })),
  };
}

/**
 * repeatHeader is the CSV columns of a run of n repeats: majority, unanimous, score_sd, then
 * repeat_k, repeat_k_score and repeat_k_answer (its last answer, after any repair) for k = 1..n.
 * @param {number} n
 * @returns {string[]}
 */
export function repeatHeader(n) {
  const out = ["majority", "unanimous", "score_sd"];
  for (let k = 1; k <= n; k++) out.push(`repeat_${k}`, `repeat_${k}_score`, `repeat_${k}_answer`);
  return out;
}

/**
 * repeatCells is one CSV line's values for repeatHeader(n), from a record's repeat fields.
 * @param {{majority: boolean|null, unanimous: boolean|null, score_sd: number|null, repeats: {passed: boolean|null, score: number|null, answers: string[]}[] | null}} f
 * @param {number} n
 * @returns {any[]}
 */
export function repeatCells(f, n) {
  /** @type {any[]} */
  const out = [f.majority, f.unanimous, f.score_sd];
  for (let k = 0; k < n; k++) {
    const r = f.repeats ? f.repeats[k] : null;
    out.push(r ? r.passed : null, r ? r.score : null, r && r.answers.length ? r.answers[r.answers.length - 1] : null);
  }
  return out;
}
