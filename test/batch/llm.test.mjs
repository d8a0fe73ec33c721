// Tests of the batch retry policy (web/batch/http.js) with a fake clock and a scripted fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chat, parseRetryAfter, backoffDelay, DEFAULT_POLICY, retryableStatus, chatURL, CallError } from "../../web/llm.js";
import { FakeClock, scriptedFetch } from "./helpers.mjs";

const req = { endpoint: "/v1", model: "m", messages: [{ role: "user", content: "hi" }], params: { temperature: 0 } };
const half = () => 0.5;

test("parseRetryAfter reads seconds, fractions, HTTP dates and retry-after-ms", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const cases = [
    [{ "retry-after": "3" }, 3000],
    [{ "retry-after": "0.25" }, 250],
    [{ "retry-after": " 0 " }, 0],
    [{ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, 5000],
    [{ "retry-after": "Wed, 31 Dec 2025 00:00:05 GMT" }, 0],
    [{ "retry-after-ms": "1500", "retry-after": "9" }, 1500],
    [{ "retry-after": "soon" }, null],
    [{ "retry-after": "-3" }, null],
    [{}, null],
  ];
  for (const [h, want] of cases) assert.equal(parseRetryAfter(new Headers(h), now), want, JSON.stringify(h));
});

test("backoffDelay doubles, is capped, jitters within [exp/2, exp], and yields to Retry-After", () => {
  const p = DEFAULT_POLICY;
  assert.equal(backoffDelay(1, p, () => 0), 250);
  assert.equal(backoffDelay(1, p, () => 1), 500);
  assert.equal(backoffDelay(3, p, () => 1), 2000);
  assert.equal(backoffDelay(30, p, () => 1), p.maxDelayMs);
  assert.equal(backoffDelay(2, p, () => 0, 7000), 7000);
  assert.ok(backoffDelay(2, p, () => 1, 7000) <= 7700);
});

test("retryableStatus: 429, 408 and 5xx but not 4xx, 501, 505", () => {
  for (const s of [408, 429, 500, 502, 503, 504, 599]) assert.ok(retryableStatus(s), String(s));
  for (const s of [400, 401, 403, 404, 413, 422, 501, 505]) assert.ok(!retryableStatus(s), String(s));
});

test("chatURL joins endpoint bases", () => {
  assert.equal(chatURL("/v1"), "/v1/chat/completions");
  assert.equal(chatURL("https://h/v1/"), "https://h/v1/chat/completions");
  assert.equal(chatURL("https://h/v1/chat/completions"), "https://h/v1/chat/completions");
});

test("5xx and network errors are retried with growing waits until an answer comes", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch([500, "network", 503, "yes"]);
  const retries = [];
  const r = await clock.run(chat(req, { fetch, clock, random: half, onRetry: (i) => retries.push(i.delayMs) }));
  assert.equal(r.content, "yes");
  assert.equal(r.attempts, 4);
  assert.equal(fetch.calls.length, 4);
  assert.deepEqual(retries, [375, 750, 1500]);
  assert.deepEqual(r.usage, { prompt_tokens: 10, completion_tokens: 2 });
  const sent = fetch.calls[0].body;
  assert.equal(sent.model, "m");
  assert.equal(sent.stream, false);
  assert.equal(sent.temperature, 0);
});

test("429 waits what Retry-After asks (plus at most 10%), not the shorter backoff", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch([{ status: 429, headers: { "retry-after": "7" }, body: "{}" }, "no"]);
  const t0 = clock.now();
  const times = [];
  const wrapped = async (u, i) => {
    times.push(clock.now() - t0);
    return fetch(u, i);
  };
  const r = await clock.run(chat(req, { fetch: wrapped, clock, random: () => 0.3 }));
  assert.equal(r.content, "no");
  assert.ok(times[1] >= 7000 && times[1] <= 7700, "second attempt at " + times[1]);
});

test("a Retry-After beyond the cap fails at once with the wait in the message", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch([{ status: 429, headers: { "retry-after": "3600" }, body: "{}" }, "yes"]);
  await assert.rejects(clock.run(chat(req, { fetch, clock })), (e) => e instanceof CallError && /3600 s/.test(e.message) && e.status === 429);
  assert.equal(fetch.calls.length, 1);
});

test("attempts are bounded: a server that always fails is tried maxAttempts times", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch([503]);
  await assert.rejects(clock.run(chat(req, { fetch, clock, policy: { maxAttempts: 4 } })), (e) => {
    assert.equal(e.kind, "http");
    assert.equal(e.status, 503);
    assert.equal(e.attempts, 4);
    assert.match(e.message, /failed \(503\) after 4 attempts: retry failed rows later/);
    return true;
  });
  assert.equal(fetch.calls.length, 4);
});

test("401, 404 and 400 are not retried and say what to do", async () => {
  for (const [status, re] of [[401, /check the API key/], [404, /does not know the model “m” \(404/], [400, /HTTP 400: see the server's message/]]) {
    const clock = new FakeClock();
    const fetch = scriptedFetch([status, "yes"]);
    await assert.rejects(clock.run(chat(req, { fetch, clock })), (e) => {
      assert.equal(e.status, status);
      assert.match(e.message, re);
      assert.equal(e.detail, "fake " + status, "the server's words are kept apart");
      assert.match(e.toJSON().message, new RegExp("The server said: fake " + status), "and travel with a stored row");
      return true;
    });
    assert.equal(fetch.calls.length, 1);
  }
});

test("a hanging call times out per attempt and is retried; the last timeout is the error", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch(["hang", "yes"]);
  const r = await clock.run(chat(req, { fetch, clock, policy: { timeoutMs: 2000 } }));
  assert.equal(r.content, "yes");
  assert.equal(r.attempts, 2);

  const clock2 = new FakeClock();
  const always = scriptedFetch(["hang"]);
  await assert.rejects(clock2.run(chat(req, { fetch: always, clock: clock2, policy: { timeoutMs: 1000, maxAttempts: 3 } })), (e) => {
    assert.equal(e.kind, "timeout");
    assert.match(e.message, /^No answer from the model within 1 s \(timeout\) after 3 attempts: retry failed rows later/);
    return true;
  });
  assert.equal(always.calls.length, 3);
});

test("a 200 that is not JSON is retried; one without a message is not", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch([{ status: 200, body: "<html>proxy error</html>" }, "yes"]);
  assert.equal((await clock.run(chat(req, { fetch, clock }))).content, "yes");
  const f2 = scriptedFetch([{ status: 200, body: '{"choices":[]}' }, "yes"]);
  await assert.rejects(clock.run(chat(req, { fetch: f2, clock })), (e) => e.kind === "bad-response");
  assert.equal(f2.calls.length, 1);
});

test("cancelling aborts the call in flight and the wait between attempts", async () => {
  const clock = new FakeClock();
  const ctrl = new AbortController();
  const fetch = scriptedFetch(["hang"]);
  const p = chat(req, { fetch, clock, signal: ctrl.signal });
  setImmediate(() => ctrl.abort());
  await assert.rejects(p, (e) => e.kind === "aborted");

  const ctrl2 = new AbortController();
  const f2 = scriptedFetch([500]);
  const p2 = chat(req, { fetch: f2, clock, signal: ctrl2.signal, onRetry: () => setImmediate(() => ctrl2.abort()) });
  await assert.rejects(p2, (e) => e.kind === "aborted");
  assert.equal(f2.calls.length, 1);
});

test("a shared gate holds other calls until a 429's Retry-After has passed", async () => {
  const clock = new FakeClock();
  const gate = { until: 0 };
  const fetch = scriptedFetch([{ status: 429, headers: { "retry-after": "5" }, body: "{}" }, "yes", "yes"]);
  const t0 = clock.now();
  const at = [];
  const wrapped = (u, i) => (at.push(clock.now() - t0), fetch(u, i));
  const a = chat(req, { fetch: wrapped, clock, gate, random: () => 0 });
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  const b = chat(req, { fetch: wrapped, clock, gate, random: () => 0 });
  await clock.run(Promise.all([a, b]));
  assert.equal(at[0], 0);
  assert.ok(at[1] >= 5000 && at[2] >= 5000, JSON.stringify(at));
});

test("the key goes only into Authorization", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch(["yes"]);
  await clock.run(chat(req, { fetch, clock, apiKey: "sk-secret" }));
  assert.equal(fetch.calls[0].init.headers.Authorization, "Bearer sk-secret");
  assert.ok(!fetch.calls[0].init.body.includes("sk-secret"));
});
