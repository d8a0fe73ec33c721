// custompage.test.mjs: tests of the page's handling of custom evaluators that needs no engine: web/custom/specedit.js
// (fresh specs, free ids, inputs kept in step with a template's names, the export file and the
// reading of an imported one) and web/custom/registry.js over the memory store
// with a recording stand-in for the engine's define/undefine (the engine's own checks are the
// core's tests; the page's use of the real engine is test/e2e/custom.test.mjs).
import { test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { blankSpec, freeId, copyOf, templatesOf, labelOf, syncInputs, cleanInputs, describe, exportFile, readImport, importProblem, lineStarts, sampleOf, sampleValue, errorAt, defaultOutput, OUTPUT_KINDS, EXPORT_FORMAT, fitsKind, exampleOfSample, hasExampleIn, removeField } from "../../web/custom/specedit.js";
import { EvaluatorRegistry, errorCheck, exampleOf } from "../../web/custom/registry.js";
import { MemoryStore, openCustomStore } from "../../web/custom/evaluatorstore.js";
import { onChange } from "../../web/lib/store.js";
import { judgingOf, sameJudging, canonical } from "../../web/custom/specsame.js";

test("freeId makes a valid id that is not taken; blankSpec and copyOf use it", () => {
  assert.equal(freeId("My Judge!", []), "my-judge");
  assert.equal(freeId("a", ["a", "a-2"]), "a-3");
  assert.equal(freeId("---", []), "my-evaluator");
  assert.equal(blankSpec(["my-evaluator"]).id, "my-evaluator-2");
  const s = blankSpec();
  const c = copyOf(s, [s.id, s.id + "-copy"]);
  assert.equal(c.id, "my-evaluator-copy-2");
  assert.equal(c.title, "My evaluator (copy)");
  c.inputs[0].label = "changed";
  assert.equal(s.inputs[0].label, "Question", "a copy shares nothing with its source");
  assert.equal(copyOf({ ...s, id: "ctx" }, ["ctx"], { suffix: "", title: "Context" }).id, "ctx-2");
});

test("templatesOf names each template by the path the core's checks use", () => {
  assert.deepEqual(templatesOf({ id: "x", prompt: "a" }), [{ path: "prompt", source: "a" }]);
  assert.deepEqual(
    templatesOf({ id: "x", messages: [{ role: "system", content: "s" }, { role: "user", content: "u" }] }).map((t) => [t.path, t.role, t.source]),
    [["messages[0].content", "system", "s"], ["messages[1].content", "user", "u"]],
  );
});

test("syncInputs adds the names read, drops only what it added itself, keeps what the user touched", () => {
  assert.equal(labelOf("retrieved_contexts"), "Retrieved contexts");
  assert.equal(labelOf("expectedOutput"), "Expected output");
  let inputs = syncInputs([], ["question", "contexts"]);
  assert.deepEqual(inputs, [
    { name: "question", label: "Question", kind: "text", required: true, auto: true },
    { name: "contexts", label: "Contexts", kind: "list", required: true, auto: true },
  ]);
  // Typed letter by letter: "c", then "co": the half-typed name goes.
  inputs = syncInputs(syncInputs(inputs, ["question", "contexts", "c"]), ["question", "contexts", "co"]);
  assert.deepEqual(inputs.map((i) => i.name), ["question", "contexts", "co"]);
  // The user labels "co": it is theirs now, and stays, marked unused, when no template reads it.
  const { auto, ...mine } = inputs[2];
  inputs = syncInputs([inputs[0], inputs[1], { ...mine, label: "Company" }], ["question", "contexts"]);
  assert.deepEqual(inputs[2], { name: "co", label: "Company", kind: "text", required: true, unused: true });
  // Read again: no longer unused.
  assert.deepEqual(syncInputs(inputs, ["question", "contexts", "co"])[2], { name: "co", label: "Company", kind: "text", required: true });
  assert.deepEqual(cleanInputs([{ name: "a", auto: true, unused: true }]), [{ name: "a", label: "A", kind: "text", required: false }]);
});

test("describe draws a custom evaluator from its spec alone", () => {
  const d = describe({ id: "ctx", title: "Context relevance", dialect: "jinja", prompt: "{{ q }}", inputs: [{ name: "q", kind: "text", required: true }], output: defaultOutput("score") }, { example: { inputs: { q: "x" }, answer: "Score: 4" } });
  assert.equal(d.custom, true);
  assert.equal(d.title, "Context relevance");
  assert.deepEqual(d.inputs, [{ name: "q", label: "Q", kind: "text", required: true }]);
  assert.deepEqual(d.score, { kind: "scale", max: 5, decimals: 2 });
  assert.equal(d.example.answer, "Score: 4");
  for (const k of OUTPUT_KINDS) assert.equal(defaultOutput(k).kind, k);
});

test("exportFile and readImport round-trip one evaluator or several", () => {
  const a = blankSpec();
  const b = { ...blankSpec([a.id]), output: defaultOutput("label") };
  assert.deepEqual(readImport(exportFile([a])), { specs: [a], names: [`The evaluator (${a.id})`], errors: [] });
  const both = JSON.parse(exportFile([a, b]));
  assert.equal(both.format, EXPORT_FORMAT);
  assert.deepEqual(readImport(exportFile([a, b])), { specs: [a, b], names: [`Evaluator 1 (${a.id})`, `Evaluator 2 (${b.id})`], errors: [] });
  assert.deepEqual(readImport(JSON.stringify([a, b])).specs, [a, b], "a plain array of specs too");
});

test("readImport says what is wrong with a file and with each evaluator in it", () => {
  assert.match(readImport("{ nope").errors[0], /^The file is not JSON: /);
  assert.deepEqual(readImport("42").errors, ["The file holds a number, not an evaluator (a JSON object)."]);
  assert.deepEqual(readImport("[]").errors, ["The file holds no evaluator."]);
  assert.deepEqual(readImport(JSON.stringify({ format: EXPORT_FORMAT, evaluators: {} })).errors, ['The file says it holds evaluators but its "evaluators" is not a list.']);
  const good = blankSpec();
  // Every JSON object goes to the checker (rj.checkEvaluator), which says all that is wrong with
  // it at once; only what is no evaluator at all is refused here.
  const bad = { title: 7, prompt: "x", inputs: "a", output: { kind: "score", min: "1", max: 5 } };
  const r = readImport(JSON.stringify([good, bad, "text"]));
  assert.deepEqual(r.specs, [good, bad]);
  assert.deepEqual(r.names, [`Evaluator 1 (${good.id})`, "Evaluator 2"]);
  assert.deepEqual(r.errors, ["Evaluator 3: not a JSON object."]);
  assert.equal(
    importProblem("Evaluator 2", [{ path: "title", message: "title must be a string, got a number" }, { path: "prompt", line: 2, message: "unexpected end" }]),
    "Evaluator 2: title: must be a string, got a number; prompt line 2: unexpected end.",
  );
});

test("the example is the definition's own: the editor's sample and last pasted answer never become it by themselves", () => {
  const spec = { ...blankSpec(), inputs: [{ name: "question", label: "Question", kind: "text" }, { name: "contexts", label: "Passages", kind: "list" }] };
  const made = { question: sampleValue(spec.inputs[0]), contexts: sampleValue(spec.inputs[1]) };
  assert.deepEqual(made, { question: "(question)", contexts: ["Passages 1", "Passages 2"] });
  // The sample and answer kept with the record are no example.
  assert.equal(exampleOf({ id: spec.id, spec, sample: { inputs: { ...made, question: "Where is my parcel?" } }, answer: "Verdict: yes" }), undefined);
  // Saved as the example (the editor's button): its made-up values and empty ones are left out.
  const ex = exampleOfSample(spec.inputs, { ...made, question: "Where is my parcel?", other: "x" }, "Verdict: yes");
  assert.deepEqual(ex, { inputs: { question: "Where is my parcel?" }, answer: "Verdict: yes" });
  assert.deepEqual(exampleOfSample(spec.inputs, { question: "", contexts: [] }, ""), { inputs: {}, answer: "" });
  // A label renamed since the sample was made: its old placeholder (of the name) is still one.
  const renamed = [{ ...spec.inputs[0], label: "Query" }, spec.inputs[1]];
  assert.deepEqual(exampleOfSample(renamed, made, "").inputs, {});
  const withEx = { ...spec, example: ex };
  assert.equal(hasExampleIn(withEx), true);
  assert.deepEqual(exampleOf({ id: spec.id, spec: withEx, sample: { inputs: made }, answer: "Verdict: no" }), ex, "the example, whatever the sample is now");
  assert.equal(hasExampleIn({ ...spec, example: { inputs: {}, answer: "" } }), false);
  assert.equal(hasExampleIn({ ...spec, example: "x" }), false);
  // An export carries it, and an import starts the editor's sample from it.
  const back = readImport(exportFile([withEx])).specs[0];
  assert.deepEqual(back.example, ex);
  assert.deepEqual(sampleOf(back), { sample: { inputs: { question: "Where is my parcel?", contexts: sampleValue(spec.inputs[1]) } }, answer: "Verdict: yes" });
});

test("syncInputs with a built-in's reader: what it makes is never an input, what it needs is declared as it declares it", () => {
  const own = [
    { name: "question", label: "Question", kind: "text", required: true, help: "The question." },
    { name: "claims", label: "Claims", kind: "claims", required: true, judged: true },
    { name: "evidence", label: "Evidence", kind: "evidence", required: true },
  ];
  const reader = { provided: ["question", "reports", "evidence"], own };
  const inputs = syncInputs([], ["question", "reports", "evidence"], reader);
  assert.deepEqual(inputs, [own[0], own[2], own[1]], "reports is no input; claims, which no template reads, is declared");
  assert.deepEqual(syncInputs(inputs, ["question", "reports", "evidence"], reader), inputs, "stable");
  // An input added by the editor before the reader was chosen, named like what it makes, goes.
  assert.deepEqual(syncInputs([{ name: "reports", label: "Reports", kind: "text", required: true, auto: true }], ["reports"], reader).map((i) => i.name), ["question", "claims", "evidence"]);
  // One the user declared stays, for the check to say what is wrong with it.
  assert.ok(syncInputs([{ name: "reports", label: "Reports", kind: "text", required: true }], ["reports"], reader).some((i) => i.name === "reports"));
  // A template that reads an input of its own that is optional: declared as the built-in does.
  const mode = { name: "mode", label: "Mode", kind: "choice", required: false, choices: ["strict", "lenient"] };
  assert.deepEqual(syncInputs([], ["mode"], { provided: [], own: [mode] }), [mode]);
});

test("fitsKind: an example's value is taken as it is only when it fits its input's kind", () => {
  assert.ok(fitsKind("text", "a") && fitsKind("choice", "strict") && fitsKind(undefined, "a"));
  assert.ok(fitsKind("number", 3) && fitsKind("number", "3.5") && !fitsKind("number", "x") && !fitsKind("number", ""));
  assert.ok(fitsKind("list", ["a"]) && !fitsKind("list", "a") && !fitsKind("list", [{ text: "a" }]));
  assert.ok(fitsKind("claims", ["a", { id: "c2", text: "b" }]) && !fitsKind("claims", [{ id: 1, text: "b" }]) && !fitsKind("claims", [{ title: "t" }]));
  assert.ok(fitsKind("evidence", [{ title: "t", text: "b" }, "c"]) && !fitsKind("evidence", "c"));
  const inputs = [{ name: "claims", kind: "claims" }, { name: "evidence", kind: "evidence" }, { name: "threshold", kind: "number" }, { name: "mode", kind: "choice" }];
  const example = { claims: [{ id: "c1", text: "x" }], evidence: [{ title: "T", text: "y" }], threshold: 3, mode: "lenient" };
  assert.deepEqual(sampleOf({ inputs, example: { inputs: example, answer: "a" } }), { sample: { inputs: example }, answer: "a" }, "a duplicated built-in's example, whole");
});

test("removeField removes an unknown field at a check's path, in place", () => {
  const spec = { id: "x", extra: 1, output: { kind: "score", "pass-at": 3 }, inputs: [{ name: "a" }, { name: "b", colour: "red" }] };
  assert.equal(removeField(spec, "extra"), true);
  assert.equal(removeField(spec, "output.pass-at"), true);
  assert.equal(removeField(spec, "inputs[1].colour"), true);
  assert.deepEqual(spec, { id: "x", output: { kind: "score" }, inputs: [{ name: "a" }, { name: "b" }] });
  assert.equal(removeField(spec, "nope.deeper"), false);
  assert.equal(removeField(spec, "inputs[7].x"), false);
  assert.equal(removeField(spec, ""), false);
});

test("lineStarts is where each line starts", () => {
  assert.deepEqual(lineStarts("ab\nhé{{ x }\nlast"), [0, 3, 12]);
  assert.deepEqual(lineStarts(""), [0]);
  assert.deepEqual(lineStarts("a\n"), [0, 2]);
});

/** fakeEngine records define/undefine and refuses specs whose prompt holds "BROKEN". */
function fakeEngine(builtins) {
  const defined = new Map();
  return {
    defined,
    define(spec) {
      if (String(spec.prompt).includes("BROKEN")) throw Object.assign(new Error("template: " + spec.id + ":1:3: unexpected"), { code: "template.syntax", path: "prompt", line: 1, col: 3, detail: "unexpected" });
      defined.set(spec.id, spec);
      return { id: spec.id, inputs: spec.inputs, warnings: [] };
    },
    undefine(id) {
      return defined.delete(id);
    },
    evaluators() {
      return [...builtins, ...[...defined.values()].map((s) => ({ id: s.id, title: s.title, inputs: s.inputs, custom: true, spec: s, words: { passed: "Relevant", failed: "Not relevant" } }))];
    },
  };
}

const BUILTINS = [{ id: "answer-grounding", title: "Answer grounding", inputs: [] }];

test("registry: stored evaluators are listed before the engine, defined when it is ready, edited in place", async () => {
  const store = new MemoryStore();
  const a = blankSpec();
  const b = { ...blankSpec([a.id]), prompt: "BROKEN {{ question }}" };
  await store.put({ id: a.id, spec: a, updatedAt: 1, ok: true });
  await store.put({ id: b.id, spec: b, updatedAt: 2, ok: true });
  const reg = new EvaluatorRegistry(BUILTINS, store, await store.list());
  assert.deepEqual(reg.all().map((e) => e.id), ["answer-grounding", a.id, b.id], "before the engine: as they were saved");
  const desc = reg.get(a.id);
  let changes = 0;
  onChange(() => reg.listed.value, () => changes++);

  const rj = fakeEngine(BUILTINS);
  reg.attach(rj);
  assert.deepEqual([...rj.defined.keys()], [a.id]);
  assert.deepEqual(reg.all().map((e) => e.id), ["answer-grounding", a.id], "one the engine refuses is not offered");
  assert.equal(reg.records.get(b.id).error.code, "template.syntax");
  assert.equal(changes, 1);
  assert.equal(reg.get(a.id), desc, "the description keeps its identity");
  assert.equal(desc.words.passed, "Relevant", "and takes the engine's entry");

  // An edit of the prompt alone changes no list.
  await reg.save({ id: a.id, spec: { ...a, prompt: a.prompt + " " }, ok: true, updatedAt: 0 });
  assert.equal(changes, 1);
  // A rename: the old id goes from the engine and the store.
  await reg.save({ id: "renamed", spec: { ...a, id: "renamed" }, ok: true, updatedAt: 0 }, { oldId: a.id });
  assert.equal(changes, 2);
  assert.deepEqual([...rj.defined.keys()], ["renamed"]);
  assert.deepEqual((await store.list()).map((r) => r.id).sort(), [b.id, "renamed"].sort());
  // Saved with errors: kept, not offered, out of the engine.
  await reg.save({ id: "renamed", spec: { ...a, id: "renamed" }, ok: false, updatedAt: 0 });
  assert.deepEqual(reg.all().map((e) => e.id), ["answer-grounding"]);
  assert.equal(rj.defined.size, 0);
  assert.equal((await store.list()).find((r) => r.id === "renamed").ok, false);
  await reg.remove("renamed");
  assert.deepEqual((await store.list()).map((r) => r.id), [b.id]);
  assert.deepEqual(errorCheck(new Error("plain")), { severity: "error", code: "evaluator.invalid", message: "plain", path: "", line: 0, col: 0, len: 0 });
});

test("registry.forRun: a run is shown with the definition it recorded once its evaluator was edited or deleted", async () => {
  const store = new MemoryStore();
  const spec = blankSpec();
  const reg = new EvaluatorRegistry(BUILTINS, store, []);
  const rj = fakeEngine(BUILTINS);
  reg.attach(rj);
  await reg.save({ id: spec.id, spec, ok: true, updatedAt: 0 });
  const run = { id: "run-abc-123", evaluator: spec.id, evaluatorSpec: structuredClone(spec) };
  const same = reg.forRun(run);
  assert.equal(same.id, run.id, "judged with the recorded definition, under the run's id");
  assert.equal(same.state, "current");
  assert.equal(same.title, spec.title);
  assert.deepEqual(rj.defined.get(run.id), { ...spec, id: run.id });
  assert.equal(reg.forRun({ id: "run-b", evaluator: "answer-grounding" }).id, "answer-grounding", "a built-in's run");

  await reg.save({ id: spec.id, spec: { ...spec, prompt: "Edited {{ question }} {{ answer }}" }, ok: true, updatedAt: 0 });
  const edited = reg.forRun(run);
  assert.equal(edited.id, run.id, "defined again under the run's own id");
  assert.equal(edited.state, "edited");
  assert.equal(rj.defined.get(run.id).prompt, spec.prompt, "with the prompt the run used");
  assert.deepEqual(edited.spec, spec);
  assert.match(edited.title, /as this run used it/);

  await reg.remove(spec.id);
  assert.equal(reg.forRun(run).state, "deleted");
  assert.ok(!reg.all().some((e) => e.id === run.id), "a run's copy is never offered as an evaluator");
});

test("registry.forRun: an edit of what only shows the evaluator (its example, title, words, labels) is no edit: the run's evaluator is current", async () => {
  const store = new MemoryStore();
  const spec = blankSpec();
  const reg = new EvaluatorRegistry(BUILTINS, store, []);
  reg.attach(fakeEngine(BUILTINS));
  await reg.save({ id: spec.id, spec, ok: true, updatedAt: 0 });
  const run = { id: "run-abc-124", evaluator: spec.id, evaluatorSpec: structuredClone(spec) };
  const shownOnly = {
    "its example saved (My evaluators, Save as the example)": { ...spec, example: { inputs: { question: "Q?", answer: "A." }, answer: "yes" } },
    "its title and description": { ...spec, title: "Renamed", description: "Now described." },
    "its verdict words": { ...spec, words: { passed: "Correct", failed: "Wrong" } },
    "its inputs' labels and help": { ...spec, inputs: spec.inputs.map((i) => ({ ...i, label: i.label + "!", help: "Say it." })) },
    "its fields in another order": Object.fromEntries(Object.entries(spec).reverse()),
    "defaults written out or left out": { ...spec, dialect: undefined, inputs: spec.inputs.map(({ name, label }) => ({ name, label })) },
  };
  for (const [what, now] of Object.entries(shownOnly)) {
    await reg.save({ id: spec.id, spec: now, ok: true, updatedAt: 0 });
    assert.equal(reg.forRun(run).state, "current", what);
  }
  const judging = {
    "its prompt": { ...spec, prompt: spec.prompt + " Be strict." },
    "its reader": { ...spec, output: { kind: "yes-no", pass: "no" } },
    "its dialect": { ...spec, dialect: "format" },
    "an input's kind": { ...spec, inputs: [spec.inputs[0], { ...spec.inputs[1], kind: "list" }] },
    "an input made optional": { ...spec, inputs: [spec.inputs[0], { ...spec.inputs[1], required: false }] },
    "the input judged": { ...spec, inputs: [{ ...spec.inputs[0], judged: true }, spec.inputs[1]] },
    "its check-up's right verdicts": { ...spec, checkup: { replaced: false, emptied: false, halved: null } },
  };
  for (const [what, now] of Object.entries(judging)) {
    await reg.save({ id: spec.id, spec: now, ok: true, updatedAt: 0 });
    assert.equal(reg.forRun(run).state, "edited", what);
  }
});

test("specsame: canonical is JSON with keys sorted; judgingOf keeps what judges and any field it does not know", () => {
  assert.equal(canonical({ b: 1, a: [{ d: undefined, c: null }, undefined] }), '{"a":[{"c":null},null],"b":1}');
  assert.equal(canonical({ b: 1, a: 2 }), canonical({ a: 2, b: 1 }));
  const spec = { id: "x", title: "X", prompt: "{{ a }}", inputs: [{ name: "a", label: "A", help: "h" }], output: { kind: "yes-no" }, example: { inputs: {}, answer: "" }, future: 1 };
  assert.deepEqual(judgingOf(spec), { id: "x", dialect: "jinja", prompt: "{{ a }}", inputs: [{ name: "a", kind: "text", required: true }], output: { kind: "yes-no" }, future: 1 });
  assert.equal(sameJudging(spec, { ...spec, future: 2 }), false, "a field not known to only show the evaluator counts");
  assert.equal(sameJudging(spec, { ...spec, id: "y" }), false);
  assert.equal(sameJudging(null, null), true);
  assert.equal(sameJudging(spec, null), false);
});

test("web/custom/starters.json lists every starter of web/starters once, each a definition (a JSON object)", () => {
  const dir = new URL("../../web/starters/", import.meta.url);
  const index = JSON.parse(readFileSync(new URL("../../web/custom/starters.json", import.meta.url), "utf8"));
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  assert.equal(files.length, 3);
  assert.deepEqual(index.map((e) => e.file).sort(), files);
  for (const e of index) {
    assert.match(e.title, /\w/);
    const spec = JSON.parse(readFileSync(new URL(e.file, dir), "utf8"));
    assert.deepEqual(readImport(JSON.stringify(spec)).specs, [spec], e.file); // its checks: custom.test.mjs
  }
});

test("openCustomStore falls back to memory without IndexedDB, when it throws, or when it does not open in time", async () => {
  assert.equal((await openCustomStore(undefined)).durable, false);
  assert.equal((await openCustomStore(/** @type {any} */ ({ open: () => { throw new Error("refused"); } }))).durable, false);
  const blocked = { open: () => ({}) }; // a request that never succeeds (another tab holds the database)
  const t = Date.now();
  const store = await openCustomStore(/** @type {any} */ (blocked), { waitMs: 50 });
  assert.equal(store.durable, false);
  assert.ok(Date.now() - t < 1000);
});

test("sampleOf: a spec's example is the editor's starting sample and answer; shapes that do not fit, and no example, fall back to placeholders", () => {
  const spec = JSON.parse(readFileSync(new URL("../../web/starters/context-relevance.json", import.meta.url), "utf8"));
  assert.deepEqual(sampleOf(spec), { sample: { inputs: spec.example.inputs }, answer: spec.example.answer });
  const inputs = [{ name: "question", label: "Question", kind: "text" }, { name: "contexts", label: "Passages", kind: "list" }];
  // A list given as text, a number as text: each falls back to its placeholder; unknown names are dropped.
  assert.deepEqual(sampleOf({ inputs, example: { inputs: { question: 7, contexts: "one", extra: "x" }, answer: 3 } }), {
    sample: { inputs: { question: sampleValue(inputs[0]), contexts: sampleValue(inputs[1]) } },
    answer: "",
  });
  assert.deepEqual(sampleOf({ inputs }), { sample: { inputs: { question: "(question)", contexts: ["Passages 1", "Passages 2"] } }, answer: "" });
});

test("errorAt: a check's error with its path said once, its line when it has one", async () => {
  const rj = await (await import("./rj.mjs")).api();
  const res = rj.checkEvaluator({ id: "wt2", prompt: "Q: {{ question }}", inputs: [{ name: 3 }, { name: "question" }], output: { kind: "yes-no", pass: "yes" } });
  const e = res.errors.find((x) => x.path === "inputs[0].name");
  assert.ok(e, JSON.stringify(res.errors));
  const text = errorAt(e);
  assert.ok(text.startsWith("inputs[0].name: "), text);
  assert.equal(text.split("inputs[0].name").length - 1, 1, text);
  assert.equal(errorAt({ path: "prompt", line: 3, message: "unexpected end" }), "prompt line 3: unexpected end");
  assert.equal(errorAt({ message: "no id" }), "no id");
});
