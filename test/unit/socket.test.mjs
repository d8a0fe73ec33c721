// Tests of the dev server's calls socket client (web/batch/socket.js) against an in-memory
// WebSocket; the real socket and the real dev server are tested in test/e2e/batch.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CallSocket, CALLS_PROTOCOL, socketURL } from "../../web/batch/socket.js";
import { chat } from "../../web/model/llm.js";
import { CallClient, serveCalls, socketAhead } from "../../web/batch/calls.js";
import { okBody, FakeClock } from "./fakes.mjs";
import { CallError } from "../../web/model/callerror.js";

/** FakeWS is a WebSocket whose server side is the test: it opens on the next task unless told not to. */
class FakeWS {
  static all = [];
  static refuse = false;
  constructor(url, protocol) {
    this.url = url;
    this.protocol = protocol;
    this.sent = [];
    this.closed = false;
    FakeWS.all.push(this);
    setTimeout(() => {
      if (FakeWS.refuse) return this.onclose && this.onclose({ code: 1006, reason: "" });
      this.onopen && this.onopen();
    }, 0);
  }
  send(m) {
    this.sent.push(JSON.parse(m));
  }
  close() {
    this.closed = true;
  }
  /** reply answers call id as the dev server would. */
  reply(id, status, body, headers = { "content-type": "application/json" }) {
    this.onmessage({ data: JSON.stringify({ type: "result", id, status, headers, body }) });
  }
  drop(code = 1006, reason = "") {
    this.onclose({ code, reason });
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const fresh = () => {
  FakeWS.all = [];
  FakeWS.refuse = false;
};
const request = { endpoint: "/v1", model: "judge-1", messages: [{ role: "user", content: "Is it grounded?" }], params: { temperature: 0 } };

test("socketURL makes a ws: or wss: URL of the dev server's path", () => {
  assert.equal(socketURL("/ragjudge/calls", "http://127.0.0.1:8080/#batch"), "ws://127.0.0.1:8080/ragjudge/calls");
  assert.equal(socketURL("/ragjudge/calls", "https://judge.example/app/"), "wss://judge.example/ragjudge/calls");
});

test("a call goes out as one envelope with its key and body, and its result reads like fetch's", async () => {
  fresh();
  const sock = new CallSocket("ws://x/ragjudge/calls", { WebSocketImpl: FakeWS });
  const p = chat(request, { fetch: sock.fetch, apiKey: "sk-test-123" });
  await tick();
  const ws = FakeWS.all[0];
  assert.equal(ws.protocol, CALLS_PROTOCOL);
  assert.equal(ws.sent.length, 1);
  const m = ws.sent[0];
  assert.equal(m.type, "call");
  assert.equal(m.key, "sk-test-123");
  assert.deepEqual(m.body, { temperature: 0, model: "judge-1", messages: request.messages, stream: false });
  ws.reply(m.id, 200, okBody("yes"));
  const r = await p;
  assert.equal(r.content, "yes");
  assert.equal(r.usage.prompt_tokens, 10);
});

test("a jury's judge on another upstream: its call names the upstream in the envelope, never in the body; none for the default", async () => {
  fresh();
  const sock = new CallSocket("ws://x/ragjudge/calls", { WebSocketImpl: FakeWS });
  const named = chat({ ...request, upstream: "openai" }, { fetch: sock.fetch, apiKey: "sk-b" });
  const plain = chat(request, { fetch: sock.fetch });
  await tick();
  const [a, b] = FakeWS.all[0].sent;
  assert.equal(a.upstream, "openai");
  assert.equal(a.key, "sk-b");
  assert.equal("upstream" in a.body, false, "the body is the model's request alone");
  assert.equal("upstream" in b, false, "the default upstream is named by no name");
  FakeWS.all[0].reply(a.id, 200, okBody("yes"));
  FakeWS.all[0].reply(b.id, 200, okBody("no"));
  assert.deepEqual([(await named).content, (await plain).content], ["yes", "no"]);
  // Over HTTP the same name goes in the Ragjudge-Upstream header.
  let headers = null;
  await chat({ ...request, upstream: "local" }, { fetch: async (u, init) => ((headers = init.headers), new Response(okBody("yes"), { status: 200, headers: { "content-type": "application/json" } })) });
  assert.equal(headers["Ragjudge-Upstream"], "local");
});

test("calls made before the socket opens go out in order once it does; one socket carries them all", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  const ps = Array.from({ length: 16 }, () => sock.fetch("/v1/chat/completions", { method: "POST", headers: {}, body: '{"n":1}' }));
  await tick();
  assert.equal(FakeWS.all.length, 1);
  const ws = FakeWS.all[0];
  assert.deepEqual(
    ws.sent.map((m) => m.id),
    [...Array(16).keys()].map((i) => i + 1),
  );
  assert.equal(ws.sent[0].key, "", "no key: an empty one");
  for (const m of [...ws.sent].reverse()) ws.reply(m.id, 200, `{"id":${m.id}}`);
  const rs = await Promise.all(ps);
  assert.deepEqual(await Promise.all(rs.map((r) => r.json())), [...Array(16).keys()].map((i) => ({ id: i + 1 })));
});

test("an HTTP error comes back with its status and Retry-After, so the retry policy reads it as over HTTP", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  const p = sock.fetch("/v1/chat/completions", { headers: { Authorization: "Bearer k" }, body: "{}" });
  await tick();
  const ws = FakeWS.all[0];
  ws.reply(ws.sent[0].id, 429, '{"error":{"message":"slow down"}}', { "content-type": "application/json", "retry-after": "2" });
  const r = await p;
  assert.equal(r.ok, false);
  assert.equal(r.status, 429);
  assert.equal(r.headers.get("Retry-After"), "2");
  assert.match(await r.text(), /slow down/);
});

test("an aborted call is cancelled on the server and its late result is ignored", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  const ctrl = new AbortController();
  const p = sock.fetch("/v1/chat/completions", { headers: {}, body: "{}", signal: ctrl.signal });
  const other = sock.fetch("/v1/chat/completions", { headers: {}, body: "{}" });
  await tick();
  const ws = FakeWS.all[0];
  ctrl.abort();
  await assert.rejects(p, (e) => e.name === "AbortError");
  assert.deepEqual(ws.sent[2], { type: "cancel", id: ws.sent[0].id });
  ws.reply(ws.sent[0].id, 200, "{}"); // too late: nobody is waiting
  ws.reply(ws.sent[1].id, 200, '{"ok":1}');
  assert.deepEqual(await (await other).json(), { ok: 1 });
});

test("the socket closing fails the calls in flight as network errors (retried); the next call opens a new socket", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  const p = sock.fetch("/v1/chat/completions", { headers: {}, body: "{}" });
  await tick();
  FakeWS.all[0].drop(1001, "going away");
  await assert.rejects(p, (e) => e instanceof TypeError && /going away/.test(e.message));
  // Through model/llm.js chat the same close is a retryable network error, and the retry goes out on a new socket.
  const q = chat(request, { fetch: sock.fetch, random: () => 0, policy: { baseDelayMs: 1 } });
  await tick();
  FakeWS.all[1].drop();
  // The retry goes out after its backoff: wait for its socket rather than for a guessed time.
  while (FakeWS.all.length < 3) await tick();
  assert.equal(FakeWS.all.length, 3, "a new socket for the retry");
  const ws = FakeWS.all[2];
  while (!ws.sent.length) await tick(); // sent once the socket opens
  ws.reply(ws.sent[0].id, 200, okBody("no"));
  const r = await q;
  assert.equal(r.content, "no");
  assert.equal(r.attempts, 2);
});

test("a socket that never opens fails its calls, then the calls go over plain HTTP", async () => {
  fresh();
  FakeWS.refuse = true;
  const viaHTTP = [];
  const fallback = async (url, init) => (viaHTTP.push(url), { ok: true, status: 200, headers: new Headers(), text: async () => okBody("yes") });
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS, fallback, maxFailedOpens: 2 });
  const r = await chat(request, { fetch: sock.fetch, random: () => 0, policy: { baseDelayMs: 1 } });
  assert.equal(r.content, "yes");
  assert.equal(FakeWS.all.length, 2, "two tries to open");
  assert.deepEqual(viaHTTP, ["/v1/chat/completions"]);
  assert.equal(r.attempts, 3);
});

test("a call that gets no answer times out under the policy and is cancelled on the server", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  await assert.rejects(
    chat(request, { fetch: sock.fetch, policy: { timeoutMs: 30, maxAttempts: 1 } }),
    (e) => e instanceof CallError && e.kind === "timeout",
  );
  const ws = FakeWS.all[0];
  assert.deepEqual(ws.sent.map((m) => m.type), ["call", "cancel"]);
});

test("the call worker sends a call over the socket the page names, and over HTTP when it names none", async () => {
  fresh();
  const ch = new MessageChannel();
  const viaHTTP = [];
  serveCalls(ch.port2, { WebSocket: FakeWS, fetch: async (url) => (viaHTTP.push(url), { ok: true, status: 200, headers: new Headers(), text: async () => okBody("no") }) });
  const client = new CallClient(ch.port1);
  await client.ready;
  try {
    client.setLimit(3);
    const p = client.call(request, { apiKey: "k1", socket: "ws://127.0.0.1:8080/ragjudge/calls" });
    const calls = () => (FakeWS.all.length ? FakeWS.all[0].sent.filter((m) => m.type === "call") : []);
    while (!calls().length) await tick();
    const ws = FakeWS.all[0];
    assert.equal(ws.url, "ws://127.0.0.1:8080/ragjudge/calls");
    assert.deepEqual(ws.sent[0], { type: "limit", n: 3 }, "the server is told the limit first");
    assert.equal(calls()[0].key, "k1");
    ws.reply(calls()[0].id, 200, okBody("yes"));
    assert.equal((await p).content, "yes");
    assert.equal((await client.call(request, {})).content, "no");
    assert.deepEqual(viaHTTP, ["/v1/chat/completions"]);
  } finally {
    ch.port1.close();
    ch.port2.close();
  }
});

test("warm opens the socket before the first call, which then goes out on it at once", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  sock.warm();
  sock.warm(); // once is enough
  await tick();
  assert.equal(FakeWS.all.length, 1);
  const p = sock.fetch("/v1/chat/completions", { headers: {}, body: "{}" });
  const ws = FakeWS.all[0];
  assert.equal(ws.sent.length, 1, "sent at once: the socket was already open");
  ws.reply(ws.sent[0].id, 200, "{}");
  assert.equal((await p).status, 200);
  assert.equal(FakeWS.all.length, 1);
});

test("over a calls socket the worker sends a few calls more than the limit; the server holds to the limit", async () => {
  fresh();
  const ch = new MessageChannel();
  serveCalls(ch.port2, { WebSocket: FakeWS });
  const client = new CallClient(ch.port1);
  await client.ready;
  const policy = { timeoutMs: 5000, maxAttempts: 1 }; // a call left unanswered fails the test quickly
  try {
    client.setLimit(8);
    const ps = Array.from({ length: 20 }, () => client.call(request, { socket: "ws://x/c", policy }));
    const calls = () => (FakeWS.all.length ? FakeWS.all[0].sent.filter((m) => m.type === "call") : []);
    while (calls().length < 10) await tick();
    for (let i = 0; i < 5; i++) await tick();
    assert.equal(calls().length, 8 + socketAhead(8), "the limit and two more");
    const ws = FakeWS.all[0];
    assert.deepEqual(ws.sent[0], { type: "limit", n: 8 });
    // One ends: one more is sent.
    ws.reply(calls()[0].id, 200, okBody("yes"));
    await ps[0];
    while (calls().length < 11) await tick();
    client.setLimit(4); // the page lowers the concurrency mid-run
    while (!ws.sent.some((m) => m.type === "limit" && m.n === 4)) await tick();
    // Answer every call as it comes until all 20 are done.
    const answered = new Set([calls()[0].id]);
    let done = false;
    Promise.all(ps).then(() => (done = true));
    while (!done) {
      for (const m of calls()) if (!answered.has(m.id)) answered.add(m.id), ws.reply(m.id, 200, okBody("no"));
      await tick();
    }
    assert.equal(answered.size, 20);
  } finally {
    ch.port1.close();
    ch.port2.close();
  }
});

test("a call that waited on the server gets its whole timeout from when it started", async () => {
  fresh();
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS });
  sock.setLimit(1);
  // 60 ms of timeout: the call waits 45 ms on the server, then runs 45 ms. Counted from the
  // start it would have timed out; counted from "started" it has 15 ms to spare. The call's
  // timer runs on a fake clock moved by the test: on the real one, a loaded machine's 45 ms
  // sleeps ran long enough to time the call out (failed once in three runs beside two busy cores).
  const clock = new FakeClock();
  const p = chat(request, { fetch: sock.fetch, clock, policy: { timeoutMs: 60, maxAttempts: 1 } });
  let settled = false;
  p.then(() => (settled = true), () => (settled = true));
  while (!FakeWS.all.length || !FakeWS.all[0].sent.some((m) => m.type === "call")) await tick();
  const ws = FakeWS.all[0];
  const id = ws.sent.find((m) => m.type === "call").id;
  clock.advance(45);
  ws.onmessage({ data: JSON.stringify({ type: "started", id }) });
  clock.advance(45);
  await tick();
  assert.equal(settled, false, "90 ms after it was sent, 45 ms after it started, the call still waits");
  ws.reply(id, 200, okBody("yes"));
  assert.equal((await p).content, "yes");

  // Without the "started", the same 90 ms time it out.
  const q = chat(request, { fetch: sock.fetch, clock, policy: { timeoutMs: 60, maxAttempts: 1 } });
  while (ws.sent.filter((m) => m.type === "call").length < 2) await tick();
  clock.advance(45);
  clock.advance(45);
  await assert.rejects(q, (e) => e instanceof CallError && e.kind === "timeout");
});

test("fallen back to plain HTTP, the calls are held to the limit in the page", async () => {
  fresh();
  FakeWS.refuse = true;
  let inFlight = 0;
  let most = 0;
  const fallback = async () => {
    most = Math.max(most, ++inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    return { ok: true, status: 200, headers: new Headers(), text: async () => okBody("yes") };
  };
  const sock = new CallSocket("ws://x/c", { WebSocketImpl: FakeWS, fallback, maxFailedOpens: 1 });
  sock.setLimit(3);
  await assert.rejects(sock.fetch("/v1/chat/completions", { headers: {}, body: "{}" })); // the socket that never opened
  const rs = await Promise.all(Array.from({ length: 12 }, () => sock.fetch("/v1/chat/completions", { headers: {}, body: "{}" })));
  assert.equal(rs.length, 12);
  assert.equal(most, 3);
});

test("a 429 through the call worker halves the dev server's limit and the page hears the pace; answers give it back", async () => {
  fresh();
  const ch = new MessageChannel();
  serveCalls(ch.port2, { WebSocket: FakeWS, random: () => 0 });
  const client = new CallClient(ch.port1);
  const paces = [];
  client.onPace = (p) => paces.push(p);
  await client.ready;
  const policy = { timeoutMs: 5000, maxAttempts: 3 };
  try {
    client.setLimit(8);
    const retries = [];
    const ps = Array.from({ length: 8 }, () => client.call(request, { socket: "ws://x/c", policy, onRetry: (i) => retries.push(i) }));
    const calls = () => (FakeWS.all.length ? FakeWS.all[0].sent.filter((m) => m.type === "call") : []);
    while (calls().length < 8) await tick();
    const ws = FakeWS.all[0];
    ws.reply(calls()[0].id, 429, '{"error":{"message":"slow down"}}', { "content-type": "application/json", "retry-after-ms": "50" });
    while (!ws.sent.some((m) => m.type === "limit" && m.n === 4)) await tick();
    while (!paces.some((p) => p.limit === 4)) await tick();
    assert.deepEqual(paces.at(-1), { limit: 4, chosen: 8, why: "429", holdUntil: 0 });
    assert.equal(retries.length, 1);
    // The others are answered; each answer gives a slot back, up to the chosen 8 again.
    const answered = new Set([calls()[0].id]);
    let done = false;
    Promise.all(ps).then(() => (done = true));
    while (!done) {
      for (const m of calls()) if (!answered.has(m.id)) answered.add(m.id), ws.reply(m.id, 200, okBody("yes"));
      await tick();
    }
    while (paces.at(-1).limit !== 8) await tick();
    assert.ok(ws.sent.some((m) => m.type === "limit" && m.n === 8 && ws.sent.indexOf(m) > 0), "the server is told the limit is back to 8");
    assert.equal(paces.at(-1).why, null);
  } finally {
    ch.port1.close();
    ch.port2.close();
  }
});
