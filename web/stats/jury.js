// jury.js: how a jury's judges agree, for a run judged by several: each judge's Cohen's κ against
// the human labels beside the jury's, and the κ of every two judges (the matrix). Every number is
// the core's (rj.agreement: between two judges, one stands where the labels would; κ is
// symmetric). juryData gathers them from the rows' statuses; juryPanel draws them as a pure
// function (doc, data) => Element, so the Batch view and a report draw the same panel.

import { juryStatuses, juryNames, vote, RULE_WORDS } from "../results/jury.js";
import { kappaWords } from "./figures.js";
import { pct, fmtNum } from "../lib/format.js";
import { hIn } from "../lib/dom.js";

/**
 * @typedef {Object} JuryAgreement one line of the panel: a judge (or the jury) against the labels
 * @property {string} name
 * @property {number|null} kappa
 * @property {string} [kappa_reason]
 * @property {number|null} accuracy
 * @property {number} compared rows with both a verdict and a label
 *
 * @typedef {Object} JuryData a jury's agreement
 * @property {string[]} names the judges
 * @property {string} rule the jury's rule
 * @property {JuryAgreement[] | null} labels each judge against the labels, then the jury (null without boolean labels)
 * @property {{kappa: number|null, reason?: string, compared: number}[][]} matrix κ of judge i with judge j (the diagonal: 1, compared their rows)
 * @property {number} rows rows judged by every judge
 * @property {boolean} running
 */

/**
 * juryData compares a jury's judges with the labels and with each other. Rows not judged yet or
 * failed are left out; a judge's undetermined verdict is compared as undetermined (the core
 * counts it apart, as for a run of one judge).
 * @param {{agreement: Function}} rj
 * @param {{names: string[], rule: string, results: any[], status: string[], labels: import("./labels.js").Labels | null, threshold?: number|null, running?: boolean}} run
 * @returns {JuryData}
 */
export function juryData(rj, { names, rule, results, status, labels, threshold = null, running = false }) {
  const n = names.length;
  /** @type {(boolean|null)[][]} */
  const per = names.map(() => []);
  /** @type {(boolean|null)[]} */
  const jury = [];
  /** @type {any[]} */
  const human = [];
  for (let i = 0; i < results.length; i++) {
    const sts = juryStatuses(results[i], threshold);
    if (!sts || sts.length !== n) continue;
    const votes = sts.map(vote);
    const row = vote(status[i]);
    if (votes.some((v) => v === undefined) || row === undefined) continue;
    votes.forEach((v, j) => per[j].push(/** @type {boolean|null} */ (v)));
    jury.push(row);
    human.push(labels && labels.kind === "boolean" && typeof labels.values[i] === "boolean" ? labels.values[i] : null);
  }
  const line = (/** @type {string} */ name, /** @type {(boolean|null)[]} */ v) => {
    const a = rj.agreement(v, human);
    return { name, kappa: a.kappa, ...(a.kappa === null ? { kappa_reason: a.kappa_reason } : {}), accuracy: a.accuracy, compared: a.compared };
  };
  const withLabels = !!labels && labels.kind === "boolean";
  const matrix = per.map((a, i) =>
    per.map((b, j) => {
      if (i === j) return { kappa: 1, compared: a.filter((x) => x !== null).length };
      const r = rj.agreement(a, b);
      return { kappa: r.kappa, ...(r.kappa === null ? { reason: r.kappa_reason } : {}), compared: r.compared };
    }),
  );
  return {
    names,
    rule,
    labels: withLabels ? [...names.map((name, j) => line(name, per[j])), line(`Jury (${RULE_WORDS[/** @type {keyof typeof RULE_WORDS} */ (rule)] || rule})`, jury)] : null,
    matrix,
    rows: jury.length,
    running,
  };
}

/**
 * kappaText is a κ as the panel writes it: "0.62", or "–" when undefined.
 * @param {number|null} k
 */
function kappaText(k) {
  return k === null ? "–" : fmtNum(k);
}

/**
 * juryPanel draws a jury's agreement: each judge's κ against the labels and the jury's, and the
 * κ matrix between judges, each cell heat-mapped by κ (shown only from two rows compared).
 * @param {Document} doc
 * @param {JuryData} d
 * @returns {HTMLElement}
 */
export function juryPanel(doc, d) {
  const so = d.running ? " so far" : "";
  const head = hIn(doc, "h3", { class: "sub-title" }, `The jury's judges${so}`);
  const every = d.names.length === 2 ? "both judges" : `all ${d.names.length} judges`;
  const lead = hIn(doc, "p", { class: "jury-lead", dataset: { ref: "jury-rows" }, text: `${d.rows} row${d.rows === 1 ? "" : "s"} judged by ${every}${so}; a row's verdict is the jury's (${RULE_WORDS[/** @type {keyof typeof RULE_WORDS} */ (d.rule)] || d.rule}).` });
  const labels = d.labels
    ? hIn(
        doc,
        "div",
        // Scrolled sideways on a phone: reachable by the keyboard, and named.
        { class: "confusion-wrap", attrs: { tabindex: "0", role: "region", "aria-label": "Each judge's κ against the labels" } },
        hIn(
        doc,
        "table",
        { class: "ptable jury-kappas", dataset: { ref: "jury-kappas" } },
        hIn(doc, "caption", { class: "hint", text: "Each judge against the human labels, and the jury's verdict against them" }),
        hIn(doc, "thead", {}, hIn(doc, "tr", {}, ["Judge", "Cohen's κ", "agreement", "rows compared"].map((t) => hIn(doc, "th", { text: t, attrs: { scope: "col" } })))),
        hIn(
          doc,
          "tbody",
          {},
          d.labels.map((a, k) =>
            hIn(
              doc,
              "tr",
              { class: k === d.names.length ? "jury-line" : "", dataset: { ref: "jury-kappa", judge: k === d.names.length ? "jury" : String(k), kappa: a.kappa === null ? "" : String(a.kappa) } },
              hIn(doc, "th", { text: a.name, attrs: { scope: "row" } }),
              hIn(doc, "td", { text: kappaText(a.kappa), attrs: { title: a.kappa === null ? a.kappa_reason || "" : kappaWords(a.kappa) } }),
              hIn(doc, "td", { text: pct(a.accuracy) }),
              hIn(doc, "td", { text: String(a.compared) }),
            ),
          ),
        ),
        ),
      )
    : hIn(doc, "p", { class: "hint", text: "With a human label column, each judge's κ against the labels shows here beside the jury's." });
  const matrix = hIn(
    doc,
    "div",
    { class: "confusion-wrap", attrs: { tabindex: "0", role: "region", "aria-label": "κ between judges" } },
    hIn(
      doc,
      "table",
      { class: "jury-matrix", dataset: { ref: "jury-matrix" } },
      hIn(doc, "caption", { class: "hint", text: "Cohen's κ between every two judges, over the rows both gave a verdict (undetermined left out)" }),
      hIn(doc, "thead", {}, hIn(doc, "tr", {}, hIn(doc, "th", { class: "jury-corner", text: "κ", attrs: { scope: "col" } }), d.names.map((name) => hIn(doc, "th", { text: name, attrs: { scope: "col" } })))),
      hIn(
        doc,
        "tbody",
        {},
        d.matrix.map((row, i) =>
          hIn(
            doc,
            "tr",
            {},
            hIn(doc, "th", { text: d.names[i], attrs: { scope: "row" } }),
            row.map((c, j) => {
              const td = hIn(doc, "td", {
                class: "jury-cell" + (i === j ? " jury-self" : ""),
                text: i === j ? "—" : kappaText(c.kappa),
                dataset: { ref: "jury-cell", i: String(i), j: String(j), kappa: c.kappa === null ? "" : String(c.kappa) },
                attrs: { title: i === j ? "" : c.kappa === null ? c.reason || "" : `${kappaWords(c.kappa)}, over ${c.compared} rows` },
              });
              if (i !== j && c.kappa !== null) td.style.setProperty("--heat", String(Math.max(0, c.kappa)));
              return td;
            }),
          ),
        ),
      ),
    ),
  );
  return hIn(doc, "section", { class: "trust-panel jury-panel", dataset: { ref: "jury-panel", judges: String(d.names.length) } }, head, lead, labels, matrix);
}

/**
 * juryExportFields is the per-judge fields of each exported row of a jury's run (an export.js
 * Extra): judge<n>_status, judge<n>_passed and judge<n>_score for each judge, and judges, each
 * judge's {name, status, passed, score, answers, error}; null for a run of one judge.
 * @param {any} run the run's record @param {any[]} results @param {number|null} [threshold]
 * @returns {import("../batch/export.js").Extra | null}
 */
export function juryExportFields(run, results, threshold = null) {
  const names = juryNames(run && run.settings);
  if (!names.length) return null;
  const keys = [...names.flatMap((_, j) => [`judge${j + 1}_status`, `judge${j + 1}_passed`, `judge${j + 1}_score`]), "jury_rule", "judges"];
  return {
    keys,
    of(i) {
      const r = results[i];
      const sts = juryStatuses(r, threshold);
      /** @type {Object<string, any>} */
      const out = {};
      names.forEach((name, j) => {
        const m = sts ? r.jury.members[j] : null;
        const v = m && m.verdict;
        out[`judge${j + 1}_status`] = sts ? sts[j] : r ? (r.error ? "error" : "") : "pending";
        out[`judge${j + 1}_passed`] = v && typeof v.passed === "boolean" ? v.passed : null;
        out[`judge${j + 1}_score`] = v && typeof v.score === "number" && Number.isFinite(v.score) ? v.score : null;
      });
      out.jury_rule = (run.settings.jury && run.settings.jury.rule) || "majority";
      out.judges = names.map((name, j) => {
        const m = sts ? r.jury.members[j] : null;
        return { name, status: sts ? sts[j] : "pending", passed: m && m.verdict && typeof m.verdict.passed === "boolean" ? m.verdict.passed : null, score: m && m.verdict && typeof m.verdict.score === "number" ? m.verdict.score : null, answers: m ? m.answers : [], error: m && m.error ? m.error : null };
      });
      return out;
    },
  };
}
