// wasmstart.test.mjs: Go is started on the wasm the moment it has compiled (web/wasmstart.js), not
// once the engine's modules have arrived, and ragjudge.js's load() takes that Go over rather than
// starting another. What comes first is held by routes, not left to timing: the engine's modules,
// or Go's wasm_exec.js. A wasm_exec.js that does not load still gets its clear failure.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, text } from "./harness.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

// Counts the wasm instances the page makes: one Go, whoever starts it.
const COUNT_INSTANCES = () => {
  const inst = WebAssembly.instantiate;
  /** @type {any} */ (window).__instances = 0;
  WebAssembly.instantiate = function (...args) {
    /** @type {any} */ (window).__instances++;
    return inst.apply(this, args);
  };
};

/**
 * open opens the page with the requests for each of held kept until release(path), or answered
 * with a 404 for each of failed; returns the page and what it threw.
 * @param {{held?: string[], failed?: string[]}} routes
 */
async function open({ held = [], failed = [] }) {
  const page = await env.browser.ctx.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.addInitScript(COUNT_INSTANCES);
  /** @type {Map<string, () => void>} */
  const gates = new Map();
  for (const path of held) {
    const gate = new Promise((r) => gates.set(path, r));
    await page.route("**/" + path, async (route) => {
      await gate;
      await route.continue();
    });
  }
  for (const path of failed) await page.route("**/" + path, (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "no" }));
  await page.goto(env.serve.url + "/#evaluate", { waitUntil: "commit" });
  const release = (/** @type {string} */ path) => gates.get(path)?.();
  const releaseAll = () => gates.forEach((r) => r());
  const marked = (/** @type {string} */ name) => page.evaluate((n) => performance.getEntriesByName(n).length, name);
  const instances = () => page.evaluate(() => /** @type {any} */ (window).__instances);
  return { page, errors, release, releaseAll, marked, instances };
}

/** exampleWorks loads Evaluate's worked example and checks the engine rendered its prompt. */
async function exampleWorks(page) {
  await page.click('[data-ref="example"]');
  await page.waitForFunction(() => (document.querySelector('[data-ref="prompt"]')?.textContent.length ?? 0) > 100);
  assert.match(await text(page, '[data-ref="prompt"]'), /\w/);
  assert.match(await text(page, '[data-ref="prompt-meta"]'), /^\d+ lines · \d{1,3}(,\d{3})* characters · about \d{1,3}(,\d{3})* tokens$/);
}

test("Go starts as soon as the wasm has compiled, before the engine's modules are in, and load() takes it over", async () => {
  const { page, errors, release, releaseAll, marked, instances } = await open({ held: ["ragjudge.js"] });
  try {
    // ragjudge.js (load()) is held: only wasmstart.js can have started Go.
    await page.waitForFunction(() => performance.getEntriesByName("ragjudge-started").length === 1);
    assert.equal(await marked("ragjudge-compiled"), 1);
    assert.equal(await page.getAttribute("html", "data-engine"), "loading");
    assert.equal(await instances(), 1);

    release("ragjudge.js");
    await page.waitForSelector("html[data-ready=true]");
    assert.equal(await page.getAttribute("html", "data-engine"), "ready");
    assert.equal(await instances(), 1, "load() took the running Go over instead of starting another");
    await exampleWorks(page);
    assert.deepEqual(errors, []);
  } finally {
    releaseAll();
    await page.close();
  }
});

test("wasm_exec.js arriving after the wasm has compiled: Go starts when it has run", async () => {
  const { page, errors, release, releaseAll, marked, instances } = await open({ held: ["wasm_exec.js"] });
  try {
    await page.waitForFunction(() => performance.getEntriesByName("ragjudge-compiled").length === 1);
    assert.equal(await marked("ragjudge-started"), 0, "no Go to start it with yet");
    release("wasm_exec.js");
    await page.waitForSelector("html[data-ready=true]");
    assert.equal(await page.getAttribute("html", "data-engine"), "ready");
    assert.equal(await marked("ragjudge-started"), 1);
    assert.equal(await instances(), 1);
    await exampleWorks(page);
    assert.deepEqual(errors, []);
  } finally {
    releaseAll();
    await page.close();
  }
});

test("a wasm_exec.js that does not load: the engine fails, saying so, and the page stays readable", async () => {
  const { page, errors, releaseAll, marked } = await open({ failed: ["wasm_exec.js"] });
  try {
    await page.waitForSelector("html[data-engine=failed]");
    assert.equal(await marked("ragjudge-started"), 0);
    assert.match(await text(page, '[data-ref="loading"]'), /did not load: .*wasm_exec\.js/);
    // What is drawn without the engine is still there.
    assert.ok(await page.locator('label[for^="pick-"]').first().isVisible());
    assert.deepEqual(errors, []);
  } finally {
    releaseAll();
    await page.close();
  }
});
