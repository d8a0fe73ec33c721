// runrecords.js: a batch run's life in the store: created with its mapped rows, reopened with what
// finished, and the rows still to do (all unfinished ones, or also the failed or the undetermined
// ones for a retry, and which of those must not be answered from the cache). Pure over the store
// interface (runstore.js), so Node tests cover resume.

import { statusOf } from "../results/status.js";
import { redoOnResume, RowErrorKind, RepairCode } from "./states.js";

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
 * onProgress({done, total}) follows the rows as they are stored (in chunks: runstore.js).
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
 * Retry names what a retry asks again besides the rows Resume runs: the rows that ended in an
 * error ("↻ Retry N failed rows", N the summary's error count), or the rows the judge answered
 * without a verdict that could be read ("↻ Ask again for N undetermined rows").
 */
export const Retry = Object.freeze({ NONE: "", ERRORS: "errors", UNDETERMINED: "undetermined" });

/**
 * todoIndices: rows without a result or whose call failed for a reason not the judge's (network,
 * timeout, 5xx, 429, a refused key, a batch file's request that was never run: states.js
 * redoOnResume); with retry ERRORS also every other row that ended in an error, with retry
 * UNDETERMINED the rows that ended undetermined.
 * @param {number} total
 * @param {Array<any>} results by row index
 * @param {{retry?: string, threshold?: number|null}} [opts] retry a Retry; threshold as in statusOf
 * @returns {number[]}
 */
export function todoIndices(total, results, { retry = Retry.NONE, threshold = null } = {}) {
  const out = [];
  for (let i = 0; i < total; i++) {
    const r = results[i];
    if (!r || redoOnResume(r)) out.push(i); // a call that failed for a reason not the judge's is run again
    else if (retry === Retry.ERRORS || retry === Retry.UNDETERMINED) {
      const st = statusOf(r, threshold);
      if (st === (retry === Retry.ERRORS ? "error" : "undetermined")) out.push(i);
    }
  }
  return out;
}

/**
 * askedAfresh are the rows of todo whose answers in the request cache must not be used again: a
 * row asked again for its undetermined verdict (its cached answer is the one that could not be
 * read), and a row whose verdict could not be computed from its answer (an error of kind parse).
 * Other rows read the cache: a failed call was never cached, so a row that failed pays only for
 * the calls that failed (its answered repeats, or the first answer of a failed repair request,
 * come from the cache), and a row read from a batch file without its repair request (repair.none)
 * gets that repair request, not a new first answer.
 * @param {Array<any>} results by row index
 * @param {number[]} todo
 * @param {string} retry a Retry
 * @returns {Set<number>}
 */
export function askedAfresh(results, todo, retry) {
  const out = new Set();
  for (const i of todo) {
    const r = results[i];
    if (!r) continue;
    if (r.error) {
      if (r.error.kind === RowErrorKind.PARSE) out.add(i);
    } else if (retry === Retry.UNDETERMINED && !unrepaired(r)) out.add(i);
  }
  return out;
}

/** unrepaired: a row read from a batch output file whose unreadable answer got no repair request (repair.none). */
function unrepaired(r) {
  const has = (/** @type {any} */ v) => !!(v && Array.isArray(v.checks) && v.checks.some((/** @type {any} */ c) => c.code === RepairCode.NONE));
  return has(r.verdict) || (Array.isArray(r.repeats) && r.repeats.some((/** @type {any} */ x) => has(x.verdict)));
}
