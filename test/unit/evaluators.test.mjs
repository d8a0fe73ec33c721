// evaluators.test.mjs: evaluators(), render() and parse() of every built-in evaluator through
// the JS API. Expected prompts are built from the verbatim seed in prompts/ by the rendering
// conventions of docs/ARCHITECTURE.md ("Rendering prompts"), so a change in the core's rendering
// shows up here as a diff.
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, prompt, throwsRJ } from "./rj.mjs";

const rj = await api();

const ids = ["claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall"];

test("evaluators() lists the four built-ins in display order with their input schemas", () => {
  const list = rj.evaluators();
  assert.deepEqual(list.map((e) => e.id), ids);
  const dialects = { "claim-groundedness": "jinja", "answer-grounding": "format", "pairwise-faithfulness": "jinja", "rag-recall": "format" };
  const kinds = new Set(["text", "list", "claims", "evidence", "choice", "number"]);
  for (const e of list) {
    assert.equal(e.dialect, dialects[e.id], e.id);
    for (const k of ["title", "description", "output"]) assert.ok(typeof e[k] === "string" && e[k].length > 0, `${e.id}.${k}`);
    assert.ok(Array.isArray(e.inputs) && e.inputs.length > 0, e.id);
    for (const input of e.inputs) {
      assert.equal(typeof input.name, "string");
      assert.equal(typeof input.label, "string");
      assert.ok(kinds.has(input.kind), `${e.id}.${input.name} kind ${input.kind}`);
      assert.equal(typeof input.required, "boolean");
      if (input.kind === "choice") assert.ok(Array.isArray(input.choices) && input.choices.length > 0);
    }
    assert.equal(e.prompt, undefined, "the prompt text is not part of the listing");
  }
  const names = Object.fromEntries(list.map((e) => [e.id, e.inputs.map((i) => i.name)]));
  for (const n of ["question", "claims", "evidence"]) assert.ok(names["claim-groundedness"].includes(n), n);
  for (const n of ["answer", "facts", "mode"]) assert.ok(names["answer-grounding"].includes(n), n);
  for (const n of ["contexts", "expected_output", "actual_output"]) assert.ok(names["pairwise-faithfulness"].includes(n), n);
  for (const n of ["passage_gt", "passage_llm"]) assert.ok(names["rag-recall"].includes(n), n);
  const mode = list[1].inputs.find((i) => i.name === "mode");
  assert.equal(mode.kind, "choice");
  assert.deepEqual(mode.choices.slice(0, 2), ["strict", "lenient"]);
  const judged = Object.fromEntries(list.map((e) => [e.id, e.inputs.filter((i) => i.judged === true).map((i) => i.name)]));
  assert.deepEqual(judged, { "claim-groundedness": ["claims"], "answer-grounding": ["answer"], "pairwise-faithfulness": ["actual_output"], "rag-recall": ["passage_llm"] }, "exactly one input of each is the one judged");
  assert.deepEqual(rj.evaluators(), list, "a fresh copy each call, same content");
});

test("evaluators() declares each evaluator whole: words, view, score, a worked example that renders and parses", () => {
  const list = rj.evaluators();
  assert.deepEqual(list.map((e) => e.order), [...list.map((e) => e.order)].sort((a, b) => a - b), "listed by order");
  const views = { "claim-groundedness": "claims", "answer-grounding": "yes-no", "pairwise-faithfulness": "pairwise", "rag-recall": "recall" };
  const words = { "claim-groundedness": "Grounded", "answer-grounding": "Grounded", "pairwise-faithfulness": "Faithful", "rag-recall": "Meets threshold" };
  for (const e of list) {
    assert.equal(e.view, views[e.id], e.id);
    assert.equal(e.words.passed, words[e.id], e.id);
    assert.ok(typeof e.words.failed === "string" && e.words.failed.length > 0, e.id);
    assert.ok(["fraction", "binary", "scale"].includes(e.score.kind), e.id);
    const r = rj.render(e.id, e.example.inputs);
    assert.ok(r.prompt.length > 0, e.id);
    const v = rj.parse(e.id, e.example.inputs, e.example.answer);
    assert.equal(typeof v.passed, "boolean", `${e.id}: the example has a verdict`);
    if (e.score.kind === "fraction") {
      const at = (path) => path.split(".").reduce((o, k) => o?.[k], v.verdict);
      assert.equal(v.score, at(e.score.passed) / at(e.score.total), e.id);
    }
    if (e.score.kind === "scale") assert.ok(v.score >= 0 && v.score <= e.score.max, e.id);
  }
});

// checkRendered checks what every render result must be, and that each span slices the prompt at
// the text that was substituted for its expression.
function checkRendered(r, substituted) {
  assert.deepEqual(Object.keys(r), ["prompt", "messages", "warnings", "checks", "spans"]);
  assert.ok(Array.isArray(r.checks));
  assert.deepEqual(r.checks.map((c) => c.message), r.warnings, "warnings are the checks' messages");
  for (const c of r.checks) assert.ok(typeof c.code === "string" && c.code.length > 0, JSON.stringify(c));
  for (const s of r.spans) assert.deepEqual(Object.keys(s), ["expr", "input", "start", "end"]);
  assert.deepEqual(r.messages, [{ role: "user", content: r.prompt }]);
  assert.ok(Array.isArray(r.warnings));
  assert.ok(Array.isArray(r.spans));
  const seen = new Set();
  for (const s of r.spans) {
    assert.equal(typeof s.expr, "string");
    assert.ok(Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start && s.start <= s.end && s.end <= r.prompt.length,
      `span ${JSON.stringify(s)} in a prompt of ${r.prompt.length}`);
    if (s.expr in substituted) {
      assert.equal(r.prompt.slice(s.start, s.end), substituted[s.expr], `span of ${s.expr}`);
      seen.add(s.expr);
    }
  }
  for (const expr of Object.keys(substituted)) assert.ok(seen.has(expr), `a span for ${expr} in ${JSON.stringify(r.spans)}`);
}

test("render claim-groundedness: claims as c1…, evidence blocks with and without titles, spans in UTF-16", () => {
  // Non-ASCII and astral characters before the later spans check the byte -> UTF-16 conversion.
  const question = "Which drug was prescribed to the 👩‍⚕️ patient (café)?";
  const inputs = {
    question,
    claims: ["Aspirin was prescribed.", "The patient is well 😀."],
    evidence: [{ title: "Chart §1", text: "Aspirin 100 mg prescribed." }, "No adverse events {{ noted }}."],
  };
  const reports = "Claim c1: Aspirin was prescribed.\nClaim c2: The patient is well 😀.";
  const evidence = "ID: 1 | Chart §1\nAspirin 100 mg prescribed.\n\nID: 2\nNo adverse events {{ noted }}.";
  const r = rj.render("claim-groundedness", inputs);
  const want = prompt("claim-groundedness")
    .replace("{{ question }}", () => question)
    .replace("{{ reports }}", () => reports)
    .replace("{{ evidence }}", () => evidence);
  assert.equal(r.prompt, want);
  assert.deepEqual(r.warnings, []);
  checkRendered(r, { question, reports, evidence });

  const byId = rj.render("claim-groundedness", {
    question: "Q",
    claims: [{ id: "a", text: "One." }, { id: "b", text: "Two." }],
    evidence: ["E"],
  });
  assert.ok(byId.prompt.includes("Claim reports to verify: Claim a: One.\nClaim b: Two.\n"), byId.prompt);
  assert.ok(byId.prompt.includes("Evidence (each chunk labeled with an integer ID): ID: 1\nE\n"), byId.prompt);
});

test("render answer-grounding: numbered facts, text facts, mode default, lenient, unknown mode warns", () => {
  const answer = "Paris is the capital of France.";
  const facts = ["The capital of France is Paris.", "Paris is in Europe."];
  const factsText = "1. The capital of France is Paris.\n2. Paris is in Europe.";
  const seed = prompt("answer-grounding");
  const fill = (mode, f) => seed.replace("{mode}", () => mode).replace("{answer}", () => answer).replace("{facts}", () => f);

  const r = rj.render("answer-grounding", { answer, facts });
  assert.equal(r.prompt, fill("strict", factsText));
  assert.deepEqual(r.warnings, []);
  checkRendered(r, { answer, facts: factsText, mode: "strict" });

  assert.equal(rj.render("answer-grounding", { answer, facts, mode: "lenient" }).prompt, fill("lenient", factsText));
  assert.equal(rj.render("answer-grounding", { answer, facts: "one {fact}", mode: "strict" }).prompt, fill("strict", "one {fact}"));

  const odd = rj.render("answer-grounding", { answer, facts, mode: "fuzzy" });
  assert.equal(odd.prompt, fill("strict", factsText));
  assert.equal(odd.warnings.length, 1);
  assert.match(odd.warnings[0], /fuzzy/);
});

test("render pairwise-faithfulness: the seed's Jinja loop as Jinja2 renders it", () => {
  const contexts = ["Paris is the capital of France.", "Lyon is in France."];
  const expected_output = "Paris is the capital [1].";
  const actual_output = "Paris is the capital [1]. Lyon is big [3].";
  const r = rj.render("pairwise-faithfulness", { contexts, expected_output, actual_output });
  const seed = prompt("pairwise-faithfulness");
  const loop = "List of references :\n{%- for context in contexts %}\nReference {{ loop.index }}: {{ context }}\n{%- endfor %}\n";
  assert.ok(seed.includes(loop));
  const want = seed
    .replace(loop, () => "List of references :\nReference 1: Paris is the capital of France.\nReference 2: Lyon is in France.\n")
    .replace("{{ expected_output }}", () => expected_output)
    .replace("{{ actual_output }}", () => actual_output);
  assert.equal(r.prompt, want);
  checkRendered(r, { expected_output, actual_output });
  const ctxSpans = r.spans.filter((s) => s.expr === "context").map((s) => r.prompt.slice(s.start, s.end));
  assert.deepEqual(ctxSpans, contexts);
  // The loop's variable is the contexts input's text; loop.index is no input's.
  assert.deepEqual([...new Set(r.spans.map((s) => `${s.expr}=${s.input}`))], ["loop.index=", "context=contexts", "expected_output=expected_output", "actual_output=actual_output"]);
});

test("render rag-recall: str.format with inputs inserted verbatim", () => {
  const passage_gt = "[ESSENTIAL PASSAGE] The capital is Paris.\n[BONUS PASSAGE] It has {two} million people.";
  const passage_llm = "Paris ✓, ~2M {people}.";
  const r = rj.render("rag-recall", { passage_gt, passage_llm });
  const want = prompt("rag-recall").replace("{passage_gt}", () => passage_gt).replace("{passage_llm}", () => passage_llm);
  assert.equal(r.prompt, want);
  checkRendered(r, { passage_gt, passage_llm });
});

test("render and parse reject a missing required input, a wrong input type and an unknown id", () => {
  throwsRJ(() => rj.render("answer-grounding", { facts: ["x"] }), { kind: "input" });
  throwsRJ(() => rj.render("claim-groundedness", { question: "q", claims: 7, evidence: ["e"] }), { kind: "input" });
  throwsRJ(() => rj.render("unknown", {}), { kind: "input", subject: "unknown", message: /unknown evaluator/ });
  throwsRJ(() => rj.parse("unknown", {}, "yes"), { kind: "input", subject: "unknown" });
  throwsRJ(() => rj.parse("answer-grounding", { facts: ["x"] }, "yes"), { kind: "input" });
});

// Every verdict has the same shape, and an undetermined score always says why.
function checkVerdict(v) {
  assert.deepEqual(Object.keys(v).sort(), ["checks", "passed", "score", "verdict"]);
  assert.ok(v.passed === true || v.passed === false || v.passed === null, `passed ${v.passed}`);
  assert.ok(v.score === null || Number.isFinite(v.score), `score ${v.score}`);
  assert.ok(Array.isArray(v.checks));
  for (const c of v.checks) {
    assert.ok(c.severity === "error" || c.severity === "warning", JSON.stringify(c));
    assert.ok(typeof c.message === "string" && c.message.length > 0);
  }
  if (v.score === null) assert.ok(v.checks.some((c) => c.severity === "error"), "a null score says why");
  return v;
}

const errors = (v) => v.checks.filter((c) => c.severity === "error");

const cgInputs = { question: "Q?", claims: ["Aspirin was prescribed.", "The patient is well."], evidence: ["Aspirin prescribed."] };

const cases = [
  // [name, id, inputs, judge answer, passed, score]
  ["claim-groundedness, one claim ungrounded", "claim-groundedness", cgInputs,
    '{"claims":[{"claim_id":"c1","grounded":true,"ungrounded_assertions":[]},{"claim_id":"c2","grounded":false,"ungrounded_assertions":[{"assertion":"the patient is well","reason":"not in the evidence"}]}]}',
    false, 0.5],
  ["claim-groundedness, all grounded in a fence after prose", "claim-groundedness", cgInputs,
    'Here is my review.\n```json\n{"claims":[{"claim_id":"c1","grounded":true,"ungrounded_assertions":[]},{"claim_id":"c2","grounded":true,"ungrounded_assertions":[]}]}\n```',
    true, 1],
  ["answer-grounding, yes", "answer-grounding", { answer: "a", facts: ["f"] }, "yes", true, 1],
  ["answer-grounding, **No.**", "answer-grounding", { answer: "a", facts: ["f"] }, "**No.**", false, 0],
  ["pairwise-faithfulness, answer_2 faithful", "pairwise-faithfulness",
    { contexts: ["Paris is the capital of France."], expected_output: "Paris [1].", actual_output: "Paris is the capital [1]." },
    '{"answer_1":{"answer_only_asserts_no_document_answers":false,"content_analysis_sentence_by_sentence":[],"faithfulness_justification":"ok","faithfulness":true},"answer_2":{"answer_only_asserts_no_document_answers":false,"content_analysis_sentence_by_sentence":[],"faithfulness_justification":"ok","faithfulness":true}}',
    true, 1],
  ["pairwise-faithfulness, answer_2 unfaithful", "pairwise-faithfulness",
    { contexts: ["Paris is the capital of France."], expected_output: "Paris [1].", actual_output: "Lyon is the capital [1]." },
    '{"answer_1":{"faithfulness":1,"answer_only_asserts_no_document_answers":false},"answer_2":{"faithfulness":0,"answer_only_asserts_no_document_answers":false}}',
    false, 0],
  ["rag-recall, the seed's example 1 without a threshold", "rag-recall",
    { passage_gt: "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b\n[BONUS PASSAGE] c\n[BONUS PASSAGE] d", passage_llm: "x" },
    "• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: ok. Score: 4 [ESSENTIAL PASSAGE] 2: ok. Score: 3 [BONUS PASSAGE] 1: ok. Score: 4 [BONUS PASSAGE] 2: no. Score: 0\n\n• RECALL_Essential_Formula: (4 + 3) / 2 = 3.5\n\n• RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5\n\n• RECALL_Combined_Formula: 3.5 + 0.5 = 4\n\n• RECALL_Final_Score_Calculation: min(5, 4) = 4\n\n• RECALL_Final_Score: 4",
    null, 4],
  ["rag-recall, with a threshold", "rag-recall",
    { passage_gt: "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b", passage_llm: "x", threshold: 1.5 },
    "[ESSENTIAL PASSAGE] 1: Score: 1\n[ESSENTIAL PASSAGE] 2: Score: 2\nRECALL_Final_Score: 1.5",
    true, 1.5],
];

for (const [name, id, inputs, answer, passed, score] of cases) {
  test(`parse ${name}`, () => {
    const v = checkVerdict(rj.parse(id, inputs, answer));
    assert.equal(v.passed, passed, JSON.stringify(v.checks));
    assert.equal(v.score, score, JSON.stringify(v.checks));
    assert.deepEqual(errors(v), []);
  });
}

const bad = [
  ["claim-groundedness", cgInputs, "I am sorry, I cannot evaluate this."],
  ["claim-groundedness", cgInputs, '{"claims":[{"claim_id":"c1","grounded":tr'],
  ["answer-grounding", { answer: "a", facts: ["f"] }, "It depends on the mode."],
  ["answer-grounding", { answer: "a", facts: ["f"] }, ""],
  ["pairwise-faithfulness", { contexts: ["c"], expected_output: "e [1].", actual_output: "a [1]." }, '{"answer_1": {"faithfulness": true}}'],
  ["rag-recall", { passage_gt: "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b", passage_llm: "x" }, "[ESSENTIAL PASSAGE] 1: Score: 9\n[ESSENTIAL PASSAGE] 2: Score: 4"],
  ["rag-recall", { passage_gt: "[ESSENTIAL PASSAGE] a", passage_llm: "x" }, "No scores here."],
];

for (const [id, inputs, answer] of bad) {
  test(`parse ${id} does not throw for a bad answer: ${JSON.stringify(answer).slice(0, 50)}`, () => {
    const v = checkVerdict(rj.parse(id, inputs, answer));
    assert.equal(v.passed, null);
    assert.equal(v.score, null);
    assert.ok(errors(v).length > 0);
  });
}

test("parse says a payload cut short looks truncated", () => {
  const v = rj.parse("claim-groundedness", cgInputs, '{"claims":[{"claim_id":"c1","grounded":true,"ungrounded_assertions":[]},{"claim_id":"c2","gro');
  assert.match(errors(v).map((c) => c.message).join("\n"), /truncat/i);
  // What arrived whole is graded; the rest is cut, not skipped, and there is no verdict.
  assert.equal(v.passed, null);
  assert.equal(v.score, null);
  assert.equal(v.checks[0].code, "answer.truncated");
  assert.deepEqual(v.verdict.claims.map((c) => c.status), ["grounded", ...v.verdict.claims.slice(1).map(() => "cut")]);
  assert.equal(v.verdict.counts.cut, v.verdict.claims.length - 1);
  assert.ok(!v.checks.some((c) => c.code === "claims.skipped"));
});

test("parse checks its own arguments", () => {
  throwsRJ(() => rj.parse("answer-grounding", { answer: "a", facts: ["f"] }, 1), { kind: "input", subject: "parse", message: /output must be a string/ });
  throwsRJ(() => rj.parse("answer-grounding", { answer: "a", facts: ["f"] }), { kind: "input", subject: "parse", message: /output is required/ });
  throwsRJ(() => rj.parse("answer-grounding", ["a"], "yes"), { kind: "input", subject: "parse", message: /inputs must be an object, got a list/ });
  throwsRJ(() => rj.parse(null, {}, "yes"), { kind: "input", subject: "parse", message: /id is required/ });
  throwsRJ(() => rj.parse(["answer-grounding"], {}, "yes"), { kind: "input", subject: "parse", message: /id must be a string, got a list/ });
  throwsRJ(() => rj.render({ id: "answer-grounding" }, {}), { kind: "input", subject: "render", message: /id must be a string, got an object/ });
  throwsRJ(() => rj.parse("answer-grounding", { answer: "a", facts: ["f"] }, 1n), { kind: "input", subject: "parse", message: /output must be a string, got a number/ });
});
