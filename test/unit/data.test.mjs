// Tests of the batch data modules: cache key, status and cause, aggregate, exports, resume.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheKey, canonicalJSON } from "../../web/batch/cache.js";
import { statusOf, causeOf, needsRepair } from "../../web/results/status.js";
import { aggregate, histogram, estimateTokens } from "../../web/results/aggregate.js";
import { toJSONL, toJSON, toCSV, csvField, formatNumber } from "../../web/batch/export.js";
import { createRun, loadRun, todoIndices, Retry } from "../../web/batch/runrecords.js";
import { prepareItems, prepareItemsAsync, detectMapping, detectMatches, matchLabel } from "../../web/batch/mapping.js";
import { idColumn } from "../../web/results/columns.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

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
    ["+1+1", "'+1+1"],
    ["@SUM", "'@SUM"],
    [" =1+1", "' =1+1"],
    ["\n=1+1", "\"'\n=1+1\""],
    ["\r\n @x", "\"'\r\n @x\""],
    ["\tx", "'\tx"],
    ["\rx", "\"'\rx\""],
    ["\u00a0-2+3", "'\u00a0-2+3"],
    ["\u3000=A1", "'\u3000=A1"],
    ["＝1+1", "'＝1+1"],
    ["＋1", "'＋1"],
    ["－1", "'－1"],
    ["＠SUM", "'＠SUM"],
    ["a=b", "a=b"],
    ["-1", "-1"],
    ["+2.5e3", "+2.5e3"],
    ["-", "'-"],
    [-0.5, "-0.5"],
    [3, "3"],
    [0.1 + 0.2, "0.3"],
    [1 / 3, "0.333333333333"],
    [-0, "0"],
    [NaN, ""],
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
  assert.deepEqual(hdr.slice(0, 8), ["row", "index", "status", "cause", "passed", "score", "input.question", "input.contexts"]);
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
  const items = Array.from({ length: 7 }, (_, i) => ({ inputs: { question: "q" + i } }));
  const run = await createRun(store, { name: "d.jsonl", evaluator: "answer-grounding", mapping: {}, settings: { model: "m" } }, items);
  await store.putResult({ runId: run.id, index: 0, ...R({ passed: true, score: 1, checks: [] }) });
  await store.putResult({ runId: run.id, index: 2, ...E({ kind: "timeout", message: "x" }) });
  await store.putResult({ runId: run.id, index: 3, ...R({ passed: null, score: null, checks: [{ severity: "error", message: "bad" }] }) });
  await store.putResult({ runId: run.id, index: 6, ...E({ kind: "http", status: 400, message: "rejected" }) });
  const loaded = await loadRun(store, run.id);
  assert.equal(loaded.items.length, 7);
  // Resume runs again a row whose call timed out (not the judge's doing), not one the endpoint rejected.
  assert.deepEqual(todoIndices(7, loaded.results), [1, 2, 4, 5]);
  // Retry failed rows adds the errors the summary counts; asking again, the undetermined rows.
  assert.deepEqual(todoIndices(7, loaded.results, { retry: Retry.ERRORS }), [1, 2, 4, 5, 6]);
  assert.deepEqual(todoIndices(7, loaded.results, { retry: Retry.UNDETERMINED }), [1, 2, 3, 4, 5]);
  await assert.rejects(createRun(store, { settings: { apiKey: "sk" } }, items));
  await store.deleteRun(run.id);
  assert.equal(await loadRun(store, run.id), null);
  assert.deepEqual(await store.getResults(run.id), []);
});

test("the mapping comes from the core's mapColumns: only the evaluator's inputs, with the names they were recognised by", () => {
  const ev = { id: "pairwise-faithfulness", inputs: [{ name: "contexts" }, { name: "expected_output" }, { name: "actual_output" }] };
  const calls = [];
  const fake = {
    mapColumns: (id, columns) => {
      calls.push([id, columns]);
      return {
        mapping: { contexts: "c", nonsense: "x" },
        matches: [
          { input: "contexts", column: "c", alias: "retrieved_contexts", tool: "RAGAS" },
          { input: "nonsense", column: "x", alias: "x" },
        ],
      };
    },
  };
  assert.deepEqual(detectMapping(fake, ev, ["c", "x"]), { contexts: "c" });
  const { mapping, matches } = detectMatches(fake, ev, ["c", "x"]);
  assert.deepEqual(mapping, { contexts: "c" });
  assert.deepEqual(matches, [{ input: "contexts", column: "c", alias: "retrieved_contexts", tool: "RAGAS" }]);
  assert.deepEqual(calls[0], ["pairwise-faithfulness", ["c", "x"]]);
  assert.equal(matchLabel(matches[0]), "c (RAGAS)");
  assert.equal(matchLabel({ input: "facts", column: "facts", alias: "facts" }), "facts");
});

test("rj.rowInputs' {inputs, checks}: an error check makes a row error, warnings are notes; items keep their source row and index", async () => {
  const ev = { id: "answer-grounding", inputs: [{ name: "answer", kind: "text", required: true }, { name: "facts", kind: "list", required: true }] };
  const note = { severity: "warning", code: "input.one-item", input: "facts", message: "facts: one text, not a list; taken as a list of one" };
  const missing = { severity: "error", code: "input.missing", input: "answer", message: 'input "answer" (column "response"): the value is empty in this row' };
  const rj = {
    rowInputs: (id, row) => {
      if (row.boom) throw new Error("bad row");
      return row.answer ? { inputs: { answer: row.answer, facts: ["f"] }, checks: row.note ? [note] : [] } : { inputs: { facts: ["f"] }, checks: [missing] };
    },
  };
  const rows = [{ answer: "a" }, { answer: "b", note: true }, {}, { boom: true }];
  const items = prepareItems(rj, ev, rows, { answer: "response", facts: "facts" });
  assert.deepEqual(items[0], { index: 0, source: rows[0], inputs: { answer: "a", facts: ["f"] }, checks: [] });
  assert.deepEqual(items[1].notes, [note.message]);
  assert.deepEqual(items[1].checks, [note]);
  assert.equal(items[2].error, "Row 3: " + missing.message);
  assert.deepEqual(items[2].checks, [missing]);
  assert.equal(items[3].error, "Row 4: bad row");
  assert.equal(items[3].index, 3);

  const sliced = await prepareItemsAsync(rj, ev, rows, { answer: "response", facts: "facts" }, { slice: 3, yieldFn: async () => {} });
  assert.deepEqual(sliced, items, "slices number rows as one pass does");
});

test("numbers print as people write them", () => {
  const cases = [
    [0.1 + 0.2, "0.3"],
    [0.30000000000000004, "0.3"],
    [2 / 3, "0.666666666667"],
    [4.35, "4.35"],
    [1e6, "1000000"],
    [123456.789, "123456.789"],
    [3, "3"],
    [-0, "0"],
    [Infinity, ""],
  ];
  for (const [x, want] of cases) assert.equal(formatNumber(x), want, String(x));
  const { items, results } = sample();
  results[0] = R({ passed: true, score: 0.1 + 0.2, verdict: { recall: 0.7 + 0.1 }, checks: [] });
  const rec = JSON.parse(toJSONL(items, results).split("\n")[0]);
  assert.equal(rec.score, 0.3);
  assert.equal(rec.verdict.recall, 0.8);
  assert.match(toCSV(items, results).split("\r\n")[1], /,0\.3,/);
});

test("a run no Runner of this tab runs is never idle: done or cancelled as it ended, else paused while rows are left", async () => {
  const { restingState, runningText } = await import("../../web/batch/openrun.js");
  const ok = { verdict: { passed: true, checks: [] } };
  assert.equal(restingState({ state: "done", total: 2 }, [ok, ok]), "done");
  assert.equal(restingState({ state: "cancelled", total: 2 }, [ok]), "cancelled");
  // An imported run whose every row has a result, stored before "done" was written; a run left while running.
  assert.equal(restingState({ state: "paused", total: 2 }, [ok, ok]), "done");
  assert.equal(restingState({ state: "running", total: 2 }, [ok]), "paused");
  assert.equal(restingState({ state: "idle", total: 3 }, [ok, undefined, ok]), "paused");
  assert.equal(restingState({ total: 1 }, [ok]), "done");
  assert.equal(runningText(Retry.ERRORS, 3), "Retrying 3 failed rows.");
  assert.equal(runningText(Retry.UNDETERMINED, 1), "Asking the judge again for 1 undetermined row.");
  assert.equal(runningText(Retry.NONE, 12), "Running 12 rows.");
});
