// A share link that carries a custom evaluator's definition (rj.define's, from the starter
// library), read against the real engine and the page's registry of evaluators over a memory
// store. Reading checks the definition and defines nothing; opening it uses the user's own
// evaluator when it has the same id and definition, and otherwise the link's definition itself,
// defined under a temporary id that none of the user's evaluators has, never stored; Save adds it
// to the user's evaluators, under a new id when its own is taken. A definition with errors, one
// posing as a built-in, inputs it does not declare, and a custom id without its definition are
// refused. Needs the built wasm (make build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { api } from "./rj.mjs";
import { encodeShare, SHARE_ERRORS } from "../../web/share/codec.js";
import { readLink, linkEvaluator, linkId, openLink, saveLinked } from "../../web/share/links.js";
import { canonical } from "../../web/custom/specsame.js";
import { EvaluatorRegistry } from "../../web/custom/registry.js";
import { MemoryStore } from "../../web/custom/evaluatorstore.js";
import { onChange } from "../../web/lib/store.js";

const rj = await api();
const starter = JSON.parse(readFileSync(new URL("../../web/starters/answer-relevance.json", import.meta.url), "utf8"));
const builtins = rj.evaluators().filter((e) => !e.custom);
const shared = { evaluator: starter.id, spec: starter, inputs: starter.example.inputs, answer: starter.example.answer };
// The same evaluator with another reading of its labels: "partially relevant" passes.
const lenient = { ...starter, output: { kind: "label", labels: { relevant: true, "partially relevant": true, irrelevant: false } } };

/** page is a page's registry holding the user's evaluators (specs), attached to the engine, and the Evaluate view's evaluators by id. */
async function page(specs = []) {
  for (const e of rj.evaluators()) if (e.custom) rj.undefine(e.id);
  const store = new MemoryStore();
  for (const spec of specs) await store.put({ id: spec.id, spec, ok: true, createdAt: 1, updatedAt: 1 });
  const registry = new EvaluatorRegistry(builtins, store, await store.list());
  registry.attach(rj);
  const byID = new Map(registry.all().map((e) => [e.id, e]));
  return { registry, store, byID };
}

/** opened reads the link of evaluation e on a page and finds its evaluator. */
async function opened(p, e = shared) {
  const res = await readLink("#" + (await encodeShare(e)), { byID: p.byID, rj });
  assert.equal(res.ok, true, res.message);
  return { shared: res.value, found: linkEvaluator(p.byID, res.value, p.registry) };
}

test("a link's custom evaluator that the user has, same definition, is the user's", async () => {
  const p = await page([starter]);
  const before = rj.evaluators().length;
  const { shared: s, found } = await opened(p);
  assert.deepEqual(s.spec, starter);
  assert.equal(found.own, "same");
  assert.equal(found.ev, p.byID.get("answer-relevance"));
  assert.equal(rj.evaluators().length, before, "nothing is defined");
  assert.equal(p.registry.linked.size, 0);
  // The same definition with its fields in another order is the same.
  const reordered = Object.fromEntries(Object.entries(starter).reverse());
  assert.equal(canonical(reordered), canonical(starter));
  assert.equal((await opened(p, { ...shared, spec: reordered })).found.own, "same");
});

test("a link's custom evaluator that the user has with another example or title only is the user's: it judges alike", async () => {
  const p = await page([{ ...starter, title: "My answer relevance", example: { inputs: { question: "Other?", answer: "Other." }, answer: "Verdict: relevant" } }]);
  const { found } = await opened(p);
  assert.equal(found.own, "same");
  assert.equal(found.ev, p.byID.get("answer-relevance"));
  assert.equal(p.registry.linked.size, 0, "nothing of the link's is defined");
});

test("a link's custom evaluator the user lacks is the link's, under a temporary id, in memory only", async () => {
  const p = await page();
  const { shared: s, found } = await opened(p);
  assert.equal(found.own, "none");
  const ev = found.ev;
  assert.match(ev.id, /^link-[0-9a-f]{8}$/);
  assert.equal(ev.id, linkId(starter, []));
  assert.equal(ev.fromLink, true);
  assert.equal(ev.linkOf, "answer-relevance");
  assert.equal(ev.title, "Answer relevance");
  assert.deepEqual(ev.spec, starter, "the link's definition as it came, its id included, to share or save it again");
  assert.deepEqual(ev.inputs.map((i) => i.name), ["question", "answer"]);
  // The sender's verdict, read by the engine from the link's definition.
  const v = rj.parse(ev.id, s.inputs, s.answer);
  assert.equal(v.verdict.label, "partially relevant");
  assert.equal(v.passed, null);
  assert.ok(rj.render(ev.id, s.inputs).prompt.includes("does it cover water damage?"));
  // Never stored, never offered beyond Evaluate.
  assert.deepEqual(await p.store.list(), []);
  assert.equal(p.registry.records.size, 0);
  assert.ok(!p.registry.all().some((e) => e.id === ev.id));
  // The same definition opened again is the same evaluator, whatever its fields' order.
  p.byID.set(ev.id, ev);
  const again = await opened(p, { ...shared, spec: Object.fromEntries(Object.entries(starter).reverse()) });
  assert.equal(again.found.ev, ev);
  assert.equal(p.registry.linked.size, 1);
});

test("with the user's own evaluator of the same id and another definition, the verdict is the link's", async () => {
  const p = await page([lenient]);
  const mine = rj.parse("answer-relevance", shared.inputs, shared.answer);
  assert.equal(mine.passed, true, "the user's own reading");
  const { shared: s, found } = await opened(p);
  assert.equal(found.own, "differs");
  assert.notEqual(found.ev.id, "answer-relevance");
  assert.equal(rj.parse(found.ev.id, s.inputs, s.answer).passed, null, "the sender's reading");
  assert.equal(rj.parse("answer-relevance", s.inputs, s.answer).passed, true, "the user's evaluator is untouched");
  assert.equal(canonical(p.registry.records.get("answer-relevance").spec), canonical(lenient));
});

test("the temporary id is never one of the user's evaluators' ids", async () => {
  const base = linkId(starter, []);
  const squatter = { ...lenient, id: base, title: "Mine" };
  const p = await page([squatter]);
  const { found } = await opened(p);
  assert.equal(found.ev.id, base + "-2");
  assert.equal(rj.parse(base, shared.inputs, shared.answer).passed, true, "the user's evaluator of that id is untouched");
  assert.equal(rj.parse(found.ev.id, shared.inputs, shared.answer).passed, null);
  assert.throws(() => p.registry.forLink(starter, base), /taken/);
});

test("Save adds the link's evaluator to the user's, under its own id, or a new one when that is taken", async () => {
  for (const [mine, want] of [[[], "answer-relevance"], [[lenient], "answer-relevance-shared"], [[lenient, { ...lenient, id: "answer-relevance-shared" }], "answer-relevance-shared-2"]]) {
    const p = await page(mine);
    const { shared: s, found } = await opened(p);
    let told = "";
    const heard = [];
    onChange(() => p.registry.listed.value, () => heard.push(told));
    const id = await saveLinked(p.registry, found.ev, { inputs: s.inputs, answer: s.answer }, (x) => (told = x));
    assert.equal(id, want);
    assert.deepEqual(heard, [want], "the views are told once, after the page has heard the id");
    const rec = (await p.store.list()).find((r) => r.id === id);
    assert.ok(rec, "stored");
    assert.deepEqual(rec.spec, { ...starter, id });
    assert.deepEqual(rec.sample.inputs, s.inputs);
    assert.equal(rec.answer, s.answer);
    assert.equal(rj.parse(id, s.inputs, s.answer).verdict.label, "partially relevant");
    assert.ok(p.registry.all().some((e) => e.id === id && e.custom && !e.fromLink));
    // The temporary evaluator is gone, from the engine too.
    assert.equal(p.registry.linked.size, 0);
    assert.ok(!rj.evaluators().some((e) => e.id === found.ev.id));
    for (const m of mine) assert.equal(canonical(p.registry.records.get(m.id).spec), canonical(m), "the user's own are untouched");
  }
});

test("openLink waits for the engine to check a definition, and says so when it did not load", async () => {
  const p = await page();
  const fragment = "#" + (await encodeShare(shared));
  const engine = { rj: null, whenReady: async () => ((engine.rj = rj), true) };
  const res = await openLink(fragment, { byID: p.byID, engine, registry: p.registry });
  assert.equal(res.ok, true, res.message);
  assert.equal(res.value.own, "none");
  assert.equal(res.value.ev.fromLink, true);
  assert.deepEqual(res.value.shared.inputs, shared.inputs);
  const failed = await openLink(fragment, { byID: p.byID, engine: { rj: null, whenReady: async () => false }, registry: p.registry });
  assert.equal(failed.ok, false);
  assert.equal(failed.code, SHARE_ERRORS.EVALUATOR);
  assert.match(failed.message, /judge engine .* did not load/);
  // An engine that becomes ready while the link is read: the definition is still checked.
  let asked = 0;
  const racing = { get rj() { return asked++ ? rj : null; }, whenReady: async () => true };
  const broken = await openLink("#" + (await encodeShare({ ...shared, spec: { ...starter, prompt: "{{ oops" } })), { byID: p.byID, engine: racing, registry: p.registry });
  assert.equal(broken.ok, false);
  assert.match(broken.message, /prompt line 1, column \d+: unexpected end of template/);
  // A built-in's link needs no engine.
  const builtin = await openLink("#" + (await encodeShare({ evaluator: "answer-grounding", inputs: { answer: "a", facts: ["b"] }, answer: "yes" })), { byID: p.byID, engine: { rj: null, whenReady: async () => assert.fail("waited") }, registry: p.registry });
  assert.equal(builtin.ok, true);
  assert.equal(builtin.value.own, "builtin");
});

test("a definition with errors, one posing as a built-in, inputs it does not declare, and a custom id without its definition are refused", async () => {
  const p = await page([starter]);
  const before = rj.evaluators().length;
  const broken = await readLink(await encodeShare({ ...shared, spec: { ...starter, prompt: "Judge this.\n{{ oops" } }), { byID: p.byID, rj });
  assert.equal(broken.code, SHARE_ERRORS.EVALUATOR);
  assert.match(broken.message, /prompt line 2, column \d+: unexpected end of template/);
  const opening = await openLink(await encodeShare({ ...shared, spec: { ...starter, prompt: "{{ oops" } }), { byID: p.byID, engine: { rj }, registry: p.registry });
  assert.equal(opening.ok, false);
  assert.equal(opening.code, SHARE_ERRORS.EVALUATOR);
  assert.equal(rj.evaluators().length, before, "nothing defined");
  assert.equal(p.registry.linked.size, 0);
  const posing = await readLink(await encodeShare({ ...shared, evaluator: "answer-grounding", spec: { ...starter, id: "answer-grounding" } }), { byID: p.byID, rj });
  assert.equal(posing.code, SHARE_ERRORS.EVALUATOR);
  const extra = await readLink(await encodeShare({ ...shared, inputs: { ...shared.inputs, context: "x" } }), { byID: p.byID, rj });
  assert.equal(extra.code, SHARE_ERRORS.SHAPE);
  const bare = await readLink(await encodeShare({ evaluator: "answer-relevance", inputs: shared.inputs, answer: shared.answer }), { byID: p.byID, rj });
  assert.equal(bare.code, SHARE_ERRORS.EVALUATOR);
});
