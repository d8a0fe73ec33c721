// Tests of the page staying within its dev server's limits (web/batch/endpoint.js maxConcurrency,
// web/batch/calls.js socketAhead), of the dev server's own 429 (web/model/llm.js chat: not the
// provider's rate limit), and of "(N judging)" counting only calls out (web/batch/scheduler.js,
// web/batch/live.js, web/results/counts.js), against an in-memory calls socket and stores.
import { test } from "node:test";
import assert from "node:assert/strict";
import { maxConcurrency, MAX_CONCURRENCY, socketCalls } from "../../web/batch/endpoint.js";
import { CallClient, serveCalls, socketAhead } from "../../web/batch/calls.js";
import { CallSocket } from "../../web/batch/socket.js";
import { AdaptiveSlots } from "../../web/batch/slots.js";
import { Runner } from "../../web/batch/scheduler.js";
import { liveRow } from "../../web/batch/live.js";
import { runCounts, LIVE } from "../../web/results/counts.js";
import { statusOf, causeOf } from "../../web/results/status.js";
import { chat } from "../../web/model/llm.js";
import { FakeClock, answer, okBody, fakeJudge } from "./fakes.mjs";
import { RunState, RowState } from "../../web/batch/states.js";
import { CallError, serverBusy } from "../../web/model/callerror.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));
const tick = () => new Promise((r) => setTimeout(r, 0));
const BUSY = { status: 429, headers: { "retry-after": "1", "content-type": "application/json" }, body: '{"error":{"message":"the dev server already has 256 upstream calls in flight","type":"rate_limit_error","code":"too_many_calls_in_flight"}}' };

/** FakeWS is a WebSocket whose server side is the test (as socket.test.mjs's). */
class FakeWS {
  static all = [];
  constructor(url, protocol) {
    this.url = url;
    this.protocol = protocol;
    this.sent = [];
    FakeWS.all.push(this);
    setTimeout(() => this.onopen && this.onopen(), 0);
  }
  send(m) {
    this.sent.push(JSON.parse(m));
  }
  close() {}
  started(id) {
    this.onmessage({ data: JSON.stringify({ type: "started", id }) });
  }
  reply(id, status, body) {
    this.onmessage({ data: JSON.stringify({ type: "result", id, status, headers: { "content-type": "application/json" }, body }) });
  }
}

test("maxConcurrency: through the dev server, no more than it takes; elsewhere the page's 64", () => {
  globalThis.location = /** @type {any} */ (new URL("http://127.0.0.1:8080/#batch"));
  const hadWS = "WebSocket" in globalThis;
  if (!hadWS) globalThis.WebSocket = /** @type {any} */ (FakeWS); // Node 20 has none; the page's browser has
  try {
    const page = (config, mode = "proxy") => ({ config, endpoint: () => ({ mode, baseURL: "http://127.0.0.1:8080/v1" }) });
    const cfg = { upstream: "x", calls: "/ragjudge/calls", max_inflight: 256, socket_calls: 96, socket_limit: 64 };
    assert.equal(maxConcurrency(page(cfg)), 64);
    assert.equal(maxConcurrency(page({ ...cfg, max_inflight: 10 })), 10, "-max-inflight 10");
    assert.equal(maxConcurrency(page({ ...cfg, socket_limit: 32 })), 32);
    assert.equal(maxConcurrency(page({ ...cfg, socket_calls: 40 })), 40);
    assert.equal(maxConcurrency(page({ upstream: "x" })), MAX_CONCURRENCY, "an older server that says nothing");
    assert.equal(maxConcurrency(page({ ...cfg, calls: undefined, socket_limit: 8 })), 64, "no socket: its limits do not apply");
    assert.equal(maxConcurrency(page({ ...cfg, max_inflight: 4 }, "direct")), 64, "a direct endpoint is not the dev server");
    assert.equal(maxConcurrency(page(null)), 64);
    assert.equal(socketCalls(page(cfg)), 96);
    assert.equal(socketCalls(page({ upstream: "x" })), undefined);
  } finally {
    delete globalThis.location;
    if (!hadWS) delete globalThis.WebSocket;
  }
});

test("socketAhead: a quarter of the limit, at least 2, and never beyond what the socket takes", () => {
  assert.equal(socketAhead(8), 2);
  assert.equal(socketAhead(64), 16);
  assert.equal(socketAhead(64, 96), 16);
  assert.equal(socketAhead(64, 70), 6, "room for 6 more");
  assert.equal(socketAhead(64, 64), 0);
  assert.equal(socketAhead(64, 40), 0, "never negative");
});

test("over the calls socket the worker never holds more calls than the server takes (socket_calls)", async () => {
  FakeWS.all = [];
  const ch = new MessageChannel();
  serveCalls(ch.port2, { WebSocket: FakeWS });
  const client = new CallClient(ch.port1);
  await client.ready;
  try {
    client.setLimit(64);
    const ps = Array.from({ length: 100 }, () => client.call({ ...request, messages: [{ role: "user", content: "q" }] }, { socket: "ws://x/c", socketCalls: 70, policy: { timeoutMs: 5000, maxAttempts: 1 } }));
    const calls = () => (FakeWS.all.length ? FakeWS.all[0].sent.filter((m) => m.type === "call") : []);
    while (calls().length < 70) await tick();
    for (let i = 0; i < 5; i++) await tick();
    assert.equal(calls().length, 70, "64 and the 6 the socket has room for");
    for (const m of calls()) FakeWS.all[0].reply(m.id, 200, okBody("yes"));
    const answered = new Set(calls().map((m) => m.id));
    let done = false;
    Promise.all(ps).then(() => (done = true));
    while (!done) {
      for (const m of calls()) if (!answered.has(m.id)) answered.add(m.id), FakeWS.all[0].reply(m.id, 200, okBody("yes"));
      await tick();
    }
  } finally {
    ch.port1.close();
    ch.port2.close();
  }
});

test("a call over the socket is said to go out when the server starts it, not when it is handed over", async () => {
  FakeWS.all = [];
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  const attempts = [];
  const p = chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch: sock.fetch, onAttempt: (n) => attempts.push(n), policy: { maxAttempts: 1 } });
  while (!FakeWS.all.length || !FakeWS.all[0].sent.length) await tick();
  const ws = FakeWS.all[0];
  const id = ws.sent[0].id;
  assert.deepEqual(attempts, [], "sent, waiting on the server: not out yet");
  ws.started(id);
  assert.deepEqual(attempts, [1]);
  ws.started(id); // said twice: told once
  ws.reply(id, 200, okBody("yes"));
  assert.equal((await p).content, "yes");
  assert.deepEqual(attempts, [1]);

  // Over plain fetch (no reportsStart) an attempt is out when it is sent, as before.
  const seen = [];
  await chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch: async (u, i) => answer("yes", i), onAttempt: (n) => seen.push(n) });
  assert.deepEqual(seen, [1]);
});

test("the dev server's own 429 is not the provider's: no halving, no attempt used up, its own words", async () => {
  assert.equal(serverBusy({ kind: "http", status: 429, code: "too_many_calls_in_flight" }), true);
  assert.equal(serverBusy({ kind: "http", status: 429, code: "rate_limit_exceeded" }), false);

  const clock = new FakeClock();
  const slots = new AdaptiveSlots(8, { clock });
  let n = 0;
  const fetch = async (u, init) => answer(++n <= 6 ? BUSY : "yes", init);
  const p = chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch, clock, slots, random: () => 0, policy: { maxAttempts: 2 } });
  const r = await clock.run(p);
  assert.equal(r.content, "yes", "6 busy answers, 2 attempts allowed: the call still ends well");
  assert.equal(r.attempts, 7);
  assert.equal(slots.limit, 8, "the run's calls in flight were not halved");
  assert.equal(slots.halvings, 0);
  assert.ok(r.waitedMs >= 6000, "each waited its Retry-After");

  // Always busy: it ends, at maxThrottledAttempts, saying it was the dev server.
  const always = async (u, init) => answer(BUSY, init);
  const e = await clock.run(chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch: always, clock, slots, random: () => 0, policy: { maxAttempts: 2, maxThrottledAttempts: 5 } })).catch((x) => x);
  assert.ok(e instanceof CallError);
  assert.equal(e.attempts, 5);
  assert.match(e.message, /^The dev server is at its own limit of calls in flight \(429, not the provider's rate limit\) after 5 attempts/);
  assert.doesNotMatch(e.message, /Rate limited/);
  assert.equal(e.code, "too_many_calls_in_flight");
  assert.equal(causeOf({ index: 0, error: e.toJSON() }), "dev server busy (429)");

  // A provider's 429 is still "rate limited" and halves.
  const provider = async (u, init) => answer({ status: 429, headers: { "retry-after": "1" }, body: '{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}' }, init);
  const pe = await clock.run(chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch: provider, clock, slots, random: () => 0, policy: { maxAttempts: 1 } })).catch((x) => x);
  assert.match(pe.message, /^Rate limited by the model server/);
  assert.equal(slots.limit, 4);
});

test("no more rows are said to be judging than calls are out, while answered rows are stored slowly", async () => {
  const clock = new FakeClock();
  const fetch = (u, init) => new Promise((resolve) => clock.setTimeout(() => resolve(answer("yes", init)), 100));
  const store = new MemoryStore();
  const put = store.putResult.bind(store);
  // Storing a row takes 5 calls' time: answered rows pile up waiting for the store.
  store.putResult = (res) => new Promise((resolve) => clock.setTimeout(() => resolve(put(res)), 500));
  let peak = 0;
  let saving = 0;
  const r = new Runner({
    runId: "j1",
    items: items(40),
    todo: [...Array(40).keys()],
    judge: fakeJudge,
    request,
    fetch,
    store,
    clock,
    concurrency: 4,
    onRow: () => {
      const rows = [...r.liveRows().values()];
      peak = Math.max(peak, rows.filter((x) => x.state === RowState.CALLING || x.state === RowState.REPAIRING).length);
      saving = Math.max(saving, rows.filter((x) => x.state === RowState.ANSWERED).length);
    },
  });
  assert.equal(await clock.run(r.start()), RunState.DONE);
  assert.ok(peak <= 4, `${peak} rows said to be calling, 4 calls at once`);
  assert.ok(saving > 4, `${saving} rows answered and being stored at once: the store was the slow part`);
  const results = await store.getResults("j1");
  assert.equal(results.length, 40);
  assert.ok(results.every((x) => statusOf(x) === "passed"));
});

test("liveRow and runCounts: a row waiting to retry is retrying until its call goes out; an answered row is saving, not judging", () => {
  const past = Date.now() - 10;
  assert.equal(liveRow({ state: "retry-wait", attempt: 2, retryAt: past }).state, LIVE.RETRYING, "its time has come, it waits for a slot");
  assert.equal(liveRow({ state: "retry-wait", attempt: 2, retryAt: past }).retryAt, undefined);
  assert.equal(liveRow({ state: "answered", attempt: 1 }).state, LIVE.SAVING);
  const live = new Map([
    [0, { state: LIVE.JUDGING }],
    [1, { state: LIVE.SAVING }],
    [2, { state: LIVE.SAVING }],
    [3, { state: LIVE.RETRYING }],
  ]);
  const c = runCounts({ total: 6, results: [], live });
  assert.equal(c.inFlight, 1);
  assert.equal(c.saving, 2);
  assert.equal(c.retrying, 1);
  assert.equal(c.notRun, 2);
  assert.equal(c.remaining, 6);
});


test("a single call (no run's slots) is not retried on the dev server's 429: it says so at once", async () => {
  let n = 0;
  const fetch = async (u, init) => (n++, answer(BUSY, init));
  const e = await chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch, policy: { maxAttempts: 1, batch: false } }).catch((x) => x);
  assert.equal(n, 1);
  assert.match(e.message, /^The dev server is at its own limit of calls in flight/);
});

test("judged several times, the rows said to be calling never exceed the calls at once", async () => {
  const clock = new FakeClock();
  let out = 0;
  let most = 0;
  const fetch = (u, init) => {
    most = Math.max(most, ++out);
    return new Promise((resolve) => clock.setTimeout(() => (out--, resolve(answer("yes", init))), 100));
  };
  let peak = 0;
  const over = [];
  const r = new Runner({
    runId: "j2",
    items: items(12),
    todo: [...Array(12).keys()],
    judge: fakeJudge,
    request,
    fetch,
    clock,
    concurrency: 3,
    repeats: 3,
    onRow: () => {
      const calling = [...r.liveRows().values()].filter((x) => x.state === RowState.CALLING).length;
      peak = Math.max(peak, calling);
      if (calling > 3) over.push(`${calling} rows said calling, 3 calls at most`);
    },
  });
  assert.equal(await clock.run(r.start()), RunState.DONE);
  assert.deepEqual(over, []);
  assert.equal(most, 3);
  assert.ok(peak >= 1, `${peak}`);
});

test("fallen back from the socket to plain HTTP, a call is said to go out when it is sent", async () => {
  class Refused {
    constructor() {
      setTimeout(() => this.onclose && this.onclose({ code: 1006, reason: "" }), 0);
    }
    send() {}
    close() {}
  }
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: /** @type {any} */ (Refused), fallback: async (u, i) => answer("yes", i), maxFailedOpens: 1 });
  await sock.fetch("/v1/chat/completions", { headers: {}, body: "{}" }).catch(() => {}); // the socket that never opened
  const attempts = [];
  const res = await chat({ ...request, messages: [{ role: "user", content: "q" }] }, { fetch: sock.fetch, onAttempt: (n) => attempts.push(n) });
  assert.equal(res.content, "yes");
  assert.deepEqual(attempts, [1]);
});
