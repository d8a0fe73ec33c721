// calls.js: judge calls made off the main thread. A run's calls used to be made by the page
// itself, so a call's slot stayed taken until the main thread, busy rendering prompts, reading
// verdicts (wasm) and storing rows, got round to the response: at concurrency 16 the endpoint saw
// about 10 calls at once. Here a worker owns the slots and the one retry policy (llm.js chat), so
// the next queued call goes out the moment a response has been read, whatever the page is doing;
// the page only has to keep a few rendered requests queued (scheduler.js Runner's look-ahead).
//
//   worker side  serveCalls(port)             (callworker.js runs it in a module worker)
//   page side    new CallClient(port)         call(request, opts) -> the same result or CallError as chat
//                startCallWorker()            a CallClient on a fresh worker, or null if workers fail

import { chat, realClock } from "../model/llm.js";
import { AdaptiveSlots } from "./slots.js";
import { CallSocket } from "./socket.js";
import { observedProtocol } from "../model/connections.js";
import { CallError, CallKind } from "../model/callerror.js";
import { chatURL } from "../model/chatrequest.js";

/**
 * socketAhead is how many calls beyond the limit are sent over a calls socket to wait on the
 * server: a quarter of the limit, at least 2, and never so many that the socket would hold more
 * calls than the server takes on one (room: /ragjudge/config's socket_calls; the server answers
 * the call beyond it with its own 429).
 * @param {number} limit
 * @param {number} [room]
 * @returns {number}
 */
export function socketAhead(limit, room = Infinity) {
  return Math.max(0, Math.min(Math.max(2, Math.ceil(limit / 4)), room - limit));
}

/**
 * errorJSON carries a CallError (or any throw) across postMessage with everything chat's callers read.
 * @param {unknown} e
 * @returns {{call: boolean, message: string, kind?: string, status?: number, retryable?: boolean, retryAfterMs?: number | null, attempts?: number, detail?: string, code?: string, key?: string}}
 */
export function errorJSON(e) {
  if (e instanceof CallError) {
    return { call: true, message: e.message, kind: e.kind, status: e.status, retryable: e.retryable, retryAfterMs: e.retryAfterMs, attempts: e.attempts, detail: e.detail, code: e.code, key: e.key };
  }
  return { call: false, message: String((e && /** @type {any} */ (e).message) || e) };
}

/**
 * errorFromJSON is errorJSON's inverse.
 * @param {ReturnType<typeof errorJSON>} j
 * @returns {Error}
 */
export function errorFromJSON(j) {
  if (!j.call) return new Error(j.message);
  return new CallError(j.message, { kind: j.kind || CallKind.NETWORK, status: j.status, retryable: j.retryable, retryAfterMs: j.retryAfterMs, attempts: j.attempts, detail: j.detail, code: j.code, key: j.key });
}

/**
 * serveCalls answers the messages of a CallClient on port: {type:"limit", n} sets the chosen
 * number of calls in flight (the worker's AdaptiveSlots lowers it on 429s and grows it back, and
 * the dev server's calls socket is told each limit, so the limit is of the calls upstream), {type:"call", id, request, apiKey, policy, socket, socketCalls} makes one call under the retry
 * policy when a slot is free (over the dev server's calls socket at URL socket when given, see
 * socket.js), {type:"warm", socket} opens that socket ahead of the calls, {type:"abort", ids} cancels those.
 * It replies {type:"attempt"|"retry"|"ok"|"err", id, ...}: "attempt" when an attempt goes out
 * (each once it has a slot), "retry" when one failed and another follows; and {type:"pace", pace}
 * whenever the limit in force changes (slots.js Pace); {type:"protocol", origin, protocol} once it
 * knows which protocol its direct calls to an origin used (resource timing; llm.js observedProtocol).
 * deps (fetch, clock, random, WebSocket) are for tests.
 * @param {{postMessage(m: any): void, onmessage: ((ev: MessageEvent) => void) | null}} port
 * @param {{fetch?: typeof fetch, clock?: typeof realClock, random?: () => number, WebSocket?: typeof WebSocket}} [deps]
 */
export function serveCalls(port, deps = {}) {
  const sockets = new Map(); // socket URL -> CallSocket, one per dev server
  // Over a calls socket the server holds to the limit itself (socket.js), so a few more calls are
  // sent than may run: the next one starts there the moment one ends.
  let overSocket = false;
  let socketRoom = Infinity; // the calls one socket of the dev server takes (its socket_calls)
  const clock = deps.clock || realClock;
  const slots = new AdaptiveSlots(8, {
    clock,
    ahead: (limit) => (overSocket ? socketAhead(limit, socketRoom) : 0),
    onChange: (pace) => {
      for (const s of sockets.values()) s.setLimit(pace.limit);
      port.postMessage({ type: "pace", pace });
    },
  });
  const ctrls = new Map();
  // The protocol of direct calls (resource timing in this worker, where they are made), told to
  // the page once per endpoint origin: over HTTP/1.1 the browser runs at most 6 at once.
  /** @type {Map<string, {protocol: string, looks: number}>} */
  const protocols = new Map();
  const learnProtocol = (endpoint) => {
    let origin;
    try {
      origin = new URL(chatURL(endpoint), globalThis.location ? globalThis.location.href : undefined).origin;
    } catch {
      return;
    }
    const known = protocols.get(origin) || { protocol: "", looks: 0 };
    protocols.set(origin, known);
    if (known.protocol || known.looks >= 20) return; // known, or hidden (no Timing-Allow-Origin)
    known.looks++;
    const protocol = observedProtocol(chatURL(endpoint));
    if (!protocol) return;
    known.protocol = protocol;
    port.postMessage({ type: "protocol", origin, protocol });
  };
  const fetchFor = (url) => {
    if (!url) return deps.fetch;
    return socketFor(url).fetch;
  };
  const socketFor = (url) => {
    if (!sockets.has(url)) {
      sockets.set(url, new CallSocket(url, { WebSocketImpl: deps.WebSocket || globalThis.WebSocket, fallback: deps.fetch || ((u, i) => globalThis.fetch(u, i)) }));
      sockets.get(url).setLimit(slots.limit);
    }
    return sockets.get(url);
  };
  const onCall = async (m) => {
    const ctrl = new AbortController();
    ctrls.set(m.id, ctrl);
    const room = m.socket && m.socketCalls > 0 ? m.socketCalls : Infinity;
    if (!!m.socket !== overSocket || room !== socketRoom) {
      overSocket = !!m.socket; // a run's calls all go one way; the next run may go the other
      socketRoom = room;
      slots.wake();
    }
    try {
      const r = await chat(m.request, {
        fetch: fetchFor(m.socket),
        apiKey: m.apiKey,
        policy: m.policy,
        clock,
        random: deps.random,
        signal: ctrl.signal,
        slots,
        onRetry: (info) => port.postMessage({ type: "retry", id: m.id, info: { attempt: info.attempt, delayMs: info.delayMs, error: errorJSON(info.error) } }),
        onAttempt: (n) => port.postMessage({ type: "attempt", id: m.id, attempt: n }),
      });
      port.postMessage({ type: "ok", id: m.id, result: r });
      if (!m.socket) learnProtocol(m.request.endpoint);
    } catch (e) {
      port.postMessage({ type: "err", id: m.id, error: errorJSON(e) });
    } finally {
      ctrls.delete(m.id);
    }
  };
  port.onmessage = (ev) => {
    const m = ev.data;
    if (m.type === "limit") slots.setChosen(m.n);
    else if (m.type === "warm") socketFor(m.socket).warm();
    else if (m.type === "abort") {
      // All at once: a call waiting for a slot must not take one freed by another's abort and start.
      for (const id of m.ids) {
        const c = ctrls.get(id);
        if (c) c.abort();
      }
    } else if (m.type === "call") onCall(m);
  };
  port.postMessage({ type: "ready" });
}

/** CallClient makes calls through a serveCalls port; call() behaves like llm.js chat. */
export class CallClient {
  /**
   * @param {{postMessage(m: any): void, onmessage: ((ev: MessageEvent) => void) | null}} port
   * @param {() => void} [close]
   */
  constructor(port, close = () => {}) {
    this.port = port;
    this.closeFn = close;
    this.seq = 0;
    this.pending = new Map();
    /** @type {string} why the worker can no longer make calls (fail), or "" while it can */
    this.dead = "";
    this.aborts = null;
    /** @type {import("./slots.js").Pace | null} the worker's last word on the calls allowed in flight */
    this.pace = null;
    /** @type {((pace: import("./slots.js").Pace) => void) | null} told each change of pace (the running Runner sets it) */
    this.onPace = null;
    /** @type {Map<string, string>} endpoint origin -> the protocol the worker's calls to it used ("http/1.1", "h2", …) */
    this.protocols = new Map();
    /** @type {((origin: string, protocol: string) => void) | null} */
    this.onProtocol = null;
    /** @type {Promise<void>} */
    this.ready = new Promise((resolve) => (this.onReady = () => resolve()));
    port.onmessage = (ev) => this.receive(ev.data);
  }

  receive(m) {
    if (m.type === "ready") return this.onReady();
    if (m.type === "protocol") {
      this.protocols.set(m.origin, m.protocol);
      if (this.onProtocol) this.onProtocol(m.origin, m.protocol);
      return;
    }
    if (m.type === "pace") {
      this.pace = m.pace;
      if (this.onPace) this.onPace(m.pace);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.type === "retry") {
      if (p.onRetry) p.onRetry({ ...m.info, error: errorFromJSON(m.info.error) });
      return;
    }
    if (m.type === "attempt") {
      if (p.onAttempt) p.onAttempt(m.attempt);
      return;
    }
    this.pending.delete(m.id);
    if (p.signal) p.signal.removeEventListener("abort", p.onAbort);
    if (m.type === "ok") p.resolve(m.result);
    else p.reject(errorFromJSON(m.error));
  }

  /** warm opens the calls socket at URL socket ahead of the run's first call. */
  warm(socket) {
    if (socket) this.port.postMessage({ type: "warm", socket });
  }

  /** setLimit sets the chosen number of calls in flight at most (the worker lowers it on 429s, see slots.js). */
  setLimit(n) {
    this.port.postMessage({ type: "limit", n });
  }

  /**
   * call queues one request; opts: apiKey, policy, signal, onRetry, onAttempt (as chat's), socket
   * (the dev server's calls socket URL) and socketCalls (the most calls that socket takes).
   * @param {import("../model/llm.js").ChatRequest} request
   * @param {{apiKey?: string, policy?: object, signal?: AbortSignal, onRetry?: Function, onAttempt?: Function, socket?: string, socketCalls?: number}} [opts]
   * @returns {Promise<import("../model/llm.js").ChatResult>}
   */
  call(request, { apiKey, policy, signal, onRetry, onAttempt, socket, socketCalls } = {}) {
    return new Promise((resolve, reject) => {
      if (signal && signal.aborted) return reject(new CallError("The call was stopped.", { kind: CallKind.ABORTED }));
      if (this.dead) return reject(new CallError(this.dead, { kind: CallKind.WORKER, retryable: false }));
      const id = ++this.seq;
      const onAbort = () => this.abort(id);
      this.pending.set(id, { resolve, reject, onRetry, onAttempt, signal, onAbort });
      if (signal) signal.addEventListener("abort", onAbort, { once: true });
      this.port.postMessage({ type: "call", id, request, apiKey, policy, socket, socketCalls });
    });
  }

  /** abort cancels call id; the aborts of one cancel (one signal, many calls) go in one message. */
  abort(id) {
    if (!this.aborts) {
      this.aborts = [];
      queueMicrotask(() => {
        this.port.postMessage({ type: "abort", ids: this.aborts });
        this.aborts = null;
      });
    }
    this.aborts.push(id);
  }

  /**
   * fail rejects every call in flight and every later one with message: the worker failed, and
   * a call posted to it would wait for an answer that never comes. (The run's rows then fail with
   * why, as a failure of the page, not as an unreachable endpoint: no outage is waited out; the
   * next run of the tab, or Retry failed, starts a new worker, callroute.js.)
   */
  fail(message) {
    this.dead ||= message; // the first failure is why
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new CallError(message, { kind: CallKind.WORKER, retryable: false }));
    }
  }

  close() {
    this.fail("The run's call worker was closed.");
    this.closeFn();
  }
}

/**
 * startCallWorker starts a module worker serving calls and resolves to its CallClient once it is
 * up, or to null (the page then makes its calls itself) when workers are unavailable or it does
 * not start within timeoutMs.
 * @param {number} [timeoutMs]
 * @returns {Promise<CallClient | null>}
 */
export async function startCallWorker(timeoutMs = 5000) {
  if (typeof Worker !== "function") return null;
  let worker;
  try {
    worker = new Worker(new URL("./callworker.js", import.meta.url), { type: "module", name: "ragjudge-batch-calls" });
  } catch {
    return null;
  }
  const client = new CallClient(worker, () => worker.terminate());
  let timer;
  const failed = new Promise((resolve) => {
    worker.onerror = (e) => {
      // An error the worker did not catch: what it was doing is lost, so it is ended and its calls
      // are failed, rather than left to answer some calls and not others.
      client.fail("The run's call worker failed: " + ((e && e.message) || "error"));
      worker.terminate();
      resolve(false);
    };
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ok = await Promise.race([client.ready.then(() => true), failed]);
  clearTimeout(timer);
  if (!ok) {
    worker.terminate();
    return null;
  }
  return client;
}
