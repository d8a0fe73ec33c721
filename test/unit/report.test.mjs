// A report's data (web/report/data.js) is picked field by field from a run or an evaluation: no
// key, no endpoint address, no header ever reaches it, whatever the run's record holds; rows keep
// their statuses, causes, raw answers and the judge's reasons, read from real verdicts (rj.parse on
// the evaluators' worked examples). Needs the built wasm (make build).
import { test } from "node:test";
import assert from "node:assert/strict";

import { api } from "./rj.mjs";
import { reportName } from "../../web/report/build.js";
import { batchReportData, singleReportData, scrubWhere, safeParams, reasonsOf, evaluatorInfo, labelText, REPORT_FORMAT } from "../../web/report/data.js";
import { runCounts } from "../../web/results/counts.js";
import { scoreWords, judgeReasons } from "../../web/verdict/words.js";
import { promptText } from "../../web/evaluate/promptcard.js";

const rj = await api();
const byID = new Map(rj.evaluators().map((e) => [e.id, e]));

test("where calls went keeps the host only", () => {
  assert.equal(scrubWhere("via dev server → api.openai.com"), "via dev server → api.openai.com");
  assert.equal(scrubWhere("direct → https://alice:s3cret@llm.example.com:8443/v1?api-key=sk-123#x"), "direct → llm.example.com:8443");
  assert.equal(scrubWhere("direct → alice:s3cret@llm.example.com"), "direct → llm.example.com");
  assert.equal(scrubWhere(undefined), "");
});

test("model parameters: only the known ones, with plain values", () => {
  assert.deepEqual(safeParams({ temperature: 0, max_tokens: 1024, api_key: "sk-1", headers: { Authorization: "Bearer sk-2" }, seed: NaN, reasoning_effort: "low", top_p: "0.9; drop" }), { temperature: 0, max_tokens: 1024, reasoning_effort: "low" });
  assert.deepEqual(safeParams(null), {});
});

test("a batch run's data: every row, its status and cause, and nothing secret from the run's record", () => {
  const ev = byID.get("answer-grounding");
  const items = [
    { inputs: { answer: "Paris is in France.", facts: ["Paris is the capital of France."] } },
    { inputs: { answer: "Lyon is the capital.", facts: ["Paris is the capital of France."] } },
    { inputs: { answer: "Unreadable.", facts: ["x"] } },
    { inputs: { answer: "Failed call.", facts: ["x"] } },
    { error: "row 5: the answer column is empty" },
  ];
  const answers = ["yes", "no", "I cannot say."];
  const results = answers.map((a, i) => ({ index: i, verdict: rj.parse(ev.id, items[i].inputs, a), answers: [a], error: null, usage: { prompt_tokens: 10, completion_tokens: 1 }, calls: 1, cachedCalls: 0, attempts: 1, repaired: false }));
  results.push({ index: 3, verdict: null, answers: [], error: { kind: "http", status: 401, message: "The key was refused (401).", attempts: 1, detail: "" }, usage: { prompt_tokens: 0, completion_tokens: 0 }, calls: 1, cachedCalls: 0, attempts: 1 });
  const run = {
    id: "run-1",
    name: "ragas.jsonl",
    evaluator: ev.id,
    total: 5,
    createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    settings: { endpoint: "https://bob:pw-XYZ@llm.example.com/v1?api-key=sk-IN-URL", model: "gpt-4o-mini", where: "direct → llm.example.com", params: { temperature: 0, max_tokens: 512, api_key: "sk-IN-PARAMS" }, headers: { authorization: "Bearer sk-IN-HEADERS" } },
  };
  const counts = runCounts({ total: 5, results });
  const data = batchReportData({ run, ev, items, results, counts, state: "paused", version: rj.version, prompt: "P", now: new Date(Date.UTC(2026, 0, 3)) });
  const json = JSON.stringify(data);
  for (const secret of ["pw-XYZ", "sk-IN-URL", "sk-IN-PARAMS", "sk-IN-HEADERS", "bob", "/v1"]) assert.ok(!json.includes(secret), secret);
  assert.equal(data.format, REPORT_FORMAT);
  assert.equal(data.kind, "batch");
  assert.deepEqual(data.dataset, { name: "ragas.jsonl", rows: 5 });
  assert.equal(data.where, "direct → llm.example.com");
  assert.deepEqual(data.params, { temperature: 0, max_tokens: 512 });
  assert.deepEqual(data.run, { state: "paused", startedAt: "2026-01-02T03:04:05.000Z", total: 5, done: 4, threshold: null, repeats: 1 });
  assert.equal(data.generatedAt, "2026-01-03T00:00:00.000Z");
  assert.deepEqual(
    data.rows.map((r) => [r.n, r.status, r.cause, r.score]),
    [
      [1, "passed", null, 1],
      [2, "failed", null, 0],
      [3, "undetermined", "the answer gives no verdict", null],
      [4, "error", "key refused (401)", null],
      [5, "pending", null, null],
    ],
  );
  assert.equal(data.rows[0].text, "Paris is in France.");
  assert.deepEqual(data.rows[0].inputs.map((i) => [i.name, i.label]), [["answer", "Answer"], ["facts", "Facts"]]);
  assert.deepEqual(data.rows[2].answers, ["I cannot say."]);
  assert.equal(data.rows[2].checks[0].code, "answer.no-verdict");
  assert.equal(data.rows[3].note, "The key was refused (401).");
  assert.equal(data.rows[4].note, "row 5: the answer column is empty");
  assert.deepEqual(data.summary.cards.map((c) => [c.label, c.value]), [["pass rate", "50%"], ["mean score", "0.5"], ["undetermined", "1"], ["tokens", "33"]]);
  assert.equal(data.summary.histogram.bins.length, 10);
});

test("a row judged three times: each repeat's verdict and answers, the majority's note", () => {
  const ev = byID.get("answer-grounding");
  const inputs = { answer: "Paris is in France.", facts: ["Paris is the capital of France."] };
  const reps = ["yes", "no", "yes"].map((a) => ({ verdict: rj.parse(ev.id, inputs, a), answers: [a], repaired: false }));
  const result = { index: 0, verdict: reps[0].verdict, repeats: reps, answers: ["yes", "no", "yes"], error: null, usage: { prompt_tokens: 30, completion_tokens: 3 }, calls: 3, cachedCalls: 0, attempts: 3 };
  const run = { id: "r", name: "x.jsonl", evaluator: ev.id, total: 1, createdAt: 0, settings: { model: "m", repeats: 3, params: {} } };
  const data = batchReportData({ run, ev, items: [{ inputs }], results: [result], counts: runCounts({ total: 1, results: [result] }), state: "done" });
  assert.equal(data.run.repeats, 3);
  assert.deepEqual(data.rows[0].answers, []);
  assert.deepEqual(data.rows[0].repeats, [
    { label: "Repeat 1 of 3: ✓ Grounded · score 1", answers: ["yes"] },
    { label: "Repeat 2 of 3: ✗ Not grounded · score 0", answers: ["no"] },
    { label: "Repeat 3 of 3: ✓ Grounded · score 1", answers: ["yes"] },
  ]);
  assert.match(data.rows[0].note, /^repeats /);
  assert.match(data.summary.cards[0].sub, /each row's majority of 3 repeats/);
});

test("the judge's reasons, read from each evaluator's verdict", () => {
  const reasons = (id) => {
    const ev = byID.get(id);
    return reasonsOf(ev.view, rj.parse(id, ev.example.inputs, ev.example.answer).verdict);
  };
  const claims = reasons("claim-groundedness");
  assert.deepEqual(claims.map((r) => [r.label, r.state]), [["Claim c1", "pass"], ["Claim c2", "fail"], ["Claim c3", "pass"]]);
  assert.match(claims[1].notes.join("\n"), /discharged the next day: chunk 1 says discharge was on day 3/);
  const pairwise = reasons("pairwise-faithfulness");
  assert.deepEqual(pairwise.map((r) => [r.label, r.state]), [["Expected answer", "pass"], ["Actual answer", "fail"]]);
  assert.match(pairwise[1].text, /cites a reference that does not exist/);
  assert.deepEqual(reasons("rag-recall"), [], "a recall verdict's parts are its figures (ReportRow.recall)");
  assert.deepEqual(reasons("answer-grounding"), []);
  assert.deepEqual(reasonsOf("claims", null), []);
});

test("one evaluation's data, and a custom evaluator's template", () => {
  const ev = byID.get("claim-groundedness");
  const v = rj.parse(ev.id, ev.example.inputs, ev.example.answer);
  const data = singleReportData({ ev, inputs: ev.example.inputs, answer: ev.example.answer, verdict: v, prompt: "P", model: "judge-mini", where: "via dev server → api.openai.com", params: { temperature: 0 }, version: rj.version });
  assert.equal(data.kind, "single");
  assert.equal(data.rows.length, 1);
  assert.equal(data.rows[0].status, "failed");
  assert.equal(data.rows[0].score, 2 / 3);
  assert.deepEqual(data.rows[0].answers, [ev.example.answer]);
  assert.equal(data.evaluator.template, null);
  assert.equal(data.evaluator.custom, false);
  const custom = evaluatorInfo({ id: "tone", title: "Tone", custom: true, spec: { id: "tone", messages: [{ role: "system", content: "Be strict." }, { role: "user", content: "Is {{ answer }} polite?" }] } });
  assert.equal(custom.custom, true);
  assert.equal(custom.template, "[system]\nBe strict.\n\n[user]\nIs {{ answer }} polite?");
});

test("a custom evaluator's run: the report names the evaluator by its own id, not the run's id it is defined under", () => {
  // What custom/registry.js forRun gives for a run: the engine's entry under the run's id, with the evaluator's definition.
  const ev = { id: "run-mx50livy-9x66j1", runOf: "tone-check", title: "Tone check", custom: true, spec: { id: "tone-check", prompt: "{{ answer }}" } };
  const info = evaluatorInfo(ev);
  assert.equal(info.id, "tone-check");
  assert.equal(reportName({ dataset: { name: "support.csv" }, evaluator: info, generatedAt: "2026-12-01T18:00:00Z" }), "support-tone-check-report-2026-12-01.html");
  assert.equal(evaluatorInfo({ id: "answer-grounding", title: "Answer grounding" }).id, "answer-grounding");
});

test("a run with human labels and repeats: each row carries its label in words, whether the judge agrees, and whether it flipped", () => {
  const ev = byID.get("answer-grounding");
  const inputs = { answer: "Paris is in France.", facts: ["Paris is the capital of France."] };
  const rep = (a) => ({ verdict: rj.parse(ev.id, inputs, a), answers: [a], repaired: false });
  const row = (answers) => {
    const reps = answers.map(rep);
    const yes = answers.filter((a) => a === "yes").length;
    return { verdict: { ...reps[0].verdict, passed: yes * 2 > answers.length }, repeats: reps, answers, error: null, usage: { prompt_tokens: 3, completion_tokens: 3 }, calls: 3, cachedCalls: 0, attempts: 3 };
  };
  const results = [row(["yes", "yes", "yes"]), row(["no", "yes", "no"]), row(["no", "no", "no"])];
  const run = { id: "r", name: "x.csv", evaluator: ev.id, total: 4, createdAt: 0, settings: { model: "m", repeats: 3, params: {} } };
  const counts = runCounts({ total: 4, results });
  const labels = { column: "human_label", kind: "boolean", values: [true, true, null, false], agrees: [true, false, null, null] };
  const data = batchReportData({ run, ev, items: [{ inputs }, { inputs }, { inputs }, { inputs }], results, counts, state: "paused", labels });
  assert.equal(data.labelColumn, "human_label");
  assert.deepEqual(
    data.rows.map((r) => [r.label, r.agrees, r.split]),
    [
      ["✓ Grounded", true, false],
      ["✓ Grounded", false, true],
      ["no label", null, false],
      ["✗ Not grounded", null, false],
    ],
  );
  // Without labels or repeats, rows carry neither.
  const plain = batchReportData({ run: { ...run, settings: { model: "m", params: {} } }, ev, items: [{ inputs }], results: [results[0]], counts: runCounts({ total: 1, results: [results[0]] }), state: "done" });
  assert.equal(plain.labelColumn, null);
  assert.equal(plain.rows[0].label, undefined);
  assert.equal(plain.rows[0].split, undefined);
  assert.equal(labelText(ev, "number", 4), "4");
  assert.equal(labelText(ev, "number", null), "no label");
});

// promptfoo's llm-rubric as a custom evaluator: a system message that asks for JSON with a reason,
// the answer a reasoning model gives (its <think> block first, then the JSON).
const RUBRIC = {
  id: "rubric-report",
  title: "Rubric",
  messages: [
    { role: "system", content: "You are grading output according to a user-specified rubric. Respond with a JSON object {reason: string, pass: boolean, score: number}." },
    { role: "user", content: "<Output>{{ output }}</Output>\n<Rubric>{{ rubric }}</Rubric>" },
  ],
  inputs: [{ name: "output" }, { name: "rubric" }],
  output: { kind: "json", pass: "$.pass", score: "$.score", reason: "$.reason", min: 0, max: 1 },
};
const RUBRIC_ANSWER = '<think>The output thanks the customer; the rubric asks for politeness.</think>\n{"reason": "The answer thanks the customer and stays courteous.", "pass": true, "score": 0.9, "explanation": "Courtesy words: thanks, please."}';

test("one evaluation's report holds the system message, the judge's JSON reasoning and its <think> block, as the page shows them", () => {
  rj.define(RUBRIC);
  const ev = rj.evaluators().find((e) => e.id === RUBRIC.id);
  const inputs = { output: "Thanks for waiting, please tell me if it helps.", rubric: "Is it polite?" };
  const r = rj.render(ev.id, inputs);
  const v = rj.parse(ev.id, inputs, RUBRIC_ANSWER);
  const data = singleReportData({ ev, inputs, answer: RUBRIC_ANSWER, verdict: v, prompt: r.prompt, messages: r.messages, version: rj.version });
  // Every message the judge got, the system message first, each under its role.
  assert.deepEqual(data.messages, [
    { role: "system", content: RUBRIC.messages[0].content },
    { role: "user", content: r.prompt },
  ]);
  assert.equal(data.prompt, r.prompt);
  // The reasoning the verdict view shows (words.js judgeReasons), made by the same function.
  const row = data.rows[0];
  assert.deepEqual(
    row.reasons.map((x) => [x.label, x.text]),
    judgeReasons(v.verdict).map((x) => [x.label, x.text]),
  );
  assert.deepEqual(row.reasons.map((x) => [x.label, x.text]), [
    ["The judge's reason", "The answer thanks the customer and stays courteous."],
    ["Explanation", "Courtesy words: thanks, please."],
  ]);
  // The raw answer, its <think> block included, is there whole.
  assert.deepEqual(row.answers, [RUBRIC_ANSWER]);
  assert.match(row.answers[0], /<think>The output thanks the customer/);
  // The score as the page writes it: "0.9 / 1".
  assert.deepEqual(row.scoreText, { value: "0.9 / 1", words: "", exact: "" });
  // A render of one message has no message list: its prompt says it all.
  const one = byID.get("answer-grounding");
  const r1 = rj.render(one.id, one.example.inputs);
  assert.equal(singleReportData({ ev: one, inputs: one.example.inputs, answer: "yes", verdict: rj.parse(one.id, one.example.inputs, "yes"), prompt: r1.prompt, messages: r1.messages }).messages, null);
  // What Copy prompt copies and the report quotes: the system message too.
  assert.equal(promptText(r), `[system]\n${RUBRIC.messages[0].content}\n\n[user]\n${r.prompt}`);
  assert.equal(promptText(r1), r1.prompt);
});

test("scores in a report as the page writes them: '2 of 3 claims grounded', '4 / 5' with its exact value, none for a yes/no", () => {
  const row = (id, answer) => {
    const ev = byID.get(id);
    const v = rj.parse(id, ev.example.inputs, answer ?? ev.example.answer);
    const data = singleReportData({ ev, inputs: ev.example.inputs, answer: answer ?? ev.example.answer, verdict: v });
    assert.deepEqual(data.rows[0].scoreText, scoreWords(ev, v), id + ": the page's own words");
    return data.rows[0].scoreText;
  };
  assert.deepEqual(row("claim-groundedness"), { value: "2 of 3", words: "claims grounded", exact: "" });
  const recall = row("rag-recall");
  assert.equal(recall.value, "4 / 5");
  assert.match(recall.exact, /^exactly \S+/);
  assert.equal(row("answer-grounding"), null, "a yes/no's badge says it all");
  assert.equal(row("pairwise-faithfulness"), null);
  // An answer cut short has no score on the page, nor in the report.
  assert.equal(row("claim-groundedness", '{"claims": [{"claim_id": "c1", "grounded": tru'), null);
});

test("a batch report's prompt carries its messages", () => {
  rj.define(RUBRIC);
  const ev = rj.evaluators().find((e) => e.id === RUBRIC.id);
  const r = rj.render(ev.id, { output: "o", rubric: "r" });
  const run = { id: "run-m", name: "m.jsonl", evaluator: ev.id, total: 0, createdAt: Date.UTC(2026, 0, 1), settings: {} };
  const data = batchReportData({ run, ev, items: [], results: [], counts: runCounts({ total: 0, results: [] }), state: "done", prompt: r.prompt, messages: r.messages });
  assert.deepEqual(data.messages.map((m) => m.role), ["system", "user"]);
});

test("a recall evaluation's report holds the page's figures: a bar per passage and the recomputed formula against the judge's lines (finding 19)", async () => {
  const { buildReport } = await import("../../web/report/build.js");
  const { passageLabels } = await import("../../web/verdict/recall.js");
  const { Document } = await import("../../cli/dom.mjs");
  const ev = byID.get("rag-recall");
  const { inputs, answer } = ev.example;
  const data = singleReportData({ ev, inputs, answer, verdict: rj.parse(ev.id, inputs, answer), passageLabels: passageLabels(rj, inputs.passage_gt) });
  assert.equal(data.rows[0].recall.max, 5);
  const html = await buildReport(data, { css: "", doc: /** @type {any} */ (new Document()) });
  const bars = [...html.matchAll(/<li class="bar bar-(essential|bonus)"[^>]*>.*?<\/li>/g)].map((m) => m[0]);
  const passages = rj.passages(inputs.passage_gt);
  assert.equal(bars.length, passages.essential.length + passages.bonus.length, "a bar per passage");
  assert.match(bars[0], /<strong>Essential 1<\/strong><span class="bar-passage">Photosynthesis converts light energy/);
  assert.match(bars[0], /<span class="bar-fill" style="width: \d+(\.\d+)?%;?"><\/span>.*<span class="bar-value">\d(\.\d+)? \/ 5<\/span>/);
  assert.match(html, /data-ref="formula"/);
  assert.match(html, /<td class="line-state">✓ (agrees|right, rounded per step)<\/td>/, "the judge's arithmetic, checked");
  // A batch run of rag-recall: each row holds the same, without the passages' words.
  const batch = batchReportData({
    run: { id: "r", name: "d", total: 1, createdAt: 0, settings: {} }, ev, items: [{ inputs }],
    results: [{ index: 0, verdict: rj.parse(ev.id, inputs, answer), answers: [answer], error: null, calls: 1, cachedCalls: 0, attempts: 1, usage: { prompt_tokens: 1, completion_tokens: 1 } }],
    counts: runCounts({ total: 1, results: [{ index: 0, verdict: rj.parse(ev.id, inputs, answer), answers: [answer] }] }), state: "done",
  });
  assert.ok(batch.rows[0].recall && batch.rows[0].recall.labels === null);
});
