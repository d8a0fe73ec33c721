// Tests of what a verdict's cause is, from check codes only: web/causes.js (shared by the single
// and the batch views) and the row helpers of web/batch/status.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CAUSES, causeOfChecks } from "../../web/causes.js";
import { causeCodeOf, judgedInput } from "../../web/batch/status.js";

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
  const inputs = [
    { name: "contexts", kind: "list" },
    { name: "expected_output", kind: "text" },
    { name: "actual_output", kind: "text", judged: true },
  ];
  assert.equal(judgedInput({ inputs }), "actual_output", "the declaration's mark, not the first text input");
  assert.equal(judgedInput({ inputs: inputs.map(({ judged, ...i }) => i) }), null, "no guessing when nothing is marked");
  assert.equal(judgedInput({ inputs: [] }), null);
});

test("every code the page's cause table names is a code the core declares", () => {
  const declared = new Set([...readFileSync(new URL("../../core/diag/codes.go", import.meta.url), "utf8").matchAll(/Code = "([a-z0-9.-]+)"/g)].map((m) => m[1]));
  assert.ok(declared.size > 10, "codes.go was read");
  for (const code of Object.keys(CAUSES)) assert.ok(declared.has(code), `${code} is not in core/diag/codes.go`);
});
