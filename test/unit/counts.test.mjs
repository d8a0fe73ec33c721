// Tests of what the Batch view counts (counts.js), how it learns which rows are in flight
// (live.js), the preview's checks (preview.js's checkRows) and the progress line (summary.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { runCounts, LIVE } from "../../web/results/counts.js";
import { liveRow, LiveRows } from "../../web/batch/live.js";
import { checkRows, ROW_INPUTS } from "../../web/batch/preview.js";
import { Runner } from "../../web/batch/scheduler.js";
import { FakeClock, answer, fakeJudge } from "./fakes.mjs";
import { progressLine, paceText, rate, summaryCards } from "../../web/results/summarywords.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

const usage = (p, c) => ({ prompt_tokens: p, completion_tokens: c });
const passed = (extra = {}) => ({ verdict: { passed: true, score: 1, checks: [] }, answers: ["yes"], usage: usage(10, 1), calls: 1, cachedCalls: 0, ...extra });
const failed = () => ({ verdict: { passed: false, score: 0, checks: [] }, answers: ["no"], usage: usage(10, 1), calls: 1, cachedCalls: 0 });
const cached = () => ({ verdict: { passed: true, score: 1, checks: [] }, answers: ["yes"], usage: usage(0, 0), calls: 0, cachedCalls: 1 });
const errored = () => ({ error: { kind: "http", status: 503, message: "HTTP 503" }, answers: [], usage: usage(0, 0), calls: 3, cachedCalls: 0 });
const unreadable = () => ({ verdict: { passed: null, score: null, checks: [{ severity: "error", code: "answer.no-verdict", message: "no verdict" }] }, answers: ["hm", "hm"], usage: usage(20, 2), calls: 2, cachedCalls: 0 });

test("runCounts: every count from one state, and they add up", () => {
  const results = new Array(10);
  results[0] = passed();
  results[1] = failed();
  results[2] = cached();
  results[4] = errored();
  results[6] = unreadable();
  const live = new Map([
    [3, { state: LIVE.JUDGING, attempt: 1 }],
    [5, { state: LIVE.RETRYING, attempt: 2, retryAt: Date.now() + 2000 }],
    [6, { state: LIVE.JUDGING, attempt: 1 }], // finished meanwhile: its result counts, not the live report
    [42, { state: LIVE.JUDGING }], // not a row of this run
  ]);
  const c = runCounts({ total: 10, results, live, priceIn: "1", priceOut: "" });
  assert.equal(c.done, 5);
  assert.equal(c.remaining, 5);
  assert.equal(c.inFlight, 1);
  assert.equal(c.retrying, 1);
  assert.equal(c.notRun, 3);
  assert.deepEqual([...c.live.keys()], [3, 5]);
  assert.deepEqual(c.counts, { passed: 2, failed: 1, scored: 0, undetermined: 1, error: 1, pending: 5 });
  assert.equal(c.withoutVerdict, 2);
  assert.equal(c.status.filter((s) => s === "pending").length, c.remaining);
  assert.equal(c.status[6], "undetermined");
  assert.equal(c.cacheHits, 1);
  assert.equal(c.paidCalls, 1 + 1 + 3 + 2);
  assert.equal(c.tokens, 10 + 1 + 10 + 1 + 20 + 2);
  assert.equal(c.cost, (40 * 1) / 1e6);
  assert.equal(c.decided, 3);
  assert.equal(c.passRate, 2 / 3);
});

test("runCounts: a threshold turns scores into pass/fail in the statuses and the counts alike", () => {
  const scored = (s) => ({ verdict: { passed: null, score: s, checks: [] }, answers: ["x"], usage: usage(1, 1), calls: 1, cachedCalls: 0 });
  const results = [scored(4), scored(2), undefined];
  const none = runCounts({ total: 3, results });
  assert.deepEqual(none.status, ["scored", "scored", "pending"]);
  assert.equal(none.counts.scored, 2);
  const t = runCounts({ total: 3, results, threshold: 3 });
  assert.deepEqual(t.status, ["passed", "failed", "pending"]);
  assert.equal(t.counts.passed + t.counts.failed, 2);
  assert.equal(t.counts.scored, 0);
});

test("progressLine reads the counts, and the rate is a number or left out", () => {
  const results = [passed(), errored(), undefined, undefined];
  const c = runCounts({ total: 4, results, live: new Map([[2, { state: LIVE.JUDGING }]]) });
  const line = progressLine(c, null);
  assert.equal(line, "2 of 4 done · 1 without a verdict · 2 remaining (1 judging) · cache hits 0 of 4 calls · 10 in + 1 out tokens");
  assert.doesNotMatch(line, /rows\/s/);
  assert.match(progressLine(c, 2.5), /2\.5 rows\/s · ETA 1 s/);
  assert.equal(rate([], 0, 1000), null, "no row finished yet: no rate");
  assert.equal(rate([900], 1000, 1200), null, "too soon to tell");
  assert.equal(rate([1000, 2000, 3000], 1, 3001), 1, "3 rows in 3 s");
  assert.deepEqual(rate([1, 2], 0, 20_000), null, "rows older than the window are dropped");
});

test("progressLine says when fewer calls are in flight than chosen, and why", () => {
  const c = runCounts({ total: 4, results: [passed(), undefined, undefined, undefined], live: new Map() });
  assert.match(progressLine(c, 2, { limit: 12, chosen: 16, why: "429" }), / · 12 of 16 calls at once: the endpoint asked to slow down \(429\)$/);
  assert.match(
    progressLine(c, null, { limit: 6, chosen: 16, why: "http1", origin: "http://127.0.0.1:11434" }),
    / · calls to http:\/\/127\.0\.0\.1:11434 are limited to 6 at a time by the browser \(HTTP\/1\.1\); the dev server has no such limit$/,
  );
  for (const pace of [null, { limit: 16, chosen: 16, why: null }, { limit: 6, chosen: 4, why: "http1", origin: "http://x" }]) assert.equal(paceText(pace), "");
  assert.doesNotMatch(progressLine(c, 2, { limit: 16, chosen: 16, why: null }), /at once|limited/);
});

test("liveRow reads an engine's row reports: in flight, waiting to retry, or not live", () => {
  assert.deepEqual(liveRow({ state: "calling", attempt: 1 }), { state: LIVE.JUDGING, attempt: 1, retryAt: undefined });
  const at = Date.now() + 60_000; // ahead even if the machine stalls between the reads
  assert.deepEqual(liveRow({ state: "waiting-retry", attempt: 2, retryAt: at }), { state: LIVE.RETRYING, attempt: 2, retryAt: at });
  assert.equal(liveRow({ state: "calling", retryAt: at }).state, LIVE.RETRYING, "a retry time ahead is a wait");
  assert.equal(liveRow({ state: "calling", retryAt: Date.now() - 10 }).state, LIVE.JUDGING, "a retry time past is a call again");
  for (const state of ["queued", "done", "cancelled", "idle"]) assert.equal(liveRow({ state }), null, state);
  // A performance.now() time is read as one: 3 s from when it was read, bracketed by the clocks
  // read around the call rather than a fixed tolerance (a busy machine can stall between reads).
  const d0 = Date.now();
  const retryAt = performance.now() + 3000;
  const perf = liveRow({ state: "retry", retryAt });
  const p1 = performance.now();
  const d1 = Date.now();
  // Date.now() counts whole milliseconds: 1 ms of slack either side.
  const low = d0 + (retryAt - p1) - 1;
  const high = d1 + 3000 + 1;
  assert.ok(perf.retryAt >= low && perf.retryAt <= high, `${perf.retryAt} not within [${low}, ${high}]`);
});

test("LiveRows: from an engine's liveRows(), from onRow reports, or from the runner's queue", () => {
  const results = new Array(6);
  // An engine with liveRows(): its list is the truth.
  const a = new LiveRows();
  a.attach({ state: "running", liveRows: () => [{ index: 1, state: "calling", attempt: 1 }, { index: 2, state: "queued" }] }, [0, 1, 2]);
  assert.deepEqual([...a.snapshot(results).keys()], [1]);
  // onRow reports.
  const b = new LiveRows();
  const opts = b.runnerOptions();
  b.attach({ state: "running", queue: [] }, [0, 1, 2]);
  opts.onRow({ index: 0, state: "calling", attempt: 1 });
  opts.onRow({ index: 2, state: "calling", attempt: 1 });
  opts.onRow({ index: 0, state: "done" });
  assert.deepEqual([...b.snapshot(results).keys()], [2]);
  // No reports: rows taken from the queue and not finished, at most the concurrency of them, and
  // onRetry's waits.
  const c = new LiveRows();
  let retried = null;
  const copts = c.runnerOptions((info) => (retried = info));
  const runner = { state: "running", queue: [5], o: { concurrency: 2 } };
  c.attach(runner, [0, 1, 2, 3, 4, 5]);
  results[0] = passed();
  copts.onRetry({ index: 1, attempt: 1, delayMs: 2000, error: { kind: "http", status: 500 } });
  assert.equal(retried.index, 1, "onRetry is passed on");
  const snap = c.snapshot(results);
  assert.deepEqual([...snap.entries()].map(([i, r]) => [i, r.state]), [[1, LIVE.RETRYING], [2, LIVE.JUDGING], [3, LIVE.JUDGING]]);
  runner.state = "cancelled";
  assert.equal(c.snapshot(results).size, 0, "a cancelled run has nothing in flight");
  // A watching tab's snapshot replaces all of that.
  c.watch([[4, { state: LIVE.JUDGING }]]);
  assert.deepEqual([...c.snapshot(results).keys()], [4]);
});

test("checkRows: rows that do not render are refused, grouped by code; the others measured and warned about", async () => {
  const rj = {
    render(id, inputs) {
      if (inputs.kind === "empty") throw Object.assign(new Error("input: facts: is empty"), { kind: "input", code: "input.empty-list", detail: "facts: is empty" });
      if (inputs.kind === "old") throw Object.assign(new Error("input: bad"), { kind: "input", detail: "bad" });
      const rendered = { messages: [{ role: "user", content: "x".repeat(40) }], warnings: [] };
      if (inputs.kind === "cite") rendered.checks = [{ severity: "warning", code: "citation.out-of-range", message: "cites [3] of 2" }];
      return rendered;
    },
  };
  const items = [
    { inputs: { kind: "ok" } },
    { index: 1, source: { id: "b" }, inputs: { kind: "empty" } },
    { error: "Row 3: answer: no column is mapped to it" },
    { inputs: { kind: "empty" } },
    { inputs: { kind: "cite" } },
    { inputs: { kind: "old" } },
    { index: 6, source: { id: "g" }, error: "Row 7: the list is empty", checks: [{ severity: "warning", code: "input.converted" }, { severity: "error", code: "input.empty-list" }] },
  ];
  const r = await checkRows(rj, { id: "answer-grounding" }, items);
  assert.equal(r.judged, 2);
  assert.equal(r.chars, 80);
  assert.deepEqual(
    r.refused.map((g) => [g.code, g.rows.map((x) => x.index)]),
    [["input.empty-list", [1, 3, 6]], ["render.input", [5]], [ROW_INPUTS, [2]]],
  );
  assert.equal(r.refused[0].rows[0].message, "facts: is empty");
  assert.deepEqual(r.items[1], { index: 1, source: { id: "b" }, inputs: { kind: "empty" }, error: "Row 2: facts: is empty", code: "input.empty-list" }, "a refused row keeps its place and source");
  assert.equal(r.refused[0].rows[2].message, "the list is empty");
  assert.equal(r.items[6].code, "input.empty-list", "a row the mapping refused is grouped by its error check's code");
  assert.equal(r.items[2].error, "Row 3: answer: no column is mapped to it", "the row's own error is kept");
  assert.deepEqual(r.warned.map((g) => [g.code, g.rows.map((x) => x.index)]), [["citation.out-of-range", [4]]]);
  assert.deepEqual(r.items[4].warnings, ["cites [3] of 2"]);
  assert.equal(r.items[0], items[0], "a row without remarks is passed on as it is");
});

test("the undetermined card counts errors in words: 1 error, 2 errors, 0 errors", () => {
  const sub = (n) => summaryCards(runCounts({ total: 3, results: Array.from({ length: n }, () => errored()) })).find((c) => c.ref === "batch-undetermined").sub;
  assert.equal(sub(1), "1 error");
  assert.equal(sub(2), "2 errors");
  assert.equal(sub(0), "0 errors");
});

/** turns settles after n turns of the event loop: what is due then has run, whatever the machine's speed. */
const turns = (n) => new Promise((res) => { const tick = () => (--n <= 0 ? res(undefined) : setImmediate(tick)); tick(); });

test("a run whose every call fails: the attempts that failed are counted and said, not '0 of 0 calls'", async () => {
  // An endpoint that answers 503 to everything: the rows fail, the run sees an outage and puts
  // them back in the queue, with no result to hold their attempts; the count still has every one.
  let sent = 0;
  const fetch = async (url, init) => {
    sent++;
    return answer(503, init);
  };
  const its = Array.from({ length: 4 }, (_, i) => ({ inputs: { question: "q" + i } }));
  const clock = new FakeClock();
  const store = new MemoryStore();
  let outage;
  const out = new Promise((resolve) => (outage = resolve));
  const r = new Runner({
    runId: "r503", judge: fakeJudge, request: { endpoint: "/v1", model: "m", params: {} }, clock, random: () => 0.5,
    policy: { timeoutMs: 1000, maxAttempts: 3 }, items: its, todo: [0, 1, 2, 3], fetch, store, concurrency: 2,
    probe: async () => false,
    onState: (state) => state === "outage" && outage(),
  });
  const live = new LiveRows();
  live.attach(r, [0, 1, 2, 3]);
  r.start();
  await clock.run(out, 100_000);
  await clock.run(turns(50), 1000);
  assert.ok(sent >= 3, `${sent} calls sent`);
  const results = (await store.getResults("r503")).filter(Boolean);
  const c = runCounts({ total: 4, results, unstoredFailed: live.failedCalls() });
  assert.equal(c.paidCalls, 0);
  assert.equal(c.failedCalls, sent, "every call sent failed, and each is counted once");
  const line = progressLine(c, null);
  assert.match(line, new RegExp(`· ${sent} calls failed ·`));
  assert.doesNotMatch(line, /0 of 0 calls/);
  assert.equal(summaryCards(c).find((x) => x.ref === "batch-tokens").sub, `${sent} calls failed, none answered`);
  r.cancel();
  await clock.run(turns(50), 1000);
});

test("rows that end in an error keep their failed attempts in their result; retried successes count theirs", () => {
  const errors = runCounts({ total: 2, results: [{ ...errored(), calls: 0, attempts: 3 }, { ...errored(), calls: 0, attempts: 3 }] });
  assert.equal(errors.failedCalls, 6);
  assert.match(progressLine(errors, null), /· 6 calls failed ·/);
  // Answered calls and failed attempts together: a row that got its answer on its second attempt.
  const mixed = runCounts({ total: 2, results: [passed({ attempts: 2 }), cached()] });
  assert.equal(mixed.failedCalls, 1);
  assert.match(progressLine(mixed, null), /cache hits 1 of 2 calls · 1 call failed/);
  assert.equal(summaryCards(mixed).find((x) => x.ref === "batch-tokens").sub, "1 paid calls, 1 from cache, 1 call failed");
  // No failure: nothing more said.
  assert.doesNotMatch(progressLine(runCounts({ total: 1, results: [passed({ attempts: 1 })] }), null), /failed/);
});
