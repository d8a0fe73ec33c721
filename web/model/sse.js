// sse.js: reads a streamed chat completion (server-sent events) into the same answer a plain call
// gives; a failure mid-stream is a CallError (callerror.js). The call itself is made in llm.js.

import { CallKind, failure } from "./callerror.js";

/**
 * usageOf reads a response's token counts; null when it has none.
 * @param {any} u
 */
export function usageOf(u) {
  if (!u || typeof u !== "object") return null;
  return { prompt_tokens: Number.isFinite(u.prompt_tokens) ? u.prompt_tokens : 0, completion_tokens: Number.isFinite(u.completion_tokens) ? u.completion_tokens : 0 };
}

/**
 * DRAIN_MS: how long a body may stay open after its [DONE] before it is cancelled (drain).
 */
export const DRAIN_MS = 10_000;

/**
 * drain reads what a body still holds after its [DONE] to its end, in the background, and cancels
 * it only if it is still open after ms. Servers end the body a moment after [DONE] (the dev server
 * once its upstream has, providers with a last empty chunk); a body cancelled before that is a
 * request the browser logs as failed (net::ERR_ABORTED), though its answer came whole.
 * @param {ReadableStreamDefaultReader<Uint8Array>} reader
 * @param {number} ms
 */
function drain(reader, ms) {
  const timer = setTimeout(() => reader.cancel().catch(() => {}), ms);
  /** @type {any} */ (timer).unref?.(); // Node (the unit tests): a body left open does not hold the process
  (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // the connection broke after the answer was whole: nothing is lost
    } finally {
      clearTimeout(timer);
    }
  })();
}

/**
 * readStream reads a server-sent events answer; state.delivered is set once a piece has been shown.
 * It returns at [DONE]; the rest of the body is read to its end in the background (drain).
 * @param {{body: ReadableStream<Uint8Array>}} res  a response whose body is the event stream
 * @param {{poke: () => void, onDelta?: (piece: string, full: string) => void, model: string, state: {delivered: boolean}, drainMs?: number}} o
 * @returns {Promise<{content: string, usage: {prompt_tokens: number, completion_tokens: number} | null, model: string, finishReason: string | null}>}
 */
export async function readStream(res, { poke, onDelta, model, state, drainMs = DRAIN_MS }) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let content = "";
  /** @type {{prompt_tokens: number, completion_tokens: number} | null} */
  let usage = null;
  let finishReason = null;
  let done = false;
  let ended = false;
  const handle = (/** @type {string} */ data) => {
    if (data === "[DONE]") return void (done = true);
    let j;
    try {
      j = JSON.parse(data);
    } catch {
      return; // a keep-alive or a comment line some servers send
    }
    if (j.error) {
      const detail = j.error.message || JSON.stringify(j.error);
      if (j.error.code === "upstream_timeout" || j.error.type === "timeout")
        throw failure(CallKind.TIMEOUT, "The model stopped sending mid-answer (timeout)", "the answer is incomplete; run again", { detail });
      throw failure(CallKind.UPSTREAM, "The model server reported an error mid-answer", "see its message below", { detail });
    }
    if (j.model) model = j.model;
    if (j.usage) usage = usageOf(j.usage);
    for (const ch of j.choices || []) {
      const piece = (ch.delta && ch.delta.content) || "";
      if (ch.finish_reason) finishReason = ch.finish_reason;
      if (piece) {
        content += piece;
        state.delivered = true;
        if (onDelta) onDelta(piece, content);
      }
    }
  };
  try {
    while (!done) {
      const { value, done: end } = await reader.read();
      if (end) {
        ended = true;
        break;
      }
      poke();
      buf += dec.decode(value, { stream: true });
      let i;
      while (!done && (i = buf.search(/\r?\n\r?\n/)) >= 0) {
        const event = buf.slice(0, i);
        buf = buf.slice(i).replace(/^\r?\n\r?\n/, "");
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data) handle(data);
      }
    }
  } finally {
    if (done && !ended) drain(reader, drainMs);
  }
  if (!done && !finishReason)
    throw failure(CallKind.NETWORK, "The answer stream ended before the model finished", "the answer may be incomplete; run again", { retryable: !state.delivered });
  return { content, usage, model, finishReason };
}
