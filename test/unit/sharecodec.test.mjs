// A share link's fragment round-trips one evaluation, and every way a link can be damaged or
// forged is refused with its code and nothing of the link: bad base64, a flipped character, a
// deflate stream that is not one, data that is not JSON, a version or evaluator this page does
// not know, inputs of the wrong type, and a small link that would inflate past the cap.
import { test } from "node:test";
import assert from "node:assert/strict";

import { encodeShare, decodeShare, isShareFragment, toBase64url, fromBase64url, crc32, shareURL, SHARE_PREFIX, SHARE_ERRORS, MAX_INFLATED, MAX_FRAGMENT } from "../../web/share/codec.js";

// The evaluators as rj.evaluators() describes them, reduced to what decodeShare reads.
const EVALUATORS = {
  "answer-grounding": { inputs: [{ name: "answer", kind: "text" }, { name: "facts", kind: "list" }, { name: "mode", kind: "choice" }] },
  "claim-groundedness": { inputs: [{ name: "question", kind: "text" }, { name: "claims", kind: "claims" }, { name: "evidence", kind: "evidence" }] },
};
const evaluatorOf = (id, spec) => (spec ? (spec.inputs ? { inputs: spec.inputs } : null) : EVALUATORS[id] || null);

const SAMPLE = {
  evaluator: "claim-groundedness",
  inputs: { question: "Was it <b>dosed</b> right? ✓ café", claims: ["c one", { id: "x7", text: "c two" }], evidence: [{ title: "Note", text: "amoxicillin 500 mg" }, "plain chunk"] },
  answer: '{"claims":[{"claim_id":"c1","grounded":true}]}\n<script>alert(1)</script>',
  model: "judge-mini",
};

/** pack deflates text and appends its CRC-32, as encodeShare does, for hand-made payloads. */
async function pack(bytes) {
  const packed = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
  return withCRC(packed);
}
function withCRC(bytes) {
  const out = new Uint8Array(bytes.length + 4);
  out.set(bytes);
  new DataView(out.buffer).setUint32(bytes.length, crc32(bytes));
  return out;
}
const frag = (bytes) => SHARE_PREFIX + toBase64url(bytes);
const jsonFrag = async (obj) => frag(await pack(new TextEncoder().encode(typeof obj === "string" ? obj : JSON.stringify(obj))));

test("an evaluation round-trips through a fragment, key-free and URL-safe", async () => {
  const f = await encodeShare(SAMPLE);
  assert.ok(f.startsWith("rj1."));
  assert.match(f, /^rj1\.[A-Za-z0-9_-]+$/);
  assert.ok(isShareFragment("#" + f) && isShareFragment(f) && !isShareFragment("#evaluate"));
  const got = await decodeShare("#" + f, evaluatorOf);
  assert.deepEqual(got, { ok: true, value: { evaluator: SAMPLE.evaluator, spec: null, inputs: SAMPLE.inputs, answer: SAMPLE.answer, model: "judge-mini" } });
  assert.equal(shareURL("http://h/p/?q=1#evaluate", f), "http://h/p/?q=1#" + f);
});

test("a custom evaluator travels as its whole definition", async () => {
  const spec = { id: "tone-check", title: "Tone", dialect: "jinja", prompt: "Is {{ answer }} polite?", inputs: [{ name: "answer", label: "Answer", kind: "text", required: true }], output: { kind: "yes-no", pass: "yes" } };
  const f = await encodeShare({ evaluator: "tone-check", spec, inputs: { answer: "Thanks!" }, answer: "yes" });
  const got = await decodeShare(f, evaluatorOf);
  assert.equal(got.ok, true);
  assert.deepEqual(got.value.spec, spec);
  assert.equal(got.value.evaluator, "tone-check");
  // A definition the page refuses (evaluatorOf returns null, or throws as rj.define does) is an unknown evaluator.
  const bad = await decodeShare(await encodeShare({ evaluator: "x", spec: { id: "x" }, inputs: {}, answer: "" }), evaluatorOf);
  assert.equal(bad.code, SHARE_ERRORS.EVALUATOR);
  const thrown = await decodeShare(f, () => {
    throw new Error("template: tone-check:1:4: unexpected end");
  });
  assert.equal(thrown.code, SHARE_ERRORS.EVALUATOR);
  assert.match(thrown.message, /unexpected end/);
});

test("base64url round-trips every byte value", () => {
  const all = new Uint8Array(256).map((_, i) => i);
  for (let n = 0; n <= 256; n += 37) assert.deepEqual(fromBase64url(toBase64url(all.subarray(0, n))), all.subarray(0, n));
  assert.equal(fromBase64url("ab+c"), null);
  assert.equal(fromBase64url("abcde"), null); // a length no base64 has
});

test("damaged and forged links are refused with their code", async () => {
  const good = await encodeShare(SAMPLE);
  const body = good.slice(SHARE_PREFIX.length);
  const cases = [
    ["not ours", "evaluate", SHARE_ERRORS.PREFIX],
    ["a newer format", "rj2." + body, SHARE_ERRORS.VERSION],
    ["not base64url", "rj1.ab$cd", SHARE_ERRORS.BASE64],
    ["empty", "rj1.", SHARE_ERRORS.BASE64],
    ["too short", "rj1.AAAA", SHARE_ERRORS.DEFLATE],
    ["cut short", SHARE_PREFIX + body.slice(0, (body.length >> 2) * 4 - 8), SHARE_ERRORS.CHECKSUM],
    ["too long to read", "rj1." + "A".repeat(MAX_FRAGMENT), SHARE_ERRORS.TOO_BIG],
    ["not deflate", frag(withCRC(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0x00]))), SHARE_ERRORS.DEFLATE],
    ["not JSON", await jsonFrag("{not json"), SHARE_ERRORS.JSON],
    ["not UTF-8", frag(await pack(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))), SHARE_ERRORS.DEFLATE],
    ["an array", await jsonFrag([1, 2]), SHARE_ERRORS.SHAPE],
    ["no version", await jsonFrag({ e: "answer-grounding", i: {}, a: "" }), SHARE_ERRORS.VERSION],
    ["another version", await jsonFrag({ v: 2, e: "answer-grounding", i: {}, a: "" }), SHARE_ERRORS.VERSION],
    ["no evaluator", await jsonFrag({ v: 1, i: {}, a: "" }), SHARE_ERRORS.EVALUATOR],
    ["unknown evaluator", await jsonFrag({ v: 1, e: "no-such-judge", i: {}, a: "" }), SHARE_ERRORS.EVALUATOR],
    ["answer not text", await jsonFrag({ v: 1, e: "answer-grounding", i: {}, a: 42 }), SHARE_ERRORS.SHAPE],
    ["inputs a list", await jsonFrag({ v: 1, e: "answer-grounding", i: ["x"], a: "" }), SHARE_ERRORS.SHAPE],
    ["input unknown", await jsonFrag({ v: 1, e: "answer-grounding", i: { answr: "x" }, a: "" }), SHARE_ERRORS.SHAPE],
    ["text input a number", await jsonFrag({ v: 1, e: "answer-grounding", i: { answer: 3 }, a: "" }), SHARE_ERRORS.SHAPE],
    ["list of objects", await jsonFrag({ v: 1, e: "answer-grounding", i: { facts: [{ text: "x" }] }, a: "" }), SHARE_ERRORS.SHAPE],
    ["claim with a number", await jsonFrag({ v: 1, e: "claim-groundedness", i: { claims: [{ id: 1, text: "x" }] }, a: "" }), SHARE_ERRORS.SHAPE],
    ["claim with an extra key", await jsonFrag({ v: 1, e: "claim-groundedness", i: { claims: [{ text: "x", onclick: "y" }] }, a: "" }), SHARE_ERRORS.SHAPE],
    ["evidence a string", await jsonFrag({ v: 1, e: "claim-groundedness", i: { evidence: "x" }, a: "" }), SHARE_ERRORS.SHAPE],
    ["model not text", await jsonFrag({ v: 1, e: "answer-grounding", i: {}, a: "", m: {} }), SHARE_ERRORS.SHAPE],
    ["prototype key", await jsonFrag('{"v":1,"e":"answer-grounding","i":{"__proto__":"x"},"a":""}'), SHARE_ERRORS.SHAPE],
  ];
  for (const [what, f, code] of cases) {
    const got = await decodeShare(f, evaluatorOf);
    assert.equal(got.ok, false, what);
    assert.equal(got.code, code, `${what}: ${got.message}`);
    assert.ok(!("value" in got), what);
    assert.ok(got.message.length > 10, what);
  }
});

test("every single-character change to a link is refused", async () => {
  const good = await encodeShare({ evaluator: "answer-grounding", inputs: { answer: "Paris is in France.", facts: ["Paris is the capital of France."], mode: "strict" }, answer: "yes" });
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let tried = 0;
  for (let i = SHARE_PREFIX.length; i < good.length; i++) {
    const c = alphabet[(alphabet.indexOf(good[i]) + 1 + (i % 50)) % 64];
    const got = await decodeShare(good.slice(0, i) + c + good.slice(i + 1), evaluatorOf);
    // The last character may carry only padding bits: a change there can leave the bytes as they were.
    if (got.ok && i === good.length - 1) continue;
    assert.equal(got.ok, false, `a change at ${i} was read as ${JSON.stringify(got.ok && got.value)}`);
    tried++;
  }
  assert.ok(tried > 40);
});

test("a link that would inflate past the cap is refused before it is read", async () => {
  // 64 MB of one letter deflates to ~64 KB; the cap stops the reading at MAX_INFLATED.
  const bomb = new TextEncoder().encode('{"v":1,"e":"answer-grounding","i":{"answer":"' + "a".repeat(8 * 1024 * 1024) + '"},"a":""}');
  const f = frag(await pack(bomb));
  assert.ok(f.length < 64 * 1024, `the bomb's link is ${f.length} characters`);
  const t0 = performance.now();
  const got = await decodeShare(f, evaluatorOf);
  assert.equal(got.code, SHARE_ERRORS.TOO_BIG, got.message);
  assert.ok(performance.now() - t0 < 2000);
  assert.ok(MAX_INFLATED < bomb.length);
});
