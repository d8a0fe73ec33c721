// swprecache.test.mjs: the service worker's precache (web/sw.js) never competes with the page: it
// starts only when a page says it is idle, stops when one says it is busy and goes on from where it
// stopped, reads the HTTP cache before the network, takes unchanged files from an earlier version,
// and keeps a version all or nothing. Run in a vm with stand-ins for Cache Storage, fetch and the
// clients, whose every request is recorded (the same worker in chromium: test/e2e/firstvisit.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCOPE = "https://app.test/";
const sha = (s) => createHash("sha256").update(s).digest("hex");
const keyOf = (k) => (typeof k === "string" ? k : k.url);

/** fakeCaches is Cache Storage in memory: name → (url → Response). */
function fakeCaches() {
  /** @type {Map<string, Map<string, Response>>} */
  const store = new Map();
  const open = async (name) => {
    if (!store.has(name)) store.set(name, new Map());
    const m = store.get(name);
    return {
      match: async (k) => m.get(keyOf(k))?.clone(),
      put: async (k, res) => void m.set(keyOf(k), res),
      delete: async (k) => m.delete(keyOf(k)),
      keys: async () => [...m.keys()].map((u) => new Request(u)),
    };
  };
  return {
    store,
    open,
    has: async (name) => store.has(name),
    delete: async (name) => store.delete(name),
    keys: async () => [...store.keys()],
    match: async (k, { cacheName }) => store.get(cacheName)?.get(keyOf(k))?.clone(),
  };
}

/**
 * fakeNetwork answers the worker's fetches from files (path → text) and records each: its path
 * and cache mode. With gated, each waits for release(); an aborted one rejects as fetch does.
 * httpCache (path → text) is what a force-cache request finds without asking the server.
 */
function fakeNetwork(files, { gated = false, httpCache = {}, serverSends = {} } = {}) {
  const asked = [];
  const waiting = [];
  const fetch = (req) => {
    const path = new URL(req.url).pathname.slice(1);
    const file = path.replace(/^v\/[^/]+\//, "");
    if (req.cache === "force-cache" && file in httpCache) return Promise.resolve(new Response(httpCache[file]));
    asked.push({ path, cache: req.cache });
    const body = file in serverSends ? serverSends[file] : files[file];
    const answer = () => (body === undefined ? new Response("", { status: 404 }) : new Response(body));
    if (!gated) return Promise.resolve(answer());
    return new Promise((resolve, reject) => {
      const w = { resolve: () => resolve(answer()), path };
      waiting.push(w);
      req.signal?.addEventListener("abort", () => {
        const i = waiting.indexOf(w);
        if (i < 0) return; // answered already
        waiting.splice(i, 1);
        reject(new DOMException("aborted", "AbortError"));
      });
    });
  };
  const release = (n = Infinity) => {
    for (const w of waiting.splice(0, n)) w.resolve();
  };
  /** open answers every fetch from now on at once, and those waiting. */
  const open = () => {
    gated = false;
    release();
  };
  return { fetch, asked, waiting, release, open };
}

/** loadWorker runs sw.js with files as its precache list; returns its listeners and stand-ins. */
function loadWorker(files, { caches = fakeCaches(), net = fakeNetwork(files), alive = new Set(["p1", "p2"]), version = "0123456789abcdef" } = {}) {
  const listeners = {};
  const claimed = [];
  const self = {
    registration: { scope: SCOPE },
    serviceWorker: { state: "activated" },
    addEventListener: (type, f) => (listeners[type] = f),
    importScripts: () => (self.PRECACHE = { version, files: Object.entries(files).map(([f, text]) => [f, sha(text)]) }),
    skipWaiting: () => {},
    clients: {
      get: async (id) => (alive.has(id) ? { id } : undefined),
      matchAll: async () => [...alive].map((id) => ({ id, postMessage: () => {} })),
      claim: async () => void claimed.push(true),
    },
  };
  const context = { self, URL, Request, Response, Map, Set, Promise, console, caches, fetch: net.fetch, crypto: globalThis.crypto, AbortController, DOMException, Date, JSON, Array, Uint8Array, Number, String, Object, Error, decodeURIComponent, encodeURIComponent };
  vm.runInNewContext(readFileSync(join(ROOT, "web", "sw.js"), "utf8"), context);
  /** message sends m from client id and resolves to what the worker did with it. */
  const message = (id, m) => {
    let work = Promise.resolve();
    listeners.message({ data: m, source: { id, postMessage: () => {} }, waitUntil: (p) => (work = p) });
    return work;
  };
  const installed = async () => {
    const res = await caches.match(new URL("__versions", SCOPE).href, { cacheName: "ragjudge-pins" });
    return res ? JSON.parse(await res.text()) : [];
  };
  return { listeners, message, caches, net, claimed, installed, cache: "ragjudge-" + version };
}

const FILES = { "index.html": "<html>page</html>", "app.js": "app", "a.js": "a", "b.js": "b", "style.css": "css", "ragjudge.wasm": "\0asm engine", "icons/icon.svg": "<svg/>" };
const tick = () => new Promise((r) => setTimeout(r, 0));

/** until waits for cond, checking after each turn of the event loop (the worker's work is all promises). */
async function until(cond, what) {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await tick();
  }
  throw new Error("never: " + what);
}

test("nothing is fetched until a page says it is idle; then the HTTP cache first, a few at a time, each checked", async () => {
  const net = fakeNetwork(FILES, { gated: true, httpCache: { "app.js": "app", "ragjudge.wasm": "\0asm engine" } });
  const w = loadWorker(FILES, { net });
  w.listeners.install({ waitUntil: () => {} });
  await tick();
  assert.deepEqual(net.asked, [], "installing fetches nothing");

  const work = w.message("p1", { type: "idle" });
  await until(() => net.waiting.length === 3, "three fetches in flight");
  // What the page loaded (in the HTTP cache) was taken without a request; the rest is asked for
  // where the page asks for it (v/VERSION/, index.html at its own name), from the HTTP cache first.
  assert.deepEqual(net.asked.map((r) => r.cache), ["force-cache", "force-cache", "force-cache"]);
  assert.ok(net.asked.every((r) => r.path === "index.html" || r.path.startsWith("v/0123456789abcdef/")), JSON.stringify(net.asked));
  assert.ok(!net.asked.some((r) => /ragjudge\.wasm|app\.js/.test(r.path)), "the wasm and app.js came from the HTTP cache");
  net.release();
  await until(() => net.asked.length === 5, "the rest");
  net.open();
  assert.equal(await work, true);
  assert.deepEqual(await w.installed(), [w.cache]);
  assert.equal(w.claimed.length, 1, "a first visit's page is claimed once the version is complete");
  const cached = w.caches.store.get(w.cache);
  assert.equal(cached.size, Object.keys(FILES).length);
  assert.equal(await cached.get(SCOPE + "ragjudge.wasm").clone().text(), "\0asm engine");
});

test("a busy page stops the precache at once; it goes on, from where it stopped, when no open page is busy", async () => {
  const net = fakeNetwork(FILES, { gated: true });
  const alive = new Set(["p1", "p2"]);
  const w = loadWorker(FILES, { net, alive });
  let work = w.message("p1", { type: "idle" });
  await until(() => net.waiting.length === 3, "three fetches in flight");
  net.release(1);
  await until(() => net.waiting.length === 3 && net.asked.length === 4, "the next file asked for");
  await w.message("p2", { type: "busy" });
  assert.equal(await work, false, "stopped");
  assert.equal(net.waiting.length, 0, "what was in flight is aborted");
  const asked = net.asked.length;
  for (let i = 0; i < 20; i++) await tick();
  assert.equal(net.asked.length, asked, "nothing more is asked for while the page is busy");
  assert.deepEqual(await w.installed(), []);

  // Another page's idle does not start it while p2 is busy (a worker started anew reads who is
  // busy from Cache Storage too).
  const again = loadWorker(FILES, { net, alive, caches: w.caches });
  assert.equal(await again.message("p1", { type: "idle" }), false);
  assert.equal(net.asked.length, asked);

  // p2 idle: on with what is not cached yet; the file cached before the stop is not asked again.
  work = again.message("p2", { type: "idle" });
  await until(() => net.waiting.length > 0, "fetching again");
  net.open();
  assert.equal(await work, true);
  const done = net.asked.slice(asked);
  const first = net.asked[0].path;
  assert.ok(!done.some((r) => r.path === first), `${first} was cached before the stop: ${JSON.stringify(done)}`);
  assert.equal(done.length, Object.keys(FILES).length - 1, "every other file, once");
  assert.deepEqual(await again.installed(), [again.cache]);

  // A page closed while busy does not hold a later version's precache for ever.
  const w2 = loadWorker({ ...FILES, "app.js": "app 2" }, { alive, caches: w.caches, version: "fedcba9876543210" });
  await w2.message("p2", { type: "busy" });
  alive.delete("p2");
  assert.equal(await w2.message("p1", { type: "idle" }), true);
});

test("a later version takes unchanged files from the earlier one's cache and asks only for what changed", async () => {
  const w1 = loadWorker(FILES);
  assert.equal(await w1.message("p1", { type: "idle" }), true);
  const net = fakeNetwork({ ...FILES, "b.js": "b, changed" });
  const w2 = loadWorker({ ...FILES, "b.js": "b, changed" }, { caches: w1.caches, net, version: "fedcba9876543210" });
  assert.equal(await w2.message("p1", { type: "idle" }), true);
  assert.deepEqual(net.asked, [{ path: "v/fedcba9876543210/b.js", cache: "force-cache" }]);
  // The earlier version goes once no open page is pinned to it.
  assert.deepEqual(await w2.installed(), [w2.cache]);
  assert.equal(w1.caches.store.has(w1.cache), false);
});

test("a file of another build in the HTTP cache is asked for again; a server that still sends another one fails the version, and its partial cache goes", async () => {
  const net = fakeNetwork(FILES, { httpCache: { "a.js": "an older a" } });
  const w = loadWorker(FILES, { net });
  assert.equal(await w.message("p1", { type: "idle" }), true);
  assert.deepEqual(net.asked.filter((r) => r.path.endsWith("/a.js")), [{ path: "v/0123456789abcdef/a.js", cache: "no-cache" }]);

  const bad = fakeNetwork(FILES, { serverSends: { "style.css": "a deploy half done" } });
  const w2 = loadWorker(FILES, { net: bad, version: "1111111111111111" });
  await assert.rejects(w2.message("p1", { type: "idle" }), /style\.css: not the file of version 1111111111111111/);
  assert.equal(w2.caches.store.has(w2.cache), false);
  assert.deepEqual(await w2.installed(), []);
});

test("a page's files named under v/VERSION/ are answered from its version's cache by name", async () => {
  const w = loadWorker(FILES);
  assert.equal(await w.message("p1", { type: "idle" }), true);
  // A page loaded from the cache (pinned by its navigation) asks for a module under v/VERSION/.
  let page;
  w.listeners.fetch({ request: { method: "GET", mode: "navigate", url: SCOPE, destination: "document" }, clientId: "", resultingClientId: "p3", respondWith: (p) => (page = p), waitUntil: () => {} });
  assert.equal(await (await page).text(), FILES["index.html"]);
  let mod;
  w.listeners.fetch({ request: new Request(SCOPE + "v/0123456789abcdef/app.js"), clientId: "p3", resultingClientId: "", respondWith: (p) => (mod = p), waitUntil: () => {} });
  assert.equal(await (await mod).text(), "app");
});
