// page.mjs: how soon the page is usable, in headless Debian chromium through the real dev server,
// on loopback and on a throttled 10 Mbps / 40 ms link (Chrome DevTools' network emulation). For
// each load it times, from navigation start:
//   - buttons: the evaluator buttons are in the page and visible (a MutationObserver sees them),
//   - compiled: the wasm is compiled (the page's "ragjudge-compiled" mark, where it makes one),
//   - started: Go is running on it (the page's "ragjudge-started" mark, where it makes one),
//   - engine:  the judge engine can be used (the page's "ragjudge-engine" mark, made when
//              <html data-engine="ready"> is set; older pages make it as the engine resolves),
//   - ready:   the view shown is whole (<html data-ready="true">, "ragjudge-ready"),
// and, for scale, "parsing": when the first subresource was asked for, i.e. when the renderer
// began to read the page (in a fresh context it starts a new process first), and "first paint":
// the browser's first-contentful-paint.
// Cold is a fresh browser context (empty HTTP and code caches); warm is a reload in the same one,
// once the page's service worker (if the build has one) controls it, so that the warm load is
// answered from its cache as a user's second visit is; offline (builds with a service worker, on
// loopback) is one more reload with the network off.
//
// The page is compared with the one of a git ref (default main), built into a temporary directory
// (its wasm, its wasm_exec.js, its evaluators.json if it has one, its dev server), the two loaded
// alternately so that the machine's load falls on both alike. Prints medians (and p90) per build,
// link and cache, with the load average before and after.
//
//   make build && node bench/page.mjs [N=7] [--ref main | --no-ref]

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, copyFileSync, existsSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, buildServe, CHROMIUM, CHROMIUM_ARGS } from "../test/e2e/harness.mjs";
import { startFake } from "../test/e2e/fake-upstream.mjs";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a))) || 7;
const refIdx = args.indexOf("--ref");
const REF = args.includes("--no-ref") ? null : refIdx >= 0 ? args[refIdx + 1] : "main";

const LINKS = {
  loopback: null,
  // 10 Mbit/s each way, 40 ms added to every request.
  throttled: { offline: false, latency: 40, downloadThroughput: (10e6 / 8), uploadThroughput: (10e6 / 8) },
};

const tmp = mkdtempSync(join(tmpdir(), "ragjudge-bench-page-"));
const GOROOT = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();

/** buildRef builds the page and dev server of git ref into dir; returns {bin, web}. */
function buildRef(ref, dir) {
  execFileSync("bash", ["-c", `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT });
  const web = join(dir, "web");
  // The wasm as the ref's own Makefile builds it (its flags and GOEXPERIMENT change over time).
  execFileSync("make", ["-s", "web/ragjudge.wasm"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  const wasmExec = [join(GOROOT, "lib/wasm/wasm_exec.js"), join(GOROOT, "misc/wasm/wasm_exec.js")].find(existsSync);
  copyFileSync(wasmExec, join(web, "wasm_exec.js"));
  if (existsSync(join(dir, "cmd/describe"))) execFileSync("go", ["run", "./cmd/describe", "-o", join(web, "evaluators.json")], { cwd: dir });
  if (existsSync(join(dir, "scripts/precompress.mjs"))) execFileSync("node", ["scripts/precompress.mjs", join(web, "ragjudge.wasm")], { cwd: dir, stdio: "ignore" });
  const bin = join(dir, "serve-bin");
  execFileSync("go", ["build", "-o", bin, "./serve"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  return { bin, web };
}

/** serveWeb runs a dev server binary on web, on a free loopback port; resolves {url, stop}. */
function serveWeb(bin, web, upstream) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["-addr", "127.0.0.1:0", "-upstream", upstream, "-web", web], { env: { ...process.env, OPENAI_API_KEY: "" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) resolve({ url: m[1], stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGTERM")))) });
    });
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

// Records when the evaluator buttons are first in the page and visible, whatever the build.
const WATCH = () => {
  const seen = () => {
    const el = document.querySelector('label[for^="pick-"]');
    if (el && el.checkVisibility() && !window.__buttonsAt) {
      window.__buttonsAt = performance.now();
      obs.disconnect();
    }
  };
  const obs = new MutationObserver(seen);
  obs.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden", "class"] });
};

/** measure waits until the page is whole and returns its timings in ms from navigation start. */
async function measure(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && window.__buttonsAt, null, { timeout: 60000 });
  return page.evaluate(() => {
    const mark = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
    const res = performance.getEntriesByType("resource");
    const wasm = res.find((r) => r.name.endsWith(".wasm"));
    // When the first subresource was asked for: the renderer had started and was parsing the page.
    const parsing = Math.min(...res.map((r) => r.startTime));
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
    return { parsing, fcp, buttons: window.__buttonsAt, compiled: mark("ragjudge-compiled"), started: mark("ragjudge-started"), engine: mark("ragjudge-engine"), ready: mark("ragjudge-ready"), wasmBytes: wasm ? wasm.transferSize : 0, picks: document.querySelectorAll('[data-ref^="pick-"]').length };
  });
}

const fake = await startFake();
const builds = [];
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
const load0 = loadavg();
/** @type {Record<string, number[]>} */
const results = {};
const bytes = {};
try {
  if (REF) {
    const dir = join(tmp, "ref");
    execFileSync("mkdir", ["-p", dir]);
    const b = buildRef(REF, dir);
    builds.push({ name: REF, serve: await serveWeb(b.bin, b.web, fake.url) });
  }
  builds.push({ name: "this tree", serve: await serveWeb(buildServe(tmp), join(ROOT, "web"), fake.url) });
  for (const b of builds) b.sw = existsSync(join(b.name === "this tree" ? join(ROOT, "web") : join(tmp, "ref", "web"), "sw.js"));

  for (let i = 0; i < N; i++) {
    // Alternate which build goes first, so neither always follows the other.
    const order = i % 2 ? [...builds].reverse() : builds;
    for (const b of order) {
      for (const [link, cond] of Object.entries(LINKS)) {
        const ctx = await browser.newContext();
        const page = await ctx.newPage();
        await page.addInitScript(WATCH);
        if (cond) {
          const cdp = await ctx.newCDPSession(page);
          await cdp.send("Network.enable");
          await cdp.send("Network.emulateNetworkConditions", cond);
        }
        for (const cache of ["cold", "warm", "offline"]) {
          if (cache === "offline" && (!b.sw || cond)) continue;
          if (cache === "cold") await page.goto(b.serve.url + "/#evaluate", { waitUntil: "commit" });
          else {
            if (b.sw) await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60000 });
            if (cache === "offline") await ctx.setOffline(true);
            await page.reload({ waitUntil: "commit" });
          }
          const r = await measure(page).catch((e) => {
            throw new Error(`${b.name}, ${link}, ${cache}, load ${i + 1}: ${e.message}`);
          });
          if (r.picks < 4) throw new Error(`${b.name}: only ${r.picks} evaluators listed`);
          for (const k of ["parsing", "fcp", "buttons", "compiled", "started", "engine", "ready"]) (results[`${b.name}|${link}|${cache}|${k}`] ??= []).push(r[k]);
          if (cache === "cold") bytes[`${b.name}|${link}`] = r.wasmBytes;
        }
        await ctx.close();
      }
    }
  }
} finally {
  await browser.close();
  for (const b of builds) await b.serve.stop();
  await fake.close();
  rmSync(tmp, { recursive: true, force: true });
}
const load1 = loadavg();

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const f = (x) => (Number.isFinite(x) ? x.toFixed(0) : "—").padStart(5);
console.log(`page: navigation → evaluator buttons visible / engine ready / view whole, ms, median (p90) of ${N} loads each; headless chromium`);
console.log(`page: load average ${load0.map((x) => x.toFixed(2)).join(" ")} before, ${load1.map((x) => x.toFixed(2)).join(" ")} after`);
for (const link of Object.keys(LINKS)) {
  for (const cache of ["cold", "warm", "offline"]) {
    for (const b of builds) {
      if (!results[`${b.name}|${link}|${cache}|buttons`]) continue;
      const cell = (k) => {
        const xs = results[`${b.name}|${link}|${cache}|${k}`];
        return `${f(q(xs, 0.5))} (${f(q(xs, 0.9))})`;
      };
      console.log(`page: ${link.padEnd(9)} ${cache} ${b.name.padEnd(9)}  parsing ${cell("parsing")}  first paint ${cell("fcp")}  buttons ${cell("buttons")}  compiled ${cell("compiled")}  started ${cell("started")}  engine ${cell("engine")}  ready ${cell("ready")}${cache === "cold" ? `  wasm ${bytes[`${b.name}|${link}`]} B on the wire` : ""}`);
    }
  }
}
