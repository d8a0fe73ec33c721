// openrun.js: the run controller's open run (runcontroller.js): its shape, what is said of it (a
// run that starts, the storing of its rows) and the states it rests in or waits in.

import { Retry } from "./runrecords.js";
import { RunState, LIVE_STATES, noKeyError } from "./states.js";
import { fmtInt } from "../lib/format.js";
import { CallKind, KeySource } from "../model/callerror.js";
import { LiveRows } from "./live.js";
import { keyMissing } from "../model/keyguard.js";

/**
 * waitingForKey tells whether run c's Runner holds for want of a key: none was there to send
 * (scheduler.js keyMissing), or the endpoint answered 401 to a call sent without one (a local
 * server started with a key of its own).
 * @param {OpenRun | null | undefined} c
 */
export function waitingForKey(c) {
  const r = c && c.runner;
  const e = r && r.state === RunState.HELD && r.reason && r.reason.error;
  return !!e && (e.kind === CallKind.NO_KEY || (e.kind === CallKind.HTTP && e.status === 401 && e.key === KeySource.NONE));
}

/**
 * keyEntered resumes the runs of this tab (ctl's) that wait for a key, now that calls have what
 * they need.
 * @param {import("./runcontroller.js").RunController} ctl
 */
export function keyEntered(ctl) {
  for (const c of ctl.going.values()) {
    if (!waitingForKey(c) || !c.runner) continue;
    // A jury's run waits until every judge has the key its endpoint needs (buildrunner.js juryJudges).
    const judges = c.runner.o.judges;
    if (judges ? judges.some((/** @type {any} */ j) => j.keyMissing()) : keyMissing(ctl.st)) {
      // Still missing (the dev server answers again, and its upstream needs one): said as such.
      // (A jury's judge without its key is said by its own key field, batch/juryoption.js.)
      if (!judges && c.runner.reason?.error?.kind === CallKind.NO_KEY) ctl.say(noKeyError().message, c);
      continue;
    }
    // One held by a 401 to a call without a key goes on only once there is one to send.
    if (c.runner.reason?.error?.kind !== CallKind.NO_KEY && !ctl.st.key) continue;
    c.runner.resume();
    ctl.persist(RunState.RUNNING, c);
    ctl.say("Key entered: the run goes on.", c);
  }
}

/** STORING_NOTE_ROWS: from this many rows a new run's message line says how far the storing of its rows is. */
const STORING_NOTE_ROWS = 5000;


/**
 * runningText says what a run that starts now does: "Running 12 rows.", "Retrying 3 failed rows."
 * or "Asking the judge again for 2 undetermined rows."
 * @param {string} retry a Retry
 * @param {number} n the rows it runs
 */
export function runningText(retry, n) {
  const rows = `${fmtInt(n)} ${retry === Retry.UNDETERMINED ? "undetermined " : retry === Retry.ERRORS ? "failed " : ""}row${n === 1 ? "" : "s"}`;
  if (retry === Retry.ERRORS) return `Retrying ${rows}.`;
  if (retry === Retry.UNDETERMINED) return `Asking the judge again for ${rows}.`;
  return `Running ${rows}.`;
}

/**
 * restingState is the state of a run no Runner of this tab runs: done or cancelled as its record
 * says it ended, else paused while some row has no result and done when every row has one.
 * @param {{state?: string, total: number}} run
 * @param {Array<any>} results by row index
 * @returns {string}
 */
export function restingState(run, results) {
  if (run.state === RunState.DONE || run.state === RunState.CANCELLED) return run.state;
  for (let i = 0; i < run.total; i++) if (!results[i]) return RunState.PAUSED;
  return RunState.DONE;
}

/** going: a Runner in one of these states holds its run's claim and may still produce results. */
export function going(runner) {
  return !!runner && LIVE_STATES.has(runner.state);
}

/**
 * @typedef {Object} OpenRun the open run (read it; change it through the controller)
 * @property {Object} run the run's record
 * @property {Object} ev its evaluator
 * @property {Object[]} items its rows as mapped
 * @property {Array<Object|undefined>} results by row index
 * @property {Object|null} runner this tab's Runner for it
 * @property {LiveRows} live its rows in flight
 * @property {number[]} doneTimes when recent rows finished (performance.now()), for the rate
 * @property {number} startedAt
 * @property {boolean} readOnly another tab runs it; this one watches
 * @property {string} message the line under the progress bar
 * @property {any} [livePost] a pending postLive
 * @property {Promise<any>} [created] a new run's write to the store
 * @property {Promise<any>|null} [claim] a new run's claim
 * @property {() => void} [unwatch] stops waiting to take the run over
 * @property {number} [chosen] the concurrency chosen for its Runner (which may run fewer: browserLimit)
 */

/**
 * storingNote adds to a new run's message line how far the storing of its rows is, when there
 * are enough of them for it to take a while (the run goes on meanwhile), and takes it away once
 * they are stored; a message said meanwhile (paused, an error) is left alone.
 * @param {{going: Map<string, OpenRun>, say: (text: string, c: OpenRun) => void}} ctl the controller
 * @param {string} id
 * @param {number} rows
 * @returns {{progress: ((p: {done: number, total: number}) => void) | undefined, end: () => void}}
 */
export function storingNote(ctl, id, rows) {
  if (rows < STORING_NOTE_ROWS) return { progress: undefined, end: () => {} };
  /** @type {string | null} */
  let base = null;
  /** @type {string | null} */
  let said = null;
  /** @param {{done: number, total: number}} p */
  const progress = (p) => {
    const c = ctl.going.get(id);
    if (!c || (said !== null && c.message !== said)) return;
    if (base === null) base = c.message;
    said = `${base} Storing its rows in this browser… ${Math.floor((100 * p.done) / Math.max(1, p.total))}%`.trim();
    ctl.say(said, c);
  };
  const end = () => {
    const c = ctl.going.get(id);
    if (c && said !== null && c.message === said) ctl.say(base || "", c);
  };
  return { progress, end };
}
