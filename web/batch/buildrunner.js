// runner.js: how the open run's Runner (engine.js) is built from the run's record, the
// preferences and the endpoint's request settings. The controller (run.js) owns what it reports.

import { Runner } from "./scheduler.js";
import { keyMissing } from "../model/keyguard.js";
import { fmtNum } from "../lib/format.js";

/**
 * judgeOf is how a run renders evaluator ev's prompt and reads its answers: the live run's and a
 * batch file's (batchfile.js) alike.
 * @param {Object} rj the judge engine
 * @param {{id: string}} ev
 * @returns {{render: (inputs: any) => {messages: {role: string, content: string}[]}, parse: (inputs: any, text: string) => any}}
 */
export function judgeOf(rj, ev) {
  const j = /** @type {any} */ (rj);
  return { render: (inputs) => j.render(ev.id, inputs), parse: (inputs, text) => j.parse(ev.id, inputs, text) };
}

/**
 * runnerFor builds the Runner that judges rows todo of open run c (not yet started).
 * @param {import("./runcontroller.js").OpenRun} c
 * @param {{rj: Object, store: Object, st: import("../shell/state.js").State, request: {endpoint: string}, prefs: any, todo: number[], fresh: Set<number>,
 *   concurrency: number, calls: any, socket: string | null | undefined, socketCalls?: number,
 *   onResult: (r: any) => void, say: (text: string) => void, onPace: () => void, onHold: (e: any) => void, onState: (s: string, reason: any) => void}} ctx
 * @returns {Runner}
 */
export function runnerFor(c, { rj, store, st, request, prefs: p, todo, fresh, concurrency, calls, socket, socketCalls, onResult, say, onPace, onHold, onState }) {
  const ev = c.ev;
  return new Runner({
    runId: c.run.id,
    items: c.items,
    todo,
    judge: judgeOf(rj, ev),
    // The run keeps the model and parameters it started with, so resumed rows are judged alike (and hit the cache alike).
    request: { endpoint: request.endpoint, model: c.run.settings.model, params: c.run.settings.params },
    repeats: c.run.settings.repeats || 1,
    apiKey: () => st.key || undefined, // read at each call: a key entered while paused is used on resume
    // No call goes without the key the endpoint needs: the run waits for it (keyguard.js).
    keyMissing: () => keyMissing(st),
    // A direct endpoint over HTTP/1.1 gets at most the browser's 6 at once: more would only
    // wait in the browser, their timeouts running.
    concurrency,
    calls,
    // Through the dev server the calls share one WebSocket when it has one: over HTTP/1.1 a
    // browser keeps at most 6 connections to a host, whatever the concurrency.
    socket,
    socketCalls,
    cache: store,
    useCache: p.useCache,
    // A retry reads the cache too (a failed call was never cached): only the rows it asks afresh skip it (runs.js askedAfresh).
    fresh,
    store: c.created ? { putResult: (r) => /** @type {Promise<any>} */ (c.created).then(() => store.putResult(r)), flush: () => store.flush() } : store,
    policy: { timeoutMs: p.timeoutS * 1000, maxAttempts: p.attempts },
    onResult,
    ...c.live.runnerOptions((info) => {
      const e = info.error;
      say(`Row ${info.index + 1}: ${e.kind === "http" ? "HTTP " + e.status : e.kind}, retrying in ${fmtNum(info.delayMs / 1000, 1)} s (attempt ${info.attempt + 1}).`);
    }),
    onPace,
    onHold,
    onState,
  });
}
