// Tests of the batch data modules: cache key, status and cause, aggregate, exports, resume.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheKey, canonicalJSON } from "../../web/batch/cache.js";
import { statusOf, causeOf, needsRepair } from "../../web/batch/status.js";
import { aggregate, histogram, estimateTokens } from "../../web/batch/aggregate.js";
import { toJSONL, toJSON, toCSV, csvField } from "../../web/batch/export.js";
import { createRun, loadRun, todoIndices } from "../../web/batch/runs.js";
import { MemoryStore } from "../../web/batch/store.js";
import { jsDetect, jsRowInputs, prepareItems, detectMapping } from "../../web/batch/mapping.js";

const base = { endpoint: "/v1", model: "m", messages: [{ role: "user", content: "hi" }], params: { temperature: 0, max_tokens: 5 } };

test("canonicalJSON sorts keys at every level and keeps array order", () => {
  assert.equal(canonicalJSON({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
  assert.throws(() => canonicalJSON({ x: NaN }));
});

test("cacheKey: same identity, same key; any change of model, message, params or endpoint, another", async () => {
  const k = await cacheKey(base);
  assert.match(k, /^[0-9a-f]{64}$/);
  assert.equal(await cacheKey({ ...base, params: { max_tokens: 5, temperature: 0 } }), k, "parameter order does not matter");
  assert.equal(await cacheKey({ ...base, endpoint: "/v1/" }), k, "a trailing slash does not matter");
  assert.equal(await cacheKey({ ...base, messages: [{ content: "hi", role: "user", extra: 1 }] }), k, "only role and content count");
  const others = [
    { ...base, model: "m2" },
    { ...base, messages: [{ role: "user", content: "hi " }] },
    { ...base, messages: [...base.messages, { role: "assistant", content: "x" }] },
    { ...base, params: { temperature: 0.1, max_tokens: 5 } },
    { ...base, endpoint: "https://other/v1" },
  ];
  const keys = new Set([k]);
  for (const o of others) keys.add(await cacheKey(o));
  assert.equal(keys.size, others.length + 1);
});

const R = (verdict, extra = {}) => ({ verdict, answers: ["a"], error: null, usage: { prompt_tokens: 100, completion_tokens: 10 }, calls: 1, cachedCalls: 0, ...extra });
const E = (error) => ({ verdict: null, answers: [], error, usage: { prompt_tokens: 0, completion_tokens: 0 }, calls: 0, cachedCalls: 0 });

test("statusOf and causeOf", () => {
  const cases = [
    [R({ passed: true, score: 1, checks: [] }), "passed", null],
    [R({ passed: false, score: 0.5, checks: [] }), "failed", null],
    [R({ passed: null, score: 3.5, checks: [{ severity: "warning", code: "recall.arithmetic-differs", message: "judge arithmetic differs" }] }), "scored", null],
    // The cause comes from the code, whatever the message says.
    [R({ passed: null, score: null, checks: [{ severity: "error", code: "answer.truncated", message: "unexpected }" }] }), "undetermined", "answer cut short"],
    [R({ passed: null, score: null, checks: [{ severity: "error", code: "answer.unreadable", message: "looks truncated" }] }), "undetermined", "answer could not be read"],
    [R({ passed: null, score: null, checks: [{ severity: "error", code: "claims.missing", message: "x" }, { severity: "error", code: "answer.truncated", message: "y" }] }), "undetermined", "answer cut short"],
    [R({ passed: null, score: null, checks: [{ severity: "error", code: "no.such-code", message: "x" }] }), "undetermined", "answer could not be read"],
    [R({ passed: null, score: null, checks: [{ severity: "warning", code: "claims.skipped", message: "claim c2 was skipped" }] }), "undetermined", "incomplete judge answer"],
    [E({ kind: "http", status: 429, message: "x" }), "error", "rate limited (429)"],
    [E({ kind: "http", status: 502, message: "x" }), "error", "server error (502)"],
    [E({ kind: "timeout", message: "x" }), "error", "timed out"],
    [E({ kind: "input", message: "x" }), "error", "bad row inputs"],
  ];
  for (const [r, st, cause] of cases) {
    assert.equal(statusOf(r), st, JSON.stringify(r.verdict || r.error));
    assert.equal(causeOf(r), cause);
  }
  assert.equal(statusOf(undefined), "pending");
  assert.equal(statusOf(cases[2][0], 3), "passed");
  assert.equal(statusOf(cases[2][0], 4), "failed");
  assert.ok(needsRepair(cases[3][0].verdict));
  assert.ok(!needsRepair(cases[8][0].verdict));
  assert.ok(!needsRepair({ passed: false, checks: [{ severity: "error", message: "x" }] }));
});

test("aggregate: counts, pass rate over decided rows, mean score, causes, tokens, cost", () => {
  const results = [
    R({ passed: true, score: 1, checks: [] }),
    R({ passed: true, score: 0.75, checks: [] }),
    R({ passed: false, score: 0.25, checks: [] }),
    R({ passed: null, score: null, checks: [{ severity: "error", code: "answer.truncated", message: "truncated" }] }),
    E({ kind: "http", status: 429, message: "x" }),
    E({ kind: "http", status: 429, message: "x" }),
    undefined,
  ];
  results[1].cachedCalls = 1;
  results[1].calls = 0;
  results[1].usage = { prompt_tokens: 0, completion_tokens: 0 };
  const a = aggregate(results, 8, { priceIn: 2, priceOut: 10 });
  assert.deepEqual(a.counts, { passed: 2, failed: 1, scored: 0, undetermined: 1, error: 2, pending: 2 });
  assert.equal(a.passRate, 2 / 3);
  assert.equal(a.meanScore, (1 + 0.75 + 0.25) / 3);
  assert.deepEqual(a.causes, [{ cause: "rate limited (429)", count: 2 }, { cause: "answer cut short", count: 1 }]);
  assert.equal(a.promptTokens, 300);
  assert.equal(a.completionTokens, 30);
  assert.equal(a.cachedCalls, 1);
  assert.equal(a.cost, (300 * 2 + 30 * 10) / 1e6);
  assert.equal(aggregate([], 0).passRate, null, "no NaN for nothing decided");
  assert.equal(aggregate([], 0).meanScore, null);
  assert.equal(aggregate([], 0).cost, null, "no price, no cost");
});

test("histogram: unit scores over [0,1], recall over [0,5], maximum in the last bin", () => {
  const h = histogram([0, 0.05, 0.5, 1, 1], 10);
  assert.equal(h.hi, 1);
  assert.equal(h.bins[0].count, 2);
  assert.equal(h.bins[5].count, 1);
  assert.equal(h.bins[9].count, 2);
  const r = histogram([1, 2.5, 5, 4.38], 5);
  assert.equal(r.hi, 5);
  assert.deepEqual(r.bins.map((b) => b.count), [0, 1, 1, 0, 2]);
  assert.equal(estimateTokens(9), 3);
});

test("csvField escapes quotes, separators, newlines and formula starts", () => {
  const cases = [
    ["plain", "plain"],
    ['say "hi"', '"say ""hi"""'],
    ["a,b", '"a,b"'],
    ["line1\nline2", '"line1\nline2"'],
    ["cr\r", '"cr\r"'],
    [" padded", '" padded"'],
    ["=HYPERLINK(\"x\")", '"\'=HYPERLINK(""x"")"'],
    ["+1", "'+1"],
    ["@SUM", "'@SUM"],
    [-0.5, "-0.5"],
    [3, "3"],
    [true, "true"],
    [null, ""],
    [undefined, ""],
    [["a", "b,c"], '"[""a"",""b,c""]"'],
    ["ünïcødé ✓", "ünïcødé ✓"],
  ];
  for (const [v, want] of cases) assert.equal(csvField(v), want, JSON.stringify(v));
});

function sample() {
  const items = [
    { inputs: { question: 'Why "quoted", with commas?', contexts: ["a", "b\nc"] } },
    { inputs: { question: "second", contexts: [] } },
    { error: "Row 3: question: no column is mapped to it" },
    { inputs: { question: "not run", contexts: ["x"] } },
  ];
  const results = [
    R({ passed: true, score: 1, verdict: { answer: "yes" }, checks: [] }, { answers: ["{\"a\":1}\n", "fixed"] }),
    E({ kind: "http", status: 503, message: "The endpoint failed (HTTP 503) after 5 attempts: retry failed rows later." }),
    E({ kind: "input", message: "Row 3: question: no column is mapped to it" }),
    undefined,
  ];
  return { items, results };
}

test("exports hold every row, finished or not, in JSONL, JSON and CSV", () => {
  const { items, results } = sample();
  const lines = toJSONL(items, results).trimEnd().split("\n");
  assert.equal(lines.length, 4);
  const recs = lines.map((l) => JSON.parse(l));
  assert.deepEqual(recs.map((r) => r.status), ["passed", "error", "error", "pending"]);
  assert.deepEqual(recs[0].answers, ['{"a":1}\n', "fixed"]);
  assert.equal(recs[0].inputs.question, 'Why "quoted", with commas?');
  assert.match(recs[1].error.message, /HTTP 503/);
  assert.equal(recs[3].cause, "not run yet");
  const j = JSON.parse(toJSON(items, results, { run: { id: "r" } }));
  assert.equal(j.rows.length, 4);
  assert.equal(j.run.id, "r");

  const csv = toCSV(items, results);
  const rows = parseCSV(csv);
  assert.equal(rows.length, 5, "header + 4 rows");
  const hdr = rows[0];
  assert.deepEqual(hdr.slice(0, 7), ["row", "status", "cause", "passed", "score", "input.question", "input.contexts"]);
  const col = (name) => hdr.indexOf(name);
  assert.equal(rows[1][col("input.question")], 'Why "quoted", with commas?');
  assert.deepEqual(JSON.parse(rows[1][col("input.contexts")]), ["a", "b\nc"]);
  assert.equal(rows[1][col("answer")], '{"a":1}\n');
  assert.equal(rows[1][col("repair_answer")], "fixed");
  assert.equal(rows[2][col("status")], "error");
  assert.match(rows[2][col("error")], /HTTP 503/);
  assert.equal(rows[4][col("status")], "pending");
  assert.ok(csv.endsWith("\r\n"));
});

/** parseCSV is a strict RFC 4180 reader, written here so the test does not trust the writer. */
function parseCSV(s) {
  const rows = [];
  let row = [];
  let f = "";
  let i = 0;
  let quoted = false;
  while (i < s.length) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') (f += '"'), (i += 2);
      else if (c === '"') (quoted = false), i++;
      else (f += c), i++;
    } else if (c === '"' && f === "") (quoted = true), i++;
    else if (c === ",") row.push(f), (f = ""), i++;
    else if (c === "\r" && s[i + 1] === "\n") row.push(f), rows.push(row), (row = []), (f = ""), (i += 2);
    else (f += c), i++;
  }
  if (f !== "" || row.length) row.push(f), rows.push(row);
  return rows;
}

test("a run is stored with its items and resumes only what is unfinished (or failed, on request)", async () => {
  const store = new MemoryStore();
  const items = Array.from({ length: 6 }, (_, i) => ({ inputs: { question: "q" + i } }));
  const run = await createRun(store, { name: "d.jsonl", evaluator: "answer-grounding", mapping: {}, settings: { model: "m" } }, items);
  await store.putResult({ runId: run.id, index: 0, ...R({ passed: true, score: 1, checks: [] }) });
  await store.putResult({ runId: run.id, index: 2, ...E({ kind: "timeout", message: "x" }) });
  await store.putResult({ runId: run.id, index: 3, ...R({ passed: null, score: null, checks: [{ severity: "error", message: "bad" }] }) });
  const loaded = await loadRun(store, run.id);
  assert.equal(loaded.items.length, 6);
  assert.deepEqual(todoIndices(6, loaded.results), [1, 4, 5]);
  assert.deepEqual(todoIndices(6, loaded.results, { retryFailed: true }), [1, 2, 3, 4, 5]);
  await assert.rejects(createRun(store, { settings: { apiKey: "sk" } }, items));
  await store.deleteRun(run.id);
  assert.equal(await loadRun(store, run.id), null);
  assert.deepEqual(await store.getResults(run.id), []);
});

test("JS fallback mapping: RAGAS names, vars, JSON lists in CSV cells, required inputs", () => {
  const ev = {
    id: "pairwise-faithfulness",
    inputs: [
      { name: "contexts", kind: "list", required: true },
      { name: "expected_output", kind: "text", required: true },
      { name: "actual_output", kind: "text", required: true },
    ],
  };
  const m = jsDetect(ev, ["user_input", "retrieved_contexts", "response", "Reference"]);
  assert.deepEqual(m, { contexts: "retrieved_contexts", expected_output: "Reference", actual_output: "response" });
  assert.deepEqual(jsDetect(ev, ["vars.contexts"]), { contexts: "vars.contexts" });
  const inputs = jsRowInputs(ev, { retrieved_contexts: '["a","b"]', response: "r", Reference: "g" }, m);
  assert.deepEqual(inputs, { contexts: ["a", "b"], expected_output: "g", actual_output: "r" });
  assert.deepEqual(jsRowInputs(ev, { vars: { contexts: "one" }, response: "r", Reference: "g" }, { ...m, contexts: "vars.contexts" }).contexts, ["one"]);
  const items = prepareItems(null, ev, [{ response: "r", Reference: "g", retrieved_contexts: "[bad" }, { Reference: "g" }], m);
  assert.match(items[0].error, /Row 1: contexts: .*JSON list/);
  assert.match(items[1].error, /Row 2: contexts/);
  const fake = { mapColumns: () => ({ contexts: "c", nonsense: "x" }) };
  assert.deepEqual(detectMapping(fake, ev, ["c"]), { contexts: "c" });
});

test("rj.rowInputs' {inputs, messages}: a missing required input is a row error, other messages are notes", () => {
  const ev = { id: "answer-grounding", inputs: [{ name: "answer", kind: "text", required: true }, { name: "facts", kind: "list", required: true }] };
  const rj = {
    rowInputs: (id, row) =>
      row.answer ? { inputs: { answer: row.answer, facts: ["f"] }, messages: row.note ? ["facts: a single text, read as a list of one"] : [] } : { inputs: { facts: ["f"] }, messages: ['answer: column "response" is empty'] },
  };
  const items = prepareItems(rj, ev, [{ answer: "a" }, { answer: "b", note: true }, {}], { answer: "response", facts: "facts" });
  assert.deepEqual(items[0], { inputs: { answer: "a", facts: ["f"] } });
  assert.deepEqual(items[1].notes, ["facts: a single text, read as a list of one"]);
  assert.equal(items[2].error, 'Row 3: answer: column "response" is empty');
});
