// evaluatorstore.js: where the user's evaluators live in this browser: IndexedDB, a database of their own
// (the batch runs' database has its own life and version), memory where IndexedDB is missing or
// refused (the page then says they will not survive a reload). One record per evaluator:
//   {id, spec, sample: {inputs}, answer, updatedAt}
// sample and answer are the editor's preview inputs and pasted judge answer, kept so that an
// evaluator reopens as it was left (and Evaluate offers them as its example).

const DB_NAME = "ragjudge-evaluators";
const DB_VERSION = 1;
const STORE = "evaluators";

/** @typedef {{id: string, spec: any, sample?: {inputs: any}, answer?: string, ok?: boolean, createdAt?: number, updatedAt: number}} EvaluatorRecord */

function req2p(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function tx2p(tx) {
  return /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error("IndexedDB transaction aborted"));
    })
  );
}

/** CustomStore keeps evaluator records in IndexedDB. */
export class CustomStore {
  /** @param {IDBDatabase} db */
  constructor(db) {
    this.db = db;
    this.durable = true;
  }

  /** @returns {Promise<EvaluatorRecord[]>} every record, oldest first */
  async list() {
    const all = await req2p(this.db.transaction(STORE).objectStore(STORE).getAll());
    return all.sort((/** @type {EvaluatorRecord} */ a, /** @type {EvaluatorRecord} */ b) => a.updatedAt - b.updatedAt || a.id.localeCompare(b.id));
  }

  /** @param {EvaluatorRecord} rec */
  async put(rec) {
    const tx = this.db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put(rec);
    await tx2p(tx);
  }

  /**
   * rename stores rec under its (new) id and removes the record of oldId, in one transaction.
   * @param {string} oldId @param {EvaluatorRecord} rec
   */
  async rename(oldId, rec) {
    const tx = this.db.transaction(STORE, "readwrite");
    const os = tx.objectStore(STORE);
    os.delete(oldId);
    os.put(rec);
    await tx2p(tx);
  }

  /** @param {string} id */
  async delete(id) {
    const tx = this.db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).delete(id);
    await tx2p(tx);
  }
}

/** MemoryStore is CustomStore's interface over a Map: for Node tests and browsers without IndexedDB. */
export class MemoryStore {
  constructor() {
    /** @type {Map<string, EvaluatorRecord>} */
    this.map = new Map();
    this.durable = false;
  }
  async list() {
    return [...this.map.values()].map((r) => structuredClone(r)).sort((a, b) => a.updatedAt - b.updatedAt || a.id.localeCompare(b.id));
  }
  /** @param {EvaluatorRecord} rec */
  async put(rec) {
    this.map.set(rec.id, structuredClone(rec));
  }
  /** @param {string} oldId @param {EvaluatorRecord} rec */
  async rename(oldId, rec) {
    this.map.delete(oldId);
    this.map.set(rec.id, structuredClone(rec));
  }
  /** @param {string} id */
  async delete(id) {
    this.map.delete(id);
  }
}

// OPEN_WAIT_MS: the Evaluate view is drawn without the user's evaluators, but the other views
// and the engine's start wait for them; a database that does not open by then (blocked by another
// tab's connection) is not waited for.
const OPEN_WAIT_MS = 1500;

/**
 * openCustomStore opens the evaluators' database, or a memory store when IndexedDB is missing,
 * refuses (private windows of some browsers) or does not open within OPEN_WAIT_MS, so the page
 * works and says it will forget.
 * @param {IDBFactory|undefined} [idb] @param {{name?: string, waitMs?: number}} [opts]
 * @returns {Promise<CustomStore|MemoryStore>}
 */
export async function openCustomStore(idb = globalThis.indexedDB, { name = DB_NAME, waitMs = OPEN_WAIT_MS } = {}) {
  if (!idb) return new MemoryStore();
  try {
    const open = idb.open(name, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "id" });
    };
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
    const db = await Promise.race([req2p(open), late]);
    clearTimeout(timer);
    return db ? new CustomStore(/** @type {IDBDatabase} */ (db)) : new MemoryStore();
  } catch {
    return new MemoryStore();
  }
}
