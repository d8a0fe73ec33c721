// rj.mjs: what the JS API tests share. The tests run against the built wasm: `make build`
// first (make test-js does).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

import { load, RagJudgeError } from "../../web/ragjudge.js";

/** The repository root, for reading prompts/ and testdata. */
export const root = fileURLToPath(new URL("../../", import.meta.url));

/** The built wasm's path. */
export const wasmPath = fileURLToPath(new URL("../../web/ragjudge.wasm", import.meta.url));

let shared;

/** Returns one loaded API shared by a test file (each file runs in its own process). */
export function api() {
  shared ??= load();
  return shared;
}

/** The seed prompt of evaluator id, verbatim. */
export function prompt(id) {
  return readFileSync(new URL(`../../prompts/${id}.md`, import.meta.url), "utf8");
}

/**
 * Asserts that fn throws a RagJudgeError whose fields include want (kind, subject, line, col, or
 * a RegExp for message; true for any positive integer), and returns the error.
 */
export function throwsRJ(fn, want = {}) {
  let caught;
  assert.throws(fn, (err) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof RagJudgeError, `want a RagJudgeError, got ${caught?.constructor?.name}: ${caught}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, "RagJudgeError");
  for (const [k, v] of Object.entries(want)) {
    if (v === true) assert.ok(Number.isInteger(caught[k]) && caught[k] > 0, `${k} of ${caught.message}: ${caught[k]}`);
    else if (v instanceof RegExp) assert.match(caught[k], v, `${k} of ${caught.message}`);
    else assert.deepEqual(caught[k], v, `${k} of ${caught.message}`);
  }
  if (!("line" in want)) assert.equal(caught.line, undefined, `no line expected: ${caught.message}`);
  if (!("col" in want)) assert.equal(caught.col, undefined, `no col expected: ${caught.message}`);
  return caught;
}
