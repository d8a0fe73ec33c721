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
// (its wasm, its wasm_exec.js, its evaluators.json if it has one, its dev server), and with its
// floor, "bare": a page that only loads and starts the same wasm (its preload, wasmstart.js and
// wasm_exec.js, nothing else; "started" is its engine ready), served by this tree's dev server.
// All are loaded in turn, so that the machine's load falls on them alike. Prints medians (and p90)
// per build, link and cache, with the load average before and after, this tree's engine ready
// against the bare page's (goal: at most 1.25x), and what each warm load asked the server for
// (from its access log: the page's own files, not the API; 304s are revalidations).
//
//   make build && node bench/page.mjs [N=7] [--ref main | --no-ref]

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, copyFileSync, existsSync, mkdirSync, writeFileSync, statSync, utimesSync } from "node:fs";
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

/**
 * bareWeb writes into dir a page that only loads and starts the wasm of web, as the page does
 * (index.html's preload, wasmstart.js, wasm_exec.js): the floor the page's start is measured against.
 */
function bareWeb(web, dir) {
  mkdirSync(dir, { recursive: true });
  for (const f of ["ragjudge.wasm", "ragjudge.wasm.br", "ragjudge.wasm.gz", "wasmstart.js", "wasm_exec.js"]) {
    if (!existsSync(join(web, f))) continue;
    copyFileSync(join(web, f), join(dir, f));
    const st = statSync(join(web, f));
    utimesSync(join(dir, f), st.atime, st.mtime); // the precompressed copies count only with the wasm's time
  }
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>the wasm alone</title>
  <link rel="preload" href="ragjudge.wasm" as="fetch" type="application/wasm" crossorigin fetchpriority="high">
  <script type="module" async src="wasmstart.js"></script>
  <link rel="preload" href="wasm_exec.js" as="script">
</head>
<body><p>The engine starts.</p></body>
</html>
`,
  );
  return dir;
}

/** serveWeb runs a dev server binary on web, on a free loopback port; resolves {url, stop, log}. */
function serveWeb(bin, web, upstream) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["-addr", "127.0.0.1:0", "-upstream", upstream, "-web", web], { env: { ...process.env, OPENAI_API_KEY: "" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) resolve({ url: m[1], log: () => out, stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGTERM")))) });
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

/** asked counts what the dev server answered of the page's own files (not the API) in log. */
function asked(log) {
  const lines = log.split("\n").filter((l) => / GET \/\S* \d+ /.test(l) && !/ GET \/(ragjudge\/|v1\/)/.test(l));
  return { requests: lines.length, revalidated: lines.filter((l) => / 304 /.test(l)).length };
}

/** measureBare waits until the bare page has started Go and returns its timings. */
async function measureBare(page) {
  await page.waitForFunction(() => performance.getEntriesByName("ragjudge-started").length > 0, null, { timeout: 60000 });
  return page.evaluate(() => {
    const mark = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
    const res = performance.getEntriesByType("resource");
    const wasm = res.find((r) => r.name.endsWith(".wasm"));
    const started = mark("ragjudge-started");
    return { parsing: Math.min(...res.map((r) => r.startTime)), fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN, buttons: NaN, compiled: mark("ragjudge-compiled"), started, engine: started, ready: started, wasmBytes: wasm ? wasm.transferSize : 0, picks: 4 };
  });
}

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
let stuck = 0;
try {
  if (REF) {
    const dir = join(tmp, "ref");
    execFileSync("mkdir", ["-p", dir]);
    const b = buildRef(REF, dir);
    builds.push({ name: REF, serve: await serveWeb(b.bin, b.web, fake.url) });
  }
  const serveBin = buildServe(tmp);
  builds.push({ name: "this tree", serve: await serveWeb(serveBin, join(ROOT, "web"), fake.url) });
  builds.push({ name: "bare", bare: true, serve: await serveWeb(serveBin, bareWeb(join(ROOT, "web"), join(tmp, "bare")), fake.url) });
  for (const b of builds) b.sw = !b.bare && existsSync(join(b.name === "this tree" ? join(ROOT, "web") : join(tmp, "ref", "web"), "sw.js"));

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
        let mark = 0;
        for (const cache of ["cold", "warm", "offline"]) {
          if (cache === "offline" && (!b.sw || cond)) continue;
          if (cache === "cold") await page.goto(b.serve.url + "/#evaluate", { waitUntil: "commit" });
          else {
            if (b.sw) await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 60000 });
            if (cache === "offline") await ctx.setOffline(true);
            // A user's second visit: the page opened anew (a reload would revalidate the page's
            // files where a navigation does not).
            await page.goto("about:blank");
            mark = b.serve.log().length;
            await page.goto(b.serve.url + "/#evaluate", { waitUntil: "commit" });
          }
          const r = await (b.bare ? measureBare(page) : measure(page)).catch(async (e) => {
            // Now and then (about 1 load in 25, main's page too, only with the throttled link so
            // far) a load never gets the wasm or the dev server's config: reported and left out,
            // rather than losing the run.
            const state = await page.evaluate(() => ({ ...document.documentElement.dataset, resources: performance.getEntriesByType("resource").map((x) => x.name.split("/").pop()) })).catch(() => ({}));
            console.log(`page: ${b.name}, ${link}, ${cache}, load ${i + 1} left out: ${e.message.split("\n")[0]} ${JSON.stringify(state)}`);
            stuck++;
            return null;
          });
          if (!r) {
            // This load and the ones after it in the context count as none (the rounds stay aligned).
            for (const c of ["cold", "warm", "offline"].slice(["cold", "warm", "offline"].indexOf(cache))) {
              if (c === "offline" && (!b.sw || cond)) continue;
              for (const k of ["parsing", "fcp", "buttons", "compiled", "started", "engine", "ready", ...(c === "warm" ? ["requests", "revalidated"] : [])]) (results[`${b.name}|${link}|${c}|${k}`] ??= []).push(NaN);
            }
            break;
          }
          if (r.picks < 4) throw new Error(`${b.name}: only ${r.picks} evaluators listed`);
          for (const k of ["parsing", "fcp", "buttons", "compiled", "started", "engine", "ready"]) (results[`${b.name}|${link}|${cache}|${k}`] ??= []).push(r[k]);
          if (cache === "warm") {
            // What the warm load asked for: once the page is whole (and, with a worker, once it
            // has looked for a new build, after it is idle), its access log lines since.
            if (b.sw) await page.waitForFunction(() => document.documentElement.dataset.version, null, { timeout: 10000 }).catch(() => {});
            await new Promise((res) => setTimeout(res, 1500));
            const a = asked(b.serve.log().slice(mark));
            (results[`${b.name}|${link}|warm|requests`] ??= []).push(a.requests);
            (results[`${b.name}|${link}|warm|revalidated`] ??= []).push(a.revalidated);
          }
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
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const f = (x) => (Number.isFinite(x) ? x.toFixed(0) : "—").padStart(5);
console.log(`page: navigation → evaluator buttons visible / engine ready / view whole, ms, median (p90) of ${N} loads each; headless chromium`);
console.log(`page: load average ${load0.map((x) => x.toFixed(2)).join(" ")} before, ${load1.map((x) => x.toFixed(2)).join(" ")} after${stuck ? `; ${stuck} loads left out (stuck, see above)` : ""}`);
for (const link of Object.keys(LINKS)) {
  for (const cache of ["cold", "warm", "offline"]) {
    for (const b of builds) {
      if (!results[`${b.name}|${link}|${cache}|buttons`]) continue;
      const cell = (k) => {
        const xs = results[`${b.name}|${link}|${cache}|${k}`];
        return `${f(q(xs, 0.5))} (${f(q(xs, 0.9))})`;
      };
      const warm = cache === "warm" ? `  asked the server for ${cell("requests")} files, ${cell("revalidated")} revalidated (304)` : "";
      console.log(`page: ${link.padEnd(9)} ${cache} ${b.name.padEnd(9)}  parsing ${cell("parsing")}  first paint ${cell("fcp")}  buttons ${cell("buttons")}  compiled ${cell("compiled")}  started ${cell("started")}  engine ${cell("engine")}  ready ${cell("ready")}${cache === "cold" ? `  wasm ${bytes[`${b.name}|${link}`]} B on the wire` : ""}${warm}`);
    }
    // The goal: engine ready at most 1.25x the bare page's Go running, each load against the bare
    // load of the same round (medians of the ratios and of the times).
    for (const b of builds.filter((b) => !b.bare)) {
      const mine = results[`${b.name}|${link}|${cache}|engine`];
      const floor = results[`bare|${link}|${cache}|engine`];
      if (!mine || !floor) continue;
      const ratios = mine.map((x, i) => x / floor[i]);
      console.log(`page: ${link.padEnd(9)} ${cache} ${b.name.padEnd(9)}  engine ready / bare page's: ${(q(mine, 0.5) / q(floor, 0.5)).toFixed(2)}x of the medians, ${q(ratios, 0.5).toFixed(2)}x the median of the rounds' ratios (goal <= 1.25x)`);
    }
  }
}
