// tabs.js: one run, several tabs. The tab that runs a run holds its Web Lock ("ragjudge-batch-<id>");
// another tab that opens it only watches: it learns each result, the rows in flight and the run's
// state from the running tab over a BroadcastChannel, and takes the run over once the lock is let
// go (the running tab finished, or was closed).

const CHANNEL = "ragjudge-batch";

function lockName(id) {
  return "ragjudge-batch-" + id;
}

function hasLocks() {
  return !!(typeof navigator !== "undefined" && navigator.locks && navigator.locks.request);
}

/**
 * claimRun asks for this tab's exclusive claim on run id without waiting: resolves to {held,
 * release}, held until release() is called. Locks are granted in the order asked, so a claim asked
 * for before a new run is stored is this tab's.
 * @param {string} id
 * @returns {Promise<{held: boolean, release: () => void}>}
 */
export function claimRun(id) {
  if (!hasLocks()) return Promise.resolve({ held: true, release() {} });
  return new Promise((resolve) => {
    navigator.locks
      .request(lockName(id), { ifAvailable: true }, (lock) => {
        if (!lock) return resolve({ held: false, release() {} });
        return new Promise((release) => resolve({ held: true, release: () => release(undefined) }));
      })
      .catch(() => resolve({ held: true, release() {} }));
  });
}

/**
 * heldElsewhere says whether some tab holds run id's claim (this one does not when it asks).
 * @param {string} id
 */
export async function heldElsewhere(id) {
  if (!hasLocks() || typeof navigator.locks.query !== "function") return false;
  try {
    const { held = [] } = await navigator.locks.query();
    return held.some((l) => l.name === lockName(id));
  } catch {
    return false;
  }
}

/**
 * whenReleased resolves once no tab holds run id's claim (at once where there are no locks), or
 * never when signal aborts first.
 * @param {string} id
 * @param {AbortSignal} signal
 */
export function whenReleased(id, signal) {
  if (!hasLocks()) return Promise.resolve();
  return new Promise((resolve) => {
    navigator.locks.request(lockName(id), { signal }, () => resolve(undefined)).catch(() => {});
  });
}

/**
 * RunChannel carries a running tab's news to the tabs that watch: {type: "result", runId, result},
 * {type: "live", runId, rows: [index, LiveRow][]}, {type: "state", runId, state, message}.
 */
export class RunChannel {
  /** @param {(msg: Object) => void} onMessage */
  constructor(onMessage) {
    this.ch = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    if (this.ch) this.ch.onmessage = (e) => e.data && typeof e.data === "object" && onMessage(e.data);
  }

  /** post sends msg to the other tabs (structured clone; nothing is sent where there is no channel). */
  post(msg) {
    if (!this.ch) return;
    try {
      this.ch.postMessage(msg);
    } catch (e) {
      console.warn("batch: could not tell other tabs", e);
    }
  }
}
