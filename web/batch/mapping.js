// mapping.js: which dataset column feeds which evaluator input, and a row's inputs through that
// mapping. The core does this (rj.mapColumns, rj.rowInputs: RAGAS names, promptfoo `vars`, JSON
// lists in CSV cells); this module calls it, and only when the loaded wasm does not have those
// functions yet falls back to a small JS version of the same rules, so the Batch view still works.

/** ALIASES: the common dataset names for each input, best first (RAGAS, DeepEval, promptfoo, ours). */
export const ALIASES = {
  question: ["question", "user_input", "query", "input", "prompt"],
  answer: ["answer", "response", "actual_output", "output"],
  actual_output: ["actual_output", "response", "answer", "output"],
  expected_output: ["expected_output", "reference", "ground_truth", "expected", "expected_answer"],
  contexts: ["contexts", "retrieved_contexts", "context", "documents"],
  evidence: ["evidence", "retrieved_contexts", "contexts", "context", "documents"],
  facts: ["facts", "reference", "ground_truth", "retrieved_contexts", "contexts"],
  claims: ["claims", "statements"],
  passage_gt: ["passage_gt", "reference", "ground_truth"],
  passage_llm: ["passage_llm", "response", "answer"],
  mode: ["mode"],
};

function missingFn(e) {
  return e && e.kind === "internal" && /does not have/.test(e.message || "");
}

/** jsDetect: for each input, the first column matching its name or an alias (case-insensitive), also under vars. */
export function jsDetect(evaluator, columns) {
  const byLower = new Map();
  for (const c of columns) {
    const l = c.toLowerCase();
    if (!byLower.has(l)) byLower.set(l, c);
  }
  const mapping = {};
  for (const input of evaluator.inputs) {
    const names = [input.name, ...(ALIASES[input.name] || [])];
    for (const n of names) {
      const c = byLower.get(n) || byLower.get("vars." + n);
      if (c) {
        mapping[input.name] = c;
        break;
      }
    }
  }
  return mapping;
}

function getPath(row, path) {
  if (Object.prototype.hasOwnProperty.call(row, path)) return row[path];
  let v = row;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, part)) return undefined;
    v = v[part];
  }
  return v;
}

/** jsRowInputs: the inputs of one row; throws an Error naming the input for a missing required one. */
export function jsRowInputs(evaluator, row, mapping) {
  const inputs = {};
  for (const input of evaluator.inputs) {
    const col = mapping[input.name];
    let v = col ? getPath(row, col) : undefined;
    if (v === undefined || v === null || v === "") {
      if (input.required) throw new Error(`${input.name}: ${col ? `column "${col}" is empty` : "no column is mapped to it"}`);
      continue;
    }
    const listy = input.kind === "list" || input.kind === "claims" || input.kind === "evidence";
    if (listy && typeof v === "string") {
      const t = v.trim();
      if (t.startsWith("[")) {
        try {
          v = JSON.parse(t);
        } catch {
          throw new Error(`${input.name}: column "${col}" starts like a JSON list but is not one`);
        }
      } else v = [v];
    }
    if (input.kind === "text" && typeof v !== "string") v = Array.isArray(v) ? v.join("\n") : JSON.stringify(v);
    inputs[input.name] = v;
  }
  return inputs;
}

/** detectMapping: rj.mapColumns, or the JS fallback. Only columns that exist are kept. */
export function detectMapping(rj, evaluator, columns) {
  let m = null;
  if (rj && typeof rj.mapColumns === "function") {
    try {
      m = rj.mapColumns(evaluator.id, columns);
    } catch (e) {
      if (!missingFn(e)) throw e;
    }
  }
  if (!m) m = jsDetect(evaluator, columns);
  const out = {};
  for (const input of evaluator.inputs) if (m[input.name]) out[input.name] = m[input.name];
  return out;
}

/**
 * prepareItems turns dataset rows into [{inputs} | {error}], one per row, in order. An unreadable
 * row (dataset errors) is not in rows; the caller lists those separately.
 */
export function prepareItems(rj, evaluator, rows, mapping) {
  let useRJ = !!(rj && typeof rj.rowInputs === "function");
  const items = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    try {
      if (useRJ) {
        try {
          items[i] = fromRJ(evaluator, rj.rowInputs(evaluator.id, rows[i], mapping), i);
          continue;
        } catch (e) {
          if (!missingFn(e)) throw e;
          useRJ = false;
        }
      }
      items[i] = { inputs: jsRowInputs(evaluator, rows[i], mapping) };
    } catch (e) {
      items[i] = { error: "Row " + (i + 1) + ": " + ((e && (e.detail || e.message)) || String(e)) };
    }
  }
  return items;
}

/**
 * fromRJ reads rj.rowInputs' {inputs, messages}: a row missing a required input cannot be judged
 * (its messages are the error); otherwise the messages are notes on what was adjusted.
 */
function fromRJ(evaluator, r, i) {
  const inputs = r && r.inputs !== undefined ? r.inputs || {} : r || {};
  const messages = (r && Array.isArray(r.messages) ? r.messages : []).map(String);
  const missing = evaluator.inputs.filter((inp) => inp.required && (inputs[inp.name] === undefined || inputs[inp.name] === null));
  if (missing.length) {
    const why = messages.length ? messages.join("; ") : missing.map((m) => m.name + ": no value").join("; ");
    return { error: "Row " + (i + 1) + ": " + why };
  }
  return messages.length ? { inputs, notes: messages } : { inputs };
}

/** prepareItemsAsync is prepareItems in slices, yielding between them so a 10,000-row file does not freeze the page. */
export async function prepareItemsAsync(rj, evaluator, rows, mapping, { slice = 400, yieldFn, isStale = () => false } = {}) {
  const out = [];
  for (let i = 0; i < rows.length; i += slice) {
    if (isStale()) return null;
    const part = prepareItems(rj, evaluator, rows.slice(i, i + slice), mapping);
    // prepareItems numbers rows from 1 within the slice; renumber to the dataset's rows.
    for (let k = 0; k < part.length; k++) {
      if (part[k].error) part[k].error = part[k].error.replace(/^Row \d+:/, "Row " + (i + k + 1) + ":");
      out.push(part[k]);
    }
    if (yieldFn && i + slice < rows.length) await yieldFn();
  }
  return out;
}
