// bench/batch.mjs: the Batch view's throughput and main-thread load in headless chromium.
// 1,000 rows against the fake upstream (test/e2e/batch-upstream.mjs) answering after 100 ms, at
// concurrency 16, no faults; reports wall time from Run to the last row against the ideal
// 1000 × 0.1 / 16 = 6.25 s, and the longest main-thread task (PerformanceObserver "longtask").
//
// Measures:
//   direct  the page calls the fake upstream itself over HTTP/2 (TLS, a throwaway self-signed
//           certificate), as it calls a provider that allows browser calls: 16 calls in flight;
//   bare    the ceiling: the very requests the page sent in direct, replayed by a bare fetch loop
//           in a worker of the same browser, 16 at a time; what any page could do on this machine;
//   proxy   through the dev server (serve/, plain HTTP on loopback), whose calls socket (one
//           WebSocket) carries all 16 calls; over HTTP/1.1 a browser keeps at most 6 per host;
//   table   opens a finished 10,000-row run and filters and scrolls its table.
//   faults  through the dev server, interleaved and repeated (--repeat, default 3), medians: no
//           faults; 10% 500s; 10% 429s (Retry-After: 1) and 10% 500s; 20% 500s (the same calls
//           with the 429s turned into 500s). Goals: the 429 run within 1.5x of the run without
//           its 429s, and >= 95% of ideal without faults. --before DIR adds the same runs of the
//           page in DIR (the web/ directory of an earlier commit's checkout, with the wasm built,
//           served by that checkout's dev server) to compare.
// direct, bare and proxy drive chromium over a bare DevTools pipe (cdp.mjs), not Playwright, whose
// network instrumentation of every request costs this benchmark about a tenth of its throughput.
//
//   node bench/batch.mjs [--rows 1000] [--latency 100] [--concurrency 16] [--only direct|proxy|table|faults|firstvisit]
//                        [--repeat 3] [--before DIR] [--delay MS]
//   (--only direct also runs bare, which replays direct's requests)

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeUpstream, datasetJSONL } from "../test/e2e/batch-upstream.mjs";
import { startServe, launch, progress, waitFor, CHROMIUM_ARGS } from "../test/e2e/batch-env.mjs";
import { launchRaw } from "./cdp.mjs";

const args = process.argv.slice(2);
const opt = (name, d) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : d;
};
const ROWS = Number(opt("--rows", 1000));
const LATENCY = Number(opt("--latency", 100));
const CONC = Number(opt("--concurrency", 16));
const ONLY = opt("--only", "");
const DELAY = Number(opt("--delay", 0));

function selfSigned() {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-bench-tls-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  const tls = { key: readFileSync(join(dir, "k.pem")), cert: readFileSync(join(dir, "c.pem")) };
  rmSync(dir, { recursive: true, force: true });
  return tls;
}

/** pageHooks runs in the page before its scripts: it records long tasks, the click on Run and the
 * moment the run card says done, so that the run is timed in the page and the harness adds nothing. */
function pageHooks(s) {
  if (!localStorage.getItem("ragjudge.page.v1")) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ view: "batch", settings: s }));
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  addEventListener(
    "click",
    (e) => {
      if (e.target.closest && e.target.closest('[data-ref="batch-run"]')) window.__runClick = { perf: performance.now(), wall: Date.now() };
    },
    true,
  );
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => {
      const card = document.querySelector('[data-ref="batch-run-card"]');
      if (window.__runClick && !window.__runDone && card && card.dataset.state === "done") window.__runDone = { perf: performance.now(), wall: Date.now() };
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
  });
}

/** setUp loads the dataset into the Batch view through its file input, as a picked file would. */
function setUp({ rows, conc, jsonl }) {
  const $ = (ref) => document.querySelector(`[data-ref="${ref}"]`);
  const conc_ = $("batch-concurrency");
  conc_.value = String(conc);
  conc_.dispatchEvent(new Event("change", { bubbles: true }));
  const input = $("batch-file");
  const dt = new DataTransfer();
  dt.items.add(new File([jsonl], "bench.jsonl", { type: "application/jsonl" }));
  input.files = dt.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
  performance.setResourceTimingBufferSize(rows + 500);
  return true;
}

function chooseEvaluator(id) {
  const sel = document.querySelector('[data-ref="batch-evaluator"]');
  if (![...sel.options].some((o) => o.value === id)) return false;
  sel.value = id;
  sel.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
}

/** callDurations lists what the browser waited for each judge call (resource timing). */
function callDurations() {
  return performance
    .getEntriesByType("resource")
    .filter((e) => e.name.includes("/chat/completions"))
    .map((e) => e.duration);
}

/** bare is the ceiling: the same calls (the prompts the page sent, replayed) made by a bare
 * fetch loop in a dedicated worker of the same browser, `conc` at a time, with nothing else to do. */
function bare({ url, bodies, conc }) {
  const src = `onmessage = async ({ data: { url, bodies, conc } }) => {
    let next = 0;
    const t0 = performance.now();
    const lane = async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const r = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", authorization: "Bearer x" } });
        await r.text();
      }
    };
    await Promise.all(Array.from({ length: conc }, lane));
    postMessage(performance.now() - t0);
  };`;
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
  return new Promise((resolve, reject) => {
    w.onmessage = (e) => (w.terminate(), resolve(e.data));
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ url, bodies, conc });
  });
}

/**
 * measure runs the benchmark once in mode; random: the fake upstream's random faults
 * (batch-upstream.mjs), web: the page's directory to serve instead of this checkout's.
 */
async function measure(mode, { random = null, web = null, blockSW = false } = {}) {
  const direct = mode === "direct" || mode === "bare";
  const tls = direct ? selfSigned() : null;
  const upstream = await startFakeUpstream({ latencyMs: LATENCY, faults: false, cors: direct, tls, keepBodies: mode === "direct", random });
  process.env.RAGJUDGE_SERVE = web ? serveOf(web) : ""; // batch-env.mjs buildServe
  const serve = await startServe(upstream.url + "/v1", web ? ["-web", web] : []);
  const browser = await launchRaw(process.env.CHROMIUM || "/usr/bin/chromium", [...CHROMIUM_ARGS, "--window-size=1366,900", ...(direct ? ["--ignore-certificate-errors"] : [])]);
  try {
    const page = await browser.newPage();
    if (mode === "bare") {
      // The bodies the page sends for these rows, recorded by measure("direct") on this upstream.
      await page.goto(upstream.url + "/v1/models");
      const ms = await page.evaluate(bare, { url: upstream.url + "/v1/chat/completions", bodies: lastBodies, conc: CONC });
      const st = upstream.stats;
      return { mode, wall: ms / 1000, ideal: (ROWS * LATENCY) / 1000 / CONC, meanInflight: st.busyMs / (st.last - st.first), meanCallMs: st.busyMs / st.calls, maxInflight: st.maxInflight, calls: st.calls };
    }
    const settings = direct ? { endpoint: "direct", baseURL: upstream.url + "/v1", model: "fake-judge" } : { endpoint: "proxy", model: "fake-judge" };
    // The page as a browser without service workers sees it (offline.js and wasmstart.js test navigator.serviceWorker).
    if (blockSW) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "serviceWorker", { get: () => undefined, configurable: true }));
    await page.addInitScript(pageHooks, settings);
    await page.goto(serve.url + "/#batch");
    await page.waitFor(() => document.documentElement.dataset.ready === "true" && !!document.querySelector('[data-ref="batch-setup"]'), undefined, { what: "the Batch view" });
    await page.evaluate(setUp, { rows: ROWS, conc: CONC, jsonl: datasetJSONL(ROWS) });
    await page.waitFor(chooseEvaluator, "answer-grounding", { what: "the evaluator list" });
    await page.waitFor(() => /About [\d,]+ calls/.test(document.querySelector('[data-ref="batch-estimate"]').textContent), undefined, { timeoutMs: 60_000, what: "the estimate" });
    if (DELAY) await new Promise((r) => setTimeout(r, DELAY)); // --delay: a user who looks before pressing Run
    await page.evaluate(() => {
      window.__longtasks = [];
      document.querySelector('[data-ref="batch-run"]').click();
    });
    // The call worker starts with the run; its resource timing buffer must hold every call.
    await page.waitFor(() => !!window.__runClick, undefined, { what: "the click on Run" });
    const grow = (n) => (performance.setResourceTimingBufferSize(n + 500), true);
    for (let i = 0; i < 50 && page.workers.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await page.evaluateInWorkers(grow, ROWS);
    // One evaluate that resolves when the page records the end: polling from here would itself
    // load the two CPUs the run is measured on.
    await page.evaluate(
      (rows) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("the run did not finish within 5 min")), 300_000);
          const check = () => {
            const el = document.querySelector('[data-ref="batch-progress-text"]');
            if (window.__runDone && el && Number(el.dataset.done) === rows) {
              clearTimeout(timer);
              resolve();
            } else setTimeout(check, 500);
          };
          check();
        }),
      ROWS,
    );
    const r = await page.evaluate(() => ({ click: window.__runClick, done: window.__runDone, longtasks: window.__longtasks, text: document.querySelector('[data-ref="batch-progress-text"]').textContent }));
    const calls = (await page.evaluate(callDurations)).concat(...(await page.evaluateInWorkers(callDurations)).filter(Boolean));
    if (mode === "direct") lastBodies = upstream.bodies.slice(0, ROWS);
    const callMs = calls.reduce((a, b) => a + b, 0) / Math.max(1, calls.length);
    const wall = (r.done.perf - r.click.perf) / 1000;
    const ideal = (ROWS * LATENCY) / 1000 / CONC;
    const st = upstream.stats;
    // What the browser waited per call bounds what the page can do (direct: resource timing;
    // calls over the dev server's socket have none).
    const pageIdeal = (ROWS * callMs) / 1000 / CONC;
    return {
      mode,
      wall,
      ideal,
      pageIdeal,
      browserCallMs: callMs,
      longest: r.longtasks.reduce((m, t) => Math.max(m, t.duration), 0),
      longtasks: r.longtasks.length,
      longList: r.longtasks.map((t) => `${(t.start - r.click.perf).toFixed(0)}+${t.duration.toFixed(0)}`).join(" "),
      maxInflight: st.maxInflight,
      meanInflight: st.busyMs / (st.last - st.first),
      meanCallMs: st.busyMs / st.calls,
      // Where the time outside the upstream's busy window went: before its first call, after its last.
      leadMs: st.firstWall - r.click.wall,
      tailMs: r.done.wall - st.lastWall,
      calls: st.calls,
      socketCalls: (serve.stderr().match(/ WS \/v1\/chat\/completions /g) || []).length,
      byFault: { ...st.byFault },
      withoutVerdict: Number((/([\d,]+) without a verdict/.exec(r.text) || ["", "-1"])[1].replace(/,/g, "")),
      text: r.text,
      ...accessLog(serve.stderr(), r.click.wall, r.done.wall),
    };
  } finally {
    await browser.close();
    await serve.close();
    await upstream.close();
  }
}

let lastBodies = null;

const serveBins = new Map();
/**
 * serveOf builds, once, the dev server of the checkout whose web/ directory is web (a --before
 * page is served by its own dev server, as it was delivered), and returns the binary's path.
 */
function serveOf(web) {
  if (!serveBins.has(web)) {
    const bin = join(mkdtempSync(join(tmpdir(), "ragjudge-bench-serve-")), "serve");
    execFileSync("go", ["build", "-o", bin, "./serve"], { cwd: join(web, ".."), stdio: ["ignore", "inherit", "inherit"] });
    serveBins.set(web, bin);
  }
  return serveBins.get(web);
}

/**
 * accessLog reads the dev server's access log (serve/server.go: "2006/01/02 15:04:05.000000 GET
 * /path 200 1.2ms", each line written when its answer ends): how many times the wasm was sent,
 * and how many of the page's own files were answered between from and to (ms since the epoch).
 */
function accessLog(log, from, to) {
  let wasm = 0;
  let during = 0;
  let files = 0;
  for (const line of log.split("\n")) {
    const m = /^(\d{4})\/(\d\d)\/(\d\d) (\d\d:\d\d:\d\d\.\d+) GET (\S+) (\d+)/.exec(line);
    if (!m || m[5].startsWith("/ragjudge/") || m[5].startsWith("/v1/")) continue;
    files++;
    if (/\/ragjudge\.wasm$/.test(m[5]) && m[6] === "200") wasm++;
    const at = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}`).getTime();
    if (at >= from && at <= to) during++;
  }
  return { wasmSent: wasm, filesDuringRun: during, filesAsked: files };
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
      const { openStore } = await import("./batch/runstore.js");
      const { createRun } = await import("./batch/runrecords.js");
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

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
};
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/**
 * faultsBench: the faulty runs through the dev server against the clean one, interleaved (one
 * of each in turn, REPEAT times) so that a change in the machine's load falls on all alike.
 */
async function faultsBench() {
  const repeat = Number(opt("--repeat", 3));
  const before = opt("--before", "");
  const contenders = [
    { name: "no faults", random: null },
    { name: "10% 500s", random: { p500: 0.1, seed: 11 } },
    { name: "10% 429s + 10% 500s", random: { p429: 0.1, p500: 0.1, seed: 11 } },
    { name: "20% 500s (429s as 500s)", random: { p500: 0.2, seed: 11 } },
  ];
  // --contenders 0,2 runs only those (by index above).
  const pick = opt("--contenders", "");
  if (pick) contenders.splice(0, contenders.length, ...pick.split(",").map((i) => contenders[Number(i)]));
  const versions = [{ name: "this", web: null }];
  if (before) versions.push({ name: "before", web: before });
  const runs = [];
  console.log(`faults: ${repeat} rounds, load average ${loadavg()} at the start`);
  for (let i = 0; i < repeat; i++) {
    for (const v of versions) {
      for (const c of contenders) {
        const r = await measure("proxy", { random: c.random, web: v.web });
        const load = loadavg();
        runs.push({ version: v.name, contender: c.name, wall: r.wall, withoutVerdict: r.withoutVerdict, load });
        console.log(`  round ${i + 1} ${v.name.padEnd(6)} ${c.name.padEnd(24)} wall ${r.wall.toFixed(2)} s, ${r.calls} calls ${JSON.stringify(r.byFault)}, ${r.withoutVerdict} rows without a verdict; first call ${r.leadMs} ms after Run, done ${r.tailMs} ms after the last; load ${load}`);
      }
    }
  }
  const ideal = (ROWS * LATENCY) / 1000 / CONC;
  console.log(`faults: medians of ${repeat} (ideal ${ideal.toFixed(2)} s); load average ${loadavg()} at the end`);
  for (const v of versions) {
    const med = (name) => median(runs.filter((r) => r.version === v.name && r.contender === name).map((r) => r.wall));
    for (const c of contenders) {
      const m = med(c.name);
      const bad = Math.max(...runs.filter((r) => r.version === v.name && r.contender === c.name).map((r) => r.withoutVerdict));
      console.log(`  ${v.name.padEnd(6)} ${c.name.padEnd(24)} ${m.toFixed(2)} s = ${((ideal / m) * 100).toFixed(1)}% of ideal; at most ${bad} rows without a verdict`);
    }
    if (contenders.length < 4) continue;
    const faulty = med(contenders[2].name);
    console.log(
      `  ${v.name.padEnd(6)} 429s+500s / 500s only = ${(faulty / med(contenders[1].name)).toFixed(2)}x; / 429s as 500s = ${(faulty / med(contenders[3].name)).toFixed(2)}x (goal <= 1.5x); no faults ${((ideal / med(contenders[0].name)) * 100).toFixed(1)}% of ideal (goal >= 95%)`,
    );
  }
}

/**
 * firstVisitBench: a first visit's run with the page's service worker allowed and blocked, of this
 * page and, with --before DIR, of DIR's, interleaved (one of each in turn, REPEAT times).
 */
async function firstVisitBench() {
  const repeat = Number(opt("--repeat", 5));
  const before = opt("--before", "");
  const versions = [{ name: "this", web: null }];
  if (before) versions.push({ name: "before", web: before });
  const contenders = [];
  for (const v of versions) for (const blockSW of [false, true]) contenders.push({ ...v, blockSW, label: `${v.name} ${blockSW ? "no worker" : "worker"}` });
  const runs = [];
  console.log(`firstvisit: ${repeat} rounds, load average ${loadavg()} at the start`);
  for (let i = 0; i < repeat; i++) {
    const order = i % 2 ? [...contenders].reverse() : contenders;
    for (const c of order) {
      const r = await measure("proxy", { web: c.web, blockSW: c.blockSW });
      runs.push({ ...r, label: c.label });
      console.log(`  round ${i + 1} ${c.label.padEnd(17)} wall ${r.wall.toFixed(2)} s, first call ${r.leadMs} ms after Run, longest task ${r.longest.toFixed(0)} ms; wasm sent ${r.wasmSent}x, ${r.filesDuringRun} files answered during the run (${r.filesAsked} in all); load ${loadavg()}`);
    }
  }
  const ideal = (ROWS * LATENCY) / 1000 / CONC;
  console.log(`firstvisit: medians of ${repeat} (ideal ${ideal.toFixed(2)} s); load average ${loadavg()} at the end`);
  const med = (label, k) => median(runs.filter((r) => r.label === label).map((r) => r[k]));
  for (const c of contenders) {
    console.log(`  ${c.label.padEnd(17)} wall ${med(c.label, "wall").toFixed(2)} s = ${((ideal / med(c.label, "wall")) * 100).toFixed(1)}% of ideal; first call ${med(c.label, "leadMs").toFixed(0)} ms after Run; longest task ${med(c.label, "longest").toFixed(0)} ms; wasm sent ${med(c.label, "wasmSent")}x; ${med(c.label, "filesDuringRun")} files answered during the run`);
  }
  for (const v of versions) {
    console.log(`  ${v.name.padEnd(6)} worker / no worker = ${(med(`${v.name} worker`, "wall") / med(`${v.name} no worker`, "wall")).toFixed(2)}x (goal <= 1.1x)`);
  }
}

if (ONLY === "firstvisit") {
  console.log(`bench/batch: ${ROWS} rows, fake upstream latency ${LATENCY} ms, concurrency ${CONC}; ideal ${((ROWS * LATENCY) / 1000 / CONC).toFixed(2)} s`);
  await firstVisitBench();
  process.exit(0);
}

if (ONLY === "faults") {
  console.log(`bench/batch: ${ROWS} rows, fake upstream latency ${LATENCY} ms, concurrency ${CONC}; ideal ${((ROWS * LATENCY) / 1000 / CONC).toFixed(2)} s`);
  await faultsBench();
  process.exit(0);
}

// bare replays the prompts of the direct run, so it runs right after it.
const modes = ONLY === "direct" ? ["direct", "bare"] : ONLY ? [ONLY] : ["direct", "bare", "proxy", "table"];
console.log(`bench/batch: ${ROWS} rows, fake upstream latency ${LATENCY} ms, concurrency ${CONC}; ideal ${((ROWS * LATENCY) / 1000 / CONC).toFixed(2)} s`);
let directWall = 0;
for (const m of modes) {
  if (m === "table") {
    await measureTable();
    continue;
  }
  const r = await measure(m);
  const pct = (x) => (x * 100).toFixed(1) + "%";
  const up = `upstream saw ${r.calls} calls, at most ${r.maxInflight} and on average ${r.meanInflight.toFixed(1)} at once, ${r.meanCallMs.toFixed(0)} ms each`;
  if (m === "bare") {
    console.log(
      `bare   wall ${r.wall.toFixed(2)} s = ${pct(r.ideal / r.wall)} of ideal: the same ${r.calls} calls from a bare fetch loop in a worker of the same browser (${up}); ` +
        `the page reached ${pct(r.wall / directWall)} of that`,
    );
    continue;
  }
  if (m === "direct") directWall = r.wall;
  console.log(
    `${m.padEnd(6)} wall ${r.wall.toFixed(2)} s = ${pct(r.ideal / r.wall)} of ideal; ${up}, the first ${r.leadMs} ms after Run and the last ${r.tailMs} ms before done; ` +
      (m === "proxy"
        ? `${r.socketCalls} of the calls went over the dev server's calls socket`
        : `the browser waited ${r.browserCallMs.toFixed(0)} ms per call, so ${pct(r.pageIdeal / r.wall)} of the ${r.pageIdeal.toFixed(2)} s that allows`) +
      `; longest main-thread task ${r.longest ? r.longest.toFixed(0) + " ms" : "none over 50 ms"} (${r.longtasks} long tasks${r.longtasks ? ", at " + r.longList + " ms after Run" : ""})`,
  );
}
