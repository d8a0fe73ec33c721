// asking.js: one question a batch run's Runner (scheduler.js) puts to the judge: answered from the
// cache, from an identical call in flight, or by a call to the endpoint, with its retries, its
// row's live state, the run's token counts and the outage watch told of each attempt.

import { chat } from "../model/llm.js";
import { RunState, RowState, noKeyError } from "./states.js";
import { CallError, CallKind, unreachable } from "../model/callerror.js";

/**
 * askFor gets the judge's answer to messages for runner (a Runner): from the cache, from an identical call in flight, or
 * from the endpoint. repeat is which of the row's repeats asks (0 for the first): it is part of
 * the cache key only, the request sent is the same. judge is which of a jury's judges asks
 * (runner.o.judges[judge]: its endpoint, upstream, model, key), -1 for the run's one judge.
 * @param {any} runner @param {any} messages @param {number} index @param {boolean} [repair] @param {number} [repeat] @param {number} [judge]
 */
export async function askFor(runner, messages, index, repair = false, repeat = 0, judge = -1) {
  const o = runner.o;
  const by = judge >= 0 && o.judges ? o.judges[judge] : o;
  const r0 = by.request;
  const req = { endpoint: r0.endpoint, ...(r0.upstream ? { upstream: r0.upstream } : {}), model: r0.model, messages, params: r0.params || {} };
  const key = await runner.cache.key({ ...req, repeat });
  const hit = o.fresh && o.fresh.has(index) ? null : await runner.cache.lookup(key);
  if (hit) {
    runner.stats.cacheHits++;
    return { ...hit, attempts: 0, cached: true };
  }
  // A row that got here after an outage began does not call a dead endpoint: it goes back to the queue.
  if (runner.state === RunState.OUTAGE) throw new CallError("The call was held for an outage.", { kind: CallKind.ABORTED });
  // Nor does it call without the key the endpoint needs: the run waits for one (../keyguard.js).
  if (by.keyMissing && by.keyMissing()) throw noKeyError();
  const calling = repair ? RowState.REPAIRING : RowState.CALLING;
  const tally = runner.rowCalls.get(index) || { asking: 0, out: 0 };
  runner.rowCalls.set(index, tally);
  let out = false; // this call's attempt is out
  const setOut = (on) => {
    if (on !== out) tally.out += on ? 1 : -1;
    out = on;
  };
  const onRetry = (info) => {
    setOut(false);
    runner.stats.retries++;
    runner.failedAttempt(index);
    if (unreachable(info.error)) runner.unreachableFailure(index, info.error, false);
    else runner.watch.answered();
    // A retry that an outage or a cancel will stop is not reported: it is not going to happen.
    if (runner.state === RunState.CANCELLED || runner.state === RunState.OUTAGE || info.error.kind === CallKind.ABORTED) return;
    if (o.onRetry) o.onRetry({ index, ...info });
    runner.setRow(index, RowState.RETRY_WAIT, { attempt: info.attempt + 1, retryAt: o.clock.now() + info.delayMs, repair, throttled: info.error.status === 429 });
  };
  const onAttempt = (n) => {
    setOut(true);
    if (runner.live.has(index) && runner.state !== RunState.CANCELLED) runner.setRow(index, calling, { attempt: n, repair });
  };
  const apiKey = typeof by.apiKey === "function" ? by.apiKey() : by.apiKey;
  const signal = runner.ctrl.signal;
  tally.asking++;
  if (!tally.out) runner.setRow(index, RowState.WAITING, { repair });
  const p = o.calls
    ? o.calls.call(req, { apiKey, policy: o.policy, signal, onRetry, onAttempt, socket: o.socket, socketCalls: o.socketCalls })
    : chat(req, { fetch: o.fetch, apiKey, policy: o.policy, clock: o.clock, random: o.random, signal, slots: runner.slots, onRetry, onAttempt });
  if (key) runner.cache.inflight.set(key, p);
  try {
    runner.stats.calls++;
    let r;
    try {
      r = await p;
    } catch (e) {
      if (e instanceof CallError && e.kind !== CallKind.ABORTED) {
        runner.failedAttempt(index);
        if (unreachable(e)) e.outage = runner.unreachableFailure(index, e, true);
        else runner.watch.answered();
      }
      throw e;
    }
    runner.watch.answered();
    const usage = r.usage || { prompt_tokens: 0, completion_tokens: 0 };
    runner.stats.promptTokens += usage.prompt_tokens;
    runner.stats.completionTokens += usage.completion_tokens;
    /** @type {Promise<unknown> | null} */
    let written = null;
    if (key) {
      // Written in the background: the row need not wait for the disk to go on (its result does, see runRow).
      written = runner.cache.put(key, { content: r.content, usage, finishReason: r.finishReason, at: o.clock.now() });
      runner.track(written);
    }
    return { ...r, usage, cached: false, written };
  } finally {
    if (key) runner.cache.inflight.delete(key);
    setOut(false);
    tally.asking--;
    if (!tally.asking) runner.rowCalls.delete(index);
    const live = runner.live.get(index);
    // Its last call out is over: the row waits for its other calls, or is read and stored.
    if (!tally.out && live && (live.state === RowState.CALLING || live.state === RowState.REPAIRING) && runner.state !== RunState.CANCELLED) {
      runner.setRow(index, tally.asking ? RowState.WAITING : RowState.ANSWERED, { attempt: live.attempt, repair });
    }
  }
}
