// loadwasm.js loads ragjudge.wasm and Go's wasm_exec.js for ragjudge.js, the same in browsers and
// in Node >= 20: a URL, a path (Node), bytes, a Response or a compiled module for the wasm; a
// <script> element, vm.runInThisContext or indirect eval for wasm_exec.js; and starts Go on it
// (wasmstart.js does the same in the page, earlier, and load() takes that Go over).

import { RagJudgeError } from "./errors.js";

const isNode =
  typeof process !== "undefined" && process.versions != null && process.versions.node != null &&
  typeof window === "undefined";

/** @type {Promise<void>|null} */
let runtimePromise = null;

/**
 * RunningGo is Go started on the wasm: wasm_exec.js's Go, the instance it runs and go.run's
 * promise, which is pending while Go's main waits for calls and settles when Go exits.
 * @typedef {{go: any, instance: WebAssembly.Instance, run: Promise<unknown>}} RunningGo
 */

/**
 * isRunningGo tells a RunningGo (from wasmstart.js's start()) from the other forms of load()'s
 * wasm option.
 * @param {unknown} x @returns {x is RunningGo}
 */
export function isRunningGo(x) {
  const r = /** @type {any} */ (x);
  return r != null && typeof r === "object" && r.instance instanceof WebAssembly.Instance && r.go != null && typeof r.run?.then === "function";
}

/**
 * startGo compiles the wasm from src (see compile) with Go's wasm_exec.js loaded meanwhile, and
 * runs Go on it. Go's main blocks at once, waiting for calls, so the exports can be called as
 * soon as this resolves.
 * @param {unknown} src @param {string|URL} [wasmExec] @returns {Promise<RunningGo>}
 */
export async function startGo(src, wasmExec) {
  // Fetching and compiling the wasm does not need Go's runtime: do both at once.
  const [module] = await Promise.all([compile(src), loadRuntime(wasmExec)]);
  const go = new globalThis.Go();
  go.argv = ["ragjudge"];
  go.env = {};
  const instance = await WebAssembly.instantiate(module, go.importObject);
  return { go, instance, run: go.run(instance) };
}

/**
 * Makes globalThis.Go (Go's wasm_exec.js) available, loading wasm_exec.js from beside this module
 * (or from `url`) when it is not already there. wasm_exec.js is a classic script, so it is run as
 * one: a <script> element in a page, vm.runInThisContext in Node, indirect eval in a worker.
 */
export function loadRuntime(url) {
  if (typeof globalThis.Go === "function") return Promise.resolve();
  if (runtimePromise) return runtimePromise;
  runtimePromise = (async () => {
    const src = url ? new URL(String(url), baseURL()) : new URL("../wasm_exec.js", import.meta.url);
    if (isNode && src.protocol === "file:") {
      const [{ readFile }, { fileURLToPath }, vm] = await Promise.all([
        import("node:fs/promises"), import("node:url"), import("node:vm"),
      ]);
      const path = fileURLToPath(src);
      const code = await readFile(path, "utf8").catch((err) => {
        throw loadError(`cannot read wasm_exec.js at ${path} (run \`make build\`): ${err.message}`);
      });
      vm.runInThisContext(code, { filename: path });
    } else if (typeof document !== "undefined" && document.createElement) {
      await new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = src.href;
        s.onload = resolve;
        s.onerror = () => reject(loadError(`cannot load wasm_exec.js from ${src.href}`));
        document.head.appendChild(s);
      });
    } else {
      const res = await fetch(src);
      if (!res.ok) throw loadError(`cannot fetch wasm_exec.js from ${src.href}: ${res.status} ${res.statusText}`);
      (0, eval)(await res.text());
    }
    if (typeof globalThis.Go !== "function") throw loadError("wasm_exec.js did not define globalThis.Go");
  })();
  runtimePromise.catch(() => (runtimePromise = null)); // let a later load() retry
  return runtimePromise;
}

function baseURL() {
  if (typeof document !== "undefined" && document.baseURI) return document.baseURI;
  if (isNode) return "file://" + process.cwd().replace(/\\/g, "/") + "/";
  return import.meta.url;
}

/** loadError is the RagJudgeError of kind "load" for msg. */
export function loadError(msg) {
  return new RagJudgeError("load: " + msg, { kind: "load", detail: msg });
}

/** Compiles the wasm from whatever load() was given; returns a WebAssembly.Module. */
export async function compile(src) {
  if (src && typeof src.then === "function") src = await src; // a Promise<Response>, e.g. fetch(...)
  if (src instanceof WebAssembly.Module) return src;
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) return WebAssembly.compile(/** @type {BufferSource} */ (src));
  if (typeof Response !== "undefined" && src instanceof Response) return fromResponse(src);
  let url;
  if (src instanceof URL) {
    url = src;
  } else if (typeof src === "string") {
    // In Node a string is a path unless it has a URL scheme (a Windows drive letter is not one).
    if (isNode && !/^[a-z][a-z0-9+.-]+:/i.test(src)) {
      const { resolve } = await import("node:path");
      const { pathToFileURL } = await import("node:url");
      url = pathToFileURL(resolve(src));
    } else {
      url = new URL(src, baseURL());
    }
  } else {
    const detail = "wasm must be a URL, a path, bytes (ArrayBuffer or Uint8Array), a Response or a WebAssembly.Module";
    throw new RagJudgeError("input: load: " + detail, { kind: "input", name: "load", detail });
  }
  if (isNode && url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    const { fileURLToPath } = await import("node:url");
    const path = fileURLToPath(url);
    const bytes = await readFile(path).catch((err) => {
      throw loadError(`cannot read ${path} (run \`make build\`): ${err.message}`);
    });
    return WebAssembly.compile(bytes);
  }
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw loadError(`cannot fetch ${url.href}: ${/** @type {Error} */ (err).message}`);
  }
  return fromResponse(res);
}

async function fromResponse(res) {
  if (!res.ok) throw loadError(`cannot fetch ${res.url || "ragjudge.wasm"}: ${res.status} ${res.statusText}`);
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(res.clone());
    } catch {
      // A server that does not send application/wasm: fall back to the bytes.
    }
  }
  return WebAssembly.compile(await res.arrayBuffer());
}
