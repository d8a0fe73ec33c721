// judgecall.js: the Evaluate view's one call to the model: the judge prompt goes out, the answer
// streams back piece by piece, Stop aborts it, and what came back is told in one usage line.

import { chat, INTERACTIVE_POLICY } from "../model/llm.js";
import { CallError, CallKind } from "../model/callerror.js";
import { modelParams } from "../model/modelparams.js";
import { busyWhile } from "../lib/busy.js";

/**
 * @typedef {Object} JudgeCall what a finished call reports
 * @property {any} usage the endpoint's token usage, if it gave one
 * @property {string} model the model that answered
 * @property {number} ms how long the call took
 * @property {string | null} finishReason
 */

/**
 * askJudge sends messages to the model settings name at endpoint ep and streams its answer
 * through onDelta. It never throws: it resolves to the whole answer and the call's report, or to
 * the call's error (a CallError; kind ABORTED after signal aborted it).
 * @param {{ep: any, settings: any, apiKey: string | undefined, messages: any[], signal: AbortSignal, onDelta: (piece: string) => void}} req
 * @returns {Promise<{content: string, call: JudgeCall} | {error: CallError}>}
 */
export async function askJudge({ ep, settings: st, apiKey, messages, signal, onDelta }) {
  const t0 = performance.now();
  const request = {
    endpoint: ep.baseURL,
    model: st.model,
    messages,
    params: modelParams(st),
  };
  try {
    const res = await busyWhile(chat(request, {
      apiKey,
      policy: INTERACTIVE_POLICY,
      stream: st.stream !== false,
      signal,
      direct: ep.direct,
      onDelta,
    })); // the service worker's precache waits (lib/busy.js)
    return { content: res.content, call: { usage: res.usage, model: res.model, ms: performance.now() - t0, finishReason: res.finishReason } };
  } catch (e) {
    return { error: e instanceof CallError ? e : new CallError(e instanceof Error ? e.message : String(e), { kind: CallKind.NETWORK }) };
  }
}

/**
 * usageLine tells what call cost: its tokens (or that the endpoint reported none), its time and
 * its model.
 * @param {JudgeCall} call
 * @returns {string}
 */
export function usageLine(call) {
  const u = call.usage;
  const parts = [];
  if (u) parts.push(`${u.prompt_tokens ?? "?"} prompt + ${u.completion_tokens ?? "?"} answer = ${u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0)} tokens`);
  else parts.push("the endpoint reported no token usage");
  parts.push(`${(call.ms / 1000).toFixed(1)} s`);
  if (call.model) parts.push(call.model);
  return parts.join(" · ");
}
