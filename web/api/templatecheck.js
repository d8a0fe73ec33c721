// templatecheck.js: a custom evaluator's templates checked through the core, for ragjudge.js's
// define() and checkEvaluator() after its schema (speccheck.js): each template parses and reads
// only declared inputs (or a built-in reader's variables) (checkTemplates); then the judged input
// is read by one, and every other input should be (checkReads).

import { isObject, q } from "./specrules.js";

/** @typedef {import("./types.js").SpecCheck} SpecCheck */

/**
 * checkTemplates checks a normalised definition's templates with the core: each must parse (an
 * evaluator.template error at its line and column) and read only declared inputs (or, with a
 * built-in reader, the variables that built-in makes of its inputs: `builtinVars`). It returns
 * the names the templates read, in order, and whether every template parsed (complete): only
 * then are those all the names they read. `reads` is the core's template.Reads (rj.variables
 * with positions) and `render` its str.format renderer (rj.template); both throw a RagJudgeError
 * for a template that does not parse.
 * @param {any} spec
 * @param {(source: string, dialect: string) => {name: string, line: number, col: number}[]} reads
 * @param {(source: string, vars: Object) => unknown} render
 * @param {string[]|null} builtinVars
 * @param {SpecCheck[]} errors
 * @returns {{variables: string[], complete: boolean}}
 */
export function checkTemplates(spec, reads, render, builtinVars, errors) {
  if (!spec || (spec.dialect !== "jinja" && spec.dialect !== "format")) return { variables: [], complete: false };
  const inputs = Array.isArray(spec.inputs) ? spec.inputs.filter(isObject) : [];
  const known = new Set([...inputs.map((x) => x.name), ...(builtinVars ?? [])]);
  /** @type {string[]} */
  const variables = [];
  let complete = true;
  for (const [path, source] of templatesOf(spec)) {
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
      complete = false;
      continue;
    }
    const reported = new Set();
    for (const r of found) {
      if (!variables.includes(r.name)) variables.push(r.name);
      if (!known.has(r.name) && !reported.has(r.name)) {
        reported.add(r.name);
        errors.push({ severity: "error", code: "evaluator.undeclared-input", message: `the template reads ${q(r.name)}, which is not a declared input: add it to inputs`,
          path, line: r.line, col: r.col, len: [...r.name].length });
      }
    }
  }
  return { variables, complete };
}

/**
 * checkReads holds a definition whose templates all parsed to reading what it judges: no
 * template reading the judged input, under its name or the variable a built-in reader makes of
 * it (claim-groundedness's claims are read as reports), is an evaluator.judged-unread error on
 * the template that would hold it (the prompt, or the last user message): the judge would give
 * confident verdicts on a prompt without the text they are about. With a built-in reader, its own
 * judged input is held to it too, whichever input the definition marks. Every other input no
 * template reads is an evaluator.unused-input warning, a built-in reader's own included, except
 * those its own prompt does not read either (rag-recall's threshold: the reader reads it).
 * @param {any} spec with its judged input marked (speccheck.js settleJudged)
 * @param {{id: string, variables?: string[], inputs: {name: string, judged?: boolean, variable?: string}[]}|null} builtin
 * @param {Set<string>} read the names the templates read
 * @param {SpecCheck[]} errors @param {SpecCheck[]} warnings
 */
export function checkReads(spec, builtin, read, errors, warnings) {
  const templates = templatesOf(spec);
  if (!templates.length) return;
  const inputs = Array.isArray(spec.inputs) ? spec.inputs.filter(isObject) : [];
  const own = (/** @type {string} */ name) => builtin?.inputs.find((b) => b.name === name);
  // The names a template may read an input by: its own, and the built-in reader's variable of it.
  const namesOf = (/** @type {string} */ name) => [name, ...(own(name)?.variable ? [/** @type {string} */ (own(name)?.variable)] : [])];
  const isRead = (/** @type {string} */ name) => namesOf(name).some((n) => read.has(n));
  // The template the judged input belongs in: the prompt, or the last user message.
  const users = templates.filter(([, , role]) => role === "user");
  const target = (users[users.length - 1] ?? templates[templates.length - 1])[0];
  const judged = new Set(inputs.filter((x) => x.judged).map((x) => x.name));
  for (const b of builtin?.inputs ?? []) if (b.judged && inputs.some((x) => x.name === b.name)) judged.add(b.name);
  const wrap = (/** @type {string} */ n) => (spec.dialect === "format" ? `{${n}}` : `{{ ${n} }}`);
  for (const name of judged) {
    if (isRead(name)) continue;
    const as = own(name)?.variable;
    errors.push({ severity: "error", code: "evaluator.judged-unread",
      message: `no template reads the judged input ${q(name)}${as ? ` (${builtin?.id}'s reader makes ${q(as)} of it)` : ""}: the judge would never see what it judges; add ${wrap(as || name)}`,
      path: target });
  }
  inputs.forEach((x, k) => {
    if (judged.has(x.name) || isRead(x.name)) return;
    // A built-in reader's input its own prompt does not read is the reader's, not the template's.
    if (own(x.name) && !namesOf(x.name).some((n) => builtin?.variables?.includes(n))) return;
    warnings.push({ severity: "warning", code: "evaluator.unused-input", message: `input ${q(x.name)} is declared but no template reads it`, path: `inputs[${k}]` });
  });
}

/**
 * templatesOf lists a definition's templates with their paths and roles: its prompt (the user
 * message), or each message's content.
 * @param {any} spec @returns {[string, string, string][]}
 */
function templatesOf(spec) {
  /** @type {[string, string, string][]} */
  const templates = [];
  if (typeof spec?.prompt === "string") templates.push(["prompt", spec.prompt, "user"]);
  else if (Array.isArray(spec?.messages)) {
    spec.messages.forEach((/** @type {any} */ m, /** @type {number} */ k) => {
      if (isObject(m) && typeof m.content === "string") templates.push([`messages[${k}].content`, m.content, m.role]);
    });
  }
  return templates;
}
