// llm.js: the page's one way to call an OpenAI-compatible chat completions endpoint. Single
// evaluation streams (server-sent events, with Stop); a batch run's calls are plain, made by the
// call worker (batch/calls.js) or the page. Both go through chat(): one set of error kinds, one
// retry policy, one place that builds the request, one sentence per failure saying what happened
// and what to do. The dev proxy does not retry, so retries are never stacked. Time and randomness
// are injected so that tests drive the policy with a fake clock. What a failure is and says is in
// callerror.js; a streamed answer is read in sse.js; the connection limit and the sampling parameters
// are in connections.js and modelparams.js.

import { CallKind, CallError, UNREACHABLE_STATUSES, abortedError, failure, secs, httpErrorMessage, serverBusy, httpError, keySource } from "./callerror.js";
import { readStream } from "./sse.js";
import { joinURL, chatURL, hostOf, requestInit, chatBody, readAnswer, UPSTREAM_HEADER } from "./chatrequest.js";


/**
 * @typedef {object} Policy
 * @property {number} maxAttempts   attempts per call, the first included
 * @property {number} baseDelayMs   the wait before the first retry (doubling, with jitter)
 * @property {number} maxDelayMs    the longest wait between attempts
 * @property {number} timeoutMs     per attempt; streaming: without a byte for that long
 * @property {number} maxRetryAfterMs a longer Retry-After is not waited for: the call fails saying so
 * @property {boolean} batch        word the advice for a batch ("retry failed rows") or for one call ("run again")
 * @property {number} maxThrottledAttempts attempts per call at most, counting the 429s that did not use up
 *                                  one of maxAttempts (other calls were answered meanwhile): a request
 *                                  the provider refuses on its own (too large for the key's tokens per
 *                                  minute) still ends
 */

/** DEFAULT_POLICY is a batch run's: five attempts (a 429 in a storm others get through counts for none, up to 100), 0.5 s doubling to at most 20 s, 60 s per attempt. */
export const DEFAULT_POLICY = Object.freeze({ maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 20_000, timeoutMs: 60_000, maxRetryAfterMs: 120_000, maxThrottledAttempts: 100, batch: true });

/** INTERACTIVE_POLICY is single evaluation's: one attempt (the user is watching and runs again), 150 s without a byte. */
export const INTERACTIVE_POLICY = Object.freeze({ ...DEFAULT_POLICY, maxAttempts: 1, timeoutMs: 150_000, batch: false });

/** realClock is the browser's (and Node's) clock; tests pass a fake with the same three methods. */
export const realClock = {
  now: () => Date.now(),
  /** @param {() => void} fn @param {number} ms */
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  /** @param {any} id */
  clearTimeout: (id) => clearTimeout(id),
};

/**
 * parseRetryAfter reads Retry-After (delta-seconds, possibly fractional, or an HTTP date) or
 * OpenAI's retry-after-ms, which wins, into milliseconds to wait; null when absent or unreadable.
 * @param {{get(name: string): string | null} | null | undefined} headers
 * @param {number} [nowMs]
 * @returns {number | null}
 */
export function parseRetryAfter(headers, nowMs = Date.now()) {
  if (!headers || typeof headers.get !== "function") return null;
  const ms = (headers.get("retry-after-ms") ?? "").trim();
  if (ms !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.ceil(Number(ms));
  const s = (headers.get("retry-after") ?? "").trim();
  if (s === "") return null;
  if (/^\d+(\.\d+)?$/.test(s)) return Math.ceil(Number(s) * 1000);
  if (!/^[A-Za-z]{3},/.test(s)) return null; // an HTTP date starts with the day's name; Date.parse("-3") is a year
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : Math.max(0, t - nowMs);
}

/**
 * backoffDelay is the wait before retry number `retry` (1 for the first): exponential, capped,
 * with "equal jitter" (half fixed, half random) so that concurrent rows spread out yet never retry
 * at once. A Retry-After from the server is honoured instead, plus up to 10%.
 * @param {number} retry
 * @param {Policy} [policy]
 * @param {() => number} [random]
 * @param {number | null} [retryAfterMs]
 * @returns {number}
 */
export function backoffDelay(retry, policy = DEFAULT_POLICY, random = Math.random, retryAfterMs = null) {
  if (retryAfterMs !== null && retryAfterMs !== undefined) return Math.max(retryAfterMs + random() * retryAfterMs * 0.1, 0);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * sleep waits ms on clock, rejecting with an "aborted" CallError if signal aborts first.
 * @param {number} ms
 * @param {typeof realClock} [clock]
 * @param {AbortSignal | null} [signal]
 * @returns {Promise<void>}
 */
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

/**
 * attempt makes one HTTP call with its own timeout and returns {content, usage, model,
 * finishReason}, or throws a CallError saying whether it is worth retrying. A transport that holds
 * a call before sending it on (the dev server's calls socket queues some) calls init.onStarted when
 * the call really starts: the timeout counts from then, and c.onStarted is told (once). Streaming,
 * every byte restarts the timeout.
 */
async function attempt(fetchFn, url, init, c) {
  const { timeoutMs, clock, signal, stream, onDelta, direct, model, batch, onStarted } = c;
  const ctrl = new AbortController();
  let timedOut = false;
  const onTimeout = () => {
    timedOut = true;
    ctrl.abort();
  };
  let timer = clock.setTimeout(onTimeout, timeoutMs);
  const poke = () => {
    if (timedOut || ctrl.signal.aborted) return;
    clock.clearTimeout(timer);
    timer = clock.setTimeout(onTimeout, timeoutMs);
  };
  let startedOnce = false;
  const started = () => {
    poke();
    if (startedOnce || timedOut || ctrl.signal.aborted) return;
    startedOnce = true;
    if (onStarted) onStarted();
  };
  const onAbort = () => ctrl.abort();
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  const state = { delivered: false };
  const again = batch ? "retry failed rows later" : "run again";
  const fail = (e) => {
    if (signal && signal.aborted) return abortedError();
    if (timedOut)
      return failure(CallKind.TIMEOUT, `No answer from the model within ${secs(timeoutMs)} (timeout)`, `${batch ? again : "try again"}, or lower max tokens`, {
        retryable: !state.delivered,
      });
    if (e instanceof CallError) return e;
    const detail = String((e && e.message) || e || "network error");
    if (state.delivered) return failure(CallKind.NETWORK, "The connection broke while the answer was arriving", "run again", { detail });
    if (direct)
      return failure(CallKind.CORS, `The browser could not call ${hostOf(url)} directly (CORS refusal or network error)`, "use the dev server (make run) as endpoint, or check the URL", {
        retryable: true,
        detail,
      });
    return failure(CallKind.NETWORK, "Could not reach the dev server", "is `make run` still running?", { retryable: true, detail });
  };
  try {
    let res;
    try {
      res = await fetchFn(url, { ...init, signal: ctrl.signal, onStarted: started });
    } catch (e) {
      throw fail(e);
    }
    if (!res.ok || !stream || !(res.headers.get("content-type") || "").includes("text/event-stream")) {
      let text;
      try {
        text = await res.text();
      } catch (e) {
        throw fail(e);
      }
      if (!res.ok) throw httpError(res.status, text, { model, direct, retryAfterMs: parseRetryAfter(res.headers, clock.now()), key: keySource(res.headers, init.headers, direct) });
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        throw failure(CallKind.BAD_RESPONSE, "The endpoint answered with something that is not JSON", again, { retryable: true, detail: text.slice(0, 200) });
      }
      const answer = readAnswer(body, text, model);
      if (onDelta) onDelta(answer.content, answer.content);
      return answer;
    }
    return await readStream(res, { poke, onDelta, model, state }).catch((e) => {
      throw fail(e);
    });
  } finally {
    clock.clearTimeout(timer);
    if (signal) signal.removeEventListener("abort", onAbort);
  }
}

/**
 * @typedef {object} ChatRequest
 * @property {string} endpoint  the API base ("/v1" for the dev server, or an absolute URL)
 * @property {string} model
 * @property {{role: string, content: string}[]} messages
 * @property {Record<string, any>} [params]  temperature, max_tokens, …: sent as they are
 * @property {string} [upstream]  the dev server's upstream to call, by name (Ragjudge-Upstream); none: its default
 *
 * @typedef {object} ChatOptions
 * @property {typeof fetch} [fetch]
 * @property {string} [apiKey]
 * @property {Partial<Policy>} [policy]  over DEFAULT_POLICY
 * @property {typeof realClock} [clock]
 * @property {() => number} [random]
 * @property {AbortSignal | null} [signal]  cancels: a CallError of kind "aborted"
 * @property {import("../batch/slots.js").AdaptiveSlots | null} [slots]  a run's calls in flight: each attempt takes a
 *           slot and gives it back with its outcome (AIMD on 429s); a call waiting to retry holds none
 * @property {(info: {attempt: number, delayMs: number, error: CallError}) => void} [onRetry]  attempt `attempt` failed; the next goes out in delayMs
 * @property {(attempt: number) => void} [onAttempt]  attempt number `attempt` (1 for the first) goes out now: over a
 *           transport that holds calls before sending them on (a fetch with `reportsStart`, the dev server's calls
 *           socket), when the server starts it, so that the calls said to be out are the calls in flight upstream
 * @property {boolean} [stream]  ask for server-sent events (stream_options.include_usage too)
 * @property {(piece: string, full: string) => void} [onDelta]  each piece of the answer as it arrives
 * @property {boolean} [direct]  the page calls a remote endpoint itself (not through the dev server)
 *
 * @typedef {{content: string, usage: {prompt_tokens: number, completion_tokens: number} | null, model: string, finishReason: string | null, attempts: number, waitedMs: number}} ChatResult
 */

/**
 * chat sends one chat completion under the retry policy. It rejects with a CallError whose
 * message is ready for the user. A streamed answer is not retried once a piece of it was shown.
 * With opts.slots (a batch run's), each attempt waits for a slot and a 429 waits only its own
 * Retry-After (unless the slots hold the whole key), and a 429 does not use up one of the row's
 * attempts when another call of the run was answered since this call's previous attempt went out
 * (for its first, since it went out): a storm the endpoint still gets through fails no row for
 * lack of attempts, up to policy.maxThrottledAttempts in all.
 * @param {ChatRequest} request
 * @param {ChatOptions} [opts]
 * @returns {Promise<ChatResult>}
 */
export async function chat(request, opts = {}) {
  const fetchFn = opts.fetch || ((u, i) => globalThis.fetch(u, i));
  const policy = { ...DEFAULT_POLICY, ...(opts.policy || {}) };
  const clock = opts.clock || realClock;
  const random = opts.random || Math.random;
  const signal = opts.signal || null;
  const slots = opts.slots || null;
  const stream = !!opts.stream;
  const init = requestInit(opts.apiKey, chatBody(request, stream), stream);
  // A jury's judge on one of the dev server's upstreams names it (serve/upstream.go pick).
  if (request.upstream) init.headers[UPSTREAM_HEADER] = request.upstream;
  const url = chatURL(request.endpoint);
  const c = { timeoutMs: policy.timeoutMs, clock, signal, stream, onDelta: opts.onDelta, direct: !!opts.direct, model: request.model, batch: policy.batch, onStarted: /** @type {(() => void) | null} */ (null) };
  const reportsStart = !!(/** @type {any} */ (fetchFn).reportsStart);
  let waitedMs = 0;
  let counted = 0; // the attempts that count against policy.maxAttempts (see THROTTLED_FREE)
  /** @type {number | null} */
  let previousSent = null; // slots.answered when this call's previous attempt went out
  for (let n = 1; ; n++) {
    if (signal && signal.aborted) throw abortedError();
    let token = 0;
    if (slots) {
      try {
        token = await slots.acquire(signal);
      } catch {
        throw abortedError();
      }
    }
    const answeredMark = slots ? (previousSent ?? slots.answered) : 0;
    if (slots) previousSent = slots.answered;
    const onAttempt = opts.onAttempt;
    if (onAttempt && !reportsStart) onAttempt(n);
    c.onStarted = onAttempt && reportsStart ? () => onAttempt(n) : null;
    let r;
    try {
      r = await attempt(fetchFn, url, init, c);
    } catch (e) {
      if (!(e instanceof CallError)) {
        if (slots) slots.release(token, "other");
        throw e;
      }
      e.attempts = n;
      if (e.kind === CallKind.ABORTED) {
        if (slots) slots.release(token, "aborted");
        throw e;
      }
      // The dev server's own 429 (its cap on calls in flight, shared with other pages) is not
      // the provider's: it does not halve the run's calls in flight, and in a run it uses up no
      // attempt (the call never left the dev server): it waits its Retry-After, up to
      // maxThrottledAttempts. A single call (no slots) fails at once, saying so.
      const busy = serverBusy(e);
      const throttled = e.kind === CallKind.HTTP && e.status === 429 && !busy;
      // THROTTLED_FREE: a 429 while the endpoint answers other calls of the run is a storm the run
      // rides out at a lower concurrency, not this row's trouble: it does not use up an attempt.
      const free = !!slots && (busy || (throttled && slots.answered > answeredMark)) && n < policy.maxThrottledAttempts;
      if (!free) counted++;
      // The backoff grows with the attempts that counted: free 429s before a 500 do not lengthen its wait.
      let delay = backoffDelay(Math.max(1, counted), policy, random, e.retryAfterMs);
      if (slots) slots.release(token, throttled ? "throttled" : "other", delay);
      const tail = { model: request.model, attempts: n, retryAfterMs: e.retryAfterMs, direct: c.direct, batch: policy.batch, code: e.code, key: e.key };
      if (!e.retryable || counted >= policy.maxAttempts || n >= policy.maxThrottledAttempts) {
        if (e.kind === CallKind.HTTP) e.message = httpErrorMessage(e.status, tail);
        else if (n > 1 && e.what) e.message = failure(e.kind, `${e.what} after ${n} attempts`, e.advice).message;
        throw e;
      }
      if (e.retryAfterMs !== null && e.retryAfterMs > policy.maxRetryAfterMs) {
        e.message = `The endpoint asked to wait ${secs(e.retryAfterMs)} (Retry-After), longer than the ${secs(policy.maxRetryAfterMs)} this run waits: retry failed rows later.`;
        throw e;
      }
      // A key-wide hold (several 429s in a row, slots.js) holds this retry too: say so in the wait reported.
      if (slots && slots.holdUntil > clock.now() + delay) delay = slots.holdUntil - clock.now();
      if (opts.onRetry) opts.onRetry({ attempt: n, delayMs: delay, error: e });
      waitedMs += delay;
      await sleep(delay, clock, signal);
      continue;
    }
    if (slots) slots.release(token, "ok");
    return { ...r, attempts: n, waitedMs };
  }
}

/**
 * listModels returns the models the endpoint offers, in its own order (Ollama's: the most recently
 * pulled first; a page sorts them to show), or [] when it offers none or fails. chat says whether
 * the endpoint marks the model as one that answers chat completions: most mark nothing (OpenAI,
 * Ollama's and vLLM's /v1/models, and any list through the dev server, which go-openai reads: null),
 * a few do: Together's and LM Studio's `type` ("chat", "llm", "vlm"… or "embedding", "embeddings",
 * "rerank"…), Mistral's `capabilities.completion_chat`, Ollama's own /api/tags `details.family` (a
 * BERT is an embedding model). upstream: the dev server's upstream to ask, by name (a jury's judge);
 * none: its default.
 * @param {{baseURL: string, key?: string, signal?: AbortSignal, fetch?: typeof fetch, upstream?: string}} o
 * @returns {Promise<{id: string, chat: boolean|null}[]>}
 */
export async function listModels({ baseURL, key, signal, fetch: fetchFn, upstream }) {
  try {
    const init = requestInit(key);
    if (upstream) init.headers[UPSTREAM_HEADER] = upstream;
    const res = await (fetchFn || globalThis.fetch)(joinURL(baseURL, "models"), { ...init, signal });
    if (!res.ok) return [];
    const j = await res.json();
    const list = Array.isArray(j) ? j : j.data || j.models || [];
    return list
      .map((/** @type {any} */ m) => ({ id: typeof m === "string" ? m : m && (m.id || m.name), chat: m && typeof m === "object" ? chatMark(m) : null }))
      .filter((/** @type {{id: unknown}} */ m) => typeof m.id === "string");
  } catch {
    return [];
  }
}

/** CHAT_TYPES and OTHER_TYPES: the `type` a model list gives a model that answers chat, and one that does not. */
const CHAT_TYPES = /^(chat|llm|vlm|language|code|text-generation)$/i;
const OTHER_TYPES = /embed|rerank|moderation|image|audio|speech|transcri|tts/i;

/**
 * chatMark says whether a model list's entry marks the model as answering chat: true, false, or
 * null when the entry does not say.
 * @param {any} m
 * @returns {boolean|null}
 */
function chatMark(m) {
  if (typeof m.type === "string") {
    if (CHAT_TYPES.test(m.type)) return true;
    if (OTHER_TYPES.test(m.type)) return false;
  }
  if (m.capabilities && typeof m.capabilities === "object" && typeof m.capabilities.completion_chat === "boolean") return m.capabilities.completion_chat;
  if (Array.isArray(m.capabilities)) return m.capabilities.includes("completion") || m.capabilities.includes("chat") ? true : m.capabilities.includes("embedding") ? false : null;
  const family = m.details && typeof m.details.family === "string" ? m.details.family : "";
  if (family) return !/bert/i.test(family);
  return null;
}

/**
 * probe asks the endpoint for its models (GET models, the same headers as a call): cheap, never
 * paid. It resolves to true when the endpoint answered anything but 502/503/504 (even 401 or 404:
 * it can be reached), false when it could not be reached within timeoutMs.
 * @param {{endpoint: string, apiKey?: string, fetch?: typeof fetch, clock?: typeof realClock, timeoutMs?: number}} o
 * @returns {Promise<boolean>}
 */
export async function probe({ endpoint, apiKey, fetch: fetchFn, clock = realClock, timeoutMs = 10_000 }) {
  const ctrl = new AbortController();
  const timer = clock.setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await (fetchFn || ((u, i) => globalThis.fetch(u, i)))(joinURL(endpoint, "models"), { ...requestInit(apiKey), signal: ctrl.signal });
    if (res.body && typeof res.body.cancel === "function") res.body.cancel().catch(() => {});
    return !UNREACHABLE_STATUSES.includes(res.status);
  } catch {
    return false;
  } finally {
    clock.clearTimeout(timer);
  }
}
