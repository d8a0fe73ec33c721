// busy.js: whether the page is busy (a batch run, a model call under way) or idle, told to the
// page's service workers, so that the worker's precache (sw.js) never competes with the page.
// busyWhile is called by what runs calls (batch/runcontroller.js, evaluate/judgecall.js);
// offline.js, which registers the worker, waits for idle (whenIdle) and names the registration.
// It lives in lib/ so that the views can mark their work busy without importing the shell.

// How long the page stays without a call before it counts as idle: the gap between a run's calls,
// or between a call and what it leads to (storing, drawing), is far shorter.
const QUIET_MS = 1000;

/** @type {number} runs and calls under way in this page (busyWhile) */
let holds = 0;
/** @type {ReturnType<typeof setTimeout>|null} */
let quietTimer = null;
/** @type {(() => void)[]} called once the page is idle (whenIdle) */
let idleWaiters = [];
/** @type {ServiceWorkerRegistration|null} the registration offline.js made or found */
let registration = null;

/** setRegistration names the page's service worker registration, whose workers tell() reaches. @param {ServiceWorkerRegistration|null} r */
export function setRegistration(r) {
  registration = r;
}

/** container is the page's ServiceWorkerContainer, or null without one (a worker, file://, a test). */
export function container() {
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
export function whenIdle() {
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
export function tell(type) {
  const sw = container();
  if (!sw) return;
  const workers = new Set([sw.controller, registration?.installing, registration?.waiting, registration?.active]);
  for (const w of workers) if (w) w.postMessage({ type });
}
