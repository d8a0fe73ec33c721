// offline.js: registers the service worker (sw.js), which keeps the page's files so that it opens
// and works offline after one visit, says "updated" on the first load of a new version, and tells
// the worker when the page is busy, so that its precache never competes with the page. Loaded by
// app.js once the page is whole, off the first paint's path; the busy and idle state it tells the
// worker is kept in lib/busy.js, which what runs calls marks busy.
//
// The worker precaches only when told the page is idle: once the page is whole, no run or call is
// under way, and the browser has had an idle moment (requestIdleCallback); and it stops when told
// the page is busy (sw.js). On a first visit the page registers the worker only then.

import { container, setRegistration, tell, whenIdle } from "./lib/busy.js";

const SEEN = "ragjudge.page.version"; // the version this browser last ran, in localStorage

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
      setRegistration(await sw.register("sw.js", { updateViaCache: "none" }));
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
    const registration = (await sw.getRegistration()) || null;
    setRegistration(registration);
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
