// engine.js: runs a batch of rows through a judge with bounded concurrency, the one retry policy
// (llm.js), the request cache, and one repair request per unreadable answer. It is pure: the
// judge (render/parse), fetch, the cache/result store and the clock are injected, so Node tests run
// it without a browser or a model. Every row it starts ends as a result, a verdict or an error,
// unless the run is cancelled while the row is in flight (that row then stays pending, to resume)
// or the row goes back to the queue (a refused key, an outage; see below).
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
//   + RunState.OUTAGE       the endpoint is unreachable: the run paused itself, probes, and goes on by
//                           itself when the endpoint answers (resume() tries at once, pause() stops probing)
//   + a failed repair request is an error row (result.error.stage "repair"), not a warning on an
//     undetermined verdict; redoOnResume(result) says which error rows Resume should run again.
//   + the checks the engine adds to a verdict carry a code (RepairCode).

import { chat, CallError, CallKind, realClock, unreachable, retryableStatus, probe as probeEndpoint } from "../llm.js";
import { cacheKey } from "./cache.js";
import { needsRepair } from "./status.js";
import { Slots } from "./slots.js";
import { OutageWatch } from "./outage.js";

/** RunState: a Runner's states. onState(state, reason) fires on each change (and on each failed probe). */
export const RunState = Object.freeze({
  IDLE: "idle",
  RUNNING: "running",
  /** paused by the user: rows in flight finish, no new row starts. */
  PAUSED: "paused",
  /** waiting for the user: the key was refused or the model is unknown (reason.error says which). */
  HELD: "held",
  /** the endpoint is unreachable: the run paused itself and goes on when a probe is answered. */
  OUTAGE: "outage",
  DONE: "done",
  CANCELLED: "cancelled",
});

/** LIVE_STATES: a run in one of these holds rows that resume() (or the run itself) will judge. */
export const LIVE_STATES = Object.freeze(new Set([RunState.RUNNING, RunState.PAUSED, RunState.HELD, RunState.OUTAGE]));

/**
 * RowState: what a row is doing now, for a table that says "judging…" or "retrying in 2 s".
 * A row that is not live (never started, finished, cancelled) has no entry in liveRows().
 */
export const RowState = Object.freeze({
  /** waiting for its turn to render, rendering its prompt, looking it up in the cache */
  RENDERING: "rendering",
  /** its judge call is out (attempt says which) */
  CALLING: "calling",
  /** an attempt failed; attempt goes out at retryAt (clock time, Date.now() in the page) */
  RETRY_WAIT: "retry-wait",
  /** the repair request (one per unreadable answer) is out */
  REPAIRING: "repairing",
  /** put back in the queue by a hold or an outage: it runs again when the run goes on */
  QUEUED: "queued",
  /** no longer live: its result is about to be reported, or the run was cancelled (onRow only) */
  IDLE: "idle",
});

/** RowErrorKind: a row error that is not a call's (those carry a CallKind). */
export const RowErrorKind = Object.freeze({
  /** the row's inputs are missing or invalid */
  INPUT: "input",
  /** the prompt could not be rendered */
  RENDER: "render",
  /** the verdict could not be computed from the answer */
  PARSE: "parse",
  /** a bug */
  INTERNAL: "internal",
});

/** RepairCode: the codes of the checks the engine adds to a verdict after a repair request. */
export const RepairCode = Object.freeze({
  /** warning: the first answer could not be read; the verdict is from the judge's corrected answer */
  USED: "repair.used",
  /** warning: asked once to correct its format, the judge still answered unreadably */
  UNREADABLE: "repair.unreadable",
});

const HOLD_STATUSES = [401, 403, 404];

/**
 * redoOnResume tells whether a stored row should be run again by Resume (not only by "Retry
 * failed rows"): its call or repair request failed for a reason that is not the judge's nor the
 * row's (network, timeout, 5xx, 429, a refused key, a cancelled call…). A 400 or 413 for this
 * row's request, bad inputs, a prompt that does not render, or any verdict are not.
 * @param {{error?: {kind: string, status?: number} | null} | null | undefined} result
 * @returns {boolean}
 */
export function redoOnResume(result) {
  const e = result && result.error;
  if (!e) return false;
  if (Object.values(RowErrorKind).includes(e.kind)) return false;
  if (e.kind !== CallKind.HTTP) return true;
  const s = e.status || 0;
  return retryableStatus(s) || HOLD_STATUSES.includes(s);
}

/**
 * repairPrompt is the follow-up message that shows the judge why its answer could not be read.
 * The checks' messages are for the judge to read; nothing here decides from them.
 * @param {{checks?: {severity: string, message: string}[]}} verdict
 * @returns {string}
 */
export function repairPrompt(verdict) {
  const errors = (verdict.checks || []).filter((c) => c.severity === "error").map((c) => c.message);
  return (
    "Your answer above could not be read: " +
    errors.join("; ") +
    "\nReply again with the corrected answer only, in exactly the output format the instructions above ask for, " +
    "with nothing before or after it."
  );
}

/** yieldToLoop lets the browser paint and handle input between chunks of synchronous work. */
export function yieldToLoop() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") return globalThis.scheduler.yield();
  return new Promise((r) => setTimeout(r, 0));
}

export { Slots };

/**
 * @typedef {{index: number, state: string, attempt: number, retryAt: number | null, repair: boolean}} RowLive
 */

/**
 * Runner runs the rows `todo` (indices into items) and reports each result through onResult as
 * soon as it is stored. `concurrency` bounds the judge calls in flight; a few more rows than that
 * are started, so that their prompts are rendered and looked up in the cache while the calls are
 * out, and a call that ends is followed by the next one at once. Options:
 *   items: [{inputs} | {error}]   judge: {render(inputs) -> {messages}, parse(inputs, text) -> verdict}
 *   request: {endpoint, model, params}   apiKey (a string, or a function read at each call)   concurrency (default 8)
 *   cache: {cacheGet(key), cachePut(key, value)} or null   useCache (default true)   readCache (default true;
 *   false re-asks the judge but still refreshes the cache, for "retry failed rows")
 *   store: {putResult(result)} or null   runId   fetch, clock, random, policy (llm.js)
 *   socket: the dev server's calls socket URL (socket.js), for the calls client's worker to use
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
    this.state = RunState.IDLE;
    this.reason = null;
    this.active = 0;
    this.ctrl = new AbortController(); // replaced when an outage aborts the calls in flight
    this.gate = { until: 0 };
    this.inflight = new Map();
    this.stats = { started: 0, finished: 0, calls: 0, cacheHits: 0, retries: 0, repairs: 0, promptTokens: 0, completionTokens: 0, requeued: 0, outages: 0, probes: 0 };
    this.turns = []; // rows waiting for their turn to render (renderTurn)
    this.turning = null;
    this.known = null; // cache keys known to exist, so a miss costs no IndexedDB read
    this.knownP = null; // the read of those keys
    this.written = new Set(); // keys this run stored before that read was back
    this.slots = new Slots(this.o.concurrency);
    if (this.o.calls) this.o.calls.setLimit(this.o.concurrency);
    this.persisting = new Set();
    /** @type {Map<number, RowLive>} */
    this.live = new Map();
    this.watch = new OutageWatch(this.o.outage, this.o.clock);
    this.outage = null; // {since, error, nextProbeAt} while OUTAGE
  }

  /** start runs until every row is done or the run is cancelled; resolves to the final state. */
  async start() {
    if (this.state !== RunState.IDLE) throw new Error("Runner.start: already started");
    this.setState(RunState.RUNNING, { by: "user", message: "Running." });
    this.doneP = new Promise((resolve) => (this.resolveDone = resolve));
    if (this.o.cache && this.o.useCache && this.o.readCache && typeof this.o.cache.cacheKeys === "function") {
      // Read while the first rows render: ask() waits for it only when it has a key to look up.
      this.knownP = this.o.cache.cacheKeys().then(
        (keys) => {
          for (const k of this.written) keys.add(k);
          this.known = keys;
        },
        () => (this.known = null), // fall back to asking the store for every key
      );
    }
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

  setRow(index, state, { attempt = 0, retryAt = null, repair = false } = {}) {
    const live = { index, state, attempt, retryAt, repair };
    if (state === RowState.IDLE) this.live.delete(index);
    else this.live.set(index, live);
    if (this.o.onRow) this.o.onRow(live);
  }

  /** calling counts the rows with a call out (or waiting to retry one). */
  calling() {
    let n = 0;
    for (const r of this.live.values()) if (r.state === RowState.CALLING || r.state === RowState.RETRY_WAIT || r.state === RowState.REPAIRING) n++;
    return n;
  }

  fill() {
    const lookahead = this.o.calls ? 2 * this.o.concurrency : Math.max(2, Math.ceil(this.o.concurrency / 4));
    while (this.state === RunState.RUNNING && this.active < this.o.concurrency + lookahead && this.queue.length > 0) {
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
    this.outage = null;
    this.setState(RunState.PAUSED, { by: "user", message: "Paused: calls in flight finish, no new ones start." });
    this.finishIfEmpty();
  }

  /** resume goes on after a pause or a hold; during an outage it tries at once instead of waiting for the next probe. */
  resume() {
    if (this.state !== RunState.PAUSED && this.state !== RunState.HELD && this.state !== RunState.OUTAGE) return;
    if (this.state === RunState.OUTAGE) this.watch.recovered();
    else this.watch.answered();
    this.outage = null;
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
    this.slots.setLimit(this.o.concurrency);
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
    if (!this.watch.failed(index, { final, calling: this.calling() })) return false;
    this.startOutage(index, error);
    return true;
  }

  /**
   * startOutage pauses the run for an outage: rows that ran out of attempts during it go back to
   * the queue, the calls in flight are aborted (their rows go back too: waiting on a dead endpoint
   * only burns their attempts), and the first probe is scheduled.
   */
  startOutage(index, error) {
    for (const i of this.watch.trip()) if (i !== index) this.requeue(i);
    this.stats.outages++;
    this.outage = { since: this.o.clock.now(), error: error instanceof CallError ? error.toJSON() : null, nextProbeAt: 0 };
    this.scheduleProbe();
    const old = this.ctrl;
    this.ctrl = new AbortController();
    old.abort();
  }

  scheduleProbe() {
    this.outage.nextProbeAt = this.watch.schedule(() => this.runProbe());
    this.setState(RunState.OUTAGE, {
      by: "runner",
      message: "The endpoint is unreachable; resuming when it answers.",
      error: this.outage.error,
      since: this.outage.since,
      probes: this.watch.probes,
      nextProbeAt: this.outage.nextProbeAt,
    });
  }

  async runProbe() {
    if (this.state !== RunState.OUTAGE) return;
    let ok = false;
    try {
      const apiKey = typeof this.o.apiKey === "function" ? this.o.apiKey() : this.o.apiKey;
      ok = this.o.probe
        ? await this.o.probe()
        : await probeEndpoint({ endpoint: this.o.request.endpoint, apiKey, fetch: this.o.fetch, clock: this.o.clock, timeoutMs: this.watch.cfg.probeTimeoutMs });
    } catch {
      ok = false;
    }
    this.stats.probes++;
    this.watch.probes++;
    if (this.state !== RunState.OUTAGE) return;
    if (!ok) return this.scheduleProbe();
    this.watch.recovered();
    this.outage = null;
    this.setState(RunState.RUNNING, { by: "runner", message: "The endpoint answers again: the run goes on." });
    this.fill();
    this.finishIfEmpty();
  }

  /** ask gets the judge's answer to messages: from the cache, from an identical call in flight, or from the endpoint. */
  async ask(messages, index, repair = false) {
    const o = this.o;
    const req = { endpoint: o.request.endpoint, model: o.request.model, messages, params: o.request.params || {} };
    const key = o.cache && o.useCache ? await cacheKey(req) : null;
    if (key && o.readCache) {
      if (this.knownP) await this.knownP;
      const hit = !this.known || this.known.has(key) ? await o.cache.cacheGet(key) : null;
      if (hit && typeof hit.content === "string") {
        this.stats.cacheHits++;
        return { content: hit.content, usage: hit.usage || null, finishReason: hit.finishReason || null, attempts: 0, cached: true };
      }
      if (this.inflight.has(key)) {
        const r = await this.inflight.get(key);
        this.stats.cacheHits++;
        return { ...r, attempts: 0, cached: true };
      }
    }
    const calling = repair ? RowState.REPAIRING : RowState.CALLING;
    const onRetry = (info) => {
      this.stats.retries++;
      if (o.onRetry) o.onRetry({ index, ...info });
      if (unreachable(info.error)) this.unreachableFailure(index, info.error, false);
      else this.watch.answered();
      if (this.state !== RunState.CANCELLED && this.state !== RunState.OUTAGE && info.error.kind !== CallKind.ABORTED)
        this.setRow(index, RowState.RETRY_WAIT, { attempt: info.attempt + 1, retryAt: o.clock.now() + info.delayMs, repair });
    };
    const onAttempt = (n) => {
      if (this.live.has(index)) this.setRow(index, calling, { attempt: n, repair });
    };
    const apiKey = typeof o.apiKey === "function" ? o.apiKey() : o.apiKey;
    const signal = this.ctrl.signal;
    let p;
    if (o.calls) {
      this.setRow(index, calling, { attempt: 1, repair });
      p = o.calls.call(req, { apiKey, policy: o.policy, signal, onRetry, onAttempt, socket: o.socket });
    } else {
      await this.slots.acquire();
      this.setRow(index, calling, { attempt: 1, repair });
      p = chat(req, { fetch: o.fetch, apiKey, policy: o.policy, clock: o.clock, random: o.random, signal, gate: this.gate, onRetry, onAttempt });
      p.then(
        () => this.slots.release(),
        () => this.slots.release(),
      );
    }
    if (key) this.inflight.set(key, p);
    try {
      this.stats.calls++;
      let r;
      try {
        r = await p;
      } catch (e) {
        if (e instanceof CallError && e.kind !== CallKind.ABORTED) {
          if (unreachable(e)) e.outage = this.unreachableFailure(index, e, true);
          else this.watch.answered();
        }
        throw e;
      }
      this.watch.answered();
      const usage = r.usage || { prompt_tokens: 0, completion_tokens: 0 };
      this.stats.promptTokens += usage.prompt_tokens;
      this.stats.completionTokens += usage.completion_tokens;
      if (key) {
        // Written in the background: the row need not wait for the disk to go on.
        const w = o.cache
          .cachePut(key, { content: r.content, usage, finishReason: r.finishReason, at: o.clock.now() })
          .then(
            () => (this.known ? this.known.add(key) : this.written.add(key)),
            (e) => console.warn("batch: cache write failed", e),
          );
        this.track(w);
      }
      return { ...r, usage, cached: false };
    } finally {
      if (key) this.inflight.delete(key);
    }
  }

  /** runRow turns one row into a stored result, or puts it back in the queue; it does not throw. */
  async runRow(index) {
    const o = this.o;
    const t0 = o.clock.now();
    const item = o.items[index] || { error: "this row does not exist" };
    const result = {
      runId: o.runId,
      index,
      verdict: null,
      answers: [],
      error: null,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      calls: 0,
      cachedCalls: 0,
      attempts: 0,
      repaired: false,
      ms: 0,
      finishedAt: 0,
    };
    const account = (r) => {
      if (r.cached) result.cachedCalls++;
      else {
        result.calls++;
        result.usage.prompt_tokens += (r.usage && r.usage.prompt_tokens) || 0;
        result.usage.completion_tokens += (r.usage && r.usage.completion_tokens) || 0;
      }
      result.attempts += r.attempts;
    };
    let stage = "call";
    try {
      if (item.error) throw new CallError(item.error, { kind: RowErrorKind.INPUT });
      let rendered;
      this.setRow(index, RowState.RENDERING);
      await this.renderTurn();
      try {
        rendered = o.judge.render(item.inputs);
      } catch (e) {
        throw new CallError("The prompt could not be rendered: " + ((e && e.message) || e), { kind: RowErrorKind.RENDER });
      }
      const first = await this.ask(rendered.messages, index);
      account(first);
      result.answers.push(first.content);
      let verdict = this.parse(item.inputs, first.content);
      if (needsRepair(verdict)) {
        this.stats.repairs++;
        stage = "repair";
        const repairMessages = [...rendered.messages, { role: "assistant", content: first.content }, { role: "user", content: repairPrompt(verdict) }];
        const second = await this.ask(repairMessages, index, true);
        stage = "call";
        account(second);
        result.answers.push(second.content);
        result.repaired = true;
        const v2 = this.parse(item.inputs, second.content);
        verdict = needsRepair(v2)
          ? { ...v2, checks: [...(v2.checks || []), { severity: "warning", code: RepairCode.UNREADABLE, message: "Asked once to correct its format, the judge still answered unreadably." }] }
          : { ...v2, checks: [...(v2.checks || []), { severity: "warning", code: RepairCode.USED, message: "The first answer could not be read; this verdict is from the judge's corrected answer." }] };
      }
      result.verdict = verdict;
    } catch (e) {
      const call = e instanceof CallError;
      if (call && e.kind === CallKind.ABORTED) {
        // Cancelled: the row stays pending. Aborted by an outage: it runs again when the run goes on.
        if (this.state !== RunState.CANCELLED) this.requeue(index);
        return;
      }
      if (call && unreachable(e) && (e.outage || this.state === RunState.OUTAGE)) return this.requeue(index);
      if (call && e.kind === CallKind.HTTP && HOLD_STATUSES.includes(e.status) && this.state !== RunState.CANCELLED) {
        this.requeue(index);
        if (this.state === RunState.RUNNING) this.setState(RunState.HELD, { by: "runner", message: e.message, error: e.toJSON() });
        if (o.onHold) o.onHold(e);
        return;
      }
      if (call) {
        result.error = e.toJSON();
        result.attempts += e.attempts || 0;
        if (stage === "repair") result.error = { ...result.error, stage, message: "The repair request failed: " + result.error.message };
      } else {
        result.error = { kind: RowErrorKind.INTERNAL, status: 0, message: "Unexpected failure: " + ((e && e.message) || e), attempts: 0, detail: "" };
      }
    }
    result.ms = o.clock.now() - t0;
    result.finishedAt = Date.now();
    // The row's slot is free now; its result is reported once it is stored, and the run is not
    // done until every result is.
    this.track(
      (async () => {
        if (o.store) {
          try {
            await o.store.putResult(result);
          } catch (e) {
            result.storeError = String((e && e.message) || e);
          }
        }
        this.stats.finished++;
        if (this.live.has(index) && this.live.get(index).state !== RowState.QUEUED) this.setRow(index, RowState.IDLE);
        if (o.onResult) o.onResult(result);
      })(),
    );
  }

  track(p) {
    this.persisting.add(p);
    p.finally(() => this.persisting.delete(p));
  }

  /** parse reads the judge's answer; the judge throwing (bad inputs) is a row error, not a crash. */
  parse(inputs, text) {
    try {
      return this.o.judge.parse(inputs, text);
    } catch (e) {
      throw new CallError("The verdict could not be computed: " + ((e && (e.detail || e.message)) || e), { kind: RowErrorKind.PARSE });
    }
  }

  /**
   * renderTurn resolves when a row may render its prompt: rows take turns in the order they
   * started, about 8 ms of rendering per task and then a task boundary, so that the first rows'
   * calls go out (their cache keys are digested off the thread and their requests posted to the
   * call worker in tasks of their own) while later rows wait, and the page keeps painting. Without
   * it a run's first fill rendered all its look-ahead rows before the first call could leave.
   */
  renderTurn() {
    return new Promise((resolve) => {
      this.turns.push(resolve);
      if (!this.turning) this.turning = this.giveTurns();
    });
  }

  async giveTurns() {
    while (this.turns.length) {
      const t0 = performance.now();
      do {
        this.turns.shift()();
        await null; // the row renders now, up to its first wait
      } while (this.turns.length && performance.now() - t0 < 8);
      await nextTask();
    }
    this.turning = null;
  }
}

/**
 * nextTask resolves in a new task of the event loop: unlike a microtask or scheduler.yield's
 * prioritized continuation, it lets what is already waiting (a finished digest, a message from the
 * call worker, input) run first.
 */
export function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
