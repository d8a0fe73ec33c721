// checkuprun.test.mjs: a check-up as the page runs it (web/checkup/cases.js, grade.js): a seeded
// draw of the dataset's rows, their cases as a batch run's items (what each is, kept on the item),
// and a stored run's results graded into the matrix by the core: a judge that answers what each
// case makes right catches everything, one that always says yes misses every failure, a case not
// judged or failed is counted apart, the rag-recall case graded against its row's complete case,
// and a case judged several times taking the majority of its repeats' outcomes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api } from "./rj.mjs";
import { planCheckup, drawRows, seedOf, rowsOf, caseOf, seededRandom, checkupSource, checkupRun, casesLine, noCasesWhy } from "../../web/checkup/cases.js";
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

test("planCheckup: failure modes in the core's order, whichever row shows them first", async () => {
  const fake = {
    checkupCases: (id, inputs) => ({
      cases: inputs.t.map((t) => ({ name: t, transform: t, inputs, expect: { passed: false, text: "no" }, note: "" })),
      skipped: ["a", "b", "c", "d"].filter((t) => !inputs.t.includes(t)).map((t) => ({ transform: t, name: t, reason: "not here" })),
    }),
  };
  const rows = [["a", "c"], ["b", "c"], ["a", "b", "d"]].map((t, index) => ({ index, inputs: { t } }));
  const plan = await planCheckup(fake, "x", rows, { n: 3, seed: 1 });
  assert.deepEqual(plan.transforms.map((t) => t.transform), ["a", "b", "c", "d"]);
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

test("the chart's data and words: the view of a stored check-up, what its numbers mean, its export fields", async () => {
  const { checkupView, modesOf, checkupExportFields, answersOf } = await import("../../web/checkup/data.js");
  const { meaning, standing, reading, intervalText, expectedWords } = await import("../../web/checkup/words.js");
  const { pct } = await import("../../web/lib/format.js");
  const { checkupReferences } = await import("../../web/api/checkupreferences.js");
  const id = "answer-grounding";
  const ev = rj.evaluators().find((e) => e.id === id);
  const plan = await planCheckup(rj, id, dataset(groundingRows), { n: 6, seed: 3 });
  const run = { id: "run-1", evaluator: id, settings: { model: "judge-yes", repeats: 1 }, checkup: { seed: 3, source: "dataset", dataset: "facts.jsonl", rows: 6, of: 6, transforms: plan.transforms, skipped: [], skips: 0, refused: [] } };
  const results = plan.items.map((it) => resultOf(id, it.inputs, "Yes"));
  const v = checkupView(rj, { run, ev, items: plan.items, results }, { references: checkupReferences, details: true });
  assert.equal(v.about, `${plan.items.length} cases made from 6 of 6 rows of facts.jsonl (seed 3) · judged by judge-yes · Answer grounding`);
  assert.deepEqual(v.modes.map((m) => [m.transform, m.expected]), [["verbatim", "Grounded"], ["foreign", "Not grounded"], ["number-changed", "Not grounded"], ["verbatim-plus-foreign", "Not grounded"]]);
  assert.equal(v.missedTotal, plan.items.length - 6);
  const m = v.missed[0];
  assert.equal(m.said, "✓ Grounded");
  assert.deepEqual(m.answers, ["Yes"]);
  assert.ok(m.prompt.includes("Answer: "));
  const names = new Map(v.modes.map((x) => [x.transform, x]));
  const said = meaning(v.matrix.overall, v.matrix.rows, names, v);
  assert.match(said[0], /^The judge caught 6 of the \d+ cases it decided \(\d+%; with 95% confidence between \d+% and \d+%\)\.$/);
  assert.match(said.join(" "), /It misses most of: a sentence from another row \(0 of \d+\)/);
  assert.equal(standing(v.matrix.overall).kind, "poor");
  // The bands: a perfect record over few cases is not called reliable; over many it is.
  const row = (k, n, ci, missed = n - k) => ({ transform: "", caught: k, missed, undetermined: 0, total: n, catch: { k, n, rate: k / n, ci } });
  assert.match(reading(row(12, 12, [0.76, 1])), /missed none; over 12 decided cases the true rate could still be as low as 76%/);
  assert.deepEqual(standing(row(12, 12, [0.76, 1])), { kind: "good", text: "✓ none missed" });
  assert.equal(standing(row(11, 12, [0.65, 0.99])).kind, "fair");
  assert.equal(standing(row(60, 60, [0.94, 1])).kind, "good");
  assert.match(reading(row(20, 40, [0.35, 0.65])), /misses many plain failures/);
  assert.match(reading(row(8, 31, [0.14, 0.43])), /no better than the best judge on a benchmark/);
  assert.equal(intervalText([0.1234, 0.9]), "12–90%");
  assert.equal(pct(null, 0), "–");
  assert.equal(pct(0.856, 0), "86%");
  assert.equal(expectedWords({ text: "claim checkup-1 ungrounded", claim: { id: "checkup-1", grounded: false } }), "the added claim ungrounded");
  // Export fields: each case's dataset row (1-based), failure mode, right verdict and outcome.
  const f = checkupExportFields(v.grades);
  const missedAt = v.grades.cases.find((g) => g.outcome === "missed").index;
  assert.deepEqual(Object.keys(f.of(missedAt)), f.keys);
  assert.equal(f.of(missedAt).outcome, "missed");
  assert.equal(f.of(missedAt).checkup_row, plan.items[missedAt].checkup.row + 1);
  assert.equal(f.of(9999).outcome, null);
  // Every answer of a case: each order's, each repeat's.
  assert.deepEqual(answersOf({ answers: ["a"], orders: [{ answers: ["a"] }, { answers: ["b", "c"] }] }), ["a", "b", "c"]);
  assert.deepEqual(answersOf({ repeats: [{ answers: ["x"] }, { answers: ["y"] }] }), ["x", "y"]);
  // A transformation no drawn row allowed is still listed, with why.
  const modes = modesOf({ transforms: [{ transform: "foreign", name: "A sentence from another row", cases: 0, skipped: 1, reason: "no other rows" }] }, []);
  assert.deepEqual(modes, [{ transform: "foreign", name: "A sentence from another row", cases: 0, reason: "no other rows", expected: "" }]);
});

test("two check-ups side by side: paired case by case, a difference called clear only when the intervals do not overlap", async () => {
  const { compareCheckups, clearly, verdictLine } = await import("../../web/checkup/compare.js");
  const { checkupReferences } = await import("../../web/api/checkupreferences.js");
  const id = "answer-grounding";
  const ev = rj.evaluators().find((e) => e.id === id);
  const plan = await planCheckup(rj, id, dataset(groundingRows), { n: 6, seed: 3 });
  const record = { seed: 3, source: "dataset", dataset: "facts.jsonl", rows: 6, of: 6, transforms: plan.transforms, skipped: [], skips: 0, refused: [] };
  const loaded = (model, answer) => ({ run: { id: model, evaluator: id, settings: { model }, checkup: record }, items: plan.items, results: plan.items.map((it) => resultOf(id, it.inputs, answer(it))) });
  const a = loaded("right", (it) => (it.checkup.expect.passed ? "Yes" : "No"));
  const b = loaded("yes", () => "Yes");
  const d = compareCheckups(rj, a, b, { evA: ev, evB: ev, references: checkupReferences });
  assert.equal(d.same, true);
  assert.equal(d.paired, plan.items.length);
  assert.equal(d.changed.length, plan.items.length - 6);
  assert.ok(d.changed.every((c) => c.a === "caught" && c.b === "missed"));
  assert.match(verdictLine(d), /A catches clearly more/);
  const foreign = d.modes.find((m) => m.transform === "foreign");
  assert.equal(clearly(foreign.a.catch, foreign.b.catch), "higher");
  assert.equal(clearly({ ci: [0.2, 0.6] }, { ci: [0.5, 0.9] }), "", "overlapping intervals: maybe chance");
  // Check-ups of other cases compare by failure mode only.
  const other = await planCheckup(rj, id, dataset(groundingRows), { n: 3, seed: 99 });
  const c = { run: { id: "c", evaluator: id, settings: { model: "yes" }, checkup: { ...record, rows: 3 } }, items: other.items, results: other.items.map((it) => resultOf(id, it.inputs, "Yes")) };
  const d2 = compareCheckups(rj, a, c, { evA: ev, evB: ev, references: checkupReferences });
  assert.equal(d2.same, false);
  assert.ok(d2.paired < other.items.length || d2.paired < plan.items.length);
});

test("position statistics of a run judged in both orders, and its export fields", async () => {
  const { positionData, slotWords, ordersExportFields } = await import("../../web/checkup/position.js");
  const id = "pairwise-faithfulness";
  const inputs = rj.evaluators().find((e) => e.id === id).example.inputs;
  const swapped = rj.swapOrders(id, inputs);
  const grade = (a, b) => JSON.stringify({ answer_1: { faithfulness_justification: "-", faithfulness: a }, answer_2: { faithfulness_justification: "-", faithfulness: b } });
  const both = (first, second) => {
    const v1 = rj.parse(id, inputs, first);
    const v2 = rj.parse(id, swapped, second);
    return { verdict: rj.combineOrders(v1, v2), answers: [first], orders: [{ verdict: v1, answers: [first] }, { verdict: v2, answers: [second] }], error: null };
  };
  const results = [both(grade(1, 0), grade(1, 0)), both(grade(1, 0), grade(0, 1)), undefined, { error: { message: "x" } }];
  const d = positionData(rj, results, 1);
  assert.equal(d.judged, 2);
  assert.equal(d.flips, 1);
  assert.equal(d.compared, 2);
  assert.equal(positionData(rj, [undefined, { verdict: { passed: true }, answers: [] }]), null, "no row judged in both orders");
  assert.match(slotWords({ rate: 1, ci: [0.6, 1] }), /reads first/);
  assert.match(slotWords({ rate: 0.5, ci: [0.3, 0.7] }), /no clear preference/);
  const f = ordersExportFields({ settings: { orders: 2 } }, results);
  assert.deepEqual(f.keys, ["position_flip", "exchanged_answer", "exchanged_answers"]);
  assert.deepEqual(f.of(0), { position_flip: true, exchanged_answer: grade(1, 0), exchanged_answers: [[grade(1, 0)]] });
  assert.deepEqual(f.of(1), { position_flip: false, exchanged_answer: grade(0, 1), exchanged_answers: [[grade(0, 1)]] });
  assert.deepEqual(f.of(2), { position_flip: null, exchanged_answer: null, exchanged_answers: null });
  assert.equal(ordersExportFields({ settings: {} }, results), null);
  // A check-up's position-swap case is judged in both orders in a run that is not; each repeat's
  // exchanged answers are kept, a repair request's after the first.
  const swapCase = ordersExportFields({ settings: {} }, results, [{ bothOrders: true }, {}]);
  assert.deepEqual(swapCase.of(1).exchanged_answers, [[grade(0, 1)]]);
  const r2 = both(grade(1, 0), "unreadable");
  const r3 = both(grade(1, 0), grade(1, 0));
  r2.orders[1].answers.push(grade(1, 0));
  const repeated = { verdict: r2.verdict, answers: [...r2.answers, ...r3.answers], repeats: [r2, r3], error: null };
  assert.deepEqual(ordersExportFields({ settings: {} }, [repeated], [{ bothOrders: true }]).of(0).exchanged_answers, [["unreadable", grade(1, 0)], [grade(1, 0)]]);
});

test("a custom evaluator's check-up controls write its checkup field: pass, fail, declines, or left out", async () => {
  const { choiceOf, withChoice, TRANSFORMS } = await import("../../web/checkup/specform.js");
  assert.deepEqual(TRANSFORMS.map((t) => t.key), ["replaced", "emptied", "halved"]);
  assert.equal(choiceOf(undefined, "replaced"), "");
  assert.equal(choiceOf({ replaced: false, halved: null }, "replaced"), "fail");
  assert.equal(choiceOf({ replaced: false, halved: null }, "halved"), "decline");
  assert.equal(choiceOf({ replaced: true }, "replaced"), "pass");
  assert.deepEqual(withChoice(undefined, "replaced", "fail"), { replaced: false });
  assert.deepEqual(withChoice({ replaced: false }, "halved", "decline"), { replaced: false, halved: null });
  assert.deepEqual(withChoice({ halved: null, replaced: false }, "emptied", "pass"), { replaced: false, emptied: true, halved: null }, "in the core's order");
  assert.equal(withChoice({ replaced: false }, "replaced", ""), undefined, "none left: the field goes");
  // What the controls write is a field the core takes, and makes cases of.
  const spec = {
    id: "addresses-question",
    prompt: "Question: {{ question }}\nAnswer: {{ answer }}\nDoes the answer address the question? Reply yes or no.",
    inputs: [{ name: "question" }, { name: "answer", judged: true }],
    output: { kind: "yes-no" },
    checkup: withChoice(withChoice(undefined, "replaced", "fail"), "halved", "fail"),
  };
  assert.deepEqual(rj.checkEvaluator(spec).warnings, []);
  rj.define(spec);
  const rows = groundingRows.map((r, index) => ({ index, inputs: { question: "Q" + index + "?", answer: r.answer } }));
  const plan = await planCheckup(rj, spec.id, rows, { n: 3, seed: 2 });
  assert.deepEqual(plan.transforms.map((t) => [t.transform, t.cases > 0]), [["replaced", true], ["halved", true], ["emptied", false]], "those with cases first, then what is not offered, with why");
  assert.ok(plan.transforms[2].reason);
  rj.undefine(spec.id);
});

test("a report row judged in both orders shows each order's answers", async () => {
  const { rowOf } = await import("../../web/report/data.js");
  const ev = rj.evaluators().find((e) => e.id === "pairwise-faithfulness");
  const inputs = ev.example.inputs;
  const v1 = rj.parse(ev.id, inputs, ev.example.answer);
  const v2 = rj.parse(ev.id, rj.swapOrders(ev.id, inputs), ev.example.answer);
  const r = { verdict: rj.combineOrders(v1, v2), answers: ["first"], orders: [{ verdict: v1, answers: ["first"] }, { verdict: v2, answers: ["second"] }], error: null };
  const row = rowOf(ev, { inputs }, r, "undetermined", null, 0);
  assert.deepEqual(row.answers, []);
  assert.deepEqual(row.repeats.map((x) => x.answers), [["first"], ["second"]]);
  assert.match(row.repeats[1].label, /answers exchanged/);
  assert.equal(row.cause, "the grade changed when the answers swapped places");
});

test("where a check-up's cases come from, its run and record, and what is said before it runs (the card's and ragjudge checkup's)", async () => {
  const ev = rj.evaluators().find((e) => e.id === "answer-grounding");
  const items = [...dataset(groundingRows.slice(0, 3)), { index: 3, source: {}, inputs: null, error: "no answer" }];
  const s = { name: "facts.jsonl", table: { columns: ["id", "answer"], errors: [] }, mapping: { answer: "answer" }, items, ev };
  const src = checkupSource(ev, s, "dataset");
  assert.equal(src.use, "dataset");
  assert.deepEqual(src.rows.map((r) => r.index), [0, 1, 2], "the rows that can be judged");
  assert.equal(src.of, 3);
  assert.equal(checkupSource(ev, { ...s, ev: { id: "rag-recall" } }, "dataset").use, "example", "a dataset set up for another evaluator is not drawn from");
  const ex = checkupSource(ev, s, "example");
  assert.deepEqual([ex.use, ex.rows[0].index, ex.name, ex.of], ["example", -1, ev.title, 1]);
  assert.match(checkupSource({ id: "x" }, null, "dataset").why, /Load a dataset/);

  const plan = await planCheckup(rj, ev.id, src.rows, { n: 2, seed: 3 });
  const run = checkupRun(plan, src, 3);
  assert.equal(run.name, "Check-up of facts.jsonl");
  assert.deepEqual(run.table, { columns: ["id", "answer"], errors: [] });
  assert.equal(run.items, plan.items);
  assert.deepEqual(run.checkup, { seed: 3, source: "dataset", dataset: "facts.jsonl", rows: 2, of: 3, transforms: plan.transforms, skipped: plan.skipped, skips: plan.skips, refused: plan.refused });
  const n = plan.items.length;
  assert.equal(casesLine(plan, `${n} calls, one per case · m`), `${n} cases from 2 rows: ${n} calls, one per case · m`);
  assert.equal(casesLine(plan, `${n} cases × 2 orders = ${2 * n} calls · m`), `From 2 rows: ${n} cases × 2 orders = ${2 * n} calls · m`);
  assert.equal(noCasesWhy({ transforms: [{ reason: "" }, { reason: "one reference only" }], refused: [] }), "No case can be made of these rows: one reference only");
  const { leftOut } = await import("../../web/checkup/words.js");
  const none = { undetermined: 0 };
  assert.equal(leftOut(none, { pending: 0, errors: 2 }), "2 got no answer (the call failed: Retry failed rows).", "the page's button");
  assert.equal(leftOut(none, { pending: 0, errors: 2, retry: "run it again" }), "2 got no answer (the call failed: run it again).", "the command line's words");
});
