// Tests of the repeat-consistency and run-comparison numbers (web/stats/consistency.js,
// web/stats/compare.js) against the real core (rj.consistency, rj.agreement, rj.describe), and of
// the JS majority rule and spread against the core's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api } from "./rj.mjs";
import { majority, unanimous, spread, majorityVerdict } from "../../web/results/majority.js";
import { consistencyData, leftOutLine } from "../../web/stats/consistency.js";
import { verdictWord } from "../../web/stats/figures.js";
import { matchRuns, compareData, wallTime, undeterminedText } from "../../web/stats/compare.js";

const rj = await api();

/** rng is a small seeded generator, so the random cases are the same every run. */
function rng(seed) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

test("the page's majority and unanimity are the core's, row by row, on 2,000 random rows", () => {
  const r = rng(7);
  const rows = [];
  for (let i = 0; i < 2000; i++) {
    const n = 1 + Math.floor(r() * 6);
    rows.push(Array.from({ length: n }, () => [true, false, null][Math.floor(r() * 3)]));
  }
  const c = rj.consistency(rows);
  rows.forEach((row, i) => {
    assert.equal(majority(row), c.per_row[i].majority, JSON.stringify(row));
    assert.equal(unanimous(row), c.per_row[i].unanimous, JSON.stringify(row));
  });
});

test("the page's spread is the core's rj.describe", () => {
  const r = rng(11);
  for (let i = 0; i < 300; i++) {
    const xs = Array.from({ length: Math.floor(r() * 6) }, () => (r() < 0.2 ? null : Math.round(r() * 50) / 10));
    const js = spread(xs);
    const core = rj.describe(xs);
    assert.equal(js.n, core.n);
    for (const k of ["mean", "sd"]) {
      if (core[k] === null) assert.equal(js[k], null, `${k} of ${JSON.stringify(xs)}`);
      else assert.ok(Math.abs(js[k] - core[k]) < 1e-9, `${k} of ${JSON.stringify(xs)}: ${js[k]} vs ${core[k]}`);
    }
  }
  assert.equal(rj.describe([null]).mean_reason, "no scores");
  assert.throws(() => rj.describe(["1"]), /xs\[0\] must be a number or null/);
});

/** row builds a result judged with the given verdicts (scores 1/0). */
function row(index, verdicts) {
  const repeats = verdicts.map((p) => ({ verdict: { passed: p, score: p === null ? null : p ? 1 : 0, verdict: {}, checks: [] }, answers: [String(p)], repaired: false }));
  return { index, repeats, verdict: majorityVerdict(repeats), answers: repeats.map((x) => x.answers[0]), usage: { prompt_tokens: 10, completion_tokens: 1 } };
}

test("consistencyData: unanimous and split rows, Fleiss' κ and the mean spread come from the core; flipped rows are listed", () => {
  const verdicts = [
    [true, true, true],
    [true, false, true],
    [false, false, false],
    [false, true, true],
    [null, null, null],
  ];
  const results = verdicts.map((v, i) => row(i, v));
  results.push({ index: 5, error: { kind: "http", status: 500, message: "x" } }, undefined);
  const d = consistencyData(rj, results, null, 7);
  const c = rj.consistency(verdicts);
  assert.equal(d.rows, 5);
  assert.equal(d.total, 7);
  assert.equal(d.repeats, 3);
  assert.equal(d.unanimous, c.unanimous);
  assert.equal(d.unanimous, 3);
  assert.equal(d.split, 2);
  assert.equal(d.fleiss_kappa, c.fleiss_kappa);
  assert.deepEqual(d.flipped.map((r) => r.index), [1, 3]);
  assert.deepEqual(d.flipped[1].verdicts, [false, true, true]);
  assert.equal(d.flipped[1].majority, true);
  const sd = Math.sqrt(1 / 3);
  // Rows 0..3 have three scores each (sd 0, sd, 0, sd); row 4 has none.
  assert.equal(d.sdRows, 4);
  assert.ok(Math.abs(d.meanSD - sd / 2) < 1e-12);
  assert.equal(consistencyData(rj, [{ index: 0, verdict: { passed: true }, answers: [] }], null), null, "no repeats: no panel");
  assert.equal(d.decided, 12);
  const scoresOnly = consistencyData(rj, [row(0, [null, null])], null);
  assert.equal(scoresOnly.decided, 0);
});

/** loaded builds a stored run as loadRun gives it. */
function loaded(id, model, verdicts, { ids = null, ms = 100 } = {}) {
  const items = verdicts.map((_, i) => ({ index: i, source: ids ? { id: ids[i], q: "q" + i } : { q: "q" + i }, inputs: { question: "q" + i } }));
  const results = verdicts.map((p, i) =>
    p === undefined ? undefined : { index: i, verdict: { passed: p, score: p === null ? null : p ? 1 : 0, checks: p === null ? [{ severity: "error", code: "answer.no-verdict", message: "?" }] : [] }, answers: [model + " says " + p], usage: { prompt_tokens: 10, completion_tokens: 2 }, ms, finishedAt: 1000 + i * 10, calls: 1, cachedCalls: 0 },
  );
  return { run: { id, name: "d.jsonl", evaluator: "answer-grounding", total: verdicts.length, createdAt: 0, columns: ids ? ["id", "q"] : ["q"], settings: { model } }, items, results };
}

test("matchRuns: by id when both have one, by index when neither; a mismatch is said, not guessed", () => {
  const ids = ["a", "b", "c"];
  const m = matchRuns(loaded("1", "x", [true, true, false], { ids }), loaded("2", "y", [true, false, false], { ids: ["c", "a", "b"] }));
  assert.equal(m.by, "id");
  assert.equal(m.column, "id");
  assert.deepEqual(m.pairs, [
    [0, 1],
    [1, 2],
    [2, 0],
  ]);
  const idx = matchRuns(loaded("1", "x", [true, true]), loaded("2", "y", [false, true]));
  assert.equal(idx.by, "index");
  assert.deepEqual(idx.pairs, [
    [0, 0],
    [1, 1],
  ]);
  assert.match(matchRuns(loaded("1", "x", [true, true]), loaded("2", "y", [true])).error, /Run A has 2 rows and run B 1/);
  assert.match(matchRuns(loaded("1", "x", [true, true], { ids: ["a", "b"] }), loaded("2", "y", [true, true])).error, /Run A's dataset has an id column \(id\) and run B's has none/);
  assert.match(matchRuns(loaded("1", "x", [true, true], { ids: ["a", "b"] }), loaded("2", "y", [true, true], { ids: ["a", "z"] })).error, /1 id only in run A \(b\); 1 id only in run B \(z\)/);
  // Duplicate ids are no id column at all (idColumn needs them distinct): by index then.
  assert.equal(matchRuns(loaded("1", "x", [true, true], { ids: ["a", "a"] }), loaded("2", "y", [true, true], { ids: ["a", "a"] })).by, "index");
});

test("compareData: both runs' numbers, Cohen's κ from rj.agreement with A as judge and B as human, the changed rows with both answers", () => {
  const va = [true, true, false, false, true, null, true, false];
  const vb = [true, false, false, true, true, true, true, false];
  const a = loaded("A", "judge-a", va);
  const b = loaded("B", "judge-b", vb, { ms: 50 });
  const d = compareData(rj, a, b);
  assert.equal(d.error, undefined);
  assert.equal(d.by, "index");
  assert.deepEqual(d.agreement, rj.agreement(va, vb));
  assert.deepEqual(
    d.changed.map((r) => [r.a, r.verdictA, r.verdictB]),
    [
      [1, true, false],
      [3, false, true],
      [5, null, true],
    ],
  );
  assert.equal(d.changed[0].answerA, "judge-a says true");
  assert.equal(d.changed[0].answerB, "judge-b says false");
  assert.equal(d.changed[0].input, "q1");
  assert.equal(d.a.passRate, 4 / 7);
  assert.equal(d.b.passRate, 5 / 8);
  assert.equal(d.a.undetermined, 1);
  assert.equal(d.a.tokens, 96);
  assert.equal(d.a.model, "judge-a");
  assert.equal(d.a.seconds, (1070 - 900) / 1000);
  assert.equal(wallTime([undefined]), null);
  // A row not yet judged in one run has not changed.
  const c = compareData(rj, a, loaded("C", "judge-c", [false, ...vb.slice(1, 7), undefined]));
  assert.ok(!c.changed.some((r) => r.a === 7));
  assert.ok(c.changed.some((r) => r.a === 0));
  const bad = compareData(rj, a, loaded("D", "x", [true]));
  assert.match(bad.error, /Run A has 8 rows and run B 1/);
  assert.equal(bad.agreement, undefined);
});

test("the Consistency panel's rows left out, in words: one row is, two rows are", () => {
  assert.equal(leftOutLine(0), "");
  assert.equal(leftOutLine(1), " 1 row is left out here: it ended in an error or has not run yet.");
  assert.equal(leftOutLine(2), " 2 rows are left out here: they ended in an error or have not run yet.");
});

test("a run card's undetermined count: errors added, one error singular", () => {
  assert.equal(undeterminedText({ undetermined: 2, errors: 0 }), "2");
  assert.equal(undeterminedText({ undetermined: 2, errors: 1 }), "2 (+ 1 error)");
  assert.equal(undeterminedText({ undetermined: 0, errors: 3 }), "0 (+ 3 errors)");
});

test("verdicts in the evaluator's words: the Consistency panel's and the comparison's data carry them, generic words without", () => {
  const grounded = { passed: "Grounded", failed: "Not grounded" };
  assert.equal(verdictWord(true, grounded), "✓ Grounded");
  assert.equal(verdictWord(false, grounded), "✗ Not grounded");
  assert.equal(verdictWord(null, grounded), "? undetermined");
  assert.equal(verdictWord(true), "✓ passed");
  assert.equal(verdictWord(false, {}), "✗ failed");
  const rep = (p) => ({ verdict: { passed: p, score: p ? 1 : 0 }, answers: ["a"] });
  const results = [{ verdict: { passed: true }, repeats: [rep(true), rep(false), rep(true)] }];
  assert.deepEqual(consistencyData(rj, results, null, 1, grounded).words, grounded);
  assert.equal(consistencyData(rj, results, null, 1).words, null);
  const run = (id, passed) => ({ run: { id, name: id, evaluator: "answer-grounding", total: 1, settings: {}, createdAt: 0 }, items: [{ source: {}, inputs: {} }], results: [{ verdict: { passed, score: null }, answers: ["x"] }] });
  const d = compareData(rj, run("a", true), run("b", false), { words: { a: grounded, b: null } });
  assert.deepEqual(d.words, { a: grounded, b: null });
  assert.equal(d.changed.length, 1);
});
