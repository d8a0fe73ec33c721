// resume.test.mjs: a run stopped mid-way goes on where it stopped. Killed with SIGKILL while
// calls are in flight (a crash: nothing is flushed, no handler runs), the --out file keeps every
// row answered before; the same command then asks only the other rows, each once: no row whose
// answer was received is paid twice, none is lost. Ctrl+C (SIGINT) cancels the calls in flight,
// writes the file in row order with the rest pending, and exits 130; the same command finishes.
// The fake upstream holds the calls the test wants in flight (its answer is a promise), so the
// test decides when the run moves, never the machine's speed.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { waitFor } from "../e2e/batch-env.mjs";
import { KEY, tmp, start, ragjudge, jsonl, dataset, verdictFor, rowOf, chatCalls, fileLines } from "./cli.mjs";

/** @type {any} */
let fake;
before(async () => {
  fake = await startFake();
});
after(() => fake.close());

const N = 12;
const ANSWERED = 5; // rows answered at once; the others are held in flight

/** holding answers rows 1..ANSWERED at once and holds every other call until release(). */
function holding() {
  /** @type {(() => void)[]} */
  const held = [];
  const answer = (prompt) => {
    if (rowOf(prompt) <= ANSWERED) return verdictFor(prompt);
    return new Promise((resolve) => held.push(() => resolve(verdictFor(prompt))));
  };
  return { answer, held, release: () => held.splice(0).forEach((f) => f()) };
}

/**
 * settled is the moment a run against holding() can go no further: every call slot holds a call
 * in flight, and every row whose calls were all answered (rows up to ANSWERED; row 5 once its
 * repair request was) is in the file. Which rows those are depends on the order the calls went
 * out (row 5's repair request waits for a slot like any call), so it is read from the requests.
 */
function settled(h, concurrency, out) {
  if (h.held.length < concurrency) return null;
  const done = new Set();
  for (const c of fake.requests) {
    if (c.path !== "/chat/completions") continue;
    const r = rowOf(c.body.messages[0].content);
    if (r > ANSWERED) continue;
    if (r !== 5 || c.body.messages.length === 3) done.add(r);
  }
  return fileLines(out) === done.size ? done : null;
}

/** rowsAsked is each row's number of chat calls among requests. */
function rowsAsked(requests) {
  const n = new Map();
  for (const c of requests) if (c.path === "/chat/completions") n.set(rowOf(c.body.messages[0].content), (n.get(rowOf(c.body.messages[0].content)) || 0) + 1);
  return n;
}

test("killed with SIGKILL while calls are in flight: the same command asks only the rows not in --out, each once", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(N));
  // Row 5's first answer is unreadable: it is answered (twice, its repair request) before the kill.
  const args = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "results.jsonl", "--concurrency", "3"];
  const h = holding();
  fake.answer = h.answer;
  fake.requests.length = 0;
  const p = start(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  const out = join(dir, "results.jsonl");
  const done = await waitFor(async () => settled(h, 3, out), 60_000, "every slot holding a call, the answered rows written");
  p.child.kill("SIGKILL");
  const killed = await p.result();
  assert.equal(killed.signal, "SIGKILL");
  const first = rowsAsked(fake.requests);
  const kept = jsonl(out);
  const keptRows = kept.map((r) => r.row).sort((a, b) => a - b);
  assert.deepEqual(keptRows, [...done].sort((a, b) => a - b), "every row answered is in the file, once");
  assert.ok(keptRows.length >= ANSWERED - 1, `rows answered before the kill: ${keptRows}`);
  assert.equal([...first.keys()].filter((r) => r > ANSWERED).length, 3, "three calls in flight at the kill");

  // The same command: the rows in the file are not asked again; every other row once.
  h.release(); // answers to a process that is gone
  fake.answer = (prompt) => verdictFor(prompt);
  fake.requests.length = 0;
  const again = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(again.code, 0, again.out + again.err);
  assert.ok(again.err.includes(`results.jsonl: ${done.size} of 12 rows already judged there; they are not asked again`), again.err);
  const second = rowsAsked(fake.requests);
  const rest = Array.from({ length: N }, (_, i) => i + 1).filter((r) => !done.has(r));
  assert.deepEqual([...second.keys()].sort((a, b) => a - b), rest, "only the rows not in the file are asked");
  for (const [r, n] of second) assert.equal(n, r === 5 ? 2 : 1, `row ${r} asked once (row 5: and its repair request)`);
  for (const r of done) assert.equal(first.get(r), r === 5 ? 2 : 1, `row ${r} was paid once`);
  const rows = jsonl(out);
  assert.deepEqual(rows.map((r) => r.row), Array.from({ length: N }, (_, i) => i + 1), "every row, once, in order");
  assert.ok(rows.every((r) => r.status === (r.row % 3 === 0 ? "failed" : "passed")), rows.map((r) => r.status).join());
  assert.equal(rows[4].checks.at(-1).code, "repair.used", "row 5's repair");
});

test("Ctrl+C: the calls in flight are cancelled, the file is written in row order with the rest pending, exit 130; the same command finishes", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "data.csv"), dataset(N));
  const args = ["run", "--evaluator", "answer-grounding", "--data", "data.csv", "--model", "judge-mini", "--base-url", fake.url, "--out", "results.jsonl", "--report", "report.html", "--concurrency", "2", "--min-pass-rate", "0.5"];
  const h = holding();
  fake.answer = h.answer;
  fake.requests.length = 0;
  const p = start(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  const out = join(dir, "results.jsonl");
  const done = await waitFor(async () => settled(h, 2, out), 60_000, "every slot holding a call, the answered rows written");
  p.child.kill("SIGINT");
  const stopped = await p.result();
  assert.equal(stopped.code, 130, stopped.out + stopped.err);
  assert.match(stopped.err, /SIGINT: stopping; the calls in flight are cancelled/);
  assert.match(stopped.err, new RegExp(`Interrupted: ${done.size} of 12 rows done\\. Run the same command again to go on from results\\.jsonl\\.`));
  assert.doesNotMatch(stopped.out, /--min-pass-rate/, "no gate is checked on a run that did not end");
  const rows = jsonl(out);
  assert.deepEqual(rows.map((r) => r.row), Array.from({ length: N }, (_, i) => i + 1), "written in row order");
  assert.deepEqual(rows.filter((r) => r.status !== "pending").map((r) => r.row), [...done].sort((a, b) => a - b), "the rest pending");
  assert.match(readFileSync(join(dir, "report.html"), "utf8"), /Cancelled|cancelled/, "the report of the run as it stopped");

  h.release();
  fake.answer = (prompt) => verdictFor(prompt);
  fake.requests.length = 0;
  const again = await ragjudge(args, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(again.code, 0, again.out + again.err);
  assert.deepEqual([...rowsAsked(fake.requests).keys()].sort((a, b) => a - b), Array.from({ length: N }, (_, i) => i + 1).filter((r) => !done.has(r)));
  assert.ok(jsonl(out).every((r) => r.status !== "pending"));
  assert.match(again.out, /✓ --min-pass-rate 50%/);
});
