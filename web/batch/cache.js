// cache.js: identical judge requests are answered locally instead of being paid twice. A request
// is identical when its endpoint, model, messages and parameters are; the key is the SHA-256 of a
// canonical JSON of exactly those (object keys sorted, so parameter order does not matter; message
// order and text do). The API key is never part of the key or of what is stored.

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

/** cacheKey resolves to the hex SHA-256 of the request's identity: endpoint, model, messages, params. */
export async function cacheKey({ endpoint, model, messages, params }) {
  const identity = canonicalJSON({
    endpoint: String(endpoint || "").replace(/\/+$/, ""),
    model: String(model || ""),
    messages: (messages || []).map((m) => ({ role: m.role, content: m.content })),
    params: params || {},
  });
  const bytes = new TextEncoder().encode(identity);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
