// labels.js: human labels read from a dataset column, to compare the judge with. A column holds
// boolean labels or numeric ones (compared with the judge's score); a cell that is neither is
// reported with its row, never guessed. Pure: Node tests cover it.
//
// Boolean labels are of two sorts. Verdict words say pass or fail by themselves, whatever the
// column: pass/fail, factual/hallucinated, supported/unsupported... Answers (true/false, yes/no,
// 1/0) say whether the column's question holds, and what that means depends on the question:
// HaluEval's "hallucination": "yes" and RAGTruth's or Phoenix's is_hallucination true are FAILED
// answers. So an answer's meaning is a setting of the column (yes means pass, or yes means fail),
// proposed from the column's name (a name about a fault, "hallucination", "has_error", means
// yes is a failure) and always said, never silently inverted.

/** LABEL_NAMES: column names suggested as the human label, in order of preference, compared
 * without case, spaces, hyphens or underscores. */
const LABEL_NAMES = ["humanlabel", "label", "human", "gold", "goldlabel", "expectedverdict", "humanverdict", "humanjudgment", "humanjudgement", "annotation", "verdictlabel", "groundtruthlabel"];

/** QUESTION_NAMES: column names that ask a yes/no question of the answer (HaluEval's
 * "hallucination", RAGTruth's and Phoenix's is_hallucination; is_faithful, is_grounded…), suggested
 * as the human label only when no column is named as in LABEL_NAMES; what a yes means follows
 * from the name (yesMeansFromName: a yes to a fault is a failure). Compared as LABEL_NAMES are. */
const QUESTION_NAMES = ["hallucination", "ishallucination", "hashallucination", "hallucinated", "ishallucinated", "isfaithful", "faithful", "isgrounded", "grounded", "issupported", "supported", "iscorrect", "isfactual", "factual"];

/** ANSWERS: words that answer the column's question, lowercased: true when it holds. */
const ANSWERS = new Map([
  ["true", true], ["false", false],
  ["yes", true], ["no", false],
  ["1", true], ["0", false],
]);

/** VERDICTS: words that say pass (true) or fail (false) whatever the column, lowercased, white
 * space as one space. The pairs the evaluation tools and datasets write. */
const VERDICTS = new Map([
  ["pass", true], ["fail", false],
  ["passed", true], ["failed", false],
  ["grounded", true], ["ungrounded", false], ["not grounded", false],
  ["factual", true], ["hallucinated", false],
  ["supported", true], ["unsupported", false], ["not supported", false],
  ["faithful", true], ["unfaithful", false],
  ["correct", true], ["incorrect", false],
  ["relevant", true], ["irrelevant", false], ["unrelated", false],
]);

/** FAULTS: the start of a word of a column's name that asks about a fault: yes there is a failure. */
const FAULTS = ["halluc", "error", "unsupported", "unfaithful", "ungrounded", "incorrect", "wrong", "toxic", "contradict", "fabricat", "fail", "mistake", "defect"];

/** NEGATIONS: a word of a column's name that turns a fault around ("no_hallucination", "hallucination_free"). */
const NEGATIONS = ["no", "non", "not", "without", "free", "absent"];

/**
 * yesMeansFromName says what a yes (true, 1) in the column named name means: "fail" when the
 * name asks about a fault (is_hallucination, has_error, HaluEval's hallucination), else "pass".
 * @param {string} name
 * @returns {"pass"|"fail"}
 */
export function yesMeansFromName(name) {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  // A name that also says pass ("pass_fail") names both outcomes: no fault in it.
  const fault = words.some((w) => FAULTS.some((f) => w.startsWith(f))) && !words.some((w) => w.startsWith("pass"));
  const negated = words.some((w) => NEGATIONS.includes(w) || /^(non|no|not)(halluc|error|toxic)/.test(w));
  return fault && !negated ? "fail" : "pass";
}

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
 * @property {"pass"|"fail"} yes what a yes, true or 1 of a boolean column was read as
 * @property {boolean} yesChosen whether yes was set by the user (else from the column's name)
 * @property {number} answers boolean labels that were answers (true/false, yes/no, 1/0), read by yes
 */

/**
 * runLabel is a run's record of its label column: {column}, with yes when the user chose what a
 * yes means (else it follows the column's name); null without a column.
 * @param {string} [column]
 * @param {string} [yes] "pass", "fail", or "" for the name's
 * @returns {{column: string, yes?: "pass"|"fail"}|null}
 */
export function runLabel(column, yes) {
  if (!column) return null;
  return yes === "pass" || yes === "fail" ? { column, yes } : { column };
}

/**
 * key is a column name as LABEL_NAMES spells it.
 * @param {string} name
 */
function key(name) {
  return name.toLowerCase().replace(/[\s_.-]+/g, "");
}

/**
 * suggestLabelColumn is the column to propose as the human label: the first of columns named as
 * in LABEL_NAMES (in that order of preference; a dotted path is matched by its last part), else
 * as in QUESTION_NAMES (HaluEval's hallucination), or null. The user can pick any column, or none.
 * @param {string[]} columns the dataset's columns or paths
 * @returns {string|null}
 */
export function suggestLabelColumn(columns) {
  const names = [...LABEL_NAMES, ...QUESTION_NAMES];
  /** @type {string|null} */
  let best = null;
  let rank = names.length;
  for (const c of columns) {
    const k = key(c.includes(".") ? c.slice(c.lastIndexOf(".") + 1) : c);
    const i = names.indexOf(k);
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
 * boolean), with answer set for an answer (true/false, yes/no, 1/0: bool is whether the column's
 * question holds), {num} for a number (0 and 1 are both, as are "0.0" and "1.0", as pandas writes
 * a column of 0 and 1 with gaps), or {text} when it is neither.
 * @param {any} v
 * @returns {{empty?: true, bool?: boolean, answer?: true, num?: number, text?: string}}
 */
export function readCell(v) {
  if (v === undefined || v === null) return { empty: true };
  if (typeof v === "boolean") return { bool: v, answer: true };
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return { text: String(v) };
    return v === 0 || v === 1 ? { bool: v === 1, answer: true, num: v } : { num: v };
  }
  const s = typeof v === "string" ? v.trim() : JSON.stringify(v);
  if (s === "") return { empty: true };
  const w = s.toLowerCase().replace(/\s+/g, " ");
  const verdict = VERDICTS.get(w);
  if (verdict !== undefined) return { bool: verdict };
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : NaN;
  const answer = ANSWERS.get(w) ?? (n === 0 || n === 1 ? n === 1 : undefined);
  if (answer !== undefined) return Number.isFinite(n) ? { bool: answer, answer: true, num: n } : { bool: answer, answer: true };
  if (Number.isFinite(n)) return { num: n };
  return { text: s };
}

/**
 * readLabels reads column of every row as a label. The column's kind is boolean when every
 * readable cell is a boolean word or 0/1, number when every one is a number; when both kinds
 * occur, the more frequent one wins and the other cells are unreadable. An answer (yes, true, 1)
 * is a pass or a failure as yes says ("pass" or "fail"; by default from the column's name:
 * yesMeansFromName).
 * @param {any[]} rows the dataset's rows (or the items' sources), by row index
 * @param {string} column
 * @param {"pass"|"fail"} [yes]
 * @returns {Labels}
 */
export function readLabels(rows, column, yes) {
  const cells = rows.map((r) => readCell(cellAt(r, column)));
  const yesChosen = yes === "pass" || yes === "fail";
  const yesMeans = yesChosen ? yes : yesMeansFromName(column);
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
  const out = { column, kind, values: new Array(rows.length).fill(null), given: 0, missing: 0, unreadable: [], passing: 0, yes: yesMeans, yesChosen, answers: 0 };
  cells.forEach((c, i) => {
    if (c.empty) return void out.missing++;
    let v = kind === "boolean" ? c.bool : kind === "number" ? c.num : undefined;
    if (v === undefined) {
      out.unreadable.push({ row: i + 1, text: c.text !== undefined ? c.text : String(cellAt(rows[i], column)) });
      return;
    }
    if (kind === "boolean" && c.answer) {
      out.answers++;
      if (yesMeans === "fail") v = !v;
    }
    out.values[i] = v;
    out.given++;
    if (v === true) out.passing++;
  });
  return out;
}

/**
 * labelSummary says in one sentence what a label column holds: "82 boolean labels (50 pass,
 * 32 fail), 18 rows without one", and, when it holds answers (yes/no, true/false, 1/0), what a
 * yes was read as and why.
 * @param {Labels} l
 * @returns {string}
 */
export function labelSummary(l) {
  if (!l.kind) return `${l.column} holds no label that can be read: use pass/fail, true/false, yes/no, 1/0, factual/hallucinated, supported/unsupported, correct/incorrect (and the like) or numbers.`;
  const s = (/** @type {number} */ n, /** @type {string} */ w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  let text = l.kind === "boolean" ? `${s(l.given, "boolean label")} (${l.passing} pass, ${l.given - l.passing} fail)` : `${s(l.given, "numeric label")}, compared with the judge's score`;
  if (l.missing) text += `, ${s(l.missing, "row")} without one`;
  if (l.unreadable.length) text += `; ${l.unreadable.length} unreadable (not counted)`;
  const yes = yesNote(l);
  return text + "." + (yes ? " " + yes : "");
}

/**
 * yesNote says what a yes, true or 1 of a boolean column was read as and why, or "" when the
 * column holds none (only verdict words such as pass/fail).
 * @param {Labels} l
 * @returns {string}
 */
export function yesNote(l) {
  if (l.kind !== "boolean" || !l.answers) return "";
  if (l.yes === "pass") return `Yes, true and 1 are read as pass${l.yesChosen ? " (your choice)" : ""}.`;
  return `Yes, true and 1 are read as FAIL${l.yesChosen ? " (your choice)" : `: the column's name (${l.column}) asks about a fault`}.`;
}

/**
 * labelExportFields are the fields an export adds to each row of a run compared with human
 * labels (export.js Extra): the row's label and whether the judge agrees with it.
 * @param {Labels} labels
 * @param {(boolean|null)[]} agrees stats/agreement.js rowAgreement's
 * @returns {import("../batch/export.js").Extra}
 */
export function labelExportFields(labels, agrees) {
  return { keys: ["label", "agrees"], of: (i) => ({ label: labels.values[i] === undefined ? null : labels.values[i], agrees: agrees[i] === undefined ? null : agrees[i] }) };
}
