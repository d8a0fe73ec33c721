// Tests of a batch run through an outage (web/batch/scheduler.js with web/batch/outage.js): the run
// pauses itself, probes at growing intervals, goes on when the endpoint answers, and no row fails
// for lack of attempts; a flaky row among answered ones is an error row, not an outage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner } from "../../web/batch/scheduler.js";
import { OutageWatch, DEFAULT_OUTAGE } from "../../web/batch/outage.js";
import { statusOf } from "../../web/results/status.js";
import { FakeClock, answer, fakeJudge } from "./fakes.mjs";
import { RunState, RowState, redoOnResume } from "../../web/batch/states.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));
const T0 = 1_000_000; // FakeClock's start

/**
 * endpoint is a fake fetch for a dev server whose upstream is down until clock time `upAt`: while
 * down, chat calls and GET models fail with `fault` (a status, "network" or "hang"); then chat calls
 * answer "yes" and GET models a list. It records what was asked and when.
 */
function endpoint(clock, { upAt, fault = "network", faultFor = () => fault }) {
  const log = { posts: [], gets: [] };
  const f = async (url, init) => {
    const t = clock.now();
    if (init.method === "GET") {
      log.gets.push(t);
      assert.match(url, /\/v1\/models$/);
      assert.equal(init.credentials, "same-origin");
      if (t < upAt) return answer(fault === "hang" ? "network" : fault, init);
      return new Response('{"object":"list","data":[{"id":"judge-1"}]}', { status: 200, headers: { "content-type": "application/json" } });
    }
    const q = JSON.parse(init.body).messages[0].content.slice(3);
    log.posts.push({ t, q });
    if (t < upAt) return answer(faultFor(q), init);
    return answer("yes", init);
  };
  f.log = log;
  return f;
}

for (const fault of ["network", 502, 503, 504, "hang"]) {
  test(`an outage (${fault}) pauses the run, probes at growing intervals, and the run finishes by itself with every row judged`, async () => {
    const clock = new FakeClock();
    const upAt = T0 + 90_000;
    const fetch = endpoint(clock, { upAt, fault });
    const store = new MemoryStore();
    const states = [];
    const r = new Runner({
      runId: "o1",
      items: items(30),
      todo: [...Array(30).keys()],
      judge: fakeJudge,
      request,
      fetch,
      store,
      clock,
      random: () => 0.5,
      concurrency: 4,
      policy: { timeoutMs: 2000, maxAttempts: 5 },
      onState: (s, why) => states.push({ s, t: clock.now(), ...why }),
    });
    assert.equal(await clock.run(r.start(), 100_000), RunState.DONE);

    const results = await store.getResults("o1");
    assert.equal(results.length, 30);
    for (const res of results) assert.equal(statusOf(res), "passed", `row ${res.index}: ${res.error && res.error.message}`);

    const outage = states.find((x) => x.s === RunState.OUTAGE);
    assert.ok(outage, "the run paused itself");
    assert.equal(outage.by, "runner");
    assert.equal(outage.message, "The endpoint is unreachable; resuming when it answers.");
    assert.ok(outage.error && outage.error.kind, "the outage says what failed");
    const back = states.find((x) => x.s === RunState.RUNNING && x.by === "runner");
    assert.ok(back && back.t >= upAt, "it went on by itself once the endpoint answered");
    assert.equal(states.at(-1).s, RunState.DONE);
    assert.equal(r.stats.outages, 1);

    // No call was made between the pause and the first answered probe; the probes grew apart, bounded.
    const calm = fetch.log.posts.filter((p) => p.t > outage.t && p.t < back.t);
    assert.deepEqual(calm, [], "no call while the endpoint was known to be down");
    const gaps = fetch.log.gets.slice(1).map((t, i) => t - fetch.log.gets[i]);
    assert.ok(fetch.log.gets.length >= 3, `probed ${fetch.log.gets.length} times`);
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i] >= gaps[i - 1], `probe gaps grow: ${gaps}`);
    assert.ok(Math.max(...gaps) <= DEFAULT_OUTAGE.probeMaxMs, "and are bounded");
    // Before the pause, the failing calls were few: not every row's five attempts. A row waiting
    // to retry holds no call slot, so the look-ahead's rows (2 here) call meanwhile too.
    const before = fetch.log.posts.filter((p) => p.t <= outage.t).length;
    assert.ok(before <= (4 + 2) * 5, `${before} calls before the pause`);
  });
}

test("with one call in flight, one row running out of attempts is an outage: the row waits and is judged", async () => {
  const clock = new FakeClock();
  const fetch = endpoint(clock, { upAt: T0 + 20_000 });
  const store = new MemoryStore();
  const r = new Runner({ runId: "o2", items: items(3), todo: [0, 1, 2], judge: fakeJudge, request, fetch, store, clock, random: () => 0.5, concurrency: 1, policy: { timeoutMs: 1000 } });
  assert.equal(await clock.run(r.start(), 100_000), RunState.DONE);
  const results = await store.getResults("o2");
  assert.deepEqual(results.map(statusOf), ["passed", "passed", "passed"]);
  assert.equal(r.stats.outages, 1);
});

test("rows that ran out of attempts before the outage was declared go back in the queue and are judged", async () => {
  // Row 0 fails fast (connection refused) while rows 1 and 2 hang: row 0 runs out of its two
  // attempts before three rows have failed, so it is stored as an error; when rows 1 and 2 time
  // out too, the outage is declared and row 0 goes back in the queue. (Three rows only: a fourth
  // would take row 0's slot while row 0 waits to retry, and row 0's retry would wait for it.)
  const clock = new FakeClock();
  const upAt = T0 + 30_000;
  const fetch = endpoint(clock, { upAt, faultFor: (q) => (q === "q0" ? "network" : "hang") });
  const store = new MemoryStore();
  const seen = [];
  const r = new Runner({
    runId: "o3",
    items: items(3),
    todo: [0, 1, 2],
    judge: fakeJudge,
    request,
    fetch,
    store,
    clock,
    random: () => 0.5,
    concurrency: 3,
    policy: { timeoutMs: 1000, maxAttempts: 2 },
    outage: { afterMs: 60_000 },
    onResult: (x) => seen.push([x.index, statusOf(x)]),
  });
  assert.equal(await clock.run(r.start(), 100_000), RunState.DONE);
  assert.deepEqual(
    seen.filter(([i]) => i === 0),
    [
      [0, "error"],
      [0, "passed"],
    ],
    "row 0 was stored as an error, then run again and judged",
  );
  const results = await store.getResults("o3");
  assert.ok(results.every((x) => statusOf(x) === "passed"));
  assert.equal(r.stats.outages, 1);
});

test("one flaky row among answered ones is an error row, not an outage; Retry failed rows redoes it", async () => {
  const clock = new FakeClock();
  let q5down = true;
  const fetch = async (url, init) => {
    if (init.method === "GET") return answer({ status: 200, body: "{}" }, init);
    const q = JSON.parse(init.body).messages[0].content.slice(3);
    if (q === "q5" && q5down) return answer("network", init);
    await new Promise((res) => clock.setTimeout(res, 1000));
    return answer("yes", init);
  };
  const store = new MemoryStore();
  const opts = { judge: fakeJudge, request, fetch, store, cache: store, clock, random: () => 0.5, concurrency: 4, policy: { timeoutMs: 2000 } };
  const r = new Runner({ ...opts, runId: "o4", items: items(40), todo: [...Array(40).keys()] });
  assert.equal(await clock.run(r.start(), 100_000), RunState.DONE);
  assert.equal(r.stats.outages, 0);
  let results = await store.getResults("o4");
  assert.equal(statusOf(results[5]), "error");
  assert.equal(results[5].error.kind, "network");
  assert.equal(results[5].attempts, 5);
  assert.ok(redoOnResume(results[5]), "a network failure is not the judge's: Resume redoes it");
  assert.equal(results.filter((x) => statusOf(x) === "passed").length, 39);

  q5down = false;
  const todo = results.filter((x) => statusOf(x) === "error").map((x) => x.index);
  assert.deepEqual(todo, [5]);
  const again = new Runner({ ...opts, runId: "o4", items: items(40), todo, readCache: false });
  assert.equal(await clock.run(again.start(), 100_000), RunState.DONE);
  results = await store.getResults("o4");
  assert.equal(statusOf(results[5]), "passed");
});

test("a last row whose calls fail while probes are answered does not hold the run: it ends as an error row", async () => {
  const clock = new FakeClock();
  const fetch = async (url, init) => {
    if (init.method === "GET") return answer({ status: 200, body: "{}" }, init);
    const q = JSON.parse(init.body).messages[0].content.slice(3);
    return answer(q === "q2" ? 502 : "yes", init);
  };
  const store = new MemoryStore();
  const r = new Runner({ runId: "o8", items: items(3), todo: [0, 1, 2], judge: fakeJudge, request, fetch, store, clock, random: () => 0.5, concurrency: 1 });
  assert.equal(await clock.run(r.start(), 100_000), RunState.DONE);
  const results = await store.getResults("o8");
  assert.deepEqual(results.map(statusOf), ["passed", "passed", "error"]);
  assert.equal(results[2].error.status, 502);
  assert.ok(r.stats.outages >= 1 && r.stats.outages <= DEFAULT_OUTAGE.maxFalseRecoveries, `${r.stats.outages} outages`);
});

test("a repair request that cannot reach the endpoint is an error row that Resume redoes, never an undetermined verdict", async () => {
  const clock = new FakeClock();
  let calls = 0;
  const fetch = async (url, init) => {
    calls++;
    const body = JSON.parse(init.body);
    if (body.messages.length > 1) return answer(500, init); // the repair request
    return answer("not a verdict", init);
  };
  const got = [];
  const r = new Runner({ runId: "o5", items: items(1), todo: [0], judge: fakeJudge, request, fetch, clock, random: () => 0.5, policy: { maxAttempts: 2 }, onResult: (x) => got.push(x) });
  assert.equal(await clock.run(r.start()), RunState.DONE);
  assert.equal(calls, 3);
  assert.equal(statusOf(got[0]), "error");
  assert.equal(got[0].error.stage, "repair");
  assert.equal(got[0].error.status, 500);
  assert.ok(redoOnResume(got[0]));
});

test("resume() during an outage tries at once; pause() stops the probes; cancel() ends the run", async () => {
  const clock = new FakeClock();
  let up = false;
  const fetch = async (url, init) => (up ? (init.method === "GET" ? answer({ status: 200, body: "{}" }, init) : answer("yes", init)) : answer("network", init));
  const store = new MemoryStore();
  const r = new Runner({ runId: "o6", items: items(8), todo: [...Array(8).keys()], judge: fakeJudge, request, fetch, store, clock, random: () => 0.5, concurrency: 2, policy: { timeoutMs: 1000 } });
  const p = r.start();
  await clock.run(until(() => r.state === RunState.OUTAGE));
  assert.ok(r.reason.nextProbeAt > clock.now());
  r.pause();
  assert.equal(r.state, RunState.PAUSED);
  const probes = r.stats.probes;
  clock.advance(600_000);
  await settle();
  assert.equal(r.stats.probes, probes, "a paused run does not probe");
  up = true;
  r.resume();
  assert.equal(await clock.run(p, 100_000), RunState.DONE);
  assert.ok((await store.getResults("o6")).every((x) => statusOf(x) === "passed"));

  const c = new FakeClock();
  const r2 = new Runner({ runId: "o7", items: items(4), todo: [0, 1, 2, 3], judge: fakeJudge, request, fetch: async (u, i) => answer("network", i), clock: c, random: () => 0.5, concurrency: 2 });
  const p2 = r2.start();
  await c.run(until(() => r2.state === RunState.OUTAGE));
  r2.cancel();
  assert.equal(await c.run(p2), RunState.CANCELLED);
  assert.equal(r2.liveRows().size, 0);
});

test("OutageWatch: distinct rows and time make an outage; an answer ends the streak; half-open trips at once", () => {
  const clock = new FakeClock();
  const w = new OutageWatch({ afterMs: 5000, rows: 3 }, clock);
  assert.equal(w.failed(1, { final: false, calling: 4 }), false);
  assert.equal(w.failed(1, { final: true, calling: 4 }), false, "one row running out is a flaky row");
  assert.equal(w.failed(2, { final: false, calling: 4 }), false);
  assert.equal(w.failed(3, { final: false, calling: 4 }), false, "three rows, but not for long yet");
  clock.advance(5000);
  assert.equal(w.failed(2, { final: false, calling: 4 }), true, "three rows for 5 s");
  assert.deepEqual(w.trip(), [1], "row 1 ran out during the streak: it goes back");
  assert.deepEqual([w.nextDelay()], [2000]);
  w.probes = 3;
  assert.equal(w.nextDelay(), 16000);
  w.probes = 20;
  assert.equal(w.nextDelay(), DEFAULT_OUTAGE.probeMaxMs);
  w.recovered();
  assert.equal(w.failed(9, { final: false, calling: 4 }), true, "half-open: the first failure is an outage again");
  w.answered();
  assert.equal(w.failed(9, { final: false, calling: 4 }), false);
  w.answered();
  assert.equal(w.failed(7, { final: true, calling: 1 }), true, "with one call out, one row is all there is");
  // Recoveries that no answered call confirms: the second one makes the watch stand down.
  w.trip();
  w.recovered();
  assert.equal(w.failed(7, { final: false, calling: 1 }), true);
  w.trip();
  w.recovered();
  assert.equal(w.failed(7, { final: true, calling: 1 }), false, "stood down: the row ends as an error");
  assert.equal(w.failed(8, { final: true, calling: 1 }), false);
  w.answered();
  assert.equal(w.failed(8, { final: true, calling: 1 }), true, "an answered call arms it again");
});

async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((res) => setImmediate(res));
}

async function until(cond) {
  while (!cond()) await new Promise((res) => setImmediate(res));
}
