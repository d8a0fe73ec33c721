// Tests of the human labels (web/stats/labels.js: which column is proposed, how cells are read,
// what is unreadable) and of the agreement numbers the panel shows (web/stats/agreement.js), which
// must be the core's (rj.agreement, rj.correlation) over the rows the page compares.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api } from "./rj.mjs";
import { suggestLabelColumn, readCell, readLabels, cellAt, labelSummary, yesMeansFromName, runLabel } from "../../web/stats/labels.js";
import { agreementData, rowAgreement, skippedLine, kappaSentence, kappaValue, judgeOf, scalesDiffer, declaredRange } from "../../web/stats/agreement.js";
import { ticks } from "../../web/stats/svg.js";
import { toCSV, toJSONL } from "../../web/batch/export.js";

const rj = await api();

test("a label column is proposed by its name, in order of preference, else none", () => {
  assert.equal(suggestLabelColumn(["question", "answer", "Human_Label", "label"]), "Human_Label");
  assert.equal(suggestLabelColumn(["question", "gold", "label"]), "label");
  assert.equal(suggestLabelColumn(["q", "expected-verdict"]), "expected-verdict");
  assert.equal(suggestLabelColumn(["q", "vars.human"]), "vars.human");
  // A column that asks a question of the answer, when no label-like column is there (finding 10):
  // HaluEval's hallucination, with a yes read as a failure.
  assert.equal(suggestLabelColumn(["ID", "knowledge", "question", "chatgpt_response", "hallucination"]), "hallucination");
  assert.equal(yesMeansFromName(suggestLabelColumn(["ID", "knowledge", "question", "chatgpt_response", "hallucination"])), "fail");
  assert.equal(suggestLabelColumn(["query", "response", "is_hallucination"]), "is_hallucination");
  assert.equal(suggestLabelColumn(["query", "response", "is_faithful"]), "is_faithful");
  assert.equal(yesMeansFromName("is_faithful"), "pass");
  assert.equal(suggestLabelColumn(["hallucination", "label"]), "label", "a label column first");
  assert.equal(suggestLabelColumn(["question", "right_answer", "hallucinated_answer"]), null, "HaluEval QA's answers are texts, not labels");
  assert.equal(suggestLabelColumn(["question", "labelled_at", "response"]), null);
  assert.equal(suggestLabelColumn([]), null);
});

test("label cells: boolean words in any case, 1/0, numbers, empty, and what is neither", () => {
  for (const [v, want] of [
    ["TRUE", true], ["false", false], ["Yes", true], ["no", false], ["PASS", true], ["fail", false],
    ["passed", true], ["Failed", false], ["grounded", true], ["Ungrounded", false], [" not  grounded ", false],
    [true, true], [false, false],
  ]) assert.equal(readCell(v).bool, want, JSON.stringify(v));
  assert.deepEqual(readCell("1"), { bool: true, answer: true, num: 1 });
  assert.deepEqual(readCell(0), { bool: false, answer: true, num: 0 });
  assert.deepEqual(readCell("PASS"), { bool: true }, "a verdict word is no answer: its meaning is its own");
  assert.deepEqual(readCell("4.5"), { num: 4.5 });
  assert.deepEqual(readCell(-2), { num: -2 });
  for (const v of [null, undefined, "", "  "]) assert.deepEqual(readCell(v), { empty: true }, JSON.stringify(v));
  assert.deepEqual(readCell("maybe"), { text: "maybe" });
  assert.deepEqual(readCell("1/2"), { text: "1/2" });
  assert.deepEqual(readCell(["yes"]), { text: '["yes"]' });
  assert.deepEqual(readCell(NaN), { text: "NaN" });
});

test("labels as real datasets write them: verdict words of other tools, 1.0/0.0, and answers whose yes is a failure", () => {
  const rows = (vals) => vals.map((v) => ({ l: v }));
  // Verdict words say pass or fail whatever the column (Phoenix's factual/hallucinated, RAGAS'
  // and TruLens' supported/faithful, correct/incorrect, relevant/unrelated).
  for (const [v, want] of [
    ["factual", true], ["Hallucinated", false], ["supported", true], ["unsupported", false], ["Not Supported", false],
    ["faithful", true], ["UNFAITHFUL", false], ["correct", true], ["incorrect", false], ["relevant", true], ["unrelated", false], ["irrelevant", false],
  ]) assert.deepEqual(readCell(v), { bool: want }, v);
  // pandas writes a 0/1 column with gaps as floats: still boolean, not a score.
  const f = readLabels(rows(["1.0", "0.0", "", "1.0"]), "l");
  assert.equal(f.kind, "boolean");
  assert.deepEqual(f.values, [true, false, null, true]);

  // A column named for a fault: yes is a failure, and the summary says so.
  const halu = readLabels(rows(["yes", "no", "Yes", "factual", "maybe"]).map((r) => ({ hallucination: r.l })), "hallucination");
  assert.deepEqual(halu.values, [false, true, false, true, null], "yes is a hallucination: failed; a verdict word keeps its meaning");
  assert.deepEqual([halu.yes, halu.yesChosen, halu.answers, halu.passing], ["fail", false, 3, 2]);
  assert.deepEqual(halu.unreadable, [{ row: 5, text: "maybe" }]);
  assert.match(labelSummary(halu), /4 boolean labels \(2 pass, 2 fail\); 1 unreadable \(not counted\)\. Yes, true and 1 are read as FAIL: the column's name \(hallucination\) asks about a fault\./);
  const bools = readLabels([{ is_hallucination: true }, { is_hallucination: false }, { is_hallucination: 1 }], "is_hallucination");
  assert.deepEqual(bools.values, [false, true, false]);
  // The user's choice wins over the name, both ways, and is said.
  const chosen = readLabels(rows(["yes", "no"]).map((r) => ({ hallucination: r.l })), "hallucination", "pass");
  assert.deepEqual(chosen.values, [true, false]);
  assert.match(labelSummary(chosen), /Yes, true and 1 are read as pass \(your choice\)\./);
  assert.deepEqual(readLabels(rows(["yes", "no"]), "l", "fail").values, [false, true]);
  // A plain name: yes passes; a column of verdict words says nothing of yes.
  assert.match(labelSummary(readLabels(rows(["yes", "no"]), "l")), /read as pass\.$/);
  assert.doesNotMatch(labelSummary(readLabels(rows(["PASS", "FAIL"]), "l")), /Yes, true/);
  // Names: a fault, a fault turned around, both outcomes.
  for (const [name, want] of [
    ["human_label", "pass"], ["hallucination", "fail"], ["is_hallucination", "fail"], ["isHallucinated", "fail"], ["has_error", "fail"],
    ["toxic", "fail"], ["no_hallucination", "pass"], ["hallucination_free", "pass"], ["nonhallucinated", "pass"], ["error-free", "pass"],
    ["pass_fail", "pass"], ["grounded", "pass"], ["faithful", "pass"],
  ]) assert.equal(yesMeansFromName(name), want, name);
  assert.deepEqual(runLabel("hallucination", ""), { column: "hallucination" });
  assert.deepEqual(runLabel("hallucination", "pass"), { column: "hallucination", yes: "pass" });
  assert.equal(runLabel("", "fail"), null);
});

test("a column is boolean or numeric as a whole; cells of the other kind are unreadable, by row", () => {
  const rows = (vals) => vals.map((v) => ({ l: v }));
  const b = readLabels(rows(["yes", "0", "", "maybe", "FAIL", 1]), "l");
  assert.equal(b.kind, "boolean");
  assert.deepEqual(b.values, [true, false, null, null, false, true]);
  assert.deepEqual([b.given, b.missing, b.passing], [4, 1, 2]);
  assert.deepEqual(b.unreadable, [{ row: 4, text: "maybe" }]);
  assert.match(labelSummary(b), /4 boolean labels \(2 pass, 2 fail\), 1 row without one; 1 unreadable/);

  // 0 and 1 alone are boolean; with other numbers, the column is numeric (0 and 1 are numbers then).
  assert.equal(readLabels(rows([0, 1, "1", "0"]), "l").kind, "boolean");
  const n = readLabels(rows([0, 1, "2.5", 5, "yes", null]), "l");
  assert.equal(n.kind, "number");
  assert.deepEqual(n.values, [0, 1, 2.5, 5, null, null]);
  assert.deepEqual(n.unreadable, [{ row: 5, text: "yes" }]);
  // Words outnumbering numbers make it boolean.
  const w = readLabels(rows(["yes", "no", "yes", "3"]), "l");
  assert.equal(w.kind, "boolean");
  assert.deepEqual(w.unreadable, [{ row: 4, text: "3" }]);
  const none = readLabels(rows(["x", "", null]), "l");
  assert.equal(none.kind, null);
  assert.match(labelSummary(none), /no label that can be read/);
  // Dotted paths reach into object columns; a key with a dot is taken as it is.
  assert.equal(cellAt({ vars: { label: "yes" } }, "vars.label"), "yes");
  assert.equal(cellAt({ "a.b": 1, a: { b: 2 } }, "a.b"), 1);
  assert.equal(cellAt({ a: 1 }, "a.b"), undefined);
});

/** A run of 12 rows: statuses, results and boolean labels, with every kind of row left out. */
function booleanRun() {
  const status = ["passed", "passed", "failed", "failed", "passed", "failed", "undetermined", "error", "pending", "passed", "scored", "failed"];
  const labels = readLabels(["yes", "no", "no", "yes", "yes", "no", "yes", "no", "yes", "", "no", "huh"].map((l) => ({ l })), "l");
  const results = status.map((s) => (s === "pending" ? undefined : s === "error" ? { error: { kind: "http" } } : { verdict: { passed: s === "passed" ? true : s === "failed" ? false : null, score: s === "scored" ? 0.4 : null } }));
  return { status, labels, results };
}

test("agreementData: the core's agreement over the rows judged, the others counted by why", () => {
  const { status, labels, results } = booleanRun();
  const d = agreementData(rj, { labels, status, results });
  assert.ok(d);
  // The rows compared are those neither pending nor in error, in order; judge null for undetermined and scored.
  const judge = [true, true, false, false, true, false, null, true, null, false];
  const human = [true, false, false, true, true, false, true, null, false, null];
  assert.deepEqual(d.agreement, rj.agreement(judge, human));
  assert.deepEqual(d.agreement.matrix, { tt: 2, tf: 1, ft: 1, ff: 2, nt: 1, nf: 1 });
  assert.equal(d.errors, 1);
  assert.equal(d.pending, 1);
  assert.equal(d.scored, 1);
  assert.equal(d.missing, 1);
  assert.equal(d.unreadableJudged, 1);
  assert.equal(d.judged, 10);
  assert.equal(d.judged, d.agreement.compared + d.agreement.undetermined + d.missing + d.unreadableJudged);
  assert.match(skippedLine(d), /^Left out: 1 without a label · 2 without a verdict \(undetermined, or a score with no threshold\) · 1 error · 1 unreadable label \(row 12 “huh”\) · 1 not judged yet\.$/);
  assert.deepEqual(rowAgreement(labels, status), [true, false, true, false, true, true, null, null, null, null, null, null]);
});

test("agreementData with numeric labels: the core's correlation of the judge's scores, and the scatter's points", () => {
  const status = ["passed", "failed", "scored", "error", "passed", "scored"];
  const results = [{ verdict: { passed: true, score: 1 } }, { verdict: { passed: false, score: 0 } }, { verdict: { passed: null, score: 0.5 } }, { error: { kind: "http" } }, { verdict: { passed: true, score: null } }, { verdict: { passed: null, score: 0.25 } }];
  const labels = readLabels([0.9, 0.1, "0.5", 0.3, 0.8, ""].map((l) => ({ l })), "l");
  assert.equal(labels.kind, "number");
  const d = agreementData(rj, { labels, status, results });
  assert.ok(d);
  assert.deepEqual(d.correlation, rj.correlation([1, 0, 0.5, null, 0.25], [0.9, 0.1, 0.5, 0.8, null]));
  assert.deepEqual(d.points, [{ x: 1, y: 0.9, row: 1 }, { x: 0, y: 0.1, row: 2 }, { x: 0.5, y: 0.5, row: 3 }]);
  assert.match(skippedLine(d), /1 without a label · 1 without a judge's score · 1 error/);
  assert.deepEqual(rowAgreement(labels, status), [null, null, null, null, null, null], "no agrees for numeric labels");
});

test("a column with no label at all gives no panel; words for κ", () => {
  assert.equal(agreementData(rj, { labels: readLabels([{ l: "x" }], "l"), status: ["passed"], results: [{}] }), null);
  assert.equal(kappaSentence(0.71), "the judge agrees with your reviewers beyond chance: substantial");
  assert.equal(kappaSentence(0), "the judge agrees with your reviewers no better than chance");
  assert.match(kappaSentence(-0.2), /less than chance/);
  assert.match(kappaSentence(null, "no pair has both a verdict and a label"), /^undefined: no pair/);
  assert.deepEqual(["passed", "failed", "undetermined", "scored", "error", "pending"].map(judgeOf), [true, false, null, null, undefined, undefined]);
});

test("κ's words: a single class on either side makes κ say nothing; an interval reaching 0 is not clearly beyond chance", () => {
  // Every reviewer label passed, the judge failing a third of the rows: κ is 0 whatever the judge does.
  const judge = Array.from({ length: 30 }, (_, i) => i % 3 !== 0);
  const allPass = rj.agreement(judge, judge.map(() => true));
  assert.equal(allPass.kappa, 0);
  const s = kappaSentence(allPass.kappa, allPass.kappa_reason, allPass);
  assert.match(s, /^κ says nothing here: your reviewers labelled every compared row “passed”/);
  assert.doesNotMatch(s, /no better than chance/);
  const judgeAllPass = rj.agreement(judge.map(() => true), judge);
  assert.match(kappaSentence(judgeAllPass.kappa, judgeAllPass.kappa_reason, judgeAllPass), /the judge said “passed” of every compared row/);
  // In the evaluator's own words when given.
  const grounded = { passed: "Grounded", failed: "Not grounded" };
  assert.match(kappaSentence(allPass.kappa, allPass.kappa_reason, allPass, grounded), /your reviewers labelled every compared row “Grounded”/);
  assert.match(kappaSentence(judgeAllPass.kappa, judgeAllPass.kappa_reason, judgeAllPass, grounded), /the judge said “Grounded” of every compared row/);
  // A slight κ from few rows: its interval reaches below 0, and the words say so.
  const few = rj.agreement([true, true, false, true, false, true, false, true], [true, false, false, true, true, true, false, false]);
  assert.ok(few.kappa > 0 && few.kappa_ci[0] < 0, JSON.stringify(few));
  assert.match(kappaSentence(few.kappa, few.kappa_reason, few), /beyond chance: \w+, but not clearly: the 95% interval reaches 0/);
  // A clear κ keeps the plain words.
  const clear = rj.agreement(judge, judge.map((v, i) => (i === 1 ? !v : v)));
  assert.ok(clear.kappa_ci[0] > 0);
  assert.equal(kappaSentence(clear.kappa, clear.kappa_reason, clear), `the judge agrees with your reviewers beyond chance: almost perfect`);
});

test("κ's large number: a dash, not 0, when one side gave one class (κ says nothing) or κ is undefined", () => {
  const judge = Array.from({ length: 30 }, (_, i) => i % 3 !== 0);
  const allPass = rj.agreement(judge, judge.map(() => true));
  assert.equal(allPass.kappa, 0);
  assert.equal(kappaValue(allPass), "κ –", "reviewers all passed");
  assert.equal(kappaValue(rj.agreement(judge.map(() => false), judge)), "κ –", "judge all failed");
  assert.equal(kappaValue(rj.agreement([null, null], [true, false])), "κ –", "κ undefined");
  // Both sides with two classes: the number, 0 included when it is a real 0.
  const clear = rj.agreement(judge, judge.map((v, i) => (i === 1 ? !v : v)));
  assert.match(kappaValue(clear), /^κ 0\.9\d$/);
  const chance = rj.agreement([true, true, false, false], [true, false, true, false]);
  assert.equal(chance.kappa, 0);
  assert.equal(kappaValue(chance), "κ 0");
});

test("scales: a judge's 0–1 against labels of 1 to 5 differ; labels using part of the judge's scale do not", () => {
  for (const [judge, labels, want] of [
    [[0, 1], [1, 5], true],
    [[0, 1], [0.1, 1], false],
    [[0, 1], [0.3, 0.6], false],
    [[0, 5], [1, 5], false],
    [[0, 5], [1, 1], false],
    [[0, 100], [0, 1], true],
    [[0, 5], [0, 1], true],
    [[1, 1], [1, 5], true],
    [[0.5, 0.5], [0.3, 0.6], false],
  ]) assert.equal(scalesDiffer(judge, labels), want, `${judge} vs ${labels}`);
  assert.deepEqual(declaredRange({ kind: "binary" }), [0, 1]);
  assert.deepEqual(declaredRange({ kind: "fraction", unit: "claims" }), [0, 1]);
  assert.deepEqual(declaredRange({ kind: "scale", max: 5, decimals: 2 }), [0, 5]);
  assert.equal(declaredRange({ kind: "number" }), null);
  assert.equal(declaredRange(undefined), null);

  // A 0/1 judge against 1–5 human scores: the ranges in the data, the statistics still the core's.
  const status = ["passed", "failed", "passed", "failed", "passed"];
  const results = [1, 0, 1, 0, 1].map((s) => ({ verdict: { score: s } }));
  const labels = readLabels([{ h: 5 }, { h: 1 }, { h: 4 }, { h: 2 }, { h: 3 }], "h");
  const d = agreementData(rj, { labels, status, results, score: { kind: "binary" } });
  assert.deepEqual(d.scales, { judge: [0, 1], declared: true, labels: [1, 5], differ: true });
  assert.deepEqual(d.correlation, rj.correlation([1, 0, 1, 0, 1], [5, 1, 4, 2, 3]));
  // Without a declaration the judge's range is the scores seen.
  assert.deepEqual(agreementData(rj, { labels, status, results }).scales, { judge: [0, 1], declared: false, labels: [1, 5], differ: true });
  const same = agreementData(rj, { labels: readLabels([0.9, 0.1, 0.8, 0.2, 0.6].map((h) => ({ h })), "h"), status, results, score: { kind: "binary" } });
  assert.equal(same.scales.differ, false);
});

test("scatter ticks are round values spanning the range", () => {
  assert.deepEqual(ticks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(ticks(0.7, 5.3), [1, 2, 3, 4, 5]);
  assert.deepEqual(ticks(3, 3), [3]);
});

test("exports carry the label and agrees after the score, renamed beside a source column of that name", () => {
  const items = [{ index: 0, source: { q: "a", label: "yes" } }, { index: 1, source: { q: "b", label: "no" } }];
  const results = [{ verdict: { passed: true, score: 1, checks: [] }, answers: ["Yes"], error: null, usage: { prompt_tokens: 1, completion_tokens: 1 } }, { verdict: { passed: true, score: 1, checks: [] }, answers: ["Yes"], error: null, usage: { prompt_tokens: 1, completion_tokens: 1 } }];
  const extra = { keys: ["label", "agrees"], of: (i) => ({ label: [true, false][i], agrees: [true, false][i] }) };
  const head = toCSV(items, results, { extra }).split("\r\n")[0].split(",");
  assert.deepEqual(head.slice(head.indexOf("score"), head.indexOf("score") + 3), ["score", "ragjudge_label", "agrees"]);
  const lines = toJSONL(items, results, { extra }).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.label, l.ragjudge_label, l.agrees]), [["yes", true, true], ["no", false, false]]);
});
