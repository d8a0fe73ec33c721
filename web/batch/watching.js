// watching.js: what tabs tell each other about a run (tabs.js RunChannel). The tab that runs it
// posts its results, rows in flight and state; a tab that has it open read-only follows them, and
// takes the run over when the running tab lets go of it.

import { whenReleased } from "./tabs.js";
import { loadRun } from "./runrecords.js";
import { LiveRows } from "./live.js";

const LIVE_POST_MS = 500; // how often a running tab tells watching tabs which rows are in flight

/**
 * tellState sends c's state and message to the tabs that watch it.
 * @param {import("./tabs.js").RunChannel} channel
 * @param {import("./openrun.js").OpenRun} c
 */
export function tellState(channel, c) {
  channel.post({ type: "state", runId: c.run.id, state: c.runner ? c.runner.state : c.run.state, message: c.message });
}

/**
 * tellResult sends the watching tabs row result r of c, and soon after which rows are in flight.
 * @param {import("./tabs.js").RunChannel} channel
 * @param {import("./openrun.js").OpenRun} c
 * @param {any} r
 */
export function tellResult(channel, c, r) {
  channel.post({ type: "result", runId: c.run.id, result: r });
  postLive(channel, c);
}

/**
 * postLiveEvery tells the watching tabs every LIVE_POST_MS which rows of c are in flight; it
 * returns the function that stops it.
 * @param {import("./tabs.js").RunChannel} channel
 * @param {import("./openrun.js").OpenRun} c
 * @returns {() => void}
 */
export function postLiveEvery(channel, c) {
  const timer = setInterval(() => postLive(channel, c), LIVE_POST_MS);
  return () => clearInterval(timer);
}

/** postLive tells watching tabs which rows of c are in flight, once for all the results of one task. */
function postLive(channel, c) {
  if (c.livePost) return;
  c.livePost = setTimeout(() => {
    c.livePost = 0;
    channel.post({ type: "live", runId: c.run.id, rows: [...c.live.snapshot(c.results)] });
  }, 0);
}

/**
 * watchRun makes c read-only and, once the tab that holds its run lets go, reloads the run from
 * store into c, writable again, and calls takenOver(run) with the run's record; stillOpen() says
 * whether c is still the open run (nothing is done for a run closed meanwhile).
 * @param {import("./openrun.js").OpenRun} c
 * @param {{store: Object, stillOpen: () => boolean, takenOver: (run: Object) => void}} ctx
 */
export function watchRun(c, { store, stillOpen, takenOver }) {
  c.readOnly = true;
  c.startedAt = performance.now();
  c.message = "";
  const ac = new AbortController();
  c.unwatch = () => ac.abort();
  whenReleased(c.run.id, ac.signal).then(async () => {
    if (!stillOpen() || !c.readOnly) return;
    const loaded = await loadRun(store, c.run.id);
    if (!stillOpen() || !loaded) return;
    Object.assign(c, loaded, { readOnly: false, live: new LiveRows(), message: "" });
    takenOver(loaded.run);
  });
}

/**
 * applyNews takes into the watched run c a message from the tab that runs it: a row's result, the
 * rows in flight, or the run's state. It returns what changed ("result", "live", "state"), or ""
 * when the message is not news of c.
 * @param {import("./openrun.js").OpenRun} c
 * @param {any} msg
 * @returns {"result" | "live" | "state" | ""}
 */
export function applyNews(c, msg) {
  if (!c.readOnly || msg.runId !== c.run.id) return "";
  if (msg.type === "result" && msg.result && msg.result.index >= 0 && msg.result.index < c.run.total) {
    c.results[msg.result.index] = msg.result;
    c.doneTimes.push(performance.now());
    return "result";
  }
  if (msg.type === "live" && Array.isArray(msg.rows)) {
    c.live.watch(msg.rows);
    return "live";
  }
  if (msg.type === "state") {
    c.run.state = msg.state;
    return "state";
  }
  return "";
}
