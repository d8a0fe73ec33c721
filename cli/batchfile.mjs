// batchfile.mjs: `ragjudge export-batch` and `ragjudge import`, a run through a batch service (the
// OpenAI Batch API, Azure OpenAI's, vLLM run-batch). Both are the page's batch file
// (batch/batchfileio.js): the same request lines (model/chatrequest.js chatBody over the engine's render), the
// same custom_ids and export hash, the same reading of output lines into row results (model/chatrequest.js
// readAnswer, rowresult.js), with the report of every line that answered no row. An import ends
// as a run does: the --out file (which `ragjudge run` goes on from, judging live what no line
// answered), the report and the gates.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { openAsBlob, createWriteStream } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { HELP, UsageError, parse, number, required } from "./args.mjs";
import { setup, requestOptions } from "./setup.mjs";
import { Record } from "./record.mjs";
import { gatesAsked } from "./gates.mjs";
import { finishRun, rowExtra } from "./finish.mjs";
import { exportBatch, importBatch, judgeOf, redoOnResume, fmtInt, plural } from "./page.mjs";

/** BATCH_MAX_LINES, BATCH_MAX_BYTES: what OpenAI's Batch API takes in one file. */
const BATCH_MAX_LINES = 50_000;
const BATCH_MAX_BYTES = 200 * 1024 * 1024;

/** LISTED: problems listed per kind; the rest are counted. */
const LISTED = 20;

/**
 * batchSpec is batchfileio.js's BatchSpec of a set-up run.
 * @param {import("./setup.mjs").Setup} s @param {Record<string, any>} o
 */
function batchSpec(s, o) {
  const req = requestOptions(o);
  s.run.settings = { endpoint: "", model: req.model, params: req.params, where: "a batch service", repeats: req.repeats };
  return { judge: judgeOf(s.rj, s.ev), evaluatorId: s.ev.id, items: s.items, request: { model: req.model, params: req.params }, repeats: req.repeats };
}

/**
 * exportBatchCommand is `ragjudge export-batch`.
 * @param {string[]} argv @param {import("./main.mjs").IO} io
 */
export async function exportBatchCommand(argv, io) {
  const { values: o } = parse("export-batch", argv);
  if (o.help) {
    io.out(HELP["export-batch"]);
    return 0;
  }
  required("export-batch", o, ["data", "model", "out"]);
  requestOptions(o);
  const s = await setup(o, (line) => io.err(line + "\n"));
  const spec = batchSpec(s, o);
  const { blob, hash, lines, errors } = await exportBatch(spec);
  const tmp = `${o.out}.${process.pid}.tmp`;
  await pipeline(Readable.fromWeb(/** @type {any} */ (blob.stream())), createWriteStream(tmp));
  const { renameSync } = await import("node:fs");
  renameSync(tmp, o.out);
  io.out(`${o.out}: ${fmtInt(lines)} requests (rj:${hash})` + (errors.size ? `; ${plural(errors.size, "row")} left out (their problems above): they are input errors in the imported run` : "") + ".\n");
  if (lines > BATCH_MAX_LINES || blob.size > BATCH_MAX_BYTES) {
    io.err(`⚠ OpenAI's Batch API takes at most ${fmtInt(BATCH_MAX_LINES)} requests and 200 MB in one file: split it at line ends (split -l ${BATCH_MAX_LINES} -d --additional-suffix=.jsonl ${o.out} part-) and import all the output files together.\n`);
  }
  return 0;
}

/**
 * listed says a list of problems, the first LISTED of them.
 * @param {string} title @param {{where: string, customId?: string, message: string}[]} list
 */
function listed(title, list) {
  if (!list.length) return [];
  const out = [`${title} (${fmtInt(list.length)}):`];
  for (const p of list.slice(0, LISTED)) out.push(`  ${p.where}${p.customId ? " " + p.customId : ""}: ${p.message}`);
  if (list.length > LISTED) out.push(`  … and ${fmtInt(list.length - LISTED)} more`);
  return out;
}

/**
 * importCommand is `ragjudge import`.
 * @param {string[]} argv @param {import("./main.mjs").IO} io
 */
export async function importCommand(argv, io) {
  const { values: o, positionals: files } = parse("import", argv);
  if (o.help) {
    io.out(HELP.import);
    return 0;
  }
  required("import", o, ["data", "model"]);
  if (!files.length) throw new UsageError("ragjudge import: name the batch output file (and its error file, if any): ragjudge import results.jsonl errors.jsonl --evaluator … (ragjudge import --help).");
  requestOptions(o);
  const threshold = number(o, "threshold") ?? null;
  /** @type {(Blob & {name: string})[]} */
  const blobs = [];
  for (const f of files) {
    try {
      blobs.push(/** @type {any} */ (new File([await openAsBlob(f)], basename(f))));
    } catch (e) {
      throw new UsageError(`${f}: cannot read it (${/** @type {Error} */ (e).message}).`);
    }
  }
  const s = await setup(o, (line) => io.err(line + "\n"));
  const gates = gatesAsked(o, { labels: s.labels });
  const spec = batchSpec(s, o);
  const imported = await importBatch({ ...spec, runId: s.run.id, files: blobs });
  const rep = imported.report;
  const lines = [
    ...listed("Lines that could not be read", rep.malformed),
    ...listed("Lines that answer no row of this export", rep.unknown),
    ...listed("Rows answered twice", rep.duplicate),
    ...listed("Lines without an answer", rep.failed),
  ];
  if (lines.length) io.err(lines.join("\n") + "\n");
  if (imported.refusal) throw new UsageError(imported.refusal);
  io.err(`${plural(rep.lines, "line")} read, ${plural(rep.answered, "row")} answered (rj:${imported.hash})` + (rep.missing.length ? `; ${plural(rep.missing.length, "row")} that no line answered ${rep.missing.length === 1 ? "stays" : "stay"} to judge (ragjudge run with the same --out judges ${rep.missing.length === 1 ? "it" : "them"})` : "") + ".\n");

  const record = o.out ? new Record(o.out, { run: s.run, items: s.items, columns: s.table.columns, rj: s.rj, ev: s.ev, threshold, redact: io.redact }) : null;
  const results = record ? await record.open() : new Array(s.items.length);
  // Rows the --out file already holds stay as they are, unless their call failed for a reason not
  // the judge's (batch/states.js redoOnResume): an imported answer replaces that.
  let taken = 0;
  for (let i = 0; i < results.length; i++) {
    const r = imported.results[i];
    if (!r || (results[i] && !redoOnResume(results[i]))) continue;
    results[i] = { ...r, runId: s.run.id };
    taken++;
    if (record) record.append(results[i], rowExtra(s.labels, results[i], threshold));
  }
  if (record && record.resumed) io.err(`${o.out}: kept the ${fmtInt(record.resumed)} rows it held; ${fmtInt(taken)} taken from the import.\n`);
  const left = results.length - results.filter(Boolean).length;
  const done = left === 0;
  const ok = await finishRun({ s, results, state: done ? "done" : "paused", threshold, record, report: o.report, gates, io });
  if (!done && gates.length) {
    io.out(`The gates were not checked: ${plural(left, "row")} ${left === 1 ? "has" : "have"} no verdict yet (ragjudge run with the same --out judges ${left === 1 ? "it" : "them"}).\n`);
    return 1;
  }
  return ok ? 0 : 1;
}
