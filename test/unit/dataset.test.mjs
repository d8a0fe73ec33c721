// dataset.test.mjs: rj.readDataset() and the mapping extensions rj.mapColumns() and
// rj.rowInputs() through the JS API. The formats' corner cases are tested with the core
// (core/dataset); here: the shapes, the detection, errors as data, and the argument checks.
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, throwsRJ } from "./rj.mjs";
import { formatWords } from "../../web/batch/words.js";

const rj = await api();

test("readDataset reads CSV, JSONL and JSON, given or detected, keeping key order", () => {
  const csv = rj.readDataset("question,answer\nWhat?,That.\n\"Multi\nline\",\"a, b\"\n", "csv");
  assert.equal(csv.format, "csv");
  assert.deepEqual(csv.columns, ["question", "answer"]);
  assert.deepEqual(csv.rows, [{ question: "What?", answer: "That." }, { question: "Multi\nline", answer: "a, b" }]);
  assert.deepEqual(csv.errors, []);
  assert.deepEqual(rj.readDataset("question,answer\nWhat?,That.\n"), { ...rj.readDataset("question,answer\nWhat?,That.\n", "csv") });

  const jsonl = rj.readDataset('{"z": 1, "a": [1, 2.5]}\n{"z": 2, "b": null}\n');
  assert.equal(jsonl.format, "jsonl");
  assert.deepEqual(jsonl.columns, ["z", "a", "b"]);
  assert.deepEqual(jsonl.rows, [{ z: 1, a: [1, 2.5] }, { z: 2, b: null }]);
  assert.deepEqual(Object.keys(jsonl.rows[0]), ["z", "a"]);

  const json = rj.readDataset('[{"q": "x"}, {"q": "y"}]');
  assert.equal(json.format, "json");
  assert.deepEqual(json.rows, [{ q: "x" }, { q: "y" }]);
});

test("readDataset keeps the good rows and reports the bad ones by line", () => {
  const t = rj.readDataset('{"q": "a"}\nnot json\n{"q": "c"}\n', "jsonl");
  assert.deepEqual(t.rows, [{ q: "a" }, { q: "c" }]);
  assert.equal(t.errors.length, 1);
  assert.equal(t.errors[0].line, 2);
  assert.equal(typeof t.errors[0].message, "string");

  assert.equal(t.errors[0].code, "dataset.bad-row");

  const c = rj.readDataset("a,b\n1,2\n3,4,5\n6,7\n", "csv");
  assert.deepEqual(c.rows, [{ a: "1", b: "2" }, { a: "6", b: "7" }]);
  assert.deepEqual(c.errors, [{ line: 3, code: "dataset.bad-row", message: "expected 2 fields, as in the header, got 3 (a field with the delimiter in it must be quoted)" }]);
});

test("readDataset reads CSV as Python's csv module: a stray quote is text, with a warning on its row", () => {
  const t = rj.readDataset('q,a\r\n1,a 5" screen\r\n2,"ok"\r\n3\r\n');
  assert.deepEqual(t.rows, [{ q: "1", a: 'a 5" screen' }, { q: "2", a: "ok" }, { q: "3" }]);
  assert.deepEqual(t.errors, []);
  assert.deepEqual(
    t.warnings.map((w) => [w.line, w.col, w.row, w.code]),
    [
      [2, 6, 1, "dataset.quote-in-field"],
      [4, undefined, 3, "dataset.missing-fields"],
    ],
  );
  assert.equal(t.delimiter, ",");
});

test("readDataset: TSV given or detected, semicolons detected", () => {
  const tsv = rj.readDataset("Query\tDocument\tAnswer\nWho?\tAda wrote it, in 1843.\tAda\n");
  assert.equal(tsv.format, "tsv");
  assert.equal(tsv.delimiter, "\t");
  assert.deepEqual(tsv.rows, [{ Query: "Who?", Document: "Ada wrote it, in 1843.", Answer: "Ada" }]);
  assert.deepEqual(rj.readDataset("a,b\tc\n1,2\t3\n", "tsv").rows, [{ "a,b": "1,2", c: "3" }]);
  const semi = rj.readDataset("question;answer\nWhat?;That, yes.\n");
  assert.equal(semi.format, "csv");
  assert.equal(semi.delimiter, ";");
  assert.deepEqual(semi.rows, [{ question: "What?", answer: "That, yes." }]);
});

test("readDataset lists the paths inside object columns, for promptfoo-style vars", () => {
  const t = rj.readDataset('{"vars": {"question": "Q", "context": ["a", "b"]}, "output": "A"}\n{"vars": {"question": "R", "context": []}, "output": "B"}\n');
  assert.deepEqual(t.columns, ["vars", "output"]);
  assert.ok(t.paths.includes("vars.question"), t.paths.join());
  assert.ok(t.paths.includes("vars.context"), t.paths.join());
});

test("readDataset with a file's name: the content decides, the extension is a hint, and named says when they differ", () => {
  // HaluEval ships JSON Lines named .json.
  const halu = '{"ID": "1", "user_query": "Name three primary colors.", "chatgpt_response": "Red, green, blue.", "hallucination": "yes"}\n{"ID": "2", "user_query": "Q?", "chatgpt_response": "A.", "hallucination": "no"}\n';
  const t = rj.readDataset(halu, undefined, "general_data.json");
  assert.equal(t.format, "jsonl");
  assert.equal(t.named, "json");
  assert.equal(t.rows.length, 2);
  assert.equal(formatWords(t, "general_data.json"), "JSON Lines by its content, though named .json");
  const arr = rj.readDataset('[{"q": 1}, {"q": 2}]', undefined, "rows.jsonl");
  assert.deepEqual([arr.format, arr.named, arr.rows.length], ["json", "jsonl", 2]);
  const txt = rj.readDataset("question\tanswer\nWho?\tAda, in 1843.\n", undefined, "export.txt");
  assert.deepEqual([txt.format, txt.named, formatWords(txt, "export.txt")], ["tsv", undefined, "TSV"]);
  const semi = rj.readDataset("q;a\nx;y\n", undefined, "data.csv");
  assert.equal(formatWords(semi, "data.csv"), "CSV with semicolons");
  // A format given is the caller's word, whatever the name.
  assert.equal(rj.readDataset(halu, "jsonl", "general_data.json").named, undefined);
  throwsRJ(() => rj.readDataset("a\n", undefined, 3), { kind: "input", subject: "readDataset", message: /name must be a string/ });
});

test("readDataset errors: unknown format, empty text, wrong argument types", () => {
  const e = throwsRJ(() => rj.readDataset("a,b\n", "xlsx"), { kind: "dataset", message: /xlsx/ });
  assert.match(e.message, /"tsv"/);
  throwsRJ(() => rj.readDataset("  \n"), { kind: "dataset" });
  throwsRJ(() => rj.readDataset(), { kind: "input", subject: "readDataset", message: /text is required/ });
  throwsRJ(() => rj.readDataset(["a"]), { kind: "input", subject: "readDataset", message: /text must be a string/ });
  throwsRJ(() => rj.readDataset("a\n", 1), { kind: "input", subject: "readDataset", message: /format must be a string/ });
});

test("mapColumns recognises RAGAS, promptfoo and this tool's own names, in input order, and says by which name", () => {
  const ragas = rj.mapColumns("pairwise-faithfulness", ["user_input", "retrieved_contexts", "response", "reference"]);
  assert.deepEqual(ragas.mapping, { contexts: "retrieved_contexts", expected_output: "reference", actual_output: "response" });
  assert.deepEqual(Object.keys(ragas.mapping), ["contexts", "expected_output", "actual_output"]);
  assert.deepEqual(ragas.matches[0], { input: "contexts", column: "retrieved_contexts", alias: "retrieved_contexts", tool: "RAGAS" });
  assert.deepEqual(
    ragas.matches.map((m) => m.input),
    ["contexts", "expected_output", "actual_output"],
  );

  const own = rj.mapColumns("answer-grounding", ["facts", "answer", "mode"]);
  assert.deepEqual(Object.keys(own.mapping), ["answer", "facts", "mode"]);
  assert.deepEqual(own.matches[1], { input: "facts", column: "facts", alias: "facts" });

  const pf = rj.mapColumns("claim-groundedness", ["vars", "vars.question", "vars.claims", "vars.context"]);
  assert.equal(pf.mapping.question, "vars.question");
  assert.equal(pf.mapping.claims, "vars.claims");
  assert.deepEqual(pf.matches[2], { input: "evidence", column: "vars.context", alias: "context", tool: "promptfoo, DeepEval, TruLens", nested: "vars" });

  const deepeval = rj.mapColumns("answer-grounding", ["Input", "ActualOutput", "Retrieval Context"]);
  assert.deepEqual(deepeval.mapping, { answer: "ActualOutput", facts: "Retrieval Context" });

  assert.deepEqual(rj.mapColumns("rag-recall", ["unrelated"]), { mapping: {}, matches: [] });
});

test("rowInputs builds an evaluator's inputs from a row, JSON lists in CSV cells included", () => {
  const t = rj.readDataset('question,contexts,answer\nWhat?,"[""Paris is in France."", ""Lyon too.""]",Paris.\n', "csv");
  const m = rj.mapColumns("answer-grounding", t.columns).mapping;
  assert.equal(m.answer, "answer");
  assert.equal(m.facts, "contexts");
  const { inputs, messages } = rj.rowInputs("answer-grounding", t.rows[0], m);
  assert.equal(inputs.answer, "Paris.");
  assert.deepEqual(inputs.facts, ["Paris is in France.", "Lyon too."]);
  assert.ok(Array.isArray(messages));
  assert.ok(rj.render("answer-grounding", inputs).prompt.includes("1. Paris is in France.\n2. Lyon too."));

  const missing = rj.rowInputs("answer-grounding", { answer: "" }, { answer: "answer", facts: "contexts" });
  assert.deepEqual(
    missing.checks.map((c) => [c.severity, c.code, c.input]),
    [
      ["error", "input.missing", "answer"],
      ["error", "input.missing", "facts"],
    ],
  );
  assert.deepEqual(
    missing.messages,
    missing.checks.map((c) => c.message),
  );
});

test("rowInputs reads Python lists, DeepEval's |-joined lists and document objects, each with a code", () => {
  const m = { answer: "a", facts: "f" };
  const py = rj.rowInputs("answer-grounding", { a: "x", f: `['It\\'s 1843.', "Ada's"]` }, m);
  assert.deepEqual(py.inputs.facts, ["It's 1843.", "Ada's"]);
  assert.deepEqual(py.checks, []);

  const pipes = rj.rowInputs("answer-grounding", { a: "x", f: "one|two" }, m);
  assert.deepEqual(pipes.inputs.facts, ["one", "two"]);
  assert.deepEqual(
    pipes.checks.map((c) => [c.severity, c.code, c.input]),
    [["warning", "input.list-from-pipes", "facts"]],
  );

  const docs = rj.rowInputs("claim-groundedness", { q: "Q", c: ["c"], e: [{ doc_id: "d1", text: "Ada." }, { title: "Wiki", content: "1843." }] }, { question: "q", claims: "c", evidence: "e" });
  assert.deepEqual(docs.inputs.evidence, [{ text: "Ada." }, { title: "Wiki", text: "1843." }]);
  assert.deepEqual(
    docs.checks.map((c) => c.code),
    ["input.item-text"],
  );

  const empty = rj.rowInputs("pairwise-faithfulness", { c: "[]", e: "g", a: "x" }, { contexts: "c", expected_output: "e", actual_output: "a" });
  assert.equal(empty.inputs.contexts, undefined);
  assert.deepEqual(
    empty.checks.map((c) => [c.severity, c.code]),
    [["error", "input.empty-list"]],
  );

  const broken = rj.rowInputs("answer-grounding", { a: "x", f: "['open, 'b']" }, m);
  assert.deepEqual(
    broken.checks.map((c) => [c.code, c.line, c.col]),
    [["input.bad-list-cell", 1, 10]],
  );
});

test("mapColumns and rowInputs check their arguments", () => {
  throwsRJ(() => rj.mapColumns("nope", ["a"]), { kind: "input", subject: "nope", message: /unknown evaluator/ });
  throwsRJ(() => rj.mapColumns("rag-recall", "a,b"), { kind: "input", subject: "mapColumns", message: /columns must be a list of strings/ });
  throwsRJ(() => rj.mapColumns("rag-recall", ["a", 2]), { kind: "input", subject: "mapColumns", message: /columns\[1\]/ });
  throwsRJ(() => rj.rowInputs("rag-recall", [], {}), { kind: "input", subject: "rowInputs", message: /row must be an object/ });
  throwsRJ(() => rj.rowInputs("rag-recall", {}, { passage_gt: 3 }), { kind: "input", subject: "rowInputs", message: /mapping\["passage_gt"\]/ });
  throwsRJ(() => rj.rowInputs("rag-recall", {}), { kind: "input", subject: "rowInputs", message: /mapping is required/ });
});
