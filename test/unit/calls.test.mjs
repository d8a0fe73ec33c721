// Tests of web/batch/calls.js: a run's calls made by a worker (here serveCalls on the far end of a
// MessageChannel, with a fake fetch on the real clock) behave as the page's own calls do.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner } from "../../web/batch/scheduler.js";
import { CallClient, serveCalls, errorJSON, errorFromJSON } from "../../web/batch/calls.js";
import { statusOf } from "../../web/results/status.js";
import { answer, fakeJudge } from "./fakes.mjs";
import { RowState, RunState } from "../../web/batch/states.js";
import { CallError } from "../../web/model/callerror.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));
const policy = { timeoutMs: 2000, baseDelayMs: 1, maxDelayMs: 2 };

/** worker starts serveCalls behind a MessageChannel; close() frees both ports. */
function worker(fetch) {
  const ch = new MessageChannel();
  serveCalls(ch.port2, { fetch, random: () => 0.5 });
  const client = new CallClient(ch.port1, () => {
    ch.port1.close();
    ch.port2.close();
  });
  return client;
}

test("errorJSON and errorFromJSON keep what the retry policy and the rows read", () => {
  const e = new CallError("Rate limited", { kind: "http", status: 429, retryable: true, retryAfterMs: 1500, attempts: 3, detail: "slow down" });
  const back = errorFromJSON(structuredClone(errorJSON(e)));
  assert.ok(back instanceof CallError);
  assert.deepEqual(back.toJSON(), e.toJSON());
  assert.equal(back.retryable, true);
  assert.equal(back.retryAfterMs, 1500);
  assert.equal(errorFromJSON(errorJSON(new TypeError("boom"))).message, "boom");
});

test("through the call worker every row ends, calls in flight stay at the limit, retries are reported", async () => {
  let inflight = 0;
  let max = 0;
  const seen = new Map();
  // The first calls are held until the concurrency's worth are in flight at once, so "exactly 4"
  // does not depend on a timer outlasting the other calls' trip through the channel (on a busy
  // machine the first call's timer could fire before the fourth call arrived). Fewer than 4 ever in
  // flight leaves the gate shut: the run then fails by the deadline below instead of hanging.
  let open;
  const gate = new Promise((r) => (open = r));
  const fetch = async (url, init) => {
    const q = JSON.parse(init.body).messages[0].content;
    seen.set(q, (seen.get(q) || 0) + 1);
    inflight++;
    max = Math.max(max, inflight);
    if (inflight === 4) open();
    try {
      // A held call the worker gives up on (its timeout) is no longer in flight.
      await Promise.race([gate, new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))]);
      await new Promise((r) => setTimeout(r, 3));
    } finally {
      inflight--;
    }
    if (q === "Q: q7") return answer(400, init);
    if (q === "Q: q3" && seen.get(q) === 1) return answer(503, init);
    return answer("yes", init);
  };
  const calls = worker(fetch);
  await calls.ready;
  const store = new MemoryStore();
  const retries = [];
  const row3 = [];
  const r = new Runner({
    runId: "w1",
    items: items(40),
    todo: [...Array(40).keys()],
    judge: fakeJudge,
    request,
    policy,
    store,
    cache: store,
    calls,
    concurrency: 4,
    onRetry: (i) => retries.push(i),
    onRow: (l) => l.index === 3 && row3.push([l.state, l.attempt]),
  });
  let shut;
  const deadline = new Promise((_, reject) => {
    shut = setTimeout(() => reject(new Error(`never 4 calls in flight at once (at most ${max})`)), 10_000);
  });
  try {
    assert.equal(await Promise.race([r.start(), deadline]), "done");
  } finally {
    clearTimeout(shut);
    r.cancel(); // a run stuck at the gate would keep the process alive
    calls.close();
  }
  const results = await store.getResults("w1");
  assert.equal(results.length, 40);
  assert.equal(max, 4, "the worker keeps exactly the concurrency in flight");
  assert.equal(results[7].error.status, 400);
  assert.equal(results[7].error.kind, "http");
  assert.equal(statusOf(results[3]), "passed");
  assert.equal(results[3].attempts, 2);
  assert.equal(retries.length, 1);
  assert.equal(retries[0].index, 3);
  assert.ok(retries[0].error instanceof CallError);
  assert.equal(r.stats.calls, 40);
  // The worker says when a call has a slot and goes out, and when a retry does.
  assert.deepEqual(row3, [
    [RowState.RENDERING, 0],
    [RowState.WAITING, 0],
    [RowState.CALLING, 1],
    [RowState.RETRY_WAIT, 2],
    [RowState.CALLING, 2],
    [RowState.ANSWERED, 2],
    [RowState.IDLE, 0],
  ]);
});

test("cancel aborts the worker's calls and leaves their rows pending", async () => {
  let started = 0;
  const fetch = (url, init) => {
    started++;
    return answer("hang", init);
  };
  const calls = worker(fetch);
  await calls.ready;
  const store = new MemoryStore();
  const r = new Runner({ runId: "w2", items: items(10), todo: [...Array(10).keys()], judge: fakeJudge, request, policy, store, calls, concurrency: 3 });
  const done = r.start();
  while (started < 3) await new Promise((res) => setTimeout(res, 1));
  r.cancel();
  assert.equal(await done, "cancelled");
  assert.equal(started, 3, "no call starts after the cancel");
  assert.equal((await store.getResults("w2")).length, 0);
  calls.close();
});

test("a call worker that fails mid-run: no call waits for it, every row ends, the rows say why", async () => {
  let started = 0;
  let failNow;
  const third = new Promise((r) => (failNow = r));
  const fetch = (url, init) => {
    if (++started === 3) failNow();
    return answer("hang", init); // the worker never answers these: it is about to fail
  };
  const calls = worker(fetch);
  await calls.ready;
  const store = new MemoryStore();
  const r = new Runner({ runId: "w-dead", items: items(10), todo: [...Array(10).keys()], judge: fakeJudge, request, policy, store, calls, concurrency: 3 });
  const done = r.start();
  await third;
  calls.fail("The run's call worker failed: boom");
  let shut;
  const deadline = new Promise((_, reject) => {
    shut = setTimeout(() => reject(new Error("the run waited for a failed worker")), 10_000);
  });
  try {
    await Promise.race([done, deadline]);
  } finally {
    clearTimeout(shut);
    r.cancel();
    calls.close();
  }
  const results = await store.getResults("w-dead");
  assert.equal(results.length, 10, "every row ended");
  for (const res of results) assert.match(res.error?.message ?? "", /call worker failed: boom/);
  // A call asked of it later is refused at once, not queued.
  await assert.rejects(calls.call({ endpoint: "/v1", model: "m", messages: [] }), (e) => e instanceof CallError && /boom/.test(e.message));
});

test("through the call worker an outage pauses the run, the page probes, and the run finishes by itself", async () => {
  const upAt = Date.now() + 300;
  let during = 0;
  const fetch = async (url, init) => {
    if (Date.now() < upAt) {
      if (init.method !== "GET") during++;
      return answer(503, init);
    }
    return init.method === "GET" ? answer({ status: 200, body: "{}" }, init) : answer("yes", init);
  };
  const calls = worker(fetch);
  await calls.ready;
  const store = new MemoryStore();
  const states = [];
  const r = new Runner({
    runId: "w3",
    items: items(12),
    todo: [...Array(12).keys()],
    judge: fakeJudge,
    request,
    policy: { ...policy, maxAttempts: 3 },
    store,
    calls,
    fetch, // the probe's, from the page
    concurrency: 3,
    outage: { afterMs: 20, probeBaseMs: 40, probeMaxMs: 80 },
    onState: (s) => states.push(s),
  });
  assert.equal(await r.start(), RunState.DONE);
  calls.close();
  assert.ok(states.includes(RunState.OUTAGE), states.join(" "));
  assert.ok(r.stats.probes >= 1);
  // The worker had a look-ahead of calls queued when the run paused, and a call waiting to retry
  // holds no slot, so those go out meanwhile (how many depends on the real clock); what matters
  // is that the rows' attempts were not all burnt (12 rows x 3 attempts) and every row passed.
  assert.ok(during < 12 * 3, `${during} calls while down`);
  const results = await store.getResults("w3");
  assert.equal(results.length, 12);
  assert.ok(results.every((x) => statusOf(x) === "passed"));
});

test("through the call worker no more rows are calling than the concurrency; the rest wait for a slot", async () => {
  const fetch = async (url, init) => {
    await new Promise((r) => setTimeout(r, 3));
    return answer("yes", init);
  };
  const calls = worker(fetch);
  await calls.ready;
  let peak = 0;
  let waitingSeen = 0;
  const r = new Runner({
    runId: "w4",
    items: items(30),
    todo: [...Array(30).keys()],
    judge: fakeJudge,
    request,
    policy,
    calls,
    concurrency: 3,
    onRow: (l) => {
      if (l.state === RowState.WAITING) waitingSeen++;
      const calling = [...r.liveRows().values()].filter((x) => x.state === RowState.CALLING).length;
      peak = Math.max(peak, calling);
    },
  });
  assert.equal(await r.start(), RunState.DONE);
  calls.close();
  assert.ok(peak <= 3, `${peak} rows said calling at once`);
  assert.equal(waitingSeen, 30);
});
