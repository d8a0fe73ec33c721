// store.js: where batch runs live so that nothing finished is lost: IndexedDB in the browser,
// memory where IndexedDB is missing (Node tests, or a browser that refuses storage, in which case
// the page says results will not survive a reload). Stores:
//   runs    {id, ...meta}                 one per run (never the API key)
//   items   {runId, items:[{inputs}|{error}]}  the mapped rows, so a reload can resume
//   results {runId, index, ...}            one per finished row, written as it finishes
//   cache   {key, content, usage, ...}     judge answers by request identity (cache.js)

const DB_NAME = "ragjudge-batch";
const DB_VERSION = 1;

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

/** IDBStore is the durable store. Results are written as they finish, grouped into one
 * transaction per burst (enqueue) so that hundreds of rows a second do not mean hundreds of transactions. */
export class IDBStore {
  constructor(db, { coalesceMs = COALESCE_MS } = {}) {
    this.db = db;
    this.durable = true;
    this.queues = new Map();
    this.coalesceMs = coalesceMs;
  }

  /** open opens (or creates) the database; opts: {coalesceMs, name} (tests use both). */
  static async open(idb = globalThis.indexedDB, { name = DB_NAME, ...opts } = {}) {
    const open = idb.open(name, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains("runs")) db.createObjectStore("runs", { keyPath: "id" });
      if (!db.objectStoreNames.contains("items")) db.createObjectStore("items", { keyPath: "runId" });
      if (!db.objectStoreNames.contains("results")) db.createObjectStore("results", { keyPath: ["runId", "index"] });
      if (!db.objectStoreNames.contains("cache")) db.createObjectStore("cache", { keyPath: "key" });
    };
    const db = await req2p(open);
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
    const tx = this.db.transaction(["runs", "items", "results"], "readwrite");
    tx.objectStore("runs").delete(id);
    tx.objectStore("items").delete(id);
    tx.objectStore("results").delete(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
    await tx2p(tx);
  }

  async putItems(runId, items) {
    const tx = this.db.transaction("items", "readwrite");
    tx.objectStore("items").put({ runId, items });
    await tx2p(tx);
  }

  async getItems(runId) {
    const rec = await req2p(this.db.transaction("items").objectStore("items").get(runId));
    return rec ? rec.items : null;
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

  getResults(runId) {
    const range = IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]);
    return req2p(this.db.transaction("results").objectStore("results").getAll(range));
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

/** MemoryStore has IDBStore's methods and keeps everything in memory (structured clones, as IndexedDB would). */
export class MemoryStore {
  constructor() {
    this.durable = false;
    this.runs = new Map();
    this.items = new Map();
    this.results = new Map();
    this.cache = new Map();
  }
  async putRun(run) {
    this.runs.set(run.id, structuredClone(run));
  }
  async getRun(id) {
    return this.runs.has(id) ? structuredClone(this.runs.get(id)) : undefined;
  }
  async listRuns() {
    return [...this.runs.values()].map((r) => structuredClone(r)).sort((a, b) => b.createdAt - a.createdAt);
  }
  async deleteRun(id) {
    this.runs.delete(id);
    this.items.delete(id);
    this.results.delete(id);
  }
  async putItems(runId, items) {
    this.items.set(runId, structuredClone(items));
  }
  async getItems(runId) {
    return this.items.has(runId) ? structuredClone(this.items.get(runId)) : null;
  }
  async putResult(result) {
    if (!this.results.has(result.runId)) this.results.set(result.runId, new Map());
    this.results.get(result.runId).set(result.index, structuredClone(result));
  }
  async flush() {}
  async getResults(runId) {
    const m = this.results.get(runId);
    return m ? [...m.values()].sort((a, b) => a.index - b.index).map((r) => structuredClone(r)) : [];
  }
  async cacheGet(key) {
    return this.cache.has(key) ? structuredClone(this.cache.get(key)) : null;
  }
  async cachePut(key, value) {
    this.cache.set(key, structuredClone({ ...value, key }));
  }
  async cacheCount() {
    return this.cache.size;
  }
  async cacheKeys() {
    return new Set(this.cache.keys());
  }
  async cacheClear() {
    this.cache.clear();
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
