// token.test.mjs: a shared dev server lets in only its users. Started with an access token
// (-token; beyond loopback it makes one), it prints the page's address with it; opened there, the
// page works (a batch run over the calls socket, a single evaluation), its address no longer holds
// the token, and the token is in no script-readable place, export or log. Opened without it, the
// page says what is missing and no call reaches the upstream. With its service worker installed,
// the tokened address still goes to the server. Real headless chromium, the real dev server, the
// fake upstream.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { datasetJSONL, startFakeUpstream } from "./batch-upstream.mjs";
import { launch, startServe, openBatch, loadDataset, setRunOptions, progress, runEnd, waitFor } from "./batch-env.mjs";
import { pickEvaluator } from "./harness.mjs";

const TOKEN = "e2e-token-7f3a9c0b1d2e4f56";
const env = {};

before(async () => {
  env.upstream = await startFakeUpstream({ latencyMs: 50, faults: false });
  env.serve = await startServe(env.upstream.url + "/v1", ["-token", TOKEN]);
  env.browser = await launch();
});
after(async () => {
  if (env.browser) await env.browser.close();
  if (env.serve) await env.serve.close();
  if (env.upstream) await env.upstream.close();
});

/** base is the page's address without the token. */
const base = () => env.serve.url.replace(/\/\?token=.*$/, "");

/** storedText is everything the page's scripts can read of what it stored: localStorage, sessionStorage, IndexedDB, cookies. */
function storedText(page) {
  return page.evaluate(async () => {
    const parts = [document.cookie, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise((resolve, reject) => {
        const req = indexedDB.open(/** @type {string} */ (info.name));
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const name of db.objectStoreNames) {
        const all = await new Promise((resolve) => {
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => resolve([]);
        });
        parts.push(JSON.stringify(all));
      }
      db.close();
    }
    return parts.join("\n");
  });
}

test("the address the server prints holds its token; opened there the page works, and keeps the token nowhere", async () => {
  const { upstream, serve, browser } = env;
  assert.match(serve.url, new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${TOKEN}$`), "printed as Jupyter prints it");
  const context = await browser.newContext({ acceptDownloads: true });
  // The fake upstream answers plain JSON: no streaming for the single evaluation.
  await context.addInitScript(() => {
    if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: { stream: false } }));
  });
  try {
    const page = await context.newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(serve.url + "#batch");
    await page.waitForSelector("html[data-ready=true]", { timeout: 30_000 });
    assert.equal(page.url(), base() + "/#batch", "the token is traded for a cookie and gone from the address");
    await page.waitForSelector('[data-ref="batch-setup"]', { timeout: 30_000 });
    assert.match(await page.textContent('[data-ref="where"]'), /^via dev server → 127\.0\.0\.1:\d+$/);

    await setRunOptions(page, { concurrency: 8 });
    await loadDataset(page, "shared.jsonl", datasetJSONL(40));
    await page.click('[data-ref="batch-run"]');
    const end = await runEnd(page, 60_000);
    assert.equal(end.done, 40, end.text);
    assert.match(end.text, / 0 without a verdict /, end.text);
    assert.equal(upstream.stats.calls, 40);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-ref="batch-export-jsonl"]')]);
    assert.doesNotMatch(await readFile(await download.path(), "utf8"), new RegExp(TOKEN), "not in an export");
    const stored = await storedText(page);
    assert.ok(stored.includes("shared.jsonl"), "the run is stored");
    assert.doesNotMatch(stored, new RegExp(TOKEN), "nowhere the page's scripts can read: cookie HttpOnly, nothing stored");
    assert.doesNotMatch(await page.content(), new RegExp(TOKEN));

    // A single evaluation (POST /v1/chat/completions, streamed) carries the cookie too.
    await page.click('[data-view="evaluate"]');
    await pickEvaluator(page, "answer-grounding");
    await page.click('[data-ref="example"]');
    await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
    await page.click('[data-ref="run"]');
    await page.waitForSelector('[data-ref="verdict-view"]', { timeout: 30_000 });
    assert.equal(upstream.stats.calls, 41);
    assert.doesNotMatch(page.url(), /token/, "a share link is made from an address without the token");
    assert.doesNotMatch(serve.stderr(), new RegExp(TOKEN), "never logged");
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});

test("opened without the token: the page says so, a run waits, and no call reaches the upstream", async () => {
  const { upstream, browser } = env;
  const context = await browser.newContext();
  try {
    const calls = upstream.stats.calls;
    const page = await context.newPage();
    await openBatch(page, base());
    assert.equal(await page.textContent('[data-ref="where"]'), "via dev server (needs its access token)");
    await loadDataset(page, "outsider.jsonl", datasetJSONL(10));
    await page.click('[data-ref="batch-run"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-run-card"]').dataset.state === "held", null, { timeout: 30_000 });
    assert.match(await page.textContent('[data-ref="batch-live"]'), /needs its access token \(401\): open the address it printed at its start/);
    const p = await progress(page);
    assert.equal(p.done, 0, p.text);
    assert.equal(upstream.stats.calls, calls, "not one call reached the upstream");

    // A wrong token in the address is refused in words, and sets nothing.
    const res = await page.goto(base() + "/?token=not-the-right-token-00");
    assert.equal(res.status(), 401);
    assert.match(await page.textContent("body"), /not this dev server's/);
    assert.deepEqual(await context.cookies(), []);
  } finally {
    await context.close();
  }
});

test("with the service worker installed, the tokened address still reaches the server", async () => {
  const { serve, browser } = env;
  const context = await browser.newContext({ serviceWorkers: "allow" });
  try {
    const page = await context.newPage();
    await page.goto(serve.url);
    await page.waitForSelector("html[data-ready=true]", { timeout: 30_000 });
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60_000 });
    const redirects = () => (serve.stderr().match(/ GET \/ 303 /g) || []).length;
    const before = redirects();
    await context.clearCookies();
    await page.goto(serve.url + "#evaluate");
    await page.waitForSelector("html[data-ready=true]", { timeout: 30_000 });
    await waitFor(() => redirects() > before, 10_000, "the server to see the tokened address");
    assert.equal(page.url(), base() + "/#evaluate");
    assert.equal((await context.cookies()).length, 1, "the cookie is set again");
    const cached = await page.evaluate(async () => {
      const hits = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) if (req.url.includes("token")) hits.push(req.url);
      return hits;
    });
    assert.deepEqual(cached, [], "nothing token-bearing is cached");
  } finally {
    await context.close();
  }
});
