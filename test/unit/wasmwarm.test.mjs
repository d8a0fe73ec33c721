// wasmwarm.test.mjs: web/wasmwarm.js, the worker that starts Go on the page's compiled wasm, run
// here in a context of its own with a worker's globals: it says whether Go started, and Go writes
// nothing (a panic in a package init would print its stack).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";

import { root, wasmPath } from "./rj.mjs";

/** worker runs wasmwarm.js in a fresh context; returns its global and what it posted and printed. */
function worker() {
  const posted = [];
  const printed = [];
  const log = (...a) => printed.push(a.join(" "));
  const g = vm.createContext({
    console: { log, error: log, warn: log },
    TextEncoder, TextDecoder, crypto, performance, setTimeout, clearTimeout,
    postMessage: (m) => posted.push(m),
    importScripts: (name) => vm.runInContext(readFileSync(join(root, "web", name), "utf8"), g, { filename: name }),
  });
  vm.runInContext("globalThis.self = globalThis;", g);
  vm.runInContext(readFileSync(join(root, "web", "wasmwarm.js"), "utf8"), g, { filename: "wasmwarm.js" });
  return { g, posted, printed };
}

test("wasmwarm.js starts Go on the module and says it did", async () => {
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const { g, posted, printed } = worker();
  await g.onmessage({ data: module });
  assert.deepEqual(posted, [true]);
  assert.deepEqual(printed, []);
});

test("wasmwarm.js says Go did not start when it cannot", async () => {
  const { g, posted } = worker();
  await g.onmessage({ data: "not a module" });
  assert.deepEqual(posted, [false]);
});
