// enginestatus.js: the judge engine as the page's views see it while it loads. The page is drawn before
// the wasm is ready (app.js draws the views from evaluators.json): a view reads `engine.rj`,
// which is null until the engine can be used, and draws again, in an effect (lib/store.js), when
// the engine becomes ready or fails to load.

import { signal, onChange } from "../lib/store.js";

/** @typedef {import("../ragjudge.js").RagJudge} RagJudge */

/** Engine holds the judge engine once it is loaded; its status, rj and error are read from one signal. */
export class Engine {
  constructor() {
    /** @type {import("../lib/store.js").Signal<{status: "loading"|"ready"|"failed", rj: RagJudge|null, error: Error|null}>} */
    this.now = signal({ status: /** @type {"loading"|"ready"|"failed"} */ ("loading"), rj: /** @type {RagJudge|null} */ (null), error: /** @type {Error|null} */ (null) });
    /**
     * api is the engine's functions for parts built before it is loaded and used after (the
     * Batch view's run controller, its table): each call goes to the loaded engine; before it
     * is loaded, a call throws. Whatever functions the engine has, it forwards.
     * @type {RagJudge}
     */
    this.api = /** @type {any} */ (
      new Proxy(
        {},
        {
          get: (_, name) => {
            // Not a thenable, not a symbol-keyed protocol: only the engine's own names.
            if (typeof name !== "string" || name === "then") return undefined;
            const rj = /** @type {any} */ (this.now.peek().rj);
            if (!rj) {
              return () => {
                throw new Error(`the judge engine has not loaded yet (${name})`);
              };
            }
            return rj[name];
          },
        },
      )
    );
  }

  /** rj is the loaded engine; null while it loads or when it failed. @returns {RagJudge|null} */
  get rj() {
    return this.now.value.rj;
  }

  /** status is "loading", "ready" or "failed". */
  get status() {
    return this.now.value.status;
  }

  /** error is why the engine did not load. @returns {Error|null} */
  get error() {
    return this.now.value.error;
  }

  /**
   * whenReady resolves to true once the engine is ready, or to false if it failed to load.
   * @returns {Promise<boolean>}
   */
  whenReady() {
    const { status } = this.now.peek();
    if (status !== "loading") return Promise.resolve(status === "ready");
    return new Promise((resolve) => {
      const stop = onChange(
        () => this.status,
        (s) => {
          stop();
          resolve(s === "ready");
        },
      );
    });
  }

  /** ready makes rj the engine and tells the views. @param {RagJudge} rj */
  ready(rj) {
    this.now.value = { status: "ready", rj, error: null };
  }

  /** fail records why the engine did not load and tells the views. @param {unknown} err */
  fail(err) {
    this.now.value = { status: "failed", rj: null, error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/**
 * engineNote is the quiet line a view shows where a result needs the engine: "… when the judge
 * engine has loaded", or that it did not load.
 * @param {Engine} engine @param {string} what e.g. "The prompt appears"
 * @returns {string}
 */
export function engineNote(engine, what) {
  return engine.status === "failed" ? "The judge engine did not load (see above), so nothing can be computed here." : what + " when the judge engine has loaded…";
}
