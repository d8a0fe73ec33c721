// wasmwarm.js: a worker that starts Go once on the page's compiled wasm and ends, so that the page's
// own start finds Go's start-up code already compiled. V8 compiles a wasm function when it is
// first called (lazy compilation), on the thread that calls it, and the compiled code belongs to
// the module, which a worker shares with the page (postMessage). Most of Go's start in the page
// (runtime, package inits) was that compiling (measured in Chromium: 16-39 ms lazily, 3-12 ms with
// every function compiled ahead), and the page starts Go only once its shell is painted; this
// worker, begun with the page and handed the module as soon as it has compiled, does that
// compiling on another core meanwhile.
// Nothing depends on it: it says whether Go started (true or false), and the page ends it then.
//
// A classic worker, because Go's wasm_exec.js is a classic script (importScripts).

/** @type {any} a dedicated worker's global scope (the page's types know only Window) */
const worker = self;
worker.importScripts("wasm_exec.js");

worker.onmessage = async (/** @type {MessageEvent} */ e) => {
  let started = false;
  try {
    const go = new worker.Go();
    go.argv = ["ragjudge"];
    go.env = {};
    const instance = await WebAssembly.instantiate(/** @type {WebAssembly.Module} */ (e.data), go.importObject);
    go.run(instance); // Go's main blocks at once: run returns when its start is done
    /** @type {any} */ (instance.exports).rj_info(); // what ragjudge.js calls first
    started = !go.exited;
  } catch {
    // The page's own start says what is wrong, if anything is.
  }
  worker.postMessage(started);
};
