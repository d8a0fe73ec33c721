// sw.js: the service worker that makes the page open and work offline after one visit. It
// precaches every published file (precache.js, generated from the files in web/: serve/ computes
// it, `make dist` writes it) under a cache named by the build's version, and answers the page's
// own files from there, cache first.
//
// A version is all or nothing: each file is checked against the SHA-256 in the list as it is
// cached, and a version is used only once every file of it is in. A page keeps the version it was
// opened with: a navigation is pinned to the newest complete version, and the page's later
// requests (its modules, a view loaded when first shown, its workers' modules) are answered from
// that version's cache even after a newer one is complete, so no page ever runs a mix of old and
// new files. A new version is taken on the next load; the page then says "updated" (offline.js).
//
// The precache never competes with the page. It runs only when a page says it is idle
// (offline.js: no run and no call under way, the page loaded), stops at once when a page says it
// is busy, and goes on from where it stopped at the next idle. It takes a file from an earlier
// version's cache when the bytes are the same, else from the HTTP cache (what the page has just
// loaded, the wasm included, is not downloaded again), else from the network (compressed).
//
// Never intercepted: anything but GET, other origins (the model endpoint), and the dev server's
// API (/v1/..., /ragjudge/...), which go to the network as if there were no service worker.

/* eslint-env serviceworker */
/** @type {any} */
const sw = self;
sw.importScripts("precache.js");

/** @type {{version: string, files: [string, string][]}} */
const PRECACHE = sw.PRECACHE;
const PREFIX = "ragjudge-";
const CACHE = PREFIX + PRECACHE.version;
// Which version each page (and each worker of a page) was opened with, by client id, kept in
// Cache Storage too: a service worker is stopped when idle and loses what it held in memory.
const PINS = "ragjudge-pins";
const SCOPE = new URL(sw.registration.scope);
/** @type {Map<string, string>} client id → cache name */
const pins = new Map();
/** @type {Set<string>} pages pinned by their navigation that have not asked their version yet */
const loading = new Set();
// A pin this young stays even when its client is not (yet) among the clients: a page being loaded
// is not, and the worker that pinned it may be another one than the worker that sweeps.
const PIN_GRACE = 10000;

/** isAPI reports whether path is the dev server's API, which is never answered from a cache. */
function isAPI(path) {
  const rel = path.slice(SCOPE.pathname.length);
  return rel === "v1" || rel.startsWith("v1/") || rel.startsWith("ragjudge/");
}

/**
 * fileKey is the cache key of the page's file at url: the build's files are also named under
 * v/VERSION/ (index.html names them so: serve/ and make dist answer both), cached once, by name.
 */
function fileKey(url) {
  const rel = url.pathname.slice(SCOPE.pathname.length);
  const m = /^v\/[^/]+\/(.+)$/.exec(rel);
  return SCOPE.origin + SCOPE.pathname + (m ? m[1] : rel);
}

/** pinKey is the Cache Storage key of a client's pin. */
const pinKey = (id) => new Request(new URL("__pin/" + encodeURIComponent(id), SCOPE).href);

/** sha256 is the hex SHA-256 of bytes. */
async function sha256(bytes) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

// What a cached file's bytes are (its SHA-256, as listed), so that a later version with the same
// bytes takes the file from here rather than from the network.
const SUM = "X-Ragjudge-Sha256";
// Files fetched at once while precaching: few, the page may want the network any moment.
const LANES = 3;

/** @type {Set<string>} the clients that said they are busy (kept in Cache Storage too, see busyKey) */
const busy = new Set();
/** @type {Promise<boolean>|null} the precache under way */
let running = null;
/** @type {AbortController|null} stops the precache under way */
let stopper = null;

/** busyKey is the Cache Storage key that says client id is busy. */
const busyKey = (id) => new Request(new URL("__busy/" + encodeURIComponent(id), SCOPE).href);

/**
 * setBusy records whether client id is busy, in memory and in Cache Storage (a worker stopped
 * while idle and started again for another page's message must still know), and stops the
 * precache under way when it is.
 */
async function setBusy(id, on) {
  const store = await caches.open(PINS);
  if (on) {
    busy.add(id);
    if (stopper) stopper.abort();
    await store.put(busyKey(id), new Response(String(Date.now())));
  } else {
    busy.delete(id);
    await store.delete(busyKey(id));
  }
}

/** anyBusy reports whether a page that is still open said it is busy (and has not said idle since). */
async function anyBusy() {
  const store = await caches.open(PINS);
  for (const req of await store.keys()) {
    const path = new URL(req.url).pathname;
    if (path.includes("/__busy/")) busy.add(decodeURIComponent(path.split("/__busy/")[1] || ""));
  }
  for (const id of [...busy]) {
    if (!(await sw.clients.get(id))) await setBusy(id, false); // closed while busy
  }
  return busy.size > 0;
}

/**
 * precacheWhenIdle precaches this version unless it is complete, a page is busy, or a newer
 * worker has taken over; resolves to whether the version is complete.
 */
async function precacheWhenIdle() {
  if ((await versions()).includes(CACHE)) return true;
  if (running) return running;
  if (sw.serviceWorker?.state === "redundant" || (await anyBusy())) return false;
  running = precache().finally(() => (running = null));
  return running;
}

/**
 * precache caches every file of this version, each checked against its sum, a few at a time; a
 * page that says it is busy stops it (what is cached stays, for the next idle). Once every file
 * is in, the version is complete: listed as installed, the pages not yet controlled (a first
 * visit) claimed. A file that is not the one listed (a deploy half done) fails it, and the
 * partial cache goes.
 */
async function precache() {
  const stop = (stopper = new AbortController());
  const cache = await caches.open(CACHE);
  const queue = PRECACHE.files.slice();
  try {
    const lane = async () => {
      for (let f; !stop.signal.aborted && (f = queue.shift()); ) await cacheFile(cache, f[0], f[1], stop.signal);
    };
    await Promise.all(Array.from({ length: LANES }, lane));
  } catch (e) {
    if (stop.signal.aborted) return false;
    // A version already complete (by a worker before this one, the same files) stays whole.
    if (!(await versions()).includes(CACHE)) await caches.delete(CACHE);
    throw e;
  } finally {
    if (stopper === stop) stopper = null;
  }
  // Stopped, replaced by a newer worker, or its cache deleted meanwhile (a sweep): not complete.
  if (stop.signal.aborted || sw.serviceWorker?.state === "redundant" || !(await caches.has(CACHE))) return false;
  const order = await versions();
  await setVersions([...order.filter((n) => n !== CACHE), CACHE]);
  await sw.clients.claim().catch(() => {}); // not active yet: activate claims them
  await sweep();
  return true;
}

/**
 * cacheFile puts file (its SHA-256 sum) in cache: from an earlier version's cache with the same
 * bytes, else from the HTTP cache (cache: "force-cache": what the page loaded, no request), else
 * from the network; each copy checked against sum. The build's files are asked for under
 * v/VERSION/, where the page asked for them (index.html at its own name).
 */
async function cacheFile(cache, file, sum, signal) {
  const key = new URL(file, SCOPE).href;
  const have = await cache.match(key);
  if (have && have.headers.get(SUM) === sum) return; // an earlier, stopped precache of this version
  for (const name of (await versions()).reverse()) {
    const old = name !== CACHE && (await caches.match(key, { cacheName: name }));
    if (old && old.headers.get(SUM) === sum) return cache.put(key, old);
  }
  const url = file === "index.html" ? key : new URL(`v/${PRECACHE.version}/${file}`, SCOPE).href;
  let got = "";
  for (const mode of ["force-cache", "no-cache"]) {
    const res = await fetch(new Request(url, { cache: /** @type {RequestCache} */ (mode), credentials: "same-origin", signal }));
    if (!res.ok) {
      if (mode === "force-cache") continue;
      throw new Error(`${file}: ${res.status} ${res.statusText}`);
    }
    const bytes = await res.arrayBuffer();
    got = await sha256(bytes);
    if (got !== sum) continue; // the HTTP cache's copy is of another build: ask the server
    const headers = { "Content-Type": res.headers.get("Content-Type") || "application/octet-stream", [SUM]: sum };
    return cache.put(key, new Response(bytes, { headers }));
  }
  throw new Error(`${file}: not the file of version ${PRECACHE.version} (sha256 ${got}, want ${sum})`);
}

sw.addEventListener("install", () => {
  // Nothing is fetched here: the precache waits until a page is idle (precacheWhenIdle). A version
  // is used only once complete, so this worker may take over at once (pages already open keep
  // their own version: pins).
  sw.skipWaiting();
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // The pages are asked whether they are idle: those that are say so (offline.js), and the
      // precache begins then.
      if ((await versions()).includes(CACHE)) await sw.clients.claim();
      for (const c of await sw.clients.matchAll({ includeUncontrolled: true, type: "window" })) c.postMessage({ type: "idle?" });
      await sweep();
    })(),
  );
});

// The versions installed here (every file cached), oldest first, are kept beside the pins: a page
// load gets the newest, and only older ones are ever deleted (never one still being installed).
const VERSIONS = () => new Request(new URL("__versions", SCOPE).href);

/** versions is the cache names of the versions installed here, oldest first. */
async function versions() {
  const res = await (await caches.open(PINS)).match(VERSIONS());
  try {
    const list = res ? JSON.parse(await res.text()) : [];
    return Array.isArray(list) ? list.filter((n) => typeof n === "string") : [];
  } catch {
    return [];
  }
}

async function setVersions(list) {
  await (await caches.open(PINS)).put(VERSIONS(), new Response(JSON.stringify(list)));
}

/**
 * sweep deletes the pins of clients that are gone, and the older versions no open page uses; a
 * worker that is no longer the newest deletes nothing.
 */
async function sweep() {
  const order = await versions();
  if (order[order.length - 1] !== CACHE) return;
  const live = new Set((await sw.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
  const pinCache = await caches.open(PINS);
  const used = new Set([CACHE]);
  for (const req of await pinCache.keys()) {
    const path = new URL(req.url).pathname;
    if (!path.includes("/__pin/")) continue;
    const id = decodeURIComponent(path.split("/__pin/")[1] || "");
    const res = await pinCache.match(req);
    const [name = "", at = "0"] = res ? (await res.text()).split(" ") : [];
    if (!live.has(id) && !loading.has(id) && Date.now() - Number(at) > PIN_GRACE) {
      await pinCache.delete(req);
      pins.delete(id);
    } else if (name) {
      used.add(name);
    }
  }
  const old = order.slice(0, -1).filter((n) => !used.has(n));
  for (const name of old) await caches.delete(name);
  if (old.length) await setVersions(order.filter((n) => !old.includes(n)));
  // What an earlier worker had begun to cache and never completed (its build was replaced first).
  if (sw.serviceWorker?.state === "redundant") return;
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== PINS && !order.includes(name) && !used.has(name)) await caches.delete(name);
  }
}

/** pin records that client id runs the files of cache name. */
async function pin(id, name) {
  if (!id) return;
  pins.set(id, name);
  await (await caches.open(PINS)).put(pinKey(id), new Response(name + " " + Date.now()));
}

/** pinned is the cache name client id was opened with, or "" when it has none. */
async function pinned(id) {
  if (!id) return "";
  let name = pins.get(id);
  if (name === undefined) {
    const res = await (await caches.open(PINS)).match(pinKey(id));
    name = res ? (await res.text()).split(" ")[0] : "";
    pins.set(id, name);
  }
  return name;
}

sw.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname) || isAPI(url.pathname)) return;
  // A shared dev server's address with its access token (serve/token.go) goes to the server,
  // which trades it for a cookie and redirects: never answered from the cache, never cached.
  if (url.searchParams.has("token")) return;
  if (req.mode === "navigate") {
    event.respondWith(navigate(event, url));
  } else {
    event.respondWith(subresource(event, req, url));
  }
});

/**
 * navigate answers a page load with the newest complete version's index.html and pins the new
 * page to it; with the network when no version is complete yet.
 */
async function navigate(event, url) {
  const key = url.pathname === SCOPE.pathname ? new URL("index.html", SCOPE).href : fileKey(url);
  const order = await versions();
  const name = order[order.length - 1];
  const hit = name && (await caches.match(key, { cacheName: name }));
  if (!hit) return fetch(event.request); // not a page of this version
  if (event.resultingClientId) loading.add(event.resultingClientId);
  event.waitUntil(pin(event.resultingClientId, name));
  return hit;
}

/**
 * subresource answers a file from the version its page was opened with; a page opened before
 * this service worker (the first visit, from the network) gets the network, then this version's
 * copy when offline. A file its version lacks goes to the network.
 */
async function subresource(event, req, url) {
  const key = fileKey(url);
  let name = await pinned(event.clientId);
  if (event.resultingClientId && (req.destination === "worker" || req.destination === "sharedworker")) {
    // A worker runs the files of the page that started it.
    event.waitUntil(pin(event.resultingClientId, name));
  }
  if (!name) {
    try {
      return await fetch(req);
    } catch (e) {
      const order = await versions();
      for (const name of [CACHE, order[order.length - 1]]) {
        const hit = name && (await caches.match(key, { cacheName: name }));
        if (hit) return hit;
      }
      throw e;
    }
  }
  const hit = await caches.match(key, { cacheName: name });
  return hit || fetch(req);
}

// The page asks which version it runs (to say "updated" when it changed since its last load), and
// says when it is busy (a run or a call under way: the precache stops) and idle (it goes on).
sw.addEventListener("message", (event) => {
  const m = event.data;
  const source = event.source;
  if (!m || !source) return;
  if (m.type === "busy") {
    event.waitUntil(setBusy(source.id, true));
  } else if (m.type === "idle") {
    event.waitUntil(setBusy(source.id, false).then(precacheWhenIdle));
  } else if (m.type === "version") {
    loading.delete(source.id);
    event.waitUntil(
      pinned(source.id)
        .then((name) => {
          source.postMessage({ type: "version", version: name ? name.slice(PREFIX.length) : "" });
        })
        .then(sweep), // the page is loaded: a good time to drop what no page uses any more
    );
  }
});
