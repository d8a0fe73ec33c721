// wasmstart.js starts the judge engine: it compiles the wasm while it downloads and starts Go on it
// the moment it has compiled. index.html runs it as an async module script, as soon as it arrives
// and before the page's other modules, so the compiler (off the main thread) takes the bytes as
// they come, and Go's start (tens of ms on the main thread) waits neither for app.js, nor for the
// shell's paint, nor for the engine's own modules (ragjudge.js and its imports), which arrive later
// on two busy cores; ragjudge.js's load() then takes the running Go over (app.js).
// A page answered by the service worker's cache starts Go later (see start). Nothing here imports
// anything: it must not wait for the rest of the module graph.

/** @typedef {{go: any, instance: WebAssembly.Instance, run: Promise<unknown>}} RunningGo as loadwasm.js has it */

/**
 * compileEarly starts compiling the wasm at url as its bytes arrive and resolves to the
 * WebAssembly.Module; or to the Response itself when it cannot (an HTTP error, a server that does
 * not send application/wasm), for load() to say why or to compile it from its bytes.
 * @param {URL} url @returns {Promise<WebAssembly.Module|Response>}
 */
async function compileEarly(url) {
  let res;
  try {
    res = await fetch(url); // answered by index.html's preload
  } catch (e) {
    throw new Error(`cannot fetch ${url.href}: ${e instanceof Error ? e.message : e}`);
  }
  if (!res.ok || !WebAssembly.compileStreaming) return res;
  try {
    const module = await WebAssembly.compileStreaming(res.clone());
    performance.mark("ragjudge-compiled"); // for bench/page.mjs: what comes after is Go's start
    return module;
  } catch {
    return res;
  }
}

// Beside this module: under v/VERSION/ when the page names the build's files there (index.html as
// served: its preload of the wasm is then of that URL too), so that they are of one build.
const url = new URL("ragjudge.wasm", import.meta.url);

/** fromCache: the page comes from the service worker's cache (Go's start then waits, see start). */
const fromCache = !!navigator.serviceWorker?.controller;

/**
 * compiled is the engine's wasm, compiled (or the Response, see compileEarly), begun at once: off
 * the main thread, and from V8's code cache on a later visit.
 * @type {Promise<WebAssembly.Module|Response>}
 */
const compiled = compileEarly(url);

/**
 * goDefined runs Go's wasm_exec.js (index.html preloads it), which defines the Go class, and
 * resolves true once it has run; false when it cannot be loaded (load() then tries again, and says
 * why when it cannot). A script element made here rather than one in index.html: its handlers are
 * on it before it can load or fail.
 * @returns {Promise<boolean>}
 */
function goDefined() {
  return new Promise((resolve) => {
    const defined = () => typeof (/** @type {any} */ (globalThis).Go) === "function";
    if (defined()) return resolve(true);
    const script = document.createElement("script");
    script.src = new URL("wasm_exec.js", import.meta.url).href; // as index.html preloads it
    script.onload = () => resolve(defined());
    script.onerror = () => resolve(false);
    document.head.append(script);
  });
}

/**
 * startGo instantiates the compiled wasm and runs Go on it. Go's main blocks at once (it waits
 * for calls), so go.run's promise is pending while the engine lives and resolves when Go exits.
 * @param {WebAssembly.Module} module @returns {Promise<RunningGo>}
 */
async function startGo(module) {
  const go = new (/** @type {any} */ (globalThis).Go)();
  go.argv = ["ragjudge"];
  go.env = {};
  const instance = await WebAssembly.instantiate(module, go.importObject);
  const run = go.run(instance);
  performance.mark("ragjudge-started"); // for tests and bench/page.mjs
  return { go, instance, run };
}

/** @type {Promise<RunningGo|WebAssembly.Module|Response>|null} */
let starting = null;

/**
 * start is the engine's Go, running (for ragjudge.js's load() to take over), begun once: from the
 * network, as soon as the wasm has compiled and wasm_exec.js has run; from the service worker's
 * cache, on the first call, starting Go once `after` has resolved (the wasm compiles meanwhile).
 * There the wasm arrives at once, and starting Go first took the main thread from the first
 * paint (measured: the buttons later), so app.js calls this once the evaluators' descriptions
 * are in, with the shell's paint as `after`. Resolves to the compiled
 * module instead when Go's wasm_exec.js is not there to start it, or to the Response when the wasm
 * cannot be compiled from it (see compileEarly): load() goes on from either, as from a URL.
 * @param {Promise<unknown>} [after] @returns {Promise<RunningGo|WebAssembly.Module|Response>}
 */
export function start(after) {
  starting ??= Promise.all([compiled, goDefined(), after]).then(([module, ok]) =>
    // Go failing to start here fails alike in load(), which says why as it always has.
    module instanceof WebAssembly.Module && ok ? startGo(module).catch(() => module) : module);
  return starting;
}

if (!fromCache) start().catch(() => {}); // app.js says why, once the shell is drawn
