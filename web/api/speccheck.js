// speccheck.js checks a custom evaluator's definition against its schema (README "Custom
// evaluators") for ragjudge.js's define() and checkEvaluator(): every field's type, the unknown
// fields, the required ones, the values each may take, and the rules between fields, each
// problem with the path of its field; and it normalises the definition (fields in the schema's
// order, defaults filled in). What needs the core (the templates' syntax and the names they read,
// a built-in reader's variables) the Go side checks after this, on the normalised definition
// (core/judge/custom.go); the two lists are merged.
//
// Why here and not in Go: this is walking a JSON document, which JS does natively, while the same
// walk compiled into the wasm measured 10 KB of brotli out of a budget shared by every feature.
// The readers, the templates and the registry stay in the core.

import { isObject, q, builtinKinds, sameValue, normLabel, badLabel, pathProblem } from "./specrules.js";

/**
 * The schema, as data that one walker (walk) reads. A node: `t` its type ("s" string, "n"
 * number, "b" boolean, "l" list of `of`, "o" object of exactly the fields `f` (in the order a
 * normalised definition lists them), "m" object of any keys with values `of`, "x" any JSON value,
 * "so" a string or an object of fields `f`, "k" an object whose field `by` picks its fields among
 * `c`); `r` required; `ne` not empty; `mx` the most items a list or keys an object may hold; `d` the default; `e` the values it may take; `z` null
 * allowed; `h` a hint added to a message that it is missing or of the wrong type.
 */
const field = (t, more = {}) => ({ t, ...more });
/** MAX_ITEMS is the most messages, inputs, labels, pass values or example inputs a definition
 * may hold: far more than any judge prompt needs, and few enough that a hostile file cannot make
 * the engine work for minutes (20,000 labels took 2 minutes to define, 20,000 inputs 40 s). */
const MAX_ITEMS = 100;
const KIND = field("s");
const RANGE = { min: field("n"), max: field("n"), pass_at: field("n") };
const SCHEMA = field("o", {
  f: {
    id: field("s", { r: 1, h: "lower-case letters, digits and '-'" }),
    title: field("s"),
    description: field("s", { d: "" }),
    dialect: field("s", { d: "jinja", e: ["jinja", "format"] }),
    prompt: field("s", { h: "the template of the one user message" }),
    messages: field("l", {
      ne: 1,
      mx: MAX_ITEMS,
      h: "a list of {role, content}",
      of: field("o", { f: { role: field("s", { r: 1, e: ["system", "user", "assistant"] }), content: field("s", { r: 1 }) } }),
    }),
    inputs: field("l", {
      r: 1,
      ne: 1,
      mx: MAX_ITEMS,
      h: "a list of {name, label, kind, required}",
      of: field("o", {
        f: {
          name: field("s", { r: 1 }),
          label: field("s"),
          kind: field("s", { d: "text" }),
          required: field("b", { d: true }),
          help: field("s"),
          judged: field("b"),
          choices: field("l", { of: field("s") }),
        },
      }),
    }),
    output: field("k", {
      r: 1,
      by: "kind",
      h: 'the reader of the judge\'s answer, e.g. {"kind": "yes-no"}',
      c: {
        "yes-no": { kind: KIND, pass: field("s", { d: "yes", e: ["yes", "no"] }) },
        score: { kind: KIND, label: field("s", { d: "Score" }), min: field("n", { r: 1 }), max: field("n", { r: 1 }), pass_at: field("n") },
        label: { kind: KIND, labels: field("m", { r: 1, ne: 1, mx: MAX_ITEMS, h: '{"correct": true, "incorrect": false}', of: field("b", { z: 1 }) }) },
        json: {
          kind: KIND,
          pass: field("so", { h: 'a path such as "$.verdict", or {path, combine}', f: { path: field("s", { r: 1 }), combine: field("s", { e: ["all", "any"] }) } }),
          pass_values: field("l", { ne: 1, mx: MAX_ITEMS, of: field("x") }),
          fail_values: field("l", { ne: 1, mx: MAX_ITEMS, of: field("x") }),
          score: field("so", { h: 'a path such as "$.score", or {path, combine}', f: { path: field("s", { r: 1 }), combine: field("s", { e: ["mean"] }) } }),
          reason: field("s", { h: 'a path such as "$.reason"' }),
          ...RANGE,
        },
        builtin: { kind: KIND, evaluator: field("s", { r: 1 }) },
      },
    }),
    words: field("o", { f: { passed: field("s", { r: 1 }), failed: field("s", { r: 1 }) } }),
    example: field("o", { f: { inputs: field("m", { mx: MAX_ITEMS, of: field("x") }), answer: field("s", { d: "" }) } }),
    // The check-up's generic transformations of the judged input, each with the verdict that is
    // right for this rubric: true (passes), false (fails) or null (the judge declines: a label
    // mapped to null); a transformation left out is not offered (core/checkup/custom.go).
    checkup: field("o", {
      h: '{"replaced": false, "emptied": false, "halved": true}',
      f: { replaced: field("b", { z: 1 }), emptied: field("b", { z: 1 }), halved: field("b", { z: 1 }) },
    }),
  },
});

const TYPE_WORDS = { s: "a string", n: "a number", b: "true or false", l: "a list", o: "an object", m: "an object", k: "an object", so: "a string or an object" };

/** typeName names v's JSON type as the core does ("a string", "null", ...). */
function typeName(v) {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "a list";
  return { string: "a string", number: "a number", boolean: "a boolean", object: "an object" }[typeof v] ?? "a " + typeof v;
}

const oneOf = (words) => words.map(q).join(", ").replace(/, ([^,]*)$/, " or $1");
const at = (path, key) => (path ? path + "." + key : key);

/**
 * @typedef {{severity: "error"|"warning", code: string, message: string, path: string, line?: number, col?: number, len?: number}} SpecCheck
 */

/**
 * checkSpec checks a definition (an object, as JSON.parse gives it) against the schema and the
 * rules between its fields, and returns it normalised. `builtins` are the built-in evaluators
 * (rj.evaluators() without the custom ones): their ids are taken, and an output of kind
 * "builtin" names one of them.
 * @param {unknown} v
 * @param {{id: string, dialect?: string, variables?: string[], inputs: {name: string, kind: string, required: boolean, judged?: boolean, variable?: string}[]}[]} builtins
 * @returns {{spec: any, errors: SpecCheck[], warnings: SpecCheck[], builtin: any}}
 */
export function checkSpec(v, builtins) {
  /** @type {SpecCheck[]} */
  const errors = [];
  /** @type {SpecCheck[]} */
  const warnings = [];
  const fail = (path, code, message) => void errors.push({ severity: "error", code, message, path });
  const warn = (path, code, message) => void warnings.push({ severity: "warning", code, message, path });
  if (!isObject(v)) {
    fail("", "evaluator.bad-spec", "a definition is an object, not " + typeName(v));
    return { spec: null, errors, warnings, builtin: null };
  }
  // A title and input labels left out are the id and the names: filled in before the walk, so that
  // they take their places in the schema's order.
  const given = { .../** @type {object} */ (v) };
  if (!given.title && typeof given.id === "string") given.title = given.id;
  if (Array.isArray(given.inputs)) {
    given.inputs = given.inputs.map((x) => (isObject(x) && !x.label && typeof x.name === "string" ? { ...x, label: x.name } : x));
  }
  const spec = walk(given, SCHEMA, "", fail);
  const id = spec.id;
  const builtin = (x) => builtins.find((b) => b.id === x);
  if (typeof id === "string" && builtin(id)) fail("id", "evaluator.builtin-id", `id ${q(id)} is a built-in evaluator's: choose another`);
  else if (typeof id === "string" && !/^[a-z0-9-]+$/.test(id)) fail("id", "evaluator.bad-id", `id ${q(id)} must be lower-case letters, digits and '-' only`);

  // The templates: prompt or messages, not both.
  if (spec.messages) {
    if (spec.prompt !== undefined) fail("messages", "evaluator.prompt-and-messages", "give either prompt (one user message) or messages, not both");
    const last = spec.messages[spec.messages.length - 1];
    if (isObject(last) && last.role && last.role !== "user") {
      warn(`messages[${spec.messages.length - 1}].role`, "evaluator.bad-value", "the last message is not the user's: chat models answer a user message");
    }
  } else if (spec.prompt === undefined) {
    fail("prompt", "evaluator.missing-field", "prompt (one user message) or messages is required");
  }

  // The output's rules between fields.
  const out = isObject(spec.output) ? spec.output : null;
  /** @type {any} */
  let b = null;
  if (out) {
    const hasLo = out.min !== undefined, hasHi = out.max !== undefined, hasAt = out.pass_at !== undefined;
    if (hasLo !== hasHi) {
      if (out.kind !== "score") fail("output.max", "evaluator.missing-field", "min and max go together"); // a score reports both as required
    }
    else if (hasLo && !(out.min < out.max)) fail("output.max", "evaluator.bad-value", "max must be more than min");
    else if (hasAt && hasLo && (out.pass_at < out.min || out.pass_at > out.max)) fail("output.pass_at", "evaluator.bad-value", "pass_at is outside min..max");
    if (out.kind === "score") {
      const msg = badLabel(out.label.trim());
      if (msg) fail("output.label", "evaluator.bad-label", "the score's label " + msg);
    }
    if (out.kind === "label" && isObject(out.labels)) {
      const seen = new Set();
      for (const k of Object.keys(out.labels)) {
        const norm = normLabel(k);
        const msg = badLabel(norm);
        if (msg) fail("output.labels." + k, "evaluator.bad-label", `label ${q(k)} ${msg}`);
        else if (seen.has(norm)) fail("output.labels." + k, "evaluator.bad-label", `label ${q(k)} is another label again: labels match in any case`);
        seen.add(norm);
      }
    }
    if (out.kind === "json") {
      for (const key of ["pass", "score", "reason"]) {
        const f = out[key];
        if (f === undefined) continue;
        const path = isObject(f) ? f.path : f;
        const where = isObject(f) ? `output.${key}.path` : `output.${key}`;
        if (typeof path !== "string") continue;
        const bad = pathProblem(path);
        if (bad) errors.push({ severity: "error", code: "evaluator.bad-path", message: `path ${q(path)}: ${bad.msg}`, path: where, line: 1, col: [...path.slice(0, bad.off)].length + 1, len: 1 });
        else if (isObject(f) && f.combine !== undefined && !path.includes("[*]")) fail(`output.${key}.combine`, "evaluator.bad-value", "combine is for a path through a list ([*])");
        else if (key === "reason" && path.includes("[*]")) fail(where, "evaluator.bad-path", "the reason is one text: its path cannot go through [*]");
      }
      const pass = out.pass !== undefined, score = out.score !== undefined;
      if (!pass && !score) fail("output.pass", "evaluator.missing-field", "a json reader needs pass (the field that says passed) or score");
      else if (pass && hasAt) fail("output.pass_at", "evaluator.bad-value", "pass_at is for a reader without pass: this one passes by pass and pass_values");
      else if (!score && (hasAt || hasLo)) fail("output.score", "evaluator.missing-field", "min, max and pass_at need score, the field that holds the score");
      if (!pass && out.fail_values !== undefined) fail("output.fail_values", "evaluator.bad-value", "fail_values is for a reader with pass");
      else if (Array.isArray(out.fail_values)) {
        const passes = Array.isArray(out.pass_values) ? out.pass_values : [true];
        const both = out.fail_values.find((x) => passes.some((y) => sameValue(x, y)));
        if (both !== undefined) fail("output.fail_values", "evaluator.bad-value", `${JSON.stringify(both)} is both a pass value and a fail value`);
      }
      if (pass && out.pass_values === undefined) {
        // After pass, in the schema's order.
        const entries = Object.entries(out);
        entries.splice(entries.findIndex(([k]) => k === "pass") + 1, 0, ["pass_values", [true]]);
        spec.output = Object.fromEntries(entries);
      }
    }
    if (out.kind === "builtin" && typeof out.evaluator === "string") {
      b = builtin(out.evaluator);
      if (!b) fail("output.evaluator", "evaluator.unknown-builtin", `${q(out.evaluator)} is not a built-in evaluator: want ${oneOf(builtins.map((x) => x.id))}`);
    }
  }

  // The inputs: names a template can read, once each, their kinds, at most one judged (which
  // one, when none is marked, settleJudged decides once the templates' reads are known).
  const seen = new Set();
  let judged = false;
  spec.inputs?.forEach?.((input, k) => {
    if (!isObject(input)) return;
    const path = `inputs[${k}]`;
    const name = input.name;
    if (typeof name !== "string") return;
    const own = b?.inputs.find((x) => x.name === name);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      fail(path + ".name", "evaluator.bad-value", `input name ${q(name)} must be letters, digits and '_', not starting with a digit: a name a template can read`);
    } else if (seen.has(name)) {
      fail(path + ".name", "evaluator.duplicate-input", `input ${q(name)} is declared twice`);
    } else if (own && !builtinKinds(own).includes(input.kind)) {
      fail(path + ".kind", "evaluator.builtin-input", `input ${q(name)} is of kind ${oneOf(builtinKinds(own))} for ${b?.id}'s reader`);
    } else if (!own && b?.variables?.includes(name)) {
      fail(path + ".name", "evaluator.builtin-input", `${q(name)} is made by ${b.id}'s reader from its inputs, and the templates read it as it is: it is no input of its own; remove this input`);
    } else if (!own && input.kind !== "text" && input.kind !== "list") {
      fail(path + ".kind", "evaluator.bad-value", `kind ${q(input.kind)} is neither "text" nor "list"`);
    }
    seen.add(name);
    if (input.choices !== undefined && own?.kind !== "choice") {
      fail(path + ".choices", "evaluator.unknown-field", 'choices is only for a built-in reader\'s input of kind "choice"');
    }
    if (input.judged) {
      if (judged) fail(path + ".judged", "evaluator.bad-value", "only one input is the one judged");
      judged = true;
    }
  });
  if (b) {
    for (const bi of b.inputs) {
      if (bi.required && !seen.has(bi.name)) fail("inputs", "evaluator.builtin-input", `${b.id}'s reader needs the input ${q(bi.name)} (${bi.kind}): declare it`);
    }
  }
  return { spec, errors, warnings, builtin: b };
}

/**
 * settleJudged marks the input the verdict is about when the definition marks none, and then
 * checks the check-up's fields against it: the built-in reader's own judged input, else one
 * named like the answer under judgement, else the first text input a template reads (read: the
 * names the templates read, null when they are not known), else the first text input.
 * @param {any} spec checkSpec's @param {any} builtin checkSpec's
 * @param {Set<string>|null} read
 * @param {SpecCheck[]} warnings
 */
export function settleJudged(spec, builtin, read, warnings) {
  const inputs = Array.isArray(spec?.inputs) ? spec.inputs.filter(isObject) : [];
  if (inputs.length && !inputs.some((x) => x.judged)) {
    const names = builtin ? builtin.inputs.filter((/** @type {any} */ x) => x.judged).map((/** @type {any} */ x) => x.name) : ["answer", "response", "actual_output", "output"];
    const texts = inputs.filter((x) => x.kind === "text");
    const guess = names.map((n) => inputs.find((x) => x.name === n)).find(Boolean) ?? texts.find((x) => !read || read.has(x.name)) ?? texts[0] ?? inputs[0];
    guess.judged = true;
  }
  const out = isObject(spec?.output) ? spec.output : null;
  const warn = (/** @type {string} */ path, /** @type {string} */ code, /** @type {string} */ message) => void warnings.push({ severity: "warning", code, message, path });
  if (isObject(spec?.checkup)) checkupRules(spec, out, inputs.find((x) => x.judged), warn);
}

/**
 * checkupRules warns about a check-up field no case can come of: a reader whose verdicts never
 * pass or fail, an emptied input that is required (ragjudge refuses it before any call), or a
 * judge asked to decline (null) by a reader that cannot.
 * @param {any} spec @param {any} out @param {any} judged
 * @param {(path: string, code: string, message: string) => void} warn
 */
function checkupRules(spec, out, judged, warn) {
  const chosen = Object.keys(spec.checkup);
  if (!chosen.length || !out) return;
  const never = (out.kind === "score" && out.pass_at === undefined) || (out.kind === "json" && out.pass === undefined && out.pass_at === undefined);
  if (never) {
    warn("checkup", "evaluator.bad-value", "the check-up offers no case: this reader's verdicts never pass or fail (give pass_at" + (out.kind === "json" ? " or pass" : "") + ")");
    return;
  }
  if (spec.checkup.emptied !== undefined && judged?.required) {
    warn("checkup.emptied", "evaluator.bad-value", `emptied is never offered: the judged input ${q(judged.name)} is required, and an empty one is refused before any call`);
  }
  const declines = (out.kind === "label" && isObject(out.labels) && Object.values(out.labels).includes(null)) || (out.kind === "builtin" && out.evaluator === "pairwise-faithfulness");
  for (const k of chosen) {
    if (spec.checkup[k] === null && !declines) {
      warn("checkup." + k, "evaluator.bad-value", `${k} is null (the judge must decline), but this reader cannot decline: give a label mapped to null, or true or false`);
    }
  }
}

/**
 * walk checks v against schema node n at path and returns it normalised (objects with their
 * fields in the schema's order, the defaults filled in); a value that does not fit is reported
 * with fail (and left out).
 */
function walk(v, n, path, fail) {
  const hint = (msg) => (n.h ? msg + ": " + n.h : msg);
  if (v === null || v === undefined) {
    if (!n.z) fail(path, "evaluator.wrong-type", hint(`${path} must be ${TYPE_WORDS[n.t]}, got null`));
    return null;
  }
  let fields = n.f;
  switch (n.t) {
    case "x":
      return v;
    case "s":
    case "n":
    case "b": {
      const ok = n.t === "s" ? typeof v === "string" : n.t === "n" ? typeof v === "number" && Number.isFinite(v) : typeof v === "boolean";
      if (!ok) return fail(path, "evaluator.wrong-type", hint(`${path} must be ${TYPE_WORDS[n.t]}, got ${typeName(v)}`));
      if (n.e && !n.e.includes(v)) return fail(path, "evaluator.bad-value", `${path} is ${q(v)}: want ${oneOf(n.e)}`);
      return v;
    }
    case "l":
      if (!Array.isArray(v)) return fail(path, "evaluator.wrong-type", hint(`${path} must be a list, got ${typeName(v)}`));
      if (!v.length && n.ne) return fail(path, "evaluator.missing-field", hint(`${path} is empty`));
      if (n.mx && v.length > n.mx) return fail(path, "evaluator.bad-value", `${path} holds ${v.length} items: at most ${n.mx}`);
      return v.map((x, k) => walk(x, n.of, `${path}[${k}]`, fail));
    case "so":
      if (typeof v === "string") return v;
      break;
    case "k":
      if (!isObject(v)) break;
      fields = n.c[v[n.by]];
      if (!Object.hasOwn(n.c, v[n.by]) || !fields) {
        if (typeof v[n.by] !== "string") return fail(at(path, n.by), "evaluator.missing-field", `${at(path, n.by)} is required: ${n.h}`);
        return fail(at(path, n.by), "evaluator.bad-value", `${at(path, n.by)} is ${q(v[n.by])}: want ${oneOf(Object.keys(n.c))}`);
      }
  }
  if (!isObject(v)) return fail(path, "evaluator.wrong-type", hint(`${path || "the definition"} must be ${TYPE_WORDS[n.t]}, got ${typeName(v)}`));
  if (n.t === "m") {
    if (!Object.keys(v).length && n.ne) return fail(path, "evaluator.missing-field", hint(`${path} is empty`));
    if (n.mx && Object.keys(v).length > n.mx) return fail(path, "evaluator.bad-value", `${path} holds ${Object.keys(v).length} entries: at most ${n.mx}`);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, n.of, `${path}.${k}`, fail)]));
  }
  for (const k of Object.keys(v)) {
    if (!Object.hasOwn(fields, k)) fail(at(path, k), "evaluator.unknown-field", `unknown field ${q(k)}: want ${oneOf(Object.keys(fields))}`);
  }
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, fn] of Object.entries(fields)) {
    const x = v[k];
    if (x !== undefined && (x !== null || fn.z)) {
      const w = walk(x, fn, at(path, k), fail);
      if (w !== undefined) out[k] = w;
    } else if (fn.r) {
      fail(at(path, k), "evaluator.missing-field", fn.h ? `${at(path, k)} is required: ${fn.h}` : `${at(path, k)} is required`);
    } else if (fn.d !== undefined) {
      out[k] = fn.d;
    }
  }
  return out;
}
