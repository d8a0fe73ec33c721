// http.js: the page's one retry policy for judge calls (the dev proxy does not retry, so retries
// are never stacked). A call is retried on 429, 5xx, a network error, a timed-out attempt or an
// unreadable 200 body, with exponential backoff and jitter, honouring Retry-After, for at most
// maxAttempts attempts; anything else (401, 404, 400 …) fails at once, because repeating it cannot
// help. Time and randomness are injected so that tests can drive the policy with a fake clock.

/** realClock is the browser's (and Node's) clock; tests pass a fake with the same three methods. */
export const realClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
};

/** DEFAULT_POLICY: five attempts, 0.5 s doubling to at most 20 s, 60 s per attempt. */
export const DEFAULT_POLICY = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  timeoutMs: 60_000,
  // A Retry-After longer than this is not waited for: the row fails with the wait in its message.
  maxRetryAfterMs: 120_000,
});

/**
 * CallError is a judge call that did not produce an answer. kind is one of "http", "timeout",
 * "network", "aborted", "bad-response"; status is the HTTP status for "http".
 */
export class CallError extends Error {
  constructor(message, { kind, status = 0, retryable = false, retryAfterMs = null, attempts = 1, detail = "" } = {}) {
    super(message);
    this.name = "CallError";
    this.kind = kind;
    this.status = status;
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
    this.attempts = attempts;
    this.detail = detail;
  }
  toJSON() {
    return { kind: this.kind, status: this.status, message: this.message, attempts: this.attempts, detail: this.detail };
  }
}

/**
 * parseRetryAfter reads a Retry-After value (delta-seconds, possibly fractional, or an HTTP date)
 * or OpenAI's retry-after-ms, and returns milliseconds to wait, or null when absent or unreadable.
 */
export function parseRetryAfter(headers, nowMs = Date.now()) {
  if (!headers || typeof headers.get !== "function") return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) {
    return Math.ceil(Number(ms));
  }
  const v = headers.get("retry-after");
  if (v === null || v === undefined) return null;
  const s = v.trim();
  if (s === "") return null;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.ceil(Number(s) * 1000);
  if (!/^[A-Za-z]{3},/.test(s)) return null; // an HTTP date starts with the day's name; Date.parse("-3") is a year
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  return Math.max(0, t - nowMs);
}

/**
 * backoffDelay is the wait before retry number `retry` (1 for the first retry): exponential,
 * capped, with "equal jitter" (half fixed, half random) so that concurrent rows spread out yet
 * never retry immediately. A Retry-After from the server wins when it asks for longer.
 */
export function backoffDelay(retry, policy = DEFAULT_POLICY, random = Math.random, retryAfterMs = null) {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  if (retryAfterMs !== null && retryAfterMs !== undefined) {
    // Honour the server's wait, plus up to 10% so that rows told the same wait do not all return together.
    return Math.max(retryAfterMs + random() * retryAfterMs * 0.1, 0);
  }
  return Math.round(jittered);
}

/** retryableStatus: the statuses worth repeating. 501 and 505 say the server never will. */
export function retryableStatus(status) {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/** sleep waits ms on clock, rejecting with an "aborted" CallError if signal aborts first. */
export function sleep(ms, clock = realClock, signal = null) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(abortedError());
    if (ms <= 0) return resolve();
    const onAbort = () => {
      clock.clearTimeout(id);
      reject(abortedError());
    };
    const id = clock.setTimeout(() => {
      if (signal) signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
  });
}

function abortedError() {
  return new CallError("The call was cancelled.", { kind: "aborted" });
}

function secs(ms) {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${Number(s.toFixed(1))} s`;
}

/** upstreamMessage pulls a short human message out of an error body (OpenAI style or plain text). */
function upstreamMessage(text) {
  if (!text) return "";
  let msg = text;
  try {
    const j = JSON.parse(text);
    msg = (j && j.error && (j.error.message || j.error)) || j.message || text;
    if (typeof msg !== "string") msg = JSON.stringify(msg);
  } catch {
    /* plain text body */
  }
  msg = msg.replace(/\s+/g, " ").trim();
  return msg.length > 200 ? msg.slice(0, 199) + "…" : msg;
}

/** httpErrorMessage says what a final HTTP failure means and what to do, in one sentence. */
export function httpErrorMessage(status, attempts, detail = "") {
  const tried = attempts > 1 ? ` after ${attempts} attempts` : "";
  const why = detail ? ` (${detail})` : "";
  if (status === 401 || status === 403) return `The endpoint refused the key (HTTP ${status})${why}: check the API key in the model settings.`;
  if (status === 404) return `The endpoint does not know this model or path (HTTP 404)${why}: check the model name and the endpoint.`;
  if (status === 413) return `The prompt is too large for the endpoint (HTTP 413)${why}: shorten this row's inputs.`;
  if (status === 429) return `Rate limited (HTTP 429)${tried}${why}: lower the concurrency or wait, then retry failed rows.`;
  if (status === 504) return `The endpoint timed out (HTTP 504)${tried}${why}: retry failed rows later or raise the upstream timeout.`;
  if (status >= 500) return `The endpoint failed (HTTP ${status})${tried}${why}: retry failed rows later.`;
  return `The endpoint rejected the request (HTTP ${status})${why}: check the model settings.`;
}

/** chatURL joins an endpoint base ("/v1", "https://host/v1/") and the chat completions path. */
export function chatURL(endpoint) {
  const base = String(endpoint || "/v1").replace(/\/+$/, "");
  return base.endsWith("/chat/completions") ? base : base + "/chat/completions";
}

/**
 * attempt makes one HTTP call with its own timeout and returns {content, usage, finishReason}, or
 * throws a CallError saying whether it is worth retrying. A transport that may hold a call before
 * sending it on (the dev server's calls socket queues a few) calls init.onStarted when the call
 * really starts: the timeout counts from then. fetch itself ignores the member.
 */
async function attempt(fetchFn, url, init, { timeoutMs, clock, signal }) {
  const ctrl = new AbortController();
  let timedOut = false;
  const onTimeout = () => {
    timedOut = true;
    ctrl.abort();
  };
  let timer = clock.setTimeout(onTimeout, timeoutMs);
  const onStarted = () => {
    if (timedOut || ctrl.signal.aborted) return;
    clock.clearTimeout(timer);
    timer = clock.setTimeout(onTimeout, timeoutMs);
  };
  const onAbort = () => ctrl.abort();
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  try {
    let res;
    let text;
    try {
      res = await fetchFn(url, { ...init, signal: ctrl.signal, onStarted });
      text = await res.text();
    } catch (e) {
      if (signal && signal.aborted) throw abortedError();
      if (timedOut) {
        throw new CallError(`No answer within ${secs(timeoutMs)}.`, { kind: "timeout", retryable: true });
      }
      throw new CallError(`Could not reach the endpoint (${(e && e.message) || "network error"}).`, {
        kind: "network",
        retryable: true,
        detail: String((e && e.message) || e),
      });
    }
    if (!res.ok) {
      const detail = upstreamMessage(text);
      throw new CallError(httpErrorMessage(res.status, 1, detail), {
        kind: "http",
        status: res.status,
        retryable: retryableStatus(res.status),
        retryAfterMs: parseRetryAfter(res.headers, clock.now()),
        detail,
      });
    }
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CallError("The endpoint answered with something that is not JSON.", {
        kind: "bad-response",
        retryable: true,
        detail: text.slice(0, 200),
      });
    }
    const choice = body && Array.isArray(body.choices) ? body.choices[0] : null;
    const content = choice && choice.message ? choice.message.content : undefined;
    if (typeof content !== "string") {
      throw new CallError("The endpoint answered without a message (no choices[0].message.content).", {
        kind: "bad-response",
        retryable: false,
        detail: text.slice(0, 200),
      });
    }
    const u = body.usage || {};
    return {
      content,
      finishReason: (choice && choice.finish_reason) || null,
      usage: {
        prompt_tokens: Number.isFinite(u.prompt_tokens) ? u.prompt_tokens : 0,
        completion_tokens: Number.isFinite(u.completion_tokens) ? u.completion_tokens : 0,
      },
    };
  } finally {
    clock.clearTimeout(timer);
    if (signal) signal.removeEventListener("abort", onAbort);
  }
}

/**
 * chat sends one chat completion request under the retry policy and resolves to
 * {content, usage, finishReason, attempts, waitedMs}. It rejects with a CallError whose message
 * is ready for the user. opts: fetch, apiKey, policy, clock, random, signal (user cancel), gate
 * (shared {until} time: a 429's Retry-After holds every concurrent call, not just this one), and
 * onRetry(info) for progress displays.
 */
export async function chat(request, opts = {}) {
  const fetchFn = opts.fetch || globalThis.fetch.bind(globalThis);
  const policy = { ...DEFAULT_POLICY, ...(opts.policy || {}) };
  const clock = opts.clock || realClock;
  const random = opts.random || Math.random;
  const signal = opts.signal || null;
  const gate = opts.gate || null;
  const headers = { "Content-Type": "application/json" };
  if (opts.apiKey) headers.Authorization = "Bearer " + opts.apiKey;
  const init = { method: "POST", headers, body: JSON.stringify({ ...request.params, model: request.model, messages: request.messages, stream: false }) };
  const url = chatURL(request.endpoint);
  let waitedMs = 0;
  for (let n = 1; ; n++) {
    if (gate && gate.until > clock.now()) {
      const w = gate.until - clock.now();
      waitedMs += w;
      await sleep(w, clock, signal);
    }
    if (signal && signal.aborted) throw abortedError();
    try {
      const r = await attempt(fetchFn, url, init, { timeoutMs: policy.timeoutMs, clock, signal });
      return { ...r, attempts: n, waitedMs };
    } catch (e) {
      if (!(e instanceof CallError)) throw e;
      e.attempts = n;
      if (e.kind === "aborted" || !e.retryable) throw e;
      if (e.retryAfterMs !== null && e.retryAfterMs > policy.maxRetryAfterMs) {
        e.message = `The endpoint asked to wait ${secs(e.retryAfterMs)} (Retry-After), longer than the ${secs(policy.maxRetryAfterMs)} this run waits: retry failed rows later.`;
        throw e;
      }
      if (n >= policy.maxAttempts) {
        if (e.kind === "http") e.message = httpErrorMessage(e.status, n, e.detail);
        else e.message = e.message.replace(/\.$/, "") + ` (after ${n} attempts): retry failed rows later.`;
        throw e;
      }
      const delay = backoffDelay(n, policy, random, e.retryAfterMs);
      if (gate && e.retryAfterMs !== null) gate.until = Math.max(gate.until, clock.now() + delay);
      if (opts.onRetry) opts.onRetry({ attempt: n, delayMs: delay, error: e });
      waitedMs += delay;
      await sleep(delay, clock, signal);
    }
  }
}
