// offline.js: registers the service worker (sw.js), which keeps the page's files so that it opens
// and works offline after one visit, and says "updated" on the first load of a new version. Loaded
// by app.js once the page is whole, off the first paint's path.

const SEEN = "ragjudge.page.version"; // the version this browser last ran, in localStorage

/**
 * startOffline registers sw.js (a page opened from file://, or a browser or test without service
 * workers, simply has none) and, when the page runs from its cache, shows `note` if the version
 * differs from the one this browser last ran.
 * @param {HTMLElement|null} note the hidden "updated" note
 * @returns {Promise<void>}
 */
export async function startOffline(note) {
  const sw = navigator.serviceWorker;
  if (!sw || !/^https?:$/.test(location.protocol)) return;
  try {
    if (!sw.controller) {
      // No HTTP cache for sw.js and its list: a new build is seen on the next load.
      await sw.register("sw.js", { updateViaCache: "none" });
      document.documentElement.dataset.sw = "registered";
      // The first visit: the page is controlled once the worker has cached every file.
      sw.addEventListener("controllerchange", () => (document.documentElement.dataset.sw = "controlled"), { once: true });
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
    // Look for a new build (register() would too, but resolves only once it is installed).
    const reg = await sw.getRegistration();
    if (reg) reg.update().catch(() => {}); // offline, or the server is gone: the cached version stays
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
