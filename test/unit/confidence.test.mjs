// confidence.test.mjs: rj.parse with {logprobs}, rj.calibration and rj.jury through the JS API
// against the built wasm: the results' shapes, null with a reason (never NaN, never the top token
// as certainty) where a confidence or a statistic cannot be had, and argument errors. The
// numbers are tested in core/logprob, core/judge and core/stats (against the Python reference).
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, throwsRJ } from "./rj.mjs";

const rj = await api();
const inputs = { answer: "Paris is the capital of France.", facts: ["The capital of France is Paris."] };
const enc = new TextEncoder();

/** tok is a token as OpenAI writes it, with its bytes and alternatives ([text, logprob] pairs). */
function tok(text, logprob, top = [[text, logprob]]) {
  return {
    token: text, logprob, bytes: [...enc.encode(text)],
    top_logprobs: top.map(([t, lp]) => ({ token: t, logprob: lp, bytes: [...enc.encode(t)] })),
  };
}

test("parse with logprobs: p_pass and p_fail from the verdict's token, variants counted together", () => {
  const answer = "The answer's only claim is fact 1.\nAnswer: Yes";
  const content = [tok("The answer's only claim is fact 1.\nAnswer:", -0.3), tok(" Yes", -0.4, [[" Yes", -0.4], [" No", -1.5], [" yes", -3], ["**", -4]])];
  const v = rj.parse("answer-grounding", inputs, answer, { logprobs: { content, refusal: null } });
  assert.equal(v.passed, true);
  const c = v.confidence;
  const pass = Math.exp(-0.4) + Math.exp(-3), fail = Math.exp(-1.5);
  assert.equal(c.kind, "verdict");
  assert.ok(Math.abs(c.p_pass - pass / (pass + fail)) < 1e-12);
  assert.ok(Math.abs(c.p_pass + c.p_fail - 1) < 1e-12);
  assert.ok(Math.abs(c.mass - (pass + fail)) < 1e-12);
  assert.deepEqual(c.token, { index: 1, text: " Yes", logprob: -0.4 });
  assert.equal(c.expected_score, undefined);
  assert.equal(v.confidence_reason, undefined);
  assert.ok(!v.checks.some((ch) => ch.code.startsWith("confidence.")));
  // The list itself, without the object around it, is read the same.
  assert.deepEqual(rj.parse("answer-grounding", inputs, answer, { logprobs: content }).confidence, c);
});

test("parse without options, or with others, is as before", () => {
  const v = rj.parse("answer-grounding", inputs, "Yes");
  assert.equal("confidence" in v, false);
  assert.equal("confidence" in rj.parse("answer-grounding", inputs, "Yes", {}), false);
  assert.equal("confidence" in rj.parse("answer-grounding", inputs, "Yes", { logprobs: undefined }), false);
});

test("no confidence: null with the reason and a confidence.* warning, the verdict unchanged", () => {
  const cases = [
    [{ logprobs: null }, "Yes", "confidence.none", /gave no logprobs/],
    [{ logprobs: [] }, "Yes", "confidence.none", /gave no logprobs/],
    [{ logprobs: [{ token: "Yes", logprob: -0.1 }] }, "Yes", "confidence.no-alternatives", /top_logprobs/],
    [{ logprobs: [tok("No", -0.1)] }, "Yes", "confidence.mismatch", /do not write this answer/],
    [{ logprobs: [tok("Yes", -1.6, [["The", -0.5], ["Yes", -1.6], ["No", -2.4], ["**", -3], ["A", -3.2]])] }, "Yes", "confidence.low-mass", /hold only 0\.293/],
    [{ logprobs: [tok("Yes", -0.5)] }, "Yes", "confidence.no-alternatives", /0\.39 of its probability is on tokens not listed/],
    [{ logprobs: [{ token: "Yes", logprob: 0.2 }] }, "Yes", "confidence.bad-logprobs", /logprobs\[0\]\.logprob is 0\.2: a log probability is at most 0/],
    [{ logprobs: "Yes" }, "Yes", "confidence.bad-logprobs", /a list of tokens, got a string/],
    [{ logprobs: [{ token: "Yes", logprob: -0.1, bytes: [89, 101, 300], top_logprobs: [] }] }, "Yes", "confidence.bad-logprobs", /logprobs\[0\]\.bytes\[2\] must be a byte value, 0 to 255, got 300/],
    [{ logprobs: [tok("Maybe", -0.1)] }, "Maybe", "confidence.no-verdict", /undetermined/],
  ];
  for (const [opts, answer, code, reason] of cases) {
    const v = rj.parse("answer-grounding", inputs, answer, opts);
    const plain = rj.parse("answer-grounding", inputs, answer);
    assert.equal(v.confidence, null, code);
    assert.match(v.confidence_reason, reason, code);
    assert.equal(v.passed, plain.passed);
    assert.deepEqual(v.checks.slice(0, -1), plain.checks);
    const last = v.checks.at(-1);
    assert.equal(last.code, code);
    assert.equal(last.severity, "warning");
    assert.equal(last.message, "no confidence: " + v.confidence_reason);
  }
  const claims = rj.evaluators().find((e) => e.id === "claim-groundedness").example;
  const v = rj.parse("claim-groundedness", claims.inputs, claims.answer, { logprobs: [tok(claims.answer, -0.1)] });
  assert.equal(v.confidence, null);
  assert.equal(v.checks.at(-1).code, "confidence.unsupported");
});

test("parse with logprobs: a score reader's expected score and distribution", () => {
  rj.define({
    id: "likert-conf", dialect: "jinja", prompt: "{{ answer }}", inputs: [{ name: "answer", kind: "text", required: true }],
    output: { kind: "score", label: "Score", min: 1, max: 5, pass_at: 4 },
  });
  try {
    const content = [tok("Score:", 0), tok(" 4", -0.5, [[" 4", -0.5], [" 5", -1.5], [" 3", -2], [" The", -5]])];
    const v = rj.parse("likert-conf", { answer: "x" }, "Score: 4", { logprobs: content });
    const c = v.confidence;
    assert.equal(c.kind, "score");
    const [p4, p5, p3] = [Math.exp(-0.5), Math.exp(-1.5), Math.exp(-2)];
    const m = p4 + p5 + p3;
    assert.deepEqual(c.distribution.map((d) => d.score), [3, 4, 5]);
    assert.ok(Math.abs(c.expected_score - (3 * p3 + 4 * p4 + 5 * p5) / m) < 1e-12);
    assert.ok(Math.abs(c.p_pass - (p4 + p5) / m) < 1e-12);
    assert.ok(Math.abs(c.mass - m) < 1e-12);
  } finally {
    rj.undefine("likert-conf");
  }
});

test("parse: bad options throw", () => {
  throwsRJ(() => rj.parse("answer-grounding", inputs, "Yes", /** @type {any} */ ("logprobs")), { kind: "input", message: /opts must be an object/ });
  throwsRJ(() => rj.parse("answer-grounding", inputs, "Yes", /** @type {any} */ ({ logprob: [] })), { kind: "input", message: /unknown key "logprob"/ });
  throwsRJ(() => rj.parse("answer-grounding", inputs, "Yes", { logprobs: [{ token: "Yes", logprob: NaN }] }), { kind: "input", message: /logprobs\[0\]\.logprob holds NaN/ });
});

test("calibration: Brier, ECE and ten bins, empty ones kept with nulls", () => {
  const c = rj.calibration([0.75, 0, null, 0.25, 0.7], [true, false, true, null, false]);
  assert.equal(c.n, 3);
  assert.equal(c.skipped, 2);
  assert.ok(Math.abs(c.brier - (0.0625 + 0 + 0.49) / 3) < 1e-15);
  assert.equal(c.bins.length, 10);
  assert.deepEqual(c.bins.map((b) => b.n), [1, 0, 0, 0, 0, 0, 0, 2, 0, 0]);
  assert.deepEqual(c.bins[1], { lo: 0.1, hi: 0.2, n: 0, mean_p: null, rate: null });
  assert.equal(c.bins[7].rate, 0.5);
  assert.ok(Math.abs(c.ece - (2 / 3) * Math.abs(0.725 - 0.5)) < 1e-15);
  const empty = rj.calibration([], []);
  assert.equal(empty.brier, null);
  assert.match(empty.brier_reason, /no pair/);
  assert.equal(empty.ece, null);
  assert.equal(empty.bins.length, 10);
  throwsRJ(() => rj.calibration([1.2], [true]), { kind: "input", message: /probability 1 is 1\.2, not a number from 0 to 1/ });
  throwsRJ(() => rj.calibration([0.5], []), { kind: "input", message: /1 probabilities and 0 labels/ });
});

test("jury: majority, all, any, mean; undetermined with its code", () => {
  const v = (passed, score = passed === null ? null : passed ? 1 : 0) => ({ passed, score });
  let j = rj.jury([v(true), v(false), v(true)]);
  assert.deepEqual({ ...j, checks: undefined }, { passed: true, score: 1, rule: "majority", members: 3, votes: { passed: 2, failed: 1, undetermined: 0 }, scored: 3, checks: undefined });
  j = rj.jury([true, false], { rule: "majority" });
  assert.equal(j.passed, null);
  assert.equal(j.checks[0].code, "jury.tie");
  assert.equal(rj.jury([true, null, null]).checks[0].code, "jury.undetermined");
  assert.equal(rj.jury([true, true, null], { rule: "all" }).passed, null);
  assert.equal(rj.jury([true, false, null], { rule: "all" }).passed, false);
  assert.equal(rj.jury([false, null, true], { rule: "any" }).passed, true);
  j = rj.jury([4, v(null, 5), v(null, null)], { rule: "mean", pass_at: 4.5 });
  assert.equal(j.score, 4.5);
  assert.equal(j.passed, true);
  assert.equal(j.scored, 2);
  // rj.parse's results are members as they are.
  const a = rj.parse("answer-grounding", inputs, "Yes"), b = rj.parse("answer-grounding", inputs, "No");
  assert.equal(rj.jury([a, b, a]).passed, true);
  throwsRJ(() => rj.jury([true], { rule: "vote" }), { kind: "input", message: /unknown rule "vote"/ });
  throwsRJ(() => rj.jury([]), { kind: "input", message: /at least one/ });
  throwsRJ(() => rj.jury([3]), { kind: "input", message: /verdicts\[0\] is a score without a verdict/ });
});
