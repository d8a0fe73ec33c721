// wasmstart.js starts compiling the judge engine's wasm while it downloads. index.html runs it as
// an async module script, as soon as it arrives and before the page's other modules, so the
// compiler (off the main thread) takes the bytes as they come instead of after the modules have
// run; app.js imports the same instance and starts Go with the result once the shell is drawn.
// A page answered by the service worker's cache compiles later (see compile). Nothing here
// imports anything: it must not wait for the rest of the module graph.

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

const url = new URL("ragjudge.wasm", document.baseURI);

/**
 * compiled is the engine's wasm, compiled (or the Response, see compileEarly), begun at once when
 * the page comes from the network; null when it comes from the service worker's cache.
 * @type {Promise<WebAssembly.Module|Response>|null}
 */
export const compiled = navigator.serviceWorker?.controller ? null : warm(compileEarly(url));
compiled?.catch(() => {}); // app.js says why, once the shell is drawn

/**
 * compile is the engine's wasm, compiled: the compiling begun at once, or, for a page from the
 * cache, begun now. From the network, compiling as the bytes arrive overlaps the download with
 * the first paint's; from the cache the wasm is there at once, and compiling it first took the
 * main thread from the first paint (measured: the buttons later, the engine no sooner), so app.js
 * calls this once the evaluators' descriptions are in.
 * @returns {Promise<WebAssembly.Module|Response>}
 */
export function compile() {
  return compiled ?? compileEarly(url);
}

/**
 * warm hands the compiled module, once there is one, to a worker that starts Go on it and ends
 * (wasmwarm.js): V8 compiles each wasm function on its first call, and the worker has the
 * functions of Go's start compiled, on another core, while the page paints its shell and loads the
 * engine's modules; the page's own start then runs them at once. The
 * worker is begun now, so that it is ready when the module is (begun only then, it was slower than
 * no worker at all on two busy cores). When the page has loaded the engine's modules and Go's
 * wasm_exec.js by then (a slow link: the wasm comes last), it starts Go at once and the worker
 * would only compete with it, so it is ended unused. Only for a
 * page from the network: from the cache, V8 has the compiled code it kept from the last visit, and
 * Go's start took about 10 ms without a worker. Returns compiling as it is.
 * @param {Promise<WebAssembly.Module|Response>} compiling
 * @returns {Promise<WebAssembly.Module|Response>}
 */
function warm(compiling) {
  /** @type {Worker} */
  let w;
  try {
    w = new Worker(new URL("wasmwarm.js", document.baseURI), { name: "ragjudge-wasm-warm" });
  } catch {
    return compiling; // no worker: the page starts Go as before
  }
  const end = () => w.terminate();
  w.onerror = end;
  w.onmessage = (e) => {
    if (e.data === true) performance.mark("ragjudge-warmed"); // for tests and bench/page.mjs
    end();
  };
  compiling.then((m) => {
    // Go's wasm_exec.js, loaded by ragjudge.js's load(): the page is only waiting for the wasm.
    const pageStartsNow = typeof (/** @type {any} */ (globalThis).Go) === "function";
    if (m instanceof WebAssembly.Module && !pageStartsNow) w.postMessage(m);
    else end();
  }, end);
  return compiling;
}
