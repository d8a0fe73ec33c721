// run.test.mjs: `ragjudge run` as CI runs it, a process against the fake upstream: a run that
// holds its gates (results file, report, the repair request, an input error never sent), the same
// command again asking nothing (the --out file is the record) and failing a gate it is now given
// (exit 1, saying which, with the figure), the key never written anywhere, even when the judge
// echoes it back, and a finished file that reads back into the very same file.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { load } from "../../web/ragjudge.js";
import { KEY, tmp, ragjudge, jsonl, dataset, verdictFor, rowOf, chatCalls } from "./cli.mjs";

const rj = await load();
/** @type {any} */
let fake;
before(async () => {
  fake = await startFake();
});
after(() => fake.close());

const N = 9;

test("a run: the page's verdicts in the results file and the report; the same command again asks nothing; a gate that fails exits 1", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(N, { blank: 7 }));
  fake.requests.length = 0;
  fake.answer = (prompt) => verdictFor(prompt);
  const args = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "results.jsonl", "--report", "report.html", "--concurrency", "3"];
  const first = await ragjudge([...args, "--min-pass-rate", "0.5"], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(first.code, 0, first.out + first.err);
  // Every call carried the key, in the header only; the input error (row 7) was never sent; row 5
  // was asked twice (its repair request).
  const calls = chatCalls(fake);
  assert.ok(calls.every((c) => c.auth === "Bearer " + KEY));
  assert.equal(calls.length, N - 1 + 1, "8 rows sent, one repair request");
  assert.ok(!calls.some((c) => rowOf(c.body.messages[0].content) === 7));
  assert.deepEqual(calls[0].body.temperature, 0);
  assert.deepEqual(calls[0].body.max_tokens, 2048);
  assert.equal(calls[0].body.stream, false);

  const rows = jsonl(join(dir, "results.jsonl"));
  assert.deepEqual(rows.map((r) => r.row), [1, 2, 3, 4, 5, 6, 7, 8, 9], "one line per row, in order");
  assert.deepEqual(rows.map((r) => r.status), ["passed", "passed", "failed", "passed", "passed", "failed", "error", "passed", "failed"]);
  assert.equal(rows[4].checks.at(-1).code, "repair.used");
  assert.equal(rows[4].answers.length, 2);
  assert.equal(rows[6].cause, "bad row inputs");
  assert.equal(rows[0].id, "q1");
  assert.deepEqual([rows[1].label, rows[1].agrees], [false, false]);
  assert.match(first.out, /✓ --min-pass-rate 50%: the pass rate is 62\.5% \(5 of 8 decided rows passed; 1 in error not counted\)\./);

  const html = readFileSync(join(dir, "report.html"), "utf8");
  assert.match(html, /^<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  assert.equal((html.match(/<details class="rp-row"/g) || []).length, N);
  assert.match(html, /data\.csv · Answer grounding/);
  assert.match(html, /data-ref="agreement-panel"/, "the labels' Agreement panel");

  // The same command with gates: nothing is asked again; the pass rate and κ are held to them.
  fake.requests.length = 0;
  const again = await ragjudge([...args, "--min-pass-rate", "0.9", "--min-kappa", "0.9"], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(again.code, 1, again.out + again.err);
  assert.equal(chatCalls(fake).length, 0, "rows already in results.jsonl are not asked again");
  assert.match(again.err, /results\.jsonl: 9 of 9 rows already judged there/);
  assert.match(again.out, /✗ --min-pass-rate 90%: the pass rate is 62\.5% \(5 of 8 decided rows passed; 1 in error not counted\), below 90%: the gate fails\./);
  // κ is the core's, over the 8 rows with a verdict and a label (row 2: the judge passed it, the label fails it).
  const a = rj.agreement([true, true, false, true, true, false, true, false], [true, false, false, true, true, false, true, false]);
  const k = String(Math.round(a.kappa * 100) / 100);
  assert.ok(a.kappa > 0.5 && a.kappa < 0.9, String(a.kappa));
  assert.ok(again.out.includes(`✗ --min-kappa 0.9: Cohen's κ is ${k} (95% interval `), again.out);
  assert.match(again.out, / over 8 rows compared with human_label, below 0\.9: the gate fails\. In words: the judge agrees with your reviewers beyond chance: substantial\.$/m);
  const kappaLine = again.out.split("\n").find((l) => l.startsWith("✗ --min-kappa"));
  assert.equal(kappaLine.split(`κ is ${k}`).length, 2, "κ's value is said once");
  assert.doesNotMatch(kappaLine, new RegExp(`κ ${k.replace(".", "\\.")}\\b`), kappaLine);
  // A finished file read back is written again unchanged: what a line holds is the row's result.
  assert.equal(readFileSync(join(dir, "results.jsonl"), "utf8").split("\n").length, N + 1);
  const rewritten = readFileSync(join(dir, "results.jsonl"), "utf8");
  assert.deepEqual(jsonl(join(dir, "results.jsonl")), rows);
  assert.ok(rewritten.endsWith("\n"));
});

test("repeats and their repair requests read back: the file a resumed run rewrites is byte for byte the one it read", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(6));
  fake.answer = (prompt) => verdictFor(prompt);
  const args = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "r.jsonl", "--repeats", "3", "--temperature", "0.7"];
  const first = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(first.code, 0, first.out + first.err);
  const before = readFileSync(join(dir, "r.jsonl"), "utf8");
  const rows = jsonl(join(dir, "r.jsonl"));
  assert.equal(rows[4].repeats.length, 3);
  assert.equal(rows[4].repeats[0].answers.length, 2, "the repeat's repair answer is kept");
  assert.equal(rows[2].majority, false);
  fake.requests.length = 0;
  const again = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(again.code, 0, again.out + again.err);
  assert.equal(chatCalls(fake).length, 0);
  assert.equal(readFileSync(join(dir, "r.jsonl"), "utf8"), before);
  // Another temperature is another run: refused, not mixed into the file.
  const other = await ragjudge([...args.slice(0, -1), "0.2"], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(other.code, 2);
  assert.match(other.err, /--out r\.jsonl holds rows judged with another model parameters \(temperature, max tokens\)/);
});

test("the key is never written: not in the results, the record, the report or the output, even when the judge echoes it", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(4));
  // The judge answers row 2 with the request's Authorization header, key and all.
  fake.answer = (prompt, id, req) => (rowOf(prompt) === 2 ? `No. (You sent ${req.auth}.)` : verdictFor(prompt));
  const res = await ragjudge(["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "r.jsonl", "--report", "r.html", "--key-env", "MY_JUDGE_KEY"], {
    cwd: dir,
    env: { MY_JUDGE_KEY: KEY },
  });
  assert.equal(res.code, 0, res.out + res.err);
  assert.ok(chatCalls(fake).some((c) => c.auth === "Bearer " + KEY), "the key was sent");
  const files = readdirSync(dir);
  assert.deepEqual(files.sort(), ["data.csv", "r.html", "r.jsonl", "r.jsonl.run.json"]);
  for (const f of files) assert.ok(!readFileSync(join(dir, f), "utf8").includes(KEY), f + " holds the key");
  assert.ok(!(res.out + res.err).includes(KEY));
  const row2 = jsonl(join(dir, "r.jsonl"))[1];
  assert.equal(row2.answers[0], "No. (You sent Bearer [redacted].)");

  // A key the endpoint refuses: exit 2, saying which variable to check; still nothing written.
  const refused = await ragjudge(["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-401", "--base-url", fake.url, "--out", "401.jsonl", "--key-env", "MY_JUDGE_KEY"], {
    cwd: dir,
    env: { MY_JUDGE_KEY: KEY },
  });
  assert.equal(refused.code, 2, refused.out + refused.err);
  assert.match(refused.err, /refused the key in MY_JUDGE_KEY \(401 Unauthorized\): check it\. The endpoint said: Incorrect API key provided/);
  for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), "utf8").includes(KEY), f + " holds the key");
});

test("a custom evaluator from a file (a starter, as My evaluators exports one): judged, recorded, and an edited definition is another run", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(4));
  const spec = JSON.parse(readFileSync(new URL("../../web/starters/answer-relevance.json", import.meta.url), "utf8"));
  writeFileSync(join(dir, "relevance.json"), JSON.stringify(spec));
  fake.requests.length = 0;
  fake.answer = (prompt) => ["", "Verdict: relevant", "The answer drifts.\nVerdict: partially relevant", "Verdict: irrelevant", "Verdict: relevant"][rowOf(prompt)];
  const args = ["run", "--evaluator-file", "relevance.json", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "r.jsonl"];
  const res = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(res.code, 0, res.out + res.err);
  assert.match(res.err, /question ← user_input \(RAGAS\)/);
  assert.ok(chatCalls(fake)[0].body.messages.at(-1).content.startsWith("Decide whether an answer addresses the question"));
  const rows = jsonl(join(dir, "r.jsonl"));
  assert.deepEqual(rows.map((r) => r.status), ["passed", "undetermined", "failed", "passed"]);
  assert.equal(rows[1].checks[0].code, "answer.neutral-label");
  const side = JSON.parse(readFileSync(join(dir, "r.jsonl.run.json"), "utf8"));
  assert.equal(side.run.evaluator, "answer-relevance");
  assert.equal(side.run.evaluatorSpec.prompt, spec.prompt);
  writeFileSync(join(dir, "relevance.json"), JSON.stringify({ ...spec, prompt: spec.prompt.replace("Do not judge", "Never judge") }));
  const edited = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(edited.code, 2, edited.out + edited.err);
  assert.match(edited.err, /--out r\.jsonl holds rows judged with another evaluator definition/);
});
