// memorystore.js: a batch run's store kept in memory, where IndexedDB is missing (Node tests, or a
// browser that refuses storage): the methods of runstore.js's IDBStore, on structured clones.

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
  /**
   * @param {string} runId
   * @param {any[]} items
   * @param {{onProgress?: (p: {done: number, total: number}) => void}} [opts]
   */
  async putItems(runId, items, { onProgress } = {}) {
    this.items.set(runId, structuredClone(items));
    if (onProgress) onProgress({ done: items.length, total: items.length });
  }
  /**
   * @param {string} runId
   * @param {{onProgress?: (p: {done: number, total: number}) => void}} [opts]
   */
  async getItems(runId, { onProgress } = {}) {
    if (!this.items.has(runId)) return null;
    const items = structuredClone(this.items.get(runId));
    if (onProgress) onProgress({ done: items.length, total: items.length });
    return items;
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
