// Tests of judging each row several times: the majority rule (web/results/majority.js), the cache
// key with the repeat index (web/batch/cache.js), and the engine's repeats (web/batch/scheduler.js):
// real calls per repeat, a rerun answered from the cache, a failed repeat failing the row and a
// resume paying only for it, the majority as the row's status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner } from "../../web/batch/scheduler.js";
import { cacheKey } from "../../web/batch/cache.js";
import { statusOf } from "../../web/results/status.js";
import { todoIndices, askedAfresh, Retry } from "../../web/batch/runrecords.js";
import { majority, unanimous, spread, majorityVerdict, SPLIT_CODE } from "../../web/results/majority.js";
import { FakeClock, answer, fakeJudge } from "./fakes.mjs";
import { MemoryStore } from "../../web/batch/memorystore.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0.7 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));

function runner(opts) {
  const clock = new FakeClock();
  const r = new Runner({ runId: "r1", judge: fakeJudge, request, clock, random: () => 0.5, policy: { timeoutMs: 1000, maxAttempts: 2 }, ...opts });
  return { r, clock };
}

/** perPrompt answers the k-th call (1-based) for each prompt with script(question, k). */
function perPrompt(script) {
  const seen = new Map();
  const calls = [];
  const f = async (url, init) => {
    const body = JSON.parse(init.body);
    const q = body.messages[0].content.slice(3);
    const k = (seen.get(q) || 0) + 1;
    seen.set(q, k);
    calls.push({ q, k, body });
    return answer(script(q, k, body), init);
  };
  f.calls = calls;
  return f;
}

test("majority: the most frequent of passed, failed and undetermined; a tie for most frequent is undetermined", () => {
  const cases = [
    [[true, true, false], true],
    [[false, false, true], false],
    [[true, false], null],
    [[true, null, null], null],
    [[true, true, null], true],
    [[true, false, null], null],
    [[null, null, null], null],
    [[true, false, null, null], null],
    [[false, false, true, true, false], false],
    [[], null],
  ];
  for (const [v, want] of cases) assert.equal(majority(v), want, JSON.stringify(v));
  assert.equal(unanimous([true, true, true]), true);
  assert.equal(unanimous([true, true, null]), false, "undetermined differs from a verdict");
  assert.equal(unanimous([null, null]), true);
  assert.equal(unanimous([]), false);
});

test("spread: mean and sample standard deviation of a row's scores, nulls skipped, never NaN", () => {
  assert.deepEqual(spread([]), { n: 0, mean: null, sd: null });
  assert.deepEqual(spread([0.5]), { n: 1, mean: 0.5, sd: null });
  const s = spread([1, 0, 1, null]);
  assert.equal(s.n, 3);
  assert.ok(Math.abs(s.mean - 2 / 3) < 1e-12);
  assert.ok(Math.abs(s.sd - Math.sqrt(1 / 3)) < 1e-12, "sqrt(((1/3)²·2 + (2/3)²)/2)");
  assert.equal(spread([2, 4, 4, 4, 5, 5, 7, 9]).sd, Math.sqrt(32 / 7));
});

test("majorityVerdict: passed is the majority, score the mean, and an even split says so with a check", () => {
  const rep = (passed, score) => ({ verdict: { passed, score, verdict: { passed }, checks: [] }, answers: [String(passed)], repaired: false });
  const v = majorityVerdict([rep(true, 1), rep(false, 0), rep(true, 1)]);
  assert.equal(v.passed, true);
  assert.ok(Math.abs(v.score - 2 / 3) < 1e-12);
  assert.deepEqual(v.verdict, { passed: true }, "the verdict shown is one that gave the majority");
  assert.deepEqual(v.checks, []);
  assert.equal(statusOf({ verdict: v }), "passed");
  const tie = majorityVerdict([rep(true, 1), rep(false, 0)]);
  assert.equal(tie.passed, null);
  assert.equal(tie.checks[0].code, SPLIT_CODE);
  assert.match(tie.checks[0].message, /1 passed, 1 failed/);
  assert.equal(statusOf({ verdict: tie }), "undetermined", "a tie is undetermined, not a score");
  const scores = majorityVerdict([rep(null, 3), rep(null, 4), rep(null, 5)]);
  assert.equal(scores.passed, null);
  assert.equal(scores.score, 4);
  assert.deepEqual(scores.checks, [], "score-only repeats are no split");
});

test("the cache key holds the repeat index from the second repeat on; the first repeat's key is a run of one's", async () => {
  const req = { endpoint: "/v1/", model: "m", messages: [{ role: "user", content: "hi" }], params: { temperature: 1 } };
  const k0 = await cacheKey(req);
  assert.equal(await cacheKey({ ...req, repeat: 0 }), k0);
  const k1 = await cacheKey({ ...req, repeat: 1 });
  const k2 = await cacheKey({ ...req, repeat: 2 });
  assert.notEqual(k1, k0);
  assert.notEqual(k2, k1);
  assert.equal(await cacheKey({ ...req, repeat: 2 }), k2, "stable");
  assert.notEqual(await cacheKey({ ...req, params: { temperature: 0 }, repeat: 1 }), k1, "the temperature is part of it too");
});

test("each repeat is a real call; the row stores every repeat and the majority; a rerun is answered from the cache", async () => {
  const store = new MemoryStore();
  // q1 flips on its second call: yes, no, yes. q2 splits over four repeats: yes, no, yes, no.
  const fetch = perPrompt((q, k) => (q === "q1" && k === 2 ? "no" : q === "q2" && k % 2 === 0 ? "no" : "yes"));
  const a = runner({ items: items(3), todo: [0, 1, 2], fetch, store, cache: store, repeats: 3, concurrency: 4 });
  assert.equal(await a.clock.run(a.r.start()), "done");
  assert.equal(fetch.calls.length, 9, "3 rows × 3 repeats");
  assert.ok(fetch.calls.every((c) => c.body.temperature === 0.7), "the run's temperature is sent");
  assert.ok(fetch.calls.every((c) => !("repeat" in c.body)), "the repeat index is not sent");
  const res = await store.getResults("r1");
  assert.deepEqual(res.map((x) => x.repeats.length), [3, 3, 3]);
  assert.deepEqual(res[1].repeats.map((x) => x.verdict.passed).sort(), [false, true, true]);
  assert.equal(res[1].verdict.passed, true);
  assert.equal(statusOf(res[1]), "passed");
  assert.equal(res[1].answers.length, 3);
  assert.equal(res[1].calls, 3);
  assert.equal(res[1].usage.prompt_tokens, 30, "tokens of every repeat");

  const b = runner({ items: items(3), todo: [0, 1, 2], fetch, store, cache: store, repeats: 3, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length, 9, "a rerun of the same run makes no call");
  assert.equal(b.r.stats.cacheHits, 9);
  const again = await store.getResults("r2");
  assert.deepEqual(
    again.map((x) => x.repeats.map((y) => y.verdict.passed)),
    res.map((x) => x.repeats.map((y) => y.verdict.passed)),
    "each repeat gets its own cached answer back",
  );

  // Four repeats: the first three come from the cache, the fourth is asked (q2's fourth call: no).
  const c = runner({ items: items(3), todo: [2], fetch, store, cache: store, repeats: 4, runId: "r3" });
  await c.clock.run(c.r.start());
  assert.equal(fetch.calls.length, 10);
  const four = (await store.getResults("r3"))[0];
  assert.deepEqual(four.repeats.map((x) => x.verdict.passed).sort(), [false, false, true, true]);
  assert.equal(statusOf(four), "undetermined", "two against two");

  const d = runner({ items: items(3), todo: [2], fetch: perPrompt((q, k) => (k % 2 ? "yes" : "no")), store: new MemoryStore(), cache: null, repeats: 4, runId: "r4" });
  await d.clock.run(d.r.start());
  const split = (await d.r.o.store.getResults("r4"))[0];
  assert.equal(split.verdict.passed, null);
  assert.equal(statusOf(split), "undetermined");
});

test("a repeat that fails fails the row; resuming it pays only for the failed repeat", async () => {
  const store = new MemoryStore();
  // The second call for q0 gets a 400 (not retried): one repeat fails, the row is an error.
  const fetch = perPrompt((q, k) => (k === 2 ? 400 : "yes"));
  const a = runner({ items: items(1), todo: [0], fetch, store, cache: store, repeats: 3 });
  await a.clock.run(a.r.start());
  const [row] = await store.getResults("r1");
  assert.equal(statusOf(row), "error");
  assert.equal(row.error.status, 400);
  assert.equal(row.verdict, null, "no verdict from the repeats that were answered");
  // The answered repeats stay with the row (exports keep them); the failed one says why.
  // Which repeat got the second call depends on the order their cache keys (SHA-256 digests) are
  // ready in, so the repeats are compared in any order.
  assert.deepEqual(row.repeats.map((x) => String(x.error ? x.error.status : x.verdict.passed)).sort(), ["400", "true", "true"]);
  assert.deepEqual(row.answers, ["yes", "yes"]);
  // Retrying the row: two repeats are cached, one is asked again.
  const b = runner({ items: items(1), todo: [0], fetch, store, cache: store, repeats: 3, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length, 4);
  const [ok] = await store.getResults("r2");
  assert.equal(statusOf(ok), "passed");
  assert.equal(ok.cachedCalls, 2);
  assert.equal(ok.calls, 1);
});

test("Retry failed rows pays only for the failed repeat; Ask again for undetermined rows asks the judge afresh", async () => {
  const store = new MemoryStore();
  // q0: its second call gets a 400 (an error row). q1: unreadable on its first three calls and their
  // repairs (an undetermined row), readable afterwards. q2: yes.
  const fetch = perPrompt((q, k, body) => (q === "q0" && k === 2 ? 400 : q === "q1" && (k <= 3 || body.messages.length > 1) ? "hmm" : "yes"));
  const a = runner({ items: items(3), todo: [0, 1, 2], fetch, store, cache: store, repeats: 3, concurrency: 1 });
  await a.clock.run(a.r.start());
  const first = [];
  for (const r of await store.getResults("r1")) first[r.index] = r;
  assert.deepEqual(first.map((r) => statusOf(r)), ["error", "undetermined", "passed"]);
  const calls = fetch.calls.length;

  // The button says the summary's count: 1 error; its retry reads the two answered repeats from the cache.
  const todo = todoIndices(3, first, { retry: Retry.ERRORS });
  assert.deepEqual(todo, [0]);
  const b = runner({ items: items(3), todo, fresh: askedAfresh(first, todo, Retry.ERRORS), fetch, store, cache: store, repeats: 3, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length - calls, 1, "one call: the repeat that failed");
  const [retried] = await store.getResults("r2");
  assert.equal(statusOf(retried), "passed");
  assert.equal(retried.cachedCalls, 2);

  // Asking again for the undetermined row: its cached answers are the unreadable ones, so each repeat is asked anew.
  const again = todoIndices(3, first, { retry: Retry.UNDETERMINED });
  assert.deepEqual(again, [1]);
  const c = runner({ items: items(3), todo: again, fresh: askedAfresh(first, again, Retry.UNDETERMINED), fetch, store, cache: store, repeats: 3, runId: "r3" });
  await c.clock.run(c.r.start());
  assert.equal(fetch.calls.length - calls, 1 + 3, "three new first calls, readable this time");
  const [asked] = await store.getResults("r3");
  assert.equal(statusOf(asked), "passed");
  assert.equal(asked.cachedCalls, 0);
});

test("a repeat cancelled mid-run leaves the row pending, to resume", async () => {
  const store = new MemoryStore();
  const fetch = perPrompt((q, k) => (k === 3 ? "hang" : "yes"));
  const a = runner({ items: items(2), todo: [0, 1], fetch, store, cache: store, repeats: 3 });
  const done = a.r.start();
  for (let i = 0; i < 20 && fetch.calls.length < 6; i++) await new Promise((r) => setImmediate(r));
  a.r.cancel();
  assert.equal(await a.clock.run(done), "cancelled");
  const res = await store.getResults("r1");
  assert.equal(res.length, 0, "no row is stored with a repeat missing");
  assert.deepEqual(todoIndices(2, []), [0, 1]);
});

test("repeats use the rows' one repair request each, and the counts add up", async () => {
  const store = new MemoryStore();
  // Repeat answers: unreadable then repaired to "no" on the first call of q0; yes otherwise.
  const fetch = perPrompt((q, k, body) => (body.messages.length > 1 ? "no" : k === 1 ? "hmm" : "yes"));
  const a = runner({ items: items(1), todo: [0], fetch, store, cache: store, repeats: 3 });
  await a.clock.run(a.r.start());
  const [row] = await store.getResults("r1");
  assert.equal(row.repaired, true);
  assert.deepEqual(row.repeats.map((x) => x.repaired).sort(), [false, false, true]);
  assert.equal(row.answers.length, 4, "three answers and one repaired one");
  assert.equal(row.verdict.passed, true);
  assert.equal(a.r.stats.repairs, 1);
});

test("exports of a repeat run: one record per row with the majority and each repeat's verdict", async () => {
  const { toCSV, toJSONL } = await import("../../web/batch/export.js");
  const rep = (passed, answer) => ({ verdict: { passed, score: passed ? 1 : 0, verdict: {}, checks: [] }, answers: [answer], repaired: false });
  const reps = [rep(true, "yes"), rep(false, "no"), rep(true, "yes")];
  const results = [
    { index: 0, repeats: reps, verdict: majorityVerdict(reps), answers: ["yes", "no", "yes"], usage: { prompt_tokens: 3, completion_tokens: 3 } },
    { index: 1, error: { kind: "http", status: 400, message: "bad" }, answers: [] },
    undefined,
  ];
  const items = [0, 1, 2].map((i) => ({ source: { id: "r" + i, q: "q" + i }, inputs: { question: "q" + i } }));
  const lines = toJSONL(items, results).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 3);
  assert.equal(lines[0].majority, true);
  assert.equal(lines[0].unanimous, false);
  assert.ok(Math.abs(lines[0].score_sd - Math.sqrt(1 / 3)) < 1e-9);
  assert.deepEqual(lines[0].repeats.map((r) => r.passed), [true, false, true]);
  assert.deepEqual(lines[0].repeats[1].answers, ["no"]);
  assert.equal(lines[1].majority, null);
  assert.equal(lines[1].repeats, null);
  const csv = toCSV(items, results).split("\r\n");
  const head = csv[0].split(",");
  for (const c of ["majority", "unanimous", "score_sd", "repeat_1", "repeat_2", "repeat_3", "repeat_3_answer"]) assert.ok(head.includes(c), c);
  const row = csv[1].split(",");
  assert.equal(row[head.indexOf("repeat_2")], "false");
  assert.equal(row[head.indexOf("repeat_2_answer")], "no");
  assert.equal(row[head.indexOf("majority")], "true");
  assert.equal(row[head.indexOf("answer")], "yes");
  assert.equal(row[head.indexOf("repair_answer")], "", "no repair: not the second repeat's answer");
  // A run without repeats keeps its columns.
  assert.ok(!toCSV(items, [undefined, undefined, undefined]).split("\r\n")[0].includes("majority"));
});

test("a threshold applies to each repeat's score, and the row's status is their majority", () => {
  const rep = (score) => ({ verdict: { passed: null, score, verdict: {}, checks: [] }, answers: [], repaired: false });
  const reps = [rep(4), rep(2), rep(4.5)];
  const r = { repeats: reps, verdict: majorityVerdict(reps) };
  assert.equal(statusOf(r), "scored");
  assert.equal(statusOf(r, 3), "passed", "two of three repeats reach 3");
  assert.equal(statusOf(r, 4.2), "failed", "only one reaches 4.2, though the mean 3.5 is the same");
  const two = { repeats: [rep(4), rep(2)], verdict: majorityVerdict([rep(4), rep(2)]) };
  assert.equal(statusOf(two, 3), "undetermined");
});
