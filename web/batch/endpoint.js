// endpoint.js: where a batch run's calls go, read from the page's settings: the endpoint and model
// (or why a run cannot start), the dev server's calls socket, and getting the connection ready
// before Run is pressed.

import { socketURL } from "./socket.js";
import { modelParams } from "../model/modelparams.js";

/**
 * callsSocket is the dev server's calls socket URL when the calls go through one that has it.
 * @param {import("../shell/state.js").State} state
 * @returns {string|undefined}
 */
export function callsSocket(state) {
  const cfg = state.config;
  if (state.endpoint().mode !== "proxy" || !cfg || typeof cfg.calls !== "string" || typeof WebSocket !== "function") return undefined;
  // Without a shared server's token its socket refuses to open (and a browser's WebSocket says not
  // why): the calls go over HTTP, whose 401 says what is missing.
  if (cfg.token === "required") return undefined;
  return socketURL(cfg.calls, location.href);
}

/** MAX_CONCURRENCY is the most calls at once a run may have (scheduler.js setConcurrency holds to it too). */
export const MAX_CONCURRENCY = 64;

/** positive is n when it is a whole number above 0, else Infinity (a limit the config does not state). */
function positive(n) {
  return Number.isInteger(n) && n > 0 ? n : Infinity;
}

/**
 * maxConcurrency is the most calls at once the page offers for where calls go now: through the
 * dev server, no more than it takes (/ragjudge/config: max_inflight, the calls in flight upstream
 * it allows from all its pages; and over its calls socket, socket_limit and socket_calls), so
 * that a run at the highest setting is never refused by its own server.
 * @param {import("../shell/state.js").State} state
 * @returns {number}
 */
export function maxConcurrency(state) {
  const cfg = state.config;
  if (state.endpoint().mode !== "proxy" || !cfg) return MAX_CONCURRENCY;
  let n = Math.min(MAX_CONCURRENCY, positive(cfg.max_inflight));
  if (callsSocket(state)) n = Math.min(n, positive(cfg.socket_limit), positive(cfg.socket_calls));
  return n;
}

/**
 * socketCalls is the most calls the dev server's calls socket takes, waiting and running
 * (/ragjudge/config's socket_calls), or undefined when it does not say.
 * @param {import("../shell/state.js").State} state
 * @returns {number | undefined}
 */
export function socketCalls(state) {
  const n = state.config && state.config.socket_calls;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * requestSettings: where calls go and with which model, or why a run cannot start.
 * @param {import("../shell/state.js").State} state
 * @returns {{error: string, request?: undefined, where?: undefined} | {error?: undefined, request: {endpoint: string, model: string, params: Object}, where: string}}
 */
export function requestSettings(state) {
  const ep = state.endpoint();
  if (ep.mode === "manual" || !ep.baseURL) return { error: "Batch runs need a model: open Model settings and choose the dev server or a direct base URL." };
  const st = state.get("settings");
  if (!st.model) return { error: "Set a model in Model settings first." };
  return {
    request: { endpoint: ep.baseURL, model: st.model, params: modelParams(st) },
    where: ep.label,
  };
}

/**
 * warmUp gets ready for a run while the user is still looking at the mapping: it has the call
 * worker open the dev server's calls socket, or for an endpoint on another origin opens the
 * connection to it, so that Run's first calls wait for neither.
 * @param {import("../shell/state.js").State} state
 * @param {Promise<any>} callsP the call worker (calls.js), or null where workers fail
 * @param {Set<string>} warmed origins already warmed
 */
export function warmUp(state, callsP, warmed) {
  const socket = callsSocket(state);
  if (socket) callsP.then((calls) => calls && calls.warm(socket));
  const ep = state.endpoint();
  if (!ep.baseURL) return;
  let url;
  try {
    url = new URL(ep.baseURL, location.href);
  } catch {
    return;
  }
  if (!/^https?:$/.test(url.protocol) || url.origin === location.origin || warmed.has(url.origin)) return;
  warmed.add(url.origin);
  // Judge calls are CORS requests without credentials, so the connection to warm is an anonymous one.
  const link = document.createElement("link");
  link.rel = "preconnect";
  link.crossOrigin = "anonymous";
  link.href = url.origin;
  document.head.append(link);
}
