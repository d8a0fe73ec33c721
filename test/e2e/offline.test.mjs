// offline.test.mjs: the page installed by its service worker (web/sw.js), in real chromium with
// service workers allowed: after one visit it reloads with the network off and still computes a
// recall and reads a pasted judge answer; a new build is taken on the next load, with the
// "updated" note, while a page still open keeps the files of its own version.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { setup, launch, pickEvaluator, proxySettings, text, WEB, buildServe, startServe } from "./harness.mjs";
import { dist } from "../../scripts/webfiles.mjs";
import { loadDataset, runEnd } from "./batch-env.mjs";
import { EXAMPLES } from "./fake-upstream.mjs";

const cleanup = [];
after(async () => {
  for (const f of cleanup.reverse()) await f();
});

/** controlled waits until the page's service worker controls it. */
async function controlled(page) {
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60000 });
}

/** until polls an async condition in the page (waitForFunction does not await one). */
async function until(page, f, arg, timeout = 60000) {
  const end = Date.now() + timeout;
  while (!(await page.evaluate(f, arg))) {
    if (Date.now() > end) throw new Error("timed out waiting for " + f.toString().slice(0, 200));
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** versionOf is the precache version the server at url lists now. */
async function versionOf(url) {
  const js = await (await fetch(url + "/precache.js")).text();
  return JSON.parse(js.slice(js.indexOf("=") + 1, js.lastIndexOf(";"))).version;
}

test("after one visit the page reloads offline: a recall computed, a pasted answer read", async () => {
  const env = await setup({ serviceWorkers: "allow" });
  cleanup.push(() => env.close());
  const page = await env.page({ settings: { endpoint: "manual", model: "judge-mini" } });
  await controlled(page);
  // The service worker asks for nothing of the dev server's API, and only GETs.
  await env.browser.ctx.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.documentElement.dataset.engine === "ready");
    assert.deepEqual(page.pageErrors, []);
    assert.equal(await page.evaluate(() => navigator.onLine), false, "the browser is offline");

    // Evaluate, manual mode: a pasted answer is read into the same verdict as online.
    assert.equal(await text(page, '[data-ref="where"]'), "manual, no calls");
    await pickEvaluator(page, "claim-groundedness");
    await page.click('[data-ref="clear"]');
    await page.click('[data-ref="example"]');
    await page.fill('[data-ref="answer"]', EXAMPLES["claim-groundedness"].answer);
    await page.waitForSelector('[data-ref="verdict-view"]');
    assert.equal(await text(page, '[data-ref="verdict-badge"]'), "✗Not grounded");
    assert.match(await text(page, '[data-ref="verdict"] [data-ref="score"]'), /2 of 3/);

    // The calculator (a module loaded when its view is first shown) computes a recall.
    await page.click('[data-view="calculator"]');
    await page.click('[data-ref="calc-seed-1"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="calc-final"] strong')?.textContent === "4 / 5");
    await page.fill('[data-ref="calc-essential-1"]', "3.5");
    await page.waitForFunction(() => document.querySelector('[data-ref="calc-final"] strong')?.textContent === "3.75 / 5");
    assert.equal(await page.locator('[data-ref="calculator-load-error"]').count(), 0);

    // The Batch view (its modules loaded when first shown, its runs in IndexedDB) opens too.
    await page.click('[data-view="batch"]');
    await page.waitForSelector('[data-ref="batch-setup"]');
    assert.equal(await page.locator('[data-ref="batch-load-error"]').count(), 0);
    assert.deepEqual(page.pageErrors, []);
  } finally {
    await env.browser.ctx.setOffline(false);
  }
});

test("a new build is taken on the next load, with a note; an open page keeps its own files", async () => {
  const web = mkdtempSync(join(tmpdir(), "ragjudge-e2e-web-"));
  cleanup.push(() => rmSync(web, { recursive: true, force: true }));
  cpSync(WEB, web, { recursive: true, preserveTimestamps: true });
  const env = await setup({ serviceWorkers: "allow", web });
  cleanup.push(() => env.close());
  const v1 = await versionOf(env.serve.url);
  const page = await env.page({ settings: { endpoint: "manual" } });
  await controlled(page);
  await page.reload();
  await page.waitForFunction((v) => document.documentElement.dataset.version === v, v1);
  assert.equal(await page.locator('[data-ref="updated"]').isHidden(), true, "no note for the version last seen");

  // A new build: another page title and another calculator/view.js.
  const edit = (file, f) => {
    const p = join(web, file);
    writeFileSync(p, f(readFileSync(p, "utf8")));
    const later = new Date(Date.now() + 2000);
    utimesSync(p, later, later);
  };
  edit("index.html", (s) => s.replace("<title>ragjudge", "<title>ragjudge v2"));
  edit("calculator/view.js", (s) => s + "\n// build two\n");
  const v2 = await versionOf(env.serve.url);
  assert.notEqual(v2, v1);

  // This load still runs the first build (cached), and finds the second.
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  assert.doesNotMatch(await page.title(), /v2/);
  await until(page, async (v) => {
    // Installed: every file is cached and the worker lists the version (sw.js, versions()).
    const res = await (await caches.open("ragjudge-pins")).match("__versions");
    return !!res && JSON.parse(await res.text()).at(-1) === "ragjudge-" + v;
  }, v2);
  // The open page is of the first build: what it loads now is of the first build too.
  await page.click('[data-view="calculator"]');
  await page.waitForSelector('[data-ref="calc-seed-1"]');
  assert.equal(await page.locator('[data-ref="calculator-load-error"]').count(), 0);
  assert.doesNotMatch(await page.evaluate(() => fetch("calculator/view.js").then((r) => r.text())), /build two/);

  // The next load is the second build, whole, and says so.
  await page.reload();
  await page.waitForFunction((v) => document.documentElement.dataset.version === v, v2);
  assert.match(await page.title(), /v2/);
  assert.match(await page.evaluate(() => fetch("calculator/view.js").then((r) => r.text())), /build two/);
  await page.waitForSelector('[data-ref="updated"]', { state: "visible" });
  assert.match(await text(page, '[data-ref="updated"]'), /updated/);
  assert.deepEqual(page.pageErrors, []);

  // The first build's cache goes once no page uses it: a page's pin outlives the page by 10 s
  // (sw.js PIN_GRACE), and the worker sweeps when a page has loaded. So: wait out the grace of
  // the first build's newest pin (its time as the worker wrote it), load once, and the sweep that
  // load starts deletes the cache; how long that takes on a busy machine is only a wait.
  const pinnedAt = await page.evaluate(async (v) => {
    const pins = await caches.open("ragjudge-pins");
    let at = 0;
    for (const req of await pins.keys()) {
      if (!req.url.includes("/__pin/")) continue;
      const [name, t] = (await (await pins.match(req)).text()).split(" ");
      if (name === "ragjudge-" + v) at = Math.max(at, Number(t));
    }
    return at;
  }, v1);
  const PIN_GRACE = 10_000;
  while (Date.now() <= pinnedAt + PIN_GRACE + 500) await new Promise((r) => setTimeout(r, 250));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.version);
  await until(page, (v) => caches.has("ragjudge-" + v).then((has) => !has), v1);
});

test("a batch run made online (its call worker served by the service worker) reopens offline", async () => {
  const env = await setup({ serviceWorkers: "allow" });
  cleanup.push(() => env.close());
  let page = await env.page({ settings: proxySettings(), view: "batch" });
  await controlled(page);
  await page.reload(); // from the cache now: the page and its call worker are of one version
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  const rows = [1, 2, 3].map((i) => JSON.stringify({ response: `Paris is the capital of France (${i}).`, retrieved_contexts: ["Paris is the capital of France."] })).join("\n") + "\n";
  await loadDataset(page, "three.jsonl", rows);
  await page.click('[data-ref="batch-run"]');
  const end = await runEnd(page, 60_000);
  assert.equal(end.done, 3);

  await env.browser.ctx.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await page.waitForSelector('[data-ref="batch-open-run"]');
    assert.equal(await page.locator('[data-ref="batch-open-run"]').count(), 1);
    await page.click('[data-ref="batch-open-run"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-progress-text"]')?.dataset.done === "3");
    assert.deepEqual(page.pageErrors, []);
  } finally {
    await env.browser.ctx.setOffline(false);
  }
});

/**
 * staticServer starts Python's http.server on out, on a port it binds itself (0: the kernel's
 * choice, so no other process can take it between a pick and the bind), and resolves to its url
 * once it says it serves (it prints the line after it has bound and listens).
 */
function staticServer(out) {
  const server = spawn("/usr/bin/python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", out], { stdio: ["ignore", "pipe", "ignore"] });
  cleanup.push(() => server.kill());
  return new Promise((resolve, reject) => {
    let said = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (chunk) => {
      said += chunk;
      const m = /port (\d+)/.exec(said);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    server.on("error", reject);
    server.on("exit", (code) => reject(new Error(`the static server exited (${code}) before serving: ${said}`)));
  });
}

test("the folder make dist writes works from a plain static file server, and offline after one visit", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "ragjudge-e2e-dist-")), "dist");
  cleanup.push(() => rmSync(join(out, ".."), { recursive: true, force: true }));
  dist(WEB, out);
  // Python's http.server: no dev server API, no compression, no headers of ours.
  const url = await staticServer(out);
  assert.ok((await fetch(url + "/precache.js")).ok, "the static server serves the folder");
  const browser = await launch({ serviceWorkers: "allow" });
  cleanup.push(() => browser.close());
  const page = await browser.ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url + "/#calculator");
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  assert.equal(await text(page, '[data-ref="where"]'), "manual, no calls", "no dev server: manual mode");
  await controlled(page);
  await browser.ctx.setOffline(true);
  try {
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.documentElement.dataset.engine === "ready");
    await page.click('[data-ref="calc-seed-2"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="calc-final"] strong')?.textContent === "3.67 / 5");
    assert.deepEqual(errors, []);
  } finally {
    await browser.ctx.setOffline(false);
  }
});

test("the dev server stopped mid-run, the page reloaded from the cache: it says the server is not reachable, the run waits for it, and both recover when it is back (finding 8)", async () => {
  const env = await setup({ serviceWorkers: "allow" });
  cleanup.push(() => env.close());
  const page = await env.page({ settings: proxySettings(), key: "sk-e2e-offline-run-1234", view: "batch" });
  await controlled(page);
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  const bin = buildServe(mkdtempSync(join(tmpdir(), "ragjudge-e2e-restart-")));
  let serve = env.serve;
  const port = new URL(serve.url).port;
  const where = page.locator('[data-ref="where"]');
  /** stopMidRun starts a run whose answers are held, stops the dev server and reloads the page (from the cache). */
  const stopMidRun = async (name) => {
    // Rows of their own: another run's would be answered from the cache.
    const rows = [1, 2, 3, 4, 5, 6].map((i) => JSON.stringify({ response: `Paris is the capital of France (${name} ${i}).`, retrieved_contexts: ["Paris is the capital of France."] })).join("\n") + "\n";
    /** @type {(v?: unknown) => void} */
    let release = () => {};
    const held = new Promise((r) => (release = r));
    env.fake.answer = async () => (await held, "Yes");
    await loadDataset(page, name, rows);
    await page.click('[data-ref="batch-run"]');
    await until(page, () => document.querySelector('[data-ref="batch-run-card"]')?.dataset.state === "running");
    await serve.stop();
    release();
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    // The badge: not "(not found)" with a green dot.
    assert.equal((await where.textContent()).trim(), "via dev server (not reachable)");
    assert.equal(await where.getAttribute("data-down"), "true");
    assert.equal(await where.evaluate((el) => getComputedStyle(el, "::before").content), '"✕ "');
  };
  /** restart starts the dev server again on its port: the badge and the run recover by themselves. */
  const restart = async () => {
    serve = await startServe(bin, env.fake.url, { args: ["-addr", "127.0.0.1:" + port] });
    cleanup.push(() => serve.stop());
    await until(page, () => document.querySelector('[data-ref="where"]').dataset.down === "false");
    assert.match((await where.textContent()).trim(), /^via dev server → 127\.0\.0\.1:\d+$/);
    const end = await runEnd(page, 90_000);
    assert.equal(end.done, 6);
  };
  const said = /^The dev server is not reachable \(is make run still running\?\): the run waits, and goes on by itself when it answers again\.$/;

  // With a key: the calls fail, the run pauses itself for the outage, and its card says why.
  await stopMidRun("six.jsonl");
  await until(page, () => document.querySelector('[data-ref="batch-run-card"]')?.dataset.state === "outage");
  assert.match(await text(page, '[data-ref="batch-live"]'), said);
  await restart();

  // Without a key (the fake is on this machine: none is needed, but the page cannot know while the
  // server is gone): the run waits for the server, not for a key, and goes on once it is back.
  await page.evaluate(() => localStorage.removeItem("ragjudge.page.key"));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  await stopMidRun("six-again.jsonl");
  await until(page, () => /not reachable/.test(document.querySelector('[data-ref="batch-live"]')?.textContent || ""));
  assert.match(await text(page, '[data-ref="batch-live"]'), said);
  await restart();
  assert.deepEqual(page.pageErrors, []);
});
