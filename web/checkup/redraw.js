// redraw.js: when a run card's panel is drawn again (the check-up chart, the position panel): when
// the open run or its counts changed, at most once a second while rows stream in, at once when the
// run stands still.

/** REDRAW_MS: a panel is drawn again at most this often while rows stream in. */
export const REDRAW_MS = 1000;

/**
 * redrawGate remembers the last draw; due(runId, counts) says whether to draw now (and counts it
 * as drawn), reset() forgets it (a run that is not the panel's).
 * @param {number} [ms]
 */
export function redrawGate(ms = REDRAW_MS) {
  let key = "";
  let at = 0;
  return {
    /** @param {string} runId @param {{done: number, remaining: number}} counts */
    due(runId, counts) {
      const k = `${runId}|${counts.done}|${counts.remaining}`;
      const now = performance.now();
      if (k === key || (key.startsWith(runId + "|") && counts.remaining > 0 && now - at < ms)) return false;
      key = k;
      at = now;
      return true;
    },
    reset() {
      key = "";
    },
  };
}
