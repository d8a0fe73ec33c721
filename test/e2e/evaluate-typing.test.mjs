// evaluate-typing.test.mjs: typing in Evaluate stays cheap (docs/ARCHITECTURE.md, "How state
// flows"): a keystroke changes the view's own copy of the form, not the page's state, so nothing
// is drawn again but the prompt; the state gets a copy, saved, once the typing pauses.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, proxySettings, pickEvaluator } from "./harness.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

test("typing in Evaluate draws no field again: the fields stay the same nodes, the focus stays, and what is typed is kept", async () => {
  const page = await env.page({ settings: proxySettings(), key: "sk-e2e-typing-1234" });
  await pickEvaluator(page, "pairwise-faithfulness");
  await page.waitForSelector('[data-ref="prompt"] mark');
  // Each field and the answer box is marked; a form drawn again would be new nodes, unmarked.
  const marked = await page.evaluate(() => {
    const els = [...document.querySelectorAll('#view-evaluate [data-ref="form"] [data-input], #view-evaluate [data-ref="answer"]')];
    for (const el of els) /** @type {any} */ (el).__kept = true;
    return els.length;
  });
  assert.ok(marked >= 3, `${marked} fields`);
  const field = page.locator('#view-evaluate [data-ref="form"] textarea').first();
  await field.click();
  await field.press("End");
  await page.keyboard.type(" and typed one key at a time");
  await page.waitForFunction(() => document.querySelector('[data-ref="prompt"]').textContent.includes("and typed one key at a time"));
  const after = await page.evaluate(() => ({
    kept: [...document.querySelectorAll('#view-evaluate [data-ref="form"] [data-input], #view-evaluate [data-ref="answer"]')].filter((el) => /** @type {any} */ (el).__kept).length,
    focused: document.activeElement === document.querySelector('#view-evaluate [data-ref="form"] textarea'),
  }));
  assert.deepEqual(after, { kept: marked, focused: true });
  await page.waitForFunction(() => (localStorage.getItem("ragjudge.page.v1") || "").includes("and typed one key at a time"));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  assert.match(await field.inputValue(), /and typed one key at a time$/);
  assert.deepEqual(page.pageErrors, []);
});
