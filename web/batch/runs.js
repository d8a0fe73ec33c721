// runs.js: a batch run's life in the store: created with its mapped rows, reopened with what
// finished, and the rows still to do (all unfinished ones, or also the failed ones for "retry
// failed rows"). Pure over the store interface (store.js), so Node tests cover resume.

import { statusOf } from "./status.js";
import { redoOnResume } from "./runstate.js";

/** newRunId is sortable by creation time and unique enough for one browser. */
export function newRunId(now = Date.now(), random = Math.random) {
  return "run-" + now.toString(36) + "-" + Math.floor(random() * 36 ** 6).toString(36).padStart(6, "0");
}

/**
 * createRun stores a new run and its items. meta: {name, evaluator, mapping, columns, settings,
 * readErrors}. settings must not hold the API key; createRun refuses one, to be sure.
 */
export async function createRun(store, meta, items, now = Date.now()) {
  const run = newRun(meta, items, now);
  await saveRun(store, run, items);
  return run;
}

/** newRun is createRun's run record, not yet stored (saveRun stores it). */
export function newRun(meta, items, now = Date.now()) {
  if (meta.settings && ("apiKey" in meta.settings || "key" in meta.settings)) throw new Error("createRun: settings must not hold the API key");
  return { ...meta, id: newRunId(now), createdAt: now, total: items.length, state: "running" };
}

/**
 * saveRun stores a new run's items, then the run: a run in the store always has its items.
 * onProgress({done, total}) follows the rows as they are stored (in chunks: store.js).
 * @param {any} store
 * @param {any} run
 * @param {any[]} items
 * @param {{onProgress?: (p: {done: number, total: number}) => void}} [opts]
 */
export async function saveRun(store, run, items, { onProgress } = {}) {
  await store.putItems(run.id, items, { onProgress });
  await store.putRun(run);
}

/**
 * loadRun returns {run, items, results} with results a dense array indexed by row (undefined =
 * pending); onProgress({done, total}) follows the rows as they are read.
 * @param {any} store
 * @param {string} id
 * @param {{onProgress?: (p: {done: number, total: number}) => void}} [opts]
 */
export async function loadRun(store, id, { onProgress } = {}) {
  const run = await store.getRun(id);
  if (!run) return null;
  const items = (await store.getItems(id, { onProgress })) || [];
  const list = await store.getResults(id);
  const results = new Array(run.total);
  for (const r of list) if (r.index >= 0 && r.index < run.total) results[r.index] = r;
  return { run, items, results };
}

/**
 * todoIndices: rows without a result or whose call failed for a reason not the judge's (network,
 * timeout, 5xx, 429, a refused key: runstate.js redoOnResume); with retryFailed also rows that
 * ended undetermined or in any error.
 * @param {number} total
 * @param {Array<any>} results by row index
 * @param {{retryFailed?: boolean, threshold?: number|null}} [opts] threshold as in statusOf
 * @returns {number[]}
 */
export function todoIndices(total, results, { retryFailed = false, threshold = null } = {}) {
  const out = [];
  for (let i = 0; i < total; i++) {
    const r = results[i];
    if (!r || redoOnResume(r)) out.push(i); // a call that failed for a reason not the judge's is run again
    else if (retryFailed) {
      const st = statusOf(r, threshold);
      if (st === "error" || st === "undetermined") out.push(i);
    }
  }
  return out;
}
