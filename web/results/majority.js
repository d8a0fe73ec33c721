// majority.js: what a row judged several times says as one verdict. Each repeat is a verdict
// (true, false or null for undetermined); the row's verdict is the most frequent of the three,
// and undetermined when two of them tie for most frequent or the row has none. This is the core's
// rule (core/stats Consistent, rj.consistency's per_row[i].majority); the unit tests hold the two
// together, so the page and the statistics never disagree about a row. No imports: the batch
// engine, the status of a row and the panels all use it.

/** SPLIT_CODE is the code of the check a row's majority verdict carries when its repeats split evenly. */
export const SPLIT_CODE = "repeat.split";

/**
 * votes counts verdicts: passed (true), failed (false), undetermined (anything else).
 * @param {(boolean|null|undefined)[]} verdicts
 */
export function votes(verdicts) {
  let yes = 0;
  let no = 0;
  let none = 0;
  for (const v of verdicts) {
    if (v === true) yes++;
    else if (v === false) no++;
    else none++;
  }
  return { yes, no, none };
}

/**
 * majority is the most frequent verdict of verdicts (undetermined is one of the three); null when
 * undetermined is the most frequent, when two tie for most frequent, or with no verdict.
 * @param {(boolean|null|undefined)[]} verdicts
 * @returns {boolean|null}
 */
export function majority(verdicts) {
  const { yes, no, none } = votes(verdicts);
  if (yes > no && yes > none) return true;
  if (no > yes && no > none) return false;
  return null;
}

/**
 * unanimous says whether every repeat gave the same verdict (undetermined counts as a verdict of
 * its own here: a row judged yes, yes, undetermined is not unanimous).
 * @param {(boolean|null|undefined)[]} verdicts
 */
export function unanimous(verdicts) {
  if (!verdicts.length) return false;
  const first = verdicts[0] === undefined ? null : verdicts[0];
  return verdicts.every((v) => (v === undefined ? null : v) === first);
}

/**
 * spread is the mean and the standard deviation of a row's scores (the sample deviation, n − 1,
 * as a spread between repeats is an estimate; null for fewer than two scores); non-finite
 * entries are skipped. It is the core's rj.describe (the unit tests hold the two together), here
 * for the engine, which has no core: the stored majority verdict's score is the mean.
 * @param {(number|null|undefined)[]} xs
 * @returns {{n: number, mean: number|null, sd: number|null}}
 */
export function spread(xs) {
  const v = /** @type {number[]} */ (xs.filter((x) => typeof x === "number" && Number.isFinite(x)));
  const n = v.length;
  if (!n) return { n, mean: null, sd: null };
  const mean = v.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, sd: null };
  const ss = v.reduce((a, b) => a + (b - mean) * (b - mean), 0);
  return { n, mean, sd: Math.sqrt(ss / (n - 1)) };
}

/**
 * @typedef {{verdict: any, answers: string[], repaired: boolean, error?: any, orders?: any[]}} Repeat one repeat of a row: its
 *   verdict as parsed (passed, score, verdict, checks), its answers, whether a repair request was made;
 *   in a row that ended in an error, a repeat that failed has no verdict and its error (a RowError); a repeat
 *   judged in both orders has orders (batch/orders.js) and the two orders' combined verdict
 */

/**
 * majorityVerdict is the verdict a row judged several times stores: passed is the repeats'
 * majority, score their mean, and verdict and checks those of the first repeat that gave the
 * majority (else the first repeat), so that the row opens on an answer that says what the row
 * says. An even split carries an error check (SPLIT_CODE) saying how the repeats voted.
 * @param {Repeat[]} repeats
 * @returns {{passed: boolean|null, score: number|null, verdict: any, checks: any[], repeats: number}}
 */
export function majorityVerdict(repeats) {
  const passed = repeats.map((r) => (r.verdict ? r.verdict.passed : null));
  const m = majority(passed);
  const rep = repeats.find((r) => r.verdict && r.verdict.passed === m) || repeats[0];
  const scores = spread(repeats.map((r) => (r.verdict ? r.verdict.score : null)));
  const checks = [...((rep && rep.verdict && rep.verdict.checks) || [])];
  const { yes, no, none } = votes(passed);
  // No majority because the verdicts split, not because most repeats could not be read (those
  // carry their own cause in the checks of the repeat shown).
  if (m === null && yes + no > 0 && none <= Math.max(yes, no)) {
    const how = `${yes} passed, ${no} failed` + (none ? `, ${none} undetermined` : "");
    checks.unshift({ severity: "error", code: SPLIT_CODE, message: `The ${repeats.length} repeats split evenly (${how}): no majority verdict.` });
  }
  return { passed: m, score: scores.mean, verdict: rep && rep.verdict ? rep.verdict.verdict : null, checks, repeats: repeats.length };
}
