// labels.js: human labels read from a dataset column, to compare the judge with. A column holds
// boolean labels (true/false, yes/no, pass/fail, passed/failed, 1/0, grounded/ungrounded, in any
// case) or numeric ones (compared with the judge's score); a cell that is neither is reported
// with its row, never guessed. Pure: Node tests cover it.

/** LABEL_NAMES: column names suggested as the human label, in order of preference, compared
 * without case, spaces, hyphens or underscores. */
const LABEL_NAMES = ["humanlabel", "label", "human", "gold", "goldlabel", "expectedverdict", "humanverdict", "humanjudgment", "humanjudgement", "annotation", "verdictlabel", "groundtruthlabel"];

/** Words read as a passing (true) or failing (false) label, lowercased. */
const WORDS = new Map([
  ["true", true], ["false", false],
  ["yes", true], ["no", false],
  ["pass", true], ["fail", false],
  ["passed", true], ["failed", false],
  ["grounded", true], ["ungrounded", false], ["not grounded", false],
  ["1", true], ["0", false],
]);

/**
 * @typedef {Object} Labels a column's labels, one per dataset row
 * @property {string} column
 * @property {"boolean"|"number"|null} kind null when no cell could be read
 * @property {(boolean|number|null)[]} values by row index; null for an empty or unreadable cell
 * @property {number} given cells read as a label of the kind
 * @property {number} missing empty cells (no label for that row)
 * @property {{row: number, text: string}[]} unreadable cells that are not a label of the kind,
 *   with their 1-based row
 * @property {number} passing boolean labels that are true (0 for numbers)
 */

/**
 * key is a column name as LABEL_NAMES spells it.
 * @param {string} name
 */
function key(name) {
  return name.toLowerCase().replace(/[\s_.-]+/g, "");
}

/**
 * suggestLabelColumn is the column to propose as the human label: the first of columns named as
 * in LABEL_NAMES (in that order of preference; a dotted path is matched by its last part), or
 * null. The user can pick any column, or none.
 * @param {string[]} columns the dataset's columns or paths
 * @returns {string|null}
 */
export function suggestLabelColumn(columns) {
  /** @type {string|null} */
  let best = null;
  let rank = LABEL_NAMES.length;
  for (const c of columns) {
    const k = key(c.includes(".") ? c.slice(c.lastIndexOf(".") + 1) : c);
    const i = LABEL_NAMES.indexOf(k);
    if (i >= 0 && i < rank) (best = c), (rank = i);
  }
  return best;
}

/**
 * cellAt is row's value at column: the key itself when the row has it, else the dotted path
 * into object columns ("vars.label").
 * @param {any} row
 * @param {string} column
 * @returns {any}
 */
export function cellAt(row, column) {
  if (!row || typeof row !== "object") return undefined;
  if (column in row) return row[column];
  let v = row;
  for (const part of column.split(".")) {
    if (!v || typeof v !== "object" || !(part in v)) return undefined;
    v = v[part];
  }
  return v;
}

/**
 * readCell reads one label cell: {empty} for no label, {bool} for a boolean word (or a JSON
 * boolean), {num} for a number (0 and 1 are both), or {text} when it is neither.
 * @param {any} v
 * @returns {{empty?: true, bool?: boolean, num?: number, text?: string}}
 */
export function readCell(v) {
  if (v === undefined || v === null) return { empty: true };
  if (typeof v === "boolean") return { bool: v };
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return { text: String(v) };
    return v === 0 || v === 1 ? { bool: v === 1, num: v } : { num: v };
  }
  const s = typeof v === "string" ? v.trim() : JSON.stringify(v);
  if (s === "") return { empty: true };
  const word = WORDS.get(s.toLowerCase().replace(/\s+/g, " "));
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : NaN;
  if (word !== undefined) return Number.isFinite(n) ? { bool: word, num: n } : { bool: word };
  if (Number.isFinite(n)) return { num: n };
  return { text: s };
}

/**
 * readLabels reads column of every row as a label. The column's kind is boolean when every
 * readable cell is a boolean word or 0/1, number when every one is a number; when both kinds
 * occur, the more frequent one wins and the other cells are unreadable.
 * @param {any[]} rows the dataset's rows (or the items' sources), by row index
 * @param {string} column
 * @returns {Labels}
 */
export function readLabels(rows, column) {
  const cells = rows.map((r) => readCell(cellAt(r, column)));
  let bools = 0;
  let nums = 0;
  for (const c of cells) {
    if (c.bool !== undefined) bools++;
    if (c.num !== undefined) nums++;
  }
  // 0/1 count as both: a column of only 0 and 1 is boolean; any other number makes it numeric
  // unless the words outnumber the numbers.
  const onlyBoolNumbers = cells.every((c) => c.num === undefined || c.bool !== undefined);
  /** @type {"boolean"|"number"|null} */
  const kind = bools === 0 && nums === 0 ? null : onlyBoolNumbers || bools > nums ? "boolean" : "number";
  /** @type {Labels} */
  const out = { column, kind, values: new Array(rows.length).fill(null), given: 0, missing: 0, unreadable: [], passing: 0 };
  cells.forEach((c, i) => {
    if (c.empty) return void out.missing++;
    const v = kind === "boolean" ? c.bool : kind === "number" ? c.num : undefined;
    if (v === undefined) {
      out.unreadable.push({ row: i + 1, text: c.text !== undefined ? c.text : String(cellAt(rows[i], column)) });
      return;
    }
    out.values[i] = v;
    out.given++;
    if (v === true) out.passing++;
  });
  return out;
}

/**
 * labelSummary says in one sentence what a label column holds: "82 boolean labels (50 pass,
 * 32 fail), 18 rows without one".
 * @param {Labels} l
 * @returns {string}
 */
export function labelSummary(l) {
  if (!l.kind) return `${l.column} holds no label that can be read: use true/false, yes/no, pass/fail, 1/0, grounded/ungrounded or numbers.`;
  const s = (/** @type {number} */ n, /** @type {string} */ w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  let text = l.kind === "boolean" ? `${s(l.given, "boolean label")} (${l.passing} pass, ${l.given - l.passing} fail)` : `${s(l.given, "numeric label")}, compared with the judge's score`;
  if (l.missing) text += `, ${s(l.missing, "row")} without one`;
  if (l.unreadable.length) text += `; ${l.unreadable.length} unreadable (not counted)`;
  return text + ".";
}
