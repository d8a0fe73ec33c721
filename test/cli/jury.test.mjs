// jury.test.mjs: `ragjudge run --judge MODEL@URL`, a jury in the terminal, against two fake
// upstreams that disagree on known rows: each row asked of each judge at its own URL, with its own
// key (the run's key only to the run's endpoint), the row's verdict the core's jury, each judge's
// verdict in the results file and the jury's panel in the report; a jury's --out is not resumed
// (refused, not half read) and a run of one judge refuses it too; bad --judge and --jury-rule.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { load } from "../../web/ragjudge.js";
import { KEY, tmp, ragjudge, jsonl, dataset, verdictFor, rowOf, chatCalls } from "./cli.mjs";

const rj = await load();
/** @type {any} */
let a;
/** @type {any} */
let b;
before(async () => {
  a = await startFake();
  b = await startFake();
});
after(async () => {
  await a.close();
  await b.close();
});

const N = 9;
/** What judge b answers: judge a's verdict turned over on every 4th row, and row 5 readable at once. */
const bSays = (prompt) => {
  const r = rowOf(prompt);
  if (r === 5) return "Yes";
  const yes = verdictFor(prompt) === "Yes";
  return (r % 4 === 0 ? !yes : yes) ? "Yes" : "No";
};
const yes = (t) => (t === "Yes" ? true : t === "No" ? false : null);

test("a jury of two at two URLs: each row asked of each, each judge's verdict and the jury's in the results and the report", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(N));
  a.requests.length = 0;
  b.requests.length = 0;
  a.answer = (prompt) => verdictFor(prompt);
  b.answer = (prompt) => bSays(prompt);
  const args = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", a.url, "--judge", `judge-b@${b.url}`, "--out", "results.jsonl", "--report", "report.html", "--concurrency", "3"];
  const first = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(first.code, 0, first.out + first.err);
  assert.match(first.err, /on a jury of judge-mini @ 127\.0\.0\.1:\d+, judge-b @ 127\.0\.0\.1:\d+ \(majority\)/);
  const ac = chatCalls(a);
  const bc = chatCalls(b);
  assert.equal(ac.length, N + 1, "a: every row, and row 5's repair request");
  assert.equal(bc.length, N, "b: every row");
  assert.ok(ac.every((c) => c.auth === "Bearer " + KEY), "the run's key to the run's endpoint");
  assert.ok(bc.every((c) => !c.auth), "never to another endpoint");
  assert.ok(bc.every((c) => c.body.model === "judge-b"));

  const rows = jsonl(join(dir, "results.jsonl"));
  assert.equal(rows.length, N);
  for (const row of rows) {
    const r = row.row;
    const prompt = `row-${r}:`;
    const va = r === 5 ? true : yes(verdictFor(prompt));
    const vb = yes(bSays(prompt));
    assert.equal(row.judge1_passed, va, `row ${r}, judge 1`);
    assert.equal(row.judge2_passed, vb, `row ${r}, judge 2`);
    assert.equal(row.passed, va === vb ? va : null, `row ${r}, the jury`);
    if (va !== vb) assert.equal(row.cause, "the jury split evenly");
    assert.equal(row.jury_rule, "majority");
  }
  const html = readFileSync(join(dir, "report.html"), "utf8");
  assert.match(html, /data-ref="jury-panel"/);
  assert.match(html, /a jury of 2: judge-mini @ 127\.0\.0\.1:\d+, judge-b @ 127\.0\.0\.1:\d+/);
  // The κ between the judges is the core's over their verdicts.
  const kab = rj.agreement(rows.map((x) => x.judge1_passed), rows.map((x) => x.judge2_passed)).kappa;
  assert.match(html, new RegExp(`data-i="0" data-j="1" data-kappa="${String(kab).replace(".", "\\.")}"`));

  // The same command again: a jury's --out is refused, not read back as one judge's.
  const again = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(again.code, 2, again.err);
  assert.match(again.err, /a jury's --out is not resumed yet/);
  // A run of one judge over it is refused too, saying the jury differs.
  const single = await ragjudge(args.filter((x, i) => x !== "--judge" && args[i - 1] !== "--judge"), { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(single.code, 2, single.err);
  assert.match(single.err, /holds rows judged with another jury \(--judge, --jury-rule\)/);
});

test("--judge and --jury-rule: a bad spec, a missing key variable, a rule without a jury, an unknown rule are usage errors (exit 2), nothing asked", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(3));
  a.requests.length = 0;
  const base = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", a.url];
  for (const [extra, want] of [
    [["--judge", "judge-b"], /--judge takes MODEL@URL/],
    [["--judge", `judge-b@${b.url}#NO_SUCH_KEY_VAR`], /the environment has no NO_SUCH_KEY_VAR/],
    [["--jury-rule", "all"], /a jury needs a judge beside --model/],
    [["--judge", `judge-b@${b.url}`, "--jury-rule", "most"], /--jury-rule takes majority, all, any, mean, not "most"/],
  ]) {
    const r = await ragjudge([...base, ...extra], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    assert.equal(r.code, 2, extra.join(" ") + ": " + r.err);
    assert.match(r.err, want);
  }
  assert.equal(chatCalls(a).length, 0);
  // A judge's URL that is not an API (404 for every row) holds the run and says which options to check.
  const r = await ragjudge([...base, "--judge", `judge-b@${b.url}/nothing-here`], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /A judge of the jury could not be asked, and every row would fail alike: .*404.*each --judge MODEL@URL/s);
});
