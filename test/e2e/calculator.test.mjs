// calculator.test.mjs: the recall calculator in real chromium with the network off: the rag-recall
// seed's four examples reproduced line for line (the lines are read from the verbatim prompt),
// counts from a pasted ground truth, errors for E = 0 and out-of-range scores, a judge's recall
// answer with wrong arithmetic flagged, and one rounded per step as the seed asks told apart.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setup, text, ROOT } from "./harness.mjs";

let env;
let page;
before(async () => {
  env = await setup();
  page = await env.page({ settings: { endpoint: "manual" }, view: "calculator" });
  await env.browser.ctx.setOffline(true); // everything below works with the network off
});
after(async () => {
  await env?.browser.ctx.setOffline(false);
  await env?.close();
});

// The seed's own formula lines, in order, for each of its four examples.
function seedLines() {
  const seed = readFileSync(join(ROOT, "prompts", "rag-recall.md"), "utf8");
  return seed
    .split(/\nExample \d+:\n/)
    .slice(1)
    .map((part) => part.split("\n").filter((l) => l.startsWith("• RECALL_") && !l.startsWith("• RECALL_Reasoning")).map((l) => l.slice(2)));
}

const finals = ["4 / 5", "3.67 / 5", "5 / 5", "1.5 / 5"];
const exacts = ["exactly 4", "exactly 11/3", "exactly 5", "exactly 3/2"];

seedLines().forEach((want, k) => {
  test(`seed example ${k + 1}: final score and every formula line as the seed writes them`, async () => {
    assert.equal(want.length, 5);
    await page.click(`[data-ref="calc-seed-${k + 1}"]`);
    await page.waitForFunction((w) => document.querySelector('[data-ref="calc-lines"]')?.textContent === w, want.join("\n"));
    assert.equal(await text(page, '[data-ref="calc-final"] strong'), finals[k]);
    assert.equal(await text(page, '[data-ref="calc-exact"]'), exacts[k]);
  });
});

test("typing scores updates the result live; decimals are exact", async () => {
  await page.click('[data-ref="calc-seed-1"]');
  await page.fill('[data-ref="calc-essential-1"]', "3.5");
  await page.waitForFunction(() => document.querySelector('[data-ref="calc-lines"]')?.textContent.startsWith("RECALL_Essential_Formula: (3.5 + 3) / 2 = 3.25"));
  assert.equal(await text(page, '[data-ref="calc-final"] strong'), "3.75 / 5");
});

test("a pasted ground truth sets E and B from its markers", async () => {
  await page.fill('[data-ref="calc-gt"]', "[ESSENTIAL PASSAGE]\nA.\n\n[ESSENTIAL PASSAGE]\nB.\n\n[ESSENTIAL PASSAGE]\nC.\n\n[BONUS PASSAGE]\nD.");
  await page.waitForFunction(() => document.querySelector('[data-ref="calc-E"]').value === "3" && document.querySelector('[data-ref="calc-B"]').value === "1");
  assert.match(await text(page, '[data-ref="calc-counted"]'), /3 essential, 1 bonus/);
  for (const [i, s] of ["4", "4", "3"].entries()) await page.fill(`[data-ref="calc-essential-${i + 1}"]`, s);
  await page.fill('[data-ref="calc-bonus-1"]', "0");
  await page.waitForFunction(() => document.querySelector('[data-ref="calc-final"] strong')?.textContent === "3.67 / 5");
  await page.fill('[data-ref="calc-gt"]', "");
});

test("E = 0 and an out-of-range score are clear errors, never a number", async () => {
  await page.click('[data-ref="calc-seed-4"]');
  await page.fill('[data-ref="calc-essential-2"]', "7");
  await page.waitForSelector('[data-ref="calc-result"] .msg-error');
  assert.match(await text(page, '[data-ref="calc-result"]'), /7/);
  assert.equal(await page.locator('[data-ref="calc-final"]').count(), 0);
  await page.fill('[data-ref="calc-E"]', "0");
  await page.waitForFunction(() => /at least one essential passage/.test(document.querySelector('[data-ref="calc-result"]').textContent));
});

test("a judge's recall answer with wrong arithmetic is checked line by line", async () => {
  await page.click('[data-ref="calc-seed-1"]');
  const answer = [
    "[ESSENTIAL PASSAGE] 1: good. Score: 4 [ESSENTIAL PASSAGE] 2: fair. Score: 3 [BONUS PASSAGE] 1: yes. Score: 4 [BONUS PASSAGE] 2: no. Score: 0",
    "RECALL_Essential_Formula: (4 + 3) / 2 = 3.5",
    "RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 1",
    "RECALL_Combined_Formula: 3.5 + 1 = 4.5",
    "RECALL_Final_Score_Calculation: min(5, 4.5) = 4.5",
    "RECALL_Final_Score: 4.5",
  ].join("\n");
  await page.fill('[data-ref="calc-answer"]', answer);
  await page.waitForSelector('[data-ref="calc-check"] [data-ref="formula"]');
  const states = await page.locator('[data-ref="calc-check"] [data-ref="formula"] tbody tr').evaluateAll((trs) => trs.map((t) => t.dataset.state));
  assert.deepEqual(states, ["same", "differs", "differs", "differs", "differs"]);
  assert.match(await text(page, '[data-ref="calc-check"] [data-ref="score"]'), /^4 \/ 5/, "the recomputed score, not the judge's 4.5");
  assert.match(await text(page, '[data-ref="calc-check"] [data-ref="checks"]'), /4\.5/, "a warning names the judge's stated score");
  assert.deepEqual(page.pageErrors, []);
});

test("rounded per step: the seed's lines add up as written, the exact score beside them, and a judge that wrote them is right", async () => {
  await page.fill('[data-ref="calc-gt"]', "");
  await page.click('[data-ref="calc-seed-2"]'); // E = 3, B = 1: scores 4, 4, 3 and 0
  await page.fill('[data-ref="calc-bonus-1"]', "1");
  await page.waitForFunction(() => document.querySelector('[data-ref="calc-final"] strong')?.textContent === "3.83 / 5");
  assert.equal(await text(page, '[data-ref="calc-exact"]'), "exactly 23/6");
  const lines = (await text(page, '[data-ref="calc-lines"]')).split("\n");
  assert.equal(lines[2], "RECALL_Combined_Formula: 3.67 + 0.17 = 3.84");
  assert.equal(lines[4], "RECALL_Final_Score: 3.84");
  assert.match(await text(page, '[data-ref="calc-stepped"]'), /end at 3\.84.*23\/6 ≈ 3\.83/);
  const answer = [
    "[ESSENTIAL PASSAGE] 1: Score: 4 [ESSENTIAL PASSAGE] 2: Score: 4 [ESSENTIAL PASSAGE] 3: Score: 3 [BONUS PASSAGE] 1: Score: 1",
    ...lines,
  ].join("\n");
  await page.fill('[data-ref="calc-answer"]', answer);
  // The check follows the typing (debounced): wait for this answer's combined line.
  await page.waitForFunction(() => document.querySelectorAll('[data-ref="calc-check"] [data-ref="formula"] tbody tr')[2]?.dataset.state === "rounded-per-step");
  const rows = await page.locator('[data-ref="calc-check"] [data-ref="formula"] tbody tr').evaluateAll((trs) => trs.map((t) => [t.dataset.state, t.querySelector(".line-state").textContent]));
  assert.deepEqual(rows.map((r) => r[0]), ["same", "same", "rounded-per-step", "rounded-per-step", "rounded-per-step"]);
  assert.equal(rows[2][1], "✓ right, rounded per step");
  assert.match(await text(page, '[data-ref="calc-check"] [data-ref="line-exact"]'), /exactly 23\/6 ≈ 3\.83/);
  assert.match(await text(page, '[data-ref="calc-check"] [data-ref="checks"]'), /No problems reading the judge's answer/, "no arithmetic warning");
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT, fullPage: true });
  assert.deepEqual(page.pageErrors, []);
});

test("an unreadable score is named one way, 1-based, in words", async () => {
  await page.click('[data-ref="calc-seed-1"]');
  await page.fill('[data-ref="calc-essential-2"]', "abc");
  await page.waitForSelector('[data-ref="calc-error"]');
  const msg = await text(page, '[data-ref="calc-error"]');
  assert.match(msg, /essential score 2\b/);
  assert.doesNotMatch(msg, /\[\d+\]/, "no 0-based essential[1]");
  await page.fill('[data-ref="calc-essential-2"]', "9");
  await page.waitForFunction(() => /essential score 2 is 9/.test(document.querySelector('[data-ref="calc-error"]')?.textContent || ""));
});

test("a judge's answer pasted with no scores entered: the Result card offers its scores, and takes them (finding 20)", async () => {
  await page.fill('[data-ref="calc-answer"]', "");
  await page.fill('[data-ref="calc-gt"]', "[ESSENTIAL PASSAGE]\nA.\n\n[ESSENTIAL PASSAGE]\nB.\n\n[ESSENTIAL PASSAGE]\nC.\n\n[BONUS PASSAGE]\nD.");
  for (const i of [1, 2, 3]) await page.fill(`[data-ref="calc-essential-${i}"]`, "");
  await page.fill('[data-ref="calc-bonus-1"]', "");
  await page.waitForFunction(() => /^Paste a judge's recall answer/.test(document.querySelector('[data-ref="calc-check"]').textContent));
  await page.waitForFunction(() => /Enter a score for every passage/.test(document.querySelector('[data-ref="calc-result"]').textContent));
  assert.equal(await page.locator('[data-ref="calc-use-judged"]').count(), 0, "nothing to offer before an answer");
  const answer = [
    "RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: ok. Score: 4 [ESSENTIAL PASSAGE] 2: ok. Score: 4 [ESSENTIAL PASSAGE] 3: partly. Score: 3 [BONUS PASSAGE] 1: in passing. Score: 1",
    "RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67",
    "RECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.17",
    "RECALL_Combined_Formula: 3.67 + 0.17 = 3.84",
    "RECALL_Final_Score_Calculation: min(5, 3.84) = 3.84",
    "RECALL_Final_Score: 3.84",
  ].join("\n");
  await page.fill('[data-ref="calc-answer"]', answer);
  const use = page.locator('[data-ref="calc-result"] [data-ref="calc-use-judged"]');
  await use.waitFor();
  assert.equal(await page.locator('[data-ref="calc-use-judged"]').count(), 1, "offered once");
  await use.click();
  await page.waitForFunction(() => document.querySelector('[data-ref="calc-final"] strong')?.textContent === "3.83 / 5");
  assert.deepEqual(await page.locator('[data-ref="calc-scores"] input').evaluateAll((xs) => xs.map((x) => x.value)), ["4", "4", "3", "1"]);
  await page.waitForFunction(() => !document.querySelector('[data-ref="calc-use-judged"]'));
  // Other scores entered: the check offers the judge's back.
  await page.fill('[data-ref="calc-essential-1"]', "5");
  await page.locator('[data-ref="calc-check"] [data-ref="calc-use-judged"]').click();
  await page.waitForFunction(() => document.querySelector('[data-ref="calc-essential-1"]').value === "4" && !document.querySelector('[data-ref="calc-use-judged"]'));
  // An answer whose scores do not fit the passages is not offered.
  await page.fill('[data-ref="calc-essential-1"]', "");
  await page.fill('[data-ref="calc-answer"]', answer.replace(" [BONUS PASSAGE] 1: in passing. Score: 1", ""));
  // Until the check (debounced) reads it, the last answer's scores are still offered.
  await page.waitForFunction(() => !document.querySelector('[data-ref="calc-use-judged"]'));
  assert.match(await text(page, '[data-ref="calc-result"]'), /^Enter a score for every passage to see the recall\.$/);
  assert.match(await text(page, '[data-ref="calc-check"] [data-ref="checks"]'), /no score for bonus passage 1/);
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT, fullPage: true });
  await page.fill('[data-ref="calc-gt"]', "");
  await page.fill('[data-ref="calc-answer"]', "");
  assert.deepEqual(page.pageErrors, []);
});
