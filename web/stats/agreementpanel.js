// agreementpanel.js: the Agreement panel of a run with a label column (agreement.js gathers its
// numbers and words), drawn as a pure function (doc, data) => Element, so that the Batch view and
// a report draw the same panel.

import { stat } from "./figures.js";
import { confusionTable, scatterSVG } from "./svg.js";
import { pct, fmtNum } from "../lib/format.js";
import { hIn } from "../lib/dom.js";
import { kappaSentence, kappaValue, singleClass, skippedLine } from "./agreement.js";

/** @typedef {import("./agreement.js").AgreementData} AgreementData */

/**
 * agreementPanel is the Agreement panel of a run with a label column: for boolean labels the
 * rows compared, accuracy, Cohen's κ with its 95% interval, precision and recall at finding
 * failures and the confusion matrix; for numeric labels Pearson, Spearman, the mean absolute
 * error and the scatter plot. Each number says in words what it means; its data-* attributes
 * carry the raw numbers (for tests and reports).
 * @param {Document} doc
 * @param {AgreementData} d
 * @returns {HTMLElement}
 */
export function agreementPanel(doc, d) {
  const so = d.running ? " so far" : "";
  const head = hIn(doc, "h3", { class: "sub-title" }, `Agreement with human labels${so}: `, hIn(doc, "code", { text: d.column }));
  const skipped = hIn(doc, "p", { class: "hint", dataset: { ref: "agreement-skipped" }, text: skippedLine(d) });
  if (d.kind === "number") return numericPanel(doc, d, head, skipped);
  const a = d.agreement;
  // A single class on either side makes κ 0 with an interval of 0 to 0: shown as if certain, so not shown.
  const ci = !!a.kappa_ci && !singleClass(a.matrix);
  const prec = a.judge_fail_precision;
  const rec = a.judge_fail_recall;
  const cards = hIn(
    doc,
    "div",
    { class: "stats" },
    hIn(
      doc,
      "div",
      { class: "stat stat-kappa", dataset: { ref: "agreement-kappa" } },
      hIn(doc, "div", { class: "stat-value", text: kappaValue(a) }),
      ci && a.kappa_ci ? hIn(doc, "div", { class: "stat-ci", dataset: { ref: "agreement-kappa-ci" }, text: `${fmtNum(a.kappa_ci[0])} to ${fmtNum(a.kappa_ci[1])}` }) : null,
      hIn(doc, "div", { class: "stat-label", text: "Cohen's kappa" + (ci ? " · 95% interval" : "") }),
      hIn(doc, "div", { class: "hint", text: kappaSentence(a.kappa, a.kappa_reason, a, d.words) }),
    ),
    stat(doc, "agreement-accuracy", pct(a.accuracy), "agreement", a.compared ? `the judge and your reviewers agree on ${a.agree} of ${a.compared} rows compared` : "no row has both a verdict and a label yet"),
    stat(
      doc,
      "agreement-failures",
      `${pct(prec)} · ${pct(rec)}`,
      "finding failures",
      (prec === null ? `precision undefined: ${a.judge_fail_precision_reason}` : `of the rows the judge said “${d.words.failed}”, ${pct(prec)} are labelled so`) +
        "; " +
        (rec === null ? `recall undefined: ${a.judge_fail_recall_reason}` : `of the rows labelled “${d.words.failed}”, the judge said so of ${pct(rec)}`),
    ),
  );
  return hIn(
    doc,
    "section",
    {
      class: "trust-panel agreement-panel",
      dataset: {
        ref: "agreement-panel",
        kind: "boolean",
        compared: String(a.compared),
        agree: String(a.agree),
        accuracy: a.accuracy === null ? "" : String(a.accuracy),
        kappa: a.kappa === null ? "" : String(a.kappa),
        kappaLo: a.kappa_ci ? String(a.kappa_ci[0]) : "",
        kappaHi: a.kappa_ci ? String(a.kappa_ci[1]) : "",
        precision: prec === null ? "" : String(prec),
        recall: rec === null ? "" : String(rec),
        noLabel: String(d.missing),
        undetermined: String(a.undetermined),
        errors: String(d.errors),
        pending: String(d.pending),
        unreadable: String(d.unreadable.length),
      },
    },
    head,
    hIn(doc, "p", { class: "agreement-lead", dataset: { ref: "agreement-compared" }, text: `${a.compared} row${a.compared === 1 ? "" : "s"} compared${so}.` }),
    // Nothing compared (every row an error, or no label readable): cards of dashes and a matrix of
    // zeros would say nothing; what was left out, and why, says it all.
    a.compared === 0 && !d.running ? hIn(doc, "p", { class: "hint", dataset: { ref: "agreement-none" }, text: "No row has both a judge's verdict and a readable label, so there is nothing to compare." }) : cards,
    a.compared === 0 && !d.running ? null : hIn(doc, "div", { class: "confusion-wrap" }, confusionTable(doc, a.matrix, d.words)),
    skipped,
  );
}

/**
 * numericPanel is agreementPanel for numeric labels.
 * @param {Document} doc
 * @param {AgreementData} d
 * @param {HTMLElement} head
 * @param {HTMLElement} skipped
 */
function numericPanel(doc, d, head, skipped) {
  const c = d.correlation;
  const strength = (/** @type {number} */ r) => (Math.abs(r) >= 0.7 ? "strong" : Math.abs(r) >= 0.4 ? "moderate" : Math.abs(r) >= 0.2 ? "weak" : "little or no");
  const corrSub = (/** @type {number|null} */ r, /** @type {string|undefined} */ reason, /** @type {string} */ what, /** @type {string} */ against) =>
    r === null ? `undefined: ${reason}` : `${strength(r)} ${what}${r < 0 && strength(r) !== "little or no" ? ` (${against})` : ""}`;
  const sc = d.scales;
  const differ = !!(sc && sc.differ);
  const range = (/** @type {[number, number]} */ r) => `${fmtNum(r[0])} to ${fmtNum(r[1])}`;
  const maeSub =
    c.mae === null
      ? `undefined: ${c.mae_reason}`
      : differ && sc
        ? `${fmtNum(c.mae)} if read on one scale, but the two scores are on different scales (${range(sc.judge)} and ${range(sc.labels)}): not meaningful here`
        : "how far the judge's score is from the human score, on average, in the scores' unit";
  const cards = hIn(
    doc,
    "div",
    { class: "stats" },
    stat(doc, "agreement-pearson", c.pearson === null ? "–" : "r " + fmtNum(c.pearson), "Pearson correlation", corrSub(c.pearson, c.pearson_reason, "linear relation between the judge's and the human scores", "inverse")),
    stat(doc, "agreement-spearman", c.spearman === null ? "–" : "ρ " + fmtNum(c.spearman), "Spearman correlation", corrSub(c.spearman, c.spearman_reason, "agreement in how the judge and the human rank the rows", "reversed")),
    stat(doc, "agreement-mae", differ ? "–" : fmtNum(c.mae), "mean absolute error", maeSub),
  );
  // Two scales (a judge's 0–1 against labels of 1 to 5): said plainly, before anyone reads the numbers.
  const scalesNote =
    differ && sc
      ? hIn(doc, "p", {
          class: "batch-msg msg-warning agreement-scales",
          dataset: { ref: "agreement-scales" },
          text:
            `⚠ Different scales: the judge's scores run from ${range(sc.judge)}${sc.declared ? " (as the evaluator declares them)" : " (the scores seen)"}, the human scores in ${d.column} from ${range(sc.labels)}. ` +
            "The mean absolute error compares them as if they were one scale, so it is not meaningful here; the correlations (Pearson, Spearman) do not depend on the scale and still hold. The plot draws each axis on its own range.",
        })
      : null;
  return hIn(
    doc,
    "section",
    {
      class: "trust-panel agreement-panel",
      dataset: {
        ref: "agreement-panel",
        kind: "number",
        compared: String(c.n),
        pearson: c.pearson === null ? "" : String(c.pearson),
        spearman: c.spearman === null ? "" : String(c.spearman),
        mae: c.mae === null ? "" : String(c.mae),
        scales: differ ? "differ" : "same",
        noLabel: String(d.missing),
        errors: String(d.errors),
        pending: String(d.pending),
        unreadable: String(d.unreadable.length),
      },
    },
    head,
    hIn(doc, "p", { class: "agreement-lead", dataset: { ref: "agreement-compared" }, text: `${c.n} row${c.n === 1 ? "" : "s"} compared${d.running ? " so far" : ""}: the judge's score against the human score.` }),
    scalesNote,
    cards,
    hIn(
      doc,
      "div",
      { class: "scatter-wrap" },
      scatterSVG(
        doc,
        d.points || [],
        differ && sc ? { xRange: sc.declared ? sc.judge : undefined, diagonal: false, xLabel: `Judge's score (${range(sc.judge)})`, yLabel: `Human score (${range(sc.labels)})` } : {},
      ),
    ),
    skipped,
  );
}
