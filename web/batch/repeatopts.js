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
 * ordersOf is in how many orders a run of evaluator ev judges each row: 2 when the run options
 * ask to "judge both orders" and ev compares two answers (its verdicts are drawn as a pairwise
 * verdict: the core can exchange them, rj.swapOrders), else 1.
 * @param {{bothOrders?: boolean}} prefs
 * @param {{view?: string} | null | undefined} ev
 * @returns {1 | 2}
 */
export function ordersOf(prefs, ev) {
  return prefs.bothOrders === true && !!ev && ev.view === "pairwise" ? 2 : 1;
}

/**
 * runSettings is what a new run's record keeps of its request: the endpoint settings (request,
 * where), the run's temperature in place of the model settings' one (only where the model takes a
 * temperature at all: modelparams.js leaves it out for reasoning models), and repeats; with the
 * run's evaluator ev, `orders: 2` when each row is judged in both orders (ordersOf).
 * @param {{request: {endpoint: string, model: string, params: Object}, where: string}} rs
 * @param {{repeats?: number|string, temperature?: number|string, bothOrders?: boolean}} prefs
 * @param {{view?: string}} [ev]
 * @returns {{endpoint: string, model: string, params: Object, where: string, repeats: number, orders?: number}}
 */
export function runSettings(rs, prefs, ev) {
  const params = { ...rs.request.params };
  const t = temperatureOf(prefs);
  if (t !== null && "temperature" in params) params.temperature = t;
  return { ...rs.request, params, where: rs.where, repeats: repeatsOf(prefs), ...(ordersOf(prefs, ev) === 2 ? { orders: 2 } : {}) };
}
