// batch-env.mjs: what the batch browser test and benchmark stand on: the real dev server (serve/,
// built once into a temporary directory), the fake upstream (batch-upstream.mjs) and Debian's
// headless chromium driven by playwright-core; and the steps the batch tests share (a file's
// environment, a page on the Batch view, a dataset loaded, a run waited out).

import { before, after } from "node:test";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startFakeUpstream } from "./batch-upstream.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let built = null;
/**
 * buildServe compiles ./serve once per process and returns the binary's path; RAGJUDGE_SERVE, when
 * set, names another one (a benchmark's earlier build, bench/batch.mjs --before).
 */
export function buildServe() {
  if (process.env.RAGJUDGE_SERVE) return process.env.RAGJUDGE_SERVE;
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-batch-"));
  const bin = join(dir, "serve");
  execFileSync("go", ["build", "-o", bin, "./serve"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  built = bin;
  return bin;
}

/**
 * startServe starts the dev server against upstream and resolves to {url, close}; env adds to
 * its environment (OPENAI_API_KEY is empty unless given).
 */
export async function startServe(upstream, extraArgs = [], env = {}) {
  const bin = buildServe();
  const child = spawn(bin, ["-addr", "127.0.0.1:0", "-upstream", upstream, "-web", process.env.RAGJUDGE_WEB || join(ROOT, "web"), ...extraArgs], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, OPENAI_API_KEY: "", ...env },
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("serve did not start: " + stderr)), 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /serving (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

/**
 * startServed starts a fake upstream (opts as startFakeUpstream's) and the dev server in front of
 * it; close() stops the server, then the upstream.
 */
export async function startServed(opts) {
  const upstream = await startFakeUpstream(opts);
  let serve;
  try {
    serve = await startServe(upstream.url + "/v1");
  } catch (err) {
    await upstream.close();
    throw err;
  }
  return {
    upstream,
    serve,
    close: async () => {
      await serve.close();
      await upstream.close();
    },
  };
}

/**
 * useBatchEnv registers the file's before and after hooks: chromium, and with upstreamOpts a
 * fake upstream and the dev server too (startServed), shared by the file's tests. It returns
 * the object the before hook fills in: {browser} or {browser, upstream, serve}.
 */
export function useBatchEnv(upstreamOpts = null) {
  const env = {};
  let served = null;
  before(async () => {
    if (upstreamOpts) {
      served = await startServed(upstreamOpts);
      env.upstream = served.upstream;
      env.serve = served.serve;
    }
    env.browser = await launch();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (served) await served.close();
  });
  return env;
}

/**
 * launch starts headless chromium (extra args appended). Its contexts block service workers (the
 * page's would answer reloads from its cache and hide requests from routes), unless a test asks.
 */
export async function launch(extra = []) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extra] });
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (opts = {}) => newContext({ serviceWorkers: "block", ...opts });
  browser.newPage = (opts = {}) => newPage({ serviceWorkers: "block", ...opts });
  return browser;
}

/** openBatch opens the page at url on the Batch tab and waits until the view is mounted. */
export async function openBatch(page, url) {
  await page.goto(url + "/#batch");
  await page.waitForSelector("html[data-ready=true]", { timeout: 30_000 });
  await page.waitForSelector('[data-ref="batch-setup"]', { timeout: 30_000 });
}

/**
 * loadDataset chooses a dataset file (text named name) in the Batch view, opening the setup card
 * if a run closed it, picks the evaluator and waits until the rows are read and the estimate is
 * drawn ("About N calls"; with checkedOnly, until it no longer says "Checking rows", for a
 * dataset whose rows may all be refused).
 */
export async function loadDataset(page, name, text, { evaluator = "answer-grounding", mimeType = "application/jsonl", checkedOnly = false } = {}) {
  if (!(await page.locator('[data-ref="batch-setup"]').evaluate((d) => d.open))) await page.click('[data-ref="batch-new-run"]');
  await page.locator('[data-ref="batch-file"]').setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
  await page.waitForFunction(() => /✓ .*rows/.test(document.querySelector('[data-ref="batch-file-msg"]').textContent));
  await page.selectOption('[data-ref="batch-evaluator"]', evaluator);
  if (checkedOnly) await page.waitForFunction(() => !/Checking rows/.test(document.querySelector('[data-ref="batch-estimate"]').textContent));
  else await page.waitForFunction(() => /About [\d,]+ calls/.test(document.querySelector('[data-ref="batch-estimate"]').textContent));
}

/** runEnd waits until the page's run is done and returns its progress (as progress reads it). */
export function runEnd(page, timeoutMs, what = "the run to finish") {
  return waitFor(async () => {
    const p = await progress(page);
    return p && p.state === "done" ? p : null;
  }, timeoutMs, what);
}

/**
 * newBatchPage opens a new page of context on the Batch tab at url (openBatch) and collects the
 * page's uncaught errors in pageErrors.
 */
export async function newBatchPage(context, url) {
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await openBatch(page, url);
  return { page, pageErrors };
}

/** setRunOptions sets a call's timeout (s), a row's attempts and the concurrency, those given. */
export async function setRunOptions(page, { timeout, attempts, concurrency }) {
  if (timeout !== undefined) await setNumber(page, "batch-timeout", timeout);
  if (attempts !== undefined) await setNumber(page, "batch-attempts", attempts);
  if (concurrency !== undefined) await setNumber(page, "batch-concurrency", concurrency);
}

/** setNumber types a value into a numeric option of the Batch view and commits it. */
export async function setNumber(page, ref, value) {
  const loc = page.locator(`[data-ref="${ref}"]`);
  await loc.fill(String(value));
  await loc.dispatchEvent("change");
}

/** progress reads the run's counters from the progress line's data attributes. */
export async function progress(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-ref="batch-progress-text"]');
    const card = document.querySelector('[data-ref="batch-run-card"]');
    if (!el || !el.dataset.total) return null;
    return { run: card.dataset.runId, done: Number(el.dataset.done), total: Number(el.dataset.total), cacheHits: Number(el.dataset.cacheHits), saving: Number(el.dataset.saving || 0), state: card.dataset.state || "", text: el.textContent };
  });
}

/** waitFor polls cond (async) every 50 ms until it returns a truthy value or timeoutMs passes. */
export async function waitFor(cond, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await new Promise((r) => setTimeout(r, 50));
  }
}
