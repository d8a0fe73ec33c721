// store.test.mjs: the batch store (web/batch/store.js) on real IndexedDB in headless chromium,
// served by the real dev server: writes queued together share one transaction, and flush()
// commits them at once instead of after the coalescing delay.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startFakeUpstream } from "./batch-upstream.mjs";
import { startServe, launch } from "./batch-env.mjs";

let upstream;
let serve;
let browser;
let page;

before(async () => {
  upstream = await startFakeUpstream({ latencyMs: 0, faults: false });
  serve = await startServe(upstream.url + "/v1");
  browser = await launch();
  page = await browser.newPage();
  await page.goto(serve.url + "/");
});

after(async () => {
  if (browser) await browser.close();
  if (serve) await serve.close();
  if (upstream) await upstream.close();
});

test("queued result writes share one transaction, and flush commits them without waiting out the delay", async () => {
  const r = await page.evaluate(async () => {
    const { IDBStore } = await import("./batch/store.js");
    // An hour's coalescing delay: only flush() can have committed the writes when it returns.
    const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-store", coalesceMs: 3_600_000 });
    const tx = store.db.transaction.bind(store.db);
    const opened = [];
    store.db.transaction = (names, mode) => (opened.push(`${names} ${mode || "readonly"}`), tx(names, mode));
    const writes = Array.from({ length: 25 }, (_, i) => store.putResult({ runId: "t1", index: i, verdict: { passed: i % 2 === 0 }, answers: ["yes"] }));
    let settled = 0;
    writes.forEach((w) => w.then(() => settled++));
    await new Promise((res) => setTimeout(res, 20));
    const settledBeforeFlush = settled;
    await store.flush();
    await Promise.all(writes);
    const stored = await store.getResults("t1");
    await store.flush(); // nothing queued: returns at once
    return { settledBeforeFlush, opened, stored: stored.map((x) => x.index) };
  });
  assert.equal(r.settledBeforeFlush, 0, "writes wait for the coalescing delay");
  assert.deepEqual(
    r.opened.filter((o) => o === "results readwrite"),
    ["results readwrite"],
    "one transaction for all 25 writes",
  );
  assert.deepEqual(r.stored, [...Array(25).keys()]);
});
