// Tests of the batch store's pure parts: how a run's rows are cut into chunks and put back
// together (whole, or an error, never part of them), and the memory store's items interface.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chunkCount, joinChunks, CHUNK_ROWS } from "../../web/batch/runstore.js";
import { MemoryStore } from "../../web/batch/memorystore.js";

test("chunkCount: rows over the chunk size, rounded up; a bad size is an error", () => {
  assert.equal(chunkCount(0, 1000), 0);
  assert.equal(chunkCount(1, 1000), 1);
  assert.equal(chunkCount(1000, 1000), 1);
  assert.equal(chunkCount(1001, 1000), 2);
  assert.equal(chunkCount(12345, 500), 25);
  for (const bad of [0, -1, 2.5, NaN, undefined]) assert.throws(() => chunkCount(10, /** @type {any} */ (bad)), /chunk size/);
  assert.ok(CHUNK_ROWS >= 500 && CHUNK_ROWS <= 5000);
});

const cut = (rows, size) => Array.from({ length: chunkCount(rows.length, size) }, (_, k) => ({ items: rows.slice(k * size, (k + 1) * size) }));

test("joinChunks puts the rows back in order", () => {
  const rows = Array.from({ length: 2503 }, (_, i) => ({ inputs: { q: "row " + i } }));
  const rec = { runId: "r", chunks: 6, rows: rows.length };
  assert.deepEqual(joinChunks(rec, cut(rows, 500)), rows);
  assert.deepEqual(joinChunks({ runId: "e", chunks: 0, rows: 0 }, []), []);
});

test("joinChunks: an old record is its own rows", () => {
  const items = [{ inputs: { q: "a" } }, { error: "no question" }];
  assert.deepEqual(joinChunks({ runId: "old", items }, []), items);
});

test("joinChunks: a missing or short chunk is an error naming the run, never part of the rows", () => {
  const rows = Array.from({ length: 25 }, (_, i) => ({ inputs: { q: i } }));
  const rec = { runId: "r7", chunks: 3, rows: 25 };
  const chunks = cut(rows, 10);
  assert.throws(() => joinChunks(rec, [chunks[0], undefined, chunks[2]]), /run r7 lacks chunk 2 of 3/);
  assert.throws(() => joinChunks(rec, chunks.slice(0, 2)), /lacks chunk 3 of 3/);
  assert.throws(() => joinChunks(rec, [chunks[0], { items: rows.slice(10, 15) }, chunks[2]]), /run r7 has 20 of its 25 rows/);
});

test("MemoryStore: putItems and getItems tell progress and keep their copies apart", async () => {
  const store = new MemoryStore();
  const items = [{ inputs: { q: "a" } }, { inputs: { q: "b" } }];
  const put = [];
  await store.putItems("r", items, { onProgress: (p) => put.push(p) });
  assert.deepEqual(put, [{ done: 2, total: 2 }]);
  items[0].inputs.q = "changed";
  const got = [];
  const back = await store.getItems("r", { onProgress: (p) => got.push(p) });
  assert.equal(back[0].inputs.q, "a");
  assert.deepEqual(got, [{ done: 2, total: 2 }]);
  assert.equal(await store.getItems("none"), null);
  await store.putItems("r2", items); // no options: as before
  await store.deleteRun("r");
  assert.equal(await store.getItems("r"), null);
});
