// recall.test.mjs: rj.recall() and rj.passages(). The seed's four examples are read from the
// verbatim prompt, so the formula lines are compared with the seed's own text line for line.
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, prompt, throwsRJ } from "./rj.mjs";

const rj = await api();

// seedExamples returns each "Example n:" of the rag-recall prompt: its scores from the reasoning
// line and its five RECALL_ formula lines.
function seedExamples() {
  const text = prompt("rag-recall");
  const parts = text.split(/\nExample \d+:\n/).slice(1);
  assert.equal(parts.length, 4);
  return parts.map((part) => {
    const lines = part.split("\n").filter((l) => l.startsWith("• RECALL_")).map((l) => l.slice(2));
    const reasoning = lines.shift();
    const scores = { essential: [], bonus: [] };
    for (const m of reasoning.matchAll(/\[(ESSENTIAL|BONUS) PASSAGE\] \d+: .*? Score: (\d+)/g)) {
      scores[m[1].toLowerCase()].push(Number(m[2]));
    }
    return { scores, lines };
  });
}

const wantNumbers = [
  { essential: 3.5, bonus: 0.5, combined: 4, final: 4, exact: { essential: "7/2", bonus: "1/2", combined: "4", final: "4" } },
  { essential: 3.67, bonus: 0, combined: 3.67, final: 3.67, exact: { essential: "11/3", bonus: "0", combined: "11/3", final: "11/3" } },
  { essential: 5, bonus: 1.25, combined: 6.25, final: 5, exact: { essential: "5", bonus: "5/4", combined: "25/4", final: "5" } },
  { essential: 1.5, bonus: 0, combined: 1.5, final: 1.5, exact: { essential: "3/2", bonus: "0", combined: "3/2", final: "3/2" } },
];

seedExamples().forEach(({ scores, lines }, k) => {
  test(`recall reproduces the seed's example ${k + 1} line for line`, () => {
    assert.equal(lines.length, 5);
    const r = rj.recall(scores);
    const { essential, bonus, combined, final } = wantNumbers[k];
    assert.deepEqual(r, { ...wantNumbers[k], stepped: { essential, bonus, combined, final }, lines });
    // The same scores as strings give the same result.
    const asStrings = rj.recall({ essential: scores.essential.map(String), bonus: scores.bonus.map(String) });
    assert.deepEqual(asStrings, r);
  });
});

test("recall takes decimal scores, as numbers or strings, exactly", () => {
  const r = rj.recall({ essential: [3.5, "4"], bonus: ["2.5"] });
  assert.deepEqual(r.exact, { essential: "15/4", bonus: "5/8", combined: "35/8", final: "35/8" });
  assert.equal(r.essential, 3.75);
  assert.equal(r.bonus, 0.63); // 0.625 rounds half up
  assert.equal(r.combined, 4.38); // 4.375 rounds half up
  assert.equal(r.final, 4.38);
  assert.equal(r.lines.length, 5);
  assert.equal(r.lines[4], "RECALL_Final_Score: 4.38");
});

test("recall writes the seed's lines rounded per step, so they add up as written; the score stays exact", () => {
  const r = rj.recall({ essential: [4, 4, 3], bonus: [1] });
  assert.deepEqual(r.exact, { essential: "11/3", bonus: "1/6", combined: "23/6", final: "23/6" });
  assert.equal(r.final, 3.83, "the exact 23/6, rounded once");
  assert.deepEqual(r.stepped, { essential: 3.67, bonus: 0.17, combined: 3.84, final: 3.84 });
  assert.deepEqual(r.lines.slice(2), [
    "RECALL_Combined_Formula: 3.67 + 0.17 = 3.84",
    "RECALL_Final_Score_Calculation: min(5, 3.84) = 3.84",
    "RECALL_Final_Score: 3.84",
  ]);
});

test("a judge right on its own rounded terms is 'rounded-per-step', not an arithmetic error", () => {
  const rag = rj.evaluators().find((e) => e.view === "recall");
  const inputs = { passage_gt: "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b\n[ESSENTIAL PASSAGE] c\n[BONUS PASSAGE] d", passage_llm: "x" };
  const answer = (combined) =>
    "[ESSENTIAL PASSAGE] 1: Score: 4 [ESSENTIAL PASSAGE] 2: Score: 4 [ESSENTIAL PASSAGE] 3: Score: 3 [BONUS PASSAGE] 1: Score: 1\n" +
    `RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67\nRECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.17\nRECALL_Combined_Formula: 3.67 + 0.17 = ${combined}\n` +
    `RECALL_Final_Score_Calculation: min(5, ${combined}) = ${combined}\nRECALL_Final_Score: ${combined}`;
  const right = rj.parse(rag.id, inputs, answer("3.84"));
  assert.deepEqual(right.verdict.lines.map((l) => l.result), ["same", "same", "rounded-per-step", "rounded-per-step", "rounded-per-step"]);
  assert.ok(right.verdict.lines.every((l) => l.match === true));
  assert.deepEqual(right.checks, []);
  assert.equal(right.score, 3.83, "the score is the exact recall");
  const wrong = rj.parse(rag.id, inputs, answer("3.94"));
  assert.deepEqual(wrong.verdict.lines.map((l) => l.result), ["same", "same", "differs", "differs", "differs"]);
  assert.deepEqual([...new Set(wrong.checks.map((c) => c.code))], ["recall.arithmetic-differs"]);
  assert.match(wrong.checks[0].message, /3\.83 \(3\.84 rounded per step\)/);
});

test("recall without bonus scores: bonus omitted, null or empty", () => {
  const want = rj.recall({ essential: [1, 2], bonus: [] });
  assert.deepEqual(rj.recall({ essential: [1, 2] }), want);
  assert.deepEqual(rj.recall({ essential: [1, 2], bonus: null }), want);
  assert.equal(want.lines[1], "RECALL_Bonus_Formula: (0) / (2 * 0 * 2) = 0");
});

test("recall errors say which score is wrong", () => {
  throwsRJ(() => rj.recall({ essential: [] }), { kind: "recall", message: /essential/ });
  throwsRJ(() => rj.recall({ essential: [], bonus: [3] }), { kind: "recall" });
  throwsRJ(() => rj.recall({ essential: [4, 6] }), { kind: "recall", message: /6/ });
  throwsRJ(() => rj.recall({ essential: [0] }), { kind: "recall", message: /1–5/ });
  throwsRJ(() => rj.recall({ essential: [4], bonus: [-1] }), { kind: "recall", message: /bonus/ });
  throwsRJ(() => rj.recall({ essential: [4], bonus: [5.5] }), { kind: "recall", message: /bonus/ });
  throwsRJ(() => rj.recall({ essential: ["four"] }), { kind: /^(recall|input)$/, message: /four/ });
  throwsRJ(() => rj.recall({ essential: ["NaN"] }), { kind: /^(recall|input)$/ });
  throwsRJ(() => rj.recall({ essential: [NaN] }), { kind: "input", message: /NaN/ });
  throwsRJ(() => rj.recall({ essential: [Infinity] }), { kind: "input", message: /Infinity/ });
});

test("recall checks its arguments", () => {
  throwsRJ(() => rj.recall(), { kind: "input", subject: "recall" });
  throwsRJ(() => rj.recall(null), { kind: "input", subject: "recall" });
  throwsRJ(() => rj.recall([4, 3]), { kind: "input", subject: "recall", message: /object/ });
  throwsRJ(() => rj.recall({ essential: "4 3" }), { kind: "input", subject: "recall", message: /essential must be a list/ });
  throwsRJ(() => rj.recall({ essential: [true] }), { kind: "input", subject: "recall", message: /essential score 1 / });
  throwsRJ(() => rj.recall({ essential: [4], bonus: [{}] }), { kind: "input", subject: "recall", message: /bonus score 1 / });
  throwsRJ(() => rj.recall({ essentials: [4] }), { kind: "input", subject: "recall", message: /essentials/ });
});

test("passages splits a ground truth at its markers", () => {
  const gt = "Intro ignored.\n[ESSENTIAL PASSAGE]\nParis is the capital.\n\n[ESSENTIAL PASSAGE]\nIt is on the Seine.\n\n[BONUS PASSAGE]\nIt has 2M people.\n";
  const p = rj.passages(gt);
  assert.deepEqual(Object.keys(p).sort(), ["bonus", "essential"]);
  assert.deepEqual(p.essential.map((s) => s.trim()), ["Paris is the capital.", "It is on the Seine."]);
  assert.deepEqual(p.bonus.map((s) => s.trim()), ["It has 2M people."]);
  assert.deepEqual(rj.passages(""), { essential: [], bonus: [] });
  assert.deepEqual(rj.passages("no markers at all"), { essential: [], bonus: [] });
  throwsRJ(() => rj.passages(), { kind: "input", subject: "passages" });
  throwsRJ(() => rj.passages(["[ESSENTIAL PASSAGE] a"]), { kind: "input", subject: "passages", message: /must be a string/ });
});
