// custom-builtin.test.mjs: a built-in duplicated in My evaluators is the built-in until it is
// edited, in real headless chromium through the real dev server to the fake upstream: for each of
// the four built-ins, the copy's inputs, Evaluate form, example, the prompt the model receives and
// the verdict are the built-in's (claim groundedness' claims reach the prompt through `reports`,
// which its reader makes from `claims`: never an input of its own).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, proxySettings, pickEvaluator, text } from "./harness.mjs";
import { load } from "../../web/ragjudge.js";

const rj = await load();
const BUILTINS = rj.evaluators().filter((e) => !e.custom);

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-custom-builtin";

/**
 * consoleErrors collects page's console errors (Chromium logs an invalid `pattern` attribute
 * there, not as a page error).
 * @param {import("playwright-core").Page} page @returns {string[]}
 */
function consoleErrors(page) {
  const out = [];
  page.on("console", (m) => {
    if (m.type() === "error") out.push(m.text());
  });
  return out;
}

/** duplicate makes a copy of built-in id in My evaluators and returns the copy's id once it is open and checked. */
async function duplicate(page, id) {
  await page.click("#tab-custom");
  await page.waitForSelector(`[data-ref="custom-new-from"] option[value="builtin:${id}"]:not([disabled])`, { state: "attached" });
  const had = await page.locator(".custom-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  await page.selectOption('[data-ref="custom-new-from"]', `builtin:${id}`);
  const made = await page.waitForFunction((had) => {
    const open = document.querySelector(".custom-item.is-open")?.getAttribute("data-id");
    return !!open && !had.includes(open) && /** @type {HTMLInputElement|null} */ (document.querySelector('[data-ref="custom-id"]'))?.value === open && open;
  }, had);
  const copy = /** @type {string} */ (await made.jsonValue());
  await page.waitForSelector('[data-ref="custom-status"][data-state="ok"]');
  await page.waitForSelector('[data-ref="custom-editor"][data-saving="false"]');
  return copy;
}

/** formShape is the Evaluate form's fields as [name, kind] pairs. */
function formShape(page) {
  return page.locator('#view-evaluate [data-ref="form"] [data-field]').evaluateAll((els) => els.map((e) => [e.dataset.field, e.dataset.kind]));
}

/** runExample loads evaluator id's example in Evaluate, runs it and returns {prompt, state, score, badge}. */
async function runExample(page, id) {
  await page.click("#tab-evaluate");
  await page.waitForSelector(`[data-ref="pick-${id}"]`, { state: "attached" });
  await pickEvaluator(page, id);
  await page.waitForFunction(() => !document.querySelector('#view-evaluate [data-ref="example"]').disabled);
  await page.click('#view-evaluate [data-ref="example"]');
  await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
  const before = env.fake.requests.length;
  await page.click('[data-ref="run"]');
  await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict"] [data-ref="verdict-view"]'));
  const call = env.fake.requests.slice(before).filter((r) => r.path === "/chat/completions").at(-1);
  assert.ok(call, `a call was made for ${id}`);
  return {
    prompt: call.body.messages.at(-1).content,
    shape: await formShape(page),
    state: await page.getAttribute('[data-ref="verdict"] [data-ref="verdict-view"]', "data-state"),
    badge: await text(page, '[data-ref="verdict"] [data-ref="verdict-badge"]'),
    score: (await page.locator('[data-ref="verdict"] [data-ref="score"]').count()) ? await text(page, '[data-ref="verdict"] [data-ref="score"]') : "",
  };
}

test("each built-in duplicated: the same inputs, form, example, prompt and verdict as the built-in", async () => {
  const page = await env.page({ settings: proxySettings(), key: KEY, view: "custom" });
  const errors = consoleErrors(page);
  for (const b of BUILTINS) {
    const copy = await duplicate(page, b.id);
    // The inputs are the built-in's, none more: what its reader makes (reports) is no input.
    const names = await page.locator('[data-ref="custom-input-name"]').evaluateAll((els) => els.map((e) => /** @type {HTMLInputElement} */ (e).value));
    assert.deepEqual(names, b.inputs.map((i) => i.name), `${copy}'s inputs`);
    assert.equal(await page.locator('[data-ref="custom-status"] .status-checks li').count(), 0, `${copy}: no problem listed`);
    // The editor's preview starts from the built-in's example, not from placeholders.
    const expected = rj.render(b.id, b.example.inputs).prompt;
    await page.waitForFunction((p) => document.querySelector('[data-ref="custom-rendered"]')?.textContent === p, expected);

    const mine = await runExample(page, copy);
    const theirs = await runExample(page, b.id);
    assert.equal(mine.prompt, expected, `${copy}: the prompt sent is the built-in's`);
    assert.equal(theirs.prompt, expected);
    assert.deepEqual(mine.shape, theirs.shape, `${copy}: the form`);
    assert.deepEqual({ ...mine, shape: null }, { ...theirs, shape: null }, `${copy}: the verdict`);
    if (b.id === "claim-groundedness") {
      for (const c of b.example.inputs.claims) assert.ok(mine.prompt.includes(typeof c === "string" ? c : c.text), "the claims reach the prompt");
    }
  }
  assert.deepEqual(page.pageErrors, []);
  assert.deepEqual(errors, [], "no console error (the Id field's pattern among them)");
});
