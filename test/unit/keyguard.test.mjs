// Tests of "no call without a key" (web/model/keyguard.js, web/batch/scheduler.js keyMissing) and of the
// 401s that say which key it was (web/model/callerror.js, web/model/llm.js), on the injected clock.
import { test } from "node:test";
import assert from "node:assert/strict";
import { localHost, keyNeeded, keyMissing } from "../../web/model/keyguard.js";
import { Runner } from "../../web/batch/scheduler.js";
import { statusOf } from "../../web/results/status.js";
import { chat } from "../../web/model/llm.js";
import { FakeClock, answer, fakeJudge } from "./fakes.mjs";
import { RunState, RowState } from "../../web/batch/states.js";
import { httpErrorMessage, CallError, CallKind, KeySource, ServerCode } from "../../web/model/callerror.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

const request = { endpoint: "/v1", model: "judge-1", params: { temperature: 0 } };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));

/** until settles once cond() holds, looked at between the tasks of a FakeClock.run. */
const until = (cond) =>
  new Promise((resolve) => {
    const look = () => (cond() ? resolve(null) : setImmediate(look));
    look();
  });

test("localHost: this machine and the local network, nothing else", () => {
  const local = ["127.0.0.1:11434", "localhost:8000", "LOCALHOST", "app.localhost", "[::1]:8080", "::1", "10.0.0.5", "172.16.0.1:8000", "172.31.255.255", "192.168.1.20:1234",
    "169.254.1.1", "100.64.0.1", "0.0.0.0", "[fd12:3456::1]:8000", "fe80::1", "[::ffff:192.168.0.2]", "ollama:11434", "gpu-box", "printer.local", "host.docker.internal:11434", "localhost."];
  const remote = ["api.openai.com", "my.openai.azure.com:443", "8.8.8.8", "172.32.0.1", "172.15.0.1", "192.169.0.1", "100.128.0.1", "[2606:4700::1111]", "::ffff:8.8.8.8",
    "localhost.evil.example", "evil.example.local.com", ""];
  for (const h of local) assert.equal(localHost(h), true, h);
  for (const h of remote) assert.equal(localHost(h), false, h);
});

/** page is a State as keyguard reads it. */
function page({ mode = "proxy", baseURL = "https://api.openai.com/v1", config = { upstream: "https://api.openai.com/v1", upstream_host: "api.openai.com" }, key = "" } = {}) {
  return { endpoint: () => ({ mode, baseURL: mode === "proxy" ? "http://127.0.0.1:8080/v1" : baseURL }), config, key };
}

test("keyNeeded: a hosted upstream or endpoint needs one; a server key, a local endpoint or manual mode does not", () => {
  assert.equal(keyNeeded(page()), true, "the dev server in front of OpenAI, without OPENAI_API_KEY");
  assert.equal(keyNeeded(page({ config: { upstream: "https://api.openai.com/v1", upstream_host: "api.openai.com", server_key: true } })), false, "the server has its own");
  assert.equal(keyNeeded(page({ config: { upstream: "http://127.0.0.1:11434/v1", upstream_host: "127.0.0.1:11434" } })), false, "Ollama behind the dev server");
  assert.equal(keyNeeded(page({ config: { upstream: "http://gpu-box:8000/v1" } })), false, "the host read from upstream when upstream_host is missing");
  assert.equal(keyNeeded(page({ config: { upstream: "", upstream_host: "", token: "required" } })), false, "without the token the server refuses the calls itself, and says why");
  assert.equal(keyNeeded(page({ config: null })), true, "no word from a dev server: assume a key is needed");
  assert.equal(keyNeeded(page({ mode: "direct" })), true);
  assert.equal(keyNeeded(page({ mode: "direct", baseURL: "http://localhost:1234/v1" })), false, "LM Studio, directly");
  assert.equal(keyNeeded(page({ mode: "direct", baseURL: "not a url" })), true);
  assert.equal(keyNeeded(page({ mode: "manual" })), false);
  assert.equal(keyMissing(page()), true);
  assert.equal(keyMissing(page({ key: "sk-1" })), false);
  assert.equal(keyMissing(page({ mode: "direct", baseURL: "http://127.0.0.1:11434/v1" })), false);
});

test("a run without the key it needs makes no call: it holds, says so, and goes on once a key is entered", async () => {
  const clock = new FakeClock();
  const sent = [];
  const fetch = async (url, init) => {
    sent.push({ url, auth: init.headers.Authorization || "" });
    return answer(init.headers.Authorization ? "yes" : 401, init);
  };
  let key = "";
  const store = new MemoryStore();
  const holds = [];
  const r = new Runner({
    runId: "k1",
    items: items(12),
    todo: [...Array(12).keys()],
    judge: fakeJudge,
    request,
    fetch,
    store,
    clock,
    concurrency: 4,
    apiKey: () => key || undefined,
    keyMissing: () => !key,
    onHold: (e) => holds.push(e),
  });
  const done = r.start();
  await clock.run(until(() => r.state === RunState.HELD && r.active === 0));
  assert.deepEqual(sent, [], "not one call without the key");
  assert.equal(r.stats.calls, 0);
  assert.equal(r.stats.failedUnstored, 0, "a call not made is not a failed call");
  assert.equal(r.reason.error.kind, CallKind.NO_KEY);
  assert.match(r.reason.message, /^Enter your key to resume/);
  assert.ok(holds.length >= 1 && holds[0] instanceof CallError && holds[0].kind === CallKind.NO_KEY);
  assert.ok([...r.liveRows().values()].every((l) => l.state === RowState.QUEUED), "its rows wait in the queue");
  assert.deepEqual(await store.getResults("k1"), [], "no row ends for want of a key");

  // Resume without a key: still nothing sent.
  r.resume();
  await clock.run(new Promise((resolve) => setImmediate(resolve)));
  await clock.run(until(() => r.state === RunState.HELD && r.active === 0));
  assert.deepEqual(sent, []);

  key = "sk-test-1";
  r.resume();
  assert.equal(await clock.run(done), RunState.DONE);
  assert.equal(sent.length, 12);
  assert.ok(sent.every((s) => s.auth === "Bearer sk-test-1"), "every call with the key");
  const results = await store.getResults("k1");
  assert.equal(results.length, 12);
  for (const res of results) assert.equal(statusOf(res), "passed");
});

test("an outage's probes are not sent without the key either", async () => {
  const clock = new FakeClock();
  const log = { posts: 0, gets: 0 };
  let key = "sk-1";
  const fetch = async (url, init) => {
    if (init.method === "GET") log.gets++;
    else log.posts++;
    return answer(503, init);
  };
  const r = new Runner({
    runId: "k2",
    items: items(6),
    todo: [...Array(6).keys()],
    judge: fakeJudge,
    request,
    fetch,
    clock,
    concurrency: 2,
    policy: { maxAttempts: 2, timeoutMs: 1000 },
    apiKey: () => key || undefined,
    keyMissing: () => !key,
    // The user clears the key while the endpoint is down.
    onState: (s) => s === RunState.OUTAGE && (key = ""),
  });
  r.start();
  await clock.run(until(() => r.state === RunState.HELD));
  assert.equal(r.stats.outages, 1, "the endpoint went down: an outage");
  assert.equal(log.gets, 0, "no keyless GET models as a probe");
  assert.equal(r.reason.error.kind, CallKind.NO_KEY, "the run waits for the key instead");
  r.cancel();
});

test("a 401 says whether no key was sent, whose key was refused, or that the dev server's token is missing", async () => {
  const s = (key, code = "") => httpErrorMessage(401, { key, code });
  assert.match(s(KeySource.NONE), /^No key was sent \(401 Unauthorized\)/);
  assert.match(s(KeySource.PAGE), /^The key was refused \(401 Unauthorized\): check the API key/);
  assert.match(s(KeySource.SERVER), /^The dev server's key \(its OPENAI_API_KEY\) was refused/);
  assert.match(s(""), /^The key was refused/, "not known: the old sentence");
  assert.match(s(KeySource.NONE, ServerCode.TOKEN_REQUIRED), /needs its access token \(401\): open the address it printed/);
  assert.match(s(KeySource.NONE, ServerCode.INVALID_TOKEN), /refused this page's access token/);

  // Through chat: the dev server says which key went (Ragjudge-Key), or the page knows (direct).
  const refuse = (header) => async (url, init) => new Response('{"error":{"message":"nope","code":"invalid_api_key"}}', { status: 401, headers: header ? { "ragjudge-key": header } : {} });
  const cases = [
    [{ fetch: refuse("none") }, /^No key was sent/],
    [{ fetch: refuse("server") }, /^The dev server's key/],
    [{ fetch: refuse("page"), apiKey: "sk-1" }, /^The key was refused/],
    [{ fetch: refuse(""), direct: true }, /^No key was sent/],
    [{ fetch: refuse(""), direct: true, apiKey: "sk-1" }, /^The key was refused/],
  ];
  for (const [opts, want] of cases) {
    const e = await chat({ ...request, messages: [{ role: "user", content: "q" }] }, { ...opts, policy: { maxAttempts: 1 } }).catch((x) => x);
    assert.ok(e instanceof CallError, String(e));
    assert.match(e.message, want, JSON.stringify(opts));
    assert.equal(e.code, "invalid_api_key");
    assert.equal(e.toJSON().code, "invalid_api_key", "a stored error keeps the code");
    assert.equal(e.toJSON().key, e.key || undefined, "and whose key it was");
  }
  const token = await chat({ ...request, messages: [{ role: "user", content: "q" }] }, {
    fetch: async () => new Response('{"error":{"message":"needs its token","type":"invalid_request_error","code":"token_required"}}', { status: 401 }),
    policy: { maxAttempts: 1 },
  }).catch((x) => x);
  assert.match(token.message, /needs its access token/);
});
