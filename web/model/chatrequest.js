// chatrequest.js: what a chat completions call sends and what is read from its answer: the URL,
// the request's headers and body (the live call's, and a batch file's line), and the answer's
// message, usage and finish reason, or the CallError of an answer without one.

import { CallKind, failure, upstreamMessage } from "./callerror.js";
import { usageOf } from "./sse.js";

/**
 * joinURL appends path to base without doubling slashes.
 * @param {string} base
 * @param {string} path
 */
export function joinURL(base, path) {
  return String(base || "/v1").replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
}

/**
 * chatURL joins an endpoint base ("/v1", "https://host/v1/") and the chat completions path.
 * @param {string} endpoint
 */
export function chatURL(endpoint) {
  const base = String(endpoint || "/v1").replace(/\/+$/, "");
  return base.endsWith("/chat/completions") ? base : base + "/chat/completions";
}

/**
 * hostOf returns the host of url, or url itself when it is not absolute.
 * @param {string} url
 */
export function hostOf(url) {
  try {
    return new URL(url, globalThis.location ? globalThis.location.href : undefined).host;
  } catch {
    return url;
  }
}

/** UPSTREAM_HEADER names the dev server's upstream a call goes to (serve/upstream.go); a calls socket call carries it as "upstream". */
export const UPSTREAM_HEADER = "Ragjudge-Upstream";

/**
 * requestInit builds every request the page sends an endpoint: the key only in Authorization,
 * and credentials "same-origin": a cookie goes only to the page's own origin, where the dev
 * server keeps its access token in one (serve/token.go); an endpoint on another origin gets none.
 * @param {string | undefined} apiKey
 * @param {object | null} [body]  a JSON body: a POST; none: a GET
 * @param {boolean} [stream]
 * @returns {{method: string, headers: Record<string, string>, body?: string, credentials: RequestCredentials}}
 */
export function requestInit(apiKey, body = null, stream = false) {
  /** @type {Record<string, string>} */
  const headers = { Accept: stream ? "text/event-stream" : "application/json" };
  if (body) headers["Content-Type"] = "application/json";
  if (apiKey) headers.Authorization = "Bearer " + apiKey;
  const init = { method: body ? "POST" : "GET", headers, credentials: /** @type {RequestCredentials} */ ("same-origin") };
  return body ? { ...init, body: JSON.stringify(body) } : init;
}

/**
 * chatBody is the JSON body of a chat completions request: the sampling parameters, the model and
 * the messages, and whether to stream. Every request the page makes is built here, and so is every
 * line of a batch file (batch/batchfile.js), so that a batch asks exactly what a live run would.
 * @param {{model: string, messages: {role: string, content: string}[], params?: Record<string, any>}} request
 * @param {boolean} [stream]
 * @returns {Record<string, any>}
 */
export function chatBody(request, stream = false) {
  /** @type {Record<string, any>} */
  const body = { ...request.params, model: request.model, messages: request.messages, stream };
  if (stream) body.stream_options = { include_usage: true };
  return body;
}

/**
 * readAnswer reads a chat completion's parsed JSON body (text: the same body as sent, for the
 * error's detail) into {content, usage, model, finishReason}, or throws the CallError a call
 * without an answer ends with. A live call's answer and a batch output line's are read here.
 * @param {any} body
 * @param {string} text
 * @param {string} model  the model asked for, when the body does not say
 * @returns {{content: string, usage: {prompt_tokens: number, completion_tokens: number} | null, model: string, finishReason: string | null}}
 */
export function readAnswer(body, text, model) {
  const choice = body && Array.isArray(body.choices) ? body.choices[0] : null;
  const content = choice && choice.message ? choice.message.content : choice && typeof choice.text === "string" ? choice.text : undefined;
  if (typeof content !== "string") {
    if (body && body.error) throw failure(CallKind.UPSTREAM, "The model server reported an error", "see its message below", { detail: upstreamMessage(text) });
    throw failure(CallKind.BAD_RESPONSE, "The endpoint answered without a message (no choices[0].message.content)", "check that it is a chat completions API", {
      detail: text.slice(0, 200),
    });
  }
  return { content, usage: usageOf(body.usage), model: body.model || model, finishReason: (choice && choice.finish_reason) || null };
}

