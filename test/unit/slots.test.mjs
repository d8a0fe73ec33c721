// Tests of a batch run's answer to rate limits (web/batch/slots.js AdaptiveSlots through
// web/model/llm.js chat and web/batch/scheduler.js Runner), on the injected clock: a 429 halves the calls
// allowed in flight and answers give them back (AIMD); one call's Retry-After holds that call only;
// a 429 storm the endpoint still gets through fails no row for lack of attempts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner } from "../../web/batch/scheduler.js";
import { AdaptiveSlots, KEY_HOLD_AFTER, PaceWhy } from "../../web/batch/slots.js";
import { statusOf } from "../../web/results/status.js";
import { FakeClock, answer, fakeJudge } from "./fakes.mjs";
import { RunState } from "../../web/batch/states.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));

/** mulberry32 is a seeded PRNG: the same faults on every run of the tests. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const THROTTLED = { status: 429, headers: { "retry-after": "1" }, body: '{"error":{"message":"rate limited"}}' };

/**
 * endpoint is a fake upstream on the fake clock: each call is answered after latencyMs with what
 * fault({t, n, q}) says (null: "yes"). It records the calls in flight over time and each call's start.
 */
function endpoint(clock, { latencyMs = 100, fault = () => null } = {}) {
  const log = { starts: [], inflight: 0, maxInflight: 0, answered: 0, throttled: 0 };
  let n = 0;
  const f = (url, init) =>
    new Promise((resolve, reject) => {
      const q = JSON.parse(init.body).messages[0].content.slice(3);
      const k = ++n;
      log.starts.push({ t: clock.now(), q });
      log.inflight++;
      log.maxInflight = Math.max(log.maxInflight, log.inflight);
      const id = clock.setTimeout(() => {
        log.inflight--;
        const step = fault({ t: clock.now(), n: k, q }) ?? "yes";
        if (step === "yes") log.answered++;
        if (step === THROTTLED) log.throttled++;
        resolve(answer(step, init));
      }, latencyMs);
      init.signal.addEventListener("abort", () => {
        clock.clearTimeout(id);
        log.inflight--;
        reject(new DOMException("The operation was aborted.", "AbortError"));
      });
    });
  f.log = log;
  return f;
}

test("AdaptiveSlots: a 429 halves the limit once per window, not below 1; answers add one back up to the chosen number", async () => {
  const clock = new FakeClock();
  const paces = [];
  const s = new AdaptiveSlots(16, { clock, onChange: (p) => paces.push(p.limit) });
  const tokens = [];
  for (let i = 0; i < 16; i++) tokens.push(await s.acquire());
  assert.equal(s.used, 16);
  // Three calls that went out together all meet the same congestion: one halving, not three.
  s.release(tokens[0], "throttled", 1000);
  s.release(tokens[1], "throttled", 1000);
  s.release(tokens[2], "throttled", 1000);
  assert.equal(s.limit, 8);
  assert.deepEqual(s.pace(), { limit: 8, chosen: 16, why: PaceWhy.THROTTLED, holdUntil: 0 });
  for (const tok of tokens.slice(3)) s.release(tok, "other"); // 500s: neither halve nor grow
  assert.equal(s.limit, 8);
  // A call sent after the halving that is throttled too halves again; down to 1 and no further.
  for (const want of [4, 2, 1, 1]) {
    s.release(await s.acquire(), "throttled", 1000);
    assert.equal(s.limit, want);
    s.release(await s.acquire(), "other"); // a 500 between: no KEY_HOLD_AFTER 429s in a row (no key-wide hold)
  }
  // Answers give slots back one by one.
  for (let i = 0; i < 20; i++) s.release(await s.acquire(), "ok");
  assert.equal(s.limit, 16, "back to the chosen number, no further");
  assert.equal(s.pace().why, null);
  assert.equal(s.used, 0);
  assert.ok(paces.includes(8) && paces.includes(1) && paces.at(-1) === 16, paces.join(" "));
});

test("AdaptiveSlots: several 429s in a row hold every call for the last Retry-After; a waiting call can be aborted", async () => {
  const clock = new FakeClock();
  const s = new AdaptiveSlots(KEY_HOLD_AFTER, { clock });
  const t = [];
  for (let i = 0; i < KEY_HOLD_AFTER; i++) t.push(await s.acquire());
  for (let i = 0; i < KEY_HOLD_AFTER - 1; i++) s.release(t[i], "throttled", 3000);
  assert.equal(s.holdUntil, 0, "fewer than KEY_HOLD_AFTER in a row: no key-wide hold");
  s.release(t[KEY_HOLD_AFTER - 1], "throttled", 3000);
  assert.equal(s.holdUntil, clock.now() + 3000, "the last of KEY_HOLD_AFTER in a row holds the key");
  let got = false;
  const p = s.acquire().then(() => (got = true));
  const ctrl = new AbortController();
  const aborted = s.acquire(ctrl.signal);
  ctrl.abort();
  await assert.rejects(aborted, (e) => e.name === "AbortError");
  clock.advance(2999);
  await new Promise((r) => setImmediate(r));
  assert.equal(got, false, "held");
  clock.advance(1);
  await p;
  assert.equal(got, true, "goes out when the hold ends");
  assert.equal(s.used, 1, "the aborted wait took no slot");
});

test("10% 429s and 10% 500s: every row passes, the concurrency halves and recovers, never more calls in flight than allowed", async () => {
  const clock = new FakeClock();
  const rnd = mulberry32(7);
  const fetch = endpoint(clock, {
    fault: () => {
      const x = rnd();
      return x < 0.1 ? THROTTLED : x < 0.2 ? 500 : null;
    },
  });
  const paces = [];
  const ROWS = 400;
  const r = new Runner({
    runId: "a1",
    items: items(ROWS),
    todo: [...Array(ROWS).keys()],
    judge: fakeJudge,
    request,
    fetch,
    clock,
    random: mulberry32(1),
    concurrency: 16,
    policy: { timeoutMs: 10_000, maxAttempts: 5 },
    onPace: (p) => paces.push({ t: clock.now(), ...p }),
  });
  const t0 = clock.now();
  const results = [];
  r.o.onResult = (x) => results.push(x);
  assert.equal(await clock.run(r.start(), 200_000), RunState.DONE);
  assert.equal(results.length, ROWS);
  const bad = results.filter((x) => statusOf(x) !== "passed").map((x) => `${x.index}: ${x.error && x.error.message}`);
  assert.deepEqual(bad, []);
  assert.ok(fetch.log.throttled > 20, `${fetch.log.throttled} 429s`);
  assert.ok(fetch.log.maxInflight <= 16, `${fetch.log.maxInflight} in flight`);
  const lowest = Math.min(...paces.map((p) => p.limit));
  assert.ok(lowest <= 8 && lowest >= 1, `the limit went down to ${lowest}`);
  assert.ok(paces.every((p) => p.why === (p.limit < 16 ? PaceWhy.THROTTLED : null)));
  // Each dip comes back to the chosen 16 (a 429 near the end may leave the last one below).
  const dips = paces.filter((p, i) => p.limit < 16 && i > 0 && paces[i - 1].limit === 16).length;
  const recoveries = paces.filter((p, i) => p.limit === 16 && i > 0 && paces[i - 1].limit < 16).length;
  assert.ok(dips >= 5 && recoveries >= dips - 1, `${dips} dips, ${recoveries} recoveries`);
  // Retry-After is 1 s for one call in ten; a run that paused for each would take ~40 s more.
  // The ideal is 400 x 1.25 calls x 0.1 s / 16 = 3.1 s; AIMD costs some of it, not all.
  const took = clock.now() - t0;
  assert.ok(took < 12_000, `took ${took} ms of clock time`);
});

test("one call's Retry-After does not stop the others: they go on while it waits", async () => {
  const clock = new FakeClock();
  const fetch = endpoint(clock, { fault: ({ q, n }) => (q === "q0" && n === 1 ? { status: 429, headers: { "retry-after": "30" }, body: "{}" } : null) });
  const done = new Map();
  const r = new Runner({ runId: "a2", items: items(40), todo: [...Array(40).keys()], judge: fakeJudge, request, fetch, clock, random: () => 0, concurrency: 4, policy: { timeoutMs: 10_000 } });
  r.o.onResult = (x) => done.set(x.index, clock.now());
  const t0 = clock.now();
  assert.equal(await clock.run(r.start(), 100_000), RunState.DONE);
  const others = [...done].filter(([i]) => i !== 0).map(([, t]) => t - t0);
  // 39 rows at 4, then 3, then back to 4 calls at once, 100 ms each: about a second, not 30.
  assert.ok(Math.max(...others) < 2_000, `the last other row ended at ${Math.max(...others)} ms`);
  assert.ok(done.get(0) - t0 >= 30_000, "row 0 waited its own 30 s");
  assert.equal(fetch.log.starts.filter((s) => s.q === "q0").length, 2);
});

test("a long 429 storm the endpoint still gets through fails no row for lack of attempts; one it answers nothing in does", async () => {
  // For 60 s of clock time, 85% of calls are throttled (Retry-After 1 s); then the storm ends.
  const clock = new FakeClock();
  const T0 = clock.now();
  const rnd = mulberry32(3);
  const fetch = endpoint(clock, { fault: ({ t }) => (t - T0 < 60_000 && rnd() < 0.85 ? THROTTLED : null) });
  const results = [];
  const r = new Runner({ runId: "a3", items: items(200), todo: [...Array(200).keys()], judge: fakeJudge, request, fetch, clock, random: mulberry32(5), concurrency: 8, policy: { timeoutMs: 10_000, maxAttempts: 3 } });
  r.o.onResult = (x) => results.push(x);
  assert.equal(await clock.run(r.start(), 500_000), RunState.DONE);
  assert.equal(results.length, 200);
  assert.deepEqual(results.filter((x) => statusOf(x) !== "passed").map((x) => `${x.index}: ${x.error && x.error.message}`), []);
  const most = Math.max(...results.map((x) => x.attempts));
  assert.ok(most > 3, `a row took ${most} attempts: more than maxAttempts, 429s with answers between did not count`);
  // 85% of calls throttled makes six 429s in a row common: the key-wide holds pace the storm.
  assert.ok(fetch.log.throttled > 50, `${fetch.log.throttled} 429s`);

  // An endpoint that answers nothing but 429: each row's attempts do run out (no progress between).
  const clock2 = new FakeClock();
  const fetch2 = endpoint(clock2, { fault: () => THROTTLED });
  const results2 = [];
  const r2 = new Runner({ runId: "a4", items: items(6), todo: [...Array(6).keys()], judge: fakeJudge, request, fetch: fetch2, clock: clock2, random: () => 0, concurrency: 2, policy: { timeoutMs: 10_000, maxAttempts: 3 } });
  r2.o.onResult = (x) => results2.push(x);
  assert.equal(await clock2.run(r2.start(), 100_000), RunState.DONE);
  assert.equal(results2.length, 6);
  for (const x of results2) {
    assert.equal(statusOf(x), "error");
    assert.equal(x.error.status, 429);
    assert.equal(x.attempts, 3, "three attempts, as chosen");
  }
  assert.equal(r2.pace().limit, 1, "down to one call at a time");
});
