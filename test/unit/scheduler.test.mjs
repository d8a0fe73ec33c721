// Tests of the batch engine (web/batch/scheduler.js): every row ends, repair request, cache, pause/cancel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner } from "../../web/batch/scheduler.js";
import { statusOf } from "../../web/results/status.js";
import { FakeClock, scriptedFetch, answer, fakeJudge } from "./fakes.mjs";
import { repairPrompt } from "../../web/batch/repair.js";
import { redoOnResume, RunState, RowState, RepairCode } from "../../web/batch/states.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0, max_tokens: 100 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));

function runner(opts) {
  const clock = opts.clock || new FakeClock();
  const r = new Runner({ runId: "r1", judge: fakeJudge, request, clock, random: () => 0.5, policy: { timeoutMs: 1000 }, ...opts });
  return { r, clock };
}

test("every row ends as a verdict or an error under injected faults", async () => {
  const n = 60;
  const store = new MemoryStore();
  const calls = new Map();
  const faults = [500, 429, "network", "hang", "garbage", { status: 429, headers: { "retry-after": "1" }, body: "{}" }, 502];
  const fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    const q = Number(body.messages[0].content.slice(4));
    const k = q + (calls.get(q) || 0) + 1;
    calls.set(q, (calls.get(q) || 0) + 1);
    // Row q's call c: a fault when q + c is a multiple of 3 (so on every third call, never on
    // two calls of a row in a row), and row 7 always rejected (400). Counted per row: the order
    // the rows' calls arrive in is the runner's (its render turns are timed, its cache digests
    // asynchronous), and with the faults counted over all calls row 10's repair request met one
    // ("garbage") in some orders and ended undetermined (3 runs in 15 beside two busy cores).
    if (q === 7) return answer(400, init);
    if (k % 3 === 0) return answer(faults[k % faults.length], init);
    if (body.messages.length > 1) return answer("no", init); // the repair request
    return answer(q % 5 === 0 ? "not a verdict" : "yes", init);
  };
  const its = items(n);
  its[3] = { error: "Row 4: question: column \"q\" is empty" };
  its[4] = { inputs: { question: "BOOM" } };
  const { r, clock } = runner({ items: its, todo: its.map((_, i) => i), fetch, store, concurrency: 8 });
  const state = await clock.run(r.start(), 100_000);
  assert.equal(state, "done");
  const results = await store.getResults("r1");
  assert.equal(results.length, n);
  for (const res of results) {
    const st = statusOf(res);
    assert.ok(["passed", "failed", "undetermined", "error"].includes(st), `row ${res.index}: ${st}`);
    if (st === "error") assert.ok(res.error.message.length > 10, "error says what happened");
  }
  assert.equal(results[3].error.kind, "input");
  assert.equal(results[4].error.kind, "render");
  assert.equal(results[7].error.status, 400);
  assert.equal(statusOf(results[10]), "failed", "row 10 was repaired to 'no'");
  assert.equal(r.stats.outages, 0, "faults among answers are flaky calls, not an outage");
  assert.ok(results[10].repaired);
});

test("an unreadable answer gets one repair request showing the answer and the parse error", async () => {
  const fetch = scriptedFetch(["I think it is fine", "yes"]);
  const { r, clock } = runner({ items: items(1), todo: [0], fetch, cache: null });
  const got = [];
  r.o.onResult = (x) => got.push(x);
  await clock.run(r.start());
  assert.equal(fetch.calls.length, 2);
  const msgs = fetch.calls[1].body.messages;
  assert.equal(msgs.length, 3);
  assert.deepEqual(msgs[1], { role: "assistant", content: "I think it is fine" });
  assert.equal(msgs[2].role, "user");
  assert.match(msgs[2].content, /could not be read: 1:1: expected yes or no/);
  assert.equal(got[0].verdict.passed, true);
  assert.deepEqual(got[0].answers, ["I think it is fine", "yes"]);
  assert.ok(got[0].verdict.checks.some((c) => c.code === RepairCode.USED));
  assert.equal(got[0].usage.prompt_tokens, 20);
});

test("only one repair request: a second unreadable answer stays undetermined with both answers", async () => {
  const fetch = scriptedFetch(["cut", "still not"]);
  const { r, clock } = runner({ items: items(1), todo: [0], fetch });
  const got = [];
  r.o.onResult = (x) => got.push(x);
  await clock.run(r.start());
  assert.equal(fetch.calls.length, 2);
  assert.equal(statusOf(got[0]), "undetermined");
  assert.equal(got[0].answers.length, 2);
  assert.ok(got[0].verdict.checks.some((c) => c.code === RepairCode.UNREADABLE));
});

test("a failed repair request makes an error row (stage repair) with the first answer kept, not an undetermined verdict", async () => {
  const fetch = scriptedFetch(["cut", 400]);
  const { r, clock } = runner({ items: items(1), todo: [0], fetch });
  const got = [];
  r.o.onResult = (x) => got.push(x);
  await clock.run(r.start());
  assert.equal(statusOf(got[0]), "error");
  assert.equal(got[0].error.kind, "http");
  assert.equal(got[0].error.status, 400);
  assert.equal(got[0].error.stage, "repair");
  assert.match(got[0].error.message, /^The repair request failed: /);
  assert.equal(got[0].verdict, null);
  assert.deepEqual(got[0].answers, ["cut"]);
  assert.equal(redoOnResume(got[0]), false, "a 400 for this request is not redone by Resume");
});

test("a second run of the same rows is answered from the cache; readCache false asks again", async () => {
  const store = new MemoryStore();
  const fetch = scriptedFetch(["yes"]);
  const a = runner({ items: items(20), todo: [...Array(20).keys()], fetch, store, cache: store });
  await a.clock.run(a.r.start());
  assert.equal(fetch.calls.length, 20);
  assert.equal(await store.cacheCount(), 20);
  const b = runner({ items: items(20), todo: [...Array(20).keys()], fetch, store, cache: store, runId: "r2" });
  await b.clock.run(b.r.start());
  assert.equal(fetch.calls.length, 20, "no new calls");
  assert.equal(b.r.stats.cacheHits, 20);
  const res = await store.getResults("r2");
  assert.ok(res.every((x) => x.cachedCalls === 1 && x.calls === 0 && x.usage.prompt_tokens === 0));
  const c = runner({ items: items(5), todo: [0, 1, 2, 3, 4], fetch, store, cache: store, runId: "r3", readCache: false });
  await c.clock.run(c.r.start());
  assert.equal(fetch.calls.length, 25);
  const d = runner({ items: items(5), todo: [0, 1, 2, 3, 4], fetch, store, cache: store, runId: "r4", useCache: false });
  await d.clock.run(d.r.start());
  assert.equal(fetch.calls.length, 30);
});

test("a different model or temperature is a different cache entry", async () => {
  const store = new MemoryStore();
  const fetch = scriptedFetch(["yes"]);
  for (const req of [request, { ...request, model: "judge-2" }, { ...request, params: { temperature: 0.7, max_tokens: 100 } }]) {
    const x = runner({ items: items(1), todo: [0], fetch, store, cache: store, request: req });
    await x.clock.run(x.r.start());
  }
  assert.equal(fetch.calls.length, 3);
});

test("concurrency bounds the calls in flight", async () => {
  let inflight = 0;
  let peak = 0;
  const clock = new FakeClock();
  const fetch = async (u, init) => {
    inflight++;
    peak = Math.max(peak, inflight);
    await new Promise((res) => clock.setTimeout(res, 100));
    inflight--;
    return answer("yes", init);
  };
  const { r } = runner({ clock, items: items(50), todo: [...Array(50).keys()], fetch, concurrency: 6 });
  await clock.run(r.start());
  assert.equal(peak, 6);
  assert.equal(r.stats.finished, 50);
});

test("pause starts no new rows, resume finishes, cancel leaves unfinished rows pending", async () => {
  const clock = new FakeClock();
  const store = new MemoryStore();
  const fetch = async (u, init) => {
    await new Promise((res) => clock.setTimeout(res, 100));
    return answer("yes", init);
  };
  const abortable = (u, init) =>
    Promise.race([fetch(u, init), new Promise((_, rej) => init.signal.addEventListener("abort", () => rej(new DOMException("aborted", "AbortError"))))]);
  const { r } = runner({ clock, items: items(20), todo: [...Array(20).keys()], fetch: abortable, store, concurrency: 4 });
  let stored = 0;
  r.o.onResult = () => stored++;
  const p = r.start();
  r.pause();
  await clock.run(until(() => r.active === 0 && stored === r.stats.started));
  clock.advance(5000);
  for (let i = 0; i < 20; i++) await new Promise((res) => setImmediate(res));
  const started = r.stats.started;
  assert.ok(started >= 4 && started < 20);
  assert.equal((await store.getResults("r1")).length, started, "the rows in flight finished, no more");
  r.resume();
  await new Promise((res) => setImmediate(res));
  r.cancel();
  assert.equal(await clock.run(p), "cancelled");
  assert.equal((await store.getResults("r1")).length, started, "cancelled rows are not stored as errors");
});

async function until(cond) {
  while (!cond()) await new Promise((res) => setImmediate(res));
}

test("repairPrompt quotes every error check", () => {
  const p = repairPrompt({ checks: [{ severity: "error", message: "A" }, { severity: "warning", message: "W" }, { severity: "error", message: "B" }] });
  assert.match(p, /could not be read: A; B/);
  assert.ok(!p.includes("W"));
});

test("a refused key holds the run with the row still pending; resume with a key goes on", async () => {
  const store = new MemoryStore();
  let key = "";
  const fetch = async (u, init) => answer(init.headers.Authorization ? "yes" : 401, init);
  const held = [];
  const states = [];
  const { r, clock } = runner({
    items: items(5),
    todo: [0, 1, 2, 3, 4],
    fetch,
    store,
    concurrency: 2,
    apiKey: () => key,
    onHold: (e) => held.push(e.status),
    onState: (s, why) => states.push([s, why.by, why.error && why.error.status]),
  });
  const p = r.start();
  await clock.run(until(() => r.state === RunState.HELD && r.active === 0));
  assert.deepEqual(states, [[RunState.RUNNING, "user", undefined], [RunState.HELD, "runner", 401]]);
  assert.match(r.reason.message, /key was refused/);
  assert.ok(held.length >= 1 && held.every((s) => s === 401));
  assert.equal((await store.getResults("r1")).length, 0, "no row was stored as a 401 error");
  key = "sk-now";
  r.resume();
  assert.equal(await clock.run(p), "done");
  const res = await store.getResults("r1");
  assert.equal(res.length, 5);
  assert.ok(res.every((x) => statusOf(x) === "passed"));
});

test("a judge that throws while reading an answer makes a row error, not a crash", async () => {
  const judge = { ...fakeJudge, parse: () => { throw Object.assign(new Error("input: rag-recall: passage_gt has no markers"), { detail: "passage_gt has no markers" }); } };
  const fetch = scriptedFetch(["yes"]);
  const got = [];
  const { r, clock } = runner({ items: items(1), todo: [0], fetch, judge, onResult: (x) => got.push(x) });
  await clock.run(r.start());
  assert.equal(got[0].error.kind, "parse");
  assert.match(got[0].error.message, /could not be computed: passage_gt has no markers/);
  assert.deepEqual(got[0].answers, ["yes"]);
});

test("the end of a run flushes the store: writes held back for coalescing are committed at once", async () => {
  // A store that, like IDBStore, holds writes back until its coalescing delay, here forever: only
  // flush() commits them. The run must still end, with every row stored.
  const mem = new MemoryStore();
  const held = [];
  let flushes = 0;
  const store = {
    putResult: (res) => new Promise((resolve) => held.push(() => mem.putResult(res).then(resolve))),
    flush: async () => {
      flushes++;
      for (const commit of held.splice(0)) await commit();
    },
  };
  const { r, clock } = runner({ items: items(10), todo: [...Array(10).keys()], fetch: scriptedFetch(["yes"]), store, concurrency: 4 });
  assert.equal(await clock.run(r.start()), "done");
  assert.ok(flushes >= 1, "flush was called");
  assert.equal((await mem.getResults("r1")).length, 10);
});

test("a row's result is stored only once its fresh answer is in the cache: a reload between the two never loses a paid answer", async () => {
  // IndexedDB commits the cache and the results in separate transactions; a page reloaded after
  // the result's commit but before the cache's would keep a row whose answer the next run of the
  // same rows pays for again. The engine writes the cache first.
  const mem = new MemoryStore();
  const log = [];
  const heldCache = [];
  const store = {
    cacheGet: (k) => mem.cacheGet(k),
    cachePut: (k, v) => new Promise((resolve) => heldCache.push(() => (log.push("cache " + v.content), mem.cachePut(k, v).then(resolve)))),
    putResult: (res) => (log.push("result " + res.index), mem.putResult(res)),
  };
  const { r, clock } = runner({ items: items(3), todo: [0, 1, 2], fetch: scriptedFetch(["yes", "hmm", "no", "yes"]), store, cache: store, concurrency: 3 });
  const done = r.start();
  for (let i = 0; i < 50 && heldCache.length < 3; i++) await new Promise((res) => setImmediate(res));
  for (let i = 0; i < 20; i++) await new Promise((res) => setImmediate(res));
  assert.deepEqual(log, [], "no result stored while its answer is not cached");
  while (heldCache.length || r.state !== "done") {
    for (const commit of heldCache.splice(0)) await commit();
    await new Promise((res) => setImmediate(res));
    if (r.state === "done") break;
  }
  assert.equal(await clock.run(done), "done");
  // Each result comes after the cache entries of every answer it holds (row 1 was repaired: two).
  for (const res of await mem.getResults("r1")) {
    const at = log.indexOf("result " + res.index);
    for (const a of res.answers) assert.ok(log.indexOf("cache " + a) < at, `${log.join(", ")}: row ${res.index}'s answer "${a}" cached before its result`);
  }
});

test("the first call goes out before the look-ahead rows are rendered: rows take turns rendering", async () => {
  // Each prompt takes 10 ms to render and its cache key is digested asynchronously, as in the
  // page. Rendering every started row before the first call could leave held the run back by the
  // whole look-ahead; taking turns, a call goes out after the first row or two.
  let renders = 0;
  let rendersAtFirstCall = null;
  const judge = {
    ...fakeJudge,
    render(inputs) {
      const end = performance.now() + 10;
      while (performance.now() < end);
      renders++;
      return fakeJudge.render(inputs);
    },
  };
  const fetch = scriptedFetch(["yes"]);
  const counting = (url, init) => {
    if (rendersAtFirstCall === null) rendersAtFirstCall = renders;
    return fetch(url, init);
  };
  const store = new MemoryStore();
  const r = new Runner({ runId: "r1", judge, request, items: items(24), todo: [...Array(24).keys()], fetch: counting, cache: store, store, concurrency: 16 });
  assert.equal(await r.start(), "done");
  assert.equal(renders, 24);
  assert.ok(rendersAtFirstCall <= 3, `${rendersAtFirstCall} rows were rendered before the first call went out`);
});

test("onRow says what a row is doing: rendering, waiting for a slot, calling, waiting to retry, calling again, answered, repairing, then idle", async () => {
  const fetch = scriptedFetch([500, "cut", "yes"]);
  const seen = [];
  let during = null;
  const { r, clock } = runner({
    items: items(1),
    todo: [0],
    fetch,
    onRow: (live) => {
      seen.push([live.state, live.attempt, live.retryAt === null ? null : live.retryAt - clock.now(), live.repair]);
      if (live.state === RowState.RETRY_WAIT) during = r.liveRows();
    },
  });
  const got = [];
  r.o.onResult = (x) => {
    got.push(x);
    assert.equal(r.liveRows().size, 0, "a row is no longer live when its result is reported");
  };
  await clock.run(r.start());
  assert.deepEqual(seen, [
    [RowState.RENDERING, 0, null, false],
    [RowState.WAITING, 0, null, false],
    [RowState.CALLING, 1, null, false],
    [RowState.RETRY_WAIT, 2, 375, false],
    [RowState.CALLING, 2, null, false],
    // Its call is over: the answer is read (unreadable) and the repair request waits for a slot.
    [RowState.ANSWERED, 2, null, false],
    [RowState.WAITING, 0, null, true],
    [RowState.REPAIRING, 1, null, true],
    [RowState.ANSWERED, 1, null, true],
    [RowState.IDLE, 0, null, false],
  ]);
  assert.deepEqual([...during.keys()], [0]);
  assert.equal(during.get(0).state, RowState.RETRY_WAIT);
  assert.equal(statusOf(got[0]), "passed");
});

test("a held row is queued in liveRows until the run goes on", async () => {
  let key = "";
  const fetch = async (u, init) => answer(init.headers.Authorization ? "yes" : 401, init);
  const { r, clock } = runner({ items: items(2), todo: [0, 1], fetch, concurrency: 1, apiKey: () => key });
  const p = r.start();
  await clock.run(until(() => r.state === RunState.HELD && r.active === 0));
  // Row 1 had started (rendered, waiting for the one slot) and met the same 401.
  assert.deepEqual(
    [...r.liveRows().values()].map((l) => [l.index, l.state]).sort(),
    [
      [0, RowState.QUEUED],
      [1, RowState.QUEUED],
    ],
  );
  key = "sk";
  r.resume();
  assert.equal(await clock.run(p), RunState.DONE);
  assert.equal(r.liveRows().size, 0);
});

test("a row asked again (Retry, Ask again) adds to the run's calls, cache hits and tokens, never takes away (finding 7)", async () => {
  const { runCounts } = await import("../../web/results/counts.js");
  const store = new MemoryStore();
  // Row 0 passes; row 1 answers unreadably twice (a repair request, then undetermined); row 2 fails 500.
  let phase = 1;
  const fetch = async (url, init) => {
    const q = JSON.parse(init.body).messages[0].content;
    if (phase === 2) return answer("yes", init);
    if (q === "Q: q0") return answer("yes", init);
    if (q === "Q: q1") return answer("cut", init);
    return answer(500, init);
  };
  const its = items(3);
  const first = runner({ items: its, todo: [0, 1, 2], fetch, store, cache: store, policy: { timeoutMs: 1000, maxAttempts: 2 } });
  await first.clock.run(first.r.start(), 100_000);
  const results = await store.getResults("r1");
  const before = runCounts({ total: 3, results });
  assert.deepEqual([before.paidCalls, before.cacheHits, before.failedCalls], [3, 0, 2], "row 0's call, row 1's call and repair; row 2's two failed attempts");
  // Ask again for row 1 (afresh, past the cache) and retry row 2, as the Batch view does: the earlier results are the prior ones.
  phase = 2;
  const again = runner({ items: its, todo: [1, 2], fresh: new Set([1]), fetch, store, cache: store, prior: (i) => results[i], policy: { timeoutMs: 1000, maxAttempts: 2 } });
  await again.clock.run(again.r.start(), 100_000);
  const after = runCounts({ total: 3, results: await store.getResults("r1") });
  assert.deepEqual([after.paidCalls, after.cacheHits, after.failedCalls], [5, 0, 2], "two more calls paid; the failed attempts stay counted");
  assert.ok(after.promptTokens > before.promptTokens && after.tokens > before.tokens);
  assert.deepEqual([after.counts.passed, after.counts.undetermined, after.counts.error], [3, 0, 0]);
  // A row's own fields are its latest try's; what it spent before is beside them.
  const r1 = (await store.getResults("r1"))[1];
  assert.deepEqual([r1.calls, r1.earlier.calls, r1.earlier.attempts], [1, 2, 2]);
  // Asked a third time, the earlier tries add up.
  const third = runner({ items: its, todo: [1], fresh: new Set([1]), fetch, store, cache: store, prior: (i) => [undefined, r1][i], policy: { timeoutMs: 1000, maxAttempts: 2 } });
  await third.clock.run(third.r.start(), 100_000);
  const r1b = (await store.getResults("r1"))[1];
  assert.deepEqual([r1b.calls, r1b.earlier.calls], [1, 3]);
});
