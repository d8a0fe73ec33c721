// wasmwarm.test.mjs: the worker that starts Go once on the compiled wasm while the page paints its
// shell (web/wasmstart.js, web/wasmwarm.js), so that V8 has compiled Go's start-up code when the
// page starts Go itself. Which of the two comes first is held by routes, not left to timing: the
// evaluators' descriptions (which the shell, and so the engine's modules, wait for) or the wasm.
// The worker must run only when the page is not ready to start Go itself, must always end, and
// must never be needed.
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

/**
 * open opens the page with the request for path held until release(); workers lists the page's
 * workers as they start, each with whether it has ended.
 */
async function open(path, { failWarm = false } = {}) {
  const page = await env.browser.ctx.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  /** @type {{url: string, ended: boolean}[]} */
  const workers = [];
  page.on("worker", (w) => {
    const rec = { url: w.url(), ended: false };
    workers.push(rec);
    w.on("close", () => (rec.ended = true));
  });
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route("**/" + path, async (route) => {
    await gate;
    await route.continue();
  });
  if (failWarm) await page.route("**/wasmwarm.js", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "no" }));
  await page.goto(env.serve.url + "/#evaluate");
  const warmers = () => workers.filter((w) => w.url.endsWith("/wasmwarm.js"));
  const marked = () => page.evaluate(() => performance.getEntriesByName("ragjudge-warmed").length > 0);
  return { page, errors, release: () => release(), warmers, marked };
}

/** until polls cond (an async predicate) until it holds; a failure names what was awaited. */
async function until(what, cond, ms = 15000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting until " + what);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("compiled before the shell is drawn, the wasm is started once in a worker, which ends; the page then starts it", async () => {
  const { page, errors, release, warmers, marked } = await open("evaluators.json");
  try {
    // The shell waits for evaluators.json; the wasm compiles meanwhile and goes to the worker.
    await until("the worker has started Go", marked);
    assert.equal(await page.getAttribute("html", "data-shell"), null, "the shell is still held");
    assert.equal(await page.getAttribute("html", "data-engine"), "loading");
    assert.equal(warmers().length, 1);
    await until("the worker has ended", async () => warmers()[0].ended);

    release();
    await page.waitForSelector("html[data-ready=true]");
    assert.equal(await page.getAttribute("html", "data-engine"), "ready");
    // The engine the page started itself works.
    await page.click('[data-ref="example"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="prompt"]')?.textContent.length > 100);
    assert.match(await text(page, '[data-ref="prompt"]'), /\w/);
    assert.deepEqual(errors, []);
  } finally {
    release();
    await page.close();
  }
});

test("compiled once the page waits only for the wasm, the worker ends without starting Go", async () => {
  const { page, errors, release, warmers, marked } = await open("ragjudge.wasm");
  try {
    // The engine's modules and Go's wasm_exec.js are in: the page starts Go as soon as it can.
    await page.waitForFunction(() => typeof window.Go === "function");
    release();
    await page.waitForSelector("html[data-ready=true]");
    await until("the worker has ended", async () => warmers().length === 1 && warmers()[0].ended);
    assert.equal(await marked(), false, "Go was not started in the worker");
    assert.deepEqual(errors, []);
  } finally {
    release();
    await page.close();
  }
});

test("a worker that cannot load changes nothing: the page starts the engine as before", async () => {
  const { page, errors, release, warmers, marked } = await open("evaluators.json", { failWarm: true });
  try {
    release();
    await page.waitForSelector("html[data-ready=true]");
    assert.equal(await page.getAttribute("html", "data-engine"), "ready");
    await until("the worker has ended", async () => warmers().every((w) => w.ended));
    assert.equal(await marked(), false);
    assert.deepEqual(errors, []);
  } finally {
    release();
    await page.close();
  }
});
