// devserver.test.mjs: `ragjudge run` against the real dev server (serve/, built here) in front of
// the fake upstream: a shared server's access token read from the environment (RAGJUDGE_TOKEN or
// --token-env), never an argument and never written; a 401 that says which was refused, the
// token or the key, and whose key (the dev server's Ragjudge-Key header); --upstream names which
// of the server's upstreams the calls go to.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { buildServe, startServe } from "../e2e/harness.mjs";
import { KEY, tmp, ragjudge, dataset, verdictFor, chatCalls } from "./cli.mjs";

const TOKEN = "cli-test-token-" + Math.random().toString(36).slice(2, 12);
const SERVER_KEY = "sk-server-own-key-" + Math.random().toString(36).slice(2, 10);
const dir = tmp();
writeFileSync(join(dir, "data.csv"), dataset(3));

/** @type {any} */
let fakeA;
/** @type {any} */
let fakeB;
/** @type {any} */
let shared;
/** @type {any} */
let keyed;
before(async () => {
  [fakeA, fakeB] = await Promise.all([startFake(), startFake()]);
  for (const f of [fakeA, fakeB]) f.answer = (prompt) => verdictFor(prompt);
  const bin = buildServe(tmp("ragjudge-cli-serve-"));
  // A server with its token (given by hand: one made at start would be printed only) and two
  // upstreams; and one with a key of its own.
  [shared, keyed] = await Promise.all([
    startServe(bin, `a=${fakeA.url}`, { args: ["-token", TOKEN, "-upstream", `b=${fakeB.url}`] }),
    startServe(bin, fakeA.url, { args: ["-token", TOKEN], env: { OPENAI_API_KEY: SERVER_KEY } }),
  ]);
});
after(async () => {
  await Promise.all([shared?.stop(), keyed?.stop()]);
  await Promise.all([fakeA?.close(), fakeB?.close()]);
});

/** run runs `ragjudge run` on the dataset through server srv with model and env. */
function run(srv, { model = "judge-mini", env = {}, more = [] } = {}) {
  return ragjudge(["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", model, "--base-url", srv.url + "/v1", "--attempts", "1", "--outage-wait", "0", ...more], { cwd: dir, env });
}

test("a shared dev server's token from the environment: refused without it or with another, said as the token, never the key (finding 5)", async () => {
  const calls = chatCalls(fakeA).length;
  const none = await run(shared);
  assert.equal(none.code, 2, none.err);
  assert.match(none.err, /is a shared ragjudge dev server and needs its access token \(401\): put the token of the address it printed at its start \(…\/\?token=TOKEN\) in RAGJUDGE_TOKEN, or name its variable with --token-env\. No model was called\./);
  assert.doesNotMatch(none.err, /refused the key|no key was sent/);
  const wrong = await run(shared, { env: { RAGJUDGE_TOKEN: "not-the-token-of-this-server" } });
  assert.equal(wrong.code, 2, wrong.err);
  assert.match(wrong.err, /refused the access token in RAGJUDGE_TOKEN \(401\): it is not this dev server's/);
  assert.equal(chatCalls(fakeA).length, calls, "nothing reached the upstream");

  // The token in RAGJUDGE_TOKEN, or in the variable --token-env names: judged, the token never written.
  const out = join(dir, "a.jsonl");
  const ok = await run(shared, { env: { RAGJUDGE_TOKEN: TOKEN }, more: ["--out", out] });
  assert.equal(ok.code, 0, ok.err);
  assert.equal(chatCalls(fakeA).length, calls + 3);
  const named = await run(shared, { env: { MY_TOKEN: TOKEN }, more: ["--token-env", "MY_TOKEN"] });
  assert.equal(named.code, 0, named.err);
  for (const text of [ok.out, ok.err, named.out, named.err, readFileSync(out, "utf8"), readFileSync(out + ".run.json", "utf8")]) assert.ok(!text.includes(TOKEN), "the token is never written");
  // Never an argument; --token-env naming an empty variable is said.
  const arg = await ragjudge(["run", "--token", TOKEN], { cwd: dir });
  assert.equal(arg.code, 2);
  assert.match(arg.err, /the dev server's access token is never an argument\. Put it in the environment \(RAGJUDGE_TOKEN/);
  assert.ok(!arg.err.includes(TOKEN));
  const empty = await run(shared, { more: ["--token-env", "NOT_SET_HERE"] });
  assert.match(empty.err, /--token-env NOT_SET_HERE: the environment has no NOT_SET_HERE/);
});

test("a 401 past the token says whose key: none sent, this command's, or the dev server's own (finding 5)", async () => {
  // The fake refuses model judge-401 with 401 invalid_api_key, as a provider refuses a key.
  const noKey = await run(shared, { model: "judge-401", env: { RAGJUDGE_TOKEN: TOKEN } });
  assert.equal(noKey.code, 2, noKey.err);
  assert.match(noKey.err, /refused the call without a key \(401 Unauthorized\): no key was sent \(the dev server's access token was accepted\); put it in OPENAI_API_KEY/);
  const mine = await run(shared, { model: "judge-401", env: { RAGJUDGE_TOKEN: TOKEN, OPENAI_API_KEY: KEY } });
  assert.match(mine.err, /refused the key in OPENAI_API_KEY \(401 Unauthorized\): check it\./);
  const servers = await run(keyed, { model: "judge-401", env: { RAGJUDGE_TOKEN: TOKEN } });
  assert.match(servers.err, /is a dev server whose own key \(its OPENAI_API_KEY or -upstream-key-env\) was refused upstream \(401 Unauthorized\)/);
  for (const r of [noKey, mine, servers]) assert.ok(![TOKEN, KEY, SERVER_KEY].some((s) => (r.out + r.err).includes(s)));
});

test("--upstream names which of the dev server's upstreams the calls go to (finding 5)", async () => {
  const [a, b] = [chatCalls(fakeA).length, chatCalls(fakeB).length];
  const r = await run(shared, { env: { RAGJUDGE_TOKEN: TOKEN }, more: ["--upstream", "b"] });
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([chatCalls(fakeA).length - a, chatCalls(fakeB).length - b], [0, 3]);
  const bad = await run(shared, { env: { RAGJUDGE_TOKEN: TOKEN }, more: ["--upstream", "c d"] });
  assert.match(bad.err, /--upstream takes the name of one of the dev server's upstreams/);
  // A name the server does not have fails every row alike: the run is held (exit 2), not a run of errors that passes.
  const unknown = await run(shared, { env: { RAGJUDGE_TOKEN: TOKEN }, more: ["--upstream", "zzz"] });
  assert.equal(unknown.code, 2, unknown.err);
  assert.match(unknown.err, /has no upstream named "zzz" \(400\): check --upstream\. The endpoint said: the dev server has no upstream named "zzz"; it has a, b/);
});
