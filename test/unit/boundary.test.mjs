// boundary.test.mjs: what crosses between JS and the wasm, and that what ragjudge.js keeps to send
// less (inputs held by Go, parsed templates) is invisible: the same results and the same errors
// as a fresh engine, and inputs changed between calls are always seen.
import { test } from "node:test";
import assert from "node:assert/strict";

import { load } from "../../web/ragjudge.js";
import { heldValues } from "../../web/api/wire.js";
import { api, prompt, throwsRJ } from "./rj.mjs";

const rj = await api();

/** A second engine, for what a first call gives: nothing held, nothing parsed by it before. */
const fresh = async () => load();

const grounding = () => ({ answer: "Paris is the capital [1].", facts: ["The capital of France is Paris.", "Lyon is in France."] });

test("render then parse of the same inputs object give what a fresh engine gives", async () => {
  const inputs = grounding();
  const r1 = rj.render("answer-grounding", inputs);
  const v1 = rj.parse("answer-grounding", inputs, "**Yes.**");
  const other = await fresh();
  assert.deepEqual(r1, other.render("answer-grounding", grounding()));
  assert.deepEqual(v1, (await fresh()).parse("answer-grounding", grounding(), "**Yes.**"));
  // Parse first, then render: the same again.
  const again = grounding();
  assert.deepEqual(rj.parse("answer-grounding", again, "No."), other.parse("answer-grounding", grounding(), "No."));
  assert.deepEqual(rj.render("answer-grounding", again), r1);
});

test("inputs mutated between calls are seen: strings, list items, keys, numbers, nested objects", () => {
  const inputs = {
    question: "What was prescribed?",
    claims: ["Aspirin was prescribed."],
    evidence: [{ title: "Note", text: "Aspirin 100 mg was prescribed." }],
  };
  const id = "claim-groundedness";
  const before = rj.render(id, inputs).prompt;
  assert.match(before, /Aspirin 100 mg was prescribed\./);

  inputs.evidence[0].text = "Ibuprofen was prescribed.";
  let p = rj.render(id, inputs).prompt;
  assert.match(p, /Ibuprofen was prescribed\./);
  assert.doesNotMatch(p, /Aspirin 100 mg/);

  inputs.claims.push("The dose was 100 mg.");
  p = rj.render(id, inputs).prompt;
  assert.match(p, /The dose was 100 mg\./);
  const v = rj.parse(id, inputs, '{"claims": [{"claim_id": "c1", "grounded": true}, {"claim_id": "c2", "grounded": false}]}');
  assert.equal(v.verdict.claims.length, 2, "parse sees the claim render saw");

  delete inputs.evidence[0].title;
  p = rj.render(id, inputs).prompt;
  assert.doesNotMatch(p, /Note/);

  // Back to the first inputs: the first prompt again (an earlier held value may be reused).
  inputs.evidence[0] = { title: "Note", text: "Aspirin 100 mg was prescribed." };
  inputs.claims.pop();
  assert.equal(rj.render(id, inputs).prompt, before);

  // A number, and a value that becomes invalid: the error, not an earlier result.
  const recall = { passage_gt: "[ESSENTIAL PASSAGE]\nAspirin.", passage_llm: "Aspirin.", threshold: 3 };
  const ans = "• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: covered. Score: 4\n\n• RECALL_Final_Score: 4";
  assert.equal(rj.parse("rag-recall", recall, ans).passed, true);
  recall.threshold = 5;
  assert.equal(rj.parse("rag-recall", recall, ans).passed, false);
  recall.threshold = NaN;
  throwsRJ(() => rj.parse("rag-recall", recall, ans), { kind: "input", subject: "parse", detail: "inputs.threshold holds NaN, which is not a finite number" });
  recall.threshold = 5;
  assert.equal(rj.parse("rag-recall", recall, ans).passed, false);
  // The ground truth changed in place: the markers are counted again.
  recall.passage_gt += "\n\n[ESSENTIAL PASSAGE]\nRest.";
  const v2 = rj.parse("rag-recall", recall, ans);
  assert.equal(v2.verdict.expected.essential, 2);
});

test("a new object with equal content, or the same object with a getter, gives the same result", () => {
  const a = grounding();
  const r = rj.render("answer-grounding", a);
  assert.deepEqual(rj.render("answer-grounding", structuredClone(a)), r);
  let reads = 0;
  const withGetter = {
    get answer() {
      reads++;
      return a.answer;
    },
    facts: a.facts,
  };
  assert.deepEqual(rj.render("answer-grounding", withGetter), r);
  assert.deepEqual(rj.render("answer-grounding", withGetter), r);
  assert.equal(reads, 2, "the getter runs on every call, as JSON.stringify would run it");
  // A getter whose value changes is seen.
  let n = 0;
  const changing = { get answer() { return `Answer ${++n}.`; }, facts: a.facts };
  assert.match(rj.render("answer-grounding", changing).prompt, /Answer 1\./);
  assert.match(rj.render("answer-grounding", changing).prompt, /Answer 2\./);
});

test("errors are the same on every call, held inputs or not", async () => {
  const other = await fresh();
  const cases = [
    ["render", ["pairwise-faithfulness", { contexts: [], expected_output: "a", actual_output: "b" }]],
    ["render", ["answer-grounding", { answer: "x" }]],
    ["render", ["nope", grounding()]],
    ["parse", ["answer-grounding", { answer: 3, facts: ["f"] }, "yes"]],
    ["template", ["{{ missing }}", "jinja", { x: 1 }]],
    ["template", ["{{ x }", "jinja", { x: 1 }]],
  ];
  for (const [fn, args] of cases) {
    const first = throwsRJ(() => other[fn](...args), { kind: /./, ...(/x }$/.test(String(args[0])) || /missing/.test(String(args[0])) ? { line: true, col: true } : {}) });
    for (let k = 0; k < 3; k++) {
      const again = throwsRJ(() => rj[fn](...args), { kind: /./, ...(first.line ? { line: true, col: true } : {}) });
      assert.equal(again.message, first.message);
      assert.equal(again.code, first.code);
      assert.equal(again.line, first.line);
      assert.equal(again.col, first.col);
    }
  }
});

test("template: the same source on every keystroke of the variables, and sources edited in turn", async () => {
  const src = prompt("pairwise-faithfulness");
  const vars = { contexts: ["One.", "Two."], expected_output: "A [1].", actual_output: "B [2]." };
  const other = await fresh();
  for (let k = 0; k < 5; k++) {
    vars.actual_output += String(k);
    assert.equal(rj.template(src, "jinja", vars), other.template(src, "jinja", structuredClone(vars)));
  }
  // A source typed a character at a time: broken, fixed, broken again.
  const typed = "Hello {{ name }}!";
  for (let k = 1; k <= typed.length; k++) {
    const s = typed.slice(0, k);
    let want, got;
    try { want = other.template(s, "jinja", { name: "Ann" }); } catch (e) { want = e.message; }
    try { got = rj.template(s, "jinja", { name: "Ann" }); } catch (e) { got = e.message; }
    assert.equal(got, want, s);
    try { got = rj.template(s, "jinja", { name: "Ann" }); } catch (e) { got = e.message; }
    assert.equal(got, want, `${s}, again`);
  }
});

test("text crosses whole: non-ASCII, lone surrogates, NUL, long strings, empty strings and keys", () => {
  const vars = {
    "": "empty key",
    é: "clé",
    s: "a\u0000b 😀 \ud800 ☃ " + "x".repeat(70) + "é",
    long: "€".repeat(100000),
    empty: "",
  };
  const out = rj.template("{{ s }}|{{ long|length }}|{{ empty }}|{{ long|first }}", "jinja", vars);
  assert.equal(out, "a\u0000b 😀 \ufffd ☃ " + "x".repeat(70) + "é|100000||€");
  assert.equal(rj.template("{% for k, v in d.items() %}[{{ k }}={{ v }}]{% endfor %}", "jinja", { d: { "": 1, é: 2.5, z: -0 } }), "[=1][é=2.5][z=0]");
});

test("many inputs in turn: Go lets old ones go, and a call naming one it let go is sent again", () => {
  const first = grounding();
  const r = rj.render("answer-grounding", first);
  // More distinct inputs than Go holds (64), each of them 1 MB after the first few (32 MB cap).
  const big = "y".repeat(1 << 20);
  for (let k = 0; k < 80; k++) rj.render("answer-grounding", { answer: `A${k}.`, facts: [k < 40 ? big : "f"] });
  assert.deepEqual(rj.render("answer-grounding", first), r);
  assert.equal(rj.parse("answer-grounding", first, "yes").passed, true);
});

test("a long template source sent again is held: same outputs and errors, and sent again once Go lets it go", async () => {
  const src = prompt("pairwise-faithfulness");
  assert.ok(src.length >= 1024);
  const vars = { contexts: ["One.", "Two."], expected_output: "A [1].", actual_output: "B [2]." };
  const other = await fresh();
  const want = other.template(src, "jinja", vars);
  // Sent plain, then held, then named by id; a copy of the string is the same text.
  for (let k = 0; k < 3; k++) assert.equal(rj.template(src, "jinja", vars), want);
  assert.equal(rj.template(src.slice(0, 10) + src.slice(10), "jinja", vars), want);
  assert.deepEqual(rj.variables(src, "jinja"), other.variables(src, "jinja"));
  assert.deepEqual(rj.variables(src, "jinja"), other.variables(src, "jinja"));
  // A broken long source fails alike every time.
  const broken = src + "{% if %}";
  const err = throwsRJ(() => other.template(broken, "jinja", vars), { kind: "template", line: true, col: true });
  for (let k = 0; k < 3; k++) assert.equal(throwsRJ(() => rj.template(broken, "jinja", vars), { kind: "template", line: true, col: true }).message, err.message);
  // Past what Go keeps (64 values, 32 MB), the held source is let go: the call is sent again.
  const big = "y".repeat(1 << 20);
  for (let k = 0; k < 80; k++) rj.render("answer-grounding", { answer: `A${k}.`, facts: [k < 40 ? big : "f"] });
  assert.equal(rj.template(src, "jinja", vars), want);
});

test("holdText: a long text is held from its second sending, a short one never; the last 16 are remembered", () => {
  const { holdText } = heldValues();
  const long = (k) => `${k}:` + "t".repeat(1024);
  assert.equal(holdText("short"), null);
  assert.equal(holdText("short"), null);
  assert.equal(holdText(long(0)), null, "sent once: not held");
  const h = holdText(long(0));
  assert.ok(h && h.id > 0 && h.strs[0] === long(0) && !h.sent);
  assert.equal(holdText(long(0)), h);
  for (let k = 1; k <= 16; k++) holdText(long(k));
  assert.equal(holdText(long(0)), null, "forgotten after 16 others: sent plain again");
  assert.notEqual(holdText(long(16)), null);
});
