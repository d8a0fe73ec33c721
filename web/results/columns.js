// columns.js: which of a dataset's columns a run's rows carry, and which one names each row (its
// id): what an export joins back to the dataset by, and what two runs are compared row by row by.

/** Column names that hold a row's id, compared without case, spaces, hyphens or underscores. */
const ID_NAMES = ["id", "uuid", "rowid", "sampleid", "exampleid", "queryid", "questionid", "testid", "caseid", "testcaseid", "recordid", "itemid", "qid", "guid", "datapointid"];

/**
 * sourceColumns is the union of the source rows' keys in first-seen order, or columns when given
 * (the dataset's own order: a JS object lists keys like "2023" first).
 * @param {any[]} items
 * @param {string[] | null} [columns]
 * @returns {string[]}
 */
export function sourceColumns(items, columns = null) {
  const seen = new Set(columns || []);
  const out = [...seen];
  for (const it of items) {
    if (!it || !it.source || typeof it.source !== "object") continue;
    for (const k of Object.keys(it.source)) {
      if (!seen.has(k)) seen.add(k), out.push(k);
    }
  }
  return out;
}

/**
 * idColumn is the source column that identifies rows: the first column named like an id (`id`,
 * `_id`, `uuid`, `row_id`, `sample_id`, `query_id`, … in that order of preference) whose values
 * are present, scalar and distinct in every row; null when there is none.
 * @param {any[]} items
 * @param {string[]} columns
 * @returns {string | null}
 */
export function idColumn(items, columns) {
  const key = (/** @type {string} */ c) => c.toLowerCase().replace(/[\s_-]+/g, "");
  const candidates = columns.filter((c) => ID_NAMES.includes(key(c))).sort((a, b) => ID_NAMES.indexOf(key(a)) - ID_NAMES.indexOf(key(b)));
  for (const c of candidates) {
    const seen = new Set();
    let ok = true;
    for (const it of items) {
      const v = it && it.source ? it.source[c] : undefined;
      if ((typeof v !== "string" && typeof v !== "number") || v === "" || seen.has(String(v))) {
        ok = false;
        break;
      }
      seen.add(String(v));
    }
    if (ok && seen.size) return c;
  }
  return null;
}
