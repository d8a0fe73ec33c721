// dataset.test.mjs: rj.readDataset() and the mapping extensions rj.mapColumns() and
// rj.rowInputs() through the JS API. The formats' corner cases are tested with the core
// (core/dataset); here: the shapes, the detection, errors as data, and the argument checks.
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, throwsRJ } from "./helpers.mjs";

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

  const c = rj.readDataset("a,b\n1,2\n3\n4,5\n", "csv");
  assert.deepEqual(c.rows, [{ a: "1", b: "2" }, { a: "4", b: "5" }]);
  assert.equal(c.errors.length, 1);
  assert.equal(c.errors[0].line, 3);
});

test("readDataset lists the paths inside object columns, for promptfoo-style vars", () => {
  const t = rj.readDataset('{"vars": {"question": "Q", "context": ["a", "b"]}, "output": "A"}\n{"vars": {"question": "R", "context": []}, "output": "B"}\n');
  assert.deepEqual(t.columns, ["vars", "output"]);
  assert.ok(t.paths.includes("vars.question"), t.paths.join());
  assert.ok(t.paths.includes("vars.context"), t.paths.join());
});

test("readDataset errors: unknown format, empty text, wrong argument types", () => {
  throwsRJ(() => rj.readDataset("a,b\n", "xlsx"), { kind: "dataset", message: /xlsx/ });
  throwsRJ(() => rj.readDataset("  \n"), { kind: "dataset" });
  throwsRJ(() => rj.readDataset(), { kind: "input", subject: "readDataset", message: /text is required/ });
  throwsRJ(() => rj.readDataset(["a"]), { kind: "input", subject: "readDataset", message: /text must be a string/ });
  throwsRJ(() => rj.readDataset("a\n", 1), { kind: "input", subject: "readDataset", message: /format must be a string/ });
});

test("mapColumns recognises RAGAS, promptfoo and this tool's own names, in input order", () => {
  const ragas = rj.mapColumns("pairwise-faithfulness", ["user_input", "retrieved_contexts", "response", "reference"]);
  assert.deepEqual(ragas, { contexts: "retrieved_contexts", expected_output: "reference", actual_output: "response" });
  assert.deepEqual(Object.keys(ragas), ["contexts", "expected_output", "actual_output"]);

  const own = rj.mapColumns("answer-grounding", ["facts", "answer", "mode"]);
  assert.deepEqual(Object.keys(own), ["answer", "facts", "mode"]);

  const pf = rj.mapColumns("claim-groundedness", ["vars", "vars.question", "vars.claims", "vars.context"]);
  assert.equal(pf.question, "vars.question");
  assert.equal(pf.claims, "vars.claims");

  assert.deepEqual(rj.mapColumns("rag-recall", ["unrelated"]), {});
});

test("rowInputs builds an evaluator's inputs from a row, JSON lists in CSV cells included", () => {
  const t = rj.readDataset('question,contexts,answer\nWhat?,"[""Paris is in France."", ""Lyon too.""]",Paris.\n', "csv");
  const m = rj.mapColumns("answer-grounding", t.columns);
  assert.equal(m.answer, "answer");
  assert.equal(m.facts, "contexts");
  const { inputs, messages } = rj.rowInputs("answer-grounding", t.rows[0], m);
  assert.equal(inputs.answer, "Paris.");
  assert.deepEqual(inputs.facts, ["Paris is in France.", "Lyon too."]);
  assert.ok(Array.isArray(messages));
  assert.ok(rj.render("answer-grounding", inputs).prompt.includes("1. Paris is in France.\n2. Lyon too."));

  const missing = rj.rowInputs("answer-grounding", { answer: "" }, { answer: "answer", facts: "contexts" });
  assert.ok(missing.messages.length >= 2, missing.messages.join("\n"));
  assert.ok(missing.messages.some((s) => s.includes("facts")));
});

test("mapColumns and rowInputs check their arguments", () => {
  throwsRJ(() => rj.mapColumns("nope", ["a"]), { kind: "input", subject: "nope", message: /unknown evaluator/ });
  throwsRJ(() => rj.mapColumns("rag-recall", "a,b"), { kind: "input", subject: "mapColumns", message: /columns must be a list of strings/ });
  throwsRJ(() => rj.mapColumns("rag-recall", ["a", 2]), { kind: "input", subject: "mapColumns", message: /columns\[1\]/ });
  throwsRJ(() => rj.rowInputs("rag-recall", [], {}), { kind: "input", subject: "rowInputs", message: /row must be an object/ });
  throwsRJ(() => rj.rowInputs("rag-recall", {}, { passage_gt: 3 }), { kind: "input", subject: "rowInputs", message: /mapping\["passage_gt"\]/ });
  throwsRJ(() => rj.rowInputs("rag-recall", {}), { kind: "input", subject: "rowInputs", message: /mapping is required/ });
});
