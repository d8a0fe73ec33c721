// agreement.js: how far the judge agrees with human labels, for a run with a label column, as
// numbers and words. agreementData gathers the numbers (every statistic from the core:
// rj.agreement for boolean labels, rj.correlation for numeric ones; the page only counts rows),
// rowAgreement says per row whether the judge agrees (for the table's filter and the exports),
// kappaSentence and skippedLine say them in words (the command line's gates too); the panel
// that draws them is agreementpanel.js.

import { kappaWords } from "./figures.js";
import { fmtNum, cut } from "../lib/format.js";

/** UNREADABLE_SHOWN: how many unreadable label cells the panel names. */
const UNREADABLE_SHOWN = 8;

/**
 * @typedef {Object} AgreementData a run's agreement with its human labels
 * @property {string} column the label column
 * @property {"boolean"|"number"} kind
 * @property {number} total rows in the run
 * @property {number} pending rows not judged yet (left out)
 * @property {number} errors rows whose call failed (left out)
 * @property {number} scored rows with a score but no pass/fail (no threshold): undetermined for boolean labels
 * @property {{row: number, text: string}[]} unreadable label cells that are not a label (left out; 1-based rows)
 * @property {number} missing judged rows without a label (an empty cell)
 * @property {number} judged rows compared or undetermined: neither pending nor an error
 * @property {number} unreadableJudged judged rows whose label cell is unreadable
 * @property {any} [agreement] rj.agreement over the judged rows (boolean labels)
 * @property {any} [correlation] rj.correlation over the judged rows (numeric labels)
 * @property {{x: number, y: number, row: number}[]} [points] the scatter's points (numeric labels)
 * @property {Scales} [scales] the judge's and the labels' ranges (numeric labels, once a pair is compared)
 * @property {{passed: string, failed: string}} words the evaluator's words for the two verdicts
 * @property {boolean} running the run is still going: the numbers are so far
 */

/**
 * @typedef {Object} Scales the ranges the judge's scores and the human scores are on
 * @property {[number, number]} judge the judge's range: as the evaluator declares it, else the scores seen
 * @property {boolean} declared the judge's range is the evaluator's declaration
 * @property {[number, number]} labels the human scores seen
 * @property {boolean} differ the two ranges clearly differ (scalesDiffer): the mean absolute error means little
 */

/**
 * declaredRange is the range an evaluator's scores are on, from its declaration (ev.score):
 * 0 to 1 for a fraction or a yes/no score, 0 to its maximum for a scale; null when it does not
 * say (a plain number).
 * @param {{kind?: string, max?: number}|null|undefined} score
 * @returns {[number, number]|null}
 */
export function declaredRange(score) {
  if (!score) return null;
  if (score.kind === "fraction" || score.kind === "binary") return [0, 1];
  if (score.kind === "scale" && typeof score.max === "number" && score.max > 0) return [0, score.max];
  return null;
}

/**
 * scalesDiffer says whether the judge's range and the labels' range are clearly two scales: the
 * labels reach beyond the judge's range by more than a tenth of its width (labels 1–5 against a
 * judge's 0–1), or, varying, they all lie in the bottom quarter of the judge's range (labels 0–1
 * against a judge's 0–100). Labels that use only part of the judge's scale do not count: human
 * scores of 0.3 to 0.6 on a judge's 0–1 are one scale. A judge's range of a single value (every
 * score seen the same) is taken as that value ± 0.5.
 * @param {[number, number]} judge
 * @param {[number, number]} labels
 * @returns {boolean}
 */
export function scalesDiffer([jl, jh], [hl, hh]) {
  if (!(jh > jl)) (jl -= 0.5), (jh += 0.5);
  const w = jh - jl;
  if (hl < jl - w / 10 || hh > jh + w / 10) return true;
  return hh > hl && hh - jl <= w / 4;
}

/**
 * judgeOf is what the judge said of a row for the comparison: true, false, or null (undetermined,
 * a score without a threshold), from the row's status (statusOf); undefined for a row that is
 * not compared at all (an error, or not judged yet).
 * @param {string} status
 * @returns {boolean|null|undefined}
 */
export function judgeOf(status) {
  if (status === "passed") return true;
  if (status === "failed") return false;
  if (status === "undetermined" || status === "scored") return null;
  return undefined;
}

/**
 * scoreOf is a row's score for numeric labels: the verdict's score, null when it has none.
 * @param {any} result
 * @returns {number|null}
 */
function scoreOf(result) {
  const s = result && !result.error && result.verdict ? result.verdict.score : null;
  return typeof s === "number" && Number.isFinite(s) ? s : null;
}

/**
 * agreementData compares a run's verdicts (or scores) with its labels. Rows without a result
 * (pending) and rows that ended in an error are left out and counted; the core compares the
 * others, and says how many of those have no label or no verdict.
 * @param {{agreement: Function, correlation: Function}} rj
 * @param {{labels: import("./labels.js").Labels, status: string[], results: any[], words?: {passed: string, failed: string}, running?: boolean, score?: any}} run
 *   labels as readLabels read them; status each row's status (RunCounts.status); score the
 *   evaluator's declaration of its scores (ev.score), for the judge's range
 * @returns {AgreementData|null} null when the column holds no label at all
 */
export function agreementData(rj, { labels, status, results, words = { passed: "Passed", failed: "Failed" }, running = false, score = null }) {
  if (!labels.kind) return null;
  let pending = 0;
  let errors = 0;
  let scored = 0;
  /** @type {(boolean|null)[]} */
  const judge = [];
  /** @type {(number|null)[]} */
  const scores = [];
  /** @type {any[]} */
  const human = [];
  /** @type {number[]} */
  const rows = [];
  const bad = new Set(labels.unreadable.map((u) => u.row - 1));
  let missing = 0;
  let unreadableJudged = 0;
  for (let i = 0; i < status.length; i++) {
    const st = status[i];
    if (st === "pending") pending++;
    else if (st === "error") errors++;
    const j = judgeOf(st);
    if (j === undefined) continue;
    if (st === "scored") scored++;
    if (bad.has(i)) unreadableJudged++;
    else if (labels.values[i] === null || labels.values[i] === undefined) missing++;
    judge.push(j);
    scores.push(scoreOf(results[i]));
    human.push(labels.values[i] === undefined ? null : labels.values[i]);
    rows.push(i + 1);
  }
  /** @type {AgreementData} */
  const d = {
    column: labels.column,
    kind: labels.kind,
    total: status.length,
    pending,
    errors,
    scored,
    unreadable: labels.unreadable,
    missing,
    judged: judge.length,
    unreadableJudged,
    words,
    running,
  };
  if (labels.kind === "boolean") {
    d.agreement = rj.agreement(judge, human);
  } else {
    d.correlation = rj.correlation(scores, human);
    d.points = [];
    for (let k = 0; k < rows.length; k++) if (scores[k] !== null && human[k] !== null) d.points.push({ x: /** @type {number} */ (scores[k]), y: human[k], row: rows[k] });
    if (d.points.length) {
      const xs = d.points.map((p) => p.x);
      const ys = d.points.map((p) => p.y);
      const declared = declaredRange(score);
      /** @type {[number, number]} */
      const judge = declared || [Math.min(...xs), Math.max(...xs)];
      /** @type {[number, number]} */
      const seen = [Math.min(...ys), Math.max(...ys)];
      d.scales = { judge, declared: !!declared, labels: seen, differ: scalesDiffer(judge, seen) };
    }
  }
  return d;
}

/**
 * rowAgreement is, per row, whether the judge agrees with the label: true or false for a
 * boolean label and a verdict, null otherwise (no label, no verdict, a numeric label).
 * @param {import("./labels.js").Labels|null} labels
 * @param {string[]} status each row's status
 * @returns {(boolean|null)[]}
 */
export function rowAgreement(labels, status) {
  return status.map((st, i) => {
    const j = judgeOf(st);
    const h = labels && labels.kind === "boolean" ? labels.values[i] : null;
    return typeof j === "boolean" && typeof h === "boolean" ? j === h : null;
  });
}

/**
 * kappaSentence says what a κ means, in words: "the judge agrees with your reviewers beyond
 * chance: substantial". Given the agreement it comes from, it also says when κ cannot tell
 * anything (one side gave a single class to every compared row, so κ is 0 whatever the other
 * side did) and when its 95% interval reaches 0 (not clearly better than chance).
 * @param {number|null} k
 * @param {string} [reason] why κ is undefined
 * @param {{kappa_ci?: [number, number]|null, matrix?: {tt: number, tf: number, ft: number, ff: number}}} [a]
 * @param {import("./figures.js").VerdictWords|null} [words] the evaluator's words for the verdicts
 */
export function kappaSentence(k, reason, a, words = null) {
  if (k === null) return `undefined: ${reason || "nothing to compare"}`;
  const one = a && a.matrix ? singleClass(a.matrix, words) : "";
  if (one) return `κ says nothing here: ${one}, so κ is 0 whatever the verdicts; read the agreement and the matrix instead`;
  const unclear = a && a.kappa_ci && a.kappa_ci[0] <= 0 && k > 0;
  if (k > 0) return `the judge agrees with your reviewers beyond chance: ${kappaWords(k)}` + (unclear ? ", but not clearly: the 95% interval reaches 0 (too few rows compared to tell)" : "");
  if (k === 0) return "the judge agrees with your reviewers no better than chance";
  return "the judge agrees with your reviewers less than chance would: its verdicts run against theirs";
}

/**
 * kappaValue is the κ card's large number: "κ –" when κ is undefined, and also when it says
 * nothing (one class on one side: κ is 0 whatever the judge does, and a large 0 read at a glance
 * would say the judge is no better than chance); the card's sentence says why.
 * @param {{kappa: number|null, matrix?: {tt: number, tf: number, ft: number, ff: number}}} a
 * @returns {string}
 */
export function kappaValue(a) {
  if (a.kappa === null || (a.matrix && singleClass(a.matrix))) return "κ –";
  return "κ " + fmtNum(a.kappa);
}

/**
 * singleClass says which side gave one class to every compared row ("" if neither): then
 * chance agreement equals the agreement seen and κ is 0 however well the judge does.
 * @param {{tt: number, tf: number, ft: number, ff: number}} m first letter judge, second human
 * @param {import("./figures.js").VerdictWords|null} [words] the evaluator's words for the verdicts
 */
export function singleClass(m, words = null) {
  const pass = `“${(words && words.passed) || "passed"}”`;
  const fail = `“${(words && words.failed) || "failed"}”`;
  const humanPass = m.tt + m.ft;
  const humanFail = m.tf + m.ff;
  const judgePass = m.tt + m.tf;
  const judgeFail = m.ft + m.ff;
  if (humanPass + humanFail === 0) return "";
  if (humanFail === 0) return `your reviewers labelled every compared row ${pass}`;
  if (humanPass === 0) return `your reviewers labelled every compared row ${fail}`;
  if (judgeFail === 0) return `the judge said ${pass} of every compared row`;
  if (judgePass === 0) return `the judge said ${fail} of every compared row`;
  return "";
}

/**
 * skippedLine lists the rows left out of the comparison, and why.
 * @param {AgreementData} d
 * @returns {string}
 */
export function skippedLine(d) {
  const parts = [];
  const s = (/** @type {number} */ n, /** @type {string} */ w) => `${n} ${w}`;
  if (d.missing) parts.push(s(d.missing, "without a label"));
  if (d.kind === "boolean" && d.agreement && d.agreement.undetermined) parts.push(s(d.agreement.undetermined, d.scored ? "without a verdict (undetermined, or a score with no threshold)" : "undetermined by the judge"));
  if (d.kind === "number" && d.correlation) {
    const noScore = d.judged - d.missing - d.unreadableJudged - d.correlation.n;
    if (noScore > 0) parts.push(s(noScore, "without a judge's score"));
  }
  if (d.errors) parts.push(s(d.errors, d.errors === 1 ? "error" : "errors"));
  if (d.unreadable.length) {
    const rows = d.unreadable.slice(0, UNREADABLE_SHOWN).map((u) => `row ${u.row} “${cut(u.text, 24)}”`);
    parts.push(`${d.unreadable.length} unreadable label${d.unreadable.length === 1 ? "" : "s"} (${rows.join(", ")}${d.unreadable.length > UNREADABLE_SHOWN ? ", …" : ""})`);
  }
  if (d.pending) parts.push(s(d.pending, "not judged yet"));
  return parts.length ? "Left out: " + parts.join(" · ") + "." : "No row left out.";
}
