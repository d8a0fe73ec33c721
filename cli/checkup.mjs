// checkup.mjs: `ragjudge checkup`, the page's check-up in a terminal, gated by a minimum catch
// rate. Its cases are the page's (checkup/cases.js: the rows the check-up card takes, drawn with
// the seed, the core's cases of each, those cases as a batch run's items and its record), said
// with what they cost before any call, judged by the page's engine (live.mjs, as `ragjudge run`:
// the same requests, retries, both orders, resume from --out), graded as the page grades a stored
// check-up (checkup/data.js checkupView: rj.checkupGrade, rj.checkupMatrix) and said as its chart
// says it (checkuptext.mjs); the results file is the page's JSONL export of the check-up, the
// report the page's report.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { HELP, UsageError, parse, number, required } from "./args.mjs";
import { setup, loadEvaluator, requestOptions } from "./setup.mjs";
import { Record, writeAtomic } from "./record.mjs";
import { gatesAsked, checkGates } from "./gates.mjs";
import { connection, judgeLive, liveExit } from "./live.mjs";
import { runReport } from "./report.mjs";
import { planLines, chartLines, missedLines, positionLines } from "./checkuptext.mjs";
import {
  load, planCheckup, checkupSource, checkupRun, noCasesWhy, casesLine, seedOf, DEFAULT_ROWS, MAX_ROWS, gradeCheckup, checkupView,
  checkupExportFields, ordersExportFields, mergeExtra, positionData, checkupReferences, ordersOf, setupLine, newRun, todoIndices, runCounts, fmtInt,
} from "./page.mjs";

/** DEFAULT_SEED draws the cases without --seed: the same ones every build, so the figure moves only when the judge does. */
export const DEFAULT_SEED = 1;

/**
 * seedOption reads --seed: a whole number from 0 to 2^31 − 1, as the page takes it.
 * @param {Record<string, any>} o
 */
function seedOption(o) {
  if (o.seed === undefined) return DEFAULT_SEED;
  const s = seedOf(o.seed);
  if (s === null) throw new UsageError(`--seed takes a whole number from 0 to 2147483647, not "${o.seed}".`);
  return s;
}

/**
 * rowsAndEvaluator reads where the cases come from: the dataset's rows the check-up can draw
 * (set up as the Batch view sets them up), or the evaluator's worked example.
 * @param {Record<string, any>} o @param {(line: string) => void} say
 * @returns {Promise<{rj: any, ev: any, src: import("../web/checkup/cases.js").CheckupSource}>}
 */
async function rowsAndEvaluator(o, say) {
  if (o.data !== undefined) {
    const s = await setup(o, say, { checkup: true });
    return { rj: s.rj, ev: s.ev, src: checkupSource(s.ev, { name: s.name, table: s.table, mapping: s.mapping, items: s.items, ev: s.ev }, "dataset") };
  }
  if (o.map) throw new UsageError("--map maps a dataset's columns, and --example has none: drop --map, or make the cases from --data FILE.");
  const rj = await load();
  const ev = await loadEvaluator(rj, o);
  const src = checkupSource(ev, null, "example");
  if (src.why) throw new UsageError(`--example: ${ev.id} has no worked example; make the cases from a dataset (--data FILE).`);
  say(`${src.name}: its worked example, one row (the cases that need another row's sentences are not made).`);
  return { rj, ev, src };
}

/**
 * caseExtra is a case's export fields the moment it is stored (its line in --out while the
 * check-up runs): its outcome graded with the cases of its row judged so far (a rag-recall case
 * is graded against its row's complete case), and its two orders' answers. The finished file is
 * written again whole, every case graded with all the others.
 * @param {any} rj @param {any} run @param {any[]} items @param {any[]} results
 * @returns {(r: any) => any}
 */
function caseExtra(rj, run, items, results) {
  /** @type {Map<number, number[]>} each dataset row's cases */
  const byRow = new Map();
  items.forEach((it, i) => {
    const row = it.checkup.row;
    if (!byRow.has(row)) byRow.set(row, []);
    /** @type {number[]} */ (byRow.get(row)).push(i);
  });
  const orders = ordersExportFields(run, results, items);
  return (r) => {
    const at = /** @type {number[]} */ (byRow.get(items[r.index].checkup.row));
    const g = gradeCheckup(rj, at.map((i) => items[i]), at.map((i) => results[i]));
    const cases = g.cases.map((c) => ({ ...c, index: at[c.index] }));
    return mergeExtra(checkupExportFields({ ...g, cases }), orders);
  };
}

/**
 * checkup is `ragjudge checkup`; resolves to the exit code.
 * @param {string[]} argv
 * @param {import("./main.mjs").IO} io
 */
export async function checkup(argv, io) {
  const { values: o } = parse("checkup", argv);
  if (o.help) {
    io.out(HELP.checkup);
    return 0;
  }
  required("checkup", o, ["model"]);
  if (o.data !== undefined && o.example) throw new UsageError("ragjudge checkup: --data and --example both name where the cases come from: keep one.");
  if (o.data === undefined && !o.example) throw new UsageError("ragjudge checkup: missing --data FILE (the dataset the cases are made from), or --example for the evaluator's worked example.");
  const conn = connection(o, io);
  const rows = number(o, "rows", { min: 1, max: MAX_ROWS, int: true }) ?? DEFAULT_ROWS;
  const seed = seedOption(o);
  const req = requestOptions(o);
  const gates = gatesAsked(o, {});
  const say = (/** @type {string} */ line) => io.err(line + "\n");

  const { rj, ev, src } = await rowsAndEvaluator(o, say);
  const orders = o["both-orders"] ? ordersOf({ bothOrders: true }, ev) : 1;
  if (o["both-orders"] && orders !== 2) throw new UsageError(`--both-orders exchanges the two answers a pairwise evaluator compares; ${ev.id} judges one answer.`);

  // The cases, and what they cost, before any call.
  const plan = /** @type {import("../web/checkup/cases.js").CheckupPlan} */ (await planCheckup(rj, ev.id, /** @type {any[]} */ (src.rows), { n: rows, seed }));
  const made = checkupRun(plan, src, seed);
  say(`${made.name} with ${ev.title || ev.id}: ${fmtInt(plan.drawn.length)} of ${fmtInt(/** @type {number} */ (src.of))} row${src.of === 1 ? "" : "s"} drawn (seed ${seed}).`);
  for (const line of planLines(plan)) say(line);
  if (!plan.items.length) throw new UsageError(`${noCasesWhy(plan)}.` + (ev.custom && !(ev.spec && ev.spec.checkup) ? ` ${ev.id} is your own evaluator: its check-up needs the right verdict of each generic case (its "checkup" field, set in My evaluators).` : ""));
  say(casesLine(plan, setupLine({ rows: plan.items.length, plan: { model: req.model, params: req.params, repeats: req.repeats, orders }, noun: "case", doubled: plan.doubled, cache: true })));

  const settings = { endpoint: conn.base, model: req.model, params: req.params, where: `direct → ${conn.url.host}`, repeats: req.repeats, ...(orders === 2 ? { orders: 2 } : {}) };
  const run = newRun({ name: made.name, evaluator: ev.id, evaluatorSpec: ev.custom ? ev.spec : undefined, mapping: made.mapping, label: null, columns: made.table.columns, readErrors: [], settings, checkup: made.checkup }, made.items);
  const items = made.items;
  const c = { run, ev, items };

  const record = o.out ? new Record(o.out, { run, items, columns: run.columns, rj, ev, threshold: null, redact: io.redact }) : null;
  const results = record ? await record.open() : new Array(items.length);
  if (record && record.resumed) say(`${o.out}: ${fmtInt(record.resumed)} of ${fmtInt(items.length)} cases already judged there; they are not asked again.`);
  const todo = todoIndices(items.length, results, { threshold: null });

  /** @type {import("./live.mjs").LiveEnd} */
  let end = { state: "done", held: null, gaveUp: "", interrupted: "" };
  if (todo.length) end = await judgeLive(c, { rj, results, todo, record, extra: caseExtra(rj, run, items, results), threshold: null, conn, io, noun: "case" });

  // The check-up graded and said as the page's chart says it; its files; its gate.
  const view = checkupView(rj, { run, ev, items, results }, { references: checkupReferences });
  if (record) record.finish(results, { threshold: null, extra: mergeExtra(checkupExportFields(view.grades), ordersExportFields(run, results, items)) });
  const counts = runCounts({ total: items.length, results, threshold: null });
  if (o.report) {
    const html = await runReport({ rj, cur: { run, ev, items, results }, counts, state: end.state, threshold: null });
    try {
      writeAtomic(o.report, io.redact(html));
    } catch (e) {
      throw new UsageError(`--report ${o.report}: cannot write it (${/** @type {Error} */ (e).message}); the results are in ${record ? record.path : "no file (no --out)"}.`);
    }
  }
  const lines = [`${run.name} · ${ev.title || ev.id} · model ${req.model}: ${fmtInt(counts.done)} of ${fmtInt(items.length)} cases judged` + (counts.remaining ? `, ${fmtInt(counts.remaining)} not yet` : ""), ...chartLines(view).map((l) => (l ? "  " + l : l))];
  if (counts.causes.length) lines.push("Cases without a verdict:", ...counts.causes.slice(0, 8).map((/** @type {any} */ x) => `  ${fmtInt(x.count)} × ${x.cause}`));
  if (orders === 2) {
    const d = positionData(rj, results, req.repeats);
    if (d) lines.push(...positionLines(d));
  }
  lines.push(...missedLines(view, ev, results));
  if (record) lines.push(`results: ${record.path}`);
  if (o.report) lines.push(`report: ${o.report}`);
  io.out(lines.join("\n") + "\n");

  const code = liveExit(end, conn, { model: req.model, out: o.out, done: results.filter(Boolean).length, total: items.length, noun: "case", io });
  if (code !== null) return code;
  if (end.state !== "done" || !gates.length) return 0;
  const g = checkGates(gates, { rj, counts, labels: null, results, ev, grades: view.grades });
  io.out(g.lines.join("\n") + "\n");
  return g.ok ? 0 : 1;
}
