// runstore.test.mjs: the batch store (web/batch/runstore.js) on real IndexedDB in headless chromium,
// served by the real dev server: writes queued together share one transaction, and flush()
// commits them at once instead of after the coalescing delay; a run's rows go in chunks that come
// back whole and in order after a reload, all at once or not at all, and go with the run; a run
// stored in one record (the layout before chunks) still opens.

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
    const { IDBStore } = await import("./batch/runstore.js");
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

/** rowsOf is n rows as the mapping makes them, an error here and there. */
const ROWS_SRC = `(n) => Array.from({ length: n }, (_, i) => (i % 97 === 5 ? { error: "row " + i + ": no question" } : { inputs: { question: "question " + i, answer: "answer " + i + " ".repeat(i % 7) } }))`;

test("a run's rows are stored in chunks, come back whole and in order after a reload, and go with the run", async () => {
  const put = await page.evaluate(async (rowsSrc) => {
    const rowsOf = (0, eval)(rowsSrc);
    const { IDBStore } = await import("./batch/runstore.js");
    await new Promise((r) => (indexedDB.deleteDatabase("ragjudge-test-chunks").onsuccess = r));
    const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-chunks", chunkRows: 500 });
    const progress = [];
    await store.putItems("big", rowsOf(12_345), { onProgress: (p) => progress.push(p.done) });
    await store.putItems("small", rowsOf(3));
    // Results for every row but each 7th, and one of another run that sorts after it.
    for (let i = 0; i < 1234; i++) if (i % 7) store.putResult({ runId: "big", index: i, verdict: { passed: i % 2 === 0 } });
    store.putResult({ runId: "big2", index: 0, verdict: { passed: true } });
    await store.flush();
    store.db.close();
    return { progress };
  }, ROWS_SRC);
  assert.equal(put.progress.length, 25, "a progress for each chunk");
  assert.deepEqual(put.progress.slice(0, 2), [500, 1000]);
  assert.equal(put.progress[24], 12_345);

  await page.reload();
  const r = await page.evaluate(async (rowsSrc) => {
    const rowsOf = (0, eval)(rowsSrc);
    const { IDBStore } = await import("./batch/runstore.js");
    const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-chunks", chunkRows: 500, resultBatch: 100 });
    const results = (await store.getResults("big")).map((x) => x.index);
    const count = (id) => new Promise((res) => (store.db.transaction("chunks").objectStore("chunks").count(IDBKeyRange.bound([id, -Infinity], [id, Infinity])).onsuccess = (e) => res(e.target.result)));
    const progress = [];
    const back = await store.getItems("big", { onProgress: (p) => progress.push(p.done) });
    const want = rowsOf(12_345);
    const firstDiff = back.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(want[i]));
    const chunksBefore = await count("big");
    const small = await store.getItems("small");
    await store.deleteRun("big");
    return { results, rows: back.length, firstDiff, chunksBefore, progressLast: progress[progress.length - 1], progressCount: progress.length, chunksAfter: await count("big"), itemsAfter: await store.getItems("big"), small: small.length, smallChunks: await count("small") };
  }, ROWS_SRC);
  assert.deepEqual(r.results, [...Array(1234).keys()].filter((i) => i % 7), "the results read 100 at a time, every one in order");
  assert.equal(r.rows, 12_345);
  assert.equal(r.firstDiff, -1, "every row as stored, in order");
  assert.equal(r.chunksBefore, 25);
  assert.equal(r.progressCount, 25);
  assert.equal(r.progressLast, 12_345);
  assert.equal(r.chunksAfter, 0, "deleting the run deletes its chunks");
  assert.equal(r.itemsAfter, null);
  assert.equal(r.small, 3, "another run's rows are left alone");
  assert.equal(r.smallChunks, 1);
});

test("a page closed while a run's rows are being written leaves none of them", async () => {
  await page.evaluate(async (rowsSrc) => {
    const rowsOf = (0, eval)(rowsSrc);
    const { IDBStore } = await import("./batch/runstore.js");
    await new Promise((r) => (indexedDB.deleteDatabase("ragjudge-test-torn").onsuccess = r));
    const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-torn", chunkRows: 50 });
    // 2,000 chunks, each put after the one before: far from done when the page goes.
    await new Promise((started) => store.putItems("torn", rowsOf(100_000), { onProgress: (p) => p.done >= 500 && started() }));
  }, ROWS_SRC);
  await page.reload();
  const r = await page.evaluate(async () => {
    const { IDBStore } = await import("./batch/runstore.js");
    const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-torn", chunkRows: 50 });
    const chunks = await new Promise((res) => (store.db.transaction("chunks").objectStore("chunks").count().onsuccess = (e) => res(e.target.result)));
    return { items: await store.getItems("torn"), chunks };
  });
  assert.equal(r.items, null, "no rows for the run");
  assert.equal(r.chunks, 0, "no chunk left behind");
});

test("a run stored in one record (the layout before chunks) opens, and is stored again in chunks", async () => {
  await page.evaluate(async (rowsSrc) => {
    const rowsOf = (0, eval)(rowsSrc);
    await new Promise((r) => (indexedDB.deleteDatabase("ragjudge-test-old").onsuccess = r));
    // The database as version 1 of store.js made it.
    const open = indexedDB.open("ragjudge-test-old", 1);
    open.onupgradeneeded = () => {
      const db = open.result;
      db.createObjectStore("runs", { keyPath: "id" });
      db.createObjectStore("items", { keyPath: "runId" });
      db.createObjectStore("results", { keyPath: ["runId", "index"] });
      db.createObjectStore("cache", { keyPath: "key" });
    };
    const db = await new Promise((res, rej) => ((open.onsuccess = () => res(open.result)), (open.onerror = () => rej(open.error))));
    const tx = db.transaction(["runs", "items", "results"], "readwrite");
    tx.objectStore("runs").put({ id: "old", name: "old.jsonl", evaluator: "faithfulness", createdAt: 1, total: 2345, state: "paused" });
    tx.objectStore("items").put({ runId: "old", items: rowsOf(2345) });
    tx.objectStore("results").put({ runId: "old", index: 7, verdict: { passed: true } });
    await new Promise((res) => (tx.oncomplete = res));
    db.close();
  }, ROWS_SRC);
  await page.reload();
  const r = await page.evaluate(async (rowsSrc) => {
    const rowsOf = (0, eval)(rowsSrc);
    const { IDBStore } = await import("./batch/runstore.js");
    const { loadRun } = await import("./batch/runrecords.js");
    const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-old", chunkRows: 1000 });
    const want = JSON.stringify(rowsOf(2345));
    // The rows are stored again in chunks in the background (migrateItems, not awaited by the
    // read): wait for that write itself to end, however long a busy machine takes, not a poll.
    const migrate = store.migrateItems.bind(store);
    let migrated = null;
    store.migrateItems = (id) => (migrated = migrate(id));
    const loaded = await loadRun(store, "old");
    const first = JSON.stringify(loaded.items) === want;
    await migrated;
    const rec = await new Promise((res) => (store.db.transaction("items").objectStore("items").get("old").onsuccess = (e) => res(e.target.result)));
    const again = await store.getItems("old");
    return { version: store.db.version, first, results: loaded.results.filter(Boolean).length, rec, again: JSON.stringify(again) === want };
  }, ROWS_SRC);
  assert.equal(r.version, 2);
  assert.ok(r.first, "the old record's rows, every one in order");
  assert.equal(r.results, 1);
  assert.deepEqual(r.rec, { runId: "old", chunks: 3, rows: 2345 }, "the rows moved into 3 chunks");
  assert.ok(r.again, "and read back from the chunks the same");
});

test("a tab of the version before, holding the database open, makes the upgrade fail with a reason, never hang", async () => {
  const context = await browser.newContext();
  try {
    const [older, newer] = [await context.newPage(), await context.newPage()];
    await older.goto(serve.url + "/");
    await newer.goto(serve.url + "/");
    await older.evaluate(async () => {
      // Version 1 of store.js, which did not close its connection on a version change.
      const open = indexedDB.open("ragjudge-test-held", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("items", { keyPath: "runId" });
      window.__held = await new Promise((res) => (open.onsuccess = () => res(open.result)));
    });
    const err = await newer.evaluate(async () => {
      const { IDBStore } = await import("./batch/runstore.js");
      return IDBStore.open(indexedDB, { name: "ragjudge-test-held" }).then(() => "opened", (e) => String(e.message));
    });
    assert.match(err, /older version holds the batch store/);
    // The new version's connection lets go when a later version asks.
    await older.evaluate(() => window.__held.close());
    const r = await newer.evaluate(async () => {
      const { IDBStore } = await import("./batch/runstore.js");
      const store = await IDBStore.open(indexedDB, { name: "ragjudge-test-held" });
      const next = indexedDB.open("ragjudge-test-held", 3);
      const v = await new Promise((res) => ((next.onsuccess = () => res(next.result.version)), (next.onblocked = () => res("blocked"))));
      return { v, hadChunks: store.db.objectStoreNames.contains("chunks") };
    });
    assert.equal(r.v, 3, "neither the connection that came late nor the store's holds a later version up");
    assert.ok(r.hadChunks);
  } finally {
    await context.close();
  }
});
