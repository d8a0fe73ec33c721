// orders.test.mjs: a pairwise row judged in both orders by the batch engine (web/batch/orders.js,
// scheduler.js): each row asked as it is and with its answers exchanged (rj.swapOrders), the two
// verdicts made one by the core (rj.combineOrders), each order a cached call of its own, with
// repeats (N repeats × 2 orders), a failed order failing the row and a retry paying only for it,
// and one row asked in both orders in a run that is not (a check-up's position-swap case).
import { test } from "node:test";
import assert from "node:assert/strict";
import { api } from "./rj.mjs";
import { Runner } from "../../web/batch/scheduler.js";
import { judgeOf } from "../../web/batch/buildrunner.js";
import { MemoryStore } from "../../web/batch/memorystore.js";
import { statusOf, causeOf } from "../../web/results/status.js";
import { FakeClock, answer } from "./fakes.mjs";

const rj = await api();
const ev = rj.evaluators().find((e) => e.id === "pairwise-faithfulness");
const judge = judgeOf(rj, ev);
const request = { endpoint: "/v1", model: "judge-1", params: {} };

/** rows: pairwise rows whose actual output is GOOD (faithful) on even rows and BAD on odd ones. */
const rows = (n) =>
  Array.from({ length: n }, (_, i) => ({
    inputs: { contexts: [`Reference text number ${i}.`], expected_output: `Expected GOOD answer ${i} [1].`, actual_output: `Actual ${i % 2 ? "BAD" : "GOOD"} answer ${i} [1].` },
  }));

/** slots reads the two answers of a rendered pairwise prompt. */
function slots(prompt) {
  const m = /Answer 1: (.*)\nAnswer 2: (.*)\n\[\/TO EVALUATE\]/.exec(prompt);
  if (!m) throw new Error("not a pairwise prompt");
  return [m[1], m[2]];
}

const grade = (a, b) => JSON.stringify({ answer_1: { faithfulness_justification: "-", faithfulness: a }, answer_2: { faithfulness_justification: "-", faithfulness: b } });

/** judgeFetch answers each call with script([answer 1, answer 2], call) and records the calls. */
function judgeFetch(script) {
  const calls = [];
  const f = async (url, init) => {
    const body = JSON.parse(init.body);
    const pair = slots(body.messages[body.messages.length - 1].content);
    calls.push(pair);
    return answer(script(pair, calls.length), init);
  };
  f.calls = calls;
  return f;
}

/** firstSlot: a judge that always prefers the answer it reads first. */
const firstSlot = () => grade(1, 0);
/** fair: a judge whose grades follow the answers: GOOD is faithful. */
const fair = ([a, b]) => grade(a.includes("GOOD") ? 1 : 0, b.includes("GOOD") ? 1 : 0);

function runner(opts) {
  const clock = new FakeClock();
  return { r: new Runner({ runId: "r1", judge, request, clock, random: () => 0.5, policy: { timeoutMs: 1000, maxAttempts: 1 }, ...opts }), clock };
}

async function results(store, runId = "r1") {
  return (await store.getResults(runId)).sort((a, b) => a.index - b.index);
}

test("both orders: each row is asked as it is and exchanged; a judge that prefers the first slot flips every row", async () => {
  const store = new MemoryStore();
  const fetch = judgeFetch(firstSlot);
  const { r, clock } = runner({ items: rows(4), todo: [0, 1, 2, 3], fetch, store, cache: store, bothOrders: true });
  assert.equal(await clock.run(r.start()), "done");
  assert.equal(fetch.calls.length, 8, "4 rows × 2 orders");
  // Each row was asked once as it is and once with its answers exchanged.
  for (let i = 0; i < 4; i++) {
    const asked = fetch.calls.filter(([a, b]) => a.includes(`answer ${i} `) && b.includes(`answer ${i} `));
    assert.equal(asked.length, 2, `row ${i}`);
    assert.deepEqual(asked[0].slice().reverse(), asked[1], `row ${i}: the second order is the first exchanged`);
  }
  const res = await results(store);
  for (const x of res) {
    assert.equal(statusOf(x), "undetermined");
    assert.equal(x.verdict.checks.find((c) => c.severity === "error").code, "position.flip");
    assert.equal(causeOf(x), "the grade changed when the answers swapped places");
    assert.equal(x.orders.length, 2);
    assert.equal(x.answers.length, 1, "the row's answers are the first order's");
    assert.equal(x.orders[1].answers.length, 1);
    assert.equal(x.calls, 2);
  }
  const ps = rj.positionStats(res.map((x) => x.verdict));
  assert.equal(ps.flip.rate, 1);
  assert.equal(ps.first.rate, 1, "the first slot won every decided order");

  // The same run again is answered from the cache: each order has its own key.
  const again = new MemoryStore();
  const b = runner({ items: rows(4), todo: [0, 1, 2, 3], fetch, store: again, cache: store, bothOrders: true, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length, 8, "no call paid twice");
  assert.deepEqual((await results(again, "r2")).map((x) => x.cachedCalls), [2, 2, 2, 2]);
});

test("both orders: a judge whose grades follow the answers agrees with itself; the verdict is the actual output's", async () => {
  const store = new MemoryStore();
  const fetch = judgeFetch(fair);
  const { r, clock } = runner({ items: rows(4), todo: [0, 1, 2, 3], fetch, store, cache: null, bothOrders: true });
  await clock.run(r.start());
  const res = await results(store);
  assert.deepEqual(res.map((x) => statusOf(x)), ["passed", "failed", "passed", "failed"]);
  assert.ok(res.every((x) => x.verdict.verdict.orders.agree === true));
  const ps = rj.positionStats(res.map((x) => x.verdict));
  assert.equal(ps.flips, 0);
  assert.equal(ps.first.rate, 0.5, "each answer sits in each slot once");
});

test("both orders with repeats: N repeats × 2 orders, the majority of the combined verdicts", async () => {
  const store = new MemoryStore();
  // Row 0's judge prefers the first slot on every call; row 1's follows the answers. (Which repeat a
  // call belongs to is not in the request, and repeats go out at once: a judge that changed its mind
  // between calls of one prompt would make the test depend on their arrival.)
  const fetch = judgeFetch((pair) => (pair.some((a) => a.includes("answer 0 ")) ? firstSlot() : fair(pair)));
  const { r, clock } = runner({ items: rows(2), todo: [0, 1], fetch, store, cache: store, bothOrders: true, repeats: 3 });
  await clock.run(r.start());
  assert.equal(fetch.calls.length, 12, "2 rows × 3 repeats × 2 orders");
  const res = await results(store);
  for (const x of res) {
    assert.equal(x.repeats.length, 3);
    assert.ok(x.repeats.every((rep) => rep.orders.length === 2 && rep.orders.every((o) => o.answers.length === 1)));
  }
  assert.deepEqual(res[0].repeats.map((rep) => rep.verdict.passed), [null, null, null], "each repeat of row 0 flipped");
  assert.deepEqual(res.map((x) => statusOf(x)), ["undetermined", "failed"], "the majority of the combined verdicts");
  assert.equal(causeOf(res[0]), "the grade changed when the answers swapped places");
  // Each repeat's two orders are calls of their own: the same run again is answered from the cache.
  const b = runner({ items: rows(2), todo: [0, 1], fetch, store, cache: store, bothOrders: true, repeats: 3, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length, 12);
});

test("both orders: an order that fails fails the row, and the retry pays only for that order", async () => {
  const store = new MemoryStore();
  let n = 0;
  const fetch = judgeFetch((pair) => (pair[0].startsWith("Actual") && ++n === 1 ? 400 : fair(pair)));
  const { r, clock } = runner({ items: rows(1), todo: [0], fetch, store, cache: store, bothOrders: true });
  await clock.run(r.start());
  const [row] = await results(store);
  assert.equal(statusOf(row), "error");
  assert.equal(row.error.status, 400);
  assert.equal(row.orders[0].verdict.verdict.answer_2.faithfulness, true, "the answered order stays with the row");
  assert.equal(row.orders[1].error.status, 400);
  const b = runner({ items: rows(1), todo: [0], fetch, store, cache: store, bothOrders: true, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length, 3, "the answered order came from the cache");
  const [again] = await results(store, "r2");
  assert.equal(statusOf(again), "passed");
  assert.equal(again.cachedCalls, 1);
});

test("both orders for one row only (item.bothOrders): the others are asked once", async () => {
  const store = new MemoryStore();
  const fetch = judgeFetch(firstSlot);
  const items = rows(3);
  items[1].bothOrders = true;
  const { r, clock } = runner({ items, todo: [0, 1, 2], fetch, store, cache: null });
  await clock.run(r.start());
  assert.equal(fetch.calls.length, 4);
  const res = await results(store);
  assert.deepEqual(res.map((x) => !!x.orders), [false, true, false]);
  assert.deepEqual(res.map((x) => statusOf(x)), ["failed", "undetermined", "failed"]);
});

test("both orders with an evaluator that compares no two answers: a render error, no call", async () => {
  const store = new MemoryStore();
  const fetch = judgeFetch(firstSlot);
  const grounding = judgeOf(rj, { id: "answer-grounding" });
  const { r, clock } = runner({ items: [{ inputs: { answer: "A.", facts: ["A."] } }], todo: [0], fetch, store, cache: null, bothOrders: true, judge: grounding });
  await clock.run(r.start());
  const [row] = await results(store);
  assert.equal(row.error.kind, "render");
  assert.match(row.error.message, /could not be exchanged.*compares no two answers/);
  assert.equal(fetch.calls.length, 0);
});
