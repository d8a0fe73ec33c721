// repeatopts.js: a run's repeat settings: how many times each row is judged (1 to 10) and the
// temperature its calls are sent with, read from the Batch view's run options and kept in the
// run's record, so that a resumed run asks exactly what it asked before (and hits the cache alike).

import { MAX_REPEATS } from "./scheduler.js";

/**
 * repeatsOf is the number of repeats prefs ask for, held to 1..MAX_REPEATS (1 when unset or not a number).
 * @param {{repeats?: number|string}} prefs
 * @returns {number}
 */
export function repeatsOf(prefs) {
  const n = Math.round(Number(prefs.repeats));
  return Number.isFinite(n) && n >= 1 ? Math.min(MAX_REPEATS, n) : 1;
}

/**
 * temperatureOf is the run's temperature as a number, or null when the run options leave it to
 * the model settings ("" or not a number in 0..2).
 * @param {{temperature?: number|string}} prefs
 * @returns {number|null}
 */
export function temperatureOf(prefs) {
  if (prefs.temperature === "" || prefs.temperature === null || prefs.temperature === undefined) return null;
  const t = Number(prefs.temperature);
  return Number.isFinite(t) && t >= 0 && t <= 2 ? t : null;
}

/**
 * runSettings is what a new run's record keeps of its request: the endpoint settings (request,
 * where), the run's temperature in place of the model settings' one (only where the model takes a
 * temperature at all: modelparams.js leaves it out for reasoning models), and repeats.
 * @param {{request: {endpoint: string, model: string, params: Object}, where: string}} rs
 * @param {{repeats?: number|string, temperature?: number|string}} prefs
 * @returns {{endpoint: string, model: string, params: Object, where: string, repeats: number}}
 */
export function runSettings(rs, prefs) {
  const params = { ...rs.request.params };
  const t = temperatureOf(prefs);
  if (t !== null && "temperature" in params) params.temperature = t;
  return { ...rs.request, params, where: rs.where, repeats: repeatsOf(prefs) };
}
