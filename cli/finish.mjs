// finish.mjs: how a run (live or imported) ends: its results file written as the page's JSONL
// export, its report, a summary in the page's words (results/summarywords.js summaryCards, the causes of
// rows without a verdict), and the gates.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { runCounts, rowAgreement, labelExportFields, summaryCards, fmtInt, statusOf, mergeExtra, juryExportFields } from "./page.mjs";
import { runReport } from "./report.mjs";
import { writeAtomic } from "./record.mjs";
import { checkGates } from "./gates.mjs";
import { UsageError } from "./args.mjs";

/**
 * labelExtra is the label and agrees fields of the exported rows (the page's exportFields), or
 * null for a run without a label column.
 * @param {any} labels @param {string[]} status each row's status
 */
export function labelExtra(labels, status) {
  return labels ? labelExportFields(labels, rowAgreement(labels, status)) : null;
}

/**
 * rowExtra is labelExtra for one row that just finished (its status alone computed).
 * @param {any} labels @param {any} result @param {number|null} threshold
 */
export function rowExtra(labels, result, threshold) {
  if (!labels) return null;
  const agrees = [];
  agrees[result.index] = rowAgreement({ ...labels, values: [labels.values[result.index]] }, [statusOf(result, threshold)])[0];
  return labelExportFields(labels, agrees);
}

/**
 * finishRun writes what a run leaves (results file, report), says how it went, and holds it to
 * the gates when it went to its end; returns whether they hold (true without gates).
 * @param {Object} o
 * @param {import("./setup.mjs").Setup} o.s
 * @param {any[]} o.results by row index
 * @param {string} o.state how the run ended: done, cancelled, paused
 * @param {number|null} o.threshold
 * @param {import("./record.mjs").Record|null} o.record
 * @param {string|undefined} o.report the report's path
 * @param {{gate: any, min: number}[]} o.gates
 * @param {{out: (t: string) => void, err: (t: string) => void, redact: (t: string) => string}} o.io
 * @returns {Promise<boolean>}
 */
export async function finishRun({ s, results, state, threshold, record, report, gates, io }) {
  const total = s.items.length;
  const counts = runCounts({ total, results, threshold });
  const extra = mergeExtra(labelExtra(s.labels, counts.status), juryExportFields(s.run, results, threshold));
  if (record) record.finish(results, { threshold, extra });
  if (report) {
    const html = await runReport({ rj: s.rj, cur: { run: s.run, ev: s.ev, items: s.items, results }, counts, state, threshold });
    try {
      writeAtomic(report, io.redact(html));
    } catch (e) {
      throw new UsageError(`--report ${report}: cannot write it (${/** @type {Error} */ (e).message}); the results are in ${record ? record.path : "no file (no --out)"}.`);
    }
  }
  const c = counts.counts;
  const words = s.ev.words || {};
  const lines = [
    `${s.run.name} · ${s.ev.title || s.ev.id} · model ${s.run.settings.model}: ${fmtInt(counts.done)} of ${fmtInt(total)} rows done` + (counts.remaining ? `, ${fmtInt(counts.remaining)} not yet` : ""),
    `  ${fmtInt(c.passed)} ${(words.passed || "passed").toLowerCase()} · ${fmtInt(c.failed)} ${(words.failed || "failed").toLowerCase()}` + (c.scored ? ` · ${fmtInt(c.scored)} scored` : "") + ` · ${fmtInt(c.undetermined)} undetermined · ${fmtInt(c.error)} in error`,
  ];
  for (const k of summaryCards(counts, s.run.settings.repeats || 1)) lines.push(`  ${k.label}: ${k.value} (${k.sub})`);
  for (const x of counts.causes.slice(0, 8)) lines.push(`  ${fmtInt(x.count)} × ${x.cause}`);
  if (record) lines.push(`results: ${record.path}`);
  if (report) lines.push(`report: ${report}`);
  io.out(lines.join("\n") + "\n");
  if (state !== "done" || !gates.length) return true;
  const g = checkGates(gates, { rj: s.rj, counts, labels: s.labels, results, ev: s.ev });
  io.out(g.lines.join("\n") + "\n");
  return g.ok;
}
