// bench/batch.mjs: the Batch view's throughput and main-thread load in headless chromium.
// 1,000 rows against the fake upstream (test/e2e/batch-upstream.mjs) answering after 100 ms, at
// concurrency 16, no faults; reports wall time from Run to the last row against the ideal
// 1000 × 0.1 / 16 = 6.25 s, and the longest main-thread task (PerformanceObserver "longtask").
//
// Two paths are measured, because a browser keeps at most 6 HTTP/1.1 connections per host:
//   direct  the page calls the fake upstream itself over HTTP/2 (TLS, a throwaway self-signed
//           certificate), as it calls a provider that allows browser calls: 16 calls in flight;
//   proxy   through the dev server (serve/, plain HTTP/1.1 on loopback): at most 6 in flight.
//
// A third measure, table, opens a finished 10,000-row run and filters and scrolls its table.
//
//   node bench/batch.mjs [--rows 1000] [--latency 100] [--concurrency 16] [--only direct|proxy|table]

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeUpstream, datasetJSONL } from "../test/e2e/batch-upstream.mjs";
import { startServe, launch, setNumber, progress, waitFor } from "../test/e2e/batch-env.mjs";

const args = process.argv.slice(2);
const opt = (name, d) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : d;
};
const ROWS = Number(opt("--rows", 1000));
const LATENCY = Number(opt("--latency", 100));
const CONC = Number(opt("--concurrency", 16));
const ONLY = opt("--only", "");

function selfSigned() {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-bench-tls-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  const tls = { key: readFileSync(join(dir, "k.pem")), cert: readFileSync(join(dir, "c.pem")) };
  rmSync(dir, { recursive: true, force: true });
  return tls;
}

async function measure(mode) {
  const tls = mode === "direct" ? selfSigned() : null;
  const upstream = await startFakeUpstream({ latencyMs: LATENCY, faults: false, cors: mode === "direct", tls });
  const serve = await startServe(upstream.url + "/v1");
  const browser = await launch(mode === "direct" ? ["--ignore-certificate-errors"] : []);
  try {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1366, height: 900 } });
    const settings = mode === "direct" ? { endpoint: "direct", baseURL: upstream.url + "/v1", model: "fake-judge" } : { endpoint: "proxy", model: "fake-judge" };
    await context.addInitScript((s) => {
      if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: s }));
      window.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: "longtask", buffered: true });
    }, settings);
    const page = await context.newPage();
    await page.goto(serve.url + "/#batch");
    await page.waitForSelector('[data-ref="batch-setup"]', { timeout: 30_000 });
    await page.evaluate((n) => performance.setResourceTimingBufferSize(n + 500), ROWS);
    await setNumber(page, "batch-concurrency", CONC);
    await page.locator('[data-ref="batch-file"]').setInputFiles({ name: "bench.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(datasetJSONL(ROWS)) });
    await page.selectOption('[data-ref="batch-evaluator"]', "answer-grounding");
    page.on("pageerror", (e) => console.log("pageerror:", e.message));
    // The calls go out from the run's call worker (web/batch/calls.js): its resource timings are its own.
    page.on("worker", (w) => w.evaluate((n) => performance.setResourceTimingBufferSize(n + 500), ROWS).catch(() => {}));
    await waitFor(() => page.evaluate(() => /About [\d,]+ calls/.test(document.querySelector('[data-ref="batch-estimate"]').textContent)), 60_000, "the estimate");
    const t0 = await page.evaluate(() => {
      window.__longtasks = [];
      return performance.now();
    });
    await page.click('[data-ref="batch-run"]');
    await waitFor(async () => {
      const p = await progress(page);
      return p && p.run && p.state === "done" && p.done === ROWS;
    }, 300_000, "the run to finish");
    const callDurations = () => performance.getEntriesByType("resource").filter((e) => e.name.includes("/chat/completions")).map((e) => e.duration);
    const r = await page.evaluate((cd) => {
      const ends = [...document.querySelectorAll('[data-ref="batch-progress-text"]')];
      return { now: performance.now(), longtasks: window.__longtasks, text: ends[0].textContent, calls: (0, eval)(cd)() };
    }, `(${callDurations})`);
    for (const w of page.workers()) r.calls.push(...(await w.evaluate((cd) => (0, eval)(cd)(), `(${callDurations})`).catch(() => [])));
    r.callMs = r.calls.reduce((a, b) => a + b, 0) / Math.max(1, r.calls.length);
    const wall = (r.now - t0) / 1000;
    const ideal = (ROWS * LATENCY) / 1000 / CONC;
    const longest = r.longtasks.reduce((m, t) => Math.max(m, t.duration), 0);
    const statuses = r.text;
    const st = upstream.stats;
    const meanInflight = st.busyMs / (st.last - st.first);
    const meanCallMs = st.busyMs / st.calls;
    // What the browser itself waited per call (network path included) bounds what the page can do.
    // Through the proxy a call's browser-side time includes waiting for one of the 6 connections,
    // so there the bound is the 6-connection ideal instead.
    const pageIdeal = mode === "proxy" ? (ROWS * LATENCY) / 1000 / Math.min(CONC, 6) : (ROWS * r.callMs) / 1000 / CONC;
    return { mode, wall, ideal, efficiency: ideal / wall, pageIdeal, browserCallMs: r.callMs, longest, longtasks: r.longtasks.length, maxInflight: st.maxInflight, meanInflight, meanCallMs, calls: st.calls, statuses };
  } finally {
    await browser.close();
    await serve.close();
    await upstream.close();
  }
}

/**
 * table: a finished 10,000-row run (seeded straight into IndexedDB through the page's own store
 * module) is opened, filtered and scrolled end to end; reports the time to open it and the
 * longest main-thread task meanwhile.
 */
async function measureTable(rows = 10_000) {
  const upstream = await startFakeUpstream({ latencyMs: 0, faults: false });
  const serve = await startServe(upstream.url + "/v1");
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: { endpoint: "proxy", model: "fake-judge" } }));
      window.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longtasks.push(e.duration);
      }).observe({ type: "longtask", buffered: true });
    });
    const page = await context.newPage();
    await page.goto(serve.url + "/#batch");
    await page.waitForSelector('[data-ref="batch-setup"]', { timeout: 30_000 });
    await page.evaluate(async (n) => {
      const { openStore } = await import("./batch/store.js");
      const { createRun } = await import("./batch/runs.js");
      const store = await openStore();
      const items = Array.from({ length: n }, (_, i) => ({ inputs: { answer: `row-${i + 1}: The Eiffel Tower is in Paris.`, facts: ["The Eiffel Tower stands in Paris."] } }));
      const run = await createRun(store, { name: "big.jsonl", evaluator: "answer-grounding", mapping: {}, columns: [], settings: { endpoint: "/v1", model: "fake-judge", params: {} } }, items);
      for (let i = 0; i < n; i++) {
        const passed = i % 7 === 0 ? null : i % 3 !== 0;
        store.putResult({
          runId: run.id, index: i, answers: [passed === null ? "unsure" : passed ? "Yes" : "No"], error: i % 97 === 0 ? { kind: "http", status: 503, message: "The endpoint failed (HTTP 503) after 5 attempts: retry failed rows later." } : null,
          verdict: i % 97 === 0 ? null : { passed, score: passed === null ? null : passed ? 1 : 0, verdict: {}, checks: passed === null ? [{ severity: "error", message: "the answer is neither yes nor no" }] : [] },
          usage: { prompt_tokens: 300, completion_tokens: 1 }, calls: 1, cachedCalls: 0, attempts: 1, repaired: false, ms: 100, finishedAt: Date.now(),
        });
      }
      await store.flush();
      run.state = "done";
      run.finished = n;
      await store.putRun(run);
    }, rows);
    await page.evaluate(() => (window.__longtasks = []));
    const t0 = Date.now();
    await page.reload();
    await waitFor(async () => {
      const p = await progress(page);
      return p && p.total === rows && p.done === rows;
    }, 60_000, "the big run to open");
    const openMs = Date.now() - t0;
    const afterOpen = await page.evaluate(() => Math.max(0, ...window.__longtasks));
    await page.evaluate(() => (window.__longtasks = []));
    for (const f of ["undetermined", "failed", "all"]) await page.click(`[data-ref="batch-filter-${f}"]`);
    const vt = page.locator('[data-ref="batch-table"]');
    await vt.click();
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 4000);
    await page.keyboard.press("End");
    await page.keyboard.press("Home");
    const scroll = await page.evaluate(() => ({ longest: Math.max(0, ...window.__longtasks), count: window.__longtasks.length, rowsInDom: document.querySelectorAll('[data-ref="batch-table"] .vt-row').length }));
    console.log(`table  ${rows} rows: opened in ${(openMs / 1000).toFixed(2)} s after reload (longest task ${afterOpen.toFixed(0)} ms); filtering and scrolling end to end: longest task ${scroll.longest ? scroll.longest.toFixed(0) + " ms" : "none over 50 ms"} (${scroll.count} long tasks), ${scroll.rowsInDom} rows in the DOM`);
  } finally {
    await browser.close();
    await serve.close();
    await upstream.close();
  }
}

const modes = ONLY ? [ONLY] : ["direct", "proxy", "table"];
console.log(`bench/batch: ${ROWS} rows, fake upstream latency ${LATENCY} ms, concurrency ${CONC}; ideal ${((ROWS * LATENCY) / 1000 / CONC).toFixed(2)} s`);
for (const m of modes) {
  if (m === "table") {
    await measureTable();
    continue;
  }
  const r = await measure(m);
  console.log(
    `${m.padEnd(6)} wall ${r.wall.toFixed(2)} s = ${(r.efficiency * 100).toFixed(1)}% of ideal; ` +
      `upstream saw ${r.calls} calls, at most ${r.maxInflight} and on average ${r.meanInflight.toFixed(1)} at once, ${r.meanCallMs.toFixed(0)} ms each; ` +
      (r.mode === "proxy"
        ? `${((r.pageIdeal / r.wall) * 100).toFixed(1)}% of the ${r.pageIdeal.toFixed(2)} s that 6 connections allow; longest`
        : `the browser saw ${r.browserCallMs.toFixed(0)} ms per call, so ${((r.pageIdeal / r.wall) * 100).toFixed(1)}% of the ${r.pageIdeal.toFixed(2)} s that allows; longest`) + ` main-thread task ${r.longest ? r.longest.toFixed(0) + " ms" : "none over 50 ms"} (${r.longtasks} long tasks)`,
  );
}
