// download.js: "Download report" in the page, for a batch run (the Batch view's open run, finished
// or paused) and for one evaluation (the Evaluate view). It gathers the report's data (data.js)
// from what the page holds, picking fields one by one (no key, no endpoint address), builds the
// file (build.js) and saves it. Loaded on the first click (a dynamic import), never with the page.

import { batchReportData, singleReportData } from "./data.js";
import { buildReport, pageCSS, reportName } from "./build.js";
import { download, ensureStylesheet } from "../batch/words.js";
import { prefsOf, thresholdOf } from "../batch/prefs.js";
import { modelParams } from "../model/modelparams.js";
import { readLabels } from "../stats/labels.js";
import { agreementData, rowAgreement } from "../stats/agreement.js";
import { consistencyData } from "../stats/consistency.js";
import { wordFor } from "../batch/words.js";

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
 * stylesReady resolves once the Batch view's stylesheet is in the page (its rows and cards are
 * drawn with it), so pageCSS finds it; a stylesheet that does not load is left out.
 */
async function stylesReady() {
  ensureStylesheet();
  const link = /** @type {HTMLLinkElement|null} */ (document.querySelector('link[data-ref="batch-css"]'));
  if (!link || link.sheet) return;
  await new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
    setTimeout(resolve, 3000);
  });
}

/**
 * trustPanels is the data of the open run's trust panels, as the Batch view draws them: agreement
 * when the run has a human label column, consistency when it judged each row several times.
 * @param {any} rj
 * @param {import("../batch/runcontroller.js").OpenRun} cur
 * @param {import("../results/counts.js").RunCounts} counts
 * @param {number|null} threshold
 * @returns {{panels: Object<string, any>, labels: import("./data.js").RowLabels|null}} labels: per row, for the rows' lines and filters
 */
function trustPanels(rj, cur, counts, threshold) {
  /** @type {Object<string, any>} */
  const panels = {};
  /** @type {import("./data.js").RowLabels|null} */
  let rowLabels = null;
  const run = /** @type {any} */ (cur.run);
  const column = run.label && run.label.column;
  if (column) {
    const labels = readLabels(cur.items.map((/** @type {any} */ it) => (it ? it.source : null)), column, run.label.yes);
    const words = { passed: wordFor("passed", cur.ev), failed: wordFor("failed", cur.ev) };
    const data = agreementData(rj, { labels, status: counts.status, results: cur.results, words, running: counts.remaining > 0, score: cur.ev ? cur.ev.score : null });
    if (data) panels.agreement = data;
    if (labels.kind) rowLabels = { column, kind: labels.kind, values: labels.values, agrees: rowAgreement(labels, counts.status) };
  }
  if (run.settings && run.settings.repeats > 1) {
    const data = consistencyData(rj, cur.results, threshold, run.total, cur.ev ? cur.ev.words || null : null);
    if (data) panels.consistency = data;
  }
  return { panels, labels: rowLabels };
}

/**
 * batchReport builds the report of the Batch view's open run and returns {name, html}.
 * @param {{controller: import("../batch/runcontroller.js").RunController, state: import("../shell/state.js").State, rj: any, panels?: Object<string, any>}} ctx
 */
export async function batchReport({ controller, state, rj, panels = {} }) {
  const cur = controller.current;
  if (!cur) throw new Error("no run is open");
  const counts = /** @type {import("../results/counts.js").RunCounts} */ (controller.counts());
  const threshold = thresholdOf(prefsOf(state));
  const trust = trustPanels(rj, cur, counts, threshold);
  const data = batchReportData({
    run: cur.run,
    ev: cur.ev,
    items: cur.items,
    results: cur.results,
    counts,
    state: controller.state(),
    threshold,
    version: rj.version,
    ...firstPrompt(rj, cur.ev.id, cur.items),
    panels: { ...trust.panels, ...panels },
    labels: trust.labels,
  });
  await stylesReady();
  return { name: reportName(data), html: await buildReport(data, { css: pageCSS(document) }) };
}

/**
 * singleReport builds the report of one evaluation and returns {name, html}. prompt and messages
 * are the render's (rj.render: the last user message, and every message); model is the model
 * that answered (a call's), or "" for an answer pasted by hand.
 * @param {{rj: any, ev: any, inputs: any, answer: string, state: import("../shell/state.js").State, prompt: string|null, messages?: {role: string, content: string}[]|null, model?: string}} ctx
 */
export async function singleReport({ rj, ev, inputs, answer, state, prompt, messages = null, model = "" }) {
  const ep = state.endpoint();
  const st = state.get("settings");
  const data = singleReportData({
    ev,
    inputs,
    answer,
    verdict: rj.parse(ev.id, inputs, answer),
    prompt,
    messages,
    model: model || (ep.mode === "manual" ? "" : st.model),
    where: model ? ep.label : ep.mode === "manual" ? "the judge's answer was pasted by hand" : ep.label,
    params: model ? modelParams(st) : null,
    version: rj.version,
  });
  await stylesReady();
  return { name: reportName(data), html: await buildReport(data, { css: pageCSS(document) }) };
}

/**
 * save downloads a built report and returns it with its size in bytes.
 * @param {{name: string, html: string}} report
 */
export function save(report) {
  download(report.name, report.html, "text/html");
  return { ...report, bytes: new TextEncoder().encode(report.html).length };
}
