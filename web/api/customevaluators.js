// customevaluators.js is ragjudge.js's custom evaluators: define, undefine, checkEvaluator and
// spec, over the wasm's calls and speccheck.js's checks. A definition is checked in two halves:
// its schema in JS (speccheck.js) and its templates by the core (through call).

import { checkSpec, settleJudged } from "./speccheck.js";
import { checkTemplates, checkReads } from "./templatecheck.js";
import { RagJudgeError, fromWire } from "./errors.js";

/** @typedef {import("./types.js").RagJudge} RagJudge */

/** @typedef {import("./types.js").SpecCheck} SpecCheck */

/**
 * specError is define()'s error for a definition with errors: every problem in `problems` (each
 * with its path and position) and in the message, one after the other; its code, path and
 * position are the first one's.
 * @param {any} spec the definition (its id names the error) @param {SpecCheck[]} problems
 */
export function specError(spec, problems) {
  const [first] = problems;
  const id = spec && typeof spec.id === "string" ? spec.id : "";
  const where = (/** @type {SpecCheck} */ p) => (p.path || "") + (p.line ? (p.path ? ":" : "") + p.line + (p.col ? ":" + p.col : "") : "");
  const message = problems.map((p, k) => (k && where(p) ? where(p) + ": " : "") + p.message).join("; ");
  const e = fromWire({ kind: "evaluator", code: first.code, name: id, path: first.path, line: first.line, col: first.col, message });
  e.problems = problems;
  return e;
}

/**
 * customEvaluators returns the rj object's custom-evaluator methods, each calling the wasm through
 * call (ragjudge.js's, for this load() only): what they remember (the built-ins' list, templates'
 * reads) belongs to that one instance.
 * @param {(fn: string, params: string[], values: unknown[]) => any} call
 * @returns {Pick<RagJudge, "define"|"undefine"|"checkEvaluator"|"spec">}
 */
export function customEvaluators(call) {
  /** @type {any[]|null} the built-in evaluators, listed once: custom ones come and go, they do not */
  let builtinList = null;
  const builtins = () => (builtinList ??= call("evaluators", [], []).filter((/** @type {any} */ e) => !e.custom));

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
   * Checks a definition whole: its schema here (speccheck.js), then what needs the core (its
   * templates, the names they read) in Go, on the normalised definition. A JSON text is parsed
   * first; one that is not JSON is an evaluator.bad-spec error at its line and column.
   * @param {unknown} spec
   */
  function checkDefinition(spec) {
    if (typeof spec === "string") {
      try {
        spec = JSON.parse(spec);
      } catch (err) {
        return { ok: false, spec: null, errors: [jsonError(/** @type {string} */ (spec), err)], warnings: [], variables: [], provided: [] };
      }
    }
    let c;
    try {
      c = checkSpec(spec, builtins());
    } catch (err) {
      // A getter or proxy in the definition that throws: the definition cannot be read.
      const message = "the definition cannot be read: " + String(/** @type {any} */ (err)?.message ?? err);
      return { ok: false, spec: null, errors: [{ severity: /** @type {const} */ ("error"), code: "evaluator.bad-spec", message, path: "" }], warnings: [], variables: [], provided: [] };
    }
    // The variables a built-in reader makes of its inputs (the core's declaration: what the
    // built-in's own prompt reads), which the templates may read undeclared.
    /** @type {string[]} */
    const provided = c.builtin ? [...(c.builtin.variables ?? [])] : [];
    const render = (/** @type {string} */ source, /** @type {Object} */ vars) => call("template", ["$source", "$dialect", "@vars"], [source, "format", vars]);
    const { variables, complete } = checkTemplates(c.spec, reads, render, provided, c.errors);
    // Which input is judged may depend on what the templates read; only templates that all parsed
    // say whether the judged input and the others are read.
    const read = complete ? new Set(variables) : null;
    settleJudged(c.spec, c.builtin, read, c.warnings);
    if (read) checkReads(c.spec, c.builtin, read, c.errors, c.warnings);
    return { ok: c.errors.length === 0, spec: c.spec, errors: c.errors, warnings: c.warnings, variables, provided };
  }

  return {
    define: (spec) => {
      const c = checkDefinition(spec);
      if (c.errors.length) throw specError(c.spec ?? spec, c.errors);
      // The inputs no template reads are optional in the core (they never hold up a render).
      const read = new Set(c.variables);
      const unread = c.spec.inputs.map((/** @type {any} */ x) => x.name).filter((/** @type {string} */ n) => !read.has(n));
      let r;
      try {
        r = call("define", ["spec", "unread"], [c.spec, unread]);
      } catch (err) {
        // What the core refuses is one problem: said as the checks are.
        if (err instanceof RagJudgeError && err.kind === "evaluator" && !err.problems) {
          err.problems = [{ severity: "error", code: err.code, message: err.detail, path: err.path ?? "", ...(err.line ? { line: err.line, col: err.col ?? 1, len: 1 } : {}) }];
        }
        throw err;
      }
      r.warnings = c.warnings;
      return r;
    },
    undefine: (id) => call("undefine", ["$id"], [id]),
    checkEvaluator: (spec) => {
      const { ok, errors, warnings, variables, provided } = checkDefinition(spec);
      return { ok, errors, warnings, variables, provided };
    },
    spec: (id) => {
      const s = call("spec", ["$id"], [id]);
      if (s.output) return s; // a custom evaluator's own definition
      // A built-in: its prompt (the core's) with its listing, under the built-in's reader.
      const e = builtins().find((x) => x.id === id);
      const copy = { id: id + "-copy", title: e.title + " (copy)", description: e.description, dialect: e.dialect, prompt: s.prompt,
        inputs: e.inputs, output: { kind: "builtin", evaluator: id }, words: e.words, example: e.example };
      const c = checkSpec(copy, builtins());
      settleJudged(c.spec, c.builtin, null, []);
      return c.spec;
    },
  };
}
