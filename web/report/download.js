// download.js: "Download report" in the page for one evaluation (the Evaluate view), and the saving
// of any report (a batch run's is gathered by batch/runreport.js). It gathers the report's data
// (data.js) from what the page holds, picking fields one by one (no key, no endpoint address),
// builds the file (build.js) and saves it. Loaded on the first click (a dynamic import), never
// with the page.

import { singleReportData } from "./data.js";
import { buildReport, pageCSS, reportName } from "./build.js";
import { addStylesheet, download } from "../lib/dom.js";
import { modelParams } from "../model/modelparams.js";
import { passageLabels } from "../verdict/recall.js";

/**
 * stylesReady resolves once the Batch view's stylesheets are in the page (its rows, cards and
 * check-up chart are drawn with them), so pageCSS finds them; a stylesheet that does not load is
 * left out.
 */
export async function stylesReady() {
  // batch.css and checkup.css, as the Batch view adds them (batch/words.js and checkup/runpanel.js
  // ensureStylesheet): a report of one evaluation is drawn with them too.
  addStylesheet(new URL("../batch/batch.css", import.meta.url).href, "batch-css");
  addStylesheet(new URL("../checkup/checkup.css", import.meta.url).href, "checkup-css");
  for (const ref of ["batch-css", "checkup-css"]) {
    const link = /** @type {HTMLLinkElement|null} */ (document.querySelector(`link[data-ref="${ref}"]`));
    if (!link || link.sheet) continue;
    await new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
      setTimeout(resolve, 3000);
    });
  }
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
    passageLabels: ev.view === "recall" ? passageLabels(rj, inputs.passage_gt) : null,
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
