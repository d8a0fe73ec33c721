// report-page.test.mjs: one evaluation's report holds what the page shows, in real headless
// chromium through the real dev server: a custom evaluator's system message (shown in the prompt
// card and copied with the prompt), the reasoning a JSON judge wrote (shown under the verdict), its
// raw answer with the <think> block, and the score written as the page writes it ("0.9 / 1",
// "2 of 3 claims grounded", "4 / 5").
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setup, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { encodeShare } from "../../web/share/codec.js";
import { axeViolations } from "./axe.mjs";

let env;
let dir;
before(async () => {
  env = await setup();
  dir = await mkdtemp(join(tmpdir(), "ragjudge-report-page-"));
});
after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SYSTEM = "You are grading output according to a user-specified rubric. Respond with a JSON object {reason: string, pass: boolean, score: number}.";
const RUBRIC = {
  id: "rubric-page",
  title: "Rubric",
  messages: [
    { role: "system", content: SYSTEM },
    { role: "user", content: "<Output>{{ output }}</Output>\n<Rubric>{{ rubric }}</Rubric>" },
  ],
  inputs: [{ name: "output" }, { name: "rubric" }],
  output: { kind: "json", pass: "$.pass", score: "$.score", reason: "$.reason", min: 0, max: 1 },
};
const REASON = "The answer thanks the customer and stays courteous.";
const ANSWER = `<think>The output thanks the customer; the rubric asks for politeness.</think>\n{"reason": "${REASON}", "pass": true, "score": 0.9, "explanation": "Courtesy words: thanks, please."}`;

/** downloadReport clicks Download report and returns the file's text. */
async function downloadReport(page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="download-report"]')]);
  return readFile(await download.path(), "utf8");
}

/** openReport opens a report file from file://. */
async function openReport(html, name) {
  const path = join(dir, name);
  await writeFile(path, html);
  const page = await env.browser.ctx.newPage();
  await page.goto("file://" + path);
  await page.waitForFunction(() => document.documentElement.dataset.script === "ready");
  return page;
}

test("a custom evaluator with a system message and a JSON reason: the page shows them, the report holds them", async () => {
  const fragment = await encodeShare({ evaluator: RUBRIC.id, spec: RUBRIC, inputs: { output: "Thanks for waiting, please tell me if it helps.", rubric: "Is it polite?" }, answer: ANSWER });
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  await page.goto(env.serve.url + "/nothing-here");
  await page.goto(env.serve.url + "/#" + fragment);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.waitForSelector('[data-ref="verdict-view"]');
  // The page: the system message above the prompt, under its role; the judge's reasoning under the verdict.
  assert.equal(await text(page, '[data-ref="prompt-before"] [data-role="system"] pre'), SYSTEM);
  assert.match(await text(page, '[data-ref="judge-reasons"]'), new RegExp(`The judge's reason\\s*${REASON}[\\s\\S]*Explanation\\s*Courtesy words`));
  assert.equal(await text(page, '[data-ref="verdict"] [data-ref="score"]'), "0.9 / 1");
  // Copy prompt (a chat tool's paste) carries the system message too.
  await page.click('[data-ref="copy-prompt"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="copy-prompt"]').textContent === "✓ Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(copied.startsWith("[system]\n" + SYSTEM + "\n\n[user]\n<Output>Thanks for waiting"), copied);
  assert.match(await text(page, '[data-ref="prompt-meta"]'), new RegExp(`${copied.length.toLocaleString("en-US")} characters`));
  assert.deepEqual(await axeViolations(page), [], "the prompt's messages and the judge's reasons");

  const html = await downloadReport(page);
  const report = await openReport(html, "rubric.html");
  try {
    const msgs = await report.locator('[data-ref="report-message"]').evaluateAll((els) => els.map((e) => [e.dataset.role, e.querySelector("pre").textContent]));
    assert.deepEqual(msgs.map((m) => m[0]), ["system", "user"]);
    assert.equal(msgs[0][1], SYSTEM);
    assert.match(msgs[1][1], /^<Output>Thanks for waiting/);
    const row = await text(report, ".rp-row");
    assert.ok(row.includes("The judge's reason " + REASON), row);
    assert.ok(row.includes("Explanation Courtesy words: thanks, please."), row);
    assert.ok(row.includes("<think>The output thanks the customer"), "the raw answer, its <think> block too");
    assert.equal(await text(report, '[data-ref="report-score"]'), "0.9 / 1");
    assert.deepEqual(await axeViolations(report), []);
  } finally {
    await report.close();
  }
});

test("built-ins' scores in the report as the page writes them: '2 of 3 claims grounded', '4 / 5' with its exact value", async () => {
  const page = await env.page({ settings: proxySettings("judge-mini", { endpoint: "manual" }) });
  for (const [id, want] of [
    ["claim-groundedness", /^2 of 3\s*claims grounded$/],
    ["rag-recall", /^4 \/ 5\s*exactly \S+$/],
  ]) {
    await pickEvaluator(page, id);
    await page.click('[data-ref="example"]');
    await page.waitForSelector('[data-ref="verdict-view"]');
    const shown = await text(page, '[data-ref="verdict"] [data-ref="score"]');
    assert.match(shown, want, id + " on the page");
    const report = await openReport(await downloadReport(page), id + ".html");
    try {
      assert.equal(await text(report, '[data-ref="report-score"]'), shown, id + ": the report writes it as the page does");
    } finally {
      await report.close();
    }
  }
  // A yes/no's badge says it all: no score on the page, none in the report.
  await pickEvaluator(page, "answer-grounding");
  await page.click('[data-ref="example"]');
  await page.waitForSelector('[data-ref="verdict-view"]');
  assert.equal(await page.locator('[data-ref="verdict"] [data-ref="score"]').count(), 0);
  const report = await openReport(await downloadReport(page), "yesno.html");
  try {
    assert.equal(await report.locator('[data-ref="report-score"]').count(), 0);
  } finally {
    await report.close();
  }
});
