// prefs.js: the Batch view's saved choices (evaluator, run options, prices, threshold), kept in the
// page's store under "batch" and changed only through state.update, which saves them and tells
// every listener.

import { DEFAULT_POLICY } from "../model/llm.js";

/** PREFS are a fresh page's choices. */
export const PREFS = Object.freeze({
  evaluator: "",
  concurrency: 8,
  useCache: true,
  priceIn: "",
  priceOut: "",
  threshold: "",
  timeoutS: DEFAULT_POLICY.timeoutMs / 1000,
  attempts: DEFAULT_POLICY.maxAttempts,
  /** how many times each row is judged (repeatopts.js) */
  repeats: 1,
  /** the run's temperature, "" for the model settings' one (repeatopts.js) */
  temperature: "",
  /** judge a pairwise evaluator's rows in both orders, their answers exchanged (repeatopts.js ordersOf) */
  bothOrders: /** @type {boolean} */ (false),
  /** a jury: the judges beside the model settings' one, and the rule (judges.js juryChoice, juryoption.js) */
  jury: /** @type {{judges: any[], rule: string, pass_at?: number}} */ ({ judges: [], rule: "majority" }),
  /** the dataset (file name) the repeats were chosen for; "" when chosen before any was loaded, null when not known (setup.js keepRepeats) */
  repeatsFor: /** @type {string | null} */ (null),
});

/**
 * prefsOf reads the choices, defaults filled in.
 * @param {import("../shell/state.js").State} state
 * @returns {typeof PREFS}
 */
export function prefsOf(state) {
  return { ...PREFS, ...(state.get("batch") || {}) };
}

/**
 * setPrefs changes some choices through the state (saved; effects that read "batch" run again).
 * @param {import("../shell/state.js").State} state
 * @param {Partial<typeof PREFS>} patch
 */
export function setPrefs(state, patch) {
  return state.update("batch", (cur) => ({ ...PREFS, ...(cur || {}), ...patch }));
}

/** thresholdOf is the pass threshold for scores as a number, or null when none is set. */
export function thresholdOf(prefs) {
  const t = prefs.threshold === "" || prefs.threshold === null ? NaN : Number(prefs.threshold);
  return Number.isFinite(t) ? t : null;
}
