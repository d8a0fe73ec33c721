// shell.test.mjs: the page is drawn before the judge engine is ready. The wasm's request is held
// back by a route until the test releases it, so the shell is seen in its loading state for as
// long as the test looks, without timing guesses: the evaluator buttons and the form work, Run
// and the prompt wait quietly; released, the page marks <html data-engine="ready"> and Run judges.
// A wasm that cannot be loaded is said so, with the error, and the page stays readable.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { setup, launch, proxySettings, text } from "./harness.mjs";
import { EXAMPLES } from "./fake-upstream.mjs";

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const KEY = "sk-e2e-shell-key-5678";

/** openHeld opens the page with the wasm's request held; release() lets it through. */
async function openHeld({ fail = false } = {}) {
  const page = await env.browser.ctx.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.addInitScript(
    ([s, k]) => {
      localStorage.clear();
      localStorage.setItem("ragjudge.page.v1", JSON.stringify({ settings: s }));
      localStorage.setItem("ragjudge.page.key", k);
    },
    [proxySettings(), KEY],
  );
  let release;
  const gate = new Promise((r) => (release = r));
  let asked = 0;
  await page.route("**/ragjudge.wasm", async (route) => {
    asked++;
    await gate;
    if (fail) await route.fulfill({ status: 404, contentType: "text/plain", body: "no wasm here" });
    else await route.continue();
  });
  await page.goto(env.serve.url + "/#evaluate");
  return { page, errors, release: () => release(), asked: () => asked };
}

test("the evaluator buttons and the form are drawn before the engine is ready; Run works once it is", async () => {
  const { page, errors, release, asked } = await openHeld();
  try {
    await page.waitForSelector("html[data-shell=ready]");
    assert.ok(asked() >= 1, "the wasm was asked for, and is held");
    assert.equal(await page.getAttribute("html", "data-engine"), "loading");
    assert.equal(await page.getAttribute("html", "data-ready"), null);

    // The picker lists every evaluator, from evaluators.json, and switching works.
    for (const id of Object.keys(EXAMPLES)) assert.ok(await page.isVisible(`label[for="pick-${id}"]`), id);
    await page.click('label[for="pick-answer-grounding"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="pick-answer-grounding"]').checked);
    assert.match(await text(page, '[data-ref="description"]'), /\w/);
    assert.ok(await page.isVisible('[data-ref="form"] textarea'), "the form is drawn");

    // What needs the engine waits, quietly.
    assert.equal(await page.isDisabled('[data-ref="run"]'), true);
    assert.equal(await page.getAttribute('[data-ref="run"]', "data-engine"), "loading");
    assert.equal(await text(page, '[data-ref="run"]'), "Loading the judge engine…");
    assert.match(await text(page, '[data-ref="engine-loading"]'), /The prompt appears when the judge engine has loaded/);
    assert.equal(await page.locator('[data-ref="loading"]').isVisible(), false, "no page-wide loading banner");

    // What is typed meanwhile is what the engine renders.
    await page.click('[data-ref="example"]');
    const answerField = page.locator('[data-ref="form"] textarea').first();
    await answerField.fill("The Eiffel Tower is in Paris, typed while the engine loaded.");

    release();
    await page.waitForSelector("html[data-engine=ready]");
    assert.equal(await page.isDisabled('[data-ref="run"]'), false, "Run is enabled the moment the engine is ready");
    assert.equal(await text(page, '[data-ref="run"]'), "▶ Run with model");
    assert.equal(await page.locator('[data-ref="engine-loading"]').count(), 0);
    assert.match(await text(page, '[data-ref="prompt"]'), /typed while the engine loaded/);

    await page.click('[data-ref="run"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict-view"]'));
    assert.equal(await text(page, '[data-ref="run-error"]'), "");
    assert.equal(await page.inputValue('[data-ref="answer"]'), EXAMPLES["answer-grounding"].answer);
    const last = env.fake.requests.filter((r) => r.path === "/chat/completions").at(-1);
    assert.match(last.body.messages[0].content, /typed while the engine loaded/);
    await page.waitForSelector("html[data-ready=true]");
    assert.deepEqual(errors, []);
  } finally {
    release();
    await page.close();
  }
});

test("the calculator and the Batch view are drawn before the engine; their results wait for it", async () => {
  const { page, errors, release } = await openHeld();
  try {
    await page.waitForSelector("html[data-shell=ready]");
    await page.click("#tab-calculator");
    await page.click('[data-ref="calc-seed-1"]');
    assert.match(await text(page, '[data-ref="calc-result"]'), /when the judge engine has loaded/);

    // The Batch view takes a dataset at once and reads it when the engine is ready.
    await page.click("#tab-batch");
    await page.waitForSelector('[data-ref="batch-drop"]');
    assert.equal(await page.evaluate(() => location.hash), "#batch");
    const rows = ['{"question": "q1", "answer": "a1", "contexts": ["c1"]}', '{"question": "q2", "answer": "a2", "contexts": ["c2"]}'].join("\n");
    await page.locator('[data-ref="batch-file"]').setInputFiles({ name: "early.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(rows) });
    await page.waitForFunction(() => document.querySelector('[data-ref="batch-file-msg"]').dataset.engine === "loading");
    assert.match(await text(page, '[data-ref="batch-file-msg"]'), /early\.jsonl is read when the judge engine has loaded/);

    release();
    await page.waitForSelector("html[data-ready=true]");
    await page.waitForFunction(() => /✓ early\.jsonl: 2 rows/.test(document.querySelector('[data-ref="batch-file-msg"]').textContent));
    await page.click("#tab-calculator");
    await page.waitForSelector('[data-ref="calc-final"]');
    assert.match(await text(page, '[data-ref="calc-final"]'), /^4 \/ 5/);
    assert.deepEqual(errors, []);
  } finally {
    release();
    await page.close();
  }
});

test("a wasm that does not load is said so, with the error; the page stays readable", async () => {
  const { page, release } = await openHeld({ fail: true });
  try {
    await page.waitForSelector("html[data-shell=ready]");
    release();
    await page.waitForSelector("html[data-engine=failed]");
    assert.match(await text(page, '[data-ref="loading"]'), /The judge engine did not load: .*404/);
    assert.equal(await text(page, '[data-ref="run"]'), "The judge engine did not load");
    assert.equal(await page.isDisabled('[data-ref="run"]'), true);
    assert.match(await text(page, '[data-ref="engine-loading"]'), /did not load/);
    // Reading still works: the evaluators, their descriptions and forms.
    await page.click('label[for="pick-rag-recall"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="pick-rag-recall"]').checked);
    assert.ok(await page.isVisible('[data-ref="form"] textarea'));
    assert.equal(await page.getAttribute("html", "data-ready"), null);
  } finally {
    await page.close();
  }
});

test("evaluators.json from another build gives way to the engine's list; without it the engine lists them", async () => {
  const real = await (await fetch(env.serve.url + "/evaluators.json")).json();
  for (const variant of ["stale", "missing"]) {
    const page = await env.browser.ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const warnings = [];
    page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
    await page.route("**/evaluators.json", (route) =>
      variant === "missing"
        ? route.fulfill({ status: 404, body: "" })
        : route.fulfill({ contentType: "application/json", body: JSON.stringify(real.map((e) => ({ ...e, title: "Stale " + e.title }))) }),
    );
    try {
      await page.goto(env.serve.url + "/#evaluate");
      await page.waitForSelector("html[data-ready=true]");
      assert.equal(await text(page, 'label[for="pick-claim-groundedness"]'), real[0].title, variant);
      assert.equal(await page.locator('[data-ref^="pick-"]').count(), real.length, variant);
      if (variant === "stale") assert.ok(warnings.some((w) => /evaluators\.json differs/.test(w)), JSON.stringify(warnings));
      assert.equal(await page.isDisabled('[data-ref="run"]'), false, variant);
      assert.deepEqual(errors, [], variant);
    } finally {
      await page.close();
    }
  }
});

// HOLD_IDB holds the opening of the user's evaluators' database (custom/registry.js reads them from
// IndexedDB as the page starts) until the test calls window.__releaseIDB(), and records, the moment
// the page marks its shell drawn, which evaluator buttons there were and which was checked.
const HOLD_IDB = () => {
  let release;
  const gate = new Promise((r) => (release = r));
  window.__releaseIDB = () => release();
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, version) {
    const req = open.call(this, name, version);
    if (name === "ragjudge-evaluators") {
      Object.defineProperty(req, "onsuccess", { configurable: true, set: (fn) => req.addEventListener("success", (e) => gate.then(() => fn.call(req, e))) });
    }
    return req;
  };
  new MutationObserver((_, obs) => {
    if (document.documentElement.dataset.shell !== "ready") return;
    obs.disconnect();
    const picks = [...document.querySelectorAll('[data-ref^="pick-"]')];
    window.__atShell = { picks: picks.map((p) => p.value), checked: picks.find((p) => p.checked)?.value ?? null };
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-shell"] });
};

test("the shell does not wait for the user's evaluators in IndexedDB: they join the picker when read, nothing typed is lost; a saved choice of one is drawn at once", async () => {
  // A profile of its own: the evaluator saved here must not reach the other tests' pages.
  const browser = await launch();
  const spec = JSON.parse(await readFile(new URL("../../web/starters/answer-relevance.json", import.meta.url), "utf8"));
  spec.id = "my-relevance";
  spec.title = "My relevance";
  try {
    const seed = await browser.ctx.newPage();
    await seed.goto(env.serve.url + "/#evaluate");
    await seed.waitForSelector("html[data-ready=true]");
    await seed.evaluate(async (spec) => {
      // The page's own instance of the module: its files are under v/VERSION/ (index.html as served).
      const { openCustomStore } = await import(new URL("custom/evaluatorstore.js", document.querySelector('script[type="module"][src$="app.js"]').src).href);
      const store = await openCustomStore();
      await store.put({ id: spec.id, spec, sample: { inputs: {} }, answer: "", ok: true, createdAt: Date.now(), updatedAt: Date.now() });
    }, spec);
    await seed.close();
    const builtins = (await (await fetch(env.serve.url + "/evaluators.json")).json()).map((e) => e.id);

    // The built-ins' buttons are drawn while the database is held; typing begins.
    let page = await browser.ctx.newPage();
    page.setDefaultTimeout(15000);
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.addInitScript(HOLD_IDB);
    await page.goto(env.serve.url + "/#evaluate");
    await page.waitForSelector("html[data-shell=ready]");
    assert.deepEqual(await page.evaluate(() => window.__atShell), { picks: builtins, checked: builtins[0] });
    // (Released well within the 1.5 s after which the page stops waiting for the database, store.js.)
    const field = page.locator('[data-ref="form"] textarea').first();
    await field.fill("typed before my evaluators were read");
    await page.evaluate(() => window.__releaseIDB());
    await page.waitForSelector('label[for="pick-my-relevance"]');
    // Added after the built-ins, marked as the user's; the form was not drawn again.
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('[data-ref^="pick-"]')].map((p) => p.value)), [...builtins, "my-relevance"]);
    assert.match(await text(page, 'label[for="pick-my-relevance"]'), /My relevance\s*yours/);
    assert.equal(await field.inputValue(), "typed before my evaluators were read");
    assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('[data-ref="form"] textarea')), true, "the focus stayed");
    await page.keyboard.type(", and after");
    assert.equal(await field.inputValue(), "typed before my evaluators were read, and after");
    await page.waitForSelector("html[data-ready=true]");
    await page.click('label[for="pick-my-relevance"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="pick-my-relevance"]').checked);
    assert.match(await text(page, '[data-ref="form"]'), /Question/);
    await page.waitForFunction(() => /Decide whether an answer addresses the question/.test(document.querySelector('[data-ref="prompt"]').textContent));
    assert.deepEqual(errors, []);
    await page.close();

    // The choice is saved; the next load draws it checked, from the first paint on.
    page = await browser.ctx.newPage();
    page.setDefaultTimeout(15000);
    page.on("pageerror", (e) => errors.push(e.message));
    await page.addInitScript(HOLD_IDB);
    await page.goto(env.serve.url + "/#evaluate");
    await page.waitForFunction(() => typeof window.__releaseIDB === "function");
    await page.evaluate(() => window.__releaseIDB());
    await page.waitForSelector("html[data-ready=true]");
    assert.deepEqual(await page.evaluate(() => window.__atShell), { picks: [...builtins, "my-relevance"], checked: "my-relevance" });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
});

/** openBeforeModules opens the page with app.js's request held: what boot.js shows, before any module has run. */
async function openBeforeModules(page, hash = "#evaluate") {
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route("**/app.js", async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(env.serve.url + "/" + hash, { waitUntil: "commit" });
  return () => release();
}

test("the evaluator buttons are in index.html and shown before any module runs; what is clicked before the page takes over is kept", async () => {
  const page = await env.browser.ctx.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.addInitScript(() => {
    if (sessionStorage.getItem("seeded")) return;
    sessionStorage.setItem("seeded", "1");
    localStorage.clear();
  });
  let release = () => {};
  try {
    const ids = (await (await fetch(env.serve.url + "/evaluators.json")).json()).map((e) => e.id);
    release = await openBeforeModules(page);
    for (const id of ids) await page.waitForSelector(`label[for="pick-${id}"]`, { state: "visible" });
    assert.equal(await page.getAttribute("html", "data-shell"), null, "app.js has not run");
    assert.equal(await page.isChecked('[data-ref="pick-claim-groundedness"]'), true, "a fresh page's first evaluator is checked");
    assert.equal(await page.isVisible('[data-ref="loading"]'), false);
    assert.equal(await page.getAttribute("#tab-evaluate", "aria-selected"), "true");

    // An evaluator and Model settings clicked now; the picker is marked to see it taken over, not redrawn.
    await page.click('label[for="pick-rag-recall"]');
    assert.equal(await page.isChecked('[data-ref="pick-rag-recall"]'), true);
    await page.click('[data-ref="settings-button"]');
    await page.evaluate(() => (document.querySelector(".picker").__mark = "prerendered"));
    release();
    await page.waitForSelector("html[data-shell=ready]");
    assert.equal(await page.evaluate(() => document.querySelector('#view-evaluate .picker').__mark), "prerendered", "the picker was taken over");
    assert.equal(await page.locator('#view-evaluate .picker').count(), 1);
    assert.equal(await page.isChecked('[data-ref="pick-rag-recall"]'), true);
    const recall = (await (await fetch(env.serve.url + "/evaluators.json")).json()).find((e) => e.id === "rag-recall");
    assert.equal(await text(page, '[data-ref="description"]'), recall.description, "the evaluator clicked is the one open");
    assert.equal(await page.isVisible('[data-ref="settings"]'), true, "Model settings opened");
    await page.keyboard.press("Escape");
    // The picker taken over works as the page's own: another evaluator, then the state saved.
    await page.click('label[for="pick-answer-grounding"]');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem("ragjudge.page.v1") || "{}").evaluator === "answer-grounding");
    await page.waitForSelector("html[data-ready=true]");

    // The next load shows the evaluator last chosen, checked before any module runs.
    await page.unroute("**/app.js");
    release = await openBeforeModules(page);
    await page.waitForSelector('label[for="pick-answer-grounding"]', { state: "visible" });
    assert.equal(await page.isChecked('[data-ref="pick-answer-grounding"]'), true);
    // A tab clicked before the page takes over: that view at once, and opened when it does.
    await page.click("#tab-calculator");
    assert.equal(await page.getAttribute("#tab-calculator", "aria-selected"), "true");
    assert.equal(await page.isVisible("#view-evaluate"), false);
    assert.equal(await page.evaluate(() => location.hash), "#calculator");
    release();
    await page.waitForSelector('[data-ref="calc-seed-1"]');
    assert.equal(await page.getAttribute("#tab-calculator", "aria-selected"), "true");
    assert.equal(await page.isVisible("#view-evaluate"), false);
    await page.waitForSelector("html[data-ready=true]");
    assert.deepEqual(errors, []);
  } finally {
    release();
    await page.close();
  }
});

test("a fresh page before a keyless local endpoint asks for its models and runs with one it lists, never the default it lacks (finding 4)", async () => {
  // A profile with nothing stored: no key, no model chosen; the dev server's upstream is the fake
  // on this machine, which needs no key and does not list the page's default (gpt-4o-mini).
  const fresh = await launch();
  try {
    const page = await fresh.ctx.newPage();
    page.setDefaultTimeout(15000);
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const asked = env.fake.requests.length;
    await page.goto(env.serve.url + "/#evaluate");
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await page.click('label[for="pick-answer-grounding"]');
    await page.waitForFunction(() => !document.querySelector('#view-evaluate [data-ref="example"]').disabled);
    await page.click('#view-evaluate [data-ref="example"]');
    await page.waitForFunction(() => !document.querySelector('[data-ref="run"]').disabled);
    // Run at once, Model settings never opened.
    await page.click('[data-ref="run"]');
    await page.waitForFunction(() => document.querySelector('[data-ref="stop"]').hidden && document.querySelector('[data-ref="verdict"] [data-ref="verdict-view"]'));
    const reqs = env.fake.requests.slice(asked);
    assert.ok(reqs.some((r) => r.path === "/models"), "the endpoint's models were asked for");
    const calls = reqs.filter((r) => r.path === "/chat/completions");
    assert.equal(calls.length, 1);
    assert.equal(calls[0].body.model, "judge-mini", "the first model the endpoint lists that answers chat, in its own order");
    assert.equal(calls[0].auth, "", "no key was sent");
    const settings = await page.evaluate(() => JSON.parse(localStorage.getItem("ragjudge.page.v1") || "{}").settings);
    assert.deepEqual([settings.model, settings.modelChosen], ["judge-mini", false]);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});
