// chosen.js: the dataset last set up in the Batch view, remembered across a reload by its name,
// its mapping and its human-label column, never its rows. A browser gives a page no way to read a
// file again once it is reloaded, so the setup card asks for the file by name, and when that file
// is chosen again its mapping is the one the user left, not a fresh guess.

/** KEY is where the page's store keeps it (state.js), apart from the run options under "batch". */
const KEY = "batchDataset";

/**
 * @typedef {Object} Chosen
 * @property {string} name the file's name
 * @property {string} evaluator the evaluator its mapping is for
 * @property {Object<string, string>} mapping every input of that evaluator → its column, "" for one left unused
 * @property {string} label the human-label column ("" for none)
 * @property {string} labelYes what a yes in it means
 */

/**
 * chosenOf is the dataset set up before, or null.
 * @param {import("../shell/state.js").State} state
 * @returns {Chosen|null}
 */
export function chosenOf(state) {
  const c = state.get(KEY);
  return c && typeof c === "object" && typeof c.name === "string" && c.name ? c : null;
}

/**
 * keepChosen remembers what is set up: the file's name, and for evaluator ev every input's column.
 * @param {import("../shell/state.js").State} state
 * @param {{name: string, mapping: Object<string, string>, label: string, labelYes: string}} setup
 * @param {{id: string, inputs: {name: string}[]}} ev
 */
export function keepChosen(state, setup, ev) {
  const mapping = Object.fromEntries(ev.inputs.map((i) => [i.name, setup.mapping[i.name] || ""]));
  const next = { name: setup.name, evaluator: ev.id, mapping, label: setup.label || "", labelYes: setup.labelYes || "" };
  if (JSON.stringify(next) === JSON.stringify(state.get(KEY))) return;
  state.set({ [KEY]: next });
}

/**
 * keptMapping is the mapping remembered for file name and evaluator id, over the guessed one:
 * each input's kept column where the file still has it, an input left unused left so; null when
 * nothing was kept for this file and evaluator.
 * @param {Chosen|null} kept
 * @param {string} name
 * @param {string} id
 * @param {string[]} columns the columns (and paths) the file offers
 * @param {Object<string, string>} guessed
 * @returns {Object<string, string>|null}
 */
export function keptMapping(kept, name, id, columns, guessed) {
  if (!kept || kept.name !== name || kept.evaluator !== id) return null;
  const have = new Set(columns);
  const out = { ...guessed };
  for (const [input, col] of Object.entries(kept.mapping || {})) {
    if (col === "") delete out[input];
    else if (have.has(col)) out[input] = col;
  }
  return out;
}

/**
 * keptLabel is the human-label choice remembered for file name, when the file still has its column.
 * @param {Chosen|null} kept
 * @param {string} name
 * @param {string[]} columns
 * @returns {{label: string, labelYes: string}|null}
 */
export function keptLabel(kept, name, columns) {
  if (!kept || kept.name !== name || (kept.label && !columns.includes(kept.label))) return null;
  return { label: kept.label, labelYes: kept.labelYes };
}

/**
 * againText asks for the file chosen before a reload (its name said once, the page shows it bold).
 * @param {Chosen} kept
 */
export function againText(kept) {
  return `Choose ${kept.name} again: it was set up before this page reloaded, and a browser does not let a page read a file again by itself. Its mapping is kept.`;
}
