// api.mjs benchmarks ragjudge through its JS API in Node (`node bench/api.mjs`, run by
// `make bench` after `make build`): load() time, render + parse per evaluator on typical inputs,
// and on inputs of 256 KB, 512 KB and 1 MB to show that the cost per MB stays flat (linear).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { load } from "../web/ragjudge.js";
import { fmt, table } from "./measure.mjs";
import { workloads } from "./workloads.mjs";

const wasmPath = fileURLToPath(new URL("../web/ragjudge.wasm", import.meta.url));

// time runs fn repeatedly for at least minMs (and at least minRuns times) and returns the best
// time of one run in milliseconds: on a shared machine the best run is the one least disturbed by
// other work, so it tracks the code's own cost (and its linearity) far better than the median.
function time(fn, { minMs = 300, minRuns = 5 } = {}) {
  fn(); // warm up
  const runs = [];
  const start = performance.now();
  while (runs.length < minRuns || performance.now() - start < minMs) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return Math.min(...runs);
}

async function timeAsync(fn, runs) {
  const ts = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    await fn();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return ts[ts.length >> 1];
}

// --- load ---
const t0 = performance.now();
const rj = await load();
const firstLoad = performance.now() - t0;
const bytes = readFileSync(wasmPath);
const module = await WebAssembly.compile(bytes);
table(["load()", "median"], [
  ["first load() (read, compile, start)", fmt(firstLoad)],
  ["load() from a path", fmt(await timeAsync(() => load({ wasm: wasmPath }), 10))],
  ["load() from bytes", fmt(await timeAsync(() => load({ wasm: bytes }), 10))],
  ["load() from a compiled Module", fmt(await timeAsync(() => load({ wasm: module }), 10))],
]);
console.log(`ragjudge ${rj.version}, wasm ${bytes.length} bytes\n`);

const rows = [];
for (const [id, inputs, answer] of workloads(4096)) {
  const r = time(() => rj.render(id, inputs));
  const p = time(() => rj.parse(id, inputs, answer));
  const both = time(() => { rj.render(id, inputs); rj.parse(id, inputs, answer); });
  rows.push([id, fmt(r), fmt(p), fmt(both)]);
}
console.log("typical inputs (4 KB of context), best run:");
table(["evaluator", "render", "parse", "render+parse"], rows);

// --- scaling ---
const sizes = [256 << 10, 512 << 10, 1 << 20];
const big = sizes.map(workloads);
const scale = [];
for (let w = 0; w < big[0].length; w++) {
  const row = [big[0][w][0]];
  const perMB = [];
  for (let s = 0; s < sizes.length; s++) {
    const [id, inputs, answer] = big[s][w];
    const ms = time(() => { rj.render(id, inputs); rj.parse(id, inputs, answer); }, { minMs: 500, minRuns: 5 });
    row.push(fmt(ms));
    perMB.push(ms / (sizes[s] / (1 << 20)));
  }
  row.push(perMB.map((x) => x.toFixed(1)).join(" / "));
  scale.push(row);
}
console.log("render+parse on large context sets, best run (the last column should stay flat):");
table(["evaluator", "256 KB", "512 KB", "1 MB", "ms per MB (256K/512K/1M)"], scale);
