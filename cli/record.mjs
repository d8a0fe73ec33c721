// record.mjs: the --out file, which is both the run's results and its record. While the run goes,
// each row's line (the page's export record of it, export.js exportRecord) is appended the moment
// the row is stored, one write per line; when the run ends (or is interrupted), the file is
// rewritten whole, in row order, as the page's JSONL export of the run (export.js toJSONL), so a
// finished file and the page's export are equal line for line. A later run with the same --out
// reads the lines back (in either order, the last line of a row winning) and does not ask again
// for a row that has one, as the page's Resume does not (batch/runrecords.js todoIndices: a call that failed
// for a reason not the judge's is asked again).
//
// FILE.run.json beside it says what the lines were judged with (evaluator and its definition,
// mapping, model, parameters, repeats, number of rows): a run that asks anything else is refused
// rather than mixing verdicts of two judges in one file. Each row's inputs are compared too, so a
// changed dataset is refused the same way.
//
// A line holds everything the page's result of a row is made of, but the repeats' own verdicts
// (an export keeps each repeat's vote, score and answers) and, for a row judged in both orders,
// each order's (the export keeps the exchanged order's answers): those are read again from the
// answers through the engine's own judgeOnce and judgeOrders, which is what made them.
//
// A check-up's --out (ragjudge checkup) is the same record of its cases (one line per case), the
// sidecar keeping its seed and rows drawn too: the cases are made again from them, and a line
// whose inputs are not its case's is refused.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { existsSync, openSync, writeSync, closeSync, renameSync, writeFileSync, readFileSync } from "node:fs";
import { UsageError } from "./args.mjs";
import { exportRecord, sourceColumns, idColumn, ownName, toJSONL, newRowResult, judgeOnce, judgeOrders, renderRow, judgeOf, canonicalJSON } from "./page.mjs";

/** SIDECAR is the record's own file name beside --out. @param {string} out */
export const sidecarOf = (out) => out + ".run.json";

/** FORMAT names the sidecar's shape. */
const FORMAT = "ragjudge-run";

/**
 * identity is what a run's lines depend on: two runs with the same identity ask the same requests
 * of the same rows.
 * @param {any} run
 */
function identity(run) {
  const s = run.settings || {};
  const c = run.checkup;
  return {
    evaluator: run.evaluator,
    definition: run.evaluatorSpec ? canonicalJSON(run.evaluatorSpec) : null,
    mapping: canonicalJSON(run.mapping || {}),
    model: s.model,
    params: canonicalJSON(s.params || {}),
    repeats: s.repeats || 1,
    orders: s.orders === 2 ? "both orders" : "one order",
    // A jury's judges and rule (ragjudge run --judge): one judge's lines are not a jury's.
    judges: Array.isArray(s.judges) && s.judges.length > 1 ? s.judges.map((/** @type {any} */ j) => `${j.model} @ ${j.baseURL || j.upstream}`).join(", ") + ` (${(s.jury && s.jury.rule) || "majority"})` : null,
    checkup: c ? `seed ${c.seed}, ${c.source === "example" ? "the evaluator's example" : `${c.rows} of ${c.of} rows of ${c.dataset}`}` : null,
    rows: run.total,
  };
}

/** WORDS say each part of an identity in an error. */
const WORDS = {
  evaluator: "evaluator",
  definition: "evaluator definition",
  mapping: "mapping",
  model: "model",
  params: "model parameters (temperature, max tokens)",
  repeats: "repeats",
  orders: "order setting (--both-orders)",
  judges: "jury (--judge, --jury-rule)",
  checkup: "set of check-up cases (--seed, --rows, --data)",
  rows: "number of rows",
};

/**
 * writeAtomic writes text to path through a temporary file renamed over it: a reader (or a crash)
 * sees the old file or the new one, never half of one.
 * @param {string} path @param {string} text
 */
export function writeAtomic(path, text) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * Record is one run's --out file.
 */
export class Record {
  /**
   * @param {string} path the --out file
   * @param {{run: any, items: any[], columns: string[], rj: any, ev: any, threshold: number|null, redact: (s: string) => string}} o
   *   run: the run's record (its id and createdAt are taken from the file's when resumed)
   */
  constructor(path, { run, items, columns, rj, ev, threshold, redact }) {
    this.threshold = threshold;
    this.path = path;
    this.run = run;
    this.items = items;
    this.columns = sourceColumns(items, columns);
    this.tableColumns = columns;
    this.id = idColumn(items, this.columns);
    this.rj = rj;
    this.ev = ev;
    this.redact = redact;
    /** @type {number|null} */
    this.fd = null;
    this.resumed = 0;
  }

  /** own is the name this tool's field k has in a line (ragjudge_k where the dataset has a column k). @param {string} k */
  own(k) {
    return ownName(k, this.columns);
  }

  /**
   * open reads the file when it exists (checking it is this run's) and returns the results it holds
   * by row index; otherwise it starts it. Either way, lines are appended from now on.
   * @returns {Promise<any[]>}
   */
  async open() {
    const results = new Array(this.items.length);
    const side = sidecarOf(this.path);
    if (existsSync(this.path) && readFileSync(this.path).length > 0) {
      if (!existsSync(side)) throw new UsageError(`--out ${this.path}: the file exists but no ragjudge run wrote it (${side} is missing). Choose another --out, or delete it to judge again.`);
      await this.resume(side, results);
    } else {
      try {
        writeAtomic(side, this.redact(JSON.stringify({ format: FORMAT, version: 1, run: this.sidecarRun() }, null, 2) + "\n"));
        writeFileSync(this.path, "");
      } catch (e) {
        throw new UsageError(`--out ${this.path}: cannot write it (${/** @type {Error} */ (e).message}).`);
      }
    }
    this.fd = openSync(this.path, "a");
    return results;
  }

  /** sidecarRun is what the sidecar keeps of the run: never a key, the endpoint only as its host. */
  sidecarRun() {
    const r = this.run;
    const s = r.settings || {};
    return {
      id: r.id,
      name: r.name,
      evaluator: r.evaluator,
      evaluatorSpec: r.evaluatorSpec,
      mapping: r.mapping,
      label: r.label,
      columns: r.columns,
      settings: { model: s.model, params: s.params, repeats: s.repeats, ...(s.orders === 2 ? { orders: 2 } : {}), ...(s.judges ? { judges: s.judges, jury: s.jury } : {}), where: s.where },
      total: r.total,
      createdAt: r.createdAt,
      ...(r.checkup ? { checkup: r.checkup } : {}),
    };
  }

  /**
   * resume checks the sidecar against this run and reads the file's lines into results.
   * @param {string} side @param {any[]} results
   */
  async resume(side, results) {
    let was;
    try {
      const doc = JSON.parse(readFileSync(side, "utf8"));
      if (!doc || doc.format !== FORMAT || !doc.run) throw new Error("not a run's record");
      was = doc.run;
    } catch (e) {
      throw new UsageError(`${side}: cannot be read (${/** @type {Error} */ (e).message}): delete it and ${this.path} to judge again.`);
    }
    const a = identity(was);
    const b = identity(this.run);
    const diff = Object.keys(a).filter((k) => /** @type {any} */ (a)[k] !== /** @type {any} */ (b)[k]);
    if (diff.length) {
      // The first difference with both values (a definition is too long to quote: it is named).
      const k = diff.find((d) => d !== "definition") || diff[0];
      const show = (/** @type {any} */ x) => (k === "mapping" || k === "params" || k === "orders" || (k === "checkup" && x) ? x : JSON.stringify(x));
      const both = k === "definition" ? "" : ` (${WORDS[/** @type {keyof typeof WORDS} */ (k)]} ${show(/** @type {any} */ (a)[k])}; this run: ${show(/** @type {any} */ (b)[k])})`;
      throw new UsageError(
        `--out ${this.path} holds rows judged with another ${diff.map((d) => /** @type {any} */ (WORDS)[d]).join(", ")}${both}. ` +
          `Choose another --out, or delete ${this.path} and ${side} to judge every row again.`,
      );
    }
    this.run.id = was.id || this.run.id;
    this.run.createdAt = was.createdAt || this.run.createdAt;
    const text = readFileSync(this.path, "utf8");
    const lines = text.split("\n");
    const judge = judgeOf(this.rj, this.ev);
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n];
      if (line.trim() === "") continue;
      let rec;
      try {
        rec = JSON.parse(line);
      } catch (e) {
        // The last line of a run killed while writing it: that row is judged again.
        if (n === lines.length - 1 || (n === lines.length - 2 && lines[lines.length - 1] === "")) continue;
        throw new UsageError(`${this.path}:${n + 1}: not a JSON line (${/** @type {Error} */ (e).message}). Delete ${this.path} and ${side} to judge again.`);
      }
      const index = rec && rec[this.own("index")];
      if (!Number.isInteger(index) || index < 0 || index >= this.items.length) throw new UsageError(`${this.path}:${n + 1}: no row ${index} in the dataset (it has ${this.items.length}).`);
      const item = this.items[index];
      const want = JSON.stringify(item.inputs ?? null);
      const got = JSON.stringify(rec[this.own("inputs")] ?? null);
      if (want !== got) {
        throw new UsageError(`${this.path}:${n + 1}: row ${index + 1} of the dataset is not the row this line judged (its inputs differ): the dataset changed since. Choose another --out, or delete ${this.path} and ${side} to judge again.`);
      }
      if (rec[this.own("status")] === "pending") {
        results[index] = undefined;
        continue;
      }
      try {
        results[index] = await this.resultOf(rec, index, item, judge);
      } catch {
        results[index] = undefined; // a line that cannot be read back: the row is judged again
      }
    }
    this.resumed = results.filter(Boolean).length;
  }

  /**
   * resultOf is the row's result as the engine stored it, from its line: the verdict, answers,
   * error, tokens, calls and attempts as they are; each repeat's verdict read again from its answers.
   * @param {any} rec @param {number} index @param {any} item @param {any} judge
   * @returns {Promise<any>}
   */
  async resultOf(rec, index, item, judge) {
    const own = (/** @type {string} */ k) => rec[this.own(k)];
    const r = newRowResult(this.run.id, index);
    r.error = own("error") || null;
    r.answers = Array.isArray(own("answers")) ? own("answers") : [];
    if (!r.error) r.verdict = { passed: own("passed") ?? null, score: own("score") ?? null, verdict: own("verdict") ?? null, checks: own("checks") || [] };
    r.usage = own("usage") || { prompt_tokens: 0, completion_tokens: 0 };
    r.cachedCalls = own("cached_calls") || 0;
    r.attempts = own("attempts") || 0;
    const exchanged = own("exchanged_answers");
    // Every answer was a call or a cache hit: the first order's, and the exchanged order's of a row judged in both.
    const answered = r.answers.length + (Array.isArray(exchanged) ? exchanged.reduce((n, a) => n + (Array.isArray(a) ? a.length : 0), 0) : 0);
    r.calls = Math.max(0, answered - r.cachedCalls);
    r.repaired = !r.error && r.answers.length > 1;
    const reps = own("repeats");
    const other = (/** @type {number} */ k) => (Array.isArray(exchanged) && Array.isArray(exchanged[k]) ? exchanged[k] : null);
    if (Array.isArray(reps) && !r.error) {
      r.repeats = await Promise.all(reps.map((/** @type {any} */ x, /** @type {number} */ k) => replay(judge, item, index, k, Array.isArray(x && x.answers) ? x.answers : [], other(k))));
      r.repaired = r.repeats.some((/** @type {any} */ x) => x.repaired);
    } else if (other(0) && !r.error) {
      // One judgement in both orders: its two orders, read again (the verdict is the line's).
      const one = await replay(judge, item, index, 0, r.answers, other(0));
      r.orders = one.orders;
      r.repaired = one.repaired;
    }
    return r;
  }

  /**
   * append writes result's line at the end of the file (one write: a process killed meanwhile
   * leaves whole lines).
   * @param {any} result @param {any} extra export.js Extra, or null
   */
  append(result, extra) {
    if (this.fd === null) return;
    const repeats = this.run.settings.repeats || 1;
    const rec = exportRecord(result.index, this.items[result.index], result, this.threshold, { columns: this.columns, id: this.id, extra, repeats });
    writeSync(this.fd, this.redact(JSON.stringify(rec)) + "\n");
  }

  /**
   * finish rewrites the file as the page's JSONL export of results.
   * @param {any[]} results @param {{threshold: number|null, extra: any}} o
   */
  finish(results, { threshold, extra }) {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    writeAtomic(this.path, this.redact(toJSONL(this.items, results, { threshold, columns: this.tableColumns, extra })));
  }
}

/**
 * replay reads one repeat's verdict again from its recorded answers through the engine's judgeOnce
 * (the first answer, and the repair request's answer when there is one), as the run read it; with
 * exchanged (the answers of the order with the two answers exchanged), through judgeOrders, both
 * orders and their combined verdict.
 * @param {any} judge @param {any} item @param {number} index @param {number} k @param {string[]} answers
 * @param {string[]|null} [exchanged]
 * @returns {Promise<{verdict: any, answers: string[], repaired: boolean, orders?: any[]}>}
 */
async function replay(judge, item, index, k, answers, exchanged = null) {
  const rendered = renderRow(judge, item.inputs);
  // Each order's questions take its own answers, in turn: the first order's messages begin with
  // this rendering's (a repair request repeats them), the exchanged order's with its own.
  const queues = [answers.slice(), (exchanged || []).slice()];
  const runner = /** @type {any} */ ({
    o: { judge },
    stats: { repairs: 0 },
    ask: async (/** @type {any[]} */ messages) => {
      const q = messages[0] === rendered.messages[0] ? queues[0] : queues[1];
      if (!q.length) throw new Error("the line lacks an answer of this repeat");
      return { content: q.shift(), cached: true, attempts: 0, usage: null, written: null };
    },
  });
  const once = exchanged ? judgeOrders : judgeOnce;
  return once(runner, item, rendered, index, k, newRowResult("", index), [], { stage: "call" });
}
