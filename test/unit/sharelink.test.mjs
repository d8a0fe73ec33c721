// A share link that carries a custom evaluator's definition (rj.define's, from the starter
// library): read against the real engine, it is checked without being defined; it opens only on a
// page that has the same evaluator, definition and all, and says why otherwise. A definition may
// not stand in for a built-in. Needs the built wasm (make build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { api } from "./rj.mjs";
import { encodeShare, SHARE_ERRORS } from "../../web/share.js";
import { readLink, pageEvaluator, canonical } from "../../web/report/sharelink.js";

const rj = await api();
const starter = JSON.parse(readFileSync(new URL("../../web/starters/answer-relevance.json", import.meta.url), "utf8"));
rj.define(starter);
const custom = rj.evaluators().find((e) => e.id === "answer-relevance");
const builtins = new Map(rj.evaluators().filter((e) => !e.custom).map((e) => [e.id, e]));
const withCustom = new Map([...builtins, ["answer-relevance", custom]]);

const shared = { evaluator: custom.id, spec: custom.spec, inputs: starter.example.inputs, answer: starter.example.answer };

test("a custom evaluator's link opens on a page that has the same evaluator, with its verdict", async () => {
  const before = rj.evaluators().length;
  const res = await readLink("#" + (await encodeShare(shared)), { byID: withCustom, rj });
  assert.equal(res.ok, true, res.message);
  assert.deepEqual(res.value.spec, custom.spec);
  assert.equal(rj.evaluators().length, before, "reading a link defines nothing");
  const found = pageEvaluator(withCustom, res.value);
  assert.equal(found.ev, custom);
  assert.equal(rj.parse(found.ev.id, res.value.inputs, res.value.answer).verdict.label, "partially relevant");
});

test("a custom evaluator the page lacks, or has in another version, is said by name", async () => {
  const res = await readLink(await encodeShare(shared), { byID: builtins, rj });
  assert.equal(res.ok, true);
  assert.match(pageEvaluator(builtins, res.value).error, /custom evaluator, "Answer relevance" \(answer-relevance\), that is not among your evaluators/);
  const edited = { ...custom, spec: { ...custom.spec, prompt: custom.spec.prompt + "\nBe strict." } };
  assert.match(pageEvaluator(new Map([["answer-relevance", edited]]), res.value).error, /whose definition differs from yours/);
  // The same definition with its fields in another order is the same.
  const reordered = Object.fromEntries(Object.entries(custom.spec).reverse());
  assert.equal(canonical(reordered), canonical(custom.spec));
  assert.equal(pageEvaluator(new Map([["answer-relevance", { ...custom, spec: reordered }]]), res.value).ev.id, "answer-relevance");
});

test("a definition with errors, one posing as a built-in, inputs it does not declare, and a custom id without its definition are refused", async () => {
  const broken = await readLink(await encodeShare({ ...shared, spec: { ...custom.spec, prompt: "{{ oops" } }), { byID: withCustom, rj });
  assert.equal(broken.code, SHARE_ERRORS.EVALUATOR);
  assert.match(broken.message, /prompt: unexpected end of template/);
  const posing = await readLink(await encodeShare({ ...shared, evaluator: "answer-grounding", spec: { ...custom.spec, id: "answer-grounding" } }), { byID: withCustom, rj });
  assert.equal(posing.code, SHARE_ERRORS.EVALUATOR);
  const extra = await readLink(await encodeShare({ ...shared, inputs: { ...shared.inputs, context: "x" } }), { byID: withCustom, rj });
  assert.equal(extra.code, SHARE_ERRORS.SHAPE);
  const bare = await readLink(await encodeShare({ evaluator: "answer-relevance", inputs: shared.inputs, answer: shared.answer }), { byID: withCustom, rj });
  assert.equal(bare.code, SHARE_ERRORS.EVALUATOR);
});
