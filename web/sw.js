// sw.js: the service worker that makes the page open and work offline after one visit. It
// precaches every published file (precache.js, generated from the files in web/: serve/ computes
// it, `make dist` writes it) under a cache named by the build's version, and answers the page's
// own files from there, cache first.
//
// A version is all or nothing: each file is checked against the SHA-256 in the list as it is
// cached, and a version is used only once every file of it is in (install fails otherwise, and
// is tried again on a later load). A page keeps the version it was opened with: a navigation is
// pinned to the newest complete version, and the page's later requests (its modules, a view
// loaded when first shown, its workers' modules) are answered from that version's cache even
// after a newer one is installed, so no page ever runs a mix of old and new files. A new version
// is taken on the next load; the page then says "updated" (offline.js).
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

/** pinKey is the Cache Storage key of a client's pin. */
const pinKey = (id) => new Request(new URL("__pin/" + encodeURIComponent(id), SCOPE).href);

/** sha256 is the hex SHA-256 of bytes. */
async function sha256(bytes) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * precache fetches every file of this version into its cache, checking each against its sum. The
 * HTTP cache is asked to revalidate (a file the page has just loaded comes back as a 304); a file
 * that is not the one listed (a deploy half done) fails the install, and the partial cache goes.
 */
async function precache() {
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(
      PRECACHE.files.map(async ([file, sum]) => {
        const url = new URL(file, SCOPE).href;
        if (await cache.match(url)) return; // an earlier, interrupted install of this version
        const res = await fetch(new Request(url, { cache: "no-cache", credentials: "same-origin" }));
        if (!res.ok) throw new Error(`${file}: ${res.status} ${res.statusText}`);
        const bytes = await res.arrayBuffer();
        const got = await sha256(bytes);
        if (got !== sum) throw new Error(`${file}: not the file of version ${PRECACHE.version} (sha256 ${got}, want ${sum})`);
        const headers = { "Content-Type": res.headers.get("Content-Type") || "application/octet-stream" };
        await cache.put(url, new Response(bytes, { headers }));
      }),
    );
  } catch (e) {
    // A version already installed (by a worker before this one, the same files) stays whole.
    if (!(await versions()).includes(CACHE)) await caches.delete(CACHE);
    throw e;
  }
}

sw.addEventListener("install", (event) => {
  // Complete: from now on a page load gets this version, even while the older worker still
  // answers (it activates once the older one is idle); pages already open keep their own (pins).
  event.waitUntil(
    (async () => {
      await precache();
      const order = await versions();
      await setVersions([...order.filter((n) => n !== CACHE), CACHE]);
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await sw.clients.claim();
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
 * navigate answers a page load with the newest installed version's index.html (this worker's, or
 * a newer one's that is installed and waiting to take over) and pins the new page to it.
 */
async function navigate(event, url) {
  const key = url.pathname === SCOPE.pathname ? new URL("index.html", SCOPE).href : url.origin + url.pathname;
  const order = await versions();
  for (const name of [order[order.length - 1], CACHE]) {
    const hit = name && (await caches.match(key, { cacheName: name }));
    if (!hit) continue;
    if (event.resultingClientId) loading.add(event.resultingClientId);
    event.waitUntil(pin(event.resultingClientId, name));
    return hit;
  }
  return fetch(event.request); // not a page of this version
}

/**
 * subresource answers a file from the version its page was opened with; a page opened before
 * this service worker (the first visit, from the network) gets the network, then this version's
 * copy when offline. A file its version lacks goes to the network.
 */
async function subresource(event, req, url) {
  const key = url.origin + url.pathname;
  let name = await pinned(event.clientId);
  if (event.resultingClientId && (req.destination === "worker" || req.destination === "sharedworker")) {
    // A worker runs the files of the page that started it.
    event.waitUntil(pin(event.resultingClientId, name));
  }
  if (!name) {
    try {
      return await fetch(req);
    } catch (e) {
      const hit = await caches.match(key, { cacheName: CACHE });
      if (hit) return hit;
      throw e;
    }
  }
  const hit = await caches.match(key, { cacheName: name });
  return hit || fetch(req);
}

// The page asks which version it runs (to say "updated" when it changed since its last load).
sw.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "version" || !event.source) return;
  loading.delete(event.source.id);
  event.waitUntil(
    pinned(event.source.id)
      .then((name) => {
        event.source.postMessage({ type: "version", version: name ? name.slice(PREFIX.length) : "" });
      })
      .then(sweep), // the page is loaded: a good time to drop what no page uses any more
  );
});
