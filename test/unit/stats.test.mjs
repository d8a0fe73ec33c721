// stats.test.mjs: rj.agreement, rj.correlation and rj.consistency through the JS API: the results'
// shape, null (never NaN) where a statistic is undefined, and argument errors. The numbers
// themselves are tested in core/stats against a reference.
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, throwsRJ } from "./rj.mjs";

const rj = await api();

test("agreement: counts, κ with its interval, precision and recall at finding failures", () => {
  // tt 8, tf 3, ft 2, ff 7: κ = 0.5 (core/stats's hand-worked case).
  const judge = [...Array(8).fill(true), ...Array(2).fill(false), ...Array(3).fill(true), ...Array(7).fill(false), null, true];
  const human = [...Array(10).fill(true), ...Array(10).fill(false), false, null];
  const a = rj.agreement(judge, human);
  assert.deepEqual(a.matrix, { tt: 8, tf: 3, ft: 2, ff: 7, nt: 0, nf: 1 });
  assert.equal(a.pairs, 22);
  assert.equal(a.compared, 20);
  assert.equal(a.no_label, 1);
  assert.equal(a.undetermined, 1);
  assert.equal(a.agree, 15);
  assert.equal(a.accuracy, 0.75);
  assert.equal(a.kappa, 0.5);
  assert.ok(Math.abs(a.kappa_se - Math.sqrt(0.037125)) < 1e-12);
  assert.ok(a.kappa_ci[0] < 0.5 && a.kappa_ci[1] > 0.5);
  assert.ok(Math.abs(a.judge_fail_precision - 7 / 9) < 1e-15);
  assert.equal(a.judge_fail_recall, 0.7);
  assert.equal(a.kappa_reason, undefined);
});

test("agreement: undefined κ is null with a reason", () => {
  const a = rj.agreement([true, true], [true, true]);
  assert.equal(a.kappa, null);
  assert.equal(a.kappa_ci, null);
  assert.match(a.kappa_reason, /passed for every compared row/);
  assert.equal(a.judge_fail_precision, null);
  assert.match(a.judge_fail_precision_reason, /failed no labelled row/);
  const empty = rj.agreement([], []);
  assert.equal(empty.accuracy, null);
  assert.match(empty.kappa_reason, /no pair/);
});

test("correlation: nulls skip their pair; undefined is null with a reason", () => {
  const c = rj.correlation([1, 2, null, 4, 3], [1, 3, 5, 4, null]);
  assert.equal(c.n, 3);
  assert.equal(c.spearman, 1);
  assert.ok(c.pearson > 0.9 && c.pearson < 1);
  assert.equal(c.mae, 1 / 3);
  const flat = rj.correlation([2, 2, 2], [1, 2, 3]);
  assert.equal(flat.pearson, null);
  assert.match(flat.pearson_reason, /judge's scores are all the same/);
  assert.equal(flat.mae, 1 / 3 * 2);
});

test("consistency: per row majority (ties undetermined) and Fleiss' κ", () => {
  const c = rj.consistency([[true, true, false], [false, false, false], [true, false, null]]);
  assert.equal(c.rows, 3);
  assert.equal(c.unanimous, 1);
  assert.equal(c.split, 2);
  assert.equal(c.fleiss_rows, 3);
  assert.equal(c.fleiss_repeats, 3);
  assert.equal(typeof c.fleiss_kappa, "number");
  assert.deepEqual(c.per_row.map((r) => r.majority), [true, false, null]);
  assert.deepEqual(c.per_row[0], { majority: true, unanimous: false, n: 3, passed: 2, failed: 1, undetermined: 0 });
  const same = rj.consistency([[true, true], [true, true]]);
  assert.equal(same.fleiss_kappa, null);
  assert.match(same.fleiss_reason, /every verdict is the same/);
});

test("bad arguments say which and where", () => {
  throwsRJ(() => rj.agreement([true], [true, false]), { kind: "input", subject: "agreement", message: /1 verdicts and the human 2 labels/ });
  throwsRJ(() => rj.agreement(["yes"], [true]), { kind: "input", subject: "agreement", message: /judge\[0\] must be true, false or null, got a string/ });
  throwsRJ(() => rj.correlation([1], "x"), { kind: "input", subject: "correlation", message: /ys must be a list/ });
  throwsRJ(() => rj.consistency([true]), { kind: "input", subject: "consistency", message: /rows\[0\] must be a list/ });
});
