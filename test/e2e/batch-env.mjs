// batch-env.mjs: what the batch browser test and benchmark stand on: the real dev server (serve/,
// built once into a temporary directory), the fake upstream (batch-upstream.mjs) and Debian's
// headless chromium driven by playwright-core.

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

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
/** buildServe compiles ./serve once per process and returns the binary's path. */
export function buildServe() {
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-batch-"));
  const bin = join(dir, "serve");
  execFileSync("go", ["build", "-o", bin, "./serve"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  built = bin;
  return bin;
}

/** startServe starts the dev server against upstream and resolves to {url, close}. */
export async function startServe(upstream, extraArgs = []) {
  const bin = buildServe();
  const child = spawn(bin, ["-addr", "127.0.0.1:0", "-upstream", upstream, "-web", process.env.RAGJUDGE_WEB || join(ROOT, "web"), ...extraArgs], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, OPENAI_API_KEY: "" },
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

/** launch starts headless chromium (extra args appended). */
export function launch(extra = []) {
  return chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: [...CHROMIUM_ARGS, ...extra] });
}

/** openBatch opens the page at url on the Batch tab and waits until the view is mounted. */
export async function openBatch(page, url) {
  await page.goto(url + "/#batch");
  await page.waitForSelector("html[data-ready=true]", { timeout: 30_000 });
  await page.waitForSelector('[data-ref="batch-setup"]', { timeout: 30_000 });
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
    return { run: card.dataset.runId, done: Number(el.dataset.done), total: Number(el.dataset.total), cacheHits: Number(el.dataset.cacheHits), state: card.dataset.state || "", text: el.textContent };
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
