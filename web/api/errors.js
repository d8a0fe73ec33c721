// errors.js is RagJudgeError, the error of every ragjudge.js call, and fromWire, which makes one of
// the wasm's {"error": {...}} result. Its own module so that customevaluators.js can throw it
// without importing ragjudge.js, which imports it.

/**
 * The error every ragjudge call throws for bad arguments, template errors and recall errors.
 * `line` and `col` are 1-based (columns count characters, i.e. Unicode code points) and are
 * present only where a position applies.
 */
export class RagJudgeError extends Error {
  /**
   * @param {string} message the full message, e.g. `template: <template>:1:4: unexpected "}}"`
   * @param {{kind?: string, code?: string, name?: string, path?: string, line?: number, col?: number, detail?: string,
   *   problems?: import("./types.js").SpecCheck[]}} [fields]
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
    if (fields.problems) {
      /**
       * Every problem of a custom evaluator's definition (kind "evaluator"), each a check with its
       * `code`, `path` and, inside a template, `line`, `col`, `len`; the fields above are the
       * first one's, and the message says them all.
       * @type {import("./types.js").SpecCheck[]}
       */
      this.problems = fields.problems;
    }
  }
}

/** @param {{kind: string, code?: string, name?: string, path?: string, line?: number, col?: number, message: string}} e */
export function fromWire(e) {
  let loc = e.name ?? "";
  if (e.path) loc += (loc ? ": " : "") + e.path;
  if (e.line) {
    loc += (loc ? ":" : "") + e.line + (e.col ? ":" + e.col : "");
  }
  const full = (e.kind ? e.kind + ": " : "") + (loc ? loc + ": " : "") + e.message;
  return new RagJudgeError(full, { kind: e.kind, code: e.code, name: e.name, path: e.path, line: e.line, col: e.col, detail: e.message });
}
