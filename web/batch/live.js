// live.js: which rows of a run are in flight right now ("judging…") or waiting to retry
// ("retrying in 2 s"), the one place the Batch view wires to the engine for it. An engine whose
// Runner reports rows (an onRow({index, state, attempt, retryAt}) option and a liveRows() method)
// is read through those; an engine without them through what it does have: onRetry, and the rows
// it has taken from its queue but not finished.

import { LIVE } from "../results/counts.js";
import { LIVE_STATES } from "./states.js";

/** The engine states of a row that is not in flight (not started, or over). */
const NOT_LIVE = new Set(["rendering", "queued", "waiting", "pending", "idle", "done", "finished", "stored", "cancelled"]);

/** The engine states of a row whose calls are over and whose result is being stored. */
const SAVING = new Set(["answered", "saving"]);

/** toEpoch reads a time as Date.now() milliseconds: a performance.now() one is converted. */
function toEpoch(t) {
  if (typeof t !== "number" || !Number.isFinite(t) || t <= 0) return undefined;
  if (t > 1e12) return t;
  return Date.now() + (t - performance.now());
}

/**
 * liveRow turns an engine's report of a row into a LiveRow, or null when the row is not in flight.
 * @param {{state?: string, attempt?: number, retryAt?: number}} info
 * @returns {import("../results/counts.js").LiveRow|null}
 */
export function liveRow(info) {
  const state = String((info && info.state) || "");
  if (NOT_LIVE.has(state)) return null;
  if (SAVING.has(state)) return { state: LIVE.SAVING, attempt: info.attempt, retryAt: undefined };
  const retryAt = toEpoch(info.retryAt);
  const ahead = retryAt !== undefined && retryAt > Date.now();
  // A row waiting to retry stays so until the engine says its call is out again, also once its
  // time has come (its retry may wait for a free slot): only calls out are judging. A call state
  // with a retry time ahead is a wait too.
  const waiting = state.includes("retry") || ahead;
  return { state: waiting ? LIVE.RETRYING : LIVE.JUDGING, attempt: info.attempt, retryAt: ahead ? retryAt : undefined };
}

/** LiveRows follows one Runner's rows in flight. */
export class LiveRows {
  constructor() {
    /** @type {Map<number, import("../results/counts.js").LiveRow>} */
    this.rows = new Map();
    this.runner = null;
    this.todo = [];
    this.reported = false; // the engine reports rows itself (onRow)
    this.watched = null; // a snapshot received from the tab that runs the run
  }

  /**
   * runnerOptions are the Runner options that feed this tracker; onRetry is called on as well.
   * @param {(info: Object) => void} [onRetry]
   */
  runnerOptions(onRetry) {
    return {
      onRow: (info) => {
        this.reported = true;
        const row = liveRow(info);
        if (row) this.rows.set(info.index, row);
        else this.rows.delete(info.index);
      },
      onRetry: (info) => {
        if (!this.reported) this.rows.set(info.index, { state: LIVE.RETRYING, attempt: info.attempt + 1, retryAt: Date.now() + info.delayMs });
        if (onRetry) onRetry(info);
      },
    };
  }

  /** attach follows runner, which runs the rows todo. */
  attach(runner, todo) {
    this.runner = runner;
    this.todo = todo;
    this.rows.clear();
    this.reported = false;
    this.watched = null;
  }

  /**
   * failedCalls is how many attempts of the runner's rows failed with no result to keep them (rows
   * put back in the queue by an outage or a hold): 0 without a runner, or when watching another tab.
   * @returns {number}
   */
  failedCalls() {
    if (this.watched || !this.runner || !this.runner.stats) return 0;
    return this.runner.stats.failedUnstored || 0;
  }

  /** finish forgets a row that has its result. */
  finish(index) {
    this.rows.delete(index);
  }

  /** watch replaces what this tab knows with a snapshot from the tab that runs the run ([index, LiveRow] pairs). */
  watch(pairs) {
    this.watched = new Map(pairs);
  }

  /**
   * snapshot is the rows in flight now, by index.
   * @param {Array<Object|undefined>} results the run's results, to leave out rows that have one
   * @returns {Map<number, import("../results/counts.js").LiveRow>}
   */
  snapshot(results) {
    if (this.watched) return this.watched;
    const r = this.runner;
    if (!r || !LIVE_STATES.has(r.state)) return new Map();
    if (typeof r.liveRows === "function") {
      const out = new Map();
      const list = r.liveRows();
      for (const info of list instanceof Map ? [...list].map(([index, v]) => ({ index, ...v })) : list || []) {
        const row = liveRow(info);
        if (row) out.set(info.index, row);
      }
      return out;
    }
    if (this.reported) return new Map(this.rows);
    // Rows the runner has taken from its queue and not finished are being worked on; it takes a
    // few more than its concurrency (their prompts render while calls are out), and calls go out
    // in the order rows were taken, so the first `concurrency` of them are the ones in flight.
    const queued = new Set(r.queue || []);
    const limit = (r.o && r.o.concurrency) || Infinity;
    const now = Date.now();
    const out = new Map();
    let inFlight = 0;
    for (const i of this.todo) {
      if (queued.has(i) || results[i]) continue;
      const known = this.rows.get(i);
      if (known && known.retryAt && known.retryAt > now) out.set(i, known);
      else if (inFlight < limit) {
        inFlight++;
        out.set(i, { state: LIVE.JUDGING, attempt: known ? known.attempt : 1 });
      }
    }
    return out;
  }
}
