// compare.test.mjs: two runs compared (web/stats/compare.js), drawn in the command line's document
// (cli/dom.mjs: what a report and the page draw it in alike).
import { test } from "node:test";
import assert from "node:assert/strict";
import { api } from "./rj.mjs";
import { compareData, comparePanel } from "../../web/stats/compare.js";
import { Document } from "../../cli/dom.mjs";

const rj = await api();

/** run is a stored run of verdicts (true/false/null), one row each. */
const run = (id, verdicts) => ({
  run: { id, name: "d.jsonl", evaluator: "answer-grounding", total: verdicts.length, settings: { model: "m-" + id }, createdAt: 0 },
  items: verdicts.map((_, i) => ({ inputs: { answer: "answer " + i } })),
  results: verdicts.map((v, i) => ({ index: i, verdict: { passed: v, score: v === null ? null : v ? 1 : 0, checks: v === null ? [{ severity: "error", code: "answer.no-verdict", message: "no verdict" }] : [] }, answers: [String(v)], calls: 1, cachedCalls: 0, attempts: 1, usage: { prompt_tokens: 1, completion_tokens: 1 } })),
});

test("a changed row's verdicts are the page's badges, in the evaluator's words, with their scores (finding 13)", () => {
  const words = { passed: "Grounded", failed: "Not grounded" };
  const d = compareData(rj, run("a", [true, false, true]), run("b", [true, true, null]), { words: { a: words, b: words } });
  const doc = Document.html("t");
  doc.body.append(comparePanel(/** @type {any} */ (doc), d));
  const html = doc.documentElement.outerHTML;
  const table = html.slice(html.indexOf('data-ref="compare-changed-table"'));
  const cells = [...table.matchAll(/<td data-verdict="([^"]*)">(.*?)<\/td>/g)].map((m) => [m[1], m[2]]);
  assert.equal(cells.length, 4, "two changed rows, A and B each");
  const [a1, b1, a2, b2] = cells;
  assert.equal(a1[0], "false");
  assert.match(a1[1], /class="badge badge-small state-fail" data-state="fail"><span class="badge-icon" aria-hidden="true">✗<\/span><span class="badge-word">Not grounded<\/span><\/span><span class="verdict-score">0<\/span>/);
  assert.match(b1[1], /state-pass" data-state="pass">.*Grounded<\/span>.*<span class="verdict-score">1<\/span>/);
  assert.match(a2[1], /state-pass/);
  assert.match(b2[1], /class="badge badge-small state-undetermined" data-state="undetermined">.*\?.*Undetermined<\/span><\/span><\/span>$/, "no score for an undetermined verdict");
});
