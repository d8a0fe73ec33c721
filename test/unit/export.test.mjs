// Exports join back to their dataset: a dataset read by the real engine, its rows prepared and
// "judged", exported as CSV, JSONL and JSON, and each export read again by the same reader
// (rj.readDataset, which reads CSV as Python's csv module does) and joined to the source by id
// and by index. Needs the built wasm (make build).
import { test } from "node:test";
import assert from "node:assert/strict";

import { api } from "./rj.mjs";
import { prepareItems, detectMapping } from "../../web/batch/mapping.js";
import { toCSV, toJSONL, toJSON } from "../../web/batch/export.js";

const rj = await api();
const ev = rj.evaluators().find((e) => e.id === "answer-grounding");

// A RAGAS-style CSV with an id column, columns no input uses, a cell a spreadsheet would run,
// numbers as text, a list cell, and a column named like one of the export's own fields.
const source = [
  "sample_id,user_input,response,retrieved_contexts,status,note,weight",
  'q-17,Who wrote it?,Ada [1].,"[\'Ada wrote it.\', ""It\'s 1843.""]",draft,=HYPERLINK("x"),0.30',
  "q-03,When?,In 1843.,['1843'],final,\"multi\nline, with comma\",-1",
  "q-99,Where?,London.,['London'],final,,1e3",
].join("\r\n");

function judged(items) {
  return items.map((it, i) => (it.error ? undefined : { verdict: { passed: i % 2 === 0, score: i % 2 === 0 ? 0.1 + 0.2 : 0, checks: [] }, answers: ["yes"], error: null, usage: { prompt_tokens: 10, completion_tokens: 1 }, calls: 1, cachedCalls: 0, attempts: 1 }));
}

function setup(text) {
  const t = rj.readDataset(text);
  assert.deepEqual(t.errors, []);
  const mapping = detectMapping(rj, ev, t.paths);
  const items = prepareItems(rj, ev, t.rows, mapping);
  return { t, items, results: judged(items) };
}

/** joinCheck asserts that every source row is in the export's rows once, found by key, with
 * every source column as it was (a formula-looking text behind the guard's apostrophe). */
function joinCheck(t, exported, key, { csv = false, sourceKey = key } = {}) {
  assert.equal(exported.length, t.rows.length);
  const byKey = new Map(exported.map((r) => [String(r[key]), r]));
  assert.equal(byKey.size, t.rows.length, `${key} is unique in the export`);
  t.rows.forEach((src, i) => {
    const k = key === "index" ? String(i) : String(src[sourceKey]);
    const r = byKey.get(k);
    assert.ok(r, `row ${i} found by ${key}`);
    for (const c of t.columns) {
      const want = src[c] ?? null;
      let got = r[c] ?? null;
      if (csv && typeof want === "string" && want.startsWith("=")) {
        assert.equal(got, "'" + want, "a formula is guarded");
        got = want;
      }
      if (csv && want === null) got = got === "" ? null : got;
      assert.deepEqual(got, want, `row ${i} column ${c}`);
    }
  });
}

test("CSV, JSONL and JSON exports carry every source column, the index and the id, and join back", () => {
  const { t, items, results } = setup(source);
  assert.deepEqual(t.columns, ["sample_id", "user_input", "response", "retrieved_contexts", "status", "note", "weight"]);

  const csv = rj.readDataset(toCSV(items, results), "csv");
  assert.deepEqual(csv.errors, []);
  assert.deepEqual(csv.columns.slice(0, 10), ["row", "index", "id", ...t.columns]);
  assert.ok(csv.columns.includes("ragjudge_status"), "the export's status beside the source's status column");
  joinCheck(t, csv.rows, "sample_id", { csv: true });
  joinCheck(t, csv.rows, "id", { csv: true, sourceKey: "sample_id" });
  joinCheck(t, csv.rows, "index", { csv: true });
  assert.deepEqual(
    csv.rows.map((r) => [r.id, r.index, r.row, r.ragjudge_status, r.score]),
    [
      ["q-17", "0", "1", "passed", "0.3"],
      ["q-03", "1", "2", "failed", "0"],
      ["q-99", "2", "3", "passed", "0.3"],
    ],
  );
  assert.equal(csv.rows[1].weight, "-1", "a number as text is not guarded");

  const jsonl = rj.readDataset(toJSONL(items, results), "jsonl");
  assert.deepEqual(jsonl.errors, []);
  joinCheck(t, jsonl.rows, "sample_id");
  joinCheck(t, jsonl.rows, "id", { sourceKey: "sample_id" });
  joinCheck(t, jsonl.rows, "index");
  assert.deepEqual(
    jsonl.rows.map((r) => r.score),
    [0.3, 0, 0.3],
  );
  assert.deepEqual(jsonl.rows[0].inputs.facts, ["Ada wrote it.", "It's 1843."]);

  const json = JSON.parse(toJSON(items, results, { run: { id: "r" } }));
  joinCheck(t, json.rows, "id", { sourceKey: "sample_id" });
  joinCheck(t, json.rows, "index");
});

test("without an id column, rows join back by index; a column named id is the id", () => {
  const noID = setup("question,answer,facts\nA?,a,x|y\nB?,b,z\n");
  const csv = rj.readDataset(toCSV(noID.items, noID.results));
  assert.ok(!csv.columns.includes("id"));
  joinCheck(noID.t, csv.rows, "index", { csv: true });

  const dupID = setup("id,answer,facts\n1,a,x\n1,b,z\n");
  const dup = rj.readDataset(toJSONL(dupID.items, dupID.results));
  assert.ok(!dup.columns.includes("ragjudge_id"), "ids that repeat identify nothing");
  joinCheck(dupID.t, dup.rows, "index");

  const own = setup("id,answer,facts\n7,a,x\n8,b,z\n");
  const o = rj.readDataset(toCSV(own.items, own.results));
  assert.equal(o.columns.filter((c) => c === "id" || c === "ragjudge_id").length, 1, "one id column");
  joinCheck(own.t, o.rows, "id", { csv: true });
});

test("a source column ID (any case) is the id: never beside an `id` of ours; our fields step aside for any case of their name", () => {
  const upper = setup("ID,answer,facts\n7,a,x\n8,b,z\n");
  for (const text of [toCSV(upper.items, upper.results), toJSONL(upper.items, upper.results)]) {
    const t = rj.readDataset(text, text.includes("\r\n") ? "csv" : "jsonl");
    const ids = t.columns.filter((c) => c.toLowerCase().replace(/^(ragjudge_)+/, "") === "id");
    assert.deepEqual(ids, ["ID"], "the source's ID is the one id column: " + t.columns.join(","));
    joinCheck(upper.t, t.rows, "ID", { csv: text.includes("\r\n") });
  }

  // An id of ours taken from sample_id, beside a source column Id that identifies nothing (repeats):
  // ours is ragjudge_id, so a reader knows which is the source's.
  const both = setup("sample_id,Id,Status,answer,facts\ns1,1,draft,a,x\ns2,1,final,b,z\n");
  const csv = rj.readDataset(toCSV(both.items, both.results), "csv");
  assert.deepEqual(csv.columns.slice(0, 6), ["row", "index", "ragjudge_id", "sample_id", "Id", "Status"]);
  assert.ok(csv.columns.includes("ragjudge_status") && !csv.columns.includes("status"), "the source's Status keeps its name, ours steps aside");
  assert.deepEqual(csv.rows.map((r) => [r.ragjudge_id, r.Id, r.Status]), [["s1", "1", "draft"], ["s2", "1", "final"]]);
});
