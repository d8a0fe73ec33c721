// checkup.test.mjs: `ragjudge checkup` as CI runs it, a process against the fake upstream answering
// with the check-up's fake judges (test/e2e/checkup-judges.mjs): a judge that catches every case
// passes its gate (exit 0), one that always says yes fails it (exit 1) saying the figure, which is
// the one the page's own modules compute for the same dataset, seed and answers, case by case; a
// judge whose answers say nothing leaves no case decided, which fails the gate too; a check-up
// killed with SIGKILL mid-way goes on from --out without paying for any case twice, a pairwise one
// judged in both orders included; bad arguments exit 2 before any call.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFake } from "../e2e/fake-upstream.mjs";
import { waitFor } from "../e2e/batch-env.mjs";
import { judgeAnswer, groundingJSONL, PAIRWISE_ROWS, pairwiseSlots } from "../e2e/checkup-judges.mjs";
import { load } from "../../web/ragjudge.js";
import { detectMatches, prepareItems } from "../../web/batch/mapping.js";
import { checkRows } from "../../web/batch/preview.js";
import { planCheckup, checkupSource } from "../../web/checkup/cases.js";
import { gradeCheckup } from "../../web/checkup/grade.js";
import { KEY, tmp, start, ragjudge, inProcess, jsonl, chatCalls, fileLines } from "./cli.mjs";

const rj = await load();
/** @type {any} */
let fake;
before(async () => {
  fake = await startFake();
});
after(() => fake.close());

const SEED = "4242";
const ROWS = "6";

/**
 * pageGrades is the check-up the page's own modules make of text (a dataset of evaluator id) with
 * seed and n rows, judged by model as the fake judges answer, graded as the page grades it.
 */
async function pageGrades(text, name, id, model, { seed = Number(SEED), n = Number(ROWS) } = {}) {
  const ev = rj.evaluators().find((e) => e.id === id);
  const table = rj.readDataset(text, undefined, name);
  const { mapping } = detectMatches(rj, ev, table.columns);
  const checked = await checkRows(rj, ev, prepareItems(rj, ev, table.rows, mapping));
  const src = checkupSource(ev, { name, table, mapping, items: checked.items, ev }, "dataset");
  const plan = await planCheckup(rj, id, src.rows, { n, seed });
  const results = plan.items.map((it) => {
    const prompt = rj.render(id, it.inputs).messages.map((m) => m.content).join("\n");
    const answer = judgeAnswer(prompt, id, { body: { model } });
    return { verdict: rj.parse(id, it.inputs, answer), answers: [answer], error: null };
  });
  return gradeCheckup(rj, plan.items, results);
}

const args = (dir, model, more = []) => ["checkup", "--evaluator", "answer-grounding", "--data", join(dir, "facts.jsonl"), "--model", model, "--base-url", fake.url, "--seed", SEED, "--rows", ROWS, ...more];

test("a judge that catches every case holds the gate (exit 0); one that always says yes fails it (exit 1), with the page's figure and outcomes, case by case", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "facts.jsonl"), groundingJSONL());
  fake.answer = judgeAnswer;
  fake.requests.length = 0;
  const right = await ragjudge(args(dir, "judge-right", ["--out", "right.jsonl", "--report", "right.html", "--min-catch-rate", "0.8"]), { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(right.code, 0, right.out + right.err);
  const page = await pageGrades(groundingJSONL(), "facts.jsonl", "answer-grounding", "judge-right");
  const cases = page.cases.length;
  assert.ok(cases >= 20, `cases: ${cases}`);
  // The cases and what they cost are said before the first call.
  const plan = right.err.indexOf(`${cases} cases from 6 rows: ${cases} calls, one per case · judge-right · temperature 0 · max tokens 2,048`);
  assert.ok(plan >= 0 && plan < right.err.indexOf("Judging"), right.err);
  assert.match(right.err, /A fact with a number changed +Not grounded +5 +1 row: no fact states a number/);
  assert.equal(chatCalls(fake).length, cases);
  assert.ok(chatCalls(fake).every((c) => c.auth === "Bearer " + KEY));
  assert.match(right.out, new RegExp(`Catch rate: 100% \\(${cases} of ${cases} decided cases; 95% interval \\d+–100%\\) {2}✓ none missed`));
  assert.match(right.out, /over 80% · MT-Bench[\s\S]*about 55% · ContextualJudgeBench[\s\S]*GroUSE/, "the reference points");
  assert.match(right.out, /No case missed\./);
  assert.match(right.out, new RegExp(`✓ --min-catch-rate 80%: the catch rate is 100%, 95% interval \\d+–100% \\(${cases} of ${cases} decided cases caught\\)\\.`));
  assert.doesNotMatch(right.err, /MaxListeners|Warning/);
  const lines = jsonl(join(dir, "right.jsonl"));
  assert.equal(lines.length, cases);
  assert.ok(lines.every((l) => l.outcome === "caught"));
  const html = readFileSync(join(dir, "right.html"), "utf8");
  assert.match(html, /data-ref="checkup-panel" data-caught="\d+" data-missed="0"/);
  assert.match(html, /\.cu-gauge/, "the check-up's stylesheet is in the report");
  for (const f of ["right.jsonl", "right.jsonl.run.json", "right.html"]) assert.ok(!readFileSync(join(dir, f), "utf8").includes(KEY), f);

  fake.requests.length = 0;
  const yes = await ragjudge(args(dir, "judge-yes", ["--out", "yes.jsonl", "--min-catch-rate", "80%"]), { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(yes.code, 1, yes.out + yes.err);
  const p = await pageGrades(groundingJSONL(), "facts.jsonl", "answer-grounding", "judge-yes");
  const o = p.matrix.overall;
  assert.ok(o.caught > 0 && o.missed > 0);
  const pct = (x) => Math.round(x * 100);
  const rate = Math.round(o.catch.rate * 1000) / 10;
  assert.ok(
    yes.out.includes(`✗ --min-catch-rate 80%: the catch rate is ${rate}%, 95% interval ${pct(o.catch.ci[0])}–${pct(o.catch.ci[1])}% (${o.caught} of ${o.caught + o.missed} decided cases caught), below 80%: the gate fails.`),
    yes.out,
  );
  // Case by case, the page's outcome for the same dataset, seed and answers.
  const got = jsonl(join(dir, "yes.jsonl")).map((l) => [l.checkup_row, l.failure_mode, l.outcome, l.right_verdict]);
  assert.deepEqual(got, p.cases.map((c) => [c.row + 1, c.transform, c.outcome, c.expected]));
  assert.match(yes.out, /Missed cases \(\d+\):\n {2}A sentence from another row: 6 missed · right verdict: Not grounded\n {4}✗ Row \d, read ✓ Grounded: /);
  assert.match(yes.out, /It misses most of: a sentence from another row/);
});

test("no case decided is no pass: a judge whose answers say nothing fails the gate (exit 1), saying so", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "facts.jsonl"), groundingJSONL());
  fake.answer = () => "I would rather not say.";
  const r = await ragjudge(args(dir, "judge-mute", ["--rows", "2", "--min-catch-rate", "0.5"]), { cwd: dir, env: { OPENAI_API_KEY: KEY } });
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out, /Catch rate: – \(no case decided\)/);
  assert.match(r.out, /✗ --min-catch-rate 50%: no case was decided, so there is no catch rate \(0 of 0 decided cases caught; \d+ undetermined not counted\): the gate fails\./);
});

/**
 * caseKey names the case a prompt asks about: the prompt itself, or for a pairwise prompt the same
 * for both its orders (its two answers in either slot).
 */
function caseKey(prompt) {
  const [a, b] = pairwiseSlots(prompt);
  return a || b ? prompt.replace(a, "\u0000").replace(b, "\u0000") + [a, b].sort().join("\u0001") : prompt;
}

/** holding answers every call of the first `answered` cases asked about at once, and holds the others' until release(). */
function holding(answered) {
  const held = [];
  const seen = [];
  const answer = (prompt, id, rec) => {
    const k = caseKey(prompt);
    if (!seen.includes(k)) seen.push(k);
    if (seen.indexOf(k) < answered) return judgeAnswer(prompt, id, rec);
    return new Promise((resolve) => held.push(() => resolve(judgeAnswer(prompt, id, rec))));
  };
  return { answer, held, seen, release: () => held.splice(0).forEach((f) => f()) };
}

/** prompts are the prompts of the fake's chat calls. */
const prompts = () => chatCalls(fake).map((c) => c.body.messages.map((m) => m.content).join("\n"));

const ANSWERED = 3; // cases answered before the kill; every other call is held in flight

for (const kind of ["answer-grounding", "pairwise-faithfulness, both orders"]) {
  test(`killed with SIGKILL mid-way (${kind}): the same command pays for no case twice and finishes the check-up`, async () => {
    const dir = tmp();
    const pairwise = kind.startsWith("pairwise");
    writeFileSync(join(dir, "data.jsonl"), pairwise ? PAIRWISE_ROWS.map((r) => JSON.stringify(r)).join("\n") + "\n" : groundingJSONL());
    const a = ["checkup", "--evaluator", pairwise ? "pairwise-faithfulness" : "answer-grounding", "--data", "data.jsonl", "--model", pairwise ? "judge-first" : "judge-yes", "--base-url", fake.url];
    a.push("--seed", SEED, "--rows", "4", "--out", "cases.jsonl", "--concurrency", "3", ...(pairwise ? ["--both-orders"] : []));
    const h = holding(ANSWERED);
    fake.answer = h.answer;
    fake.requests.length = 0;
    const p = start(a, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    const out = join(dir, "cases.jsonl");
    // Settled: every slot holds a call, and the cases answered are in the file.
    await waitFor(async () => (h.held.length >= 3 && fileLines(out) === ANSWERED) || null, 60_000, "every slot holding a call, the answered cases written");
    p.child.kill("SIGKILL");
    assert.equal((await p.result()).signal, "SIGKILL");
    const paid = new Set(prompts().filter((q) => h.seen.indexOf(caseKey(q)) < ANSWERED));
    assert.equal(paid.size, ANSWERED * (pairwise ? 2 : 1));
    h.release(); // answers to a process that is gone

    fake.answer = judgeAnswer;
    fake.requests.length = 0;
    // At the default concurrency (the last --concurrency given wins), with a report.
    const again = await ragjudge([...a, "--report", "report.html", "--concurrency", "8"], { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    assert.equal(again.code, 0, again.out + again.err);
    assert.doesNotMatch(again.err, /MaxListenersExceededWarning/, "calls waiting for a slot are no leak to warn of");
    assert.match(again.err, new RegExp(`cases\\.jsonl: ${ANSWERED} of \\d+ cases already judged there; they are not asked again\\.`));
    const second = prompts();
    assert.deepEqual(second.filter((q) => paid.has(q)), [], "no call answered before the kill is asked again");
    assert.equal(new Set(second).size, second.length, "each call once");
    const lines = jsonl(out);
    assert.equal(second.length, (lines.length - ANSWERED) * (pairwise ? 2 : 1), "every other case asked, once");
    assert.ok(lines.every((l) => l.status !== "pending" && ["caught", "missed", "undetermined"].includes(l.outcome)), JSON.stringify(lines.map((l) => l.outcome)));
    if (pairwise) {
      // Every case judged in both orders keeps both orders' answers; the position figures count the
      // cases judged before the kill too.
      assert.ok(lines.every((l) => Array.isArray(l.exchanged_answers) && l.exchanged_answers[0].length === 1));
      assert.match(again.out, new RegExp(`\\d+% position flips: \\d+ of ${lines.length} judgements changed`));
      assert.match(readFileSync(join(dir, "report.html"), "utf8"), new RegExp(`data-ref="position-panel" data-flips="\\d+" data-compared="${lines.length}"`));
    }
    // Read back once more, the file and the figures do not move and nothing is asked.
    const file = readFileSync(out, "utf8");
    fake.requests.length = 0;
    const third = await ragjudge(a, { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    assert.equal(chatCalls(fake).length, 0);
    assert.equal(readFileSync(out, "utf8"), file);
    assert.equal(third.out.split("\nresults:")[0], again.out.split("\nresults:")[0]);
  });
}

test("bad arguments and input exit 2 before any call, saying what", async () => {
  const dir = tmp();
  writeFileSync(join(dir, "facts.jsonl"), groundingJSONL());
  const base = ["checkup", "--evaluator", "answer-grounding", "--data", join(dir, "facts.jsonl"), "--model", "m", "--base-url", "http://127.0.0.1:9/v1"];
  const refused = async (a, re) => {
    const r = await inProcess(a, {});
    assert.equal(r.code, 2, `exit ${r.code} for ${a.join(" ")}: ${r.out}${r.err}`);
    assert.match(r.err, re);
  };
  await refused(["checkup", "--evaluator", "answer-grounding", "--model", "m"], /missing --data FILE \(the dataset the cases are made from\), or --example/);
  await refused([...base, "--example"], /--data and --example both name where the cases come from/);
  await refused([...base, "--rows", "0"], /--rows takes an integer from 1 to 200, not "0"\./);
  await refused([...base, "--seed", "1.5"], /--seed takes a whole number from 0 to 2147483647, not "1\.5"\./);
  await refused([...base, "--min-catch-rate", "1.2"], /--min-catch-rate takes a number from 0 to 1 \(or a percentage, 90%\), not "1\.2"\./);
  await refused([...base, "--min-pass-rate", "0.5"], /ragjudge checkup: unknown option --min-pass-rate/);
  await refused([...base, "--both-orders"], /--both-orders exchanges the two answers a pairwise evaluator compares; answer-grounding judges one answer\./);
  await refused(["checkup", "--evaluator", "answer-grounding", "--example", "--map", "answer=x", "--model", "m"], /--map maps a dataset's columns, and --example has none/);
  // A custom evaluator without its check-up's right verdicts: no case can be made, and it says why.
  const spec = { id: "addresses-question", prompt: "Question: {{ question }}\nAnswer: {{ answer }}\nDoes the answer address the question? Reply yes or no.", inputs: [{ name: "question" }, { name: "answer", judged: true }], output: { kind: "yes-no" } };
  writeFileSync(join(dir, "ev.json"), JSON.stringify(spec));
  await refused(["checkup", "--evaluator-file", join(dir, "ev.json"), "--data", join(dir, "facts.jsonl"), "--model", "m", "--map", "question=question"], /No case can be made of these rows: .*its check-up needs the right verdict of each generic case/);
  const help = await inProcess(["checkup", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /--min-catch-rate R/);
  assert.match(help.out, /--seed S/);
});
