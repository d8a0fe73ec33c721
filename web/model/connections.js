// connections.js: how many calls a browser runs at once to an endpoint, from the protocol it was
// seen to speak (resource timing) or its URL's scheme: a batch run's concurrency is kept within it.

/** HTTP1_CONNECTIONS is how many connections a browser keeps to one host over HTTP/1.1: calls beyond wait for one. */
export const HTTP1_CONNECTIONS = 6;

/**
 * observedProtocol is the protocol ("http/1.1", "h2", "h3") of the latest request the browser
 * made from this context (the page, or the worker that calls it) to url's origin, from resource
 * timing; "" when it cannot tell: no such request yet, or a cross-origin endpoint that does not
 * send Timing-Allow-Origin (its entries then hide the protocol).
 * @param {string} url
 * @param {{getEntriesByType(type: string): any[]} | undefined} [perf]
 * @returns {string}
 */
export function observedProtocol(url, perf = globalThis.performance) {
  if (!perf || typeof perf.getEntriesByType !== "function") return "";
  let origin;
  try {
    origin = new URL(url, globalThis.location ? globalThis.location.href : undefined).origin;
  } catch {
    return "";
  }
  const entries = perf.getEntriesByType("resource");
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (typeof e.name === "string" && e.name.startsWith(origin + "/") && e.nextHopProtocol) return String(e.nextHopProtocol);
  }
  return "";
}

/**
 * connectionLimit is how many calls a browser runs at once to the endpoint at url: 6 over
 * HTTP/1.1, which is every http: URL (browsers speak HTTP/2 only over TLS) and any endpoint whose
 * observed protocol says so; 0 when no such limit is known.
 * @param {string} url
 * @param {string} [protocol]  observedProtocol's answer ("" unknown)
 * @returns {{limit: number, protocol: string, seen: "timing" | "scheme" | ""}}
 */
export function connectionLimit(url, protocol = "") {
  if (protocol) return { limit: /^http\/1/i.test(protocol) ? HTTP1_CONNECTIONS : 0, protocol, seen: "timing" };
  try {
    if (new URL(url, globalThis.location ? globalThis.location.href : undefined).protocol === "http:") return { limit: HTTP1_CONNECTIONS, protocol: "http/1.1", seen: "scheme" };
  } catch {
    /* not a URL: no limit known */
  }
  return { limit: 0, protocol: "", seen: "" };
}
