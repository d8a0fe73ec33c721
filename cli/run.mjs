// run.mjs: `ragjudge run`, the page's batch run in a terminal. The rows are set up as the Batch view
// sets them up (setup.mjs) and judged by the page's engine built as the page builds it (live.mjs),
// with the --out file as its store and record (record.mjs); it ends as finish.mjs says.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { HELP, parse, number, required, UsageError } from "./args.mjs";
import { juryOf } from "./jury.mjs";
import { setup, requestOptions } from "./setup.mjs";
import { Record } from "./record.mjs";
import { gatesAsked } from "./gates.mjs";
import { finishRun, rowExtra } from "./finish.mjs";
import { connection, judgeLive, liveExit } from "./live.mjs";
import { todoIndices, fmtInt, mergeExtra, juryExportFields } from "./page.mjs";

/**
 * run is `ragjudge run`; resolves to the exit code.
 * @param {string[]} argv
 * @param {import("./main.mjs").IO} io
 */
export async function run(argv, io) {
  const { values: o } = parse("run", argv);
  if (o.help) {
    io.out(HELP.run);
    return 0;
  }
  required("run", o, ["data", "model"]);
  const conn = connection(o, io);
  const threshold = number(o, "threshold") ?? null;
  requestOptions(o); // its options are checked before anything is read

  const s = await setup(o, (line) => io.err(line + "\n"));
  const gates = gatesAsked(o, { labels: s.labels });
  const req = requestOptions(o);
  s.run.settings = { endpoint: conn.base, model: req.model, params: req.params, where: `direct → ${conn.url.host}`, repeats: req.repeats };
  // A jury (jury.mjs): each row asked of each judge, the row's verdict the core's jury of theirs.
  const jury = juryOf(o, conn, req.model, io);
  if (jury) {
    s.run.settings = { ...s.run.settings, judges: jury.judges, jury: jury.jury };
    conn.judgeKeys = jury.keys;
  }

  const record = o.out ? new Record(o.out, { run: s.run, items: s.items, columns: s.table.columns, rj: s.rj, ev: s.ev, threshold, redact: io.redact }) : null;
  const results = record ? await record.open() : new Array(s.items.length);
  // A --out line keeps a jury's judges, but reading them back into results is not built: refused rather than half read.
  if (record && record.resumed && jury) throw new UsageError(`${o.out} already holds ${fmtInt(record.resumed)} judged rows, and a jury's --out is not resumed yet: choose another file, or remove it to judge every row again.`);
  if (record && record.resumed) io.err(`${o.out}: ${fmtInt(record.resumed)} of ${fmtInt(s.items.length)} rows already judged there; they are not asked again.\n`);
  const todo = todoIndices(s.items.length, results, { threshold });

  /** @type {import("./live.mjs").LiveEnd} */
  let end = { state: "done", held: null, gaveUp: "", interrupted: "" };
  if (todo.length) end = await judgeLive(s, { rj: s.rj, results, todo, record, extra: (r) => mergeExtra(rowExtra(s.labels, r, threshold), juryExportFields(s.run, results, threshold)), threshold, conn, io });

  const ok = await finishRun({ s, results, state: end.state, threshold, record, report: o.report, gates, io });
  const code = liveExit(end, conn, { model: req.model, out: o.out, done: results.filter(Boolean).length, total: s.items.length, io });
  if (code !== null) return code;
  return ok ? 0 : 1;
}
