// xss.test.mjs: nothing an input or a judge's answer contains may run script in the page. Every
// payload sets window.__pwned if it ever executes; the test asserts it never is, and that the
// payloads are shown as text.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, proxySettings, pickEvaluator, text } from "./harness.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const PAYLOADS = [
  `<img src=x onerror="window.__pwned='img-input'">`,
  `<script>window.__pwned='script-input'</script>`,
  `<a href="javascript:window.__pwned='link-input'">click me</a>`,
  `"><svg onload="window.__pwned='svg-input'">`,
  `{{ 7*7 }} {% if true %}jinja{% endif %} {answer}`,
];

async function assertClean(page) {
  // No element a payload could have made exists, so no handler can fire later either.
  assert.equal(await page.locator("img, main script, svg, iframe, object, embed, a[href^='javascript'], [onerror], [onload]").count(), 0, "markup from text reached the DOM");
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "a payload executed");
  assert.deepEqual(page.pageErrors, []);
}

test("inputs and a judge answer full of markup stay text, in the form, the prompt and the verdict", async () => {
  const page = await env.page({ settings: proxySettings("judge-xss"), key: "sk-x" });
  await pickEvaluator(page, "claim-groundedness");
  await page.click('[data-ref="clear"]');
  await page.fill('[data-input="question"]', PAYLOADS.join("\n"));
  await page.fill('[data-input="claims"] textarea', PAYLOADS[0] + " " + PAYLOADS[2]);
  await page.fill('[data-input="evidence"] input', PAYLOADS[1]);
  await page.fill('[data-input="evidence"] textarea', PAYLOADS[3]);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-ref="prompt"] mark')].some((m) => m.textContent.includes("<script>")));
  // Inputs that look like template code are inserted verbatim, not evaluated.
  assert.match(await text(page, '[data-ref="prompt"]'), /\{\{ 7\*7 \}\} \{% if true %\}jinja\{% endif %\} \{answer\}/);
  await page.click('[data-ref="run"]');
  await page.waitForSelector('[data-ref="verdict-view"]');
  assert.match(await page.inputValue('[data-ref="answer"]'), /<script>window.__pwned='script-answer'<\/script>/);
  assert.match(await text(page, '[data-ref="verdict"] .claim-card'), /<img src=x onerror=/);
  assert.match(await text(page, '[data-ref="verdict"] .claim-card'), /<script>window.__pwned='script-reason'<\/script>/);
  await assertClean(page);
  // And once more after a reload, from what localStorage kept.
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await page.waitForSelector('[data-ref="verdict-view"]');
  await assertClean(page);
});

test("markup in every evaluator's inputs and in pasted answers stays text", async () => {
  const page = await env.page({ settings: { endpoint: "manual" } });
  for (const id of ["answer-grounding", "pairwise-faithfulness", "rag-recall"]) {
    await pickEvaluator(page, id);
    await page.click('[data-ref="clear"]');
    for (const field of await page.locator('[data-ref="form"] textarea').all()) await field.fill(PAYLOADS.join(" "));
    await page.fill('[data-ref="answer"]', PAYLOADS.join("\n") + "\n{\"answer_1\":{\"faithfulness\":true,\"faithfulness_justification\":\"<img src=x onerror=window.__pwned=1>\"},\"answer_2\":{\"faithfulness\":false,\"content_analysis_sentence_by_sentence\":[{\"sentence\":\"<script>window.__pwned=2</script>\"}]}}");
    await page.waitForSelector('[data-ref="verdict-view"]');
    await assertClean(page);
  }
  await page.click('[data-view="calculator"]');
  await page.fill('[data-ref="calc-gt"]', "[ESSENTIAL PASSAGE]\n" + PAYLOADS.join("\n"));
  await page.fill('[data-ref="calc-answer"]', PAYLOADS.join("\n") + "\n[ESSENTIAL PASSAGE] 1: <img src=x onerror=window.__pwned=3> Score: 4");
  await page.waitForSelector('[data-ref="calc-check"] [data-ref="verdict-view"]');
  await assertClean(page);
});
