import { cut } from "../lib/format.js";
// callerror.js: what a failed model call is and says (llm.js re-exports all of it): the kinds of
// failure, the CallError that carries one, and the one sentence per failure that says what
// happened and what to do, worded for one call ("run again") or for a batch ("retry failed rows").

/**
 * CallKind names every way a call can fail; CallError.kind is one of them, and so is a batch
 * row's stored error.kind when the call failed (the engine adds its own kinds for rows that never
 * made a call). The page decides from kind and status, never from the message.
 */
export const CallKind = Object.freeze({
  /** The endpoint answered with an error status; status says which. */
  HTTP: "http",
  /** No answer within the per-attempt timeout (streaming: no byte for that long). */
  TIMEOUT: "timeout",
  /** The dev server or the endpoint could not be reached, or the connection broke mid-answer. */
  NETWORK: "network",
  /** A direct call from the page was refused by the browser (CORS) or the network: indistinguishable. */
  CORS: "cors",
  /** A 200 that is not a chat completion: not JSON, or no choices[0].message.content. */
  BAD_RESPONSE: "bad-response",
  /** The endpoint reported an error inside its answer (an error event mid-stream, or a 200 with error). */
  UPSTREAM: "upstream",
  /** Cancelled by the caller: Stop, Cancel, or a batch run pausing itself for an outage. */
  ABORTED: "aborted",
  /** The page's call worker failed (batch/calls.js): the call was not made, or its answer lost. */
  WORKER: "worker",
  /** Not made: the endpoint needs a key and the page has none (keyguard.js); the run waits for one. */
  NO_KEY: "no-key",
});

/**
 * ServerCode names the errors the dev server (serve/) answers itself, by the OpenAI-shaped
 * error's code: the page tells them from the upstream's by these, never by their words.
 */
export const ServerCode = Object.freeze({
  /** 429: the dev server's own cap on calls in flight (-max-inflight, or a calls socket's), not the provider's rate limit. */
  BUSY: "too_many_calls_in_flight",
  /** 401: a shared dev server needs its access token and the request had none. */
  TOKEN_REQUIRED: "token_required",
  /** 401: the request's access token is not the dev server's. */
  INVALID_TOKEN: "invalid_token",
  /** 400: the request names an upstream (Ragjudge-Upstream) the dev server does not have. */
  UNKNOWN_UPSTREAM: "unknown_upstream",
  /** 502: the dev server could not connect to its upstream (nothing listens there, no route, DNS). */
  UPSTREAM_UNREACHABLE: "upstream_unreachable",
});

/**
 * KeySource says which key a call went upstream with, as the dev server's Ragjudge-Key header
 * says it (or the page knows it, calling an endpoint directly); "" when nobody said.
 */
export const KeySource = Object.freeze({ PAGE: "page", SERVER: "server", NONE: "none" });

/** UNREACHABLE_STATUSES: a gateway that could not reach, or did not hear back from, what is behind it. */
export const UNREACHABLE_STATUSES = Object.freeze([502, 503, 504]);

/**
 * unreachable tells whether an error says the endpoint could not be reached (network, timeout,
 * 502/503/504), as opposed to an endpoint that answered, if only to refuse.
 * @param {{kind?: string, status?: number} | null | undefined} e
 * @returns {boolean}
 */
export function unreachable(e) {
  if (!e) return false;
  if (e.kind === CallKind.NETWORK || e.kind === CallKind.TIMEOUT || e.kind === CallKind.CORS) return true;
  return e.kind === CallKind.HTTP && UNREACHABLE_STATUSES.includes(e.status ?? 0);
}

/**
 * outageMessage says why a run waits in an outage, from the failure that began it (a CallError or
 * its toJSON): through the dev server, a call that never got an answer says the dev server itself
 * is gone, and its 502 upstream_unreachable that the server could not connect to its upstream;
 * otherwise the endpoint is unreachable. Either way the run goes on by itself.
 * @param {{kind?: string, status?: number, code?: string} | null | undefined} e
 * @param {{proxy: boolean}} o whether the calls go through the dev server
 * @returns {string}
 */
export function outageMessage(e, { proxy }) {
  if (proxy && e && (e.kind === CallKind.NETWORK || e.kind === CallKind.CORS))
    return "The dev server is not reachable (is make run still running?): the run waits, and goes on by itself when it answers again.";
  if (e && e.kind === CallKind.HTTP && e.status === 502 && e.code === ServerCode.UPSTREAM_UNREACHABLE)
    return "The dev server cannot reach its model server (its -upstream): the run waits, and goes on by itself when it answers again.";
  return "The endpoint is unreachable; resuming when it answers.";
}

/** CallError is a model call that did not produce an answer; see CallKind for kind. */
export class CallError extends Error {
  /**
   * @param {string} message  what happened and what to do, one sentence, without the server's words
   * @param {{kind: string, status?: number, retryable?: boolean, retryAfterMs?: number | null, attempts?: number, detail?: string, code?: string, key?: string}} fields
   */
  constructor(message, { kind, status = 0, retryable = false, retryAfterMs = null, attempts = 1, detail = "", code = "", key = "" }) {
    super(message);
    this.name = "CallError";
    this.kind = kind;
    this.status = status; // the HTTP status for kind "http", else 0
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
    this.attempts = attempts;
    this.detail = detail; // the server's own words, shown beneath ours
    this.code = code; // the error body's code ("invalid_api_key", a ServerCode…), "" when it has none
    this.key = key; // a KeySource: which key the call went with, "" when not known
    this.what = ""; // the message's two parts, for "what after n attempts: advice." (see failure)
    this.advice = "";
    this.outage = false; // set by the batch engine: this failure paused the run for an outage
  }
  /** toJSON is a batch row's stored error: its message carries the server's words too, so it reads whole. */
  toJSON() {
    const message = this.detail ? `${this.message} The server said: ${this.detail}` : this.message;
    /** @type {{kind: string, status: number, message: string, attempts: number, detail: string, code?: string, key?: string}} */
    const j = { kind: this.kind, status: this.status, message, attempts: this.attempts, detail: this.detail };
    if (this.code) j.code = this.code;
    if (this.key) j.key = this.key;
    return j;
  }
}

/** abortedError is the failure of a call its caller stopped. */
export function abortedError() {
  return new CallError("The call was stopped.", { kind: CallKind.ABORTED });
}

/**
 * failure makes a CallError whose message is "what: advice."; chat says "what after n attempts:
 * advice." when retries did not help, from the same two parts.
 * @param {string} kind
 * @param {string} what
 * @param {string} advice
 * @param {{retryable?: boolean, detail?: string}} [fields]
 */
export function failure(kind, what, advice, fields = {}) {
  const e = new CallError(`${what}: ${advice}${/[.?!]$/.test(advice) ? "" : "."}`, { kind, ...fields });
  Object.assign(e, { what, advice });
  return e;
}

/**
 * secs says a duration in seconds as people write it: "7 s", "0.5 s", "120 s".
 * @param {number} ms
 */
export function secs(ms) {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${Number(s.toFixed(1))} s`;
}

/**
 * serverBusy tells whether an error is the dev server's own 429 (its cap on calls in flight),
 * which says nothing of the provider's rate limit.
 * @param {{kind?: string, status?: number, code?: string} | null | undefined} e
 */
export function serverBusy(e) {
  return !!e && e.kind === CallKind.HTTP && e.status === 429 && e.code === ServerCode.BUSY;
}

/**
 * httpErrorMessage says what a final HTTP failure means and what to do, in one sentence. code
 * is the error body's code (the dev server's own errors have theirs, ServerCode) and key which
 * key the call went with (KeySource): a 401 says whether no key was sent or which was refused.
 * @param {number} status
 * @param {{model?: string, attempts?: number, retryAfterMs?: number | null, direct?: boolean, batch?: boolean, code?: string, key?: string}} [o]
 * @returns {string}
 */
export function httpErrorMessage(status, { model = "", attempts = 1, retryAfterMs = null, direct = false, batch = false, code = "", key = "" } = {}) {
  const who = direct ? "The endpoint" : "The model server";
  const tried = attempts > 1 ? ` after ${attempts} attempts` : "";
  const later = batch ? "retry failed rows later" : "try again in a moment";
  if (status === 401 && code === ServerCode.TOKEN_REQUIRED)
    return "This dev server is shared and needs its access token (401): open the address it printed at its start (…/?token=…).";
  if (status === 401 && code === ServerCode.INVALID_TOKEN)
    return "The dev server refused this page's access token (401; it makes a new one when it restarts): open the address it printed at its start (…/?token=…).";
  if (status === 400 && code === ServerCode.UNKNOWN_UPSTREAM) return "The dev server has no upstream of the name the call gave (400): see its message for the ones it has.";
  if (status === 401 && key === KeySource.NONE) return "No key was sent (401 Unauthorized): the endpoint needs one; enter your API key in Model settings.";
  if (status === 401 && key === KeySource.SERVER)
    return "The dev server's key (its OPENAI_API_KEY) was refused (401 Unauthorized): enter your own key in Model settings, or fix the server's.";
  if (status === 401) return "The key was refused (401 Unauthorized): check the API key in Model settings.";
  if (status === 429 && code === ServerCode.BUSY)
    return `The dev server is at its own limit of calls in flight (429, not the provider's rate limit)${tried}: other pages or runs share it; lower the concurrency, or start it with a higher -max-inflight.`;
  if (status === 403) return "The key is not allowed to do this (403 Forbidden): check the key's permissions or the model.";
  if (status === 404)
    return model
      ? `${who} does not know the model “${model}” (404 Not Found): pick another model in Model settings.`
      : `${who} answered 404 Not Found: check the endpoint URL and the model in Model settings.`;
  if (status === 413) return "The prompt is too large for the server (413): shorten the inputs.";
  if (status === 429) {
    const wait = retryAfterMs !== null ? `wait ${secs(retryAfterMs)}` : "wait a moment";
    return `Rate limited by ${who.toLowerCase()} (429 Too Many Requests)${tried}: ${batch ? `lower the concurrency or ${wait}, then retry failed rows` : `${wait} and run again`}.`;
  }
  if (status === 502 && code === ServerCode.UPSTREAM_UNREACHABLE)
    return `The dev server could not reach its model server (502)${tried}: start it (Ollama, vLLM…) at the address the dev server was given (its -upstream), or start the dev server with another.`;
  if (status === 504 || status === 408) return `The model did not answer in time (${status} timeout)${tried}: ${batch ? later : "try again"}, or lower max tokens.`;
  if (status >= 500) return `${who} failed (${status})${tried}: ${later}; if it persists, check the server.`;
  return `The call failed with HTTP ${status}: see the server's message, and check the model settings.`;
}

/**
 * retryableStatus: the statuses worth repeating. 501 and 505 say the server never will.
 * @param {number} status
 */
export function retryableStatus(status) {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/**
 * httpError is the CallError of a call answered with HTTP status (text: the response body), as a
 * live call and a batch output line with that status_code both report it. key is which key the
 * call went with (KeySource), when known.
 * @param {number} status
 * @param {string} text
 * @param {{model?: string, direct?: boolean, retryAfterMs?: number | null, key?: string}} [o]
 * @returns {CallError}
 */
export function httpError(status, text, { model = "", direct = false, retryAfterMs = null, key = "" } = {}) {
  const code = errorCode(text);
  return new CallError(httpErrorMessage(status, { model, direct, retryAfterMs, code, key }), {
    kind: CallKind.HTTP,
    status,
    retryable: retryableStatus(status),
    retryAfterMs,
    detail: upstreamMessage(text),
    code,
    key,
  });
}

/**
 * keySource is which key a call went upstream with: the dev server says it (Ragjudge-Key); a
 * direct call went with the page's key when it sent one, else with none.
 * @param {{get(name: string): string | null}} headers the response's
 * @param {Record<string, string>} sent the request's headers
 * @param {boolean} direct
 */
export function keySource(headers, sent, direct) {
  const said = (headers && typeof headers.get === "function" && headers.get("ragjudge-key")) || "";
  if ((/** @type {string[]} */ (Object.values(KeySource))).includes(said)) return said;
  if (direct) return sent.Authorization ? KeySource.PAGE : KeySource.NONE;
  return ""; // a dev server that does not say: its OPENAI_API_KEY may have gone
}

/**
 * errorCode is the code of an OpenAI-shaped error body ({"error": {"code": "…"}}), or "".
 * @param {string} text
 * @returns {string}
 */
export function errorCode(text) {
  if (!text) return "";
  try {
    const j = JSON.parse(text);
    const code = j && j.error && typeof j.error === "object" ? j.error.code : null;
    return typeof code === "string" ? code : "";
  } catch {
    return "";
  }
}

/** upstreamMessage pulls a short human message out of an error body (OpenAI style or plain text). */
export function upstreamMessage(/** @type {string} */ text) {
  if (!text) return "";
  let msg = text;
  try {
    const j = JSON.parse(text);
    msg = (j && j.error && (j.error.message || j.error.code || j.error)) || (j && j.message) || text;
    if (typeof msg !== "string") msg = JSON.stringify(msg);
  } catch {
    /* plain text body */
  }
  msg = msg.replace(/\s+/g, " ").trim();
  return cut(msg, 300);
}
