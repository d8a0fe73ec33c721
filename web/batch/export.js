// export.js: a run's rows as JSONL, JSON and CSV. Every row of the dataset is exported, finished or
// not (pending rows say so), with every column of the source row under its own name (mapped or
// not), the row's index and id (so the results join back to the dataset), its inputs, verdict,
// raw judge answers (the first and, after a repair request, the corrected one) and error.

import { statusOf, causeOf, reasonOf } from "../results/status.js";
import { idColumn, sourceColumns } from "../results/columns.js";
import { repeatCount, repeatFields, repeatHeader, repeatCells } from "../stats/repeatexport.js";

/** SIGNIFICANT is how many significant digits our numbers keep: enough for any score, few enough
 * that 0.1 + 0.2 prints as 0.3. */
const SIGNIFICANT = 12;

/**
 * roundNumber rounds x to SIGNIFICANT digits, so that its shortest round-trip form is the one
 * people write (0.30000000000000004 becomes 0.3). Integers and non-finite values are unchanged.
 * @param {number} x
 * @returns {number}
 */
export function roundNumber(x) {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  return Number(x.toPrecision(SIGNIFICANT));
}

/**
 * formatNumber writes x as people write numbers: rounded (roundNumber), shortest form, no
 * exponent from 1e-6 up to 1e21 (JavaScript's own range for plain digits); "" when not finite.
 * @param {number} x
 * @returns {string}
 */
export function formatNumber(x) {
  if (!Number.isFinite(x)) return "";
  return String(Object.is(x, -0) ? 0 : roundNumber(x));
}

/**
 * rounded copies v with every number in it rounded (roundNumber): for values this tool computed
 * (scores, verdicts, usage), not for the dataset's own cells, which keep what the file said.
 * @param {any} v
 * @param {number} [depth]
 * @returns {any}
 */
function rounded(v, depth = 0) {
  if (typeof v === "number") return roundNumber(v);
  if (v === null || typeof v !== "object" || depth > 64) return v;
  if (Array.isArray(v)) return v.map((e) => rounded(e, depth + 1));
  /** @type {Object<string, any>} */
  const out = {};
  for (const [k, e] of Object.entries(v)) out[k] = rounded(e, depth + 1);
  return out;
}

/**
 * exportRecord is the one shape every format is made from: row, index and id (when the source
 * has one), the source row's columns under their own names, then this tool's fields (renamed
 * `ragjudge_<name>` where the source has a column of that name). index is the row's 0-based place
 * in the dataset, row the same from 1.
 * @param {number} index
 * @param {any} item
 * @param {any} result
 * @param {number | null} [threshold]
 * @param {{columns?: string[], id?: string | null, extra?: Extra | null, repeats?: number}} [opts] the source columns, the id
 *   column, fields to add after score (the human label and agrees), and the run's repeats: above 1,
 *   the record has the repeat fields (stats/repeatexport.js) after score
 * @returns {Object<string, any>}
 */
export function exportRecord(index, item, result, threshold = null, { columns = [], id = null, extra = null, repeats = 1 } = {}) {
  const v = (result && result.verdict) || null;
  const th = /** @type {any} */ (threshold);
  const src = (item && item.source) || {};
  const at = item && Number.isInteger(item.index) ? item.index : index;
  const own = {
    row: at + 1,
    index: at,
    id: id && src[id] !== undefined ? src[id] : null,
    status: statusOf(result, th),
    cause: result ? causeOf(result, th) : "not run yet",
    passed: v ? (v.passed === undefined ? null : v.passed) : null,
    score: v && typeof v.score === "number" ? roundNumber(v.score) : null,
    ...(repeats > 1 ? rounded(repeatFields(result, th)) : {}),
    ...(extra ? extra.of(at) : {}),
    inputs: item && item.inputs ? item.inputs : null,
    input_error: item && item.error ? item.error : null,
    verdict: v ? (v.verdict === undefined ? null : rounded(v.verdict)) : null,
    checks: v ? v.checks || [] : [],
    answers: result ? result.answers || [] : [],
    error: result && result.error ? result.error : null,
    reason: result ? reasonOf(result) : "",
    usage: result ? rounded(result.usage) : null,
    cached_calls: result ? result.cachedCalls || 0 : 0,
    attempts: result ? result.attempts || 0 : 0,
  };
  // A source column named id (ID, Id: any case) is the id itself: no second copy of it.
  if (!id || id.toLowerCase() === "id") delete own.id;
  // The identifiers first, then the source row, then the results.
  /** @type {Object<string, any>} */
  const rec = {};
  const ids = ["row", "index", "id"];
  for (const k of ids) if (k in own) rec[ownName(k, columns)] = own[/** @type {keyof typeof own} */ (k)];
  for (const c of columns) rec[c] = src[c] === undefined ? null : src[c];
  for (const [k, val] of Object.entries(own)) if (!ids.includes(k)) rec[ownName(k, columns)] = val;
  return rec;
}

/**
 * @typedef {{keys: string[], of: (index: number) => Object<string, any>}} Extra fields this tool
 * adds to each exported row after its score (stats/agreementview.js: label and agrees), by the
 * row's 0-based index
 */

/**
 * mergeExtra is several Extras as one (their keys in order), or null when none is given: the
 * human label, a check-up case's fields, a row judged in both orders.
 * @param {(Extra | null | undefined)[]} list
 * @returns {Extra | null}
 */
export function mergeExtra(...list) {
  const given = /** @type {Extra[]} */ (list.filter(Boolean));
  if (!given.length) return null;
  if (given.length === 1) return given[0];
  return { keys: given.flatMap((e) => e.keys), of: (i) => Object.assign({}, ...given.map((e) => e.of(i))) };
}

/**
 * ownName is the name this tool's field k takes beside the source columns: `ragjudge_<k>` where
 * the source has a column of that name in any case (a spreadsheet, SQL or pandas' case-blind
 * lookups would take "ID" and "id" for one column, and no reader could tell which is the source's).
 * @param {string} k
 * @param {string[]} columns
 * @returns {string}
 */
export function ownName(k, columns) {
  const taken = lowered(columns);
  let name = k;
  while (taken.has(name.toLowerCase())) name = "ragjudge_" + name;
  return name;
}

/** @type {WeakMap<string[], Set<string>>} each columns list's names in lower case, made once per list */
const LOWERED = new WeakMap();

/** lowered is columns' names in lower case (kept for the list: ownName is asked for every field of every row). @param {string[]} columns */
function lowered(columns) {
  let set = LOWERED.get(columns);
  if (!set) LOWERED.set(columns, (set = new Set(columns.map((c) => c.toLowerCase()))));
  return set;
}

/**
 * records builds the records of a run.
 * @param {any[]} items
 * @param {any[]} results
 * @param {number | null} threshold
 * @param {string[] | null} [columns]
 * @param {Extra | null} [extra]
 */
function records(items, results, threshold, columns = null, extra = null) {
  const cols = sourceColumns(items, columns);
  const id = idColumn(items, cols);
  const out = [];
  const repeats = repeatCount(results);
  for (let i = 0; i < items.length; i++) out.push(exportRecord(i, items[i], results[i], threshold, { columns: cols, id, extra, repeats }));
  return { recs: out, cols, repeats };
}

/**
 * toJSONL: one JSON object per line, one line per dataset row.
 * @param {any[]} items
 * @param {any[]} results
 * @param {{threshold?: number | null, columns?: string[] | null, extra?: Extra | null}} [opts]
 * @returns {string}
 */
export function toJSONL(items, results, { threshold = null, columns = null, extra = null } = {}) {
  return records(items, results, threshold, columns, extra)
    .recs.map((r) => JSON.stringify(r))
    .join("\n")
    .concat(items.length ? "\n" : "");
}

/**
 * toJSON: {run, summary, rows}. run must not hold the API key (the caller strips it).
 * @param {any[]} items
 * @param {any[]} results
 * @param {{threshold?: number | null, run?: any, summary?: any, columns?: string[] | null, extra?: Extra | null}} [opts]
 * @returns {string}
 */
export function toJSON(items, results, { threshold = null, run = null, summary = null, columns = null, extra = null } = {}) {
  return JSON.stringify({ run, summary: rounded(summary), rows: records(items, results, threshold, columns, extra).recs }, null, 2) + "\n";
}

/** A text a spreadsheet would run as a formula: one starting (after any white space or line
 * breaks) with = + - @ or their full-width forms, or starting with a tab or CR. */
const FORMULA = /^[\s\u00a0\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]/;

/** A number as a text, which a spreadsheet reads as that number and never as a formula. */
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * csvField escapes one CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF or
 * leading/trailing space, quotes doubled. A text that a spreadsheet would run as a formula (see
 * FORMULA) gets a leading apostrophe, since dataset cells and judge answers are untrusted; a
 * text that is just a number ("-1") is left as it is. Numbers are written as people write them
 * (formatNumber).
 * @param {any} v
 * @returns {string}
 */
export function csvField(v) {
  if (v === null || v === undefined) return "";
  let s;
  if (typeof v === "number") s = formatNumber(v);
  else if (typeof v === "boolean") s = v ? "true" : "false";
  else if (typeof v === "string") {
    s = v;
    if (FORMULA.test(s) && !NUMERIC.test(s)) s = "'" + s;
  } else s = JSON.stringify(v);
  if (/[",\r\n]/.test(s) || /^\s|\s$/.test(s)) s = '"' + s.replace(/"/g, '""') + '"';
  return s;
}

/**
 * toCSV: one line per row: row, index, id (when the source has one), the source columns under
 * their own names (lists and objects as JSON), then status, cause, passed, score, the repeat
 * columns of a run that judged rows several times (stats/repeatexport.js repeatHeader), the inputs (one column each, `input.<name>`), the input error, the verdict (as JSON), checks, the
 * raw answers, the error, tokens. Lines end in CRLF.
 * @param {any[]} items
 * @param {any[]} results
 * @param {{threshold?: number | null, inputNames?: string[] | null, columns?: string[] | null, extra?: Extra | null}} [opts]
 *   extra's fields come after score
 * @returns {string}
 */
export function toCSV(items, results, { threshold = null, inputNames = null, columns = null, extra = null } = {}) {
  const { recs, cols, repeats } = records(items, results, threshold, columns, extra);
  let names = inputNames;
  if (!names) {
    const seen = new Set();
    for (const r of recs) for (const k of Object.keys(r[ownName("inputs", cols)] || {})) seen.add(k);
    names = [...seen];
  }
  const own = (/** @type {string} */ k) => ownName(k, cols);
  const hasID = recs.length > 0 && own("id") in recs[0];
  const ids = ["row", "index", ...(hasID ? ["id"] : [])];
  const lead = ["status", "cause", "passed", "score", ...(extra ? extra.keys : [])];
  const tail = ["input_error", "verdict", "checks", "answer", "repair_answer", "error", "prompt_tokens", "completion_tokens", "cached_calls", "attempts"];
  const reps = repeats > 1 ? repeatHeader(repeats) : [];
  const header = [...ids.map(own), ...cols, ...lead.map(own), ...reps.map(own), ...names.map((n) => ownName("input." + n, cols)), ...tail.map(own)];
  const lines = [header.map(csvField).join(",")];
  for (const r of recs) {
    const inputs = r[own("inputs")];
    // A repeat run's answer columns are its first repeat's; each repeat's is in its own column.
    const answers = r[own("repeats")] ? r[own("repeats")][0].answers : r[own("answers")];
    const error = r[own("error")];
    const usage = r[own("usage")];
    const row = [
      ...ids.map((k) => r[own(k)]),
      ...cols.map((c) => r[c]),
      ...lead.map((k) => r[own(k)]),
      ...(repeats > 1 ? repeatCells({ majority: r[own("majority")], unanimous: r[own("unanimous")], score_sd: r[own("score_sd")], repeats: r[own("repeats")] }, repeats) : []),
      ...names.map((n) => (inputs ? inputs[n] : null)),
      r[own("input_error")],
      r[own("verdict")],
      r[own("checks")].map((/** @type {{severity: string, message: string}} */ c) => c.severity + ": " + c.message).join("\n"),
      answers[0] === undefined ? null : answers[0],
      answers[1] === undefined ? null : answers[1],
      error ? error.message : null,
      usage ? usage.prompt_tokens : null,
      usage ? usage.completion_tokens : null,
      r[own("cached_calls")],
      r[own("attempts")],
    ];
    lines.push(row.map(csvField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
