// runreport.js: "Download report" in the Batch view: the report of the open run (finished or
// paused), its data gathered from the run, its preferences and its trust panels (report/data.js),
// built and saved by report/. Loaded on the first click (a dynamic import), never with the page.
// The command line's report (cli/report.mjs) gathers its data here too (runReportData).

import { batchReportData } from "../report/data.js";
import { buildReport, pageCSS, reportName } from "../report/build.js";
import { stylesReady } from "../report/download.js";
import { prefsOf, thresholdOf } from "./prefs.js";
import { readLabels } from "../stats/labels.js";
import { agreementData, rowAgreement } from "../stats/agreement.js";
import { consistencyData } from "../stats/consistency.js";
import { wordFor } from "../verdict/statebadge.js";
import { isCheckup, checkupView } from "../checkup/data.js";
import { positionData } from "../checkup/position.js";
import { juryData } from "../stats/jury.js";
import { juryNames } from "../results/jury.js";
import { checkupReferences } from "../api/checkupreferences.js";

/**
 * firstPrompt is what the judge got for the run's first row that renders (its prompt and every
 * message, a system message too), or nulls.
 * @param {any} rj
 * @param {string} id
 * @param {any[]} items
 * @returns {{prompt: string|null, messages: {role: string, content: string}[]|null}}
 */
function firstPrompt(rj, id, items) {
  for (const it of items.slice(0, 50)) {
    if (!it || !it.inputs) continue;
    try {
      const r = rj.render(id, it.inputs);
      return { prompt: r.prompt, messages: r.messages || null };
    } catch {
      // a row that does not render: the next one
    }
  }
  return { prompt: null, messages: null };
}

/**
 * trustPanels is the data of the open run's trust panels, as the Batch view draws them: agreement
 * when the run has a human label column, consistency when it judged each row several times, the
 * check-up's chart for a check-up, position bias for a run judged in both orders.
 * @param {any} rj
 * @param {import("./openrun.js").OpenRun} cur
 * @param {import("../results/counts.js").RunCounts} counts
 * @param {number|null} threshold
 * @returns {{panels: Object<string, any>, labels: import("../report/data.js").RowLabels|null}} labels: per row, for the rows' lines and filters
 */
function trustPanels(rj, cur, counts, threshold) {
  /** @type {Object<string, any>} */
  const panels = {};
  /** @type {import("../report/data.js").RowLabels|null} */
  let rowLabels = null;
  /** @type {import("../stats/labels.js").Labels|null} */
  let labelsRead = null;
  const run = /** @type {any} */ (cur.run);
  const column = run.label && run.label.column;
  if (column) {
    const labels = readLabels(cur.items.map((/** @type {any} */ it) => (it ? it.source : null)), column, run.label.yes);
    labelsRead = labels;
    const words = { passed: wordFor("passed", cur.ev), failed: wordFor("failed", cur.ev) };
    const data = agreementData(rj, { labels, status: counts.status, results: cur.results, words, running: counts.remaining > 0, score: cur.ev ? cur.ev.score : null });
    if (data) panels.agreement = data;
    if (labels.kind) rowLabels = { column, kind: labels.kind, values: labels.values, agrees: rowAgreement(labels, counts.status) };
  }
  if (run.settings && run.settings.repeats > 1) {
    const data = consistencyData(rj, cur.results, threshold, run.total, cur.ev ? cur.ev.words || null : null);
    if (data) panels.consistency = data;
  }
  // A check-up's chart, its missed cases drawn in place; a run judged in both orders, its position bias.
  if (isCheckup(run)) {
    const { grades, ...view } = checkupView(rj, cur, { references: checkupReferences, details: true });
    panels.checkup = view;
  }
  // A jury: each judge's κ against the labels beside the jury's, and between judges.
  const names = juryNames(run.settings);
  if (names.length) panels.jury = juryData(rj, { names, rule: (run.settings.jury && run.settings.jury.rule) || "majority", results: cur.results, status: counts.status, labels: labelsRead, threshold, running: counts.remaining > 0 });
  if (run.settings && run.settings.orders === 2) {
    const data = positionData(rj, cur.results, run.settings.repeats || 1);
    if (data) panels.position = data;
  }
  return { panels, labels: rowLabels };
}

/**
 * runReportData is the report's data of an open run (the Batch view's, or the command line's,
 * cli/report.mjs): its rows and counts, the trust panels the Batch view draws for it, and its
 * first row's prompt.
 * @param {{rj: any, cur: {run: any, ev: any, items: any[], results: any[]}, counts: import("../results/counts.js").RunCounts, state: string, threshold: number|null, panels?: Object<string, any>}} o
 * @returns {import("../report/data.js").ReportData}
 */
export function runReportData({ rj, cur, counts, state, threshold, panels = {} }) {
  const trust = trustPanels(rj, /** @type {any} */ (cur), counts, threshold);
  return batchReportData({
    run: cur.run,
    ev: cur.ev,
    items: cur.items,
    results: cur.results,
    counts,
    state,
    threshold,
    version: rj.version,
    ...firstPrompt(rj, cur.ev.id, cur.items),
    panels: { ...trust.panels, ...panels },
    labels: trust.labels,
  });
}

/**
 * batchReport builds the report of the Batch view's open run and returns {name, html}.
 * @param {{controller: import("./runcontroller.js").RunController, state: import("../shell/state.js").State, rj: any, panels?: Object<string, any>}} ctx
 */
export async function batchReport({ controller, state, rj, panels = {} }) {
  const cur = controller.current;
  if (!cur) throw new Error("no run is open");
  const counts = /** @type {import("../results/counts.js").RunCounts} */ (controller.counts());
  const data = runReportData({ rj, cur, counts, state: controller.state(), threshold: thresholdOf(prefsOf(state)), panels });
  await stylesReady();
  return { name: reportName(data), html: await buildReport(data, { css: pageCSS(document) }) };
}
