// firstvisit.test.mjs: the service worker's precache never competes with the page (web/sw.js,
// web/offline.js): on a first visit it is not even registered while a run is under way, and it
// then caches what the page has loaded, the wasm included, without asking the server for it again;
// and a warm load asks the server for none of the page's files (they are kept for good under
// v/VERSION/, index.html as served). Everything is read from the dev server's access log, in the
// order the server answered, never from timings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBatchEnv, startServed, newBatchPage, loadDataset, setRunOptions, progress, waitFor, runEnd } from "./batch-env.mjs";
import { datasetJSONL } from "./batch-upstream.mjs";

const env = useBatchEnv();

/**
 * served lists what the dev server answered since offset in its access log (serve/server.go:
 * "date time METHOD /path status duration"): {path, status} of each GET of the page's own files
 * (not the API), in order.
 */
function served(log, offset = 0) {
  const out = [];
  for (const line of log.slice(offset).split("\n")) {
    const m = /^\S+ \S+ GET (\S+) (\d+) /.exec(line);
    if (m && !m[1].startsWith("/ragjudge/") && !m[1].startsWith("/v1/")) out.push({ path: m[1], status: Number(m[2]) });
  }
  return out;
}

/** controlled waits until a service worker controls the page (once its precache is complete). */
const controlled = (page) => page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 120_000 });

test("a first visit registers the worker only once no run is under way; it then caches what the page loaded without asking again", async () => {
  const { upstream, serve, close } = await startServed({ latencyMs: 20, faults: false });
  const context = await env.browser.newContext({ serviceWorkers: "allow" });
  try {
    const { page, pageErrors } = await newBatchPage(context, serve.url);
    await setRunOptions(page, { concurrency: 1 });
    const ROWS = 4;
    await loadDataset(page, "four.jsonl", datasetJSONL(ROWS));
    upstream.hold(); // every call waits at the fake upstream until released: the run stays under way
    await page.click('[data-ref="batch-run"]');
    await waitFor(() => upstream.stats.calls >= 1, 30_000, "the run's first call");
    // Whatever this load registered and cached goes (the run in IndexedDB stays): the reload is a
    // first visit as far as the worker goes, and it resumes the run at once.
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
      for (const k of await caches.keys()) await caches.delete(k);
    });
    const before = upstream.stats.calls;
    const mark = serve.stderr().length;
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    await waitFor(() => upstream.stats.calls > before, 30_000, "the resumed run's first call");

    // Every row but the last: the run is still under way, and nothing of the worker was asked for.
    upstream.release(ROWS - 1 + 1); // the call that was in flight at the reload was answered to nobody
    await waitFor(async () => ((await progress(page)) || {}).done >= ROWS - 1, 60_000, "all rows but one");
    const during = served(serve.stderr(), mark);
    assert.deepEqual(during.filter((r) => /\/(sw|precache)\.js$/.test(r.path)), [], "no worker registered while the run is under way");

    upstream.release();
    const end = await runEnd(page, 60_000);
    assert.equal(end.done, ROWS);
    await controlled(page); // registered once idle, every file cached

    const all = served(serve.stderr());
    assert.ok(served(serve.stderr(), mark).some((r) => r.path === "/sw.js"), "registered after the run");
    // The wasm went over the wire once: the reload and the precache took it from the HTTP cache.
    assert.equal(all.filter((r) => r.path.endsWith("/ragjudge.wasm")).length, 1, JSON.stringify(all.filter((r) => r.path.endsWith(".wasm"))));
    // No file of the page was asked for twice (a revalidation, or the precache fetching again
    // what the page had), but the page itself (no-cache) and the worker's own script and list.
    const seen = new Map();
    for (const r of all) if (!["/", "/sw.js", "/precache.js"].includes(r.path)) seen.set(r.path, (seen.get(r.path) || 0) + 1);
    assert.deepEqual([...seen].filter(([, n]) => n > 1), []);
    // And every file of the page is in the worker's cache: it works offline.
    const version = await page.evaluate(async () => (await caches.keys()).find((k) => /^ragjudge-[0-9a-f]{16}$/.test(k)));
    assert.ok(version);
    assert.ok(await page.evaluate((v) => caches.open(v).then((c) => c.match("ragjudge.wasm")).then((r) => !!r), version));
    assert.deepEqual(pageErrors, []);
  } finally {
    upstream.release();
    await context.close();
    await close();
  }
});

test("a warm load asks for none of the page's files: with the worker, only whether there is a new build; without it, only the page", async () => {
  const { serve, close } = await startServed({ latencyMs: 5, faults: false });
  const withWorker = await env.browser.newContext({ serviceWorkers: "allow" });
  const without = await env.browser.newContext(); // service workers blocked (batch-env's launch)
  try {
    const loaded = (page) => page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.documentElement.dataset.engine === "ready", null, { timeout: 60_000 });
    // With the worker: a first visit, then, once it controls the page, a new tab.
    const first = await withWorker.newPage();
    await first.goto(serve.url + "/");
    await loaded(first);
    await controlled(first);
    // The precache runs once the page is idle (sw.js): a warm load is one after it completed, which
    // the worker records in its list of complete versions.
    await waitFor(
      () => first.evaluate(async () => {
        const res = await (await caches.open("ragjudge-pins")).match("__versions");
        return !!res && JSON.parse(await res.text()).length > 0;
      }),
      120_000,
      "the precache complete",
    );
    let mark = serve.stderr().length;
    const again = await withWorker.newPage();
    await again.goto(serve.url + "/");
    await loaded(again);
    // The page looks for a new build once idle (offline.js): sw.js, and its list, revalidated.
    await waitFor(() => served(serve.stderr(), mark).some((r) => r.path === "/sw.js"), 60_000, "the update check");
    assert.deepEqual(served(serve.stderr(), mark).filter((r) => !["/sw.js", "/precache.js"].includes(r.path)), []);

    // Without a worker: the HTTP cache alone.
    const plain = await without.newPage();
    await plain.goto(serve.url + "/");
    await loaded(plain);
    mark = serve.stderr().length;
    const plainAgain = await without.newPage();
    await plainAgain.goto(serve.url + "/");
    await loaded(plainAgain);
    // The calculator's and the Batch view's modules, loaded when shown, are kept too.
    await plainAgain.click('[data-view="calculator"]');
    await plainAgain.waitForSelector('[data-ref="calc-seed-1"]');
    assert.deepEqual(served(serve.stderr(), mark).map((r) => r.path), ["/"]);
  } finally {
    await withWorker.close();
    await without.close();
    await close();
  }
});
