// checkuprun.test.mjs: a check-up as the page runs it (web/checkup/cases.js, grade.js): a seeded
// draw of the dataset's rows, their cases as a batch run's items (what each is, kept on the item),
// and a stored run's results graded into the matrix by the core: a judge that answers what each
// case makes right catches everything, one that always says yes misses every failure, a case not
// judged or failed is counted apart, the rag-recall case graded against its row's complete case,
// and a case judged several times taking the majority of its repeats' outcomes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api } from "./rj.mjs";
import { planCheckup, drawRows, seedOf, rowsOf, caseOf, seededRandom } from "../../web/checkup/cases.js";
import { gradeCheckup, combine } from "../../web/checkup/grade.js";

const rj = await api();

const groundingRows = [
  { answer: "The Eiffel Tower was completed in 1889.", facts: ["The Eiffel Tower was completed in 1889 for the World's Fair.", "It stands 330 metres tall in Paris."], mode: "strict" },
  { answer: "Honeybees dance to share where flowers are.", facts: ["Honeybees communicate flower locations using a waggle dance.", "A colony can hold 60000 workers in summer."], mode: "strict" },
  { answer: "Krakatoa erupted violently in 1883.", facts: ["Krakatoa erupted in August 1883 with enormous force.", "The explosion was heard 4800 kilometres away."], mode: "lenient" },
  { answer: "Penicillin was discovered by Fleming.", facts: ["Alexander Fleming discovered penicillin in 1928.", "Mould had contaminated a culture plate in his laboratory."], mode: "strict" },
  { answer: "The Nile flows north into the Mediterranean.", facts: ["The Nile river flows northward through eleven countries.", "Its delta empties into the Mediterranean Sea near Alexandria."], mode: "strict" },
  { answer: "Venus rotates backwards.", facts: ["Venus spins in retrograde compared with most planets.", "A single Venusian day lasts 243 Earth days."], mode: "lenient" },
];
const dataset = (list) => list.map((inputs, index) => ({ index, source: { id: "q" + index, ...inputs }, inputs }));

/** resultOf is a stored result whose verdict the judge's answer text gives. */
const resultOf = (id, inputs, text) => ({ verdict: rj.parse(id, inputs, text), answers: [text], error: null });

test("drawRows: seeded, without putting back, in the dataset's order; seeds and row counts are read strictly", () => {
  const list = Array.from({ length: 50 }, (_, i) => i);
  const a = drawRows(list, 10, 42);
  assert.deepEqual(a, drawRows(list, 10, 42), "the same seed draws the same rows");
  assert.notDeepEqual(a, drawRows(list, 10, 43));
  assert.equal(new Set(a).size, 10);
  assert.deepEqual(a, [...a].sort((x, y) => x - y));
  assert.deepEqual(drawRows([3, 1], 5, 1), [3, 1], "no more rows than there are");
  const r = seededRandom(9);
  for (let i = 0; i < 1000; i++) {
    const x = r();
    assert.ok(x >= 0 && x < 1);
  }
  assert.equal(seedOf(" 123 "), 123);
  assert.equal(seedOf("0"), 0);
  for (const bad of ["", "-1", "1.5", "1e3", "abc", "99999999999"]) assert.equal(seedOf(bad), null, bad);
  assert.equal(rowsOf("20"), 20);
  for (const bad of ["0", "201", "2.5", "", "x"]) assert.equal(rowsOf(bad), null, bad);
});

test("planCheckup: the drawn rows' cases as run items, the same for the same seed, with what was skipped and why", async () => {
  const rows = dataset(groundingRows);
  const plan = await planCheckup(rj, "answer-grounding", rows, { n: 4, seed: 7 });
  assert.equal(plan.drawn.length, 4);
  assert.deepEqual(plan.transforms.map((t) => t.transform), ["verbatim", "foreign", "number-changed", "verbatim-plus-foreign"]);
  assert.equal(plan.items.length, plan.transforms.reduce((n, t) => n + t.cases, 0));
  for (const it of plan.items) {
    assert.ok(plan.drawn.includes(it.checkup.row));
    assert.equal(it.source.id, "q" + it.checkup.row, "the item keeps its dataset row's columns");
    assert.ok(rj.render("answer-grounding", it.inputs).prompt, "every case renders");
    assert.deepEqual(caseOf(it).inputs, it.inputs);
  }
  assert.deepEqual(await planCheckup(rj, "answer-grounding", rows, { n: 4, seed: 7 }), plan);
  // The evaluator's example alone: no other row to take a foreign sentence from, and it says so.
  const ex = rj.evaluators().find((e) => e.id === "answer-grounding").example.inputs;
  const alone = await planCheckup(rj, "answer-grounding", [{ index: -1, inputs: ex }], { n: 20, seed: 1 });
  assert.deepEqual(alone.drawn, [-1]);
  const foreign = alone.transforms.find((t) => t.transform === "foreign");
  assert.equal(foreign.cases, 0);
  assert.match(foreign.reason, /no other row|share/);
  // A pairwise row's position-swap case is judged in both orders.
  const pw = rj.evaluators().find((e) => e.id === "pairwise-faithfulness").example.inputs;
  const pairwise = await planCheckup(rj, "pairwise-faithfulness", [{ index: 0, inputs: pw }], { n: 1, seed: 1 });
  const swap = pairwise.items.filter((it) => it.bothOrders);
  assert.equal(swap.length, 1);
  assert.equal(swap[0].checkup.transform, "position-swap");
  assert.equal(pairwise.doubled, 1);
  // A row the evaluator cannot judge is refused, with why; the others go on.
  const refused = await planCheckup(rj, "answer-grounding", [{ index: 0, inputs: { answer: "x" } }, ...dataset(groundingRows).slice(1, 3)], { n: 3, seed: 1 });
  assert.equal(refused.refused.length, 1);
  assert.equal(refused.refused[0].row, 0);
  assert.ok(refused.items.length > 0);
});

test("gradeCheckup: a judge that answers what each case makes right catches all; one that always says yes misses every failure", async () => {
  const id = "answer-grounding";
  const plan = await planCheckup(rj, id, dataset(groundingRows), { n: 6, seed: 3 });
  const order = plan.transforms.map((t) => t.transform);
  const right = plan.items.map((it) => resultOf(id, it.inputs, it.checkup.expect.passed ? "Yes" : "No"));
  const good = gradeCheckup(rj, plan.items, right, order);
  assert.equal(good.matrix.overall.caught, plan.items.length);
  assert.equal(good.matrix.overall.catch.rate, 1);
  assert.deepEqual(good.matrix.rows.map((r) => r.transform), order);

  const yes = gradeCheckup(rj, plan.items, plan.items.map((it) => resultOf(id, it.inputs, "Yes")), order);
  const by = Object.fromEntries(yes.matrix.rows.map((r) => [r.transform, r]));
  assert.equal(by.verbatim.catch.rate, 1);
  for (const t of ["foreign", "number-changed", "verbatim-plus-foreign"]) {
    assert.equal(by[t].catch.rate, 0, t);
    assert.equal(by[t].missed, by[t].total, t);
  }
  const missed = yes.cases.find((g) => g.outcome === "missed");
  assert.match(missed.detail, /expected "Not grounded"; the judge said "Grounded"/);
  assert.equal(missed.expected, "Not grounded");

  // Not judged yet, failed, and unreadable: counted apart or as undetermined, never as missed.
  const mixed = right.slice();
  mixed[0] = undefined;
  mixed[1] = { verdict: null, answers: [], error: { kind: "http", status: 500, message: "HTTP 500" } };
  mixed[2] = resultOf(id, plan.items[2].inputs, "I cannot tell.");
  const m = gradeCheckup(rj, plan.items, mixed, order);
  assert.equal(m.pending, 1);
  assert.equal(m.errors, 1);
  assert.equal(m.matrix.overall.total, plan.items.length - 2);
  assert.equal(m.matrix.overall.undetermined, 1);
  assert.equal(m.cases[2].outcome, "undetermined");
  assert.equal(m.cases[2].code, "answer.no-verdict");
  assert.equal(m.matrix.overall.missed, 0);
});

test("gradeCheckup: a recall case is graded against its row's complete case; repeats take the majority of their outcomes", async () => {
  const id = "rag-recall";
  const ex = rj.evaluators().find((e) => e.id === id).example.inputs;
  const plan = await planCheckup(rj, id, [{ index: 0, inputs: ex }], { n: 1, seed: 1 });
  const complete = plan.items.findIndex((it) => it.checkup.transform === "complete");
  const removed = plan.items.findIndex((it) => it.checkup.transform === "passage-removed");
  assert.ok(complete >= 0 && removed >= 0);
  const n = rj.passages(ex.passage_gt);
  // The seed's answer format: each passage's reasoning and score, in order.
  const answerWith = (scores) =>
    "• RECALL_Reasoning: " + scores.map((s, k) => (k < n.essential.length ? `[ESSENTIAL PASSAGE] ${k + 1}` : `[BONUS PASSAGE] ${k + 1 - n.essential.length}`) + `: seen. Score: ${s}`).join(" ");
  const all = [...n.essential.map(() => 5), ...n.bonus.map(() => 5)];
  const gone = all.map((s, k) => (k === plan.items[removed].checkup.expect.scores.passage - 1 ? 1 : s));
  const results = [];
  results[complete] = resultOf(id, plan.items[complete].inputs, answerWith(all));
  results[removed] = resultOf(id, plan.items[removed].inputs, answerWith(gone));
  const g = gradeCheckup(rj, plan.items, results);
  assert.equal(g.cases[removed].outcome, "caught", g.cases[removed].detail);
  assert.match(g.cases[removed].detail, /below the complete case's/);
  // Without the complete case's verdict, the relative part cannot be graded.
  const alone = [];
  alone[removed] = results[removed];
  assert.equal(gradeCheckup(rj, plan.items, alone).cases[removed].outcome, "undetermined");

  assert.deepEqual(combine([{ outcome: "caught", detail: "a" }, { outcome: "missed", detail: "b" }, { outcome: "caught", detail: "c" }]), { outcome: "caught", detail: "3 repeats: 2 caught, 1 missed. a" });
  assert.equal(combine([{ outcome: "caught", detail: "a" }, { outcome: "missed", detail: "b" }]).outcome, "undetermined", "a tie");
  // A stored result with repeats: each repeat graded, the majority taken.
  const gid = "answer-grounding";
  const gplan = await planCheckup(rj, gid, dataset(groundingRows), { n: 2, seed: 5 });
  const reps = gplan.items.map((it) => {
    const want = it.checkup.expect.passed ? "Yes" : "No";
    const wrong = want === "Yes" ? "No" : "Yes";
    const repeats = [want, wrong, want].map((t) => ({ verdict: rj.parse(gid, it.inputs, t), answers: [t], repaired: false }));
    return { verdict: repeats[0].verdict, answers: [], error: null, repeats };
  });
  const gr = gradeCheckup(rj, gplan.items, reps);
  assert.ok(gr.cases.every((c) => c.outcome === "caught"), "two of three repeats caught each case");
  assert.match(gr.cases[0].detail, /^3 repeats: 2 caught, 1 missed\./);
});
