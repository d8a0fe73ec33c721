// Tests of the page's one call module (web/model/llm.js): the retry policy with a fake clock and a
// scripted fetch, streaming, the messages, the probe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chat, parseRetryAfter, backoffDelay, DEFAULT_POLICY, INTERACTIVE_POLICY, probe, listModels } from "../../web/model/llm.js";
import { AdaptiveSlots } from "../../web/batch/slots.js";
import { FakeClock, scriptedFetch, answer as answerOf } from "./fakes.mjs";
import { retryableStatus, CallError, CallKind, unreachable, httpErrorMessage } from "../../web/model/callerror.js";
import { chatURL, requestInit } from "../../web/model/chatrequest.js";

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
    [{ "retry-after-ms": "12.2" }, 13],
    [{ "retry-after-ms": "soon", "retry-after": "2" }, 2000],
    [{ "retry-after-ms": "-5", "retry-after": "2" }, 2000],
    [{ "retry-after": "120" }, 120_000],
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

test("with a run's slots, one call's Retry-After holds only that call: another goes out at once", async () => {
  const clock = new FakeClock();
  const slots = new AdaptiveSlots(4, { clock });
  const fetch = scriptedFetch([{ status: 429, headers: { "retry-after": "5" }, body: "{}" }, "yes", "yes"]);
  const t0 = clock.now();
  const at = [];
  const wrapped = (u, i) => (at.push(clock.now() - t0), fetch(u, i));
  const a = chat(req, { fetch: wrapped, clock, slots, random: () => 0 });
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  const b = chat(req, { fetch: wrapped, clock, slots, random: () => 0 });
  await clock.run(Promise.all([a, b]));
  assert.deepEqual(at, [0, 0, 5000], "b went out at once; a's retry after its own 5 s");
  assert.equal(slots.limit, 4, "the 429 halved the limit to 2, two answers gave it back");
});

test("the key goes only into Authorization", async () => {
  const clock = new FakeClock();
  const fetch = scriptedFetch(["yes"]);
  await clock.run(chat(req, { fetch, clock, apiKey: "sk-secret" }));
  assert.equal(fetch.calls[0].init.headers.Authorization, "Bearer sk-secret");
  assert.ok(!fetch.calls[0].init.body.includes("sk-secret"));
});

test("the first attempt's kinds: network and direct (CORS) are retryable, a 200 with an error is the upstream's", async () => {
  const clock = new FakeClock();
  const cases = [
    ["network", {}, CallKind.NETWORK, /^Could not reach the dev server: is `make run` still running\?$/],
    ["network", { direct: true, endpoint: "https://llm.example.test/v1" }, CallKind.CORS, /could not call llm\.example\.test directly \(CORS refusal/],
    [{ status: 200, body: '{"error":{"message":"quota"}}' }, {}, CallKind.UPSTREAM, /reported an error/],
    [{ status: 200, body: "<html>" }, {}, CallKind.BAD_RESPONSE, /not JSON: run again/],
  ];
  for (const [step, o, kind, re] of cases) {
    const fetch = scriptedFetch([step]);
    const r = { ...req, endpoint: o.endpoint || req.endpoint };
    await assert.rejects(clock.run(chat(r, { fetch, clock, direct: o.direct, policy: INTERACTIVE_POLICY })), (e) => {
      assert.equal(e.kind, kind);
      assert.match(e.message, re);
      return true;
    });
  }
});

test("httpErrorMessage: one sentence per status, worded for one call or for a batch", () => {
  const rows = [
    [401, {}, "The key was refused (401 Unauthorized): check the API key in Model settings."],
    [403, {}, "The key is not allowed to do this (403 Forbidden): check the key's permissions or the model."],
    [404, { model: "m" }, "The model server does not know the model “m” (404 Not Found): pick another model in Model settings."],
    [404, { direct: true }, "The endpoint answered 404 Not Found: check the endpoint URL and the model in Model settings."],
    [413, {}, "The prompt is too large for the server (413): shorten the inputs."],
    [429, { retryAfterMs: 7000 }, "Rate limited by the model server (429 Too Many Requests): wait 7 s and run again."],
    [429, { batch: true, attempts: 5 }, "Rate limited by the model server (429 Too Many Requests) after 5 attempts: lower the concurrency or wait a moment, then retry failed rows."],
    [500, {}, "The model server failed (500): try again in a moment; if it persists, check the server."],
    [502, { batch: true, attempts: 3 }, "The model server failed (502) after 3 attempts: retry failed rows later; if it persists, check the server."],
    [504, {}, "The model did not answer in time (504 timeout): try again, or lower max tokens."],
    [400, {}, "The call failed with HTTP 400: see the server's message, and check the model settings."],
  ];
  for (const [status, o, want] of rows) assert.equal(httpErrorMessage(status, o), want, `${status} ${JSON.stringify(o)}`);
});

test("unreachable: network, timeout, CORS and 502/503/504, nothing that was answered", () => {
  const yes = [{ kind: "network" }, { kind: "timeout" }, { kind: "cors" }, { kind: "http", status: 502 }, { kind: "http", status: 503 }, { kind: "http", status: 504 }];
  const no = [null, { kind: "http", status: 500 }, { kind: "http", status: 429 }, { kind: "http", status: 401 }, { kind: "bad-response" }, { kind: "aborted" }, { kind: "upstream" }];
  for (const e of yes) assert.ok(unreachable(e), JSON.stringify(e));
  for (const e of no) assert.ok(!unreachable(e), JSON.stringify(e));
});

test("requestInit: the key only in Authorization, cookies only to the page's own origin (a shared dev server's token), a GET without a body", () => {
  const post = requestInit("sk-1", { a: 1 }, true);
  assert.deepEqual(post, {
    method: "POST",
    headers: { Accept: "text/event-stream", "Content-Type": "application/json", Authorization: "Bearer sk-1" },
    credentials: "same-origin",
    body: '{"a":1}',
  });
  assert.deepEqual(requestInit(""), { method: "GET", headers: { Accept: "application/json" }, credentials: "same-origin" });
});

test("probe: any answer but 502/503/504 means reachable; a network error or no answer in time does not", async () => {
  const clock = new FakeClock();
  const cases = [
    [{ status: 200, body: "{}" }, true],
    [401, true],
    [404, true],
    [500, true],
    [502, false],
    [503, false],
    [504, false],
    ["network", false],
    ["hang", false],
  ];
  for (const [step, want] of cases) {
    let seen = null;
    const fetch = (url, init) => ((seen = { url, init }), answerOf(step, init));
    assert.equal(await clock.run(probe({ endpoint: "/v1/", apiKey: "sk-2", fetch, clock, timeoutMs: 500 })), want, JSON.stringify(step));
    assert.equal(seen.url, "/v1/models");
    assert.equal(seen.init.method, "GET");
    assert.equal(seen.init.credentials, "same-origin");
    assert.equal(seen.init.headers.Authorization, "Bearer sk-2");
  }
});

test("listModels returns the ids in the endpoint's order with what it says of chat, or [] when the endpoint fails", async () => {
  const fetch = async () => new Response('{"data":[{"id":"b"},{"id":"a"},{"name":"c"}]}', { status: 200 });
  assert.deepEqual(await listModels({ baseURL: "/v1", fetch }), [{ id: "b", chat: null }, { id: "a", chat: null }, { id: "c", chat: null }]);
  // What the few lists that say mark: Together's and LM Studio's type, Mistral's capabilities, Ollama's own families.
  const marked = {
    data: [
      { id: "m2-bert-80M-8k-retrieval", type: "embedding" },
      { id: "text-embedding-nomic-embed-text-v1.5", type: "embeddings" },
      { id: "meta-llama-3.1-8b-instruct", type: "llm" },
      { id: "Llama-3.3-70B-Instruct-Turbo", type: "chat" },
      { id: "mistral-embed", capabilities: { completion_chat: false } },
      { id: "mistral-small-latest", capabilities: { completion_chat: true } },
      { id: "all-minilm:latest", details: { family: "bert" } },
      { id: "llama3.1:latest", details: { family: "llama" } },
    ],
  };
  const listed = await listModels({ baseURL: "/v1", fetch: async () => new Response(JSON.stringify(marked), { status: 200 }) });
  assert.deepEqual(listed.map((m) => m.chat), [false, false, true, true, false, true, false, true]);
  assert.deepEqual(await listModels({ baseURL: "/v1", fetch: async () => new Response("", { status: 500 }) }), []);
  assert.deepEqual(await listModels({ baseURL: "/v1", fetch: async () => Promise.reject(new TypeError("x")) }), []);
});

/** sse answers with a server-sent event stream made of chunks, cut wherever the test says. */
function sse(chunks, { end = true } = {}) {
  let pulls = 0;
  return (url, init) => {
    const body = new ReadableStream({
      async pull(ctrl) {
        if (pulls < chunks.length) {
          const c = chunks[pulls++];
          if (c === "stall")
            return new Promise((_, rej) => {
              const no = () => rej(new DOMException("aborted", "AbortError")); // as fetch's body does once aborted
              if (init.signal.aborted) no();
              init.signal.addEventListener("abort", no);
            });
          ctrl.enqueue(new TextEncoder().encode(c));
        } else if (end) ctrl.close();
        else return new Promise(() => {});
      },
    });
    sse.last = { url, init };
    return Promise.resolve(new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }));
  };
}

const ev = (o) => "data: " + JSON.stringify(o) + "\n\n";
const piece = (t) => ev({ model: "m-1", choices: [{ delta: { content: t } }] });

test("streaming: pieces arrive through onDelta, events split anywhere and CRLF are read, usage and finish reason kept", async () => {
  const clock = new FakeClock();
  const all = piece("Ye") + piece("s") + ev({ choices: [{ delta: {}, finish_reason: "stop" }] }) + ev({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 1 } }) + "data: [DONE]\n\n";
  const crlf = all.replace(/\n/g, "\r\n");
  for (const text of [all, crlf]) {
    const chunks = [": keep-alive\n\n", text.slice(0, 7), text.slice(7, 40), text.slice(40)];
    const deltas = [];
    const r = await clock.run(chat(req, { fetch: sse(chunks), clock, stream: true, policy: INTERACTIVE_POLICY, onDelta: (p, full) => deltas.push([p, full]) }));
    assert.equal(r.content, "Yes");
    assert.deepEqual(deltas, [
      ["Ye", "Ye"],
      ["s", "Yes"],
    ]);
    assert.deepEqual(r.usage, { prompt_tokens: 5, completion_tokens: 1 });
    assert.equal(r.finishReason, "stop");
    assert.equal(r.model, "m-1");
    const sent = JSON.parse(sse.last.init.body);
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.stream_options, { include_usage: true });
    assert.equal(sse.last.init.headers.Accept, "text/event-stream");
    assert.equal(sse.last.init.credentials, "same-origin");
  }
});

test("streaming: Stop aborts; an error event is a timeout or the upstream's; a cut stream is not retried once shown", async () => {
  const clock = new FakeClock();
  const ctrl = new AbortController();
  const p = chat(req, { fetch: sse([piece("a"), "stall"]), clock, stream: true, signal: ctrl.signal, onDelta: () => ctrl.abort() });
  await assert.rejects(p, (e) => e.kind === CallKind.ABORTED);

  const timeoutEv = ev({ error: { message: "upstream took too long", code: "upstream_timeout" } });
  await assert.rejects(clock.run(chat(req, { fetch: sse([piece("a"), timeoutEv]), clock, stream: true })), (e) => e.kind === CallKind.TIMEOUT && e.detail === "upstream took too long");
  await assert.rejects(clock.run(chat(req, { fetch: sse([ev({ error: { message: "boom" } })]), clock, stream: true })), (e) => e.kind === CallKind.UPSTREAM && e.detail === "boom");

  let calls = 0;
  const cut = (u, i) => (calls++, sse([piece("half")])(u, i));
  await assert.rejects(clock.run(chat(req, { fetch: cut, clock, stream: true, policy: { maxAttempts: 3 } })), (e) => {
    assert.equal(e.kind, CallKind.NETWORK);
    assert.match(e.message, /ended before the model finished/);
    return true;
  });
  assert.equal(calls, 1, "what was shown is not asked for again");
});

test("streaming: the timeout counts from the last byte, not from the start", async () => {
  const clock = new FakeClock();
  // Four pieces 800 ms apart: 3.2 s in all, more than the 1 s timeout, never 1 s without a byte.
  const slow = (url, init) => {
    const parts = [piece("a"), piece("b"), piece("c"), ev({ choices: [{ delta: { content: "d" }, finish_reason: "stop" }] })];
    const body = new ReadableStream({
      async pull(c) {
        if (!parts.length) return c.close();
        await new Promise((res) => clock.setTimeout(res, 800));
        c.enqueue(new TextEncoder().encode(parts.shift()));
      },
    });
    return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
  };
  const r = await clock.run(chat(req, { fetch: slow, clock, stream: true, policy: { timeoutMs: 1000, maxAttempts: 1 } }));
  assert.equal(r.content, "abcd");
  await assert.rejects(clock.run(chat(req, { fetch: sse([piece("a"), "stall"]), clock, stream: true, policy: { ...INTERACTIVE_POLICY, timeoutMs: 1000 } })), (e) => {
    assert.equal(e.kind, CallKind.TIMEOUT);
    assert.match(e.message, /^No answer from the model within 1 s \(timeout\): try again, or lower max tokens\.$/);
    return true;
  });
});

test("a retry held by a key-wide hold (429s in a row) reports the whole wait", async () => {
  const clock = new FakeClock();
  const slots = new AdaptiveSlots(8, { clock });
  const fetch = scriptedFetch([500, "yes"]);
  const waits = [];
  const t0 = clock.now();
  let second = 0;
  const wrapped = (u, i) => ((second = clock.now() - t0), fetch(u, i));
  const p = chat(req, { fetch: wrapped, clock, slots, random: () => 0.5, onRetry: (i) => waits.push(i.delayMs) });
  slots.hold(clock.now() + 4000); // set while the first attempt is out
  assert.equal((await clock.run(p)).content, "yes");
  assert.deepEqual(waits, [4000], "the 375 ms backoff is held to the hold");
  assert.equal(second, 4000);
});

test("modelParams writes what each model accepts: reasoning models get max_completion_tokens and no temperature", async () => {
  const { modelParams, isReasoningModel } = await import("../../web/model/modelparams.js");
  assert.deepEqual(modelParams({ model: "gpt-4o-mini", temperature: 0, maxTokens: 512 }), { temperature: 0, max_tokens: 512 });
  assert.deepEqual(modelParams({ model: "gpt-4o-mini", temperature: "0.7", maxTokens: "" }), { temperature: 0.7 });
  assert.deepEqual(modelParams({ model: "llama3.1:8b", temperature: 0 }), { temperature: 0 });
  for (const m of ["o1", "o1-mini", "o3-2025-04-16", "o4-mini", "gpt-5", "gpt-5-mini", "openai/o3", "GPT-5.1"]) {
    assert.ok(isReasoningModel(m), m);
    assert.deepEqual(modelParams({ model: m, temperature: 0, maxTokens: 1024 }), { max_completion_tokens: 1024 }, m);
  }
  for (const m of ["gpt-4o", "o10-fake", "qwen3:8b", "gpt-4.1", "mistral-o1"]) assert.ok(!isReasoningModel(m), m);
});

test("observedProtocol reads resource timing for the endpoint's origin; connectionLimit is 6 over HTTP/1.1, which every http: URL is", async () => {
  const { observedProtocol, connectionLimit } = await import("../../web/model/connections.js");
  const perf = (entries) => ({ getEntriesByType: (t) => (t === "resource" ? entries : []) });
  const entries = [
    { name: "https://api.example/v1/models", nextHopProtocol: "h2" },
    { name: "https://api.example.evil/v1/x", nextHopProtocol: "http/1.1" },
    { name: "https://hidden.example/v1/chat/completions", nextHopProtocol: "" }, // no Timing-Allow-Origin
  ];
  assert.equal(observedProtocol("https://api.example/v1", perf(entries)), "h2");
  assert.equal(observedProtocol("https://hidden.example/v1", perf(entries)), "", "hidden: unknown");
  assert.equal(observedProtocol("https://other.example/v1", perf(entries)), "", "never called: unknown");
  assert.equal(observedProtocol("https://api.example/v1", undefined), "");
  assert.deepEqual(connectionLimit("http://127.0.0.1:11434/v1", ""), { limit: 6, protocol: "http/1.1", seen: "scheme" });
  assert.deepEqual(connectionLimit("https://api.example/v1", "http/1.1"), { limit: 6, protocol: "http/1.1", seen: "timing" });
  assert.deepEqual(connectionLimit("https://api.example/v1", "h2"), { limit: 0, protocol: "h2", seen: "timing" });
  assert.deepEqual(connectionLimit("https://hidden.example/v1", ""), { limit: 0, protocol: "", seen: "" }, "unknown over TLS: no limit claimed");
});
