// cdp.mjs: a minimal Chrome DevTools Protocol client over --remote-debugging-pipe, for benchmarks.
//
// Playwright enables the Network domain on every page and worker it drives: each request then
// costs the browser extra work (the request, its body and its response are reported over the
// protocol), about a tenth of the throughput of sixteen 100 ms calls on a 2-core machine. A user's
// browser has no debugger attached, so the throughput benchmark drives Chromium through this client
// instead, which enables no domain at all: it evaluates script in the page (Runtime.evaluate works
// without Runtime.enable) and attaches to workers only to read their timings after the run.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** launchRaw starts chromium with args and resolves to a Browser speaking CDP over a pipe. */
export async function launchRaw(executable, args) {
  const profile = mkdtempSync(join(tmpdir(), "ragjudge-cdp-"));
  const child = spawn(executable, [...args, "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const b = new Browser(child, profile, () => stderr);
  await b.send("Target.getTargets"); // the pipe answers once the browser is up
  return b;
}

/** Browser is one chromium process; send() speaks CDP to it or, with sessionId, to one of its targets. */
export class Browser {
  constructor(child, profile, stderr) {
    this.child = child;
    this.profile = profile;
    this.stderr = stderr;
    this.seq = 0;
    this.waiting = new Map();
    this.listeners = new Set();
    this.out = child.stdio[3];
    let buf = "";
    child.stdio[4].on("data", (d) => {
      buf += d;
      for (let i; (i = buf.indexOf("\0")) >= 0; ) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (m.id !== undefined) {
          const w = this.waiting.get(m.id);
          this.waiting.delete(m.id);
          if (w) m.error ? w.reject(new Error(`${w.method}: ${m.error.message}`)) : w.resolve(m.result);
        } else for (const l of this.listeners) l(m);
      }
    });
    this.exited = new Promise((resolve) => child.on("exit", resolve));
    this.exited.then(() => {
      for (const w of this.waiting.values()) w.reject(new Error("chromium exited: " + this.stderr()));
      this.waiting.clear();
    });
  }

  send(method, params = {}, sessionId = undefined) {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.waiting.set(id, { resolve, reject, method });
      this.out.write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    });
  }

  /** on calls fn with every event; it returns a function that stops doing so. */
  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** newPage opens url in a new tab and resolves to its Page. */
  async newPage() {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId);
    // Dedicated workers are reached through the page's session; attaching enables nothing in them.
    this.on((m) => {
      if (m.method === "Target.attachedToTarget" && m.sessionId === sessionId && m.params.targetInfo.type === "worker") page.workers.push(m.params.sessionId);
    });
    await this.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);
    return page;
  }

  async close() {
    this.send("Browser.close").catch(() => {});
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.exited;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** Page is one tab. */
export class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.workers = [];
  }

  send(method, params) {
    return this.browser.send(method, params, this.sessionId);
  }

  /** addInitScript runs fn(arg) in every document this page loads, before its own scripts. */
  addInitScript(fn, arg) {
    return this.send("Page.addScriptToEvaluateOnNewDocument", { source: `(${fn})(${JSON.stringify(arg)})` });
  }

  /** goto navigates and resolves once the new document has loaded. */
  async goto(url) {
    await this.send("Page.enable");
    const loaded = new Promise((resolve) => {
      const off = this.browser.on((m) => {
        if (m.sessionId === this.sessionId && m.method === "Page.loadEventFired") {
          off();
          resolve();
        }
      });
    });
    await this.send("Page.navigate", { url });
    await loaded;
    await this.send("Page.disable");
  }

  /** evaluate runs fn(arg) in the page, awaits it, and returns its JSON-serializable result. */
  evaluate(fn, arg) {
    return evaluateIn(this.browser, this.sessionId, fn, arg);
  }

  /** evaluateInWorkers runs fn(arg) in each of the page's dedicated workers and returns the results. */
  evaluateInWorkers(fn, arg) {
    return Promise.all(this.workers.map((s) => evaluateIn(this.browser, s, fn, arg).catch(() => null)));
  }

  /** waitFor polls fn(arg) in the page every intervalMs until it returns a truthy value. */
  async waitFor(fn, arg, { timeoutMs = 30_000, intervalMs = 100, what = String(fn) } = {}) {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await this.evaluate(fn, arg);
      if (v) return v;
      if (Date.now() > end) throw new Error("timed out waiting for " + what);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

async function evaluateIn(browser, sessionId, fn, arg) {
  const r = await browser.send(
    "Runtime.evaluate",
    { expression: `(${fn})(${arg === undefined ? "" : JSON.stringify(arg)})`, awaitPromise: true, returnByValue: true },
    sessionId,
  );
  if (r.exceptionDetails) {
    const e = r.exceptionDetails;
    throw new Error("in the page: " + ((e.exception && (e.exception.description || e.exception.value)) || e.text));
  }
  return r.result.value;
}
