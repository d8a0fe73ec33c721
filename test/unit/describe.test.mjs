// describe.test.mjs: web/evaluators.json, which `make build` writes for the page to draw the
// evaluators before the engine is loaded, is exactly what the built engine's rj.evaluators()
// returns, and the precompressed wasm beside it decodes to the wasm itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

import { api, wasmPath } from "./rj.mjs";

const rj = await api();

test("evaluators.json is what rj.evaluators() returns", () => {
  const file = JSON.parse(readFileSync(new URL("../../web/evaluators.json", import.meta.url), "utf8"));
  const engine = rj.evaluators();
  assert.deepEqual(file, engine);
  // The same order of keys too: the page compares them as JSON text.
  assert.equal(JSON.stringify(file), JSON.stringify(engine));
});

test("ragjudge.wasm.br and ragjudge.wasm.gz are the wasm, with its time", () => {
  const wasm = readFileSync(wasmPath);
  const mtime = statSync(wasmPath, { bigint: true }).mtimeNs;
  for (const [ext, decode] of [[".br", brotliDecompressSync], [".gz", gunzipSync]]) {
    const packed = readFileSync(wasmPath + ext);
    assert.ok(packed.length < wasm.length / 3, `${ext} is compressed`);
    assert.ok(decode(packed).equals(wasm), `${ext} decodes to the wasm`);
    assert.equal(statSync(wasmPath + ext, { bigint: true }).mtimeNs, mtime, `${ext} has the wasm's time, so serve/ sends it`);
  }
});
