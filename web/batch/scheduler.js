// scheduler.js: runs a batch of rows through a judge with bounded concurrency, the one retry policy
// (llm.js), the request cache, and one repair request per unreadable answer. It is pure: the
// judge (render/parse), fetch, the cache/result store and the clock are injected, so Node tests run
// it without a browser or a model. Every row it starts ends as a result, a verdict or an error,
// unless the run is cancelled while the row is in flight (that row then stays pending, to resume)
// or the row goes back to the queue (a refused key, an outage; see below). The result a row
// leaves, its accounting and its storing are built in rowresult.js.
//
// The Runner's contract for views (additions over the first version are marked +):
//   new Runner(opts), start() -> Promise<"done" | "cancelled">, pause(), resume(), cancel(),
//   setConcurrency(n), state (a RunState), stats, and
//   + reason                the reason object of the last onState
//   + liveRows()            Map index -> RowLive of the rows that are live now (see RowState)
//   + opts.onState(state, reason)   state is a RunState; reason is {by: "user" | "runner", message,
//                           error?, since?, probes?, nextProbeAt?} (see setState)
//   + opts.onRow(live)      live = {index, state, attempt, retryAt, repair}: a row's live state changed
//   + opts.outage           OutageConfig overrides (outage.js); opts.probe: () => Promise<boolean>
//   + RunState.HELD         a refused key (401, 403) or an unknown model or path (404) would fail every
//                           row alike: the row goes back to the queue and the run waits (it was
//                           "paused" with onHold before; onHold still fires). resume() goes on.
//                           So does a call that opts.keyMissing() says would go without the key the
//                           endpoint needs (CallKind.NO_KEY): it is not made.
//   + RunState.OUTAGE       the endpoint is unreachable: the run paused itself, probes, and goes on by
//                           itself when the endpoint answers (resume() tries at once, pause() stops probing)
//   + a failed repair request is an error row (result.error.stage "repair"), not a warning on an
//     undetermined verdict; redoOnResume(result) says which error rows Resume should run again.
//   + the checks the engine adds to a verdict carry a code (RepairCode).
//   + pace()                {limit, chosen, why, holdUntil} (slots.js Pace): how many calls may be in flight
//                           now; fewer than chosen after 429s (AIMD, slots.js); opts.onPace(pace) on each change
//   + a row's result is stored only after its fresh answers are in the cache, so a reload never
//     leaves a stored row whose answer a later run would have to pay for again.
//   + opts.repeats (1 to MAX_REPEATS): each row is judged that many times; its result then holds
//     repeats: [{verdict, answers, repaired}] and verdict is their majority (results/majority.js),
//     answers all the repeats' answers in order. One repeat failing fails the row.
//   + opts.bothOrders, or item.bothOrders for one row: a pairwise row is judged as it is and with its
//     answers exchanged (judge.swap), and the two verdicts combined (judge.combine) into the row's
//     (orders.js); its result (each repeat, with repeats) then holds orders: [first, exchanged], and
//     its answers are the first order's. Each order is a call of its own, cached as any.
//   + opts.judges (two or more) and opts.jury {rule, pass_at?}: a jury (juryrow.js). Each row is
//     judged by each judge ({request: {endpoint, upstream?, model, params}, apiKey, keyMissing}),
//     repeats and both orders per judge; its result holds jury: {rule, members: [...]}, and its
//     verdict is the core's judge.jury of the members. Each judge's calls are cached under its
//     own request, so a row redone pays only the judges that had not answered.

import { realClock, probe as probeEndpoint } from "../model/llm.js";
import { RunCache } from "./cache.js";
import { AdaptiveSlots } from "./slots.js";
import { OutageWatch } from "./outage.js";
import { RenderTurns } from "./turns.js";
import { RunState, RowState, RowErrorKind, holds } from "./states.js";
import { newRowResult, failRow, renderRow, storeResult, carrySpend } from "./rowresult.js";
import { judgeOnce, judgeSingle, judgeRepeats } from "./judging.js";
import { judgeOrders } from "./orders.js";
import { judgeJury } from "./juryrow.js";
import { askFor } from "./asking.js";
import { CallError, CallKind, unreachable } from "../model/callerror.js";

/** MAX_REPEATS: a row is judged at most this many times in one run. */
export const MAX_REPEATS = 10;


/** @typedef {{index: number, state: string, attempt: number, retryAt: number | null, repair: boolean}} RowLive */

/**
 * Runner runs the rows `todo` (indices into items) and reports each result through onResult as
 * soon as it is stored. `concurrency` bounds the judge calls in flight; a few more rows than that
 * are started, so that their prompts are rendered and looked up in the cache while the calls are
 * out, and a call that ends is followed by the next one at once. Options:
 *   items: [{inputs} | {error}]   judge: {render(inputs) -> {messages}, parse(inputs, text) -> verdict}
 *   request: {endpoint, model, params}   apiKey (a string, or a function read at each call)   concurrency (default 8)
 *   keyMissing: () => boolean, read before each call: true holds the run instead of calling without a key
 *   cache: {cacheGet(key), cachePut(key, value)} or null   useCache (default true)   readCache (default true;
 *   false re-asks the judge but still refreshes the cache)   fresh: a Set of rows that are asked
 *   again rather than answered from the cache (runrecords.js askedAfresh: a retry of undetermined rows)
 *   store: {putResult(result)} or null   runId   fetch, clock, random, policy (llm.js)
 *   prior: (index) => the row's stored result, when it is run again (Retry, Ask again, Resume): its
 *   calls and tokens are carried into the new result's earlier (rowresult.js carrySpend)
 *   repeats: how many times each row is judged (default 1; see judging.js)
 *   bothOrders: judge every row in both orders (orders.js); judge then has swap(inputs) and combine(first, second)
 *   socket: the dev server's calls socket URL (socket.js), for the calls client's worker to use;
 *   socketCalls: the most calls that socket takes (/ragjudge/config's socket_calls)
 *   calls: a calls.js CallClient, or null: the calls are then made on this thread. With one, the client
 *   (its worker) bounds the calls in flight, so a slot is free again as soon as a response is read,
 *   not when this thread next gets to it; the look-ahead is then a whole concurrency's worth of rows.
 *   onResult(result), onRetry({index, attempt, delayMs, error}), onState(state, reason), onRow(live)
 *   onHold(error): the run is HELD because of error (see RunState.HELD); resume() goes on.
 *   outage: OutageConfig overrides (outage.js)   probe: () => Promise<boolean>, true when the endpoint
 *   can be reached (default: GET models through llm.js probe, with this run's fetch and key)
 */
export class Runner {
  constructor(opts) {
    this.o = { concurrency: 8, useCache: true, readCache: true, clock: realClock, ...opts };
    this.queue = [...opts.todo];
    /** @type {string} a RunState */
    this.state = RunState.IDLE;
    /** @type {{by: string, message: string, [k: string]: any} | null} */
    this.reason = null;
    this.active = 0;
    this.ctrl = new AbortController(); // replaced when an outage aborts the calls in flight
    this.stats = { started: 0, finished: 0, calls: 0, cacheHits: 0, retries: 0, repairs: 0, promptTokens: 0, completionTokens: 0, requeued: 0, outages: 0, probes: 0, failedUnstored: 0 };
    // The attempts of each row's current try that failed (retried or final). A row that ends keeps
    // them in its result (attempts); a row put back in the queue (an outage, a hold) has no result,
    // so its failed attempts move to stats.failedUnstored, for the page to count calls honestly.
    /** @type {Map<number, number>} */
    this.tryFailed = new Map();
    this.turns = new RenderTurns();
    this.cache = new RunCache(this.o.cache, { use: !!this.o.useCache, read: !!this.o.readCache });
    // The calls in flight and their AIMD limit: here when the calls are made on this thread, in
    // the call worker otherwise (which reports its pace through the client).
    this.slots = new AdaptiveSlots(this.o.concurrency, { clock: this.o.clock, onChange: (pace) => this.paceChanged(pace) });
    /** @type {import("./slots.js").Pace} */
    this.lastPace = this.slots.pace();
    if (this.o.calls) {
      this.o.calls.onPace = (pace) => this.paceChanged(pace);
      this.o.calls.setLimit(this.o.concurrency);
    }
    // Rows waiting out a 429's Retry-After hold no call slot, and the endpoint is answering: they do
    // not count against the look-ahead, or a few seconds' wait would leave the calls nothing to do.
    /** @type {Set<number>} */
    this.throttled = new Set();
    this.persisting = new Set();
    /** @type {Map<number, RowLive>} */
    this.live = new Map();
    // Each row's calls not yet answered: asking (looked up, not answered from the cache) and out
    // (started upstream, not over). A row is CALLING only while one of its calls is out, so the
    // rows said to be judging are never more than the calls in flight.
    /** @type {Map<number, {asking: number, out: number}>} */
    this.rowCalls = new Map();
    this.watch = new OutageWatch(this.o.outage, this.o.clock);
    /** @type {(state: string) => void} */
    this.resolveDone = () => {};
  }

  /** start runs until every row is done or the run is cancelled; resolves to the final state. */
  async start() {
    if (this.state !== RunState.IDLE) throw new Error("Runner.start: already started");
    this.setState(RunState.RUNNING, { by: "user", message: "Running." });
    this.doneP = new Promise((resolve) => (this.resolveDone = resolve));
    this.cache.start(); // read while the first rows render
    this.fill();
    this.finishIfEmpty();
    return this.doneP;
  }

  /**
   * setState changes the state and tells onState why: reason.by says who ("user" or "runner"),
   * reason.message says it in a sentence; HELD and OUTAGE add error (a stored-error object), OUTAGE
   * also since, probes and nextProbeAt (clock times).
   */
  setState(s, reason = { by: "runner", message: "" }) {
    this.state = s;
    this.reason = reason;
    if (this.o.onState) this.o.onState(s, reason);
  }

  /** liveRows returns index -> {index, state, attempt, retryAt, repair} for every live row. */
  liveRows() {
    return new Map(this.live);
  }

  /** pace is how many calls may be in flight now, of how many chosen, and why fewer (slots.js Pace). */
  pace() {
    return this.lastPace;
  }

  paceChanged(pace) {
    this.lastPace = pace;
    if (this.o.onPace) this.o.onPace(pace);
  }

  setRow(index, state, { attempt = 0, retryAt = null, repair = false, throttled = false } = {}) {
    const live = { index, state, attempt, retryAt, repair };
    const wasThrottled = this.throttled.has(index);
    if (state === RowState.RETRY_WAIT && throttled) this.throttled.add(index);
    else this.throttled.delete(index);
    if (state === RowState.IDLE) this.live.delete(index);
    else this.live.set(index, live);
    if (this.o.onRow) this.o.onRow(live);
    if (this.throttled.has(index) && !wasThrottled) this.fill();
  }

  fill() {
    const lookahead = this.o.calls ? 2 * this.o.concurrency : Math.max(2, Math.ceil(this.o.concurrency / 4));
    const parked = Math.min(this.throttled.size, 4 * this.o.concurrency);
    while (this.state === RunState.RUNNING && this.active - parked < this.o.concurrency + lookahead && this.queue.length > 0) {
      const index = this.queue.shift();
      this.active++;
      this.stats.started++;
      this.runRow(index).then(
        () => this.afterRow(),
        (e) => {
          // runRow turns every failure into a result; reaching here is a bug, surfaced, not swallowed.
          console.error("batch: row", index, e);
          this.afterRow();
        },
      );
    }
  }

  afterRow() {
    this.active--;
    if (this.state === RunState.CANCELLED) {
      if (this.active === 0) Promise.all([...this.persisting]).then(() => this.resolveDone(RunState.CANCELLED));
      return;
    }
    this.fill();
    this.finishIfEmpty();
  }

  finishIfEmpty() {
    if (this.queue.length === 0 && this.active === 0 && (this.state === RunState.RUNNING || this.state === RunState.PAUSED)) this.finish();
  }

  async finish() {
    if (this.state === RunState.DONE || this.finishing) return;
    this.finishing = true;
    // Every result is stored before the run says it is done; the last ones are written at once
    // rather than after the store's coalescing delay.
    if (this.o.store && typeof this.o.store.flush === "function") this.o.store.flush().catch(() => {});
    while (this.persisting.size) await Promise.all([...this.persisting]);
    this.setState(RunState.DONE, { by: "runner", message: "Every row has a verdict or an error." });
    this.resolveDone(RunState.DONE);
  }

  /** pause starts no new row; rows in flight finish and are stored. Pausing an outage stops its probes. */
  pause() {
    if (this.state !== RunState.RUNNING && this.state !== RunState.HELD && this.state !== RunState.OUTAGE) return;
    this.watch.stop();
    this.setState(RunState.PAUSED, { by: "user", message: "Paused: calls in flight finish, no new ones start." });
    this.finishIfEmpty();
  }

  /** resume goes on after a pause or a hold; during an outage it tries at once instead of waiting for the next probe. */
  resume() {
    if (this.state !== RunState.PAUSED && this.state !== RunState.HELD && this.state !== RunState.OUTAGE) return;
    if (this.state === RunState.OUTAGE) this.watch.recovered();
    else this.watch.answered();
    this.setState(RunState.RUNNING, { by: "user", message: "Running." });
    this.fill();
    this.finishIfEmpty();
  }

  /** cancel aborts the calls in flight; unfinished rows stay pending (a later resume runs them). */
  cancel() {
    if (this.state === RunState.DONE || this.state === RunState.CANCELLED) return;
    const wasIdle = this.active === 0;
    this.watch.stop();
    this.setState(RunState.CANCELLED, { by: "user", message: "Cancelled: unfinished rows can be resumed." });
    this.ctrl.abort();
    for (const index of [...this.live.keys()]) this.setRow(index, RowState.IDLE);
    if (wasIdle && this.resolveDone) this.resolveDone(RunState.CANCELLED);
  }

  setConcurrency(n) {
    this.o.concurrency = Math.max(1, Math.min(64, Math.floor(n) || 1));
    this.slots.setChosen(this.o.concurrency);
    if (this.o.calls) this.o.calls.setLimit(this.o.concurrency);
    this.fill();
  }

  /** requeue puts row index back at the front of the queue, to run when the run goes on. */
  requeue(index) {
    this.queue.unshift(index);
    this.stats.requeued++;
    this.setRow(index, RowState.QUEUED);
  }

  /**
   * unreachableFailure is told of every failed attempt that could not reach the endpoint (final:
   * the row's last) and says whether the run is, now or already, in an outage.
   */
  unreachableFailure(index, error, final) {
    if (this.state === RunState.OUTAGE) return true;
    if (this.state !== RunState.RUNNING) return false;
    // As many rows as calls may be out: at the end of a run, one row failing alone after the others
    // were answered is that row's trouble, not an outage.
    if (!this.watch.failed(index, { final, calling: this.o.concurrency })) return false;
    this.startOutage(index, error);
    return true;
  }

  /**
   * startOutage pauses the run for an outage: rows that ran out of attempts during it go back to
   * the queue, the calls in flight are aborted (their rows go back too: waiting on a dead endpoint
   * only burns their attempts), and the probes begin; the first one answered resumes the run.
   */
  startOutage(index, error) {
    for (const i of this.watch.trip()) if (i !== index) this.requeue(i);
    this.stats.outages++;
    const since = this.o.clock.now();
    const stored = error instanceof CallError ? error.toJSON() : null;
    const message = "The endpoint is unreachable; resuming when it answers.";
    const o = this.o;
    this.watch.probeUntil({
      probe: () => {
        this.stats.probes++;
        if (o.probe) return o.probe();
        // Without the key the endpoint needs, no probe goes either: the run goes on and waits for the key.
        if (o.keyMissing && o.keyMissing()) return Promise.resolve(true);
        const apiKey = typeof o.apiKey === "function" ? o.apiKey() : o.apiKey;
        return probeEndpoint({ endpoint: o.request.endpoint, apiKey, fetch: o.fetch, clock: o.clock, timeoutMs: this.watch.cfg.probeTimeoutMs });
      },
      stillOut: () => this.state === RunState.OUTAGE,
      waiting: (nextProbeAt) => this.setState(RunState.OUTAGE, { by: "runner", message, error: stored, since, probes: this.watch.probes, nextProbeAt }),
      answered: () => {
        this.setState(RunState.RUNNING, { by: "runner", message: "The endpoint answers again: the run goes on." });
        this.fill();
        this.finishIfEmpty();
      },
    });
    const old = this.ctrl;
    this.ctrl = new AbortController();
    old.abort();
  }

  /**
   * ask gets the judge's answer to messages (asking.js askFor). repeat is which of the row's
   * repeats asks (0 for the first): it is part of the cache key only; judge which of a jury's
   * judges asks (-1: the run's one judge).
   */
  ask(messages, index, repair = false, repeat = 0, judge = -1) {
    return askFor(this, messages, index, repair, repeat, judge);
  }

  /** failedAttempt counts one attempt of row index that went out and got no answer. */
  failedAttempt(index) {
    this.tryFailed.set(index, (this.tryFailed.get(index) || 0) + 1);
  }

  /** requeueFailed puts row index back in the queue, its try's failed attempts counted as unstored. */
  requeueFailed(index) {
    this.stats.failedUnstored += this.tryFailed.get(index) || 0;
    this.tryFailed.delete(index);
    this.requeue(index);
  }

  /** runRow turns one row into a stored result, or puts it back in the queue; it does not throw. */
  async runRow(index) {
    const o = this.o;
    this.tryFailed.delete(index);
    const t0 = o.clock.now();
    const item = o.items[index] || { error: "this row does not exist" };
    const result = newRowResult(o.runId, index);
    /** @type {Promise<unknown>[]} */
    const cacheWrites = [];
    let stage = "call";
    try {
      if (item.error) throw new CallError(item.error, { kind: RowErrorKind.INPUT });
      this.setRow(index, RowState.RENDERING);
      await this.turns.take();
      const rendered = renderRow(o.judge, item.inputs);
      const repeats = Math.max(1, Math.min(MAX_REPEATS, Math.floor(o.repeats || 1)));
      // A pairwise row judged in both orders (orders.js): each judgement is two.
      const once = o.bothOrders || item.bothOrders ? judgeOrders : judgeOnce;
      const r =
        o.judges && o.judges.length > 1
          ? await judgeJury(this, item, rendered, index, repeats, result, cacheWrites, once)
          : repeats === 1
          ? await judgeSingle(this, item, rendered, index, result, cacheWrites, once)
          : await judgeRepeats(this, item, rendered, index, repeats, result, cacheWrites, once);
      stage = r.stage;
      if (r.error) throw r.error;
    } catch (e) {
      const call = e instanceof CallError;
      if (call && e.kind === CallKind.ABORTED) {
        // Cancelled: the row stays pending. Aborted by an outage: it runs again when the run goes on.
        if (this.state !== RunState.CANCELLED) this.requeueFailed(index);
        else this.stats.failedUnstored += this.tryFailed.get(index) || 0;
        return;
      }
      if (call && unreachable(e) && (e.outage || this.state === RunState.OUTAGE)) return this.requeueFailed(index);
      if (call && holds(e) && this.state !== RunState.CANCELLED) {
        this.requeueFailed(index);
        if (this.state === RunState.RUNNING) this.setState(RunState.HELD, { by: "runner", message: e.message, error: e.toJSON() });
        if (o.onHold) o.onHold(e);
        return;
      }
      failRow(result, e, stage);
    }
    this.tryFailed.delete(index);
    carrySpend(result, o.prior ? o.prior(index) : null);
    result.ms = o.clock.now() - t0;
    result.finishedAt = Date.now();
    // The row's slot is free now; its result is reported once it is stored, and the run is not
    // done until every result is.
    this.track(
      (async () => {
        if (o.store) await storeResult(o.store, result, cacheWrites, () => !!this.finishing);
        this.stats.finished++;
        const live = this.live.get(index);
        if (live && live.state !== RowState.QUEUED) this.setRow(index, RowState.IDLE);
        if (o.onResult) o.onResult(result);
      })(),
    );
  }

  track(p) {
    this.persisting.add(p);
    p.finally(() => this.persisting.delete(p));
  }
}
