// engine.js: runs a batch of rows through a judge with bounded concurrency, the one retry policy
// (http.js), the request cache, and one repair request per unreadable answer. It is pure: the
// judge (render/parse), fetch, the cache/result store and the clock are injected, so Node tests run
// it without a browser or a model. Every row it starts ends as a result, a verdict or an error,
// unless the run is cancelled while the row is in flight (that row then stays pending, to resume).

import { chat, CallError, realClock } from "./http.js";
import { cacheKey } from "./cache.js";
import { needsRepair } from "./status.js";
import { Slots } from "./slots.js";

/** repairPrompt is the follow-up message that shows the judge why its answer could not be read. */
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
 * Runner runs the rows `todo` (indices into items) and reports each result through onResult as
 * soon as it is stored. `concurrency` bounds the judge calls in flight; a few more rows than that
 * are started, so that their prompts are rendered and looked up in the cache while the calls are
 * out, and a call that ends is followed by the next one at once. Options:
 *   items: [{inputs} | {error}]   judge: {render(inputs) -> {messages}, parse(inputs, text) -> verdict}
 *   request: {endpoint, model, params}   apiKey (a string, or a function read at each call)   concurrency (default 8)
 *   cache: {cacheGet(key), cachePut(key, value)} or null   useCache (default true)   readCache (default true;
 *   false re-asks the judge but still refreshes the cache, for "retry failed rows")
 *   store: {putResult(result)} or null   runId   fetch, clock, random, policy (http.js)
 *   socket: the dev server's calls socket URL (socket.js), for the calls client's worker to use
 *   calls: a calls.js CallClient, or null: the calls are then made on this thread. With one, the client
 *   (its worker) bounds the calls in flight, so a slot is free again as soon as a response is read,
 *   not when this thread next gets to it; the look-ahead is then a whole concurrency's worth of rows.
 *   onResult(result), onRetry({index, attempt, delayMs, error}), onState(state)
 *   onHold(error): a refused key (401, 403) or an unknown model or path (404) would fail every row
 *   alike, so the row goes back to the queue, the run pauses, and onHold says why; resume() goes on.
 */
export class Runner {
  constructor(opts) {
    this.o = { concurrency: 8, useCache: true, readCache: true, clock: realClock, ...opts };
    this.queue = [...opts.todo];
    this.state = "idle";
    this.active = 0;
    this.ctrl = new AbortController();
    this.gate = { until: 0 };
    this.inflight = new Map();
    this.resumeWaiters = [];
    this.stats = { started: 0, finished: 0, calls: 0, cacheHits: 0, retries: 0, repairs: 0, promptTokens: 0, completionTokens: 0 };
    this.turns = []; // rows waiting for their turn to render (renderTurn)
    this.turning = null;
    this.known = null; // cache keys known to exist, so a miss costs no IndexedDB read
    this.knownP = null; // the read of those keys
    this.written = new Set(); // keys this run stored before that read was back
    this.slots = new Slots(this.o.concurrency);
    if (this.o.calls) this.o.calls.setLimit(this.o.concurrency);
    this.persisting = new Set();
  }

  /** start runs until every row is done or the run is cancelled; resolves to the final state. */
  async start() {
    if (this.state !== "idle") throw new Error("Runner.start: already started");
    this.setState("running");
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
    if (this.queue.length === 0 && this.active === 0) this.finish();
    return this.doneP;
  }

  setState(s) {
    this.state = s;
    if (this.o.onState) this.o.onState(s);
  }

  fill() {
    const lookahead = this.o.calls ? 2 * this.o.concurrency : Math.max(2, Math.ceil(this.o.concurrency / 4));
    while (this.state === "running" && this.active < this.o.concurrency + lookahead && this.queue.length > 0) {
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
    if (this.state === "cancelled") {
      if (this.active === 0) Promise.all([...this.persisting]).then(() => this.resolveDone("cancelled"));
      return;
    }
    this.fill();
    if (this.queue.length === 0 && this.active === 0) this.finish();
  }

  async finish() {
    if (this.state === "done" || this.finishing) return;
    this.finishing = true;
    // Every result is stored before the run says it is done; the last ones are written at once
    // rather than after the store's coalescing delay.
    if (this.o.store && typeof this.o.store.flush === "function") this.o.store.flush().catch(() => {});
    while (this.persisting.size) await Promise.all([...this.persisting]);
    this.setState("done");
    this.resolveDone("done");
  }

  /** pause starts no new row; rows in flight finish and are stored. */
  pause() {
    if (this.state === "running") this.setState("paused");
  }

  resume() {
    if (this.state !== "paused") return;
    this.setState("running");
    this.fill();
    if (this.queue.length === 0 && this.active === 0) this.finish();
  }

  /** cancel aborts the calls in flight; unfinished rows stay pending (a later resume runs them). */
  cancel() {
    if (this.state === "done" || this.state === "cancelled") return;
    const wasIdle = this.active === 0;
    this.setState("cancelled");
    this.ctrl.abort();
    if (wasIdle && this.resolveDone) this.resolveDone("cancelled");
  }

  setConcurrency(n) {
    this.o.concurrency = Math.max(1, Math.min(64, Math.floor(n) || 1));
    this.slots.setLimit(this.o.concurrency);
    if (this.o.calls) this.o.calls.setLimit(this.o.concurrency);
    this.fill();
  }

  /** ask gets the judge's answer to messages: from the cache, from an identical call in flight, or from the endpoint. */
  async ask(messages, index) {
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
    const onRetry = (info) => {
      this.stats.retries++;
      if (o.onRetry) o.onRetry({ index, ...info });
    };
    const apiKey = typeof o.apiKey === "function" ? o.apiKey() : o.apiKey;
    let p;
    if (o.calls) p = o.calls.call(req, { apiKey, policy: o.policy, signal: this.ctrl.signal, onRetry, socket: o.socket });
    else {
      await this.slots.acquire();
      p = chat(req, { fetch: o.fetch, apiKey, policy: o.policy, clock: o.clock, random: o.random, signal: this.ctrl.signal, gate: this.gate, onRetry });
      p.then(
        () => this.slots.release(),
        () => this.slots.release(),
      );
    }
    if (key) this.inflight.set(key, p);
    try {
      this.stats.calls++;
      const r = await p;
      this.stats.promptTokens += r.usage.prompt_tokens;
      this.stats.completionTokens += r.usage.completion_tokens;
      if (key) {
        // Written in the background: the row need not wait for the disk to go on.
        const w = o.cache
          .cachePut(key, { content: r.content, usage: r.usage, finishReason: r.finishReason, at: o.clock.now() })
          .then(
            () => (this.known ? this.known.add(key) : this.written.add(key)),
            (e) => console.warn("batch: cache write failed", e),
          );
        this.track(w);
      }
      return { ...r, cached: false };
    } finally {
      if (key) this.inflight.delete(key);
    }
  }

  /** runRow turns one row into a stored result; it does not throw. */
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
        result.usage.prompt_tokens += r.usage.prompt_tokens;
        result.usage.completion_tokens += r.usage.completion_tokens;
      }
      result.attempts += r.attempts;
    };
    try {
      if (item.error) throw new CallError(item.error, { kind: "input" });
      let rendered;
      await this.renderTurn();
      try {
        rendered = o.judge.render(item.inputs);
      } catch (e) {
        throw new CallError("The prompt could not be rendered: " + ((e && e.message) || e), { kind: "render" });
      }
      const first = await this.ask(rendered.messages, index);
      account(first);
      result.answers.push(first.content);
      let verdict = this.parse(item.inputs, first.content);
      if (needsRepair(verdict)) {
        this.stats.repairs++;
        const repairMessages = [...rendered.messages, { role: "assistant", content: first.content }, { role: "user", content: repairPrompt(verdict) }];
        let second = null;
        try {
          second = await this.ask(repairMessages, index);
        } catch (e) {
          if (e instanceof CallError && e.kind === "aborted") throw e;
          verdict = {
            ...verdict,
            checks: [...(verdict.checks || []), { severity: "warning", message: "The repair request failed: " + ((e && e.message) || e) }],
          };
        }
        if (second) {
          account(second);
          result.answers.push(second.content);
          result.repaired = true;
          const v2 = this.parse(item.inputs, second.content);
          verdict = needsRepair(v2)
            ? { ...v2, checks: [...(v2.checks || []), { severity: "warning", message: "Asked once to correct its format, the judge still answered unreadably." }] }
            : { ...v2, checks: [...(v2.checks || []), { severity: "warning", message: "The first answer could not be read; this verdict is from the judge's corrected answer." }] };
        }
      }
      result.verdict = verdict;
    } catch (e) {
      if (this.state === "cancelled" && e instanceof CallError && e.kind === "aborted") return; // stays pending
      if (e instanceof CallError && e.kind === "http" && [401, 403, 404].includes(e.status) && this.state !== "cancelled") {
        this.queue.unshift(index);
        this.pause();
        if (o.onHold) o.onHold(e);
        return;
      }
      result.error =
        e instanceof CallError ? e.toJSON() : { kind: "internal", status: 0, message: "Unexpected failure: " + ((e && e.message) || e), attempts: 0, detail: "" };
      if (e instanceof CallError) result.attempts += e.attempts || 0;
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
      throw new CallError("The verdict could not be computed: " + ((e && (e.detail || e.message)) || e), { kind: "parse" });
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
