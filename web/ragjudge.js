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
// Loading the wasm and Go's wasm_exec.js is loadwasm.js's; the custom evaluators' functions are
// customevaluators.js's, the error class errors.js's and the API's types types.js's; parse's
// logprobs are made lighter to send by logprobwire.js.

import { customEvaluators } from "./api/customevaluators.js";
import { RagJudgeError, fromWire } from "./api/errors.js";
import { isRunningGo, loadError, startGo } from "./api/loadwasm.js";
import { slimParseOptions } from "./api/logprobwire.js";
import {
  W_HELD, W_LIST, W_NULL, W_STRING, flatten, heldValues, pack, textArg, utf8Decoder, withHeld,
} from "./api/wire.js";

export { RagJudgeError };

/** @typedef {import("./api/wire.js").Held} Held */
// The API's types, named here too: importers take them from ragjudge.js.
/** @typedef {import("./api/types.js").Input} Input */
/** @typedef {import("./api/types.js").Evaluator} Evaluator */
/** @typedef {import("./api/types.js").EvaluatorSpec} EvaluatorSpec */
/** @typedef {import("./api/types.js").SpecCheck} SpecCheck */
/** @typedef {import("./api/types.js").EvaluatorCheck} EvaluatorCheck */
/** @typedef {import("./api/types.js").Span} Span */
/** @typedef {import("./api/types.js").Rendered} Rendered */
/** @typedef {import("./api/types.js").Check} Check */
/** @typedef {import("./api/types.js").Verdict} Verdict */
/** @typedef {import("./api/types.js").Recall} Recall */
/** @typedef {import("./api/types.js").Dataset} Dataset */
/** @typedef {import("./api/types.js").ColumnMatch} ColumnMatch */
/** @typedef {import("./api/trusttypes.js").Agreement} Agreement */
/** @typedef {import("./api/trusttypes.js").Correlation} Correlation */
/** @typedef {import("./api/trusttypes.js").RowConsistency} RowConsistency */
/** @typedef {import("./api/trusttypes.js").Consistency} Consistency */
/** @typedef {import("./api/trusttypes.js").Description} Description */
/** @typedef {import("./api/trusttypes.js").CheckupCase} CheckupCase */
/** @typedef {import("./api/trusttypes.js").CheckupCases} CheckupCases */
/** @typedef {import("./api/trusttypes.js").CheckupGrade} CheckupGrade */
/** @typedef {import("./api/trusttypes.js").CheckupReference} CheckupReference */
/** @typedef {import("./api/trusttypes.js").PositionStats} PositionStats */
/** @typedef {import("./api/trusttypes.js").Logprob} Logprob */
/** @typedef {import("./api/trusttypes.js").ParseOptions} ParseOptions */
/** @typedef {import("./api/trusttypes.js").Confidence} Confidence */
/** @typedef {import("./api/trusttypes.js").WeighedVerdict} WeighedVerdict */
/** @typedef {import("./api/trusttypes.js").Calibration} Calibration */
/** @typedef {import("./api/trusttypes.js").CalibrationBin} CalibrationBin */
/** @typedef {import("./api/trusttypes.js").JuryMember} JuryMember */
/** @typedef {import("./api/trusttypes.js").JuryOptions} JuryOptions */
/** @typedef {import("./api/trusttypes.js").JuryVerdict} JuryVerdict */
/** @typedef {import("./api/types.js").RagJudge} RagJudge */
/** @typedef {import("./api/loadwasm.js").RunningGo} RunningGo */

/**
 * Loads the wasm and returns the API. All functions of the result are synchronous.
 *
 * @param {Object} [opts]
 * @param {string|URL|ArrayBuffer|ArrayBufferView|Response|WebAssembly.Module|RunningGo|Promise<Response|WebAssembly.Module|RunningGo>} [opts.wasm]
 *   where the wasm is: a URL, a path (Node) or the bytes; or Go already running on it, as
 *   wasmstart.js's start() gives it (`{go, instance, run}`: the Go of wasm_exec.js, the instance
 *   it runs, go.run's promise), which load() takes over; default: ragjudge.wasm beside this module
 * @param {string|URL} [opts.wasmExec] where Go's wasm_exec.js is; default: beside this module
 *   (not loaded at all when globalThis.Go is already defined)
 * @returns {Promise<RagJudge>}
 * @throws {RagJudgeError} kind "load" when the wasm or wasm_exec.js cannot be read
 */
export async function load(opts = {}) {
  let wasm = opts.wasm ?? new URL("./ragjudge.wasm", import.meta.url);
  if (typeof (/** @type {any} */ (wasm)).then === "function") wasm = await wasm;
  const { go, instance, run } = isRunningGo(wasm) ? wasm : await startGo(wasm, opts.wasmExec);

  // Go's main blocks at once, so run() returns with the exports callable; rj_info() puts the
  // version, the nesting limit and the functions' names in the outbox, one per line (see
  // wasm/main.go). Calls go through the instance's exports too.
  let exited = false;
  run.then(
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

  // Held inputs: an object argument sent before goes by id, and a long template source sent
  // before (wire.js's heldValues).
  const { hold, holdText } = heldValues();

  /**
   * Calls Go function fn. params names its arguments: "$name" is a text argument, type-checked
   * here ("$source", a template's source, Go may hold for later calls); "@name" is data Go may
   * hold; the others are data. All are flattened into one buffer (flatten, pack) that Go copies
   * in one go.
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
        const h = p === "$source" && s !== undefined ? holdText(s) : null;
        if (h) {
          helds.push({ at: tape.length, sAt: strs.length, held: h });
          tape.push(W_HELD, h.id); // a placeholder, as for "@"
        } else if (s === undefined) tape.push(W_NULL);
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
    parse: (id, inputs, output, /** @type {ParseOptions} */ opts = {}) =>
      call("parse", ["$id", "@inputs", "$output", "opts"], [id, inputs, output, slimParseOptions(opts)]),
    recall: (scores) => call("recall", ["scores"], [scores]),
    passages: (passageGT) => call("passages", ["$passage_gt"], [passageGT]),
    template: (source, dialect, vars) => call("template", ["$source", "$dialect", "@vars"], [source, dialect, vars]),
    variables: (source, dialect) => call("variables", ["$source", "$dialect"], [source, dialect]),
    readDataset: (text, format, name) => call("readDataset", ["$text", "$format", "$name"], [text, format, name]),
    mapColumns: (id, columns) => call("mapColumns", ["$id", "columns"], [id, columns]),
    rowInputs: (id, row, mapping) => call("rowInputs", ["$id", "row", "mapping"], [id, row, mapping]),
    agreement: (judge, human) => call("agreement", ["judge", "human"], [judge, human]),
    correlation: (xs, ys) => call("correlation", ["xs", "ys"], [xs, ys]),
    consistency: (rows) => call("consistency", ["rows"], [rows]),
    describe: (xs) => call("describe", ["xs"], [xs]),
    // The pool is held like inputs: a check-up sends the same pool with each of its rows.
    checkupCases: (id, inputs, options = {}) =>
      call("checkupCases", ["$id", "@inputs", "seed", "@pool"], [id, inputs, options?.seed, options?.pool]),
    checkupGrade: (c, verdict, refs) => call("checkupGrade", ["case", "verdict", "refs"], [c, verdict, refs]),
    checkupMatrix: (graded) => call("checkupMatrix", ["graded"], [graded]),
    swapOrders: (id, inputs) => call("swapOrders", ["$id", "inputs"], [id, inputs]),
    combineOrders: (first, second) => call("combineOrders", ["first", "second"], [first, second]),
    positionStats: (verdicts) => call("positionStats", ["verdicts"], [verdicts]),
    calibration: (p, human) => call("calibration", ["p", "human"], [p, human]),
    jury: (verdicts, opts) => call("jury", ["verdicts", "opts"], [verdicts, opts]),
    ...customEvaluators(call),
  };

  // A wasm built from other sources than this module is refused whole, at load, rather than
  // failing later on the first call it lacks.
  // checkEvaluator is customevaluators.js's (api/speccheck.js), over the wasm's variables.
  const jsOnly = new Set(["checkEvaluator"]);
  const missing = Object.keys(rj).filter((fn) => typeof rj[fn] === "function" && !functions.includes(fn) && !jsOnly.has(fn));
  if (missing.length) throw loadError(`ragjudge.wasm lacks ${missing.join(", ")}: it is older than ragjudge.js; rebuild it with make build`);
  return Object.freeze(rj);
}
