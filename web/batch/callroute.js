// callroute.js: how a batch run's calls reach the endpoint, as the run controller (runcontroller.js) needs
// it: the call worker (calls.js), started once and shared by every run of the tab; the dev
// server's calls socket; and the browser's limit on calls to a direct HTTP/1.1 endpoint, which
// holds the concurrency a run may use (pace.js).

import { startCallWorker } from "./calls.js";
import { callsSocket, warmUp, maxConcurrency, socketCalls } from "./endpoint.js";
import { browserLimit } from "./pace.js";

/** CallRoute is one tab's route for its runs' calls. */
export class CallRoute {
  /**
   * @param {import("../shell/state.js").State} state the page's settings (the endpoint, the config)
   * @param {() => void} onProtocol called when the worker has seen which protocol a direct
   *   endpoint's calls used: the browser's limit may have changed
   */
  constructor(state, onProtocol) {
    this.st = state;
    this.onProtocol = onProtocol;
    /** @type {Promise<import("./calls.js").CallClient | null> | null} the call worker; it resolves to null where workers fail */
    this.workerP = null;
    /** @type {import("./calls.js").CallClient | null} the call worker's client once it is up */
    this.client = null;
    this.warmed = new Set();
  }

  /** socket is the dev server's calls socket URL when the calls go through one that has it. */
  socket() {
    return callsSocket(this.st);
  }

  /** socketCalls is the most calls the dev server's calls socket takes, when it says (endpoint.js). */
  socketCalls() {
    return socketCalls(this.st);
  }

  /** maxConcurrency is the most calls at once the page offers for where calls go now (endpoint.js). */
  maxConcurrency() {
    return maxConcurrency(this.st);
  }

  /** capped: calls through the dev server without a calls socket share a browser's 6 connections. */
  capped() {
    return this.st.endpoint().mode === "proxy" && !this.socket();
  }

  /**
   * worker starts the call worker once, and again if it has failed (calls.js's fail: its calls are
   * refused); resolves to its client, or null where workers fail.
   */
  worker() {
    if (this.client?.dead) this.workerP = this.client = null;
    return (this.workerP ||= startCallWorker().then((client) => {
      if (client) {
        this.client = client;
        client.onProtocol = () => this.onProtocol();
      }
      return client;
    }));
  }

  /**
   * browserLimit: the browser's limit on calls to a direct endpoint over HTTP/1.1 (pace.js), or null.
   * @returns {{origin: string, limit: number, protocol: string, seen: string} | null}
   */
  browserLimit() {
    return browserLimit(this.st.endpoint(), this.client);
  }

  /** effective is n held to what the browser allows the endpoint (browserLimit) and the dev server takes (maxConcurrency). */
  effective(n) {
    const b = this.browserLimit();
    const m = Math.min(n, this.maxConcurrency());
    return b ? Math.min(m, b.limit) : m;
  }

  /** warmUp gets ready for a run while the user is still looking at the mapping (endpoint.js). */
  warmUp() {
    warmUp(this.st, this.worker(), this.warmed);
  }
}
