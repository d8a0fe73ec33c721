// cache.js: identical judge requests are answered locally instead of being paid twice. A request
// is identical when its endpoint, model, messages and parameters are; the key is the SHA-256 of a
// canonical JSON of exactly those (object keys sorted, so parameter order does not matter; message
// order and text do). The API key is never part of the key or of what is stored. A row judged
// several times (a run's repeats) asks the same request once per repeat: the repeat index is part
// of the key from the second repeat on, so each repeat is a call of its own and a rerun of the
// run is still answered from the cache (the first repeat shares its key with a run of one).

/** canonicalJSON is JSON with object keys sorted at every level; undefined members are dropped. */
export function canonicalJSON(v) {
  if (v === null || typeof v !== "object") {
    if (typeof v === "number" && !Number.isFinite(v)) throw new Error("canonicalJSON: non-finite number");
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return "[" + v.map((x) => (x === undefined ? "null" : canonicalJSON(x))).join(",") + "]";
  const keys = Object.keys(v)
    .filter((k) => v[k] !== undefined)
    .sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJSON(v[k])).join(",") + "}";
}

/**
 * cacheKey resolves to the hex SHA-256 of the request's identity: endpoint (and the dev server's
 * upstream when one is named), model, messages, params, and the repeat index when it is above 0.
 * @param {{endpoint: string, upstream?: string, model: string, messages: {role: string, content: string}[], params?: object, repeat?: number}} req
 * @returns {Promise<string>}
 */
export async function cacheKey({ endpoint, upstream, model, messages, params, repeat = 0 }) {
  const identity = canonicalJSON({
    endpoint: String(endpoint || "").replace(/\/+$/, ""),
    // A jury's judge on a dev server's named upstream is another endpoint; the default (none) keeps the keys it always had.
    upstream: upstream || undefined,
    model: String(model || ""),
    messages: (messages || []).map((m) => ({ role: m.role, content: m.content })),
    params: params || {},
    repeat: repeat > 0 ? repeat : undefined,
  });
  const bytes = new TextEncoder().encode(identity);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * RunCache is one run's use of the request cache: the keys known to exist (read once at the
 * start, so that a miss costs no IndexedDB read), the identical calls in flight (a second row
 * asking the same waits for the first's answer), and the writes of fresh answers.
 */
export class RunCache {
  /**
   * @param {{cacheGet(key: string): Promise<any>, cachePut(key: string, v: any): Promise<void>, cacheKeys?(): Promise<Set<string>>} | null} store
   * @param {{use: boolean, read: boolean}} o  use: look up and store at all; read: answer from it (false re-asks but refreshes)
   */
  constructor(store, { use, read }) {
    this.store = use ? store : null;
    this.read = read;
    /** @type {Set<string> | null} */
    this.known = null; // cache keys known to exist
    /** @type {Promise<any> | null} */
    this.knownP = null; // the read of those keys
    this.written = new Set(); // keys this run stored before that read was back
    this.inflight = new Map(); // key -> the promise of its call
  }

  /** start reads the known keys while the first rows render; lookup waits for it only when it has a key. */
  start() {
    if (!this.store || !this.read || typeof this.store.cacheKeys !== "function") return;
    this.knownP = this.store.cacheKeys().then(
      (keys) => {
        for (const k of this.written) keys.add(k);
        this.known = keys;
      },
      () => (this.known = null), // fall back to asking the store for every key
    );
  }

  /**
   * key is the request's cache key, or null when the run does not use the cache.
   * @param {{endpoint: string, upstream?: string, model: string, messages: {role: string, content: string}[], params?: object, repeat?: number}} req
   */
  async key(req) {
    return this.store ? cacheKey(req) : null;
  }

  /**
   * lookup resolves to a stored answer {content, usage, finishReason}, the answer of an identical
   * call in flight, or null (a miss, or a run that does not read the cache).
   * @param {string | null} key
   */
  async lookup(key) {
    if (!key || !this.read) return null;
    if (this.knownP) await this.knownP;
    const store = /** @type {NonNullable<typeof this.store>} */ (this.store);
    const hit = !this.known || this.known.has(key) ? await store.cacheGet(key) : null;
    if (hit && typeof hit.content === "string") return { content: hit.content, usage: hit.usage || null, finishReason: hit.finishReason || null };
    if (this.inflight.has(key)) return await this.inflight.get(key);
    return null;
  }

  /**
   * put stores a fresh answer in the background and resolves when it is written (never rejects).
   * @param {string} key
   * @param {object} value
   */
  put(key, value) {
    const store = /** @type {NonNullable<typeof this.store>} */ (this.store);
    return store.cachePut(key, value).then(
      () => (this.known ? this.known.add(key) : this.written.add(key)),
      (e) => console.warn("batch: cache write failed", e),
    );
  }
}
