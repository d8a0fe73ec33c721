// harness.mjs: what every browser test needs: the real dev server (built once per run from
// ./serve), the fake upstream, and Debian's chromium driven by playwright-core (never a downloaded
// browser), each page in a fresh profile.

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startFake } from "./fake-upstream.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// WEB is the page served; RAGJUDGE_E2E_WEB points the tests at another copy of it.
export const WEB = process.env.RAGJUDGE_E2E_WEB || join(ROOT, "web");
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
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

/** buildServe compiles ./serve into dir and returns the binary's path. */
export function buildServe(dir) {
  const bin = join(dir, "serve");
  execFileSync("go", ["build", "-o", bin, "./serve"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  return bin;
}

/** startServe runs the dev server on a free loopback port and resolves with its URL. */
export function startServe(bin, upstream, { env = {}, args = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["-addr", "127.0.0.1:0", "-upstream", upstream, "-web", WEB, ...args], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let log = "";
    const timer = setTimeout(() => reject(new Error("serve did not start in 20 s: " + out + log)), 20000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child, log: () => log + out, stop: () => stop(child) });
      }
    });
    child.stderr.on("data", (d) => (log += d));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${out}${log}`));
    });
  });
}

function stop(child) {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once("exit", r);
    child.kill("SIGTERM");
  });
}

/**
 * launch starts chromium in a fresh profile directory. Service workers are blocked unless
 * serviceWorkers is "allow": the page's (sw.js) would answer later loads from its cache, which
 * tests that reload, route requests or serve another build do not expect; the offline tests
 * allow it.
 * @param {{serviceWorkers?: "allow"|"block"}} [opts]
 */
export async function launch({ serviceWorkers = "block" } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: apt-get install chromium`);
  const profile = mkdtempSync(join(tmpdir(), "ragjudge-e2e-profile-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 1000 },
    permissions: ["clipboard-read", "clipboard-write"],
    serviceWorkers,
  });
  return {
    ctx,
    async close() {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * setup starts the fake upstream, the dev server in front of it, and chromium; returns
 * {fake, serve, browser, page(), close()}. page(opts) opens a fresh tab on the app, optionally with
 * saved settings, and waits until the page says it is ready.
 */
export async function setup({ serviceWorkers = "block", web = undefined } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-e2e-"));
  const bin = buildServe(dir);
  const fake = await startFake();
  const serve = await startServe(bin, fake.url, web ? { args: ["-web", web] } : {});
  const browser = await launch({ serviceWorkers });
  const pages = [];
  return {
    fake,
    serve,
    browser,
    async page({ settings, key, view = "evaluate" } = {}) {
      // Pages share the profile's localStorage: an earlier page still open could save its state
      // over the one this page is seeded with, so only one page is open at a time.
      while (pages.length) await pages.pop().close().catch(() => {});
      const page = await browser.ctx.newPage();
      page.setDefaultTimeout(15000);
      pages.push(page);
      page.pageErrors = [];
      page.on("pageerror", (e) => page.pageErrors.push(e.message));
      if (settings || key) {
        await page.addInitScript(
          ([s, k]) => {
            if (sessionStorage.getItem("e2e-seeded")) return;
            sessionStorage.setItem("e2e-seeded", "1");
            localStorage.clear();
            if (s) localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: s }));
            if (k) localStorage.setItem("ragjudge.page.key", k);
          },
          [settings, key],
        );
      }
      await page.goto(`${serve.url}/#${view}`);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      return page;
    },
    async close() {
      for (const p of pages) await p.close().catch(() => {});
      await browser.close();
      await serve.stop();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** proxySettings are page settings that send calls through the dev server with model m. */
export function proxySettings(model = "judge-mini", extra = {}) {
  return { endpoint: "proxy", model, temperature: 0, maxTokens: 1024, stream: true, remember: true, ...extra };
}

/** pickEvaluator selects an evaluator in the Evaluate view. */
export async function pickEvaluator(page, id) {
  await page.click(`label[for="pick-${id}"]`);
  await page.waitForFunction((id) => document.querySelector(`[data-ref="pick-${id}"]`).checked, id);
}

/** text returns the trimmed textContent of the first element matching sel. */
export async function text(page, sel) {
  return ((await page.locator(sel).first().textContent()) || "").trim();
}
