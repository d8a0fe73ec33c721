// sw.test.mjs: what the service worker (web/sw.js) answers and what it leaves to the network,
// decided when a request arrives: run in a vm with a stand-in for the worker's global scope (the
// caching itself is tested in chromium, test/e2e/offline.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** loadWorker runs sw.js with scope and returns its listeners. */
function loadWorker(scope) {
  const listeners = {};
  const self = {
    registration: { scope },
    addEventListener: (type, f) => (listeners[type] = f),
    importScripts: (name) => {
      assert.equal(name, "precache.js");
      self.PRECACHE = { version: "0123456789abcdef", files: [["index.html", "0".repeat(64)], ["style.css", "1".repeat(64)]] };
    },
  };
  vm.runInNewContext(readFileSync(join(ROOT, "web", "sw.js"), "utf8"), { self, URL, Request: class {}, Response: class {}, Map, Set, Promise, console });
  return listeners;
}

/** answers reports whether the worker answers a request (respondWith) rather than leaving it alone. */
function answers(listeners, req) {
  let answered = false;
  listeners.fetch({
    request: { method: "GET", mode: "cors", destination: "", ...req },
    clientId: "c1",
    resultingClientId: "",
    respondWith: (p) => {
      answered = true;
      Promise.resolve(p).catch(() => {}); // no Cache Storage here
    },
    waitUntil: (p) => Promise.resolve(p).catch(() => {}),
  });
  return answered;
}

for (const scope of ["https://app.test/", "https://app.test/tools/ragjudge/"]) {
  test(`answers the page's own GETs, nothing else (scope ${scope})`, () => {
    const sw = loadWorker(scope);
    const at = (p) => new URL(p, scope).href;
    assert.equal(answers(sw, { url: at("style.css") }), true);
    assert.equal(answers(sw, { url: at("batch/view.js") }), true);
    assert.equal(answers(sw, { url: at("v/0123456789abcdef/batch/view.js") }), true);
    assert.equal(answers(sw, { url: at(""), mode: "navigate" }), true);
    assert.equal(answers(sw, { url: at("?x=1"), mode: "navigate" }), true);
    // Anything but GET.
    assert.equal(answers(sw, { url: at("style.css"), method: "POST" }), false);
    assert.equal(answers(sw, { url: at("style.css"), method: "HEAD" }), false);
    // The dev server's API.
    assert.equal(answers(sw, { url: at("ragjudge/config") }), false);
    assert.equal(answers(sw, { url: at("ragjudge/calls") }), false);
    assert.equal(answers(sw, { url: at("v1/models") }), false);
    assert.equal(answers(sw, { url: at("v1") }), false);
    assert.equal(answers(sw, { url: at("v1/chat/completions"), method: "POST" }), false);
    // A shared dev server's address with its access token: the server trades it for a cookie.
    assert.equal(answers(sw, { url: at("?token=0123456789abcdef0123"), mode: "navigate" }), false);
    assert.equal(answers(sw, { url: at("index.html?a=1&token=x"), mode: "navigate" }), false);
    assert.equal(answers(sw, { url: at("style.css?token=x") }), false);
    // Another origin: the model endpoint.
    assert.equal(answers(sw, { url: "https://api.openai.com/v1/models" }), false);
    assert.equal(answers(sw, { url: "https://app.test:8443/style.css" }), false);
  });
}

test("outside its scope the worker answers nothing", () => {
  const sw = loadWorker("https://app.test/tools/ragjudge/");
  assert.equal(answers(sw, { url: "https://app.test/other/page.js" }), false);
  assert.equal(answers(sw, { url: "https://app.test/", mode: "navigate" }), false);
});
