// Tests of a jury of judges in the batch engine and the page's parts of it: each row judged by
// each judge under its own request (endpoint, dev-server upstream, model, key), the row's verdict
// the core's rj.jury of theirs (web/batch/juryrow.js), the cache keyed per judge so a row redone
// pays only the judge that had not answered, a judge without its key holding the run; the judges
// a run keeps (web/batch/judges.js); what a row's jury says per judge (web/results/jury.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner } from "../../web/batch/scheduler.js";
import { cacheKey } from "../../web/batch/cache.js";
import { statusOf, causeOf } from "../../web/results/status.js";
import { MemoryStore } from "../../web/batch/memorystore.js";
import { juryVerdict, juryRule } from "../../web/batch/juryrow.js";
import { juryChoice, jurySettings, judgeKeyNeeded, keyId, judgeRequest, cleanJudge, juryProblem } from "../../web/batch/judges.js";
import { judgeLabel, juryStatuses, juryNote, juryNames } from "../../web/results/jury.js";
import { juryJudges } from "../../web/batch/buildrunner.js";
import { FakeClock, answer, fakeJudge } from "./fakes.mjs";
import { api } from "./rj.mjs";

const rj = await api();
const judge = { ...fakeJudge, jury: (v, o) => rj.jury(v, o) };
const items = (n) => Array.from({ length: n }, (_, i) => ({ inputs: { question: "q" + i } }));
const A = { endpoint: "/v1", upstream: "a", model: "judge-a", params: {} };
const B = { endpoint: "/v1", upstream: "b", model: "judge-b", params: {} };

/** byUpstream answers each call with script(upstream, question, model), and records them. */
function byUpstream(script) {
  const calls = [];
  const f = async (url, init) => {
    const body = JSON.parse(init.body);
    const up = init.headers["Ragjudge-Upstream"] || "";
    const q = body.messages[0].content.slice(3);
    calls.push({ up, q, model: body.model, key: init.headers.Authorization || "" });
    return answer(script(up, q, body.model), init);
  };
  f.calls = calls;
  return f;
}

function runner(opts) {
  const clock = new FakeClock();
  const r = new Runner({
    runId: "r1",
    judge,
    request: A,
    judges: [{ request: A }, { request: B }],
    jury: { rule: "majority" },
    clock,
    random: () => 0.5,
    policy: { timeoutMs: 1000, maxAttempts: 1 },
    ...opts,
  });
  return { r, clock };
}

test("a jury: each row asked of each judge at its upstream and model; the row's verdict is the core's majority, a split is jury.tie", async () => {
  const fetch = byUpstream((up, q) => (up === "a" ? "yes" : q === "q0" ? "yes" : "no"));
  const results = [];
  const { r, clock } = runner({ items: items(2), todo: [0, 1], fetch, onResult: (x) => results.push(x) });
  await clock.run(r.start());
  assert.deepEqual(fetch.calls.map((c) => `${c.up}:${c.model}:${c.q}`).sort(), ["a:judge-a:q0", "a:judge-a:q1", "b:judge-b:q0", "b:judge-b:q1"]);
  results.sort((x, y) => x.index - y.index);
  const [r0, r1] = results;
  assert.deepEqual(r0.jury.members.map((m) => m.verdict.passed), [true, true]);
  assert.equal(r0.verdict.passed, true);
  assert.equal(statusOf(r0), "passed");
  assert.equal(r0.calls, 2, "a row's calls are its judges' together");
  assert.deepEqual(r1.jury.members.map((m) => m.verdict.passed), [true, false]);
  assert.equal(r1.verdict.passed, null);
  assert.equal(r1.verdict.checks[0].code, "jury.tie");
  assert.equal(statusOf(r1), "undetermined");
  assert.equal(causeOf(r1), "the jury split evenly");
  assert.equal(r1.jury.rule, "majority");
  assert.deepEqual(r1.answers, ["yes", "no"], "the row's answers are its judges', in order");
});

test("a jury's rule: all must pass, any passes, the mean score against pass_at", async () => {
  for (const [rule, want] of [
    [{ rule: "all" }, false],
    [{ rule: "any" }, true],
    [{ rule: "mean", pass_at: 0.5 }, true],
    [{ rule: "mean", pass_at: 0.6 }, false],
  ]) {
    const fetch = byUpstream((up) => (up === "a" ? "yes" : "no"));
    const results = [];
    const { r, clock } = runner({ items: items(1), todo: [0], fetch, jury: rule, onResult: (x) => results.push(x) });
    await clock.run(r.start());
    assert.equal(results[0].verdict.passed, want, JSON.stringify(rule));
    assert.equal(results[0].verdict.score, rule.rule === "mean" ? 0.5 : results[0].verdict.score);
  }
});

test("a jury's repeats: each judge judges N times, its verdict is its repeats' majority, and each repeat is a call of its own", async () => {
  const fetch = byUpstream((up) => (up === "a" ? "yes" : "no"));
  const results = [];
  const { r, clock } = runner({ items: items(1), todo: [0], fetch, repeats: 3, onResult: (x) => results.push(x) });
  await clock.run(r.start());
  assert.equal(fetch.calls.length, 6);
  const [m0, m1] = results[0].jury.members;
  assert.equal(m0.repeats.length, 3);
  assert.equal(m0.verdict.passed, true);
  assert.equal(m1.verdict.passed, false);
  assert.equal(results[0].verdict.checks[0].code, "jury.tie");
});

test("a judge that fails fails the row; redone, the row pays only that judge (each judge's answer is cached under its own request)", async () => {
  const store = new MemoryStore();
  let bDown = true;
  const fetch = byUpstream((up) => (up === "b" && bDown ? 500 : up === "a" ? "yes" : "no"));
  const results = [];
  const first = runner({ items: items(2), todo: [0, 1], fetch, cache: store, store, onResult: (x) => results.push(x) });
  await first.clock.run(first.r.start());
  assert.ok(results.every((x) => x.error && x.error.status === 500));
  assert.ok(results.every((x) => x.jury.members[0].verdict.passed === true && x.jury.members[1].error), "the row keeps the judge that answered");
  const paidA = fetch.calls.filter((c) => c.up === "a").length;
  assert.equal(paidA, 2);
  bDown = false;
  const again = [];
  const second = runner({ items: items(2), todo: [0, 1], fetch, cache: store, store, onResult: (x) => again.push(x) });
  await second.clock.run(second.r.start());
  assert.equal(fetch.calls.filter((c) => c.up === "a").length, paidA, "judge a is not asked twice");
  assert.equal(fetch.calls.filter((c) => c.up === "b").length, 4, "judge b asked again");
  assert.ok(again.every((x) => !x.error && x.cachedCalls === 1 && x.calls === 1));
  // Two judges with the same model, endpoint and messages but another upstream are two cache entries.
  const msgs = [{ role: "user", content: "Q: q0" }];
  assert.notEqual(await cacheKey({ ...A, model: "m", messages: msgs }), await cacheKey({ ...B, model: "m", messages: msgs }));
  assert.equal(await cacheKey({ endpoint: "/v1", model: "m", messages: msgs }), await cacheKey({ endpoint: "/v1", upstream: "", model: "m", messages: msgs }), "no upstream keeps the keys of before");
});

test("a judge without the key its endpoint needs holds the run, no call made by it; its key entered, the run goes on", async () => {
  let key = "";
  const fetch = byUpstream((up) => (up === "a" ? "yes" : "no"));
  const held = [];
  const results = [];
  const { r, clock } = runner({
    items: items(1),
    todo: [0],
    fetch,
    judges: [{ request: A }, { request: B, apiKey: () => key, keyMissing: () => !key }],
    onHold: (e) => held.push(e.kind),
    onResult: (x) => results.push(x),
  });
  const done = r.start();
  await clock.run(new Promise((res) => setTimeout(res, 20)));
  assert.deepEqual(held, ["no-key"]);
  assert.equal(fetch.calls.filter((c) => c.up === "b").length, 0, "no call without b's key");
  key = "sk-b";
  r.resume();
  await clock.run(done);
  assert.equal(results.length, 1);
  assert.equal(fetch.calls.find((c) => c.up === "b").key, "Bearer sk-b", "b's own key goes to b");
  assert.equal(fetch.calls.filter((c) => c.up === "a").every((c) => c.key === ""), true, "and not to a");
});

test("juryVerdict: the members' verdict shown is one that agrees with the jury; the jury's checks first", () => {
  const m = (passed, answer) => ({ judge: 0, verdict: { passed, score: passed ? 1 : 0, verdict: { answer }, checks: [] }, answers: [answer], repaired: false });
  const v = juryVerdict((x, o) => rj.jury(x, o), [m(false, "no"), m(true, "yes"), m(true, "yes")], juryRule({ rule: "majority" }));
  assert.equal(v.passed, true);
  assert.deepEqual(v.verdict, { answer: "yes" });
  assert.deepEqual(v.jury.votes, { passed: 2, failed: 1, undetermined: 0 });
  const none = juryVerdict((x, o) => rj.jury(x, o), [{ judge: 0, verdict: null, answers: [], repaired: false }, m(true, "yes")], juryRule({ rule: "majority" }));
  assert.equal(none.passed, null);
  assert.equal(none.checks[0].code, "jury.undetermined", "a judge that could not decide is a vote for cannot say");
  assert.equal(none.verdict, null, "no judge's verdict stands for an undetermined jury");
  assert.deepEqual(juryRule({ rule: "bogus" }), { rule: "majority" });
  assert.deepEqual(juryRule({ rule: "mean", pass_at: 3 }), { rule: "mean", pass_at: 3 });
  assert.deepEqual(juryRule({ rule: "all", pass_at: 3 }), { rule: "all" });
});

const config = {
  default_upstream: "local",
  upstream_host: "127.0.0.1:11434",
  upstreams: [
    { name: "local", host: "127.0.0.1:11434", server_key: false },
    { name: "openai", host: "api.openai.com", server_key: true },
    { name: "groq", host: "api.groq.com", server_key: false },
  ],
};
const proxyState = (cfg = config) => ({ config: cfg, endpoint: () => ({ mode: "proxy", baseURL: "http://h/v1" }) });

test("judges: the preferences' judges cleaned, the run's list with the page's first, keys by endpoint, labels", () => {
  assert.equal(cleanJudge({ via: "proxy", upstream: "groq", model: " " }), null, "no model");
  assert.equal(cleanJudge({ via: "direct", baseURL: "ftp://x", model: "m" }), null, "no http(s) URL");
  assert.deepEqual(cleanJudge({ via: "direct", baseURL: "https://api.x.ai/v1/", model: "grok" }), { via: "direct", baseURL: "https://api.x.ai/v1", model: "grok" });
  const p = { jury: { rule: "any", judges: [{ via: "proxy", upstream: "openai", model: "gpt-4o-mini" }, { via: "proxy", upstream: "groq", model: "" }] } };
  assert.deepEqual(juryChoice(p), { judges: [{ via: "proxy", upstream: "openai", model: "gpt-4o-mini" }], rule: "any" });
  assert.deepEqual(jurySettings(proxyState(), "llama3", {}), {}, "no judge added: a run of one judge");
  assert.deepEqual(jurySettings(proxyState(), "llama3", p), {
    judges: [
      { via: "proxy", upstream: "local", model: "llama3" },
      { via: "proxy", upstream: "openai", model: "gpt-4o-mini" },
    ],
    jury: { rule: "any" },
  });
  assert.equal(judgeKeyNeeded({ via: "proxy", upstream: "local", model: "m" }, config), false, "a local upstream");
  assert.equal(judgeKeyNeeded({ via: "proxy", upstream: "openai", model: "m" }, config), false, "an upstream with a server key");
  assert.equal(judgeKeyNeeded({ via: "proxy", upstream: "groq", model: "m" }, config), true);
  assert.equal(judgeKeyNeeded({ via: "proxy", upstream: "gone", model: "m" }, config), true, "an upstream the server no longer lists");
  assert.equal(judgeKeyNeeded({ via: "proxy", upstream: "groq", model: "m" }, { ...config, token: "required" }), false, "the token is what is missing");
  assert.equal(judgeKeyNeeded({ via: "direct", baseURL: "http://localhost:8000/v1", model: "m" }, null), false);
  assert.equal(judgeKeyNeeded({ via: "direct", baseURL: "https://api.openai.com/v1", model: "m" }, null), true);
  assert.equal(keyId({ via: "proxy", upstream: "", model: "m" }, config), "proxy:local", "the default upstream by its name");
  assert.equal(judgeLabel({ via: "proxy", upstream: "groq", model: "llama" }), "llama @ groq");
  assert.equal(judgeLabel({ via: "direct", baseURL: "https://api.x.ai/v1", model: "grok" }), "grok @ api.x.ai");
  assert.deepEqual(judgeRequest({ via: "proxy", upstream: "groq", model: "m" }, "http://h/v1"), { endpoint: "http://h/v1", upstream: "groq", model: "m" });
});

test("juryJudges: the page's key for the page's endpoint, each other endpoint's own key, never one for another", () => {
  const keys = { "proxy:groq": "gsk" };
  const st = { ...proxyState(), key: "sk-page", judgeKey: (id) => keys[id] || "" };
  const settings = { params: { temperature: 0 }, judges: [{ via: "proxy", upstream: "local", model: "llama3" }, { via: "proxy", upstream: "groq", model: "llama-70b" }, { via: "proxy", upstream: "openai", model: "gpt" }] };
  const js = juryJudges(settings, st, "http://h/v1");
  assert.deepEqual(js.map((j) => j.apiKey()), ["sk-page", "gsk", undefined]);
  assert.deepEqual(js.map((j) => j.keyMissing()), [false, false, false]);
  delete keys["proxy:groq"];
  assert.deepEqual(js.map((j) => j.keyMissing()), [false, true, false], "groq waits for its key");
  assert.deepEqual(js[1].request, { endpoint: "http://h/v1", upstream: "groq", model: "llama-70b", params: { temperature: 0 } });
  assert.equal(juryJudges({ judges: [settings.judges[0]] }, st, "x"), undefined, "one judge is no jury");
  assert.equal(juryJudges({}, st, "x"), undefined);
});

const member = (passed, score = null, extra = {}) => ({ judge: 0, verdict: passed === "x" ? null : { passed, score, verdict: {}, checks: [] }, answers: [String(passed)], repaired: false, ...extra });
const juryRow = (ms, passed) => ({ verdict: { passed, score: null, checks: [] }, error: null, answers: [], jury: { rule: "majority", members: ms } });

test("results/jury: each judge's status, the row's note, the judges' names", () => {
  const r = juryRow([member(true), member(false), member(null, 0.7)], null);
  assert.deepEqual(juryStatuses(r), ["passed", "failed", "scored"]);
  assert.deepEqual(juryStatuses(r, 0.5), ["passed", "failed", "passed"], "the threshold applies to each judge's score");
  assert.equal(juryNote(r, ["a", "b"]), "a ✓ · b ✗ · judge 3 ◆");
  assert.equal(juryNote(r), "judges ✓ ✗ ◆");
  const failed = juryRow([member(true), { judge: 1, verdict: null, answers: [], repaired: false, error: { kind: "http", status: 500, message: "HTTP 500" } }], null);
  assert.deepEqual(juryStatuses(failed), ["passed", "error"]);
  assert.equal(juryStatuses({ verdict: {} }), null);
  assert.deepEqual(juryNames({ judges: [{ via: "proxy", upstream: "a", model: "m1" }, { via: "direct", baseURL: "https://h.example/v1", model: "m2" }] }), ["m1 @ a", "m2 @ h.example"]);
  assert.deepEqual(juryNames({ judges: [{ via: "proxy", upstream: "a", model: "m1" }] }), [], "one judge is no jury");
});

test("stats/jury: each judge's κ against the labels and the jury's, and the κ between judges, all from rj.agreement", async () => {
  const { juryData, juryExportFields } = await import("../../web/stats/jury.js");
  // Six rows; labels T T F F T F. Judge a agrees on every row, judge b on four; the jury's row status given.
  const a = [true, true, false, false, true, false];
  const b = [true, false, false, true, true, false];
  const results = a.map((x, i) => juryRow([member(x), member(b[i])], x === b[i] ? x : null));
  const status = results.map((r) => (r.verdict.passed === true ? "passed" : r.verdict.passed === false ? "failed" : "undetermined"));
  results.push(undefined);
  status.push("pending");
  const labels = { kind: "boolean", column: "human", values: [true, true, false, false, true, false, true], unreadable: [] };
  const d = juryData(rj, { names: ["a", "b"], rule: "majority", results, status, labels });
  assert.equal(d.rows, 6, "the row not judged yet is left out");
  assert.equal(d.labels[0].kappa, rj.agreement(a, labels.values.slice(0, 6)).kappa);
  assert.equal(d.labels[0].kappa, 1);
  assert.equal(d.labels[1].kappa, rj.agreement(b, labels.values.slice(0, 6)).kappa);
  assert.equal(d.labels[2].name, "Jury (majority)");
  assert.equal(d.labels[2].compared, 4, "the jury's undetermined rows are not compared");
  assert.equal(d.matrix[0][1].kappa, rj.agreement(a, b).kappa);
  assert.equal(d.matrix[0][1].kappa, d.matrix[1][0].kappa, "κ is symmetric");
  // Hand-worked: a vs b agree on 4 of 6; each says pass of 3 → p_e = 1/2, κ = (2/3 − 1/2)/(1/2) = 1/3.
  assert.ok(Math.abs(d.matrix[0][1].kappa - 1 / 3) < 1e-12);
  const none = juryData(rj, { names: ["a", "b"], rule: "any", results, status, labels: null });
  assert.equal(none.labels, null, "without labels, only the matrix");
  const ex = juryExportFields({ settings: { judges: [{ via: "proxy", upstream: "x", model: "a" }, { via: "proxy", upstream: "y", model: "b" }], jury: { rule: "majority" } } }, results);
  assert.deepEqual(ex.keys, ["judge1_status", "judge1_passed", "judge1_score", "judge2_status", "judge2_passed", "judge2_score", "jury_rule", "judges"]);
  const row1 = ex.of(1);
  assert.equal(row1.judge1_passed, true);
  assert.equal(row1.judge2_passed, false);
  assert.equal(row1.judge2_status, "failed");
  assert.equal(row1.judges[1].name, "b @ y");
  assert.equal(ex.of(6).judge1_status, "pending");
  assert.equal(juryExportFields({ settings: {} }, results), null);
});

test("the setup line and the estimate count a jury's calls, rows × judges (with repeats, orders and a check-up's doubled cases)", async () => {
  const { setupLine } = await import("../../web/batch/setupline.js");
  const plan = { model: "m", params: { temperature: 0 }, repeats: 1, judges: ["m @ a", "n @ b"] };
  assert.match(setupLine({ rows: 28, plan }), /^28 rows × 2 judges = 56 calls · a jury of m @ a, n @ b · temperature 0/);
  assert.match(setupLine({ rows: 10, plan: { ...plan, repeats: 3, orders: 2 } }), /^10 rows × 3 repeats × 2 orders × 2 judges = 120 calls/);
  assert.match(setupLine({ rows: 60, plan, noun: "case", doubled: 6 }), /^60 cases \(6 in both orders\) × 2 judges = 132 calls/);
  assert.match(setupLine({ rows: 5, plan: { ...plan, judges: ["m @ a"] } }), /^5 calls, one per row · m ·/, "one judge is no jury");
});

test("juryProblem: a judge on an upstream the dev server does not list, or on a dev server the page has not, is said before any call", () => {
  const p = (upstream) => ({ jury: { judges: [{ via: "proxy", upstream, model: "m" }] } });
  assert.equal(juryProblem({ config }, p("groq")), "");
  assert.match(juryProblem({ config }, p("gone")), /Judge 2: this dev server has no upstream named gone/);
  assert.match(juryProblem({ config: null }, p("groq")), /Judge 2 calls the dev server, and this page has none/);
  assert.equal(juryProblem({ config: null }, { jury: { judges: [{ via: "direct", baseURL: "http://localhost:1/v1", model: "m" }] } }), "");
});

test("keyEntered: a jury's run held for a key goes on only once every judge has the key its endpoint needs", async () => {
  const { keyEntered } = await import("../../web/batch/openrun.js");
  const { RunState } = await import("../../web/batch/states.js");
  const { CallKind } = await import("../../web/model/callerror.js");
  let missing = true;
  let resumed = 0;
  const runner = { state: RunState.HELD, reason: { error: { kind: CallKind.NO_KEY } }, o: { judges: [{ keyMissing: () => false }, { keyMissing: () => missing }] }, resume: () => resumed++ };
  const said = [];
  const ctl = { going: new Map([["r1", { runner }]]), st: { ...proxyState(), key: "" }, persist: () => {}, say: (t) => said.push(t) };
  keyEntered(/** @type {any} */ (ctl));
  assert.equal(resumed, 0, "judge 2 still has no key: the run keeps waiting");
  missing = false;
  keyEntered(/** @type {any} */ (ctl));
  assert.equal(resumed, 1);
  assert.deepEqual(said, ["Key entered: the run goes on."]);
});
