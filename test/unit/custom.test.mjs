// custom.test.mjs: custom evaluators through the JS API: rj.define, rj.checkEvaluator,
// rj.undefine, rj.spec, and render, parse, mapColumns and rowInputs with a custom id; the starter
// library in web/starters. The readers' rules are tested with the core (core/judge/custom_test.go);
// here, that the API keeps its contract.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

import { api, root, throwsRJ } from "./rj.mjs";
import { readImport, importProblem } from "../../web/custom/specedit.js";

const rj = await api();
const builtinIds = ["claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall"];

const tone = {
  id: "tone",
  title: "Polite tone",
  prompt: "Is this reply polite?\n{{ answer }}\nAnswer yes or no.",
  inputs: [{ name: "answer", label: "Reply" }],
  output: { kind: "yes-no" },
};

test("define returns the id, the inputs as evaluators() gives them, and the warnings; evaluators() lists it after the built-ins", () => {
  const r = rj.define(tone);
  assert.deepEqual(r, { id: "tone", inputs: [{ name: "answer", label: "Reply", kind: "text", required: true, judged: true }], warnings: [] });
  const list = rj.evaluators();
  assert.deepEqual(list.map((e) => e.id), [...builtinIds, "tone"]);
  for (const e of list.slice(0, 4)) {
    assert.equal(e.custom, false, e.id);
    assert.equal(e.spec, undefined, e.id);
  }
  const e = list[4];
  assert.equal(e.custom, true);
  assert.equal(e.view, "yes-no");
  assert.deepEqual(e.score, { kind: "binary" });
  assert.deepEqual(e.inputs, r.inputs);
  assert.deepEqual(e.spec, {
    id: "tone",
    title: "Polite tone",
    description: "",
    dialect: "jinja",
    prompt: tone.prompt,
    inputs: [{ name: "answer", label: "Reply", kind: "text", required: true, judged: true }],
    output: { kind: "yes-no", pass: "yes" },
  }, "normalised: every field in the schema's order, the defaults filled in");
  assert.deepEqual(Object.keys(e.spec), ["id", "title", "description", "dialect", "prompt", "inputs", "output"]);
});

test("render and parse take a custom id exactly as a built-in's", () => {
  rj.define(tone);
  const r = rj.render("tone", { answer: "Thanks, happy to help!" });
  assert.equal(r.prompt, "Is this reply polite?\nThanks, happy to help!\nAnswer yes or no.");
  assert.deepEqual(r.messages, [{ role: "user", content: r.prompt }]);
  assert.equal(r.prompt.slice(r.spans[0].start, r.spans[0].end), "Thanks, happy to help!");
  assert.deepEqual(rj.parse("tone", { answer: "x" }, "Verdict: Yes"), { passed: true, score: 1, verdict: { kind: "yes-no", label: "yes" }, checks: [] });
  const v = rj.parse("tone", { answer: "x" }, "I would say yes, mostly.");
  assert.equal(v.passed, null);
  assert.equal(v.score, null);
  assert.equal(v.checks[0].code, "answer.no-verdict");
  throwsRJ(() => rj.render("tone", {}), { kind: "input", code: "input.missing", subject: "answer" });
});

test("a score reader: last occurrence wins, out of range is an error check, never clamped", () => {
  rj.define({ id: "quality", prompt: "{{ question }} {{ answer }}", inputs: [{ name: "question" }, { name: "answer" }],
    output: { kind: "score", min: 1, max: 5, pass_at: 4 } });
  const v = rj.parse("quality", { question: "q", answer: "a" }, "Draft Score: 2\n**Score:** 4/5");
  assert.equal(v.passed, true);
  assert.equal(v.score, 4);
  assert.deepEqual(v.checks.map((c) => c.code), ["answer.several-scores"]);
  const out = rj.parse("quality", { question: "q", answer: "a" }, "Score: 6");
  assert.deepEqual([out.passed, out.score, out.checks[0].code, out.checks[0].severity], [null, null, "answer.out-of-range", "error"]);
  assert.deepEqual(rj.evaluators().find((e) => e.id === "quality").score, { kind: "scale", max: 5, decimals: 2 });
});

test("messages: each a template; the prompt is the last user message", () => {
  rj.define({ id: "chat", dialect: "format", messages: [{ role: "system", content: "Grade {question}." }, { role: "user", content: "{answer}" }],
    inputs: [{ name: "question" }, { name: "answer" }], output: { kind: "label", labels: { good: true, bad: false } } });
  const r = rj.render("chat", { question: "Q", answer: "A" });
  assert.deepEqual(r.messages, [{ role: "system", content: "Grade Q." }, { role: "user", content: "A" }]);
  assert.equal(r.prompt, "A");
  assert.deepEqual(rj.parse("chat", { question: "Q", answer: "A" }, "Verdict: Good").verdict, { kind: "label", label: "good" });
});

test("mapColumns and rowInputs work with a custom id", () => {
  rj.define({ id: "ctx-rel", prompt: "{{ question }}{% for c in contexts %}{{ c }}{% endfor %}",
    inputs: [{ name: "question", label: "Question" }, { name: "contexts", label: "Contexts", kind: "list", judged: true }], output: { kind: "score", min: 1, max: 5 } });
  const m = rj.mapColumns("ctx-rel", ["user_input", "retrieved_contexts", "response"]);
  assert.deepEqual(m.mapping, { question: "user_input", contexts: "retrieved_contexts" });
  const row = rj.rowInputs("ctx-rel", { user_input: "Q?", retrieved_contexts: '["a", "b"]' }, m.mapping);
  assert.deepEqual(row.inputs, { question: "Q?", contexts: ["a", "b"] });
  assert.equal(rj.render("ctx-rel", row.inputs).prompt, "Q?ab");
});

test("checkEvaluator reports every problem at once with its path, and line:col:len inside a template; it never throws", () => {
  const c = rj.checkEvaluator({
    id: "Bad Id",
    dialect: "jinja",
    prompt: "{{ question }} {{ contxt }}\n{% if x %}",
    inputs: [{ name: "question" }, { name: "question" }, { name: "unused", kind: "text" }, { name: "9x" }],
    output: { kind: "score", min: 5, max: 1 },
    extra: true,
  });
  assert.equal(c.ok, false);
  const got = c.errors.map((e) => [e.code, e.path]);
  for (const want of [
    ["evaluator.unknown-field", "extra"],
    ["evaluator.bad-id", "id"],
    ["evaluator.bad-value", "output.max"],
    ["evaluator.duplicate-input", "inputs[1].name"],
    ["evaluator.bad-value", "inputs[3].name"],
    ["evaluator.template", "prompt"],
  ]) {
    assert.ok(got.some(([code, path]) => code === want[0] && path === want[1]), `${want} in ${JSON.stringify(got)}`);
  }
  const tmpl = c.errors.find((e) => e.code === "evaluator.template");
  assert.equal(tmpl.line, 2);
  assert.ok(tmpl.col >= 1 && tmpl.len === 1);
  // A template that parses: the undeclared name at its position, the unused input as a warning.
  const d = rj.checkEvaluator({ id: "x", prompt: "Q: {{ question }}\nC: {{ contxt }}", inputs: [{ name: "question" }, { name: "unused" }], output: { kind: "yes-no" } });
  assert.deepEqual(d.errors, [{ severity: "error", code: "evaluator.undeclared-input", message: 'the template reads "contxt", which is not a declared input: add it to inputs', path: "prompt", line: 2, col: 7, len: 6 }]);
  assert.deepEqual(d.warnings.map((w) => [w.code, w.path]), [["evaluator.unused-input", "inputs[1]"]]);
  assert.deepEqual(d.variables, ["question", "contxt"]);
  // Never a throw, whatever the value.
  for (const bad of [null, 3, "not json {", [], { output: 1 }, { id: "y", inputs: "x", output: { kind: "json" }, prompt: 2 }]) {
    const r = rj.checkEvaluator(/** @type {any} */ (bad));
    assert.equal(r.ok, false, JSON.stringify(bad));
    assert.ok(r.errors.length > 0);
    for (const e of r.errors) assert.equal(typeof e.path, "string");
  }
  const hostile = { id: "x", get prompt() { throw new Error("boom"); }, inputs: [], output: { kind: "yes-no" } };
  assert.deepEqual(rj.checkEvaluator(hostile).errors.map((e) => e.code), ["evaluator.bad-spec"]);
  throwsRJ(() => rj.define(hostile), { kind: "evaluator", code: "evaluator.bad-spec" });
  const json = rj.checkEvaluator('{"id": "x",\n  "prompt": }');
  assert.deepEqual([json.errors[0].code, json.errors[0].line, json.errors[0].col], ["evaluator.bad-spec", 2, 13]);
});

test("checkEvaluator reports every wrong type at once, and an import says them all", () => {
  const text = JSON.stringify({ id: "several", title: 7, prompt: "{{ a }}", inputs: "a", output: { kind: "score", min: "1", max: 5 } });
  const c = rj.checkEvaluator(JSON.parse(text));
  assert.deepEqual(c.errors.filter((e) => e.code === "evaluator.wrong-type").map((e) => e.path), ["title", "inputs", "output.min"]);
  const file = readImport(text);
  assert.deepEqual(file.errors, []);
  const said = importProblem(file.names[0], rj.checkEvaluator(file.specs[0]).errors);
  assert.match(said, /^The evaluator \(several\): title: must be a string, got a number; inputs: must be a list, got a string.*; output\.min: must be a number, got a string/);
});

test("checkEvaluator: the rules of each reader", () => {
  const base = { id: "r", prompt: "{{ answer }}", inputs: [{ name: "answer" }] };
  const codes = (output) => rj.checkEvaluator({ ...base, output }).errors.map((e) => `${e.code} ${e.path}`);
  assert.deepEqual(codes({ kind: "vote" }), ['evaluator.bad-value output.kind']);
  assert.deepEqual(codes({}), ["evaluator.missing-field output.kind"]);
  assert.deepEqual(codes({ kind: "yes-no", pass: "maybe" }), ["evaluator.bad-value output.pass"]);
  assert.deepEqual(codes({ kind: "score", min: 1 }), ["evaluator.missing-field output.max"]);
  assert.deepEqual(codes({ kind: "score", min: 1, max: 5, pass_at: 6 }), ["evaluator.bad-value output.pass_at"]);
  assert.deepEqual(codes({ kind: "score", label: "Score:", min: 1, max: 5 }), ["evaluator.bad-label output.label"]);
  assert.deepEqual(codes({ kind: "label", labels: {} }), ["evaluator.missing-field output.labels"]);
  assert.deepEqual(codes({ kind: "label", labels: { Yes: true, yes: false } }), ["evaluator.bad-label output.labels.yes"]);
  assert.deepEqual(codes({ kind: "label", labels: { ok: "yes" } }), ["evaluator.wrong-type output.labels.ok"]);
  assert.deepEqual(codes({ kind: "json" }), ["evaluator.missing-field output.pass"]);
  assert.deepEqual(codes({ kind: "json", pass: "$.a[*", reason: "$.r[*]" }), ["evaluator.bad-path output.pass", "evaluator.bad-path output.reason"]);
  assert.deepEqual(codes({ kind: "json", pass: { path: "$.a", combine: "any" } }), ["evaluator.bad-value output.pass.combine"]);
  assert.deepEqual(codes({ kind: "json", score: { path: "$.a[*]", combine: "all" } }), ["evaluator.bad-value output.score.combine"]);
  assert.deepEqual(codes({ kind: "json", pass: "$.v", pass_at: 3 }), ["evaluator.bad-value output.pass_at"]);
  assert.deepEqual(codes({ kind: "json", pass: "$.v", pass_values: [] }), ["evaluator.missing-field output.pass_values"]);
  assert.deepEqual(codes({ kind: "json", score: "$.s", fail_values: ["no"] }), ["evaluator.bad-value output.fail_values"]);
  assert.deepEqual(codes({ kind: "json", pass: "$.v", pass_values: ["yes", 1], fail_values: ["no", "YES"] }), ["evaluator.bad-value output.fail_values"], "a value in both, as the reader compares them");
  assert.deepEqual(codes({ kind: "json", pass: "$.v", fail_values: [true] }), ["evaluator.bad-value output.fail_values"], "true is the default pass value");
  assert.deepEqual(codes({ kind: "json", pass: "$.v", pass_values: ["yes", "idk"], fail_values: ["no"] }), []);
  rj.define({ ...base, output: { kind: "json", pass: "$.v", fail_values: [false] } });
  assert.deepEqual(rj.evaluators().find((e) => e.id === "r").spec.output, { kind: "json", pass: "$.v", pass_values: [true], fail_values: [false] });
  rj.undefine("r");
  assert.deepEqual(codes({ kind: "builtin", evaluator: "nope" }), ["evaluator.unknown-builtin output.evaluator"]);
  assert.deepEqual(codes({ kind: "builtin", evaluator: "answer-grounding" }), ["evaluator.builtin-input inputs"]);
  const bad = rj.checkEvaluator({ ...base, output: { kind: "json", pass: "$.items[x]" } }).errors[0];
  assert.deepEqual([bad.line, bad.col, bad.len], [1, 9, 1], "col at the x inside the path");
  // The schema's other paths.
  const more = rj.checkEvaluator({ id: "answer-grounding", dialect: "django", prompt: "{{ answer }}", messages: [{ role: "robot" }], inputs: [{ name: "answer", kind: "claims", required: "yes" }],
    output: { kind: "yes-no" }, words: { passed: "P" }, example: { inputs: [] } });
  assert.deepEqual(more.errors.map((e) => `${e.code} ${e.path}`).sort(), [
    "evaluator.bad-value dialect",
    "evaluator.bad-value inputs[0].kind",
    "evaluator.bad-value messages[0].role",
    "evaluator.builtin-id id",
    "evaluator.missing-field messages[0].content",
    "evaluator.missing-field words.failed",
    "evaluator.prompt-and-messages messages",
    "evaluator.wrong-type example.inputs",
    "evaluator.wrong-type inputs[0].required",
  ]);
  assert.deepEqual(rj.checkEvaluator({ id: "x", inputs: [{ name: "answer" }], output: { kind: "yes-no" } }).errors.map((e) => e.path), ["prompt"]);
  const last = rj.checkEvaluator({ id: "x", messages: [{ role: "user", content: "{{ answer }}" }, { role: "assistant", content: "ok" }], inputs: [{ name: "answer" }], output: { kind: "yes-no" } });
  assert.deepEqual(last.warnings.map((w) => `${w.code} ${w.path}`), ["evaluator.bad-value messages[1].role"]);
});

test("define throws a RagJudgeError with code, path and, inside a template, line and col; defining an id again replaces it", () => {
  const err = throwsRJ(() => rj.define({ id: "broken", prompt: "ok\n{{ answer }", inputs: [{ name: "answer" }], output: { kind: "yes-no" } }),
    { kind: "evaluator", code: "evaluator.template", subject: "broken", line: 2, col: true });
  assert.equal(err.path, "prompt");
  assert.match(err.message, /^evaluator: broken: prompt:2:\d+: /);
  assert.deepEqual(err.problems.map((p) => [p.code, p.path, p.line]), [["evaluator.template", "prompt", 2]]);
  // Every problem, each with its path and position: on the error as a list, and in its message.
  const e2 = throwsRJ(() => rj.define({ id: "broken", prompt: "x", inputs: [], output: { kind: "yes-no" }, z: 1 }), { kind: "evaluator", code: "evaluator.unknown-field" });
  assert.equal(e2.path, "z");
  assert.deepEqual(e2.problems.map((p) => [p.severity, p.code, p.path]), [["error", "evaluator.unknown-field", "z"], ["error", "evaluator.missing-field", "inputs"]]);
  assert.doesNotMatch(e2.message, /and \d+ more/);
  assert.match(e2.message, /^evaluator: broken: z: unknown field "z".*; inputs: inputs is empty/);
  const e3 = throwsRJ(() => rj.define({ id: "Bad", prompt: "{{ a }}\n{{ b", inputs: [{ name: "a" }], output: { kind: "score", min: 5, max: 1 } }), { kind: "evaluator" });
  assert.deepEqual(e3.problems.map((p) => [p.code, p.path, p.line ?? 0]), [["evaluator.bad-id", "id", 0], ["evaluator.bad-value", "output.max", 0], ["evaluator.template", "prompt", 2]]);
  assert.match(e3.message, /; prompt:2:\d+: unexpected end of template, expected "end of print statement"; the "\{\{" opened at line 2, column 1 is not closed$/);
  assert.ok(!rj.evaluators().some((e) => e.id === "broken"), "nothing defined");

  rj.define({ ...tone, id: "again" });
  rj.define({ ...tone, id: "again", prompt: "Polite? {{ answer }}" });
  assert.equal(rj.evaluators().filter((e) => e.id === "again").length, 1);
  assert.equal(rj.render("again", { answer: "hi" }).prompt, "Polite? hi");
  // Held inputs are read again for the new definition, not answered from the old one.
  const inputs = { answer: "hi" };
  rj.render("again", inputs);
  rj.define({ ...tone, id: "again", prompt: "Kind? {{ answer }}" });
  assert.equal(rj.render("again", inputs).prompt, "Kind? hi");
});

test("undefine removes a custom evaluator, never a built-in", () => {
  rj.define({ ...tone, id: "gone" });
  assert.equal(rj.undefine("gone"), true);
  assert.equal(rj.undefine("gone"), false);
  assert.equal(rj.undefine("answer-grounding"), false);
  throwsRJ(() => rj.render("gone", { answer: "x" }), { kind: "input", code: "input.unknown-evaluator", subject: "gone" });
});

test("spec(id) gives a built-in as an editable definition whose reader is the built-in's", () => {
  const s = rj.spec("claim-groundedness");
  assert.equal(s.id, "claim-groundedness-copy");
  assert.deepEqual(s.output, { kind: "builtin", evaluator: "claim-groundedness" });
  assert.deepEqual(Object.keys(s), ["id", "title", "description", "dialect", "prompt", "inputs", "output", "words", "example"]);
  const c = rj.checkEvaluator(s);
  assert.deepEqual([c.ok, c.errors, c.warnings], [true, [], []]);
  const b = rj.evaluators().find((e) => e.id === "claim-groundedness");
  rj.define({ ...s, prompt: "En français : " + s.prompt });
  const mine = rj.evaluators().find((e) => e.id === "claim-groundedness-copy");
  assert.equal(mine.view, "claims");
  assert.ok(rj.render(mine.id, b.example.inputs).prompt.startsWith("En français : "));
  assert.deepEqual(rj.parse(mine.id, b.example.inputs, b.example.answer), rj.parse(b.id, b.example.inputs, b.example.answer));
  assert.deepEqual(rj.spec(mine.id).prompt, "En français : " + s.prompt);
  throwsRJ(() => rj.spec("nope"), { kind: "input", code: "input.unknown-evaluator", subject: "nope" });
});

test("a built-in duplicated is the built-in: its reader's variables are provided, never inputs; its example renders and reads as the built-in's", () => {
  for (const b of rj.evaluators().filter((e) => !e.custom)) {
    const s = rj.spec(b.id);
    const c = rj.checkEvaluator(s);
    assert.deepEqual([c.ok, c.errors, c.warnings], [true, [], []], b.id);
    assert.deepEqual(c.provided, b.variables, `${b.id}: what its reader makes, from the core's declaration`);
    assert.ok(c.variables.every((v) => c.provided.includes(v)), `${b.id}: its prompt reads only what its reader makes`);
    assert.deepEqual(s.inputs.map((i) => [i.name, i.kind]), b.inputs.map((i) => [i.name, i.kind]), b.id);
    rj.define({ ...s, id: b.id + "-same" });
    const mine = rj.evaluators().find((e) => e.id === b.id + "-same");
    assert.deepEqual([mine.inputs, mine.view, mine.score, mine.words], [b.inputs, b.view, b.score, b.words], b.id);
    assert.equal(rj.render(mine.id, b.example.inputs).prompt, rj.render(b.id, b.example.inputs).prompt, b.id);
    assert.deepEqual(rj.parse(mine.id, b.example.inputs, b.example.answer), rj.parse(b.id, b.example.inputs, b.example.answer), b.id);
  }
  const cg = rj.evaluators().find((e) => e.id === "claim-groundedness");
  assert.deepEqual(cg.variables, ["question", "reports", "evidence"]);
  assert.deepEqual(rj.checkEvaluator(tone).provided, [], "another reader provides nothing");

  // What the reader makes is no input: declaring it is an error that says so.
  const s = rj.spec("claim-groundedness");
  const withReports = { ...s, inputs: [...s.inputs, { name: "reports", label: "Reports", kind: "text", required: true }] };
  const c = rj.checkEvaluator(withReports);
  assert.deepEqual(c.errors.map((e) => [e.code, e.path]), [["evaluator.builtin-input", "inputs[3].name"]]);
  assert.match(c.errors[0].message, /"reports" is made by claim-groundedness's reader .*remove this input/);

  // Its lists of claims and evidence may be plain lists of texts.
  const asLists = { ...s, id: "claims-as-lists", inputs: s.inputs.map((i) => (i.kind === "claims" || i.kind === "evidence" ? { ...i, kind: "list" } : i)) };
  assert.deepEqual(rj.checkEvaluator(asLists).errors, []);
  rj.define(asLists);
  const texts = { question: "Q?", claims: ["The sky is blue.", "Grass is red."], evidence: ["The sky is blue on clear days."] };
  assert.equal(rj.render("claims-as-lists", texts).prompt, rj.render("claim-groundedness", texts).prompt);
  assert.match(rj.render("claims-as-lists", texts).prompt, /Claim c2: Grass is red\./);
  const asText = rj.checkEvaluator({ ...s, inputs: s.inputs.map((i) => (i.name === "claims" ? { ...i, kind: "text" } : i)) });
  assert.deepEqual(asText.errors.map((e) => [e.code, e.path]), [["evaluator.builtin-input", "inputs[1].kind"]]);
  assert.match(asText.errors[0].message, /of kind "claims" or "list"/);
});

test("a prompt that never holds the judged input is an error under the template, for every built-in reader and the custom ones (finding 1)", () => {
  // A copy of each built-in whose prompt reads every input but the judged one (claim groundedness:
  // neither claims nor the reports its reader makes of them).
  for (const b of rj.evaluators().filter((e) => !e.custom)) {
    const judged = b.inputs.find((i) => i.judged);
    const s = rj.spec(b.id);
    const prompt = b.inputs.filter((i) => !i.judged).map((i) => `{{ ${i.variable || i.name} }}`).join("\n") + "\nJudge it.";
    const c = rj.checkEvaluator({ ...s, dialect: "jinja", prompt });
    assert.equal(c.ok, false, b.id);
    assert.deepEqual(c.errors.map((e) => [e.code, e.path]), [["evaluator.judged-unread", "prompt"]], b.id);
    assert.match(c.errors[0].message, new RegExp(`"${judged.name}".*add \\{\\{ ${judged.variable || judged.name} \\}\\}`), b.id);
    throwsRJ(() => rj.define({ ...s, id: b.id + "-blind", dialect: "jinja", prompt }), { kind: "evaluator", code: "evaluator.judged-unread" });
    assert.ok(!rj.evaluators().some((e) => e.id === b.id + "-blind"), `${b.id}: never defined, so never run`);
  }
  // Claim groundedness's reports dropped from its own prompt, as the editor's user did; reading the
  // claims as given instead is reading them.
  const cg = rj.spec("claim-groundedness");
  const dropped = { ...cg, prompt: cg.prompt.replace("{{ reports }}", "(see above)") };
  assert.ok(dropped.prompt !== cg.prompt);
  const d = rj.checkEvaluator(dropped);
  assert.deepEqual(d.errors.map((e) => [e.code, e.path]), [["evaluator.judged-unread", "prompt"]]);
  assert.match(d.errors[0].message, /"claims" \(claim-groundedness's reader makes "reports" of it\).*add \{\{ reports \}\}/);
  assert.equal(rj.checkEvaluator({ ...dropped, prompt: dropped.prompt + "\n{% for c in claims %}{{ c }}{% endfor %}" }).ok, true);
  // A built-in's input that is not judged, read by no template, warns: the evidence dropped.
  const noEvidence = rj.checkEvaluator({ ...cg, prompt: cg.prompt.replace("{{ evidence }}", "(none)") });
  assert.equal(noEvidence.ok, true);
  assert.deepEqual(noEvidence.warnings.map((w) => [w.code, w.path]), [["evaluator.unused-input", "inputs[2]"]]);
  // ... but not an input the built-in's own prompt does not read either: the reader reads it.
  const rr = rj.spec("rag-recall");
  assert.ok(rr.inputs.some((i) => i.name === "threshold"));
  assert.deepEqual(rj.checkEvaluator({ ...rr, inputs: rr.inputs.map((i) => ({ ...i })) }).warnings, []);

  // A custom reader: the Answer relevance starter without {{ answer }}.
  const starter = JSON.parse(readFileSync(root + "web/starters/answer-relevance.json", "utf8"));
  const blind = { ...starter, id: "no-answer", prompt: starter.prompt.replace("{{ answer }}", "(above)") };
  assert.notEqual(blind.prompt, starter.prompt);
  const c = rj.checkEvaluator(blind);
  assert.deepEqual(c.errors.map((e) => [e.code, e.path]), [["evaluator.judged-unread", "prompt"]]);
  assert.deepEqual(c.warnings, [], "the judged input's error is not said again as a warning");
  throwsRJ(() => rj.define(blind), { kind: "evaluator", code: "evaluator.judged-unread" });
  // In messages, the error is on the last user message; the judged input read in the system message is read.
  const msgs = { id: "msgs", messages: [{ role: "system", content: "Judge politeness." }, { role: "user", content: "Is it polite?" }, { role: "assistant", content: "Ok." }], inputs: [{ name: "answer" }], output: { kind: "yes-no" } };
  assert.deepEqual(rj.checkEvaluator(msgs).errors.map((e) => [e.code, e.path]), [["evaluator.judged-unread", "messages[1].content"]]);
  assert.equal(rj.checkEvaluator({ ...msgs, messages: [{ role: "system", content: "Judge: {{ answer }}" }, msgs.messages[1]] }).ok, true);
  // Without a judged input marked, the guess goes to an input a template reads, not to one it does not.
  const guessed = rj.checkEvaluator({ id: "guess", prompt: "Is {{ reply }} polite?", inputs: [{ name: "notes" }, { name: "reply" }], output: { kind: "yes-no" } });
  assert.equal(guessed.ok, true);
  assert.deepEqual(guessed.warnings.map((w) => [w.code, w.path]), [["evaluator.unused-input", "inputs[0]"]]);
  assert.deepEqual(rj.define({ id: "guess", prompt: "Is {{ reply }} polite?", inputs: [{ name: "notes" }, { name: "reply" }], output: { kind: "yes-no" } }).inputs.map((i) => [i.name, !!i.judged]), [["notes", false], ["reply", true]]);
  rj.undefine("guess");
  // ... and an input named like the answer is the judged one, read or not.
  assert.deepEqual(rj.checkEvaluator({ id: "guess2", prompt: "Is {{ question }} clear?", inputs: [{ name: "question" }, { name: "answer" }], output: { kind: "yes-no" } }).errors.map((e) => e.code), ["evaluator.judged-unread"]);
});

test("an input declared but unread warns and is optional: it never holds up a render", () => {
  const spec = { id: "kept-input", prompt: "Polite? {{ answer }}", inputs: [{ name: "answer" }, { name: "notes" }, { name: "sources", kind: "list" }], output: { kind: "yes-no" } };
  const c = rj.checkEvaluator(spec);
  assert.equal(c.ok, true);
  assert.deepEqual(c.warnings.map((w) => [w.code, w.path]), [["evaluator.unused-input", "inputs[1]"], ["evaluator.unused-input", "inputs[2]"]]);
  const r = rj.define(spec);
  assert.deepEqual(r.inputs.map((i) => [i.name, i.required]), [["answer", true], ["notes", false], ["sources", false]]);
  assert.deepEqual(r.warnings.map((w) => w.code), ["evaluator.unused-input", "evaluator.unused-input"]);
  assert.equal(rj.render("kept-input", { answer: "Thanks!" }).prompt, "Polite? Thanks!");
  assert.equal(rj.parse("kept-input", { answer: "Thanks!", sources: [] }, "yes").passed, true);
  assert.deepEqual(rj.rowInputs("kept-input", { answer: "Thanks!" }, { answer: "answer" }).checks, []);
});

test("a definition as a JSON text is read as the object", () => {
  assert.equal(rj.define(JSON.stringify({ ...tone, id: "from-text" })).id, "from-text");
  assert.equal(rj.render("from-text", { answer: "x" }).prompt, "Is this reply polite?\nx\nAnswer yes or no.");
});

test("the starters in web/starters define cleanly, are normalised as they are, and read their examples", () => {
  const dir = new URL("web/starters/", `file://${root}`);
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  assert.deepEqual(files, ["answer-relevance.json", "citation-faithfulness.json", "context-relevance.json"]);
  for (const f of files) {
    const s = JSON.parse(readFileSync(new URL(f, dir), "utf8"));
    assert.equal(s.id + ".json", f);
    const c = rj.checkEvaluator(s);
    assert.deepEqual([c.ok, c.errors, c.warnings], [true, [], []], f);
    rj.define(s);
    const e = rj.evaluators().find((x) => x.id === s.id);
    assert.deepEqual(e.spec, s, `${f} is written normalised`);
    const v = rj.parse(s.id, s.example.inputs, s.example.answer);
    assert.ok(!v.checks.some((x) => x.severity === "error"), `${f}: ${JSON.stringify(v.checks)}`);
    assert.ok(rj.render(s.id, s.example.inputs).prompt.length > 100);
  }
});

test("checkEvaluator re-checks a 10 KB template on each keystroke (its speed: bench/checkevaluator.mjs)", (t) => {
  const para = "Judge whether {{ answer }} answers {{ question }} using only the passages. ";
  const prompt = para.repeat(Math.ceil(10240 / para.length)) + "{% for c in contexts %}[{{ loop.index }}] {{ c }}{% endfor %}";
  assert.ok(prompt.length >= 10240);
  const spec = (k) => ({ id: "big", prompt: prompt + "x".repeat(k % 7), inputs: [{ name: "question" }, { name: "answer" }, { name: "contexts", kind: "list" }], output: { kind: "yes-no" } });
  for (let k = 0; k < 10; k++) rj.checkEvaluator(spec(k)); // warm up
  const times = [];
  for (let k = 0; k < 31; k++) {
    const s = spec(k);
    s.prompt += k; // a keystroke: a template not checked before
    const t0 = performance.now();
    const c = rj.checkEvaluator(s);
    times.push(performance.now() - t0);
    assert.equal(c.ok, true);
  }
  times.sort((a, b) => a - b);
  // Timing is the benchmark's to report (about 5 ms on an idle machine), not a test's to assert:
  // the machines that run the tests are shared and noisy.
  t.diagnostic(`median ${times[15].toFixed(2)} ms`);
});

test("a hostile definition of many labels, inputs, messages or pass values is refused at once with its path, never worked through for minutes", (t) => {
  const many = (n, f) => Array.from({ length: n }, (_, i) => f(i));
  const yesNo = { kind: "yes-no" };
  const cases = [
    ["output.labels", { prompt: "{{ answer }}", inputs: [{ name: "answer" }], output: { kind: "label", labels: Object.fromEntries(many(20000, (i) => ["l" + i, i % 2 === 0])) } }],
    ["inputs", { prompt: "{{ i0 }}", inputs: many(20000, (i) => ({ name: "i" + i })), output: yesNo }],
    ["messages", { messages: many(20000, () => ({ role: "user", content: "{{ answer }}" })), inputs: [{ name: "answer" }], output: yesNo }],
    ["output.pass_values", { prompt: "{{ answer }}", inputs: [{ name: "answer" }], output: { kind: "json", pass: "$.v", pass_values: many(20000, (i) => "v" + i) } }],
    ["example.inputs", { prompt: "{{ answer }}", inputs: [{ name: "answer" }], output: yesNo, example: { inputs: Object.fromEntries(many(20000, (i) => ["k" + i, "v"])) } }],
  ];
  for (const [path, spec] of cases) {
    const start = performance.now();
    const err = throwsRJ(() => rj.define({ id: "many", title: "many", ...spec }), { code: "evaluator.bad-value" });
    const ms = performance.now() - start;
    t.diagnostic(`${path}: refused in ${ms.toFixed(0)} ms`);
    assert.equal(err.path, path);
    // Refused by its count before anything is worked through (the check names the count), so
    // how long it took is only reported.
    assert.match(err.message, /holds 20000 (items|entries): at most 100/);
  }
  // At the limit it is a definition like any other.
  const hundred = Object.fromEntries(many(100, (i) => ["label " + i, i % 2 === 0]));
  rj.define({ id: "many", prompt: "{{ answer }}", inputs: [{ name: "answer" }], output: { kind: "label", labels: hundred } });
  assert.equal(rj.parse("many", { answer: "x" }, "Verdict: label 99").passed, false);
  rj.undefine("many");
});

test("other tools' judge prompts as custom evaluators, read as their judges answer them", () => {
  // Arize Phoenix's hallucination template (str.format, single braces) with its explanation
  // variant's answer shape; autoevals' closed QA (mustache {{input}}, choices Y/N); promptfoo's
  // llm-rubric ({reason, pass, score}); DeepEval's faithfulness verdicts; RAGAS' statements.
  // Prompts and answers written here in the shape those projects' templates, tests and docs show.
  const defs = [
    { id: "phoenix-hallucination", dialect: "format", prompt: "[Query]: {input}\n[Reference text]: {reference}\n[Answer]: {output}\nIs the answer above factual or hallucinated based on the query and reference text?\nEXPLANATION:",
      inputs: [{ name: "input" }, { name: "reference" }, { name: "output" }], output: { kind: "label", labels: { factual: true, hallucinated: false } } },
    { id: "autoevals-closed-qa", prompt: "[Task]: {{input}}\n[Submission]: {{output}}\n[Criterion]: {{criteria}}\nDoes the submission meet the criterion? Answer Y or N on the last line.",
      inputs: [{ name: "input" }, { name: "output" }, { name: "criteria" }], output: { kind: "label", labels: { Y: true, N: false } } },
    { id: "promptfoo-rubric", messages: [{ role: "system", content: "You are grading output according to a user-specified rubric. Respond with a JSON object {reason: string, pass: boolean, score: number}." }, { role: "user", content: "<Output>{{ output }}</Output>\n<Rubric>{{ rubric }}</Rubric>" }],
      inputs: [{ name: "output" }, { name: "rubric" }], output: { kind: "json", pass: "$.pass", score: "$.score", reason: "$.reason", min: 0, max: 1 } },
    { id: "deepeval-faithfulness", prompt: "Claims:\n{{ claims }}\nRetrieval context:\n{{ context }}\nReturn JSON with a \"verdicts\" list, each {\"verdict\": \"yes\"|\"no\"|\"idk\", \"reason\"}.",
      inputs: [{ name: "claims" }, { name: "context" }], output: { kind: "json", pass: "$.verdicts[*].verdict", pass_values: ["yes", "idk"] } },
    { id: "ragas-faithfulness", prompt: "Context: {{ context }}\nStatements: {{ statements }}\nReturn {\"statements\": [{\"statement\", \"reason\", \"verdict\": 1 or 0}]}.",
      inputs: [{ name: "context" }, { name: "statements" }], output: { kind: "json", score: { path: "$.statements[*].verdict", combine: "mean" }, min: 0, max: 1, pass_at: 1 } },
  ];
  for (const d of defs) assert.deepEqual(rj.define(d).warnings, [], d.id);
  const read = (id, answer) => {
    const ev = rj.evaluators().find((e) => e.id === id);
    const v = rj.parse(id, Object.fromEntries(ev.inputs.map((i) => [i.name, "x"])), answer);
    return [v.passed, v.score, v.checks.filter((c) => c.severity === "error").map((c) => c.code)];
  };
  assert.equal(rj.render("phoenix-hallucination", { input: "When?", reference: "In 1889.", output: "1889" }).prompt.split("\n")[0], "[Query]: When?");
  for (const [id, answer, want] of [
    ["phoenix-hallucination", "hallucinated", [false, 0, []]],
    ["phoenix-hallucination", " The reference dates the tower to 1889 and the answer says 1889.\nLABEL: factual", [true, 1, []]],
    ["phoenix-hallucination", "EXPLANATION: The answer adds an architect the reference never names.\nLABEL: \"hallucinated\"", [false, 0, []]],
    ["phoenix-hallucination", "The answer is factual, though one might call it hallucinated.", [null, null, ["answer.no-verdict"]]],
    ["autoevals-closed-qa", "The submission names the capital as asked.\nY", [true, 1, []]],
    ["autoevals-closed-qa", "1. The criterion asks for a date.\n2. No date is given.\nN\nAnswer=N", [false, 0, []]],
    ["promptfoo-rubric", '{"reason": "The output greets the user.", "pass": true, "score": 1.0}', [true, 1, []]],
    ["promptfoo-rubric", '{"reason": "Svaret henviser til databeskyttelse.", "score": 1, "pass": "true"}', [true, 1, []]],
    ["promptfoo-rubric", '```json\n{"reason": "It speaks like a pirate.", "pass": false, "score": 0.1}\n```\nLet me know if you need more detail.', [false, 0.1, []]],
    ["deepeval-faithfulness", '{"verdicts": [{"verdict": "yes"}, {"verdict": "idk", "reason": "The context does not say."}, {"verdict": "Yes"}]}', [true, 1, []]],
    ["deepeval-faithfulness", '```json\n{\n  "verdicts": [\n    {"verdict": "yes"},\n    {"verdict": "no", "reason": "The context says 1889, not 1887."}\n  ]\n}\n```', [false, 0, []]],
    ["ragas-faithfulness", '{"statements": [{"statement": "Built in 1889.", "reason": "Stated.", "verdict": 1}, {"statement": "By Gustave.", "reason": "Not stated.", "verdict": 0}]}', [false, 0.5, []]],
    ["ragas-faithfulness", '{"statements": [{"statement": "Built in 1889.", "reason": "Stated.", "verdict": "1"}]}', [true, 1, []]],
  ]) assert.deepEqual(read(id, answer), want, `${id}: ${answer}`);
  for (const d of defs) rj.undefine(d.id);
});

test("the reader form's words for fail_values are what the core's json reader does (finding 20)", async () => {
  const { FAIL_VALUES_HINT } = await import("../../web/custom/outputform.js");
  const base = { id: "fv", prompt: "{{ answer }}", inputs: [{ name: "answer" }] };
  /** passed for answer {"v": value} under output o */
  const read = (o, value) => {
    rj.define({ ...base, output: { kind: "json", pass: "$.v", ...o } });
    try {
      return rj.parse("fv", { answer: "a" }, JSON.stringify({ v: value })).passed;
    } finally {
      rj.undefine("fv");
    }
  };
  // Given: a value in neither list is no verdict.
  assert.match(FAIL_VALUES_HINT, /^optional: given, a value in neither list is no verdict\./);
  assert.equal(read({ pass_values: ["yes", "idk"], fail_values: ["no"] }, "unsure"), null);
  assert.equal(read({ pass_values: ["yes", "idk"], fail_values: ["no"] }, "no"), false);
  // Blank, pass values of texts: any other value fails.
  assert.match(FAIL_VALUES_HINT, /Blank: any other value fails/);
  assert.equal(read({ pass_values: ["pass"] }, "unsure"), false);
  // Blank, one boolean: its opposite alone fails, anything else is no verdict.
  assert.match(FAIL_VALUES_HINT, /pass values are one boolean \(true, or 1\) only its opposite fails and anything else \(null, "unsure"\) is no verdict/);
  for (const pass of [[true], [1]]) {
    assert.equal(read({ pass_values: pass }, false), false, JSON.stringify(pass));
    assert.equal(read({ pass_values: pass }, 0), false, JSON.stringify(pass));
    assert.equal(read({ pass_values: pass }, "unsure"), null, JSON.stringify(pass));
    assert.equal(read({ pass_values: pass }, null), null, JSON.stringify(pass));
  }
});
