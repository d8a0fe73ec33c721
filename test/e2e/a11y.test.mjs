// a11y.test.mjs: axe-core (the engine of Lighthouse's accessibility audit) over every view of the
// page in real chromium, light and dark: Evaluate with each kind of verdict shown, Batch with a
// dataset loaded, the Recall calculator, My evaluators with one open (and a template error shown),
// and the Model settings popover open. Each must have no violation at all, and exactly one
// level-one heading.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, pickEvaluator } from "./harness.mjs";
import { EXAMPLES } from "./fake-upstream.mjs";
import { axeViolations } from "./axe.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** audit runs axe over the whole document and fails with every violation listed. */
async function audit(page, where) {
  assert.deepEqual(await axeViolations(page), [], `${where}: axe violations`);
  const h1s = await page.evaluate(() => [...document.querySelectorAll("h1")].filter((e) => e.getClientRects().length > 0).map((e) => e.textContent.trim()));
  assert.equal(h1s.length, 1, `${where}: one level-one heading, got ${JSON.stringify(h1s)}`);
}

async function open(scheme, view = "evaluate") {
  const page = await env.page({ settings: { endpoint: "manual", model: "judge-mini", temperature: 0, maxTokens: 1024, stream: true }, view });
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((s) => matchMedia(`(prefers-color-scheme: ${s})`).matches, scheme);
  return page;
}

for (const scheme of ["light", "dark"]) {
  test(`${scheme}: Evaluate with each kind of verdict shown`, async () => {
    const page = await open(scheme);
    for (const id of Object.keys(EXAMPLES)) {
      await pickEvaluator(page, id);
      await page.click('[data-ref="example"]');
      await page.waitForSelector(`[data-ref="verdict-view"]`);
      await audit(page, `${scheme} Evaluate ${id}`);
    }
    // An undetermined verdict, with a check that can show its span in the answer.
    await page.fill('[data-ref="answer"]', '{"claims": [{"claim_id": "c1", "grounded": tru');
    await page.waitForSelector('[data-ref="verdict-view"][data-state="undetermined"]');
    await audit(page, `${scheme} Evaluate undetermined`);
    assert.deepEqual(page.pageErrors, []);
  });

  test(`${scheme}: the Model settings popover open`, async () => {
    const page = await open(scheme);
    await page.click('[data-ref="settings-button"]');
    await page.waitForSelector('[data-ref="settings"]:not([hidden])');
    await audit(page, `${scheme} Model settings`);
  });

  test(`${scheme}: the Recall calculator with a result and a checked answer`, async () => {
    const page = await open(scheme, "calculator");
    await page.click('[data-ref="calc-seed-1"]');
    await page.waitForSelector('[data-ref="calc-final"]');
    await page.fill('[data-ref="calc-answer"]', EXAMPLES["rag-recall"].answer);
    await page.waitForSelector('[data-ref="calc-check"] [data-ref="formula"]');
    await audit(page, `${scheme} Recall calculator`);
  });

  test(`${scheme}: My evaluators with one open, an error under its line and a verdict`, async () => {
    const page = await open(scheme, "custom");
    // A new one each time (the profile keeps the last test's, left with its error).
    const before = await page.locator(".custom-item").count();
    await page.click('[data-ref="custom-new"]');
    await page.waitForFunction((n) => document.querySelectorAll(".custom-item").length === n + 1, before);
    await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
    await page.fill('[data-ref="custom-answer"]', "Yes");
    await page.waitForSelector('[data-ref="custom-verdict"] [data-ref="verdict-view"]');
    await audit(page, `${scheme} My evaluators`);
    await page.fill('[data-ref="custom-tpl-input"]', "Question: {{ question }}\nAnswer: {{ answer + }}\nYes or no?");
    await page.waitForSelector('[data-ref="custom-tpl"] [data-ref="tpl-pin"]');
    await audit(page, `${scheme} My evaluators with an error`);
    assert.deepEqual(page.pageErrors, []);
  });

  test(`${scheme}: Batch with a dataset loaded`, async () => {
    const page = await open(scheme, "batch");
    await page.waitForSelector('[data-ref="batch-file"]', { state: "attached" });
    const rows = [1, 2, 3].map((i) => JSON.stringify({ answer: `Paris is the capital of France (${i}).`, facts: ["Paris is the capital of France."] })).join("\n");
    await page.locator('[data-ref="batch-file"]').setInputFiles({ name: "rows.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(rows + "\n") });
    await page.waitForFunction(() => /3 rows/.test(document.querySelector('[data-ref="batch-file-msg"]')?.textContent || ""));
    await audit(page, `${scheme} Batch`);
  });
}
