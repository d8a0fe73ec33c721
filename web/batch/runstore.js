// runstore.js: where batch runs live so that nothing finished is lost: IndexedDB in the browser,
// memory where IndexedDB is missing (memorystore.js: Node tests, or a browser that refuses storage, in which case
// the page says results will not survive a reload). Stores:
//   runs    {id, ...meta}                 one per run (never the API key)
//   items   {runId, chunks, rows}          a run's mapped rows ({inputs}|{error}) are in chunks:
//   chunks  {runId, chunk, items:[…]}      CHUNK_ROWS rows each, so that no one task clones them
//                                          all; the items record says how many, and is written
//                                          in the same transaction, last. Runs stored before
//                                          (version 1) have {runId, items:[…]} in items: still read.
//   results {runId, index, ...}            one per finished row, written as it finishes
//   cache   {key, content, usage, ...}     judge answers by request identity (cache.js)

import { MemoryStore } from "./memorystore.js";

const DB_NAME = "ragjudge-batch";
const DB_VERSION = 2;

// CHUNK_ROWS: rows per chunk record. 100,000 rows in one record were one task of 0.15 to 2.6 s
// (by the machine's load) when stored and again when read; chunks of 5,000 still made tasks of
// 70 to 135 ms, of 1,000 none over 50 ms, in the same total time (bench/batchfile.mjs).
export const CHUNK_ROWS = 1000;

// RESULT_BATCH: results read per request when a run is reopened (100,000 in one getAll was a
// task of 160 ms).
const RESULT_BATCH = 5000;

/**
 * chunkCount is how many chunk records hold total rows, size rows each.
 * @param {number} total
 * @param {number} size
 * @returns {number}
 */
export function chunkCount(total, size) {
  if (!(size >= 1) || !Number.isInteger(size)) throw new Error(`store: chunk size must be a whole number of rows ≥ 1, not ${size}`);
  return Math.ceil(total / size);
}

/**
 * joinChunks puts a run's rows back together from its items record and its chunks (in chunk
 * order, undefined where one is missing): the rows whole, or an error saying what is missing,
 * never part of them. An old record ({items:[…]}) is its own rows.
 * @param {any} rec the items record
 * @param {Array<{items: any[]}|undefined>} chunks
 * @returns {any[]}
 */
export function joinChunks(rec, chunks) {
  if (Array.isArray(rec.items)) return rec.items;
  const out = [];
  for (let k = 0; k < rec.chunks; k++) {
    const c = chunks[k];
    if (!c || !Array.isArray(c.items)) throw new Error(`store: run ${rec.runId} lacks chunk ${k + 1} of ${rec.chunks} of its rows`);
    for (const it of c.items) out.push(it);
  }
  if (out.length !== rec.rows) throw new Error(`store: run ${rec.runId} has ${out.length} of its ${rec.rows} rows`);
  return out;
}

// COALESCE_MS: writes queued within this long share one transaction. Opening and committing a
// transaction costs the main thread more than the puts in it, and a fast run finishes ~100 rows a
// second; a row whose write has not committed when the page goes is simply run again (the cache
// answers it if its answer was stored).
const COALESCE_MS = 50;

function req2p(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function tx2p(tx) {
  return /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("IndexedDB transaction aborted"));
  }));
}

/** chunkRange is every chunk key of run runId. */
function chunkRange(runId) {
  return IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]);
}

/**
 * writeChunks queues in tx (over items and chunks) the writes of run runId's rows: its old chunks
 * deleted, then a chunk at a time, each put from the success of the one before so that each
 * clone is a task of its own, and last the items record that says how many chunks make the rows.
 */
function writeChunks(tx, runId, items, size, onProgress) {
  const n = chunkCount(items.length, size);
  const chunks = tx.objectStore("chunks");
  chunks.delete(chunkRange(runId));
  const put = (k) => {
    if (k === n) {
      tx.objectStore("items").put({ runId, chunks: n, rows: items.length });
      return;
    }
    const req = chunks.put({ runId, chunk: k, items: items.slice(k * size, (k + 1) * size) });
    req.onsuccess = () => {
      if (onProgress) onProgress({ done: Math.min(items.length, (k + 1) * size), total: items.length });
      put(k + 1);
    };
  };
  put(0);
}

/** IDBStore is the durable store. Results are written as they finish, grouped into one
 * transaction per burst (enqueue) so that hundreds of rows a second do not mean hundreds of transactions. */
export class IDBStore {
  constructor(db, { coalesceMs = COALESCE_MS, chunkRows = CHUNK_ROWS, resultBatch = RESULT_BATCH } = {}) {
    chunkCount(0, chunkRows);
    chunkCount(0, resultBatch);
    this.db = db;
    this.chunkRows = chunkRows;
    this.resultBatch = resultBatch;
    this.durable = true;
    this.queues = new Map();
    this.coalesceMs = coalesceMs;
  }

  /** open opens (or creates) the database; opts: {coalesceMs, chunkRows, resultBatch, name} (tests use them). */
  static async open(idb = globalThis.indexedDB, { name = DB_NAME, ...opts } = {}) {
    const open = idb.open(name, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains("runs")) db.createObjectStore("runs", { keyPath: "id" });
      if (!db.objectStoreNames.contains("items")) db.createObjectStore("items", { keyPath: "runId" });
      if (!db.objectStoreNames.contains("chunks")) db.createObjectStore("chunks", { keyPath: ["runId", "chunk"] });
      if (!db.objectStoreNames.contains("results")) db.createObjectStore("results", { keyPath: ["runId", "index"] });
      if (!db.objectStoreNames.contains("cache")) db.createObjectStore("cache", { keyPath: "key" });
    };
    const db = await new Promise((resolve, reject) => {
      let blocked = false;
      // The connection that comes once the older tab has gone is nobody's: closed at once.
      open.onsuccess = () => (blocked ? open.result.close() : resolve(open.result));
      open.onerror = () => reject(open.error);
      // A tab of an older version holds the database open and does not let go on an upgrade:
      // say so rather than wait for it (openStore then keeps this tab's runs in memory).
      open.onblocked = () => {
        blocked = true;
        reject(new Error("a ragjudge tab of an older version holds the batch store: close it and reload"));
      };
    });
    // A newer version opening the database in another tab gets it: this tab lets go at once.
    db.onversionchange = () => db.close();
    return new IDBStore(db, opts);
  }

  async putRun(run) {
    const tx = this.db.transaction("runs", "readwrite");
    tx.objectStore("runs").put(run);
    await tx2p(tx);
  }

  getRun(id) {
    return req2p(this.db.transaction("runs").objectStore("runs").get(id));
  }

  async listRuns() {
    const runs = await req2p(this.db.transaction("runs").objectStore("runs").getAll());
    return runs.sort((a, b) => b.createdAt - a.createdAt);
  }

  async deleteRun(id) {
    await this.flush();
    const tx = this.db.transaction(["runs", "items", "chunks", "results"], "readwrite");
    tx.objectStore("runs").delete(id);
    tx.objectStore("items").delete(id);
    tx.objectStore("chunks").delete(chunkRange(id));
    tx.objectStore("results").delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
    await tx2p(tx);
  }

  /**
   * putItems stores a run's rows, chunkRows to a record, in one transaction whose puts follow one
   * another (each put's success event, a task of its own, makes the next): each task clones one
   * chunk, and a page closed midway aborts the transaction, so a run never has part of its rows.
   * Rows stored before under runId are replaced. onProgress({done, total}) follows the rows.
   * @param {string} runId
   * @param {any[]} items
   * @param {{onProgress?: (p: {done: number, total: number}) => void}} [opts]
   * @returns {Promise<void>}
   */
  putItems(runId, items, { onProgress } = {}) {
    const tx = this.db.transaction(["items", "chunks"], "readwrite");
    const done = tx2p(tx);
    writeChunks(tx, runId, items, this.chunkRows, onProgress);
    return done;
  }

  /**
   * getItems reads a run's rows back, a chunk per task (null when none are stored); a chunk
   * missing is an error, never part of the rows. Rows stored in one record (before chunks) are
   * read whole, then stored again in chunks in the background, so the next reading is in short tasks.
   * @param {string} runId
   * @param {{onProgress?: (p: {done: number, total: number}) => void}} [opts]
   * @returns {Promise<any[]|null>}
   */
  async getItems(runId, { onProgress } = {}) {
    const tx = this.db.transaction(["items", "chunks"]);
    const rec = await req2p(tx.objectStore("items").get(runId));
    if (!rec) return null;
    if (Array.isArray(rec.items)) {
      this.migrateItems(runId).catch((e) => console.warn("batch: could not store run " + runId + "'s rows in chunks", e));
      return rec.items;
    }
    // Every get is asked for at once (the transaction reads ahead); each answer is cloned into
    // this page in the task of its success event.
    const os = tx.objectStore("chunks");
    const chunks = new Array(rec.chunks);
    let rows = 0;
    await Promise.all(
      Array.from({ length: rec.chunks }, (_, k) =>
        req2p(os.get([runId, k])).then((c) => {
          chunks[k] = c;
          rows += c && Array.isArray(c.items) ? c.items.length : 0;
          if (onProgress) onProgress({ done: rows, total: rec.rows });
        }),
      ),
    );
    return joinChunks(rec, chunks);
  }

  /**
   * migrateItems stores a run's rows kept in one record (the layout before chunks) in chunks, in
   * one transaction that first reads the record again: a run deleted or stored anew meanwhile is
   * left alone.
   * @param {string} runId
   */
  migrateItems(runId) {
    const tx = this.db.transaction(["items", "chunks"], "readwrite");
    const done = tx2p(tx);
    const get = tx.objectStore("items").get(runId);
    get.onsuccess = () => {
      const rec = get.result;
      if (rec && Array.isArray(rec.items)) writeChunks(tx, runId, rec.items, this.chunkRows);
    };
    return done;
  }

  /**
   * enqueue runs op(objectStore) in a transaction shared with every other op queued on the same
   * store and mode within COALESCE_MS (writes) or while the previous transaction was committing: one transaction
   * carries many rows instead of one each. It resolves to the op's request result once committed.
   */
  enqueue(storeName, mode, op) {
    const k = storeName + " " + mode;
    let q = this.queues.get(k);
    if (!q) this.queues.set(k, (q = { items: [], running: null }));
    return new Promise((resolve, reject) => {
      q.items.push({ op, resolve, reject });
      if (!q.running) {
        let wait = Promise.resolve();
        if (mode === "readwrite") {
          wait = new Promise((r) => {
            const timer = setTimeout(r, this.coalesceMs);
            q.hurry = () => (clearTimeout(timer), r()); // flush() writes now instead of waiting out the timer
          });
        }
        q.running = wait.then(() => ((q.hurry = null), this.drain(q, storeName, mode)));
      }
    });
  }

  async drain(q, storeName, mode) {
    while (q.items.length) {
      const batch = q.items.splice(0);
      try {
        const tx = this.db.transaction(storeName, mode);
        const os = tx.objectStore(storeName);
        const reqs = batch.map((b) => b.op(os));
        await tx2p(tx);
        batch.forEach((b, i) => b.resolve(reqs[i] ? reqs[i].result : undefined));
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    }
    q.running = null;
  }

  /** flush commits every queued write now and waits until they are committed. */
  async flush() {
    for (;;) {
      for (const q of this.queues.values()) if (q.hurry) q.hurry();
      const running = [...this.queues.values()].map((q) => q.running).filter(Boolean);
      if (!running.length) return;
      await Promise.all(running);
    }
  }

  /** putResult resolves once the row is committed to disk. */
  putResult(result) {
    return this.enqueue("results", "readwrite", (os) => os.put(result)).then(() => undefined);
  }

  /**
   * getResults reads a run's results in index order, resultBatch per request, each request made
   * from the success of the one before in one transaction: a task each, never one for them all.
   * @param {string} runId
   * @returns {Promise<any[]>}
   */
  getResults(runId) {
    const os = this.db.transaction("results").objectStore("results");
    const out = [];
    return new Promise((resolve, reject) => {
      const next = (from, open) => {
        const req = os.getAll(IDBKeyRange.bound([runId, from], [runId, Infinity], open, false), this.resultBatch);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const got = req.result;
          for (const r of got) out.push(r);
          if (got.length < this.resultBatch) resolve(out);
          else next(got[got.length - 1].index, true);
        };
      };
      next(-Infinity, false);
    });
  }

  async cacheGet(key) {
    return (await this.enqueue("cache", "readonly", (os) => os.get(key))) || null;
  }

  async cachePut(key, value) {
    await this.enqueue("cache", "readwrite", (os) => os.put({ ...value, key }));
  }

  cacheCount() {
    return req2p(this.db.transaction("cache").objectStore("cache").count());
  }

  /** cacheKeys is the set of every cached request key (a run reads it once, then skips lookups that would miss). */
  async cacheKeys() {
    return new Set(await req2p(this.db.transaction("cache").objectStore("cache").getAllKeys()));
  }

  async cacheClear() {
    const tx = this.db.transaction("cache", "readwrite");
    tx.objectStore("cache").clear();
    await tx2p(tx);
  }
}

/** openStore opens IndexedDB, or falls back to memory (store.durable says which). */
export async function openStore() {
  if (globalThis.indexedDB) {
    try {
      return await IDBStore.open();
    } catch (e) {
      console.warn("batch: IndexedDB unavailable, results will not survive a reload", e);
    }
  }
  return new MemoryStore();
}
