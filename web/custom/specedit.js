// specedit.js: custom evaluators as the page handles them, pure functions of their values (Node tests
// cover them): a fresh spec, a copy with a free id, the description the page draws an evaluator
// from before the engine has checked it, inputs suggested from the names a template reads, the
// export file and the reading of an imported one. What a spec means is the core's to check
// (rj.checkEvaluator); this only makes sure a file holds spec-shaped values before it is asked.

/**
 * @typedef {{name: string, label?: string, kind?: string, required?: boolean}} SpecInput
 * @typedef {{id: string, title?: string, description?: string, dialect?: string, prompt?: string,
 *   messages?: {role: string, content: string}[], inputs?: SpecInput[], output?: any,
 *   words?: {passed: string, failed: string}, example?: {inputs: any, answer: string}}} Spec
 */

/** ID_RE is what an evaluator id may be made of. */
export const ID_RE = /^[a-z0-9-]+$/;

/** OUTPUT_KINDS are the readers a custom evaluator can have, in the order the editor offers them. */
export const OUTPUT_KINDS = ["yes-no", "score", "label", "json", "builtin"];

/** EXPORT_FORMAT marks a file of several evaluators written by this page. */
export const EXPORT_FORMAT = "ragjudge.evaluators";

/**
 * defaultOutput is a fresh reader of kind, with the settings a person would start from.
 * @param {string} kind @returns {any}
 */
export function defaultOutput(kind) {
  switch (kind) {
    case "score":
      return { kind, label: "Score", min: 1, max: 5, pass_at: 4 };
    case "label":
      return { kind, labels: { correct: true, "partially correct": null, incorrect: false } };
    case "json":
      return { kind, pass: "$.verdict", pass_values: [true, "pass"], score: "$.score", reason: "$.reason" };
    case "builtin":
      return { kind, evaluator: "claim-groundedness" };
    default:
      return { kind: "yes-no", pass: "yes" };
  }
}

/**
 * blankSpec is "new from scratch": a short yes/no judge prompt over a question and an answer, so
 * the editor shows a whole prompt, preview and verdict at once; id is free among taken.
 * @param {Iterable<string>} taken @returns {Spec}
 */
export function blankSpec(taken = []) {
  return {
    id: freeId("my-evaluator", taken),
    title: "My evaluator",
    description: "",
    dialect: "jinja",
    prompt: "You are judging an answer to a question.\n\nQuestion: {{ question }}\n\nAnswer: {{ answer }}\n\nIs the answer correct and complete? Reply with yes or no only.",
    inputs: [
      { name: "question", label: "Question", kind: "text", required: true },
      { name: "answer", label: "Answer", kind: "text", required: true },
    ],
    output: defaultOutput("yes-no"),
  };
}

/**
 * freeId is base (made a valid id) or base-2, base-3, … : the first not in taken.
 * @param {string} base @param {Iterable<string>} taken @returns {string}
 */
export function freeId(base, taken) {
  const used = new Set(taken);
  const clean =
    String(base || "")
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/-+/g, "-")
      .replace(/^-|-$/g, "") || "my-evaluator";
  if (!used.has(clean)) return clean;
  for (let i = 2; ; i++) if (!used.has(`${clean}-${i}`)) return `${clean}-${i}`;
}

/**
 * copyOf is spec as a new evaluator of the user's: a free id ("<id>-copy"), "(copy)" in its title
 * unless asked not to, everything else the same.
 * @param {Spec} spec @param {Iterable<string>} taken @param {{suffix?: string, title?: string}} [opts]
 * @returns {Spec}
 */
export function copyOf(spec, taken, { suffix = "copy", title } = {}) {
  const s = structuredClone(spec);
  s.id = freeId(suffix ? `${spec.id}-${suffix}` : spec.id, taken);
  s.title = title ?? (spec.title ? `${spec.title} (${suffix || "copy"})` : s.id);
  return s;
}

/**
 * templatesOf lists a spec's templates with the field path the core's checks name them by:
 * "prompt", or "messages[i].content".
 * @param {Spec} spec @returns {{path: string, source: string, role?: string}[]}
 */
export function templatesOf(spec) {
  if (Array.isArray(spec.messages)) return spec.messages.map((m, i) => ({ path: `messages[${i}].content`, source: String((m && m.content) ?? ""), role: m && m.role }));
  return [{ path: "prompt", source: String(spec.prompt ?? "") }];
}

/**
 * labelOf is the label a person would give an input named name: "retrieved_contexts" →
 * "Retrieved contexts".
 * @param {string} name @returns {string}
 */
export function labelOf(name) {
  const words = String(name).replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : String(name);
}

// LIST_NAMES are names that hold several texts in the datasets people bring (RAGAS, DeepEval,
// promptfoo), guessed as lists; anything else starts as text and the user says otherwise.
const LIST_NAMES = /^(contexts?|retrieved_contexts|retrieval_context|context_list|documents|docs|passages|chunks|facts|references|sources|evidence|citations|claims|items)$/i;

/**
 * @typedef {SpecInput & {auto?: boolean, unused?: boolean}} EditInput an input as the editor
 *   holds it: auto when the editor added it (not the user), unused while no template reads it
 */

/**
 * syncInputs keeps the inputs table in step with the names the templates read, as they are typed:
 * a name read and not declared is added (marked auto: added by the editor, not the user); an input
 * the editor added that is no longer read goes, so a name typed letter by letter leaves no trail;
 * an input the user touched (auto cleared) stays, marked unused while no template reads it.
 *
 * With a built-in's reader, `reader` says what it brings (rj.checkEvaluator's provided, and the
 * built-in's own inputs): a name it provides is never made an input (claim-groundedness's reports,
 * which its reader makes of claims); an input of its own is declared as the built-in declares it,
 * and the ones it requires are declared even when no template reads them (claims): its reader
 * reads them. Neither goes when no template reads it.
 * @param {EditInput[]} current
 * @param {string[]} names
 * @param {{provided?: string[], own?: SpecInput[]}} [reader]
 * @returns {EditInput[]}
 */
export function syncInputs(current, names, { provided = [], own = [] } = {}) {
  const read = new Set(names);
  const mine = (/** @type {string} */ n) => own.find((i) => i.name === n);
  const kept = current.filter((i) => !(i.auto && !read.has(i.name) && !mine(i.name)) && !(i.auto && provided.includes(i.name) && !mine(i.name)));
  const out = kept.map((i) => {
    const { unused, ...rest } = i;
    return read.has(i.name) || mine(i.name) ? rest : { ...rest, unused: true };
  });
  const have = new Set(kept.map((i) => i.name));
  for (const n of names) {
    if (have.has(n) || (provided.includes(n) && !mine(n))) continue;
    const decl = mine(n);
    out.push(decl ? { ...structuredClone(decl) } : { name: n, label: labelOf(n), kind: LIST_NAMES.test(n) ? "list" : "text", required: true, auto: true });
    have.add(n);
  }
  for (const decl of own) if (decl.required && !have.has(decl.name)) out.push({ ...structuredClone(decl) }), have.add(decl.name);
  return out;
}

/**
 * cleanInputs drops the editor's own marks (auto, unused) before a spec is saved or checked; what
 * else an input holds (a duplicated built-in's help, choices, judged) is kept.
 * @param {(SpecInput & {auto?: boolean, unused?: boolean})[]} inputs @returns {SpecInput[]}
 */
export function cleanInputs(inputs) {
  return inputs.map(({ auto, unused, ...i }) => ({ ...i, label: i.label || labelOf(i.name), kind: i.kind || "text", required: !!i.required }));
}

/**
 * describe is the description the page draws a custom evaluator from before the engine has
 * defined it (after that, the engine's own entry of rj.evaluators() is merged over it): the
 * fields rj.evaluators() gives, from the spec alone.
 * @param {Spec} spec
 * @param {{example?: {inputs: any, answer: string}}} [extra]
 */
export function describe(spec, { example } = {}) {
  const out = spec.output || {};
  const inputs = (Array.isArray(spec.inputs) ? spec.inputs : []).map((i) => ({ ...i, label: i.label || labelOf(i.name), kind: i.kind || "text", required: !!i.required }));
  /** @type {any} */
  const d = {
    id: spec.id,
    order: 1000,
    title: spec.title || spec.id,
    description: spec.description || "",
    dialect: spec.dialect || "jinja",
    inputs,
    output: out,
    custom: true,
    spec,
    words: spec.words && spec.words.passed && spec.words.failed ? spec.words : { passed: "Passed", failed: "Failed" },
  };
  if (out.kind === "score" && typeof out.max === "number") d.score = { kind: "scale", max: out.max, decimals: 2 };
  if (example) d.example = example;
  else if (spec.example) d.example = spec.example;
  return d;
}

/**
 * exportFile is the text of the .json file an export writes: one spec as it is (an evaluator is a
 * JSON document), or several as {format, version, evaluators}.
 * @param {Spec[]} specs @returns {string}
 */
export function exportFile(specs) {
  const body = specs.length === 1 ? specs[0] : { format: EXPORT_FORMAT, version: 1, evaluators: specs };
  return JSON.stringify(body, null, 2) + "\n";
}

/**
 * readImport reads the text of an imported file: one spec, an array of specs, or an export of
 * several. It returns each JSON object in it as a spec to check, with the name the import's
 * messages call it by ("Evaluator 2 (tone)"), and, for the rest, one error each that says which
 * and why ("Evaluator 5: not a JSON object"); the file itself unreadable is one error with where
 * the JSON stopped. What is wrong inside an object rj.checkEvaluator says, every problem at once
 * with its field path: a check here would stop at the first.
 * @param {string} text
 * @returns {{specs: Spec[], names: string[], errors: string[]}}
 */
export function readImport(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { specs: [], names: [], errors: [`The file is not JSON: ${e instanceof Error ? e.message : String(e)}.`] };
  }
  let list;
  if (Array.isArray(doc)) list = doc;
  else if (doc && typeof doc === "object" && doc.format === EXPORT_FORMAT) {
    if (!Array.isArray(doc.evaluators)) return { specs: [], names: [], errors: ['The file says it holds evaluators but its "evaluators" is not a list.'] };
    list = doc.evaluators;
  } else if (doc && typeof doc === "object") list = [doc];
  else return { specs: [], names: [], errors: ["The file holds a " + (doc === null ? "null" : typeof doc) + ", not an evaluator (a JSON object)."] };
  if (!list.length) return { specs: [], names: [], errors: ["The file holds no evaluator."] };
  /** @type {Spec[]} */
  const specs = [];
  const names = [];
  const errors = [];
  list.forEach((s, i) => {
    const which = list.length > 1 ? `Evaluator ${i + 1}` : "The evaluator";
    if (!s || typeof s !== "object" || Array.isArray(s)) {
      errors.push(`${which}: not a JSON object.`);
      return;
    }
    specs.push(s);
    names.push(`${which}${typeof s.id === "string" && s.id ? ` (${s.id})` : ""}`);
  });
  return { specs, names, errors };
}

/**
 * importProblem is what the import says of an evaluator it refuses: its name, then every error
 * of its check (rj.checkEvaluator) with its field path.
 * @param {string} name @param {{path?: string, line?: number, message: string}[]} errors @returns {string}
 */
export function importProblem(name, errors) {
  return `${name}: ${errors.map(errorAt).join("; ")}.`;
}

/**
 * sampleValue is the preview's starting value for an input: its label, marked as a sample.
 * @param {SpecInput} input @returns {string|string[]}
 */
export function sampleValue(input) {
  const l = input.label || labelOf(input.name);
  return input.kind === "list" ? [`${l} 1`, `${l} 2`] : `(${l.toLowerCase()})`;
}

/**
 * isSampleValue says whether v is an input's made-up starting value (sampleValue, under its
 * label or its name's), not one the user gave: Evaluate's example leaves those out, so that a
 * new evaluator does not fill its form with "(question)".
 * @param {SpecInput} input @param {unknown} v @returns {boolean}
 */
export function isSampleValue(input, v) {
  const same = (/** @type {unknown} */ w) => JSON.stringify(w) === JSON.stringify(v);
  return same(sampleValue(input)) || same(sampleValue({ ...input, label: labelOf(input.name) }));
}

/**
 * fitsKind says whether v is a value an input of kind takes as it is: a text (text, choice), a
 * number or a text of one (number), a list of texts (list), a list of texts or {id?, text}
 * (claims) or {title?, text} (evidence) objects.
 * @param {string|undefined} kind @param {unknown} v @returns {boolean}
 */
export function fitsKind(kind, v) {
  const str = (/** @type {unknown} */ x) => typeof x === "string";
  const item = (/** @type {any} */ x, /** @type {string} */ key) => str(x) || (!!x && typeof x === "object" && !Array.isArray(x) && str(x.text) && (x[key] === undefined || str(x[key])));
  switch (kind) {
    case "list":
      return Array.isArray(v) && v.every(str);
    case "claims":
    case "evidence":
      return Array.isArray(v) && v.every((x) => item(x, kind === "claims" ? "id" : "title"));
    case "number":
      return (typeof v === "number" && Number.isFinite(v)) || (str(v) && /** @type {string} */ (v).trim() !== "" && Number.isFinite(Number(v)));
    default:
      return str(v);
  }
}

/**
 * sampleOf is the editor's starting sample for a spec: its example's inputs and judge answer when
 * it has one (a starter's, a duplicated built-in's, an imported file's), so that the preview and
 * the verdict pane start from a realistic case; else each input's sampleValue and no answer.
 * Example values of the wrong shape for their input (fitsKind) are not taken.
 * @param {any} spec @returns {{sample: {inputs: Record<string, any>}, answer: string}}
 */
export function sampleOf(spec) {
  const ex = spec && spec.example && typeof spec.example === "object" ? spec.example : null;
  const given = ex && ex.inputs && typeof ex.inputs === "object" && !Array.isArray(ex.inputs) ? ex.inputs : {};
  /** @type {Record<string, any>} */
  const inputs = {};
  for (const i of (spec && Array.isArray(spec.inputs) ? spec.inputs : [])) {
    if (!i || typeof i.name !== "string") continue;
    const v = Object.prototype.hasOwnProperty.call(given, i.name) ? given[i.name] : undefined;
    inputs[i.name] = fitsKind(i.kind, v) ? structuredClone(v) : sampleValue(i);
  }
  return { sample: { inputs }, answer: ex && typeof ex.answer === "string" ? ex.answer : "" };
}

/**
 * exampleOfSample is the editor's sample made the evaluator's example (the editor's "Save as the
 * example"): the inputs the user gave, without the made-up starting values (isSampleValue) and
 * the empty ones, and the judge answer pasted beside them.
 * @param {SpecInput[]} declared @param {Record<string, any>} inputs @param {string} answer
 * @returns {{inputs: Record<string, any>, answer: string}}
 */
export function exampleOfSample(declared, inputs, answer) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const [name, v] of Object.entries(inputs)) {
    const input = declared.find((i) => i && i.name === name);
    const empty = v === undefined || v === "" || (Array.isArray(v) && !v.length);
    if (input && !empty && !isSampleValue(input, v)) out[name] = structuredClone(v);
  }
  return { inputs: out, answer };
}

/**
 * hasExampleIn says whether spec has an example to load: some input's value or a judge answer.
 * @param {any} spec @returns {boolean}
 */
export function hasExampleIn(spec) {
  const ex = spec && spec.example;
  return !!ex && typeof ex === "object" && ((!!ex.inputs && typeof ex.inputs === "object" && Object.keys(ex.inputs).length > 0) || (typeof ex.answer === "string" && ex.answer !== ""));
}

/**
 * removeField deletes the field at path from obj, in place (a check's path: "extra",
 * "output.pass-at", "inputs[2].colour"), for the editor's "Remove" of an unknown field, and says
 * whether there was one (a path that names nothing changes nothing).
 * @param {any} obj @param {string} path @returns {boolean}
 */
export function removeField(obj, path) {
  const steps = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]));
  let at = obj;
  for (const step of steps.slice(0, -1)) {
    at = at?.[step];
    if (!at || typeof at !== "object") return false;
  }
  const last = steps[steps.length - 1];
  if (last === undefined || !at || typeof at !== "object" || Array.isArray(at) || !Object.hasOwn(at, last)) return false;
  delete at[last];
  return true;
}

/**
 * errorAt is one error of a definition's check as a line of text: its field path (and line), then
 * its message, the path said once when the message starts with it ("inputs[0].name must be a
 * string" was shown as "inputs[0].name: inputs[0].name must be a string").
 * @param {{path?: string, line?: number, message: string}} e @returns {string}
 */
export function errorAt(e) {
  if (!e.path) return e.message;
  const msg = e.message.startsWith(e.path + " ") ? e.message.slice(e.path.length + 1) : e.message;
  return `${e.path}${e.line ? ` line ${e.line}` : ""}: ${msg}`;
}

/**
 * lineStarts is the offset at which each line of text starts (lines split at "\n").
 * @param {string} text @returns {number[]}
 */
export function lineStarts(text) {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) out.push(i + 1);
  return out;
}
