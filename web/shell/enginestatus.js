// enginestatus.js: the judge engine as the page's views see it while it loads. The page is drawn before
// the wasm is ready (app.js draws the views from evaluators.json): a view reads `engine.rj`,
// which is null until the engine can be used, and redraws on the "change" event, when the engine
// becomes ready or fails to load.

/** @typedef {import("../ragjudge.js").RagJudge} RagJudge */

/** Engine holds the judge engine once it is loaded; "change" is dispatched when its status changes. */
export class Engine extends EventTarget {
  constructor() {
    super();
    /** @type {RagJudge|null} the loaded engine; null while it loads or when it failed */
    this.rj = null;
    /** @type {"loading"|"ready"|"failed"} */
    this.status = "loading";
    /** @type {Error|null} why the engine did not load */
    this.error = null;
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
            const rj = /** @type {any} */ (this.rj);
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

  /**
   * whenReady resolves to true once the engine is ready, or to false if it failed to load.
   * @returns {Promise<boolean>}
   */
  whenReady() {
    if (this.status !== "loading") return Promise.resolve(this.status === "ready");
    return new Promise((resolve) => this.addEventListener("change", () => resolve(this.status === "ready"), { once: true }));
  }

  /** ready makes rj the engine and tells the views. @param {RagJudge} rj */
  ready(rj) {
    this.rj = rj;
    this.status = "ready";
    this.dispatchEvent(new Event("change"));
  }

  /** fail records why the engine did not load and tells the views. @param {unknown} err */
  fail(err) {
    this.error = err instanceof Error ? err : new Error(String(err));
    this.status = "failed";
    this.dispatchEvent(new Event("change"));
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
