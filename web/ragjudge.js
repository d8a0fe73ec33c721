// ragjudge.js is ragjudge's JS API: one ES module, the same in browsers and in Node >= 20, that
// loads ragjudge.wasm (the Go core) and exposes it as synchronous functions.
//
//   import { load } from "./ragjudge.js";
//   const rj = await load();
//   const { prompt } = rj.render("answer-grounding", { answer: "Paris", facts: ["Paris is in France."] });
//   const verdict = rj.parse("answer-grounding", { answer: "Paris", facts: ["Paris is in France."] }, "Yes.");
//
// The wasm registers its functions on globalThis.__ragjudge while it starts; load() takes them off
// the global again, so each load() is an independent instance. A call's arguments are checked
// and flattened here by JSON's rules (objects keep their key order) into one byte buffer that Go
// copies in one go (flatten, pack; bridge/wire.go); inputs already sent are named by id instead
// (see call). Every result comes back as one text: JSON, {"ok": result} or {"error": {kind, code,
// name, line, col, message}}, with a long text (a prompt) after it unescaped (bridge/bridge.go).


/**
 * The error every ragjudge call throws for bad arguments, template errors and recall errors.
 * `line` and `col` are 1-based (columns count characters, i.e. Unicode code points) and are
 * present only where a position applies.
 */
export class RagJudgeError extends Error {
  /**
   * @param {string} message the full message, e.g. `template: <template>:1:4: unexpected "}}"`
   * @param {{kind?: string, code?: string, name?: string, line?: number, col?: number, detail?: string}} [fields]
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
    if (fields.line) {
      /** 1-based line, when a position applies. */
      this.line = fields.line;
      /** 1-based column in characters, when a position applies. */
      this.col = fields.col || undefined;
    }
  }
}

/** @param {{kind: string, code?: string, name?: string, line?: number, col?: number, message: string}} e */
function fromWire(e) {
  let loc = e.name ?? "";
  if (e.line) {
    loc += (loc ? ":" : "") + e.line + (e.col ? ":" + e.col : "");
  }
  const full = (e.kind ? e.kind + ": " : "") + (loc ? loc + ": " : "") + e.message;
  return new RagJudgeError(full, { kind: e.kind, code: e.code, name: e.name, line: e.line, col: e.col, detail: e.message });
}

const isNode =
  typeof process !== "undefined" && process.versions != null && process.versions.node != null &&
  typeof window === "undefined";

/** @type {Promise<void>|null} */
let runtimePromise = null;

/**
 * Makes globalThis.Go (Go's wasm_exec.js) available, loading wasm_exec.js from beside this module
 * (or from `url`) when it is not already there. wasm_exec.js is a classic script, so it is run as
 * one: a <script> element in a page, vm.runInThisContext in Node, indirect eval in a worker.
 */
function loadRuntime(url) {
  if (typeof globalThis.Go === "function") return Promise.resolve();
  if (runtimePromise) return runtimePromise;
  runtimePromise = (async () => {
    const src = url ? new URL(String(url), baseURL()) : new URL("./wasm_exec.js", import.meta.url);
    if (isNode && src.protocol === "file:") {
      const [{ readFile }, { fileURLToPath }, vm] = await Promise.all([
        import("node:fs/promises"), import("node:url"), import("node:vm"),
      ]);
      const path = fileURLToPath(src);
      const code = await readFile(path, "utf8").catch((err) => {
        throw loadError(`cannot read wasm_exec.js at ${path} (run \`make build\`): ${err.message}`);
      });
      vm.runInThisContext(code, { filename: path });
    } else if (typeof document !== "undefined" && document.createElement) {
      await new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = src.href;
        s.onload = resolve;
        s.onerror = () => reject(loadError(`cannot load wasm_exec.js from ${src.href}`));
        document.head.appendChild(s);
      });
    } else {
      const res = await fetch(src);
      if (!res.ok) throw loadError(`cannot fetch wasm_exec.js from ${src.href}: ${res.status} ${res.statusText}`);
      (0, eval)(await res.text());
    }
    if (typeof globalThis.Go !== "function") throw loadError("wasm_exec.js did not define globalThis.Go");
  })();
  runtimePromise.catch(() => (runtimePromise = null)); // let a later load() retry
  return runtimePromise;
}

function baseURL() {
  if (typeof document !== "undefined" && document.baseURI) return document.baseURI;
  if (isNode) return "file://" + process.cwd().replace(/\\/g, "/") + "/";
  return import.meta.url;
}

function loadError(msg) {
  return new RagJudgeError("load: " + msg, { kind: "load", detail: msg });
}

/** Compiles the wasm from whatever load() was given; returns a WebAssembly.Module. */
async function compile(src) {
  if (src && typeof src.then === "function") src = await src; // a Promise<Response>, e.g. fetch(...)
  if (src instanceof WebAssembly.Module) return src;
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(/** @type {BufferSource} */ (src));
  if (typeof Response !== "undefined" && src instanceof Response) return fromResponse(src);
  let url;
  if (src instanceof URL) {
    url = src;
  } else if (typeof src === "string") {
    // In Node a string is a path unless it has a URL scheme (a Windows drive letter is not one).
    if (isNode && !/^[a-z][a-z0-9+.-]+:/i.test(src)) {
      const { resolve } = await import("node:path");
      const { pathToFileURL } = await import("node:url");
      url = pathToFileURL(resolve(src));
    } else {
      url = new URL(src, baseURL());
    }
  } else {
    const detail = "wasm must be a URL, a path, bytes (ArrayBuffer or Uint8Array), a Response or a WebAssembly.Module";
    throw new RagJudgeError("input: load: " + detail, { kind: "input", name: "load", detail });
  }
  if (isNode && url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    const { fileURLToPath } = await import("node:url");
    const path = fileURLToPath(url);
    const bytes = await readFile(path).catch((err) => {
      throw loadError(`cannot read ${path} (run \`make build\`): ${err.message}`);
    });
    return WebAssembly.compile(bytes);
  }
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw loadError(`cannot fetch ${url.href}: ${/** @type {Error} */ (err).message}`);
  }
  return fromResponse(res);
}

async function fromResponse(res) {
  if (!res.ok) throw loadError(`cannot fetch ${res.url || "ragjudge.wasm"}: ${res.status} ${res.statusText}`);
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(res.clone());
    } catch {
      // A server that does not send application/wasm: fall back to the bytes.
    }
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

/** typeName names v's type in the words the Go side uses ("a number", "a list", ...). */
function typeName(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  switch (typeof v) {
    case "boolean":
      return "a boolean";
    case "number":
    case "bigint":
      return "a number";
    case "string":
      return "a string";
    case "object":
      return "an object";
  }
  return "a " + typeof v;
}

/** Checks a text argument: a string, or undefined/null for "not given". */
function textArg(fn, name, v) {
  if (v === undefined || v === null || typeof v === "string") return v ?? undefined;
  const detail = `${name} must be a string, got ${typeName(v)}`;
  throw new RagJudgeError(`input: ${fn}: ${detail}`, { kind: "input", name: fn, detail });
}

/** inputError is the RagJudgeError for a bad argument of fn. */
function inputError(fn, detail) {
  return new RagJudgeError(`input: ${fn}: ${detail}`, { kind: "input", name: fn, detail });
}

/** The tags of the argument wire (bridge/wire.go). */
const W_NULL = 0, W_FALSE = 1, W_TRUE = 2, W_NUMBER = 3, W_STRING = 4, W_LIST = 5, W_OBJECT = 6, W_HELD = 7, W_HOLD = 8;

/**
 * Flattens a data argument into the argument wire (bridge/wire.go): tags and numbers onto tape,
 * strings (keys and values, in the order Go reads them) onto strs. It reads `v` by
 * JSON.stringify's rules (own enumerable keys in their order, toJSON honoured, undefined
 * properties left out, undefined list items as null), refusing what JSON would silently change
 * (NaN, infinities, functions, symbols, BigInts) and what the engine does not read (nesting
 * deeper than `limit`, cycles), with the path of the value in the message
 * ("inputs.evidence[2].text"). A getter, toJSON or proxy that throws is an input error too: every
 * piece of user code runs here, before anything crosses into the wasm.
 * @param {string} fn @param {string} name @param {unknown} v @param {number} limit
 * @param {number[]} tape @param {string[]} strs
 */
function flatten(fn, name, v, limit, tape, strs) {
  /** @type {(string|number)[]} */
  const path = [name];
  // The path as JS writes it; a long one keeps its first and last six steps.
  const where = () => {
    const steps = path.map((p, k) => (k === 0 ? p : typeof p === "number" ? `[${p}]` : `.${p}`));
    return (steps.length > 12 ? [...steps.slice(0, 6), "…", ...steps.slice(-6)] : steps).join("");
  };
  /** put appends x; it returns false, having appended nothing, when x is undefined. */
  const put = (/** @type {any} */ x, /** @type {number} */ depth) => {
    switch (typeof x) {
      case "undefined":
        return false;
      case "boolean":
        tape.push(x ? W_TRUE : W_FALSE);
        return true;
      case "string":
        tape.push(W_STRING);
        strs.push(x);
        return true;
      case "number":
        if (!Number.isFinite(x)) throw inputError(fn, `${where()} holds ${x}, which is not a finite number`);
        tape.push(W_NUMBER, x);
        return true;
      case "object":
        break;
      default:
        throw inputError(fn, `${where()} holds a ${typeof x}, which is not JSON data`);
    }
    if (x === null) {
      tape.push(W_NULL);
      return true;
    }
    if (depth >= limit) throw inputError(fn, `${where()} is circular or nested deeper than ${limit} levels`);
    if (typeof x.toJSON === "function") return put(x.toJSON(), depth + 1);
    if (Array.isArray(x)) {
      tape.push(W_LIST, x.length);
      for (let k = 0; k < x.length; k++) {
        path.push(k);
        if (!put(x[k], depth + 1)) tape.push(W_NULL);
        path.pop();
      }
      return true;
    }
    const at = tape.length;
    tape.push(W_OBJECT, 0);
    let n = 0;
    for (const key of Object.keys(x)) {
      path.push(key);
      const item = x[key];
      if (item !== undefined) {
        const t = tape.length, s = strs.length;
        strs.push(key);
        if (put(item, depth + 1)) n++;
        else (tape.length = t), (strs.length = s); // a toJSON that gave undefined: left out
      }
      path.pop();
    }
    tape[at + 1] = n;
    return true;
  };
  try {
    if (!put(v, 0)) tape.push(W_NULL);
  } catch (err) {
    if (err instanceof RagJudgeError) throw err;
    throw inputError(fn, `${where()} could not be read: ${err}`);
  }
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
/** The buffer calls are packed into, kept between calls up to this size. */
const keptBytes = 8 << 20;
let scratch = new ArrayBuffer(64 << 10);

/**
 * Packs a call's flattened arguments into the byte layout of bridge/wire.go and returns the bytes
 * (a view of a buffer the next call reuses: Go copies them before the call returns).
 * @param {number[]} tape @param {string[]} strs @returns {Uint8Array}
 */
function pack(tape, strs) {
  let units = 0;
  for (let k = 0; k < strs.length; k++) units += strs[k].length;
  const head = 8 + 8 * tape.length + 4 * strs.length;
  const need = head + 3 * units; // UTF-8 takes at most 3 bytes for each UTF-16 unit
  let buf = scratch;
  if (need > buf.byteLength) {
    buf = new ArrayBuffer(Math.max(need, 2 * buf.byteLength));
    if (buf.byteLength <= keptBytes) scratch = buf;
  }
  const counts = new Uint32Array(buf, 0, 2);
  counts[0] = tape.length;
  counts[1] = strs.length;
  new Float64Array(buf, 8, tape.length).set(tape);
  const lens = new Uint32Array(buf, 8 + 8 * tape.length, strs.length);
  const bytes = new Uint8Array(buf);
  let off = head;
  for (let k = 0; k < strs.length; k++) {
    const s = strs[k];
    const start = off;
    // Keys and short texts are mostly ASCII: copying them here is faster than a TextEncoder call.
    let i = 0;
    if (s.length < 64) {
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        bytes[off++] = c;
      }
    }
    if (i < s.length) off += utf8.encodeInto(i === 0 ? s : s.slice(i), bytes.subarray(off)).written;
    lens[k] = off - start;
  }
  return new Uint8Array(buf, 0, off);
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
 */

/**
 * @typedef {Object} Span where one substitution landed in the prompt: `prompt.slice(start, end)`
 *   is the substituted text (offsets are JS string indices, UTF-16 code units).
 * @property {string} expr the expression, e.g. "question"
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
 */

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

  // Go's main sets globalThis.__ragjudge (the version and the nesting limit) synchronously before
  // it blocks, so it is there as soon as run() returns its promise; take it off the global again
  // so that loads do not clash. Calls go through the instance's exports (see wasm/main.go).
  const before = Object.getOwnPropertyDescriptor(globalThis, "__ragjudge");
  let exited = false;
  go.run(instance).then(
    () => (exited = true),
    () => (exited = true),
  );
  const api = globalThis.__ragjudge;
  if (before) Object.defineProperty(globalThis, "__ragjudge", before);
  else delete globalThis.__ragjudge;
  const ex = /** @type {any} */ (instance.exports);
  if (!api || typeof api.version !== "string" || typeof ex.rj_call !== "function") {
    throw loadError("the wasm did not register its functions (is it ragjudge.wasm?)");
  }
  /** @type {string[]} */
  const functions = String(api.functions ?? "").split(",");

  // How deep data arguments may nest: the engine's limit (value.MaxDepth).
  const maxDepth = typeof api.maxDepth === "number" ? api.maxDepth : 1000;

  // Held inputs (see bridge/wire.go's held): render then parse of the same inputs, or a render
  // on each keystroke with the same variables, send them once. An argument is flattened on every
  // call anyway (that is what checks it and runs its getters and toJSON); when the flattening is
  // equal, string for string, to one sent before, the call names it by id instead of sending it.
  // Equal flattenings make equal values in Go, so a mutated input is never answered from a stale
  // copy; a held value Go has let go of (it keeps a bounded number) makes it ask for the call again
  // with the values (MissWire).
  /** @typedef {{id: number, tape: number[], strs: string[], sent: boolean}} Held */
  /** @type {WeakMap<object, Held>} the last flattening sent for each inputs object */
  const heldFor = new WeakMap();
  /** @type {Held[]} the last few sent, newest last: a form rebuilds its inputs object each time */
  const recent = [];
  let nextHeld = 1;
  /** @param {Held} h @param {number[]} tape @param {string[]} strs */
  const same = (h, tape, strs) => {
    if (h.tape.length !== tape.length || h.strs.length !== strs.length) return false;
    for (let k = 0; k < tape.length; k++) if (h.tape[k] !== tape[k]) return false;
    for (let k = 0; k < strs.length; k++) if (h.strs[k] !== strs[k]) return false;
    return true;
  };
  /** @param {object} v @param {number[]} tape @param {string[]} strs @returns {Held} */
  const hold = (v, tape, strs) => {
    let h = heldFor.get(v);
    if (!h || !same(h, tape, strs)) {
      h = undefined;
      for (let k = recent.length - 1; k >= 0 && !h; k--) if (same(recent[k], tape, strs)) h = recent[k];
      h ??= { id: nextHeld++, tape, strs, sent: false };
      heldFor.set(v, h);
    }
    const at = recent.indexOf(h);
    if (at >= 0) recent.splice(at, 1);
    recent.push(h);
    if (recent.length > 8) recent.shift();
    return h;
  };

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
    let t = tape, ss = strs;
    if (helds.some((x) => all || !x.held.sent)) {
      t = [];
      ss = [];
      let from = 0, sFrom = 0;
      for (const { at, sAt, held } of helds) {
        for (let k = from; k < at; k++) t.push(tape[k]);
        for (let k = sFrom; k < sAt; k++) ss.push(strs[k]);
        if (all || !held.sent) {
          t.push(W_HOLD, held.id);
          for (let k = 0; k < held.tape.length; k++) t.push(held.tape[k]);
          for (let k = 0; k < held.strs.length; k++) ss.push(held.strs[k]);
        } else {
          t.push(W_HELD, held.id);
        }
        from = at + 2;
        sFrom = sAt;
      }
      for (let k = from; k < tape.length; k++) t.push(tape[k]);
      for (let k = sFrom; k < strs.length; k++) ss.push(strs[k]);
    }
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
  };
  // A wasm built from other sources than this module is refused whole, at load, rather than
  // failing later on the first call it lacks.
  const missing = Object.keys(rj).filter((fn) => typeof rj[fn] === "function" && !functions.includes(fn));
  if (missing.length) throw loadError(`ragjudge.wasm lacks ${missing.join(", ")}: it is older than ragjudge.js; rebuild it with make build`);
  return Object.freeze(rj);
}
