import { connectionLimit, observedProtocol } from "../model/connections.js";
// pace.js: how many calls a run may have in flight, and why fewer than chosen: the browser's
// limit on connections to a direct endpoint over HTTP/1.1, and the Runner's own backing off.


/**
 * browserLimit: for a direct endpoint the browser calls over HTTP/1.1, where it keeps at most
 * 6 connections to a host, {origin, limit, protocol, seen} (seen: "timing" when resource timing
 * told the protocol, "scheme" for an http: URL, which is HTTP/1.1 in every browser); else null.
 * @param {{mode: string, baseURL?: string}} ep the endpoint (state.endpoint())
 * @param {{protocols: Map<string, string>} | null} callsClient the call worker's client, which saw the protocols its calls used
 * @returns {{origin: string, limit: number, protocol: string, seen: string} | null}
 */
export function browserLimit(ep, callsClient) {
  if (ep.mode !== "direct" || !ep.baseURL) return null;
  let origin;
  try {
    origin = new URL(ep.baseURL, location.href).origin;
  } catch {
    return null;
  }
  const protocol = (callsClient && callsClient.protocols.get(origin)) || observedProtocol(ep.baseURL);
  const l = connectionLimit(ep.baseURL, protocol);
  return l.limit ? { origin, ...l } : null;
}

/**
 * runPace is how many calls a Runner has in flight at most now, of how many chosen, and why
 * fewer (summary.js RunPace): the Runner backing off after 429s, or the browser's limit b.
 * @param {{pace: () => {limit: number, chosen: number}}} runner
 * @param {number | undefined} chosen the concurrency chosen for it
 * @param {{origin: string, limit: number} | null} b browserLimit's answer
 * @returns {import("../results/summarywords.js").RunPace}
 */
export function runPace(runner, chosen, b) {
  const p = runner.pace();
  chosen = chosen || p.chosen;
  if (p.limit < p.chosen) return { limit: p.limit, chosen, why: "429" };
  if (b && b.limit < chosen) return { limit: b.limit, chosen, why: "http1", origin: b.origin };
  return { limit: p.limit, chosen, why: null };
}
