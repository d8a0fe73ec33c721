// slots.js: how many judge calls a run has in flight. Slots is a plain counting semaphore;
// AdaptiveSlots adds the run's answer to rate limits (AIMD, additive increase and multiplicative
// decrease, as TCP and Arize Phoenix's evaluators do): the run starts at the chosen concurrency, a
// 429 halves the calls allowed in flight (not below 1), and each answered call gives one back, up
// to the chosen number. Both the page (scheduler.js) and the call worker (calls.js) use it, through
// llm.js chat's `slots` option, which takes a slot for each attempt and gives it back when the
// attempt's answer is read: a call waiting to retry holds no slot, so the others go on.

import { realClock } from "../model/llm.js";

/**
 * Slots is a counting semaphore whose limit can change while it is held: the number of judge
 * calls in flight.
 */
export class Slots {
  constructor(limit) {
    this.limit = limit;
    this.used = 0;
    this.waiters = [];
  }
  acquire() {
    if (this.used < this.limit) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release() {
    this.used--;
    this.wake();
  }
  setLimit(n) {
    this.limit = n;
    this.wake();
  }
  wake() {
    while (this.used < this.limit && this.waiters.length) {
      this.used++;
      this.waiters.shift()();
    }
  }
}

/**
 * KEY_HOLD_AFTER: this many 429 answers in a row, with no other answer between, say the provider
 * throttles the whole key, not a few calls: then the last one's Retry-After holds every call of
 * the run, not only its own. Fewer are bad luck (at 10% of calls answered 429, six in a row come
 * once in a million answers; at 20%, once in 16,000), and the halving already slows the run down.
 * A key that is throttled answers every call 429, so at 16 calls in flight six come within one
 * round trip.
 */
export const KEY_HOLD_AFTER = 6;

/** PaceWhy: why a run has fewer calls in flight than chosen. */
export const PaceWhy = Object.freeze({
  /** the endpoint answered 429 (rate limited): AIMD halved the limit */
  THROTTLED: "429",
  /** the browser keeps at most 6 HTTP/1.1 connections to the endpoint's host */
  HTTP1: "http1",
});

/**
 * @typedef {object} Pace
 * @property {number} limit   calls allowed in flight now
 * @property {number} chosen  the run's chosen concurrency
 * @property {string | null} why  a PaceWhy when limit < chosen
 * @property {number} holdUntil clock time until which every call waits (a key-wide 429), 0 if none
 */

/**
 * AdaptiveSlots bounds the calls in flight with a limit that AIMD moves between 1 and the chosen
 * concurrency. acquire() resolves to a token (the number of halvings so far) that release() takes
 * back with the attempt's outcome: "ok" (answered) adds one to the limit; "throttled" (429) halves
 * it, once for all the calls that were already out when the first of their 429s came (they met
 * the same congestion); anything else leaves it. A key-wide hold (KEY_HOLD_AFTER) makes every
 * acquire wait until it passes. `answered` counts answered calls: chat reads it to tell a 429 storm
 * in which others still get answers (the row keeps its attempts) from an endpoint that answers none.
 */
export class AdaptiveSlots {
  /**
   * @param {number} chosen
   * @param {{clock?: typeof realClock, ahead?: (limit: number) => number, onChange?: (pace: Pace) => void}} [o]
   *   ahead: calls allowed beyond the limit (sent on to wait on the dev server, calls.js)
   */
  constructor(chosen, { clock = realClock, ahead = () => 0, onChange = () => {} } = {}) {
    this.chosen = chosen;
    this.limit = chosen;
    this.used = 0;
    /** @type {{resolve: (epoch: number) => void, reject: (e: any) => void, signal: AbortSignal | null, onAbort: () => void}[]} */
    this.waiters = [];
    this.epoch = 0;
    this.answered = 0;
    this.throttledInRow = 0;
    this.holdUntil = 0;
    this.holdTimer = null;
    this.clock = clock;
    this.ahead = ahead;
    this.onChange = onChange;
    this.halvings = 0;
  }

  /** capacity is how many slots may be taken now: the limit, plus the calls sent ahead. */
  capacity() {
    return this.limit + this.ahead(this.limit);
  }

  /** pace says how many calls may be in flight now, out of how many chosen, and why fewer. */
  pace() {
    return { limit: this.limit, chosen: this.chosen, why: this.limit < this.chosen ? PaceWhy.THROTTLED : null, holdUntil: this.holdUntil > this.clock.now() ? this.holdUntil : 0 };
  }

  /**
   * acquire resolves to a token once a slot is free (and no key-wide hold is on); it rejects with
   * signal's reason (an AbortError) if signal aborts first.
   * @param {AbortSignal | null} [signal]
   * @returns {Promise<number>}
   */
  acquire(signal = null) {
    if (signal && signal.aborted) return Promise.reject(abortReason(signal));
    if (!this.held() && this.used < this.capacity() && this.waiters.length === 0) {
      this.used++;
      return Promise.resolve(this.epoch);
    }
    return new Promise((resolve, reject) => {
      const w = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(abortReason(/** @type {AbortSignal} */ (signal)));
        },
      };
      if (signal) signal.addEventListener("abort", w.onAbort, { once: true });
      this.waiters.push(w);
      this.wake();
    });
  }

  /**
   * release gives a slot back with what its attempt met.
   * @param {number} token  what acquire resolved to
   * @param {"ok" | "throttled" | "other" | "aborted"} outcome
   * @param {number} [waitMs]  a throttled call's wait before its retry (its Retry-After, or backoff)
   */
  release(token, outcome, waitMs = 0) {
    this.used--;
    const before = this.limit;
    if (outcome === "ok") {
      this.answered++;
      this.throttledInRow = 0;
      if (this.limit < this.chosen) this.limit++;
    } else if (outcome === "throttled") {
      this.throttledInRow++;
      if (token === this.epoch && this.limit > 1) {
        this.limit = Math.max(1, Math.floor(this.limit / 2));
        this.epoch++;
        this.halvings++;
      }
      if (this.throttledInRow >= KEY_HOLD_AFTER && waitMs > 0) this.hold(this.clock.now() + waitMs);
    } else if (outcome === "other") {
      this.throttledInRow = 0;
    }
    if (this.limit !== before) this.changed();
    // The next waiting call goes out a moment later, so that the answer that freed the slot is
    // reported first (the call worker posts it when chat returns): no more calls read as out than the limit.
    queueMicrotask(() => this.wake());
  }

  /** hold makes every call wait until time `until` (clock time): the provider throttles the key. */
  hold(until) {
    if (until <= this.holdUntil) return;
    this.holdUntil = until;
    if (this.holdTimer !== null) this.clock.clearTimeout(this.holdTimer);
    this.holdTimer = this.clock.setTimeout(() => {
      this.holdTimer = null;
      this.changed();
      this.wake();
    }, until - this.clock.now());
    this.changed();
  }

  held() {
    return this.holdUntil > this.clock.now();
  }

  /**
   * setChosen sets the chosen concurrency (the user's): a run that was not slowed down goes to it
   * at once; one that was stays where it is (below the new number) and grows back by answers.
   * @param {number} n
   */
  setChosen(n) {
    const was = this.limit >= this.chosen;
    this.chosen = n;
    this.limit = was ? n : Math.min(this.limit, n);
    this.changed();
    this.wake();
  }

  changed() {
    this.onChange(this.pace());
  }

  wake() {
    while (!this.held() && this.used < this.capacity() && this.waiters.length) {
      const w = /** @type {NonNullable<ReturnType<typeof this.waiters.shift>>} */ (this.waiters.shift());
      if (w.signal) w.signal.removeEventListener("abort", w.onAbort);
      this.used++;
      w.resolve(this.epoch);
    }
  }
}

/** abortReason is what an aborted wait for a slot rejects with: fetch's AbortError. */
function abortReason(/** @type {AbortSignal} */ signal) {
  const r = signal.reason;
  if (r instanceof Error && r.name === "AbortError") return r;
  const e = new Error("The call was aborted.");
  e.name = "AbortError";
  return e;
}
