// ragjudge.js is ragjudge's JS API: one ES module, the same in browsers and in Node >= 20, that
// loads ragjudge.wasm (the Go core) and exposes it as synchronous functions.
//
//   import { load } from "./ragjudge.js";
//   const rj = await load();
//   const { prompt } = rj.render("answer-grounding", { answer: "Paris", facts: ["Paris is in France."] });
//   const verdict = rj.parse("answer-grounding", { answer: "Paris", facts: ["Paris is in France."] }, "Yes.");
//
// The wasm tells its version and functions through its rj_info export, so each load() is an
// independent instance and nothing is set on the global object. A call's arguments are checked
// and flattened by JSON's rules (objects keep their key order) into one byte buffer that Go
// copies in one go (wire.js; bridge/wire.go); inputs already sent are named by id instead
// (see call). Every result comes back as one text: JSON, {"ok": result} or {"error": {kind, code,
// name, line, col, message}}, with a long text (a prompt) after it unescaped (bridge/bridge.go).
// Loading the wasm and Go's wasm_exec.js is loadwasm.js's.

import { checkSpec, checkTemplates } from "./evaluatorspec.js";
import { compile, loadError, loadRuntime } from "./loadwasm.js";
import {
  W_HELD, W_LIST, W_NULL, W_STRING, flatten, heldValues, pack, textArg, utf8Decoder, withHeld,
} from "./wire.js";

/** @typedef {import("./wire.js").Held} Held */

/**
 * The error every ragjudge call throws for bad arguments, template errors and recall errors.
 * `line` and `col` are 1-based (columns count characters, i.e. Unicode code points) and are
 * present only where a position applies.
 */
export class RagJudgeError extends Error {
  /**
   * @param {string} message the full message, e.g. `template: <template>:1:4: unexpected "}}"`
   * @param {{kind?: string, code?: string, name?: string, path?: string, line?: number, col?: number, detail?: string}} [fields]
   */
  constructor(message, fields = {}) {
    super(message);
    this.name = "RagJudgeError";
    /** What failed: "input", "template", "recall", "output", "dataset", "load" or "internal". */
    this.kind = fields.kind ?? "input";
    /** The error's stable code where it has one (see the README's check codes), else "". */
    this.code = fields.code ?? "";
    /**
     * What the error is about: the template name ("<template>" for rj.template), the evaluator id,
     * or the function whose argument was wrong ("" when none). (`.name` is "RagJudgeError", as
     * for every Error subclass.)
     */
    this.subject = fields.name ?? "";
    /** The message without the kind, name and position prefix. */
    this.detail = fields.detail ?? message;
    if (fields.path) {
      /**
       * Where in a custom evaluator's definition the error is ("messages[1].content",
       * "output.pass_at"); `line` and `col` are then relative to that field's text.
       */
      this.path = fields.path;
    }
    if (fields.line) {
      /** 1-based line, when a position applies. */
      this.line = fields.line;
      /** 1-based column in characters, when a position applies. */
      this.col = fields.col || undefined;
    }
  }
}

/** @param {{kind: string, code?: string, name?: string, path?: string, line?: number, col?: number, message: string}} e */
function fromWire(e) {
  let loc = e.name ?? "";
  if (e.path) loc += (loc ? ": " : "") + e.path;
  if (e.line) {
    loc += (loc ? ":" : "") + e.line + (e.col ? ":" + e.col : "");
  }
  const full = (e.kind ? e.kind + ": " : "") + (loc ? loc + ": " : "") + e.message;
  return new RagJudgeError(full, { kind: e.kind, code: e.code, name: e.name, path: e.path, line: e.line, col: e.col, detail: e.message });
}


/**
 * @typedef {Object} Input
 * @property {string} name the key in `inputs`
 * @property {string} label
 * @property {"text"|"list"|"claims"|"evidence"|"choice"|"number"} kind
 * @property {boolean} required
 * @property {string[]} [choices] for kind "choice"; the first is the default
 * @property {string} [help]
 * @property {boolean} [judged] true on exactly one input of each evaluator: the one its verdict is
 *   about (the answer being judged, not the expected one or the evidence)
 */

/**
 * @typedef {Object} Evaluator
 * @property {string} id e.g. "claim-groundedness"
 * @property {string} title
 * @property {string} description
 * @property {"jinja"|"format"} dialect the seed prompt's template language
 * @property {Input[]} inputs
 * @property {string} output what the judge writes, in words
 * @property {boolean} custom true for an evaluator defined with define()
 * @property {EvaluatorSpec} [spec] a custom evaluator's definition, normalised (defaults filled in)
 */

/**
 * @typedef {Object} EvaluatorSpec a custom evaluator's definition (README "Custom evaluators")
 * @property {string} id `[a-z0-9-]+`, not a built-in's
 * @property {string} [title]
 * @property {string} [description]
 * @property {"jinja"|"format"} [dialect] default "jinja"
 * @property {string} [prompt] one user message (a template); or messages
 * @property {{role: "system"|"user"|"assistant", content: string}[]} [messages] each content a template
 * @property {{name: string, label?: string, kind?: string, required?: boolean, help?: string, judged?: boolean, choices?: string[]}[]} inputs
 * @property {Object} output the reader: {kind: "yes-no"|"score"|"label"|"json"|"builtin", ...}
 * @property {{passed: string, failed: string}} [words]
 * @property {{inputs: Object, answer: string}} [example]
 */

/**
 * @typedef {Check & {path: string}} SpecCheck a check of a definition: `path` is the field it is
 *   about ("inputs[2]", "messages[1].content"); `line`, `col`, `len` are inside that template
 */

/**
 * @typedef {Object} Span where one substitution landed in the prompt: `prompt.slice(start, end)`
 *   is the substituted text (offsets are JS string indices, UTF-16 code units).
 * @property {string} expr the expression, e.g. "question"
 * @property {string} input the input the substituted text comes from ("contexts" for
 *   `{{ passage }}` in `{% for passage in contexts %}`), "" for text of no input (`{{ loop.index }}`)
 * @property {number} start
 * @property {number} end
 */

/**
 * @typedef {Object} Rendered
 * @property {string} prompt
 * @property {{role: string, content: string}[]} messages one user message holding the prompt
 * @property {string[]} warnings
 * @property {Span[]} spans
 */

/**
 * @typedef {Object} Check
 * @property {"error"|"warning"} severity
 * @property {string} code stable, e.g. "answer.no-verdict" (the README's check codes): decide from it
 * @property {string} message for people; its wording may change
 * @property {string} [input] the input the check is about; absent: the judge's answer
 * @property {number} [line] 1-based line of the span the check is about, when there is one
 * @property {number} [col] 1-based column, in characters
 * @property {number} [len] the span's length, in characters
 */

/**
 * @typedef {Object} Verdict
 * @property {boolean|null} passed null when undetermined; then `checks` says why
 * @property {number|null} score
 * @property {Object} verdict evaluator-specific detail
 * @property {Check[]} checks
 */

/**
 * @typedef {Object} Recall
 * @property {number} essential rounded half up to at most 2 decimals
 * @property {number} bonus
 * @property {number} combined
 * @property {number} final min(5, combined)
 * @property {{essential: string, bonus: string, combined: string, final: string}} exact
 *   exact fractions, e.g. "7/2"
 * @property {string[]} lines the seed's own format, e.g. "RECALL_Essential_Formula: (4 + 3) / 2 = 3.5"
 */

/**
 * @typedef {Object} Dataset
 * @property {"jsonl"|"json"|"csv"|"tsv"} format the format given or detected
 * @property {string} [delimiter] for csv and tsv: ",", ";" or "\t"
 * @property {string[]} columns the union of the rows' keys, in first-seen order
 * @property {string[]} paths the columns and the dotted paths into object columns
 *   ("vars.question"): what a mapping may name
 * @property {Object[]} rows
 * @property {{line: number, col?: number, code: string, message: string}[]} errors rows that
 *   could not be read (codes `dataset.*`)
 * @property {{line: number, col?: number, row: number, code: string, message: string}[]} warnings
 *   rows loaded with a doubt (a quote kept as text); `row` is 1-based in `rows`
 */

/**
 * @typedef {Object} ColumnMatch why mapColumns chose a column: "question ← user_input (RAGAS)"
 * @property {string} input
 * @property {string} column the column or dotted path, as the dataset spells it
 * @property {string} alias the name of the alias table that matched (the input's own name, or a synonym)
 * @property {string} [tool] who writes that name ("RAGAS", "DeepEval, GroUSE"); absent for this tool's own names
 * @property {string} [nested] the object column it was found in ("vars")
 * @property {boolean} [guess] the path was not listed: the input's own name inside an object column
 */

/**
 * @typedef {Object} Agreement how the judge's verdicts agree with human labels (rj.agreement);
 *   every number that is undefined for the input is null, with a `*_reason` in words beside it
 * @property {number} pairs the pairs given: compared + no_label + undetermined
 * @property {number} compared pairs where the judge decided and the human label is given
 * @property {number} no_label pairs without a human label (whatever the judge said)
 * @property {number} undetermined pairs with a label but no verdict from the judge
 * @property {number} agree compared pairs where the two agree
 * @property {number|null} accuracy agree / compared
 * @property {number|null} kappa Cohen's κ over the compared pairs; null when undefined (no pair
 *   compared, or both gave one and the same class to every pair), then `kappa_reason` says why
 * @property {[number, number]|null} kappa_ci κ's 95% interval, κ ± 1.96·SE clipped to [−1, 1]
 * @property {number|null} kappa_se κ's large-sample standard error (Fleiss, Cohen & Everitt 1969)
 * @property {string} [kappa_reason]
 * @property {number|null} expected_agreement the agreement expected by chance (κ's p_e)
 * @property {{tt: number, tf: number, ft: number, ff: number, nt: number, nf: number}} matrix the
 *   confusion matrix: first letter the judge (t passed, f failed, n undetermined), second the human
 * @property {number|null} judge_fail_precision of the compared pairs the judge failed, the share
 *   the human failed too
 * @property {string} [judge_fail_precision_reason]
 * @property {number|null} judge_fail_recall of the compared pairs the human failed, the share the
 *   judge failed too
 * @property {string} [judge_fail_recall_reason]
 */

/**
 * @typedef {Object} Correlation how the judge's scores follow human scores (rj.correlation)
 * @property {number} n pairs where both scores are given (a null skips its pair)
 * @property {number|null} pearson Pearson's r; null when n < 2 or a side does not vary
 * @property {string} [pearson_reason]
 * @property {number|null} spearman Spearman's ρ, tied scores given their average rank
 * @property {string} [spearman_reason]
 * @property {number|null} mae the mean absolute difference, in the scores' unit; null when n = 0
 * @property {string} [mae_reason]
 */

/**
 * @typedef {Object} RowConsistency one row's repeated verdicts (rj.consistency)
 * @property {boolean|null} majority the most frequent of passed, failed and undetermined; null on
 *   a tie for the most frequent, when undetermined is the most frequent, and for no verdicts
 * @property {boolean} unanimous at least one verdict, all the same (undetermined counts as one)
 * @property {number} n @property {number} passed @property {number} failed
 * @property {number} undetermined
 */

/**
 * @typedef {Object} Consistency the judge's agreement with itself over repeats (rj.consistency)
 * @property {number} rows
 * @property {number} unanimous rows with verdicts, all the same
 * @property {number} split rows with two verdicts or more, not all the same
 * @property {number|null} fleiss_kappa Fleiss' κ with passed, failed and undetermined as its
 *   categories (pass a failed repeat as null, not left out), over the rows with the most common
 *   number of verdicts (two or more); null when undefined, then `fleiss_reason` says why
 * @property {string} [fleiss_reason]
 * @property {number} fleiss_rows the rows κ is over
 * @property {number} fleiss_repeats their number of verdicts each
 * @property {RowConsistency[]} per_row
 */

/**
 * @typedef {Object} Description the mean and spread of scores (rj.describe)
 * @property {number} n the scores given (a null is skipped)
 * @property {number|null} mean null when n = 0, with `mean_reason`
 * @property {number|null} sd the sample standard deviation (n − 1); null when n < 2, with `sd_reason`
 * @property {string} [mean_reason] @property {string} [sd_reason]
 */

/**
 * @typedef {Object} RagJudge
 * @property {string} version
 * @property {() => Evaluator[]} evaluators the built-in evaluators, in display order
 * @property {(id: string, inputs: Object) => Rendered} render renders evaluator `id`'s prompt
 * @property {(id: string, inputs: Object, output: string) => Verdict} parse reads the judge's
 *   answer `output`; never throws for a bad answer (that is `passed: null` with an error check),
 *   only for a bad id or inputs
 * @property {(scores: {essential: (number|string)[], bonus?: (number|string)[]}) => Recall} recall
 *   the recall formula, computed exactly; scores may be numbers or numeric strings ("3.5")
 * @property {(passageGT: string) => {essential: string[], bonus: string[]}} passages splits a
 *   ground truth at its [ESSENTIAL PASSAGE] / [BONUS PASSAGE] markers
 * @property {(source: string, dialect: "jinja"|"format", vars?: Object) => string} template
 *   renders any template in the Jinja subset or Python str.format
 * @property {(source: string, dialect: "jinja"|"format") => string[]} variables the names a
 *   template reads from its inputs, in the order of their first reads (not the names a loop,
 *   set, with, macro parameter or call block binds, nor Jinja's globals such as range or loop);
 *   throws as template does for a template that does not parse
 * @property {(text: string, format?: "jsonl"|"json"|"csv"|"tsv") => Dataset} readDataset reads a
 *   dataset; `format` omitted detects it
 * @property {(id: string, columns: string[]) => {mapping: Object<string, string>, matches: ColumnMatch[]}} mapColumns
 *   extension: guesses which column feeds each of evaluator `id`'s inputs from the column names
 *   (the core's one alias table: RAGAS, DeepEval, GroUSE, ARES, RAGChecker, promptfoo `vars.*`,
 *   TruLens, Phoenix and this tool's own input names); `mapping` is input name -> column (or
 *   dotted path, e.g. "vars.question"), in the evaluator's input order; inputs with no likely
 *   column are left out; `matches` says for each mapped input which name it was recognised by.
 *   Pass a dataset's `paths` to let it look inside object columns.
 * @property {(id: string, row: Object, mapping: Object<string, string>) => {inputs: Object, checks: Check[], messages: string[]}} rowInputs
 *   extension: evaluator `id`'s inputs taken from one dataset row through `mapping`, converted
 *   to each input's kind (a JSON or Python list in a CSV cell becomes a list, ...); `checks`
 *   (codes `input.*`, each with its `input`) say what is missing or unreadable (errors: the input
 *   is left out, so render() then fails on it) or was adjusted (warnings); `messages` are their
 *   messages
 * @property {(judge: (boolean|null)[], human: (boolean|null)[]) => Agreement} agreement the
 *   judge's verdicts against human labels, pair by pair (true passed, false failed, null
 *   undetermined or no label); the two lists must be of the same length
 * @property {(xs: (number|null)[], ys: (number|null)[]) => Correlation} correlation the judge's
 *   scores xs against human scores ys, pair by pair, pairs with a null skipped
 * @property {(rows: (boolean|null)[][]) => Consistency} consistency each row's repeated verdicts
 * @property {(xs: (number|null)[]) => Description} describe the mean and sample standard
 *   deviation of scores, nulls skipped (a row's scores over a run's repeats)
 * @property {(spec: EvaluatorSpec|string) => {id: string, inputs: Input[], warnings: SpecCheck[]}} define
 *   defines (or defines again) a custom evaluator from its definition (an object or its JSON
 *   text); render, parse, mapColumns and rowInputs then take its id. Throws a RagJudgeError of
 *   kind "evaluator" with the first problem's `code`, `path` and, inside a template, `line`/`col`
 * @property {(id: string) => boolean} undefine removes custom evaluator `id`; false if there is none
 * @property {(spec: EvaluatorSpec|string) => {ok: boolean, errors: SpecCheck[], warnings: SpecCheck[], variables: string[]}} checkEvaluator
 *   checks a definition without defining it and never throws for a bad one: every problem at once
 *   (for an editor's re-check on each keystroke); `variables` are the names its templates read
 * @property {(id: string) => EvaluatorSpec} spec evaluator `id` as an editable definition: a
 *   built-in's prompt, inputs and reader (output kind "builtin") under the id "<id>-copy", or a
 *   custom evaluator's own definition
 */

/**
 * specError is define()'s error for a definition with errors: the first one's code, path and
 * position, its message saying how many more there are.
 * @param {{spec: any, errors: {code: string, message: string, path: string, line?: number, col?: number}[]}} c
 */
function specError(c) {
  const [first] = c.errors;
  const more = c.errors.length - 1;
  const id = c.spec && typeof c.spec.id === "string" ? c.spec.id : "";
  return fromWire({ kind: "evaluator", code: first.code, name: id, path: first.path, line: first.line, col: first.col,
    message: first.message + (more ? ` (and ${more} more)` : "") });
}

/**
 * Loads the wasm and returns the API. All functions of the result are synchronous.
 *
 * @param {Object} [opts]
 * @param {string|URL|ArrayBuffer|ArrayBufferView|Response|Promise<Response>|WebAssembly.Module} [opts.wasm]
 *   where the wasm is: a URL, a path (Node) or the bytes; default: ragjudge.wasm beside this module
 * @param {string|URL} [opts.wasmExec] where Go's wasm_exec.js is; default: beside this module
 *   (not loaded at all when globalThis.Go is already defined)
 * @returns {Promise<RagJudge>}
 * @throws {RagJudgeError} kind "load" when the wasm or wasm_exec.js cannot be read
 */
export async function load(opts = {}) {
  const wasm = opts.wasm ?? new URL("./ragjudge.wasm", import.meta.url);
  // Fetching and compiling the wasm does not need Go's runtime: do both at once.
  const [module] = await Promise.all([compile(wasm), loadRuntime(opts.wasmExec)]);
  const go = new globalThis.Go();
  go.argv = ["ragjudge"];
  go.env = {};
  const instance = await WebAssembly.instantiate(module, go.importObject);

  // Go's main blocks at once, so run() returns with the exports callable; rj_info() puts the
  // version, the nesting limit and the functions' names in the outbox, one per line (see
  // wasm/main.go). Calls go through the instance's exports too.
  let exited = false;
  go.run(instance).then(
    () => (exited = true),
    () => (exited = true),
  );
  const ex = /** @type {any} */ (instance.exports);
  /** @type {{version: string, maxDepth: number, functions: string} | undefined} */
  let api;
  if (typeof ex.rj_info === "function" && typeof ex.rj_call === "function" && !go.exited) {
    const n = ex.rj_info() >>> 0; // first: the call can grow Go's memory
    const info = utf8Decoder.decode(new Uint8Array(ex.mem.buffer, ex.rj_outbox() >>> 0, n)).split("\n");
    api = { version: info[0], maxDepth: Number(info[1]), functions: info[2] ?? "" };
  }
  if (!api || typeof api.version !== "string" || typeof ex.rj_call !== "function") {
    throw loadError("the wasm did not register its functions (is it ragjudge.wasm?)");
  }
  /** @type {string[]} */
  const functions = String(api.functions ?? "").split(",");

  // How deep data arguments may nest: the engine's limit (value.MaxDepth).
  const maxDepth = Number.isInteger(api.maxDepth) ? api.maxDepth : 1000;

  // Held inputs: an object argument sent before goes by id (wire.js's heldValues).
  const hold = heldValues();

  /**
   * Calls Go function fn. params names its arguments: "$name" is a text argument, type-checked
   * here; "@name" is data Go may hold for later calls; the others are data. All are flattened
   * into one buffer (flatten, pack) that Go copies in one go.
   * @param {string} fn @param {string[]} params @param {unknown[]} values
   */
  function call(fn, params, values) {
    if (exited || go.exited) {
      throw new RagJudgeError("internal: the wasm has stopped after an earlier failure; load() it again",
        { kind: "internal", name: fn });
    }
    const tape = [W_LIST, params.length + 1, W_STRING];
    const strs = [fn];
    /** @type {{at: number, sAt: number, held: Held}[]} where a held argument goes in tape and strs */
    const helds = [];
    for (let k = 0; k < params.length; k++) {
      const p = params[k];
      const v = values[k];
      if (p[0] === "$") {
        const s = textArg(fn, p.slice(1), v);
        if (s === undefined) tape.push(W_NULL);
        else tape.push(W_STRING), strs.push(s);
      } else if (p[0] === "@" && typeof v === "object" && v !== null) {
        const t = /** @type {number[]} */ ([]), ss = /** @type {string[]} */ ([]);
        flatten(fn, p.slice(1), v, maxDepth, t, ss);
        const h = hold(v, t, ss);
        helds.push({ at: tape.length, sAt: strs.length, held: h });
        tape.push(W_HELD, h.id); // a placeholder: send() decides whether it holds or names it
      } else {
        flatten(fn, p[0] === "@" ? p.slice(1) : p, v, maxDepth, tape, strs);
      }
    }
    let text = send(fn, tape, strs, helds, false);
    if (text === '{"miss":true}') text = send(fn, tape, strs, helds, true);
    if (text.charCodeAt(0) === 82) {
      // "R": a long text after the JSON, unescaped (bridge/bridge.go).
      const nl = text.indexOf("\n");
      const head = JSON.parse(text.slice(1, nl));
      const raw = text.slice(nl + 1);
      return head.raw === "" ? raw : { [head.raw]: raw, ...head.ok };
    }
    const out = JSON.parse(text);
    if (out.error) throw fromWire(out.error);
    return out.ok;
  }

  /**
   * Packs and sends one call; a held argument goes as its values (WireHold) when Go may not have
   * it (never sent, or all = true after Go said it had let it go), else as its id.
   * @param {string} fn @param {number[]} tape @param {string[]} strs
   * @param {{at: number, sAt: number, held: Held}[]} helds @param {boolean} all
   * @returns {string} the wire text
   */
  function send(fn, tape, strs, helds, all) {
    const { t, ss } = withHeld(tape, strs, helds, all);
    const bytes = pack(t, ss);
    let text;
    try {
      // Go's memory can grow during any call into it: views on it are made after each.
      const inbox = ex.rj_inbox(bytes.length) >>> 0;
      new Uint8Array(ex.mem.buffer, inbox, bytes.length).set(bytes);
      const n = ex.rj_call() >>> 0;
      text = utf8Decoder.decode(new Uint8Array(ex.mem.buffer, ex.rj_outbox() >>> 0, n));
    } catch (err) {
      // Only a failure of the wasm itself gets here (the Go side turns every error and panic into
      // a result), most likely its stack running out; its state is then not to be trusted.
      exited = true;
      throw new RagJudgeError(`internal: ${fn}: the wasm failed (${err}); load() it again`,
        { kind: "internal", name: fn, detail: `the wasm failed (${err}); load() it again` });
    }
    for (const x of helds) x.held.sent = true;
    return text;
  }

  /** @type {RagJudge} */
  const rj = {
    version: api.version,
    evaluators: () => call("evaluators", [], []),
    render: (id, inputs) => {
      // The wire leaves out a message's content when it is the prompt (bridge/functions.go).
      const r = call("render", ["$id", "@inputs"], [id, inputs]);
      for (const m of r.messages) m.content ??= r.prompt;
      return r;
    },
    parse: (id, inputs, output) => call("parse", ["$id", "@inputs", "$output"], [id, inputs, output]),
    recall: (scores) => call("recall", ["scores"], [scores]),
    passages: (passageGT) => call("passages", ["$passage_gt"], [passageGT]),
    template: (source, dialect, vars) => call("template", ["$source", "$dialect", "@vars"], [source, dialect, vars]),
    variables: (source, dialect) => call("variables", ["$source", "$dialect"], [source, dialect]),
    readDataset: (text, format) => call("readDataset", ["$text", "$format"], [text, format]),
    mapColumns: (id, columns) => call("mapColumns", ["$id", "columns"], [id, columns]),
    rowInputs: (id, row, mapping) => call("rowInputs", ["$id", "row", "mapping"], [id, row, mapping]),
    agreement: (judge, human) => call("agreement", ["judge", "human"], [judge, human]),
    correlation: (xs, ys) => call("correlation", ["xs", "ys"], [xs, ys]),
    consistency: (rows) => call("consistency", ["rows"], [rows]),
    describe: (xs) => call("describe", ["xs"], [xs]),
    define: (spec) => {
      const c = checkDefinition(spec);
      if (c.errors.length) throw specError(c);
      const r = call("define", ["spec"], [c.spec]);
      r.warnings = c.warnings;
      return r;
    },
    undefine: (id) => call("undefine", ["$id"], [id]),
    checkEvaluator: (spec) => {
      const { ok, errors, warnings, variables } = checkDefinition(spec);
      return { ok, errors, warnings, variables };
    },
    spec: (id) => {
      const s = call("spec", ["$id"], [id]);
      if (s.output) return s; // a custom evaluator's own definition
      // A built-in: its prompt (the core's) with its listing, under the built-in's reader.
      const e = builtins().find((x) => x.id === id);
      const copy = { id: id + "-copy", title: e.title + " (copy)", description: e.description, dialect: e.dialect, prompt: s.prompt,
        inputs: e.inputs, output: { kind: "builtin", evaluator: id }, words: e.words, example: e.example };
      return checkSpec(copy, builtins()).spec;
    },
  };

  /** @type {any[]|null} the built-in evaluators, listed once: custom ones come and go, they do not */
  let builtinList = null;
  const builtins = () => (builtinList ??= call("evaluators", [], []).filter((/** @type {any} */ e) => !e.custom));

  /** @type {Map<string, string[]>} the variables of each built-in's prompt, for a builtin reader */
  const builtinVarsOf = new Map();
  /** @type {Map<string, any>} the last templates' reads: an editor re-checks on every keystroke, and most change one field */
  const readsMemo = new Map();
  /**
   * reads is the core's template.Reads of a template (its names with where each is first read),
   * remembered for the last few templates; it throws for a template that does not parse.
   * @param {string} source @param {string} dialect
   * @returns {{name: string, line: number, col: number}[]}
   */
  function reads(source, dialect) {
    const key = dialect + "\u0000" + source;
    let r = readsMemo.get(key);
    if (r === undefined) {
      try {
        r = call("variables", ["$source", "$dialect", "where"], [source, dialect, true]);
      } catch (err) {
        r = { err };
      }
      readsMemo.set(key, r);
      if (readsMemo.size > 16) readsMemo.delete(readsMemo.keys().next().value ?? "");
    }
    if (r.err) throw r.err;
    return r;
  }

  /**
   * jsonError is the check for a definition's JSON text that JSON.parse refused, at the line and
   * column where the core's JSON reader stops (readDataset's: V8's message may give no position).
   * @param {string} text @param {unknown} err
   */
  function jsonError(text, err) {
    /** @type {{severity: "error", code: string, message: string, path: string, line?: number, col?: number, len?: number}} */
    const c = { severity: "error", code: "evaluator.bad-spec", message: "the definition is not JSON: " + String(/** @type {any} */ (err)?.message ?? err), path: "" };
    try {
      call("readDataset", ["$text", "$format"], [text, "json"]);
    } catch (e) {
      if (e instanceof RagJudgeError && e.line) Object.assign(c, { message: "the definition is not JSON: " + e.detail, line: e.line, col: e.col, len: 1 });
    }
    return c;
  }

  /**
   * Checks a definition whole: its schema here (evaluatorspec.js), then what needs the core (its
   * templates, the names they read) in Go, on the normalised definition. A JSON text is parsed
   * first; one that is not JSON is an evaluator.bad-spec error at its line and column.
   * @param {unknown} spec
   */
  function checkDefinition(spec) {
    if (typeof spec === "string") {
      try {
        spec = JSON.parse(spec);
      } catch (err) {
        return { ok: false, spec: null, errors: [jsonError(/** @type {string} */ (spec), err)], warnings: [], variables: [] };
      }
    }
    let c;
    try {
      c = checkSpec(spec, builtins());
    } catch (err) {
      // A getter or proxy in the definition that throws: the definition cannot be read.
      const message = "the definition cannot be read: " + String(/** @type {any} */ (err)?.message ?? err);
      return { ok: false, spec: null, errors: [{ severity: /** @type {const} */ ("error"), code: "evaluator.bad-spec", message, path: "" }], warnings: [], variables: [] };
    }
    /** @type {string[]|null} */
    let builtinVars = null;
    if (c.builtin) {
      // The variables a built-in makes of its inputs are what its own prompt reads.
      const id = c.builtin.id;
      if (!builtinVarsOf.has(id)) {
        const own = call("spec", ["$id"], [id]);
        builtinVarsOf.set(id, reads(own.prompt, c.builtin.dialect).map((r) => r.name));
      }
      builtinVars = builtinVarsOf.get(id) ?? null;
    }
    const render = (/** @type {string} */ source, /** @type {Object} */ vars) => call("template", ["$source", "$dialect", "@vars"], [source, "format", vars]);
    const variables = checkTemplates(c.spec, reads, render, builtinVars, c.builtin, c.errors, c.warnings);
    return { ok: c.errors.length === 0, spec: c.spec, errors: c.errors, warnings: c.warnings, variables };
  }
  // A wasm built from other sources than this module is refused whole, at load, rather than
  // failing later on the first call it lacks.
  // checkEvaluator is this module's (evaluatorspec.js), over the wasm's variables.
  const jsOnly = new Set(["checkEvaluator"]);
  const missing = Object.keys(rj).filter((fn) => typeof rj[fn] === "function" && !functions.includes(fn) && !jsOnly.has(fn));
  if (missing.length) throw loadError(`ragjudge.wasm lacks ${missing.join(", ")}: it is older than ragjudge.js; rebuild it with make build`);
  return Object.freeze(rj);
}
