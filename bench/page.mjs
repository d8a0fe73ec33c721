// page.mjs: how long from navigation until the page is usable (the engine loaded, the evaluators
// listed and the form ready: <html data-ready>), in headless Debian chromium on loopback, through
// the real dev server. Cold: a fresh browser context each run (empty cache); warm: a reload in the
// same context. Prints the median and p90 of N runs of each (N from argv, default 15).
//
//   make build && node bench/page.mjs [N]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { buildServe, startServe, CHROMIUM, CHROMIUM_ARGS } from "../test/e2e/harness.mjs";
import { startFake } from "../test/e2e/fake-upstream.mjs";

const N = Number(process.argv[2]) || 15;
const dir = mkdtempSync(join(tmpdir(), "ragjudge-bench-page-"));
const fake = await startFake();
const serve = await startServe(buildServe(dir), fake.url);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

// readyAt returns the ms from navigation start to the page's ready mark, and what it loaded.
async function readyAt(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true", null, { timeout: 30000 });
  return page.evaluate(() => {
    const mark = performance.getEntriesByName("ragjudge-ready")[0];
    const engine = performance.getEntriesByName("ragjudge-engine")[0];
    const nav = performance.getEntriesByType("navigation")[0];
    const res = performance.getEntriesByType("resource");
    const wasm = res.find((r) => r.name.endsWith(".wasm"));
    const bytes = res.reduce((n, r) => n + (r.transferSize || 0), nav ? nav.transferSize : 0);
    return { ms: mark.startTime, engineMs: engine ? engine.startTime : NaN, wasmBytes: wasm ? wasm.transferSize : 0, bytes, evaluators: document.querySelectorAll('[data-ref^="pick-"]').length };
  });
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p90: q(0.9), min: s[0], max: s[s.length - 1] };
};

const cold = [];
const coldEngine = [];
const warm = [];
let info = null;
try {
  for (let i = 0; i < N; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(serve.url + "/");
    const r = await readyAt(page);
    if (r.evaluators < 4) throw new Error(`only ${r.evaluators} evaluators listed`);
    cold.push(r.ms);
    coldEngine.push(r.engineMs);
    info = info || r;
    await page.reload();
    warm.push((await readyAt(page)).ms);
    await ctx.close();
  }
} finally {
  await browser.close();
  await serve.stop();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
const f = (x) => x.toFixed(0).padStart(5) + " ms";
const c = stats(cold);
const w = stats(warm);
console.log(`page: navigation to usable page, headless chromium, loopback, N=${N} (${info.bytes} bytes transferred cold, wasm ${info.wasmBytes})`);
console.log(`page: cold (fresh context)  median ${f(c.median)}  p90 ${f(c.p90)}  min ${f(c.min)}  max ${f(c.max)}`);
const e = stats(coldEngine);
console.log(`page: of which engine loaded (ragjudge.js + wasm fetched, compiled, started), cold: median ${f(e.median)}  p90 ${f(e.p90)}`);
console.log(`page: warm (reload)         median ${f(w.median)}  p90 ${f(w.p90)}  min ${f(w.min)}  max ${f(w.max)}`);
