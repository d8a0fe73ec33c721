// setup.mjs: what a command judges, set up as the page's Batch view sets it up: the engine, the
// evaluator (a built-in, or a custom definition from a file, checked by rj.checkEvaluator), the
// dataset read by its content (rj.readDataset), the columns mapped as the page guesses them
// (rj.mapColumns) with --map over the guess, the human label column the page would propose, the
// rows as the run takes them (rj.rowInputs, then rendered once as the preview does, so that a row
// the prompt refuses is an input error without a call), and the run's record (batch/runrecords.js newRun).

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { UsageError, number } from "./args.mjs";
import {
  load, detectMatches, matchLabel, prepareItems, checkRows, suggestLabelColumn, readLabels, runLabel, labelSummary, yesNote,
  readImport, importProblem, modelParams, newRunId, MAX_REPEATS, fmtInt, formatWords,
} from "./page.mjs";

/**
 * @typedef {Object} Setup
 * @property {any} rj the engine
 * @property {any} ev the evaluator (an entry of rj.evaluators())
 * @property {string} name the dataset's file name
 * @property {any} table rj.readDataset's
 * @property {Record<string, string>} mapping input → column
 * @property {any[]} items the rows as the run takes them (mapping.js items, checked by preview.js)
 * @property {any} checked preview.js checkRows's
 * @property {any} labels stats/labels.js readLabels's, or null without a label column
 * @property {any} run the run's record (batch/runrecords.js newRun's, not stored anywhere)
 */

/**
 * loadEvaluator finds the evaluator the options name: --evaluator alone is a built-in (or any id
 * the engine knows); --evaluator-file is a definition (or an export of several, one picked by
 * --evaluator), checked and defined in the engine.
 * @param {any} rj @param {Record<string, any>} v
 */
export async function loadEvaluator(rj, v) {
  const file = v["evaluator-file"];
  const known = () => rj.evaluators().map((/** @type {any} */ e) => e.id);
  if (!file) {
    if (!v.evaluator) throw new UsageError("missing --evaluator ID (or --evaluator-file FILE): " + known().join(", "));
    const ev = rj.evaluators().find((/** @type {any} */ e) => e.id === v.evaluator);
    if (!ev) throw new UsageError(`--evaluator ${v.evaluator}: no such evaluator; the built-ins are ${known().join(", ")} (a custom one comes with --evaluator-file FILE).`);
    return ev;
  }
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new UsageError(`--evaluator-file ${file}: cannot read it (${/** @type {Error} */ (e).message}).`);
  }
  const { specs, names, errors } = readImport(text);
  if (errors.length && !specs.length) throw new UsageError(`--evaluator-file ${file}: ${errors.join(" ")}`);
  let k = 0;
  if (specs.length > 1 || v.evaluator) {
    k = specs.findIndex((s) => s.id === v.evaluator);
    if (k < 0) {
      const ids = specs.map((s) => String(s.id));
      throw new UsageError(`--evaluator-file ${file} holds ${ids.length === 1 ? "the evaluator" : "the evaluators"} ${ids.join(", ")}: ${v.evaluator ? `no ${v.evaluator} among them` : "pick one with --evaluator ID"}.`);
    }
  }
  const spec = specs[k];
  const check = rj.checkEvaluator(spec);
  if (!check.ok) throw new UsageError(`--evaluator-file ${file}: ${importProblem(names[k], check.errors)}`);
  try {
    rj.define(spec);
  } catch (e) {
    throw new UsageError(`--evaluator-file ${file}: ${/** @type {Error} */ (e).message}`);
  }
  return rj.evaluators().find((/** @type {any} */ e) => e.id === spec.id);
}

/**
 * readText reads a dataset file as the page's File.text() does (UTF-8, a byte order mark dropped),
 * refusing bytes that are not UTF-8 with where the first one is, rather than reading them as
 * replacement characters.
 * @param {string} path
 */
export async function readText(path) {
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new UsageError(`--data ${path}: cannot read it (${/** @type {Error} */ (e).message}).`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const at = firstBadByte(bytes);
    const lineStart = at > 0 ? bytes.lastIndexOf(10, at - 1) + 1 : 0;
    let line = 1;
    for (let i = 0; i < lineStart; i++) if (bytes[i] === 10) line++;
    const col = new TextDecoder().decode(bytes.subarray(lineStart, at)).length + 1;
    throw new UsageError(`${path}:${line}:${col}: the file is not UTF-8 (byte ${at + 1} is 0x${bytes[at].toString(16).toUpperCase().padStart(2, "0")}); save it as UTF-8.`);
  }
}

/**
 * firstBadByte is the offset of the first byte that does not begin a well-formed UTF-8 sequence.
 * @param {Uint8Array} bytes
 */
function firstBadByte(bytes) {
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (!len || i + len > bytes.length) return i;
    if (len > 1) {
      try {
        fatal.decode(bytes.subarray(i, i + len)); // continuation bytes, overlong forms, surrogates
      } catch {
        return i;
      }
    }
    i += len;
  }
  return bytes.length;
}

/**
 * applyMap lays the --map INPUT=COLUMN options over the guessed mapping.
 * @param {Record<string, string>} mapping @param {string[]|undefined} maps @param {any} ev @param {string[]} columns
 */
function applyMap(mapping, maps, ev, columns) {
  const names = ev.inputs.map((/** @type {any} */ i) => i.name);
  for (const m of maps || []) {
    const eq = m.indexOf("=");
    if (eq <= 0) throw new UsageError(`--map ${m}: write INPUT=COLUMN, e.g. --map ${names[0]}=${columns[0] ?? "column"}.`);
    const input = m.slice(0, eq).trim();
    const column = m.slice(eq + 1).trim();
    if (!names.includes(input)) throw new UsageError(`--map ${m}: ${ev.id} has no input "${input}"; its inputs are ${names.join(", ")}.`);
    if (column === "") {
      delete mapping[input];
      continue;
    }
    if (!columns.includes(column)) throw new UsageError(`--map ${m}: the dataset has no column "${column}"; it has ${columns.join(", ")}.`);
    mapping[input] = column;
  }
}

/**
 * setup reads what the options name into what the run takes; say(line) tells the user what was
 * read and guessed. For a check-up (ragjudge checkup), the rows are what its cases are drawn
 * from, and no label column is looked for.
 * @param {Record<string, any>} v the parsed options
 * @param {(line: string) => void} say
 * @param {{checkup?: boolean}} [o]
 * @returns {Promise<Setup>}
 */
export async function setup(v, say, { checkup = false } = {}) {
  const rj = await load();
  const ev = await loadEvaluator(rj, v);
  const text = await readText(v.data);
  const name = basename(v.data);
  let table;
  try {
    table = rj.readDataset(text, undefined, name);
  } catch (e) {
    const err = /** @type {any} */ (e);
    const at = err.line ? `${v.data}:${err.line}${err.col ? ":" + err.col : ""}: ` : `${v.data}: `;
    throw new UsageError(at + "cannot be read as a dataset: " + (err.detail || err.message));
  }
  if (!table.rows.length) {
    const first = table.errors[0];
    throw new UsageError(first ? `${v.data}:${first.line}: no row could be read: ${first.message}` : `${v.data}: the file holds no rows.`);
  }
  say(`${name}: ${fmtInt(table.rows.length)} rows (${formatWords(table, name)}), columns ${table.columns.join(", ")}`);
  for (const e of table.errors.slice(0, 20)) say(`  ✗ ${v.data}:${e.line}: ${e.message} (not loaded)`);
  if (table.errors.length > 20) say(`  … and ${fmtInt(table.errors.length - 20)} more lines not loaded`);
  for (const w of (table.warnings || []).slice(0, 5)) say(`  ⚠ ${v.data}:${w.line}: ${w.message}`);

  // The mapping: the page's guess, then --map over it.
  const columns = table.paths && table.paths.length ? table.paths : table.columns;
  const { mapping, matches } = detectMatches(rj, ev, columns);
  applyMap(mapping, v.map, ev, columns);
  for (const input of ev.inputs) {
    const col = mapping[input.name];
    const m = matches.find((/** @type {any} */ x) => x.input === input.name && x.column === col);
    say(`  ${input.name} ← ${col ? (m ? matchLabel(m) : col) : input.required ? "(no column: every row lacks it; --map " + input.name + "=COLUMN)" : "(not used)"}`);
  }

  // The label column: the one asked for, else the page's proposal.
  let column = "";
  if (!v["no-labels"] && !checkup) {
    if (v.labels !== undefined && v.labels !== "") {
      if (!columns.includes(v.labels) && !table.columns.includes(v.labels)) throw new UsageError(`--labels ${v.labels}: the dataset has no such column; it has ${table.columns.join(", ")}.`);
      column = v.labels;
    } else column = suggestLabelColumn(columns) || "";
  }
  const yes = v["labels-yes"] ?? "";
  if (!["", "pass", "fail"].includes(yes)) throw new UsageError(`--labels-yes takes pass or fail, not "${yes}".`);
  const labels = column ? readLabels(table.rows, column, yes) : null;
  if (labels) {
    say(`  human labels ← ${labelSummary(labels)}`);
    if (labels.kind === "boolean" && labels.answers > 0) say(`    ${yesNote(labels)}`);
  }

  const items = prepareItems(rj, ev, table.rows, mapping);
  const checked = await checkRows(rj, ev, items);
  if (!checked) throw new Error("checkRows stopped");
  const refusedRows = checked.refused.reduce((s, g) => s + g.rows.length, 0);
  if (checkup) say(`${fmtInt(checked.judged)} rows the check-up can draw from` + (refusedRows ? `; ${fmtInt(refusedRows)} cannot be judged with ${ev.id}, and are left out:` : "."));
  else say(`${fmtInt(checked.judged)} rows to judge with ${ev.id}` + (refusedRows ? `; ${fmtInt(refusedRows)} cannot be, and become input errors:` : "."));
  for (const g of checked.refused) say(`  ✗ ${fmtInt(g.rows.length)} ${g.rows.length === 1 ? "row" : "rows"}: ${g.label} (rows ${g.rows.slice(0, 8).map((/** @type {any} */ r) => r.index + 1).join(", ")}${g.rows.length > 8 ? ", …" : ""})`);
  if (checked.judged === 0) {
    const first = checked.items.find((/** @type {any} */ it) => it.error);
    throw new UsageError(`no row of ${v.data} can be judged with ${ev.id}${first ? ": " + first.error : ""}. Check the mapping above (--map INPUT=COLUMN).`);
  }

  const settings = requestOptions(v);
  const run = {
    id: newRunId(),
    name,
    evaluator: ev.id,
    evaluatorSpec: ev.custom ? ev.spec : undefined,
    mapping: { ...mapping },
    label: runLabel(column, yes),
    columns: table.columns,
    readErrors: (table.errors || []).slice(0, 200),
    settings,
    total: checked.items.length,
    createdAt: Date.now(),
    state: "running",
  };
  return { rj, ev, name, table, mapping, items: checked.items, checked, labels, run };
}

/**
 * requestOptions is what every request of the run carries, as the page's model settings and run
 * options make it (model/modelparams.js modelParams; repeats held to 1..MAX_REPEATS).
 * @param {Record<string, any>} v
 * @returns {{model: string, params: Record<string, number>, repeats: number}}
 */
export function requestOptions(v) {
  const temperature = number(v, "temperature", { min: 0, max: 2 }) ?? 0;
  const maxTokens = number(v, "max-tokens", { min: 0, int: true }) ?? 2048;
  const repeats = number(v, "repeats", { min: 1, max: MAX_REPEATS, int: true }) ?? 1;
  return { model: String(v.model), params: modelParams({ model: String(v.model), temperature, maxTokens }), repeats };
}
