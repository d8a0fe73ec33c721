// report.mjs: the page's HTML report of a run, made in Node: the same data (batch/runreport.js
// runReportData, the Batch view's), drawn by the same sections (report/build.js) into dom.mjs's
// document, with the page's own stylesheets read from their files where the page reads them from
// its CSSOM.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { readFile } from "node:fs/promises";
import { Document } from "./dom.mjs";
import { runReportData, buildReport, STYLESHEETS } from "./page.mjs";

/**
 * pageStyles is the text of the page's stylesheets.
 * @returns {Promise<string>}
 */
export async function pageStyles() {
  const texts = await Promise.all(STYLESHEETS.map((u) => readFile(u, "utf8")));
  return texts.join("\n");
}

/**
 * runReport builds the report of a run: cur is the run as the page's run controller holds it
 * ({run, ev, items, results}), counts its RunCounts, state how it ended.
 * @param {{rj: any, cur: {run: any, ev: any, items: any[], results: any[]}, counts: any, state: string, threshold: number|null}} o
 * @returns {Promise<string>} the file's text
 */
export async function runReport(o) {
  return buildReport(runReportData(o), { css: await pageStyles(), doc: /** @type {any} */ (new Document()) });
}
