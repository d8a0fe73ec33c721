// How the page's evaluator registry (web/custom/registry.js) tells the views of changes: signals
// an effect reads (listed, revised(id), asked), not events, and no module singleton: each registry
// is its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { effect, onChange } from "../../web/lib/store.js";
import * as registryModule from "../../web/custom/registry.js";
import { MemoryStore } from "../../web/custom/evaluatorstore.js";
import { blankSpec } from "../../web/custom/specedit.js";

const { EvaluatorRegistry } = registryModule;
const BUILTINS = [{ id: "answer-grounding", title: "Answer grounding", inputs: [] }];

/** an engine that defines whatever it is given */
function engine() {
  const defined = new Map();
  return {
    define: (spec) => defined.set(spec.id, spec),
    undefine: (id) => defined.delete(id),
    evaluators: () => [...BUILTINS, ...[...defined.values()].map((s) => ({ id: s.id, title: s.title, inputs: s.inputs, custom: true, spec: s }))],
  };
}

test("registry: an effect that draws the list runs again when the list changes, not when a prompt alone does", async () => {
  const reg = new EvaluatorRegistry(BUILTINS, new MemoryStore(), []);
  reg.attach(engine());
  const drawn = [];
  effect(() => drawn.push((reg.listed.value, reg.all().map((e) => e.id).join(","))));
  const spec = blankSpec();
  await reg.save({ id: spec.id, spec, ok: true, updatedAt: 0 });
  await reg.save({ id: spec.id, spec: { ...spec, prompt: spec.prompt + " " }, ok: true, updatedAt: 0 });
  await reg.remove(spec.id);
  assert.deepEqual(drawn, ["answer-grounding", "answer-grounding," + spec.id, "answer-grounding"]);
});

test("registry: revised(id) changes when that evaluator's description changes in place, and only then", async () => {
  const reg = new EvaluatorRegistry(BUILTINS, new MemoryStore(), []);
  reg.attach(engine());
  const a = blankSpec();
  const b = blankSpec([a.id]);
  await reg.save({ id: a.id, spec: a, ok: true, updatedAt: 0 });
  await reg.save({ id: b.id, spec: b, ok: true, updatedAt: 0 });
  const desc = reg.get(a.id);
  const seen = [];
  onChange(() => reg.revised(a.id).value, () => seen.push(desc.example?.answer ?? null));
  await reg.save({ id: a.id, spec: { ...a, example: { inputs: { question: "q", answer: "x" }, answer: "yes" } }, ok: true, updatedAt: 0 });
  await reg.save({ id: b.id, spec: { ...b, title: "Other" }, ok: true, updatedAt: 0 });
  assert.deepEqual(seen, ["yes"], "told once, of its own evaluator, with the description already changed");
  assert.equal(reg.get(a.id), desc, "the same description, changed in place");
});

test("registry: use asks the page (asked), each time, even for the same evaluator", () => {
  const reg = new EvaluatorRegistry(BUILTINS, new MemoryStore(), []);
  const asked = [];
  onChange(() => reg.asked.value, (a) => asked.push(a?.id));
  reg.use("x");
  reg.use("x");
  assert.deepEqual(asked, ["x", "x"]);
});

test("registry: no module keeps the page's registry: each is its own, handed to the views that use it", () => {
  assert.equal("pageRegistry" in registryModule, false);
  const one = EvaluatorRegistry.start([]);
  const two = EvaluatorRegistry.start([]);
  assert.notEqual(one.listed, two.listed);
});
