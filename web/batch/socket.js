// socket.js: judge calls to the dev server over one WebSocket (serve's /ragjudge/calls, protocol
// ragjudge-calls-1). Through plain HTTP a browser keeps at most 6 connections to one host, so a
// run through the dev server had at most 6 calls in flight whatever its concurrency; one socket
// carries any number of them. CallSocket.fetch looks like fetch to llm.js, so the one retry
// policy, the per-call timeout and the error messages are the same on both paths: the server
// answers each call with the status, headers and body that POST /v1/chat/completions would have.
//
//   page -> server  {"type":"call","id":n,"key":"…","body":{chat completion request}}
//                   {"type":"cancel","id":n}
//                   {"type":"limit","n":16}   at most n calls run upstream at once; more wait, in order
//   server -> page  {"type":"result","id":n,"status":200,"headers":{…},"body":"…"}
//                   {"type":"started","id":n} the call runs upstream now
//
// With a limit set, the call worker sends a few calls more than the limit (calls.js): the server
// starts the next one the moment one ends, instead of a round trip through the browser later.
// Every call gets "started" when it runs upstream (init.onStarted, see llm.js attempt): its
// timeout counts from then, and only from then is it said to be in flight (fetch.reportsStart).

import { Slots } from "./slots.js";
import { UPSTREAM_HEADER } from "../model/chatrequest.js";

export const CALLS_PROTOCOL = "ragjudge-calls-1";

/**
 * socketURL turns the dev server's calls path ("/ragjudge/calls") into a ws: or wss: URL.
 * @param {string} path
 * @param {string} base
 * @returns {string}
 */
export function socketURL(path, base) {
  const u = new URL(path, base);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  return u.href;
}

/** closedError is what a call in flight gets when the socket goes: fetch's own network error. */
function closedError(why) {
  return new TypeError("the dev server's calls socket closed" + (why ? ` (${why})` : ""));
}

function abortError() {
  const e = new Error("The call was aborted.");
  e.name = "AbortError";
  return e;
}

/** bearer reads the API key out of an Authorization header ("" when there is none). */
function bearer(headers) {
  const m = /^Bearer\s+(.*)$/i.exec(headerOf(headers, "Authorization"));
  return m ? m[1] : "";
}

/**
 * headerOf is header name's value in headers (a Headers or a plain object, any case), or "".
 * @param {any} headers @param {string} name
 */
function headerOf(headers, name) {
  if (!headers) return "";
  if (typeof headers.get === "function") return headers.get(name) || "";
  const k = Object.keys(headers).find((x) => x.toLowerCase() === name.toLowerCase());
  return k ? String(headers[k]) : "";
}

/**
 * CallSocket sends calls over one WebSocket to url, opened on the first call and again on the
 * first call after it closes. A socket that never opens makes its calls fail as network errors
 * (retried by the policy like any other), and after `maxFailedOpens` attempts in a row the calls
 * go over plain HTTP (fallback) instead, so an older dev server without the socket still works.
 */
export class CallSocket {
  /**
   * @param {string} url
   * @param {{WebSocketImpl?: typeof WebSocket, fallback?: (url: string, init: any) => Promise<Response>, maxFailedOpens?: number}} [o]
   */
  constructor(url, { WebSocketImpl = globalThis.WebSocket, fallback = (u, i) => globalThis.fetch(u, i), maxFailedOpens = 2 } = {}) {
    this.url = url;
    this.WS = WebSocketImpl;
    this.fallback = fallback;
    this.maxFailedOpens = maxFailedOpens;
    this.failedOpens = 0;
    this.ws = null;
    this.open = false;
    this.outbox = []; // messages waiting for the socket to open
    this.pending = new Map(); // id -> {resolve, reject}
    this.seq = 0;
    this.limit = 0; // the server's limit on calls running at once; 0: none asked for
    this.fallbackSlots = null; // over plain HTTP the limit is kept here (see setLimit)
    const bound = this.fetch.bind(this);
    // chat (llm.js) hears of each attempt when this says it started, not when it is handed over.
    this.fetch = Object.assign(bound, { reportsStart: true });
  }

  /**
   * setLimit asks the server to run at most n of this socket's calls at once (again after every
   * reconnection). Calls that fell back to plain HTTP are held to n here instead.
   */
  setLimit(n) {
    this.limit = n;
    if (this.fallbackSlots) this.fallbackSlots.setLimit(n);
    if (this.open) this.ws.send(`{"type":"limit","n":${n}}`);
  }

  /** viaHTTP makes the call over plain HTTP, at most `limit` at once when one is set; it starts when sent. */
  async viaHTTP(url, init) {
    const started = () => typeof init.onStarted === "function" && init.onStarted();
    if (!this.limit) {
      started();
      return this.fallback(url, init);
    }
    this.fallbackSlots ||= new Slots(this.limit);
    await this.fallbackSlots.acquire();
    started();
    try {
      // The body is read before the slot is given back, as the socket's result is.
      const res = await this.fallback(url, init);
      const text = await res.text();
      return { ok: res.ok, status: res.status, headers: res.headers, text: async () => text, json: async () => JSON.parse(text) };
    } finally {
      this.fallbackSlots.release();
    }
  }

  /** fetch(url, init) makes one chat completions call; url is ignored (the socket has one endpoint). */
  fetch(url, init = {}) {
    if (this.failedOpens >= this.maxFailedOpens || typeof this.WS !== "function") return this.viaHTTP(url, init);
    const signal = init.signal;
    if (signal && signal.aborted) return Promise.reject(abortError());
    const id = ++this.seq;
    // The body is the JSON text llm.js made; it goes in as it is rather than parsed and encoded again.
    // A jury's judge on another upstream names it (llm.js sets the header; the socket's field is the header's twin).
    const upstream = headerOf(init.headers, UPSTREAM_HEADER);
    const msg = `{"type":"call","id":${id},"key":${JSON.stringify(bearer(init.headers))},${upstream ? `"upstream":${JSON.stringify(upstream)},` : ""}"body":${init.body}}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.send(`{"type":"cancel","id":${id}}`);
        reject(abortError());
      };
      this.pending.set(id, {
        resolve: (r) => (signal && signal.removeEventListener("abort", onAbort), resolve(r)),
        reject: (e) => (signal && signal.removeEventListener("abort", onAbort), reject(e)),
        onStarted: init.onStarted,
      });
      if (signal) signal.addEventListener("abort", onAbort, { once: true });
      this.send(msg);
    });
  }

  /** warm opens the socket ahead of the first call, so that call does not wait for the handshake. */
  warm() {
    if (!this.ws && this.failedOpens < this.maxFailedOpens && typeof this.WS === "function") this.connect();
  }

  send(msg) {
    if (this.open) return this.ws.send(msg);
    this.outbox.push(msg);
    if (!this.ws) this.connect();
  }

  connect() {
    let ws;
    try {
      ws = new this.WS(this.url, CALLS_PROTOCOL);
    } catch (e) {
      this.failedOpens++;
      return this.fail(String((e && /** @type {any} */ (e).message) || e));
    }
    this.ws = ws;
    ws.onopen = () => {
      this.open = true;
      this.failedOpens = 0;
      if (this.limit) ws.send(`{"type":"limit","n":${this.limit}}`);
      for (const m of this.outbox.splice(0)) ws.send(m);
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      if (!this.open) this.failedOpens++;
      this.fail(ev && ev.reason ? ev.reason : ev && ev.code ? "code " + ev.code : "");
    };
    ws.onerror = () => {}; // a close event follows and says the rest
  }

  /** fail drops the socket and fails every call waiting on it; the next call opens a new one. */
  fail(why) {
    if (this.ws) {
      const ws = this.ws;
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
    this.ws = null;
    this.open = false;
    this.outbox = [];
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const p of calls) p.reject(closedError(why));
  }

  receive(data) {
    let m;
    try {
      m = JSON.parse(data);
    } catch {
      return this.fail("the dev server sent something that is not JSON");
    }
    if (!m || (m.type !== "result" && m.type !== "started")) return;
    const p = this.pending.get(m.id);
    if (!p) return; // cancelled meanwhile
    if (m.type === "started") {
      if (typeof p.onStarted === "function") p.onStarted();
      return;
    }
    this.pending.delete(m.id);
    const status = Number(m.status) || 0;
    const body = typeof m.body === "string" ? m.body : "";
    const headers = new Headers();
    for (const [k, v] of Object.entries(m.headers || {})) if (typeof v === "string") headers.set(k, v);
    p.resolve({ ok: status >= 200 && status < 300, status, headers, text: async () => body, json: async () => JSON.parse(body) });
  }

  /** close ends the socket; calls in flight fail. */
  close() {
    this.fail("closed");
  }
}
