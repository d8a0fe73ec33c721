// bench/batchfile.mjs: the batch file round trip at scale in headless chromium. A dataset of
// --rows rows (default 100,000) is loaded into the Batch view; "Export as batch file" is timed
// from the click to the file's message, then a batch output file is written for it here (each
// line answered "Yes" or "No", as a batch service would; no model is called) and "Import batch
// results" is timed from choosing the file to the run showing every row. Both are timed in the
// page (performance.now()), with the longest main-thread task meanwhile (PerformanceObserver
// "longtask"): the tab must stay responsive. Last, the page is reloaded and the time to reopen the
// imported run is taken, with the longest task from the page's start until it shows every row.
//
// With --trace, a Chromium trace of each phase says how much of its longest tasks was garbage
// collection (V8's GC events on the page's main thread).
//
//   node bench/batchfile.mjs [--rows 100000] [--trace]      (make build first)

import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { datasetJSONL } from "../test/e2e/batch-upstream.mjs";
import { startServe, launch, openBatch, loadDataset, waitFor } from "../test/e2e/batch-env.mjs";

const args = process.argv.slice(2);
const opt = (name, d) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : d;
};
const ROWS = Number(opt("--rows", 100_000));
const TRACE = args.includes("--trace");

/** gcPauses reads a Chromium trace (JSON) for V8's garbage collection pauses: the longest and their sum, in ms. */
function gcPauses(buf) {
  const events = JSON.parse(buf.toString()).traceEvents || [];
  const gc = events.filter((e) => e.ph === "X" && /^(MajorGC|MinorGC|V8\.GC_MARK_COMPACTOR|V8\.GCFinalizeMC|V8\.GCScavenger)$/.test(e.name));
  const max = gc.reduce((m, e) => Math.max(m, e.dur || 0), 0) / 1000;
  const sum = gc.filter((e) => e.name === "MajorGC" || e.name === "MinorGC").reduce((a, e) => a + (e.dur || 0), 0) / 1000;
  return `GC: longest pause ${max.toFixed(0)} ms, ${sum.toFixed(0)} ms in all`;
}
const startTrace = (page) => (TRACE ? browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-v8.gc"] }) : null);
const stopTrace = async () => (TRACE ? "; " + gcPauses(await browser.stopTracing()) : "");

/** hooks runs in the page before its scripts: long tasks, and the moments the bench reads. */
function hooks() {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  window.__marks = {};
  window.__phases = []; // {t, phase}: when the batch file message starts a phase ("Rendering", "Reading", …)
  addEventListener("click", (e) => e.target.closest && e.target.closest('[data-ref="batch-export-batchfile"]') && (window.__marks.exportClick = performance.now()), true);
  addEventListener("change", (e) => e.target.matches && e.target.matches('[data-ref="batch-import-file"]') && (window.__marks.importPick = performance.now()), true);
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => {
      const m = window.__marks;
      const msg = document.querySelector('[data-ref="batchfile-msg"]');
      const phase = msg ? msg.textContent.split("…")[0] : "";
      const last = window.__phases[window.__phases.length - 1];
      if (phase && (!last || last.phase !== phase)) window.__phases.push({ t: performance.now(), phase });
      if (m.exportClick && !m.exportDone && msg && msg.textContent.startsWith("✓ Wrote")) m.exportDone = performance.now();
      const p = document.querySelector('[data-ref="batch-progress-text"]');
      if (p && p.dataset.total && p.dataset.done === p.dataset.total && Number(p.dataset.total) >= 1000) {
        if (m.importPick && !m.importDone) m.importDone = performance.now();
        if (!m.reopened) m.reopened = performance.now();
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** byPhase: the longest task in each phase between from and to, as "phase 12 ms, …". */
function byPhase(tasks, phases, from, to) {
  const ps = phases.filter((p) => p.t <= to);
  const name = (t) => {
    let n = "start";
    for (const p of ps) if (p.t <= t) n = p.phase.slice(0, 24);
    return n;
  };
  const m = new Map();
  for (const t of tasks) if (t.start >= from && t.start <= to) m.set(name(t.start), Math.max(m.get(name(t.start)) || 0, t.duration));
  return [...m].map(([k, v]) => `${k}: ${v.toFixed(0)} ms`).join(", ") || "none over 50 ms";
}

/** phaseTimes: how long each phase between from and to lasted, as "phase 1.2 s, …". */
function phaseTimes(phases, from, to) {
  const ps = phases.filter((p) => p.t >= from && p.t <= to);
  return ps.map((p, i) => `${p.phase.slice(0, 24)} ${(((i + 1 < ps.length ? ps[i + 1].t : to) - p.t) / 1000).toFixed(1)} s`).join(", ");
}

const longest = (tasks, from, to) => tasks.filter((t) => t.start >= from && t.start <= to).reduce((m, t) => Math.max(m, t.duration), 0);

const serve = await startServe("http://127.0.0.1:9/v1"); // no model is called
const browser = await launch(["--js-flags=--max-old-space-size=8192"]);
try {
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(hooks);
  const page = await context.newPage();
  page.setDefaultTimeout(900_000); // reading and checking 100,000 rows takes a while
  page.on("pageerror", (e) => console.error("page error:", String(e)));
  await openBatch(page, serve.url);
  let t = Date.now();
  await loadDataset(page, "big.jsonl", datasetJSONL(ROWS));
  console.log(`dataset: ${ROWS.toLocaleString("en")} rows loaded and checked in ${((Date.now() - t) / 1000).toFixed(1)} s (not part of the figures below)`);

  await startTrace(page);
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 600_000 }), page.click('[data-ref="batch-export-batchfile"]')]);
  await page.waitForFunction(() => window.__marks.exportDone, null, { timeout: 600_000, polling: 200 });
  const exportGC = await stopTrace();
  const path = await download.path();
  const text = await readFile(path, "utf8");
  const lines = text.trimEnd().split("\n");
  const ex = await page.evaluate(() => ({ ...window.__marks, tasks: window.__longtasks, phases: window.__phases }));
  const exportMs = ex.exportDone - ex.exportClick;
  console.log(`export: ${lines.length.toLocaleString("en")} request lines, ${(text.length / 2 ** 20).toFixed(1)} MB, in ${(exportMs / 1000).toFixed(2)} s; longest main-thread task ${longest(ex.tasks, ex.exportClick, ex.exportDone).toFixed(0)} ms (${byPhase(ex.tasks, ex.phases, ex.exportClick, ex.exportDone)})${exportGC}`);

  // The batch service's output, answered here.
  const out = [];
  for (const l of lines) {
    const r = JSON.parse(l);
    const row = Number(/row-(\d+)/.exec(r.body.messages[0].content)[1]);
    const body = { id: "chatcmpl-b", object: "chat.completion", model: r.body.model, choices: [{ index: 0, message: { role: "assistant", content: row % 3 === 0 ? "No" : "Yes" }, finish_reason: "stop" }], usage: { prompt_tokens: 700, completion_tokens: 1, total_tokens: 701 } };
    out.push(JSON.stringify({ id: "batch_req_" + row, custom_id: r.custom_id, response: { status_code: 200, request_id: "req_" + row, body }, error: null }));
  }
  const output = Buffer.from(out.join("\n") + "\n");
  await startTrace(page);
  await page.locator('[data-ref="batch-import-file"]').setInputFiles([{ name: "results.jsonl", mimeType: "application/jsonl", buffer: output }]);
  // An import that takes long says where it is (or why it stopped) every minute.
  const watchdog = setInterval(() => page.textContent('[data-ref="batchfile-msg"]').then((m) => console.error("import still going:", m), () => {}), 60_000);
  await page.waitForFunction(() => window.__marks.importDone, null, { timeout: 900_000, polling: 200 }).finally(() => clearInterval(watchdog));
  const importGC = await stopTrace();
  const im = await page.evaluate(() => ({ ...window.__marks, tasks: window.__longtasks, phases: window.__phases }));
  const importMs = im.importDone - im.importPick;
  console.log(`import: ${(output.length / 2 ** 20).toFixed(1)} MB output, ${ROWS.toLocaleString("en")} rows read, judged and stored in ${(importMs / 1000).toFixed(2)} s; longest main-thread task ${longest(im.tasks, im.importPick, im.importDone).toFixed(0)} ms (${byPhase(im.tasks, im.phases, im.importPick, im.importDone)})${importGC}`);
  console.log(`import phases: ${phaseTimes(im.phases, im.importPick, im.importDone)}`);
  const summary = await page.textContent('[data-ref="batchfile-report"] summary');
  console.log("report:", summary);

  t = Date.now();
  await page.reload();
  await waitFor(() => page.evaluate(() => window.__marks.reopened), 600_000, "the imported run to reopen");
  console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(", ")} (the machine's other work slows every figure and lengthens its tasks)`);
  const re = await page.evaluate(() => ({ ...window.__marks, tasks: window.__longtasks }));
  console.log(`reload: the ${ROWS.toLocaleString("en")}-row imported run reopened in ${((Date.now() - t) / 1000).toFixed(2)} s; longest main-thread task from the page's start ${longest(re.tasks, 0, re.reopened).toFixed(0)} ms`);
} finally {
  await browser.close();
  await serve.close();
}
