// Tests of what a verdict's cause is, from check codes only: web/results/causes.js (shared by the single
// and the batch views) and the row helpers of web/results/status.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CAUSES, causeOfChecks } from "../../web/results/causes.js";
import { causeCodeOf, judgedInput } from "../../web/results/status.js";

const R = (verdict) => ({ verdict, answers: ["a"], error: null, calls: 1, cachedCalls: 0 });

test("causeOfChecks: by the first error's code, a cut answer first, never from the message", () => {
  assert.equal(causeOfChecks([]), null);
  assert.equal(causeOfChecks([{ severity: "warning", code: "claims.skipped", message: "skipped" }]), null);
  assert.equal(causeOfChecks([{ severity: "error", code: "recall.no-scores", message: "truncated" }]), "no passage scores in the answer");
  assert.equal(causeOfChecks([{ severity: "error", code: "claims.missing", message: "x" }, { severity: "error", code: "answer.truncated", message: "y" }]), "answer cut short");
  assert.equal(causeOfChecks([{ severity: "error", message: "no code at all" }]), "answer could not be read");
});

test("causeCodeOf groups undetermined rows by code; judgedInput names the input a verdict is about", () => {
  const cut = R({ passed: null, score: null, checks: [{ severity: "error", code: "claims.missing", message: "x" }, { severity: "error", code: "answer.truncated", message: "y" }] });
  assert.equal(causeCodeOf(cut), "answer.truncated");
  assert.equal(causeCodeOf(R({ passed: null, score: null, checks: [{ severity: "error", code: "recall.no-scores", message: "z" }] })), "recall.no-scores");
  assert.equal(causeCodeOf(R({ passed: true, score: 1, checks: [] })), null);
  // A custom label mapped to null: undetermined by design, grouped under its own code and said so.
  const neutral = [{ severity: "warning", code: "answer.neutral-label", message: 'the judge answered "partially relevant"' }];
  assert.equal(causeCodeOf(R({ passed: null, score: null, checks: neutral })), "answer.neutral-label");
  assert.equal(causeOfChecks(neutral), "the judge's label neither passes nor fails");
  const inputs = [
    { name: "contexts", kind: "list" },
    { name: "expected_output", kind: "text" },
    { name: "actual_output", kind: "text", judged: true },
  ];
  assert.equal(judgedInput({ inputs }), "actual_output", "the declaration's mark, not the first text input");
  assert.equal(judgedInput({ inputs: inputs.map(({ judged, ...i }) => i) }), null, "no guessing when nothing is marked");
  assert.equal(judgedInput({ inputs: [] }), null);
});

// severities reads the README's "Check codes" table: code → its severity column ("error",
// "warning", "error or warning").
function severities() {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("\n## Check codes"));
  const rows = new Map();
  for (const m of section.slice(0, section.indexOf("\n## ", 3)).matchAll(/^\| `([a-z0-9.-]+)` \| ([a-z ]+) \|/gm)) rows.set(m[1], m[2]);
  return rows;
}

test("every error code the core declares has a cause, and only codes that can be errors have one", () => {
  const declared = [...readFileSync(new URL("../../core/diag/codes.go", import.meta.url), "utf8").matchAll(/Code = "([a-z0-9.-]+)"/g)].map((m) => m[1]);
  assert.ok(declared.length > 10, "codes.go was read");
  const severity = severities();
  const lacking = [];
  for (const code of declared) {
    const sev = severity.get(code);
    assert.ok(sev, `${code} has a row in the README's Check codes table`);
    // dataset.* describe a dataset's text, read before any row is judged, and evaluator.* a custom
    // evaluator's definition, checked before it is used: never a verdict's cause.
    if (/\berror\b/.test(sev) && !code.startsWith("dataset.") && !code.startsWith("evaluator.") && !CAUSES[code]) lacking.push(code);
  }
  assert.deepEqual(lacking, [], "error codes without a cause in web/results/causes.js");
  for (const code of Object.keys(CAUSES)) {
    assert.ok(declared.includes(code), `${code} is not in core/diag/codes.go`);
    assert.match(severity.get(code) || "", /\berror\b/, `${code} is never an error, so it never makes a verdict undetermined`);
  }
});
