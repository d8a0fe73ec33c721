// gates.mjs: what makes a run fail a build. Each gate is an option with a minimum, and the figure it
// is held to is the one the page shows for the run: the pass rate of its summary (results/counts.js: passed
// over the rows that passed or failed) and Cohen's κ of its Agreement panel (rj.agreement over
// the rows with a verdict and a label, stats/agreement.js agreementData). A gate that cannot be
// computed (no row decided, κ undefined) fails, saying why: a build is never passed on nothing.
//
// GATES is the list a command checks (each command takes the options of its own gates): the pass
// rate and κ of a run, the catch rate of a check-up (ragjudge checkup: caught over the cases
// caught or missed, the check-up chart's overall figure, rj.checkupMatrix over the cases graded
// by checkup/grade.js). A check-up with no case decided fails its gate too (exit 1).

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { UsageError, number } from "./args.mjs";
import { agreementData, kappaSentence, pct, fmtNum, fmtInt, intervalText } from "./page.mjs";

/**
 * @typedef {Object} GateInput what a finished run offers its gates
 * @property {any} rj
 * @property {any} counts the run's RunCounts
 * @property {any} labels its human labels (stats/labels.js), or null
 * @property {any[]} results
 * @property {any} ev
 * @property {import("../web/checkup/grade.js").CheckupGrades} [grades] a check-up's cases graded
 *
 * @typedef {Object} Gate
 * @property {string} option  the option that sets its minimum
 * @property {{min: number, max: number, percent?: boolean}} range what the option takes
 * @property {(x: number) => string} show  a minimum or a figure in words
 * @property {(g: GateInput) => {value: number|null, says: string, means?: string}} figure  the figure, what it is
 *   of, and what it means
 * @property {(g: GateInput) => string} [needs]  why the gate cannot be asked for this run ("" when it can): a UsageError
 */

/** @type {Gate[]} */
export const GATES = [
  {
    option: "min-pass-rate",
    range: { min: 0, max: 1, percent: true },
    show: (x) => pct(x),
    figure: ({ counts }) => {
      const { passed, failed, undetermined, error, scored } = counts.counts;
      const left = [undetermined ? `${fmtInt(undetermined)} undetermined` : "", error ? `${fmtInt(error)} in error` : "", scored ? `${fmtInt(scored)} scored without a pass or fail (--threshold)` : ""].filter(Boolean);
      const of = `${fmtInt(passed)} of ${fmtInt(passed + failed)} decided rows passed` + (left.length ? `; ${left.join(", ")} not counted` : "");
      return { value: counts.passRate, says: counts.passRate === null ? `no row was decided (${of})` : `the pass rate is ${pct(counts.passRate)} (${of})` };
    },
  },
  {
    option: "min-kappa",
    range: { min: -1, max: 1 },
    show: (x) => fmtNum(x),
    needs: ({ labels }) => {
      if (!labels) return "--min-kappa compares the judge with human labels: name their column with --labels COLUMN (none was proposed).";
      if (labels.kind === "number") return `--min-kappa compares pass/fail labels, and ${labels.column} holds numbers (its agreement with the judge is a correlation, in the report).`;
      if (!labels.kind) return `--min-kappa: column ${labels.column} holds no label that can be read (yes/no, pass/fail, true/false, 1/0, …).`;
      return "";
    },
    figure: ({ rj, counts, labels, results, ev }) => {
      const d = agreementData(rj, { labels, status: counts.status, results, words: ev.words || undefined, score: ev.score || null });
      const a = d && d.agreement;
      if (!a) return { value: null, says: "κ cannot be computed: no row has both a verdict and a label" };
      const k = a.kappa;
      const ci = a.kappa_ci ? ` (95% interval ${fmtNum(a.kappa_ci[0])} to ${fmtNum(a.kappa_ci[1])})` : "";
      const over = `over ${fmtInt(a.compared)} rows compared with ${labels.column}`;
      const means = kappaSentence(k, a.kappa_reason, a, ev.words || null);
      // κ's value is said once, in says; means is the words for it.
      return k === null ? { value: k, says: `Cohen's κ is ${means} (${over})` } : { value: k, says: `Cohen's κ is ${fmtNum(k)}${ci} ${over}`, means };
    },
  },
  {
    option: "min-catch-rate",
    range: { min: 0, max: 1, percent: true },
    show: (x) => pct(x),
    figure: ({ grades }) => {
      const g = /** @type {import("../web/checkup/grade.js").CheckupGrades} */ (grades);
      const o = g.matrix.overall;
      const c = o.catch;
      const left = [o.undetermined ? `${fmtInt(o.undetermined)} undetermined` : "", g.errors ? `${fmtInt(g.errors)} without an answer (the call failed)` : "", g.pending ? `${fmtInt(g.pending)} not judged` : ""].filter(Boolean);
      const of = `${fmtInt(c.k)} of ${fmtInt(c.n)} decided cases caught` + (left.length ? `; ${left.join(", ")} not counted` : "");
      if (!c.n || c.rate === null) return { value: null, says: `no case was decided, so there is no catch rate (${of})` };
      return { value: c.rate, says: `the catch rate is ${pct(c.rate)}, 95% interval ${intervalText(c.ci)} (${of})` };
    },
  },
];

/**
 * gatesAsked reads the gates' options: [{gate, min}] for each given. It throws a UsageError for a
 * value out of range, or a gate the run cannot have (κ without labels).
 * @param {Record<string, any>} v @param {{labels: any}} ctx
 * @returns {{gate: Gate, min: number}[]}
 */
export function gatesAsked(v, ctx) {
  const out = [];
  for (const gate of GATES) {
    const min = number(v, gate.option, gate.range);
    if (min === undefined) continue;
    const why = gate.needs ? gate.needs(/** @type {any} */ (ctx)) : "";
    if (why) throw new UsageError(why);
    out.push({ gate, min });
  }
  return out;
}

/**
 * checkGates holds each gate to its minimum and says how each went, one line each.
 * @param {{gate: Gate, min: number}[]} asked @param {GateInput} input
 * @returns {{ok: boolean, lines: string[]}}
 */
export function checkGates(asked, input) {
  const lines = [];
  let ok = true;
  for (const { gate, min } of asked) {
    const { value, says, means } = gate.figure(input);
    const holds = value !== null && value >= min;
    if (!holds) ok = false;
    const verdict = holds ? "." : value === null ? ": the gate fails." : `, below ${gate.show(min)}: the gate fails.`;
    lines.push(`${holds ? "✓" : "✗"} --${gate.option} ${gate.show(min)}: ${says}${verdict}` + (means ? ` In words: ${means}.` : ""));
  }
  return { ok, lines };
}
