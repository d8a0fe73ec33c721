// browser.test.mjs: the same ragjudge.js in a real browser (Debian's headless chromium, driven by
// playwright-core): load() from a page and from a module worker (no document: wasm_exec.js is
// fetched and evaluated), a call, and a RagJudgeError. Skipped when chromium or playwright-core
// is not installed (scripts/install-deps.sh installs both).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const webDir = fileURLToPath(new URL("../../web/", import.meta.url));
const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
let playwright;
try {
  playwright = await import("playwright-core");
} catch {
  playwright = null;
}
const skip = !chromium || !playwright ? "needs chromium and playwright-core" : false;

const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };

let server, base, browser;

before(async () => {
  if (skip) return;
  server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/__test.html") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>ragjudge test</title>");
      return;
    }
    // /octet/… serves the same files as application/octet-stream: load() must then fall back
    // from instantiateStreaming (which insists on application/wasm) to the bytes.
    const octet = url.pathname.startsWith("/octet/");
    const path = normalize(join(webDir, decodeURIComponent(url.pathname.replace(/^\/octet\//, "/"))));
    if (!path.startsWith(webDir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path);
      res.writeHead(200, { "content-type": (!octet && types[extname(path)]) || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await playwright.chromium.launch({ executablePath: chromium, args: ["--no-sandbox"] });
});

after(async () => {
  await browser?.close();
  server?.close();
});

// probe runs in the page or in the worker: it loads the API and reports what it saw.
const probe = `
  const { load, RagJudgeError } = await import(BASE + "/ragjudge.js");
  const rj = await load(OPTS);
  let err;
  try { rj.render("no-such-evaluator", {}); } catch (e) {
    err = { isRJ: e instanceof RagJudgeError, isError: e instanceof Error, name: e.name, kind: e.kind, subject: e.subject, message: e.message };
  }
  return { version: rj.version, evaluators: rj.evaluators().map((e) => e.id), err, global: typeof globalThis.__ragjudge };
`;

function check(got) {
  assert.match(got.version, /^\d+\.\d+\.\d+/);
  assert.ok(Array.isArray(got.evaluators));
  assert.deepEqual(got.err, {
    isRJ: true, isError: true, name: "RagJudgeError", kind: "input", subject: "no-such-evaluator",
    message: 'input: no-such-evaluator: unknown evaluator "no-such-evaluator"',
  });
  assert.equal(got.global, "undefined");
}

test("load() in a page: default path, a URL, a URL served without application/wasm, bytes", { skip }, async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(base + "/__test.html");
  for (const opts of ["undefined", "{ wasm: BASE + '/ragjudge.wasm' }", "{ wasm: BASE + '/octet/ragjudge.wasm' }", "{ wasm: await (await fetch(BASE + '/ragjudge.wasm')).arrayBuffer() }"]) {
    const got = await page.evaluate(`(async () => { const BASE = ${JSON.stringify(base)}; const OPTS = ${opts}; ${probe} })()`);
    check(got);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("load() in a module worker, where there is no document", { skip }, async () => {
  const page = await browser.newPage();
  await page.goto(base + "/__test.html");
  const got = await page.evaluate(`new Promise((resolve, reject) => {
    const code = \`const BASE = ${JSON.stringify(base)}; const OPTS = undefined;
      (async () => { ${probe.replace(/`/g, "\\`")} })().then((r) => postMessage(r), (e) => postMessage({ failed: String(e) }));\`;
    const w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), { type: "module" });
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(new Error(e.message));
  })`);
  assert.equal(got.failed, undefined, got.failed);
  check(got);
  await page.close();
});
