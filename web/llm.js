// llm.js: calls an OpenAI-compatible chat completions endpoint from the browser, streaming, and
// turns every way such a call fails into one sentence that says what happened and what to do.

/** CallError is a failed model call; kind is one of auth, model, rate, server, timeout, network, cors, http, aborted. */
export class CallError extends Error {
  constructor(kind, message, { status = 0, retryAfter = null, detail = "" } = {}) {
    super(message);
    this.name = "CallError";
    this.kind = kind;
    this.status = status;
    this.retryAfter = retryAfter; // seconds, for 429
    this.detail = detail; // the upstream's own message, shown beneath ours
  }
}

/** joinURL appends path to base without doubling slashes. */
export function joinURL(base, path) {
  return base.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
}

/** hostOf returns the host of url, or url itself when it is not absolute. */
export function hostOf(url) {
  try {
    return new URL(url, location.href).host;
  } catch {
    return url;
  }
}

/** parseRetryAfter reads a Retry-After header (seconds or an HTTP date) into whole seconds. */
export function parseRetryAfter(v) {
  if (!v) return null;
  const n = Number(v);
  if (Number.isFinite(n) && n >= 0) return Math.ceil(n);
  const t = Date.parse(v);
  if (Number.isFinite(t)) return Math.max(0, Math.ceil((t - Date.now()) / 1000));
  return null;
}

async function errorFrom(res, { model, direct }) {
  let detail = "";
  try {
    const text = await res.text();
    try {
      const j = JSON.parse(text);
      detail = (j && j.error && (j.error.message || j.error.code)) || (j && j.message) || "";
      if (typeof detail !== "string") detail = JSON.stringify(detail);
    } catch {
      detail = text.slice(0, 300);
    }
  } catch {
    detail = "";
  }
  const s = res.status;
  const where = direct ? "The endpoint" : "The model server";
  if (s === 401)
    return new CallError("auth", "The key was refused (401 Unauthorized): check the API key in Model settings.", { status: s, detail });
  if (s === 403)
    return new CallError("auth", "The key is not allowed to do this (403 Forbidden): check the key's permissions or the model.", { status: s, detail });
  if (s === 404)
    return new CallError(
      "model",
      model
        ? `${where} does not know the model “${model}” (404 Not Found): pick another model in Model settings.`
        : `${where} answered 404 Not Found: check the endpoint URL and the model in Model settings.`,
      { status: s, detail },
    );
  if (s === 413) return new CallError("http", "The prompt is too large for the server (413): shorten the inputs.", { status: s, detail });
  if (s === 429) {
    const retryAfter = parseRetryAfter(res.headers.get("retry-after"));
    const wait = retryAfter !== null ? `wait ${retryAfter} s and run again` : "wait a moment and run again";
    return new CallError("rate", `Rate limited by the model server (429 Too Many Requests): ${wait}.`, { status: s, retryAfter, detail });
  }
  if (s === 504 || s === 408)
    return new CallError("timeout", `The model did not answer in time (${s} timeout): try again, or lower max tokens.`, { status: s, detail });
  if (s >= 500)
    return new CallError("server", `The model server failed (${s}): try again in a moment; if it persists, check the server.`, { status: s, detail });
  return new CallError("http", `The call failed with HTTP ${s}: see the server's message below.`, { status: s, detail });
}

/**
 * chat sends one chat completion. With stream true it reads server-sent events and calls
 * onDelta(text, full) for each piece of the answer as it arrives. Returns {content, usage, model,
 * finishReason}. signal cancels (CallError kind "aborted"); idleMs without a byte is a timeout.
 */
export async function chat({ baseURL, key, body, signal, onDelta = () => {}, idleMs = 150000, direct = false }) {
  const ctl = new AbortController();
  let why = "";
  const abort = (reason) => {
    if (!why) why = reason;
    ctl.abort();
  };
  if (signal) {
    if (signal.aborted) abort("user");
    signal.addEventListener("abort", () => abort("user"), { once: true });
  }
  let idle = setTimeout(() => abort("timeout"), idleMs);
  const poke = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort("timeout"), idleMs);
  };
  const headers = { "Content-Type": "application/json", Accept: body.stream ? "text/event-stream" : "application/json" };
  if (key) headers.Authorization = "Bearer " + key;
  const url = joinURL(baseURL, "chat/completions");
  const aborted = () =>
    why === "timeout"
      ? new CallError("timeout", `No answer from the model for ${Math.round(idleMs / 1000)} s (timeout): try again, or lower max tokens.`)
      : new CallError("aborted", "Stopped.");
  let res;
  try {
    res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: ctl.signal, credentials: "omit" });
  } catch (e) {
    clearTimeout(idle);
    if (why) throw aborted();
    if (direct)
      throw new CallError(
        "cors",
        `The browser could not call ${hostOf(url)} directly (CORS refusal or network error): use the dev server (make run) as endpoint, or check the URL.`,
        { detail: String(e && e.message) },
      );
    throw new CallError("network", "Could not reach the dev server: is `make run` still running?", { detail: String(e && e.message) });
  }
  try {
    if (!res.ok) throw await errorFrom(res, { model: body.model, direct });
    poke();
    const ctype = res.headers.get("content-type") || "";
    if (!ctype.includes("text/event-stream")) {
      const j = await res.json();
      const ch = (j.choices && j.choices[0]) || {};
      const content = (ch.message && (ch.message.content ?? "")) || ch.text || "";
      onDelta(content, content);
      return { content, usage: j.usage || null, model: j.model || body.model, finishReason: ch.finish_reason || null };
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    let content = "";
    let usage = null;
    let model = body.model;
    let finishReason = null;
    let done = false;
    const handle = (data) => {
      if (data === "[DONE]") {
        done = true;
        return;
      }
      let j;
      try {
        j = JSON.parse(data);
      } catch {
        return; // a keep-alive or a comment line some servers send
      }
      if (j.error) {
        const detail = j.error.message || JSON.stringify(j.error);
        if (j.error.code === "upstream_timeout" || j.error.type === "timeout")
          throw new CallError("timeout", "The model stopped sending mid-answer (timeout): the answer is incomplete; run again.", { detail });
        throw new CallError("server", "The model server reported an error mid-answer: see its message below.", { detail });
      }
      if (j.model) model = j.model;
      if (j.usage) usage = j.usage;
      for (const ch of j.choices || []) {
        const piece = (ch.delta && ch.delta.content) || "";
        if (ch.finish_reason) finishReason = ch.finish_reason;
        if (piece) {
          content += piece;
          onDelta(piece, content);
        }
      }
    };
    while (!done) {
      const { value, done: end } = await reader.read();
      if (end) break;
      poke();
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.search(/\r?\n\r?\n/)) >= 0) {
        const event = buf.slice(0, i);
        buf = buf.slice(i).replace(/^\r?\n\r?\n/, "");
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data) handle(data);
        if (done) break;
      }
    }
    if (done) reader.cancel().catch(() => {});
    else if (!finishReason)
      throw new CallError("network", "The answer stream ended before the model finished: the answer may be incomplete; run again.");
    return { content, usage, model, finishReason };
  } catch (e) {
    if (e instanceof CallError) throw e;
    if (why) throw aborted();
    throw new CallError("network", "The connection broke while the answer was arriving: run again.", { detail: String(e && e.message) });
  } finally {
    clearTimeout(idle);
  }
}

/** listModels returns the model ids the endpoint offers, or [] when it offers none or fails. */
export async function listModels({ baseURL, key, signal }) {
  const headers = {};
  if (key) headers.Authorization = "Bearer " + key;
  try {
    const res = await fetch(joinURL(baseURL, "models"), { headers, signal, credentials: "omit" });
    if (!res.ok) return [];
    const j = await res.json();
    const list = Array.isArray(j) ? j : j.data || j.models || [];
    return list.map((m) => (typeof m === "string" ? m : m.id || m.name)).filter((x) => typeof x === "string").sort();
  } catch {
    return [];
  }
}
