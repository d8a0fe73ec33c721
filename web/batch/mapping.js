// mapping.js: which dataset column feeds which evaluator input, and a row's inputs through that
// mapping. The core holds the rules, in one alias table (rj.mapColumns: RAGAS, DeepEval, GroUSE,
// ARES, RAGChecker, promptfoo `vars`, TruLens and Phoenix names) and one reader of cells
// (rj.rowInputs: JSON and Python lists, DeepEval's `a|b`, document objects); this module only
// calls them and shapes their answers for the Batch view.

/**
 * @typedef {{input: string, column: string, alias: string, tool?: string, nested?: string, guess?: boolean}} ColumnMatch
 * one guessed mapping and the name it was recognised by: `question ← user_input (RAGAS)`.
 * @typedef {{severity: "error"|"warning", code: string, message: string, input?: string, line?: number, col?: number, len?: number}} Check
 * @typedef {{index: number, source: Object, inputs?: Object<string, any>, notes?: string[], error?: string, checks?: Check[]}} Item
 * a row ready to judge ({inputs}, with notes on what was converted) or not ({error}); checks
 * carry the codes; index is the row's 0-based place among the dataset's rows and source the
 * row itself, which exports carry so that results join back to the dataset.
 */

/**
 * detectMatches asks the core for the mapping of columns onto the evaluator's inputs and the name
 * each was recognised by. Only inputs of the evaluator are kept.
 * @param {any} rj the loaded engine
 * @param {{id: string, inputs: {name: string}[]}} evaluator
 * @param {string[]} columns the columns and the paths inside them (readDataset's `paths`)
 * @returns {{mapping: Object<string, string>, matches: ColumnMatch[]}}
 */
export function detectMatches(rj, evaluator, columns) {
  const r = rj.mapColumns(evaluator.id, columns);
  const names = new Set(evaluator.inputs.map((i) => i.name));
  /** @type {Object<string, string>} */
  const mapping = {};
  for (const input of evaluator.inputs) if (r.mapping[input.name]) mapping[input.name] = r.mapping[input.name];
  const matches = (r.matches || []).filter((/** @type {ColumnMatch} */ m) => names.has(m.input));
  return { mapping, matches };
}

/**
 * detectMapping is detectMatches' mapping alone: {inputName: column}.
 * @param {any} rj
 * @param {{id: string, inputs: {name: string}[]}} evaluator
 * @param {string[]} columns
 * @returns {Object<string, string>}
 */
export function detectMapping(rj, evaluator, columns) {
  return detectMatches(rj, evaluator, columns).mapping;
}

/**
 * matchLabel words a match for the preview: `user_input (RAGAS)`, `vars.question (promptfoo)`.
 * @param {ColumnMatch} m
 * @returns {string}
 */
export function matchLabel(m) {
  return m.tool ? `${m.column} (${m.tool})` : m.column;
}

/**
 * prepareItems turns dataset rows into items, one per row, in order. An unreadable row (dataset
 * errors) is not in rows; the caller lists those separately.
 * @param {any} rj
 * @param {{id: string, inputs: {name: string, required: boolean}[]}} evaluator
 * @param {Object[]} rows
 * @param {Object<string, string>} mapping
 * @param {number} [first] the 0-based index of rows[0] in the dataset, for the messages
 * @returns {Item[]}
 */
export function prepareItems(rj, evaluator, rows, mapping, first = 0) {
  const items = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    let item;
    try {
      item = fromRJ(evaluator, rj.rowInputs(evaluator.id, rows[i], mapping), first + i);
    } catch (e) {
      const err = /** @type {any} */ (e);
      item = { error: "Row " + (first + i + 1) + ": " + ((err && (err.detail || err.message)) || String(err)), checks: [] };
    }
    items[i] = { index: first + i, source: rows[i], ...item };
  }
  return items;
}

/**
 * fromRJ reads rj.rowInputs' {inputs, checks}: a row with an error check (a required input
 * missing or unreadable) cannot be judged, and its error checks are the error; warnings are notes
 * on what was converted.
 * @param {{inputs: {name: string, required: boolean}[]}} evaluator
 * @param {{inputs: Object<string, any>, checks: Check[]}} r
 * @param {number} i the row's 0-based index
 * @returns {{inputs?: Object<string, any>, notes?: string[], error?: string, checks: Check[]}}
 */
function fromRJ(evaluator, r, i) {
  const inputs = r.inputs || {};
  const checks = Array.isArray(r.checks) ? r.checks : [];
  const errors = checks.filter((c) => c.severity === "error");
  const missing = evaluator.inputs.filter((inp) => inp.required && (inputs[inp.name] === undefined || inputs[inp.name] === null));
  if (errors.length || missing.length) {
    const why = errors.length ? errors.map((c) => c.message).join("; ") : missing.map((m) => m.name + ": no value").join("; ");
    return { error: "Row " + (i + 1) + ": " + why, checks };
  }
  const notes = checks.map((c) => c.message);
  return notes.length ? { inputs, notes, checks } : { inputs, checks };
}

/**
 * prepareItemsAsync is prepareItems in slices, yielding between them so a 10,000-row file does
 * not freeze the page. It returns null when isStale() says the work is no longer wanted.
 * @param {any} rj
 * @param {{id: string, inputs: {name: string, required: boolean}[]}} evaluator
 * @param {Object[]} rows
 * @param {Object<string, string>} mapping
 * @param {{slice?: number, yieldFn?: () => Promise<void>, isStale?: () => boolean}} [opts]
 * @returns {Promise<Item[] | null>}
 */
export async function prepareItemsAsync(rj, evaluator, rows, mapping, { slice = 400, yieldFn, isStale = () => false } = {}) {
  const out = [];
  for (let i = 0; i < rows.length; i += slice) {
    if (isStale()) return null;
    out.push(...prepareItems(rj, evaluator, rows.slice(i, i + slice), mapping, i));
    if (yieldFn && i + slice < rows.length) await yieldFn();
  }
  return out;
}
