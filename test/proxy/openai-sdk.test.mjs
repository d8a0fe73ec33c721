// openai-sdk.test.mjs: the official OpenAI JavaScript SDK as a real client of the real dev server
// (built from ./serve), in front of a fake OpenAI-compatible upstream written here, the only
// stand-in. What the SDK sends must reach the upstream as sent, and what the upstream answers
// must reach the SDK as answered: plain, streaming with usage, tools, JSON schema response
// formats, the SDK's error classes on 401 and 429, and a second upstream picked by name.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { buildServe, startServe } from "../e2e/harness.mjs";

const KEY = "sk-sdk-test-7d1e5c9a0b3f4e2d8c6a1b9e0f3d5c7aQRS";

/** Answers of the fake upstream, chosen by the model the SDK asks for. */
const COMPLETION = {
  id: "chatcmpl-sdk-1",
  object: "chat.completion",
  created: 1700000000,
  model: "judge-plain",
  system_fingerprint: null,
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "Yes", refusal: null, reasoning_content: "Le contexte le dit. 😀" },
      logprobs: null,
      finish_reason: "stop",
      stop_reason: null,
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
  timings: { predicted_per_second: 41.5 },
};

const CHUNKS = [
  { id: "c1", object: "chat.completion.chunk", created: 1, model: "judge-stream", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  { id: "c1", object: "chat.completion.chunk", created: 1, model: "judge-stream", choices: [{ index: 0, delta: { content: "Ye" }, finish_reason: null }] },
  { id: "c1", object: "chat.completion.chunk", created: 1, model: "judge-stream", choices: [{ index: 0, delta: { content: "s" }, finish_reason: "stop" }], x_vendor: { t: 1.5 } },
  { id: "c1", object: "chat.completion.chunk", created: 1, model: "judge-stream", choices: [], usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 } },
];

const TOOL_CALL = { id: "call_abc123", type: "function", function: { name: "record_verdict", arguments: '{"verdict":"yes","reason":"stated in [1]"}' } };

function completion(model, message, finish_reason = "stop") {
  return { ...COMPLETION, model, choices: [{ index: 0, message, logprobs: null, finish_reason }] };
}

let upstream; // { url, requests: [{ path, headers, raw }], close }
let second; // another upstream, the dev server's "second" (-upstream second=URL)
let serve; // { url, child, log, stop }
let binDir;

function startUpstream() {
  const requests = [];
  const hangs = [];
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const c of req) raw += c;
    requests.push({ path: req.url, headers: req.headers, raw });
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/v1/models") {
      return send(200, { object: "list", data: [{ id: "judge-plain", object: "model", created: 0, owned_by: "test" }] });
    }
    const body = JSON.parse(raw);
    switch (body.model) {
      case "judge-plain":
        return send(200, COMPLETION, { "x-request-id": "req_plain" });
      case "judge-stream":
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const c of CHUNKS) res.write(`data: ${JSON.stringify(c)}\n\n`);
        return res.end("data: [DONE]\n\n");
      case "judge-tools": {
        const last = body.messages[body.messages.length - 1];
        if (last.role === "tool") return send(200, completion(body.model, { role: "assistant", content: "Recorded: yes." }));
        return send(200, completion(body.model, { role: "assistant", content: null, tool_calls: [TOOL_CALL] }, "tool_calls"));
      }
      case "judge-schema":
        return send(200, completion(body.model, { role: "assistant", content: '{"verdict":"no","score":0}' }));
      case "judge-401":
        return send(401, {
          error: { message: `Incorrect API key provided: ${req.headers.authorization.slice(7)}.`, type: "invalid_request_error", param: null, code: "invalid_api_key" },
        });
      case "judge-429":
        return send(
          429,
          { error: { message: "Rate limit reached for requests", type: "requests", param: null, code: "rate_limit_exceeded" } },
          { "retry-after": "7", "retry-after-ms": "6500" },
        );
      case "judge-hang":
        return hangs.push(() => send(200, completion(body.model, { role: "assistant", content: "late" })));
      default:
        return send(404, { error: { message: `The model '${body.model}' does not exist`, type: "invalid_request_error", param: "model", code: "model_not_found" } });
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        requests,
        release: () => hangs.splice(0).forEach((f) => f()),
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

function client(opts = {}) {
  return new OpenAI({ apiKey: KEY, baseURL: serve.url + "/v1", maxRetries: 0, timeout: 10000, ...opts });
}

/** sent is what the upstream received for the last request, parsed, with its raw text. */
function lastSent() {
  const r = upstream.requests[upstream.requests.length - 1];
  return { ...r, body: JSON.parse(r.raw) };
}

before(async () => {
  binDir = mkdtempSync(join(tmpdir(), "ragjudge-sdk-bin-"));
  const bin = buildServe(binDir);
  upstream = await startUpstream();
  second = await startUpstream();
  // The first -upstream, a bare URL as before, is the default, named "default".
  serve = await startServe(bin, upstream.url, { args: ["-upstream", `second=${second.url}`] });
});

after(async () => {
  await serve?.stop();
  await upstream?.close();
  await second?.close();
  if (binDir) rmSync(binDir, { recursive: true, force: true });
});

test("a plain completion reaches the upstream and comes back as sent", async () => {
  const params = {
    model: "judge-plain",
    messages: [
      { role: "system", content: "Réponds par oui ou non. 😀" },
      { role: "user", content: "Is the claim grounded?" },
    ],
    temperature: 0,
    max_tokens: 16,
    // vLLM, llama.cpp and Ollama parameters the SDK does not model: they pass as sent.
    top_k: 1,
    min_p: 0.05,
    guided_json: { type: "object", properties: { verdict: { enum: ["yes", "no"] } } },
    chat_template_kwargs: { enable_thinking: false },
    options: { num_ctx: 8192 },
    keep_alive: "5m",
  };
  const sdk = client();
  const data = await sdk.chat.completions.create(params);
  const sent = lastSent();
  assert.equal(sent.path, "/v1/chat/completions");
  assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
  assert.equal(sent.raw, JSON.stringify(params), "the SDK's bytes reach the upstream");
  assert.match(sent.raw, /"temperature":0,/, "a zero temperature is sent as 0");
  for (const [k, v] of Object.entries(COMPLETION)) assert.deepEqual(data[k], v, `field ${k} as the upstream sent it`);
  assert.equal(data.choices[0].message.reasoning_content, "Le contexte le dit. 😀");
  assert.equal("content_filter_results" in data.choices[0], false, "nothing the upstream did not send");

  // The same call as raw bytes: exactly the upstream's.
  const response = await sdk.chat.completions.create(params).asResponse();
  assert.equal(response.status, 200);
  assert.equal(await response.text(), JSON.stringify(COMPLETION));
});

test("a stream with usage arrives chunk by chunk, usage last", async () => {
  const stream = await client().chat.completions.create({
    model: "judge-stream",
    messages: [{ role: "user", content: "Is the claim grounded?" }],
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
  });
  const got = [];
  for await (const chunk of stream) got.push(chunk);
  assert.deepEqual(got, CHUNKS, "every chunk, vendor fields included, and the usage chunk with no choices");
  assert.equal(got.map((c) => c.choices[0]?.delta?.content ?? "").join(""), "Yes");
  assert.deepEqual(got.at(-1).usage, { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 });
  const sent = lastSent();
  assert.equal(sent.body.stream, true);
  assert.deepEqual(sent.body.stream_options, { include_usage: true });
});

test("tool calls make the round trip", async () => {
  const tools = [
    {
      type: "function",
      function: {
        name: "record_verdict",
        description: "Record the judge's verdict.",
        parameters: {
          type: "object",
          properties: { verdict: { type: "string", enum: ["yes", "no"] }, reason: { type: "string" } },
          required: ["verdict", "reason"],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  ];
  const messages = [{ role: "user", content: "Judge the claim and record it." }];
  const sdk = client();
  const first = await sdk.chat.completions.create({ model: "judge-tools", messages, tools, tool_choice: "required", parallel_tool_calls: false });
  assert.deepEqual(lastSent().body.tools, tools);
  assert.equal(lastSent().body.tool_choice, "required");
  assert.equal(first.choices[0].finish_reason, "tool_calls");
  assert.deepEqual(first.choices[0].message.tool_calls, [TOOL_CALL]);

  const call = first.choices[0].message.tool_calls[0];
  const followUp = [...messages, first.choices[0].message, { role: "tool", tool_call_id: call.id, content: JSON.stringify({ ok: true }) }];
  const second = await sdk.chat.completions.create({ model: "judge-tools", messages: followUp, tools });
  assert.deepEqual(lastSent().body.messages, followUp, "the assistant's tool call and the tool's answer reach the upstream");
  assert.equal(second.choices[0].message.content, "Recorded: yes.");
});

test("a JSON schema response format reaches the upstream", async () => {
  const response_format = {
    type: "json_schema",
    json_schema: {
      name: "verdict",
      strict: true,
      schema: {
        type: "object",
        properties: { verdict: { type: "string", enum: ["yes", "no"] }, score: { type: "number", minimum: 0, maximum: 1 } },
        required: ["verdict", "score"],
        additionalProperties: false,
      },
    },
  };
  const res = await client().chat.completions.create({
    model: "judge-schema",
    messages: [{ role: "user", content: "Verdict as JSON." }],
    temperature: 0,
    response_format,
  });
  assert.deepEqual(lastSent().body.response_format, response_format);
  assert.deepEqual(JSON.parse(res.choices[0].message.content), { verdict: "no", score: 0 });
});

test("a 401 is the SDK's AuthenticationError, without the key", async () => {
  await assert.rejects(
    client().chat.completions.create({ model: "judge-401", messages: [{ role: "user", content: "hi" }] }),
    (err) => {
      assert.ok(err instanceof OpenAI.AuthenticationError, `got ${err?.constructor?.name}: ${err}`);
      assert.equal(err.status, 401);
      assert.equal(err.code, "invalid_api_key");
      assert.equal(err.type, "invalid_request_error");
      assert.match(err.message, /Incorrect API key provided: \[key redacted\]/);
      assert.ok(!err.message.includes(KEY) && !JSON.stringify(err.error).includes(KEY.slice(-12)), "the key is not echoed");
      return true;
    },
  );
  assert.ok(!serve.log().includes(KEY.slice(-12)), "nor logged");
});

test("a 429 is the SDK's RateLimitError, with the upstream's retry hints", async () => {
  const before = upstream.requests.length;
  await assert.rejects(
    client().chat.completions.create({ model: "judge-429", messages: [{ role: "user", content: "hi" }] }),
    (err) => {
      assert.ok(err instanceof OpenAI.RateLimitError, `got ${err?.constructor?.name}: ${err}`);
      assert.equal(err.status, 429);
      assert.equal(err.code, "rate_limit_exceeded");
      assert.equal(err.headers.get("retry-after"), "7");
      assert.equal(err.headers.get("retry-after-ms"), "6500");
      return true;
    },
  );
  assert.equal(upstream.requests.length, before + 1, "maxRetries: 0 means one call");
});

test("the dev server's own cap on calls in flight is a RateLimitError too", async (t) => {
  const bin = join(binDir, "serve");
  const capped = await startServe(bin, upstream.url, { args: ["-max-inflight", "1"] });
  t.after(() => capped.stop());
  const sdk = new OpenAI({ apiKey: KEY, baseURL: capped.url + "/v1", maxRetries: 0, timeout: 10000 });
  const hanging = sdk.chat.completions.create({ model: "judge-hang", messages: [{ role: "user", content: "hi" }] });
  // Wait until the upstream holds the first call, then ask for a second.
  const deadline = Date.now() + 10000;
  while (!upstream.requests.some((r) => r.raw.includes('"judge-hang"'))) {
    if (Date.now() > deadline) throw new Error("the first call never reached the upstream");
    await new Promise((r) => setTimeout(r, 10));
  }
  await assert.rejects(sdk.chat.completions.create({ model: "judge-plain", messages: [{ role: "user", content: "hi" }] }), (err) => {
    assert.ok(err instanceof OpenAI.RateLimitError, `got ${err?.constructor?.name}: ${err}`);
    assert.equal(err.code, "too_many_calls_in_flight");
    assert.equal(err.headers.get("retry-after"), "1");
    return true;
  });
  upstream.release();
  const late = await hanging;
  assert.equal(late.choices[0].message.content, "late");
});

test("a call picks its upstream by name in the Ragjudge-Upstream header", async () => {
  const params = { model: "judge-plain", messages: [{ role: "user", content: "Is the claim grounded?" }], temperature: 0 };
  const [toDefault, toSecond] = [upstream.requests.length, second.requests.length];
  const sdk = client({ defaultHeaders: { "Ragjudge-Upstream": "second" } });
  const { data, response } = await sdk.chat.completions.create(params).withResponse();
  assert.equal(data.choices[0].message.content, "Yes");
  assert.equal(response.headers.get("ragjudge-upstream"), "second", "the answer names the upstream that gave it");
  assert.equal(second.requests.length, toSecond + 1);
  assert.equal(upstream.requests.length, toDefault, "not the default");
  const sent = second.requests.at(-1);
  assert.equal(sent.raw, JSON.stringify(params));
  assert.equal(sent.headers["ragjudge-upstream"], undefined, "the name stays in the dev server");

  const models = await sdk.models.list().withResponse();
  assert.deepEqual(models.data.data.map((m) => m.id), ["judge-plain"]);
  assert.equal(models.response.headers.get("ragjudge-upstream"), "second");
  assert.equal(second.requests.at(-1).path, "/v1/models");

  // Without a name, the default, as before.
  const plain = await client().chat.completions.create(params).withResponse();
  assert.equal(plain.response.headers.get("ragjudge-upstream"), "default");
  assert.equal(upstream.requests.length, toDefault + 1);
});

test("an unknown upstream is the SDK's BadRequestError, and nothing is sent", async () => {
  const before = [upstream.requests.length, second.requests.length];
  await assert.rejects(
    client({ defaultHeaders: { "Ragjudge-Upstream": "third" } }).chat.completions.create({ model: "judge-plain", messages: [{ role: "user", content: "hi" }] }),
    (err) => {
      assert.ok(err instanceof OpenAI.BadRequestError, `got ${err?.constructor?.name}: ${err}`);
      assert.equal(err.code, "unknown_upstream");
      assert.match(err.message, /no upstream named "third"; it has default, second/);
      return true;
    },
  );
  assert.deepEqual([upstream.requests.length, second.requests.length], before, "never the default instead");
});

test("/ragjudge/config lists the upstreams by name and host, as the page reads them", async () => {
  const res = await fetch(`${serve.url}/ragjudge/config`);
  const cfg = await res.json();
  const host = (u) => new URL(u).host;
  assert.equal(cfg.default_upstream, "default");
  assert.deepEqual(cfg.upstreams, [
    { name: "default", host: host(upstream.url), azure: false, server_key: false },
    { name: "second", host: host(second.url), azure: false, server_key: false },
  ]);
  // What the page read before there were several is the default's, unchanged.
  assert.equal(cfg.upstream, upstream.url);
  assert.equal(cfg.upstream_host, host(upstream.url));
  assert.equal(cfg.server_key, false);
  assert.ok(!JSON.stringify(cfg).includes(second.url), "no other upstream's URL");
});
