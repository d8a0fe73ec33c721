// checkup.test.mjs: the check-up through the JS API against the built wasm: rj.checkupCases,
// rj.checkupGrade, rj.checkupMatrix, the two orders of a pairwise row (rj.swapOrders,
// rj.combineOrders, rj.positionStats), the custom evaluators' checkup field, and the published
// figures (checkupReferences).
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, throwsRJ } from "./rj.mjs";
import { checkupReferences } from "../../web/api/checkupreferences.js";
import { encodeShare, decodeShare } from "../../web/share/codec.js";
import { exportFile, readImport } from "../../web/custom/specedit.js";

const rj = await api();

const claimsRow = {
  question: "When was the Eiffel Tower built?",
  claims: ["The tower was finished in 1889.", "It is made of iron."],
  evidence: [{ title: "History", text: "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall." }],
};
const pool = [
  { question: "Why did Krakatoa matter?", claims: ["Krakatoa erupted."], evidence: ["Volcanic eruptions release sulfur dioxide into the stratosphere."] },
  { question: "How do bees talk?", claims: ["Bees dance."], evidence: ["Honeybees communicate flower locations using a waggle dance."] },
];

/** claimAnswer grades every claim of inputs grounded except `bad`, as a judge would write it. */
function claimAnswer(inputs, bad) {
  const none = rj.parse("claim-groundedness", inputs, '{"claims": []}');
  const claims = none.verdict.claims.map((c) => ({ claim_id: c.id, grounded: c.id !== bad, ungrounded_assertions: c.id === bad ? [{ assertion: c.text, reason: "no" }] : [] }));
  return JSON.stringify({ claims });
}

test("checkupCases gives a row's cases, the same for the same seed, and what it skipped and why", () => {
  const r = rj.checkupCases("claim-groundedness", claimsRow, { seed: 1, pool });
  assert.deepEqual(r.cases.map((c) => c.transform), ["verbatim", "foreign", "number-changed"]);
  assert.deepEqual(r.skipped, []);
  for (const c of r.cases) {
    assert.equal(typeof c.name, "string");
    assert.equal(typeof c.note, "string");
    assert.ok(c.expect.claim && typeof c.expect.claim.id === "string", JSON.stringify(c.expect));
    // Plain inputs: they render like any row's.
    assert.ok(rj.render("claim-groundedness", c.inputs).prompt.includes("Claim " + c.expect.claim.id + ": "));
  }
  assert.deepEqual(rj.checkupCases("claim-groundedness", claimsRow, { seed: 1, pool }), r);
  assert.deepEqual(claimsRow.claims, ["The tower was finished in 1889.", "It is made of iron."], "the row is not changed");

  const bare = rj.checkupCases("claim-groundedness", claimsRow);
  assert.deepEqual(bare.skipped.map((s) => s.transform), ["foreign"]);
  assert.match(bare.skipped[0].reason, /no other rows were given/);
});

test("checkupGrade: caught, missed and undetermined from the verdicts parse gives", () => {
  const { cases } = rj.checkupCases("claim-groundedness", claimsRow, { seed: 4, pool });
  for (const c of cases) {
    const id = c.expect.claim.id;
    const right = claimAnswer(c.inputs, c.expect.claim.grounded ? null : id);
    const wrong = claimAnswer(c.inputs, c.expect.claim.grounded ? id : null);
    assert.equal(rj.checkupGrade(c, rj.parse("claim-groundedness", c.inputs, right)).outcome, "caught", c.transform);
    const g = rj.checkupGrade(c, rj.parse("claim-groundedness", c.inputs, wrong));
    assert.equal(g.outcome, "missed", c.transform);
    assert.match(g.detail, new RegExp(`claim ${id}`));
    const u = rj.checkupGrade(c, rj.parse("claim-groundedness", c.inputs, '{"claims": [{"claim_id": "c1", '));
    assert.equal(u.outcome, "undetermined");
    assert.equal(u.code, "answer.truncated");
  }
  const grounding = rj.checkupCases("answer-grounding", { answer: "x", facts: ["The Eiffel Tower was completed in 1889."] }, { pool: [{ answer: "Honeybees communicate using a waggle dance." }] });
  const verbatim = grounding.cases.find((c) => c.transform === "verbatim");
  assert.deepEqual(verbatim.expect, { text: "Grounded", passed: true, words: { passed: "Grounded", failed: "Not grounded" } });
  assert.equal(rj.checkupGrade(verbatim, rj.parse("answer-grounding", verbatim.inputs, "Yes.")).outcome, "caught");
  assert.deepEqual(rj.checkupGrade(verbatim, rj.parse("answer-grounding", verbatim.inputs, "**No**")), {
    outcome: "missed", detail: 'expected "Grounded"; the judge said "Not grounded"' });
  throwsRJ(() => rj.checkupGrade({}, {}), { kind: "input", message: /the case has no expect object/ });
  throwsRJ(() => rj.checkupGrade(verbatim), { kind: "input", message: /verdict is required/ });
});

test("rag-recall's removed passage is graded against the complete answer's verdict (refs)", () => {
  const row = {
    passage_gt: "[ESSENTIAL PASSAGE]\nThe Eiffel Tower was completed in 1889 for the World's Fair.\n\n[ESSENTIAL PASSAGE]\nIts wrought iron lattice weighs about 7,300 tonnes.",
    passage_llm: "The tower opened in 1889.",
  };
  const { cases } = rj.checkupCases("rag-recall", row, { seed: 2 });
  const complete = cases.find((c) => c.transform === "complete");
  const removed = cases.find((c) => c.transform === "passage-removed");
  assert.equal(removed.expect.scores.final_below, "complete");
  const k = removed.expect.scores.passage;
  const scores = (s) => "RECALL_Reasoning: " + s.map((x) => `[ESSENTIAL PASSAGE] … Score: ${x}`).join(" ");
  const completeV = rj.parse("rag-recall", complete.inputs, scores([5, 5]));
  assert.equal(rj.checkupGrade(complete, completeV).outcome, "caught");
  const low = k === 1 ? [1, 5] : [5, 1];
  const removedV = rj.parse("rag-recall", removed.inputs, scores(low));
  assert.equal(rj.checkupGrade(removed, removedV).outcome, "undetermined", "no complete verdict to compare with");
  assert.equal(rj.checkupGrade(removed, removedV, { complete: completeV }).outcome, "caught");
});

test("a pairwise row judged in both orders: a slot-biased judge flips and is missed", () => {
  const row = {
    contexts: ["The Eiffel Tower was completed in 1889 for the World's Fair.", "Honey never spoils in sealed jars."],
    expected_output: "The tower was completed in 1889 [1].",
    actual_output: "The tower was completed in 1901 [1].",
  };
  const { cases } = rj.checkupCases("pairwise-faithfulness", row, {});
  const swap = cases.find((c) => c.transform === "position-swap");
  assert.equal(swap.both_orders, true);
  const swapped = rj.swapOrders("pairwise-faithfulness", swap.inputs);
  assert.equal(swapped.actual_output, row.expected_output);
  assert.equal(swapped.expected_output, row.actual_output);
  const answer = (a1, a2) => JSON.stringify({ answer_1: { faithfulness: a1 }, answer_2: { faithfulness: a2 } });

  const firstSlot = rj.combineOrders(rj.parse("pairwise-faithfulness", swap.inputs, answer(true, false)),
    rj.parse("pairwise-faithfulness", swapped, answer(true, false)));
  assert.equal(firstSlot.passed, null);
  assert.equal(firstSlot.checks.at(-1).code, "position.flip");
  assert.deepEqual(firstSlot.verdict.orders.first_slot, ["first", "first"]);
  assert.equal(rj.checkupGrade(swap, firstSlot).outcome, "missed");

  const fair = rj.combineOrders(rj.parse("pairwise-faithfulness", swap.inputs, answer(true, false)),
    rj.parse("pairwise-faithfulness", swapped, answer(false, true)));
  assert.equal(fair.passed, false);
  assert.equal(fair.verdict.orders.agree, true);
  assert.equal(rj.checkupGrade(swap, fair).outcome, "caught");

  const p = rj.positionStats([firstSlot, fair, null]);
  assert.equal(p.rows, 3);
  assert.equal(p.compared, 2);
  assert.equal(p.flips, 1);
  assert.equal(p.flip.rate, 0.5);
  assert.equal(p.not_both, 1);
  assert.equal(p.decided, 4);
  assert.equal(p.first_won, 3);
  assert.ok(p.first.ci[0] < 0.75 && p.first.ci[1] <= 1);
  throwsRJ(() => rj.swapOrders("answer-grounding", { answer: "a", facts: ["b"] }), { kind: "input", message: /compares no two answers/ });
});

test("checkupMatrix counts outcomes by transformation with Wilson intervals, never NaN", () => {
  const graded = [
    ...Array(9).fill({ transform: "foreign", outcome: "caught" }),
    { transform: "foreign", outcome: "missed" },
    { transform: "no-document", outcome: "undetermined" },
  ];
  const m = rj.checkupMatrix(graded);
  assert.deepEqual(m.rows.map((r) => [r.transform, r.caught, r.missed, r.undetermined, r.total]), [["foreign", 9, 1, 0, 10], ["no-document", 0, 0, 1, 1]]);
  assert.equal(m.rows[0].catch.rate, 0.9);
  assert.ok(Math.abs(m.rows[0].catch.ci[0] - 0.5958) < 1e-4);
  assert.equal(m.rows[1].catch.rate, null);
  assert.equal(m.rows[1].catch.ci, null);
  assert.equal(m.rows[1].catch.reason, "no case was decided");
  assert.equal(m.overall.total, 11);
  const all = rj.checkupMatrix([{ transform: "x", outcome: "caught" }]);
  assert.deepEqual(all.rows[0].catch.ci.map((x) => x === 1 || x < 1), [true, true]);
  assert.equal(all.rows[0].catch.ci[1], 1);
  throwsRJ(() => rj.checkupMatrix([{ transform: "x", outcome: "won" }]), { kind: "input", message: /none of caught, missed, undetermined/ });
});

test("a custom evaluator's checkup field is checked, kept in its definition, and decides its generic cases", () => {
  const spec = {
    id: "relevance-checkup",
    prompt: "Question: {{ question }}\nAnswer: {{ answer }}\nVerdict?",
    inputs: [{ name: "question" }, { name: "answer", judged: true }],
    output: { kind: "label", labels: { relevant: true, "partly relevant": null, irrelevant: false } },
    checkup: { replaced: false, halved: null, emptied: false },
  };
  const c = rj.checkEvaluator(spec);
  assert.equal(c.ok, true);
  assert.deepEqual(c.warnings.map((w) => [w.path, w.code]), [["checkup.emptied", "evaluator.bad-value"]]);
  rj.define(spec);
  assert.deepEqual(rj.spec("relevance-checkup").checkup, { replaced: false, emptied: false, halved: null }, "in the schema's order, null kept");
  assert.deepEqual(rj.evaluators().find((e) => e.id === "relevance-checkup").spec.checkup, { replaced: false, emptied: false, halved: null });

  const row = { question: "When was the Eiffel Tower built?", answer: "The Eiffel Tower was built between 1887 and 1889 for the World's Fair." };
  const r = rj.checkupCases("relevance-checkup", row, { seed: 3, pool: [{ question: "How do bees talk?", answer: "Honeybees communicate using a waggle dance." }] });
  assert.deepEqual(r.cases.map((x) => x.transform), ["replaced", "halved"]);
  assert.match(r.skipped.find((s) => s.transform === "emptied").reason, /answer is required/);
  const halved = r.cases[1];
  assert.equal(rj.checkupGrade(halved, rj.parse("relevance-checkup", halved.inputs, "Verdict: partly relevant")).outcome, "caught");
  assert.equal(rj.checkupGrade(halved, rj.parse("relevance-checkup", halved.inputs, "Verdict: relevant")).outcome, "missed");

  const bad = rj.checkEvaluator({ ...spec, checkup: { halved: "fail", shortened: true } });
  assert.deepEqual(bad.errors.map((e) => [e.path, e.code]), [["checkup.shortened", "evaluator.unknown-field"], ["checkup.halved", "evaluator.wrong-type"]]);
  const score = rj.checkEvaluator({ ...spec, output: { kind: "score", min: 1, max: 5 }, checkup: { replaced: false } });
  assert.deepEqual(score.warnings.map((w) => w.path), ["checkup"]);
  assert.match(score.warnings[0].message, /never pass or fail/);
  const yesno = rj.checkEvaluator({ ...spec, output: { kind: "yes-no" }, checkup: { halved: null } });
  assert.deepEqual(yesno.warnings.map((w) => w.path), ["checkup.halved"]);
  rj.undefine("relevance-checkup");
});

test("checkupCases refuses what is not a row, a seed or a pool, saying which", () => {
  throwsRJ(() => rj.checkupCases("nope", {}), { kind: "input", code: "input.unknown-evaluator" });
  throwsRJ(() => rj.checkupCases("answer-grounding", { answer: "a", facts: [] }), { kind: "input", code: "input.empty-list" });
  throwsRJ(() => rj.checkupCases("answer-grounding", { answer: "a", facts: ["b"] }, { seed: 1.5 }), { kind: "input", message: /options.seed must be a whole number, got 1.5/ });
  throwsRJ(() => rj.checkupCases("answer-grounding", { answer: "a", facts: ["b"] }, { pool: [{}, "x"] }), { kind: "input", message: /options.pool\[1\] must be a row's inputs/ });
  assert.ok(rj.checkupCases("answer-grounding", { answer: "a", facts: ["b"] }, { seed: 2 ** 40 }));
});

test("checkupReferences: the published figures, each with its source", () => {
  assert.deepEqual(checkupReferences.map((r) => r.id), ["mt-bench", "contextualjudgebench", "grouse"]);
  for (const r of checkupReferences) {
    assert.ok(r.figure && r.measures && r.compare && r.name && r.short, r.id);
    assert.ok(r.value === null || (r.value > 0 && r.value < 1), r.id);
    assert.match(r.source.url, /^https:\/\/(arxiv\.org|aclanthology\.org)\//);
    assert.ok(r.source.authors && r.source.title && r.source.venue && r.source.year >= 2023, r.id);
    assert.ok(Object.isFrozen(r) && Object.isFrozen(r.source));
  }
  assert.ok(Object.isFrozen(checkupReferences));
  assert.equal(checkupReferences[0].value, 0.8);
  assert.equal(checkupReferences[1].value, 0.55);
});

test("a definition's checkup field goes through an export file and a share link unchanged", async () => {
  const spec = {
    id: "kept-checkup",
    title: "Kept",
    prompt: "Q: {{ question }} A: {{ answer }}",
    inputs: [{ name: "question" }, { name: "answer", judged: true }],
    output: { kind: "yes-no" },
    checkup: { replaced: false, halved: true },
  };
  const normalised = rj.define(spec) && rj.spec("kept-checkup");
  assert.deepEqual(normalised.checkup, { replaced: false, halved: true });

  const { specs, errors } = readImport(exportFile([normalised]));
  assert.deepEqual(errors, []);
  assert.deepEqual(specs[0].checkup, { replaced: false, halved: true });
  assert.equal(rj.checkEvaluator(specs[0]).ok, true);

  const link = await encodeShare({ evaluator: "kept-checkup", spec: normalised, inputs: { question: "Q?", answer: "A." }, answer: "yes" });
  const back = await decodeShare(link, (id, s) => (rj.checkEvaluator(s).ok ? { inputs: s.inputs } : null));
  assert.equal(back.ok, true, JSON.stringify(back));
  assert.deepEqual(back.value.spec.checkup, { replaced: false, halved: true });
  rj.undefine("kept-checkup");
});
