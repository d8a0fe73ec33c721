// buildrunner.js: how the open run's Runner (scheduler.js) is built from the run's record, the
// preferences and the endpoint's request settings, and what it reports to the run controller
// (runcontroller.js), which owns the run.

import { Runner } from "./scheduler.js";
import { keyMissing } from "../model/keyguard.js";
import { fmtNum } from "../lib/format.js";
import { tellResult } from "./watching.js";
import { RunState } from "./states.js";
import { CallKind, outageMessage } from "../model/callerror.js";
import { cleanJudge, keyId, pageJudge, judgeKeyNeeded, judgeRequest } from "./judges.js";

/**
 * judgeOf is how a run renders evaluator ev's prompt and reads its answers: the live run's and a
 * batch file's (batchfile.js) alike.
 * @param {Object} rj the judge engine
 * @param {{id: string}} ev
 * swap and combine judge a pairwise row in both orders (orders.js): its answers exchanged, and the
 * two orders' verdicts made one, by the core.
 * jury makes a row's verdict of a jury's (juryrow.js), by the core.
 * @returns {{render: (inputs: any) => {messages: {role: string, content: string}[]}, parse: (inputs: any, text: string) => any, swap: (inputs: any) => any, combine: (first: any, second: any) => any, jury: (verdicts: any[], opts: any) => any}}
 */
export function judgeOf(rj, ev) {
  const j = /** @type {any} */ (rj);
  return {
    render: (inputs) => j.render(ev.id, inputs),
    parse: (inputs, text) => j.parse(ev.id, inputs, text),
    swap: (inputs) => j.swapOrders(ev.id, inputs),
    combine: (first, second) => j.combineOrders(first, second),
    jury: (verdicts, opts) => j.jury(verdicts, opts),
  };
}

/**
 * juryJudges is the Runner's judges of a run whose record names a jury (judges.js), else
 * undefined: each judge's request (the record's endpoint and model, the run's parameters) and
 * its key, found at each call like the page's: the page's own key for the page's endpoint, else
 * the key the user gave for that judge's endpoint; none is needed where keyguard.js says so.
 * @param {any} settings the run record's settings
 * @param {import("../shell/state.js").State} st
 * @param {string} endpoint the page's endpoint now (the dev server's base when the page goes through it)
 */
export function juryJudges(settings, st, endpoint) {
  if (!Array.isArray(settings.judges) || settings.judges.length < 2) return undefined;
  const proxyBase = typeof location !== "undefined" ? new URL("v1", location.href).href.replace(/\/$/, "") : endpoint;
  const judges = settings.judges.map(cleanJudge).filter((j) => j !== null);
  return judges.map((j) => {
    const key = () => (keyId(j, st.config) === keyId(pageJudge(st, j.model), st.config) ? st.key : st.judgeKey(keyId(j, st.config)));
    return {
      judge: j,
      request: { ...judgeRequest(j, proxyBase), params: settings.params },
      apiKey: () => key() || undefined,
      keyMissing: () => !key() && judgeKeyNeeded(j, st.config),
    };
  });
}

/**
 * runnerFor builds the Runner that judges rows todo of open run c (not yet started).
 * @param {import("./openrun.js").OpenRun} c
 * @param {{rj: Object, store: Object, st: import("../shell/state.js").State, request: {endpoint: string}, prefs: any, todo: number[], fresh: Set<number>,
 *   concurrency: number, calls: any, socket: string | null | undefined, socketCalls?: number, fetch?: typeof globalThis.fetch,
 *   onResult: (r: any) => void, say: (text: string) => void, onPace: () => void, onHold: (e: any) => void, onState: (s: string, reason: any) => void}} ctx
 *   fetch: how calls made on this thread reach the endpoint (the command line's; the page's is the browser's)
 * @returns {Runner}
 */
export function runnerFor(c, { rj, store, st, request, prefs: p, todo, fresh, concurrency, calls, socket, socketCalls, fetch, onResult, say, onPace, onHold, onState }) {
  const ev = c.ev;
  return new Runner({
    runId: c.run.id,
    items: c.items,
    todo,
    judge: judgeOf(rj, ev),
    // The run keeps the model and parameters it started with, so resumed rows are judged alike (and hit the cache alike).
    request: { endpoint: request.endpoint, model: c.run.settings.model, params: c.run.settings.params },
    // A jury (judges.js): each row judged by each judge, the row's verdict the core's jury of theirs (juryrow.js).
    judges: juryJudges(c.run.settings, st, request.endpoint),
    jury: c.run.settings.jury,
    repeats: c.run.settings.repeats || 1,
    // "Judge both orders" (a pairwise evaluator): every row twice, its answers exchanged (orders.js).
    bothOrders: c.run.settings.orders === 2,
    apiKey: () => st.key || undefined, // read at each call: a key entered while paused is used on resume
    // No call goes without the key the endpoint needs: the run waits for it (keyguard.js).
    keyMissing: () => keyMissing(st),
    // A direct endpoint over HTTP/1.1 gets at most the browser's 6 at once: more would only
    // wait in the browser, their timeouts running.
    concurrency,
    calls,
    fetch,
    // Through the dev server the calls share one WebSocket when it has one: over HTTP/1.1 a
    // browser keeps at most 6 connections to a host, whatever the concurrency.
    socket,
    socketCalls,
    cache: store,
    useCache: p.useCache,
    // A retry reads the cache too (a failed call was never cached): only the rows it asks afresh skip it (runrecords.js askedAfresh).
    fresh,
    // A row run again keeps what its earlier results spent (rowresult.js carrySpend).
    prior: (/** @type {number} */ i) => (c.results ? c.results[i] : null),
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

/**
 * openRunner builds the Runner of the controller ctl's open run c for rows todo, reporting to ctl:
 * each result, the line under the progress bar, the pace, a hold and a change of state.
 * @param {any} ctl the RunController
 * @param {import("./openrun.js").OpenRun} c
 * @param {{request: {endpoint: string}, prefs: any, todo: number[], fresh: Set<number>, calls: any}} o
 * @returns {Runner}
 */
export function openRunner(ctl, c, { request, prefs, todo, fresh, calls }) {
  return runnerFor(c, {
    rj: ctl.rj,
    store: ctl.store,
    st: ctl.st,
    request,
    prefs,
    todo,
    fresh,
    concurrency: ctl.route.effective(prefs.concurrency),
    calls,
    socket: ctl.route.socket(),
    socketCalls: ctl.route.socketCalls(),
    onResult: (r) => {
      c.results[r.index] = r;
      c.live.finish(r.index);
      c.doneTimes.push(performance.now());
      tellResult(ctl.channel, c, r);
      if (ctl.cur === c) ctl.changed(false);
    },
    say: (text) => ctl.say(text, c),
    onPace: () => {
      if (ctl.cur === c) ctl.changed(false);
    },
    onHold: (e) => {
      // Waiting for a key: the record stays running, so that a reload resumes it (and waits again
      // if the key is still missing); the run goes on by itself once the key is entered.
      // Through a dev server that does not answer, whether a key is needed is not known yet: what
      // the run waits for is the server (it goes on when its config comes, runcontroller.js).
      if (e.kind === CallKind.NO_KEY && ctl.st.endpoint().mode === "proxy" && !ctl.st.config) return ctl.say(outageMessage({ kind: CallKind.NETWORK }, { proxy: true }), c);
      if (e.kind === CallKind.NO_KEY) return ctl.say(e.message, c);
      ctl.say("Paused: " + e.message + " Then press Resume.", c);
      ctl.persist(RunState.PAUSED, c);
    },
    onState: (s, reason) => {
      // The run paused itself for an outage, or goes on by itself after one: say so. (Its record
      // stays "running", so a reload meanwhile resumes it.)
      if (reason && reason.by === "runner" && s === RunState.OUTAGE) ctl.say(outageMessage(reason.error, { proxy: ctl.st.endpoint().mode === "proxy" }), c);
      else if (reason && reason.by === "runner" && s === RunState.RUNNING) ctl.say(reason.message, c);
      if (ctl.cur === c) ctl.changed(true);
    },
  });
}
