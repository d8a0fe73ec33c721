// offline.js: registers the service worker (sw.js), which keeps the page's files so that it opens
// and works offline after one visit, says "updated" on the first load of a new version, and tells
// the worker when the page is busy, so that its precache never competes with the page. Loaded by
// app.js once the page is whole, off the first paint's path; busyWhile is imported by what runs
// calls (batch/run.js, judgecall.js).
//
// The worker precaches only when told the page is idle: once the page is whole, no run or call is
// under way, and the browser has had an idle moment (requestIdleCallback); and it stops when told
// the page is busy (sw.js). On a first visit the page registers the worker only then.

const SEEN = "ragjudge.page.version"; // the version this browser last ran, in localStorage
// How long the page stays without a call before it counts as idle: the gap between a run's calls,
// or between a call and what it leads to (storing, drawing), is far shorter.
const QUIET_MS = 1000;

/** @type {number} runs and calls under way in this page (busyWhile) */
let holds = 0;
/** @type {ReturnType<typeof setTimeout>|null} */
let quietTimer = null;
/** @type {(() => void)[]} called once the page is idle (whenIdle) */
let idleWaiters = [];
/** @type {ServiceWorkerRegistration|null} */
let registration = null;

/** container is the page's ServiceWorkerContainer, or null without one (a worker, file://, a test). */
function container() {
  if (typeof navigator === "undefined" || !navigator.serviceWorker || typeof location === "undefined" || !/^https?:$/.test(location.protocol)) return null;
  return navigator.serviceWorker;
}

/**
 * busyWhile marks the page busy until work settles (a batch run, a call), so that the service
 * worker's precache does not compete with it, and returns work itself.
 * @template T @param {Promise<T>} work @returns {Promise<T>}
 */
export function busyWhile(work) {
  holds++;
  if (quietTimer) clearTimeout(quietTimer);
  quietTimer = null;
  if (holds === 1) tell("busy");
  const done = () => {
    holds--;
    if (holds === 0) quietTimer = setTimeout(settle, QUIET_MS);
  };
  work.then(done, done);
  return work;
}

/** settle runs once the page has had no call for QUIET_MS and then an idle moment. */
function settle() {
  quietTimer = null;
  const idle = () => {
    if (holds > 0) return; // busy again meanwhile: its end settles again
    tell("idle");
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const f of waiters) f();
  };
  if (typeof requestIdleCallback === "function") requestIdleCallback(idle, { timeout: 5000 });
  else setTimeout(idle, 0);
}

/** whenIdle resolves once the page has had no call for QUIET_MS, then an idle moment. */
function whenIdle() {
  return new Promise((resolve) => {
    idleWaiters.push(() => resolve(undefined));
    if (holds === 0 && !quietTimer) quietTimer = setTimeout(settle, QUIET_MS);
  });
}

/**
 * tell says to this page's service workers (the one that controls it, and the registration's
 * installing, waiting and active ones) that the page is busy or idle.
 * @param {"busy"|"idle"} type
 */
function tell(type) {
  const sw = container();
  if (!sw) return;
  const workers = new Set([sw.controller, registration?.installing, registration?.waiting, registration?.active]);
  for (const w of workers) if (w) w.postMessage({ type });
}

/**
 * startOffline registers sw.js (a page opened from file://, or a browser or test without service
 * workers, simply has none) once the page is idle, and, when the page runs from its cache, shows
 * `note` if the version differs from the one this browser last ran.
 * @param {HTMLElement|null} note the hidden "updated" note
 * @returns {Promise<void>}
 */
export async function startOffline(note) {
  const sw = container();
  if (!sw) return;
  try {
    // A worker that begins to precache asks whether the page is idle; the page answers when it is.
    sw.addEventListener("message", (e) => {
      if (e.data && e.data.type === "idle?") whenIdle().then(() => {});
    });
    if (!sw.controller) {
      // The first visit: nothing is registered (so nothing is fetched) until the page is idle.
      await whenIdle();
      // No HTTP cache for sw.js and its list: a new build is seen on the next load.
      registration = await sw.register("sw.js", { updateViaCache: "none" });
      document.documentElement.dataset.sw = "registered";
      // The page is controlled once the worker has cached every file.
      sw.addEventListener("controllerchange", () => (document.documentElement.dataset.sw = "controlled"), { once: true });
      tell("idle"); // a worker already active (an earlier visit's precache, stopped) goes on
      return;
    }
    document.documentElement.dataset.sw = "controlled";
    const version = await askVersion(sw.controller);
    if (version) {
      document.documentElement.dataset.version = version;
      /** @type {string|null} */
      let last = null;
      try {
        last = localStorage.getItem(SEEN);
        localStorage.setItem(SEEN, version);
      } catch {
        // storage refused: no note
      }
      if (note && last && last !== version) {
        note.hidden = false;
        note.title = `version ${version} (was ${last})`;
      }
    }
    // Look for a new build once the page is idle (register() would too, but resolves only once it
    // is installed); a new worker asks the page whether it is idle before it precaches.
    await whenIdle();
    registration = (await sw.getRegistration()) || null;
    if (registration) registration.update().catch(() => {}); // offline, or the server is gone: the cached version stays
  } catch {
    document.documentElement.dataset.sw = "none";
  }
}

/**
 * askVersion asks the service worker which version this page runs ("" when the page did not come
 * from its cache).
 * @param {ServiceWorker} worker @returns {Promise<string>}
 */
function askVersion(worker) {
  return new Promise((resolve) => {
    const sw = navigator.serviceWorker;
    const timer = setTimeout(() => done(""), 3000);
    const onMessage = (/** @type {MessageEvent} */ e) => {
      if (e.data && e.data.type === "version") done(String(e.data.version || ""));
    };
    /** @param {string} v */
    function done(v) {
      clearTimeout(timer);
      sw.removeEventListener("message", onMessage);
      resolve(v);
    }
    sw.addEventListener("message", onMessage);
    worker.postMessage({ type: "version" });
  });
}
