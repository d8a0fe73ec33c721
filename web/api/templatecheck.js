// templatecheck.js: a custom evaluator's templates checked through the core, for ragjudge.js's
// define() and checkEvaluator() after its schema (speccheck.js): each template parses, reads only
// declared inputs (or a built-in reader's variables), and every input is read by one.

import { isObject, q } from "./specrules.js";

/** @typedef {import("./types.js").SpecCheck} SpecCheck */

/**
 * checkTemplates checks a normalised definition's templates with the core: each must parse (an
 * evaluator.template error at its line and column), read only declared inputs (or, with a
 * built-in reader, the variables that built-in makes of its inputs: `builtinVars`), and every
 * input should be read (else a warning). It returns the names the templates read, in order.
 * `reads` is the core's template.Reads (rj.variables with positions) and `render` its str.format
 * renderer (rj.template); both throw a RagJudgeError for a template that does not parse.
 * @param {any} spec
 * @param {(source: string, dialect: string) => {name: string, line: number, col: number}[]} reads
 * @param {(source: string, vars: Object) => unknown} render
 * @param {string[]|null} builtinVars
 * @param {{id: string, inputs: {name: string}[]}|null} builtin
 * @param {SpecCheck[]} errors @param {SpecCheck[]} warnings
 * @returns {string[]}
 */
export function checkTemplates(spec, reads, render, builtinVars, builtin, errors, warnings) {
  if (!spec || (spec.dialect !== "jinja" && spec.dialect !== "format")) return [];
  /** @type {[string, string][]} */
  const templates = [];
  if (typeof spec.prompt === "string") templates.push(["prompt", spec.prompt]);
  else if (Array.isArray(spec.messages)) {
    spec.messages.forEach((m, k) => {
      if (isObject(m) && typeof m.content === "string") templates.push([`messages[${k}].content`, m.content]);
    });
  }
  const inputs = Array.isArray(spec.inputs) ? spec.inputs.filter(isObject) : [];
  const known = new Set([...inputs.map((x) => x.name), ...(builtinVars ?? [])]);
  /** @type {string[]} */
  const variables = [];
  const read = new Set();
  for (const [path, source] of templates) {
    let found;
    try {
      found = reads(source, spec.dialect);
      // str.format: the fields alone are read; a render with every name empty finds the rest
      // of what a render would refuse (a single brace, an unsupported field).
      if (spec.dialect === "format") render(source, Object.fromEntries(found.map((r) => [r.name, ""])));
    } catch (err) {
      const e = /** @type {any} */ (err);
      /** @type {SpecCheck} */
      const c = { severity: "error", code: "evaluator.template", message: e.detail ?? String(e), path };
      if (e.line) Object.assign(c, { line: e.line, col: e.col ?? 1, len: 1 });
      errors.push(c);
      continue;
    }
    const reported = new Set();
    for (const r of found) {
      if (!read.has(r.name)) read.add(r.name), variables.push(r.name);
      if (!known.has(r.name) && !reported.has(r.name)) {
        reported.add(r.name);
        errors.push({ severity: "error", code: "evaluator.undeclared-input", message: `the template reads ${q(r.name)}, which is not a declared input: add it to inputs`,
          path, line: r.line, col: r.col, len: [...r.name].length });
      }
    }
  }
  if (templates.length) {
    inputs.forEach((x, k) => {
      if (!read.has(x.name) && !builtin?.inputs.some((b) => b.name === x.name)) {
        warnings.push({ severity: "warning", code: "evaluator.unused-input", message: `input ${q(x.name)} is declared but no template reads it`, path: `inputs[${k}]` });
      }
    });
  }
  return variables;
}
