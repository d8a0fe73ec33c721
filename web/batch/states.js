import { CallKind, CallError, ServerCode, retryableStatus } from "../model/callerror.js";
// states.js: the names a batch run's views read: the Runner's states (RunState), a row's live
// state (RowState), the kinds of row errors that are not a call's (RowErrorKind), the codes of the
// checks the engine adds (RepairCode), and which stored error rows Resume runs again. scheduler.js
// re-exports all of them.


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
  /** rendered, its call waiting for a free slot (the run's concurrency) */
  WAITING: "waiting",
  /** its judge call is out (attempt says which) */
  CALLING: "calling",
  /** an attempt failed; attempt goes out at retryAt (clock time, Date.now() in the page) */
  RETRY_WAIT: "retry-wait",
  /** the repair request (one per unreadable answer) is out */
  REPAIRING: "repairing",
  /** its calls are over (answered, or failed for good): its verdict is being read and its result stored */
  ANSWERED: "answered",
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

/**
 * BatchErrorKind: the kind of a batch output line's failure that has no HTTP status: the batch
 * service did not run the request (batch_expired, batch_cancelled) or its call to the model timed
 * out (request_timeout); the row's error keeps the line's code. Not the judge's nor the row's
 * doing, so Resume runs such a row again.
 */
export const BatchErrorKind = Object.freeze({ NOT_RUN: "batch" });

/** RepairCode: the codes of the checks the engine adds to a verdict after a repair request. */
export const RepairCode = Object.freeze({
  /** warning: the first answer could not be read; the verdict is from the judge's corrected answer */
  USED: "repair.used",
  /** warning: asked once to correct its format, the judge still answered unreadably */
  UNREADABLE: "repair.unreadable",
  /** warning: the answer, read from a batch output file (batchfile.js), could not be read, and a batch file allows no repair request */
  NONE: "repair.none",
});

/** HOLD_STATUSES would fail every row alike: a refused key (401, 403), an unknown model or path (404). */
export const HOLD_STATUSES = Object.freeze([401, 403, 404]);

/**
 * holds tells whether an error would fail every row alike, so the run waits instead (RunState.HELD):
 * a HOLD_STATUSES answer, the dev server's 400 for an upstream name it does not have, or a call not
 * made for want of the key the endpoint needs.
 * @param {{kind?: string, status?: number, code?: string} | null | undefined} e
 */
export function holds(e) {
  if (!e) return false;
  if (e.kind === CallKind.HTTP && e.status === 400 && e.code === ServerCode.UNKNOWN_UPSTREAM) return true;
  return (e.kind === CallKind.HTTP && HOLD_STATUSES.includes(e.status ?? 0)) || e.kind === CallKind.NO_KEY;
}

/** noKeyError is the failure of a call not made: the endpoint needs a key and the page has none. */
export function noKeyError() {
  return new CallError("Enter your key to resume: the endpoint needs an API key, and none is in Model settings (no call was made without it).", { kind: CallKind.NO_KEY });
}

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
  if (/** @type {string[]} */ (Object.values(RowErrorKind)).includes(e.kind)) return false;
  if (e.kind !== CallKind.HTTP) return true;
  const s = e.status || 0;
  return retryableStatus(s) || HOLD_STATUSES.includes(s);
}
