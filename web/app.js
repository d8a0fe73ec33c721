// app.js: the page's entry point. The judge engine's wasm (the largest download) downloads from
// the start, with the evaluators' descriptions (evaluators.json, written by `make build` from the
// same declarations rj.evaluators() returns) and the dev server's config; the top bar, the model
// settings and the views are drawn from those at once, and the engine is compiled and started
// meanwhile. What needs the engine (the prompt, the verdict, Run, the calculator's results,
// reading a dataset, reopening stored runs) waits quietly for it (shell/enginestatus.js) and is enabled the
// moment it is ready.
//
// The page marks its progress on <html> for tests and benchmarks, which wait on these rather than
// on guesses: data-shell="ready" once the views are drawn, data-engine="ready" (or "failed") the
// moment the engine can be used, data-ready="true" once the view shown is whole.

import { start } from "./wasmstart.js";
import { State } from "./shell/state.js";
import { h, ref, replace } from "./lib/dom.js";
import { Engine } from "./shell/enginestatus.js";
import { mountSettings } from "./shell/settings.js";
import { mountViewsMenu } from "./shell/viewsmenu.js";
import { mountEvaluate, loadResultModules } from "./evaluate/view.js";
import { EvaluatorRegistry } from "./custom/registry.js";
import { signal, onChange } from "./lib/store.js";

const VIEWS = ["evaluate", "batch", "calculator", "custom"];

async function fetchConfig() {
  try {
    // No headers of its own: the request must match index.html's preload to be answered by it.
    const res = await fetch("ragjudge/config");
    if (!res.ok) return null;
    const j = await res.json();
    return j && typeof j === "object" && "upstream" in j ? j : null;
  } catch {
    return null; // served as static files: no dev server, so no proxy
  }
}

/**
 * fetchDescriptions reads evaluators.json, the built-in evaluators as rj.evaluators() lists them;
 * null when it is missing or unreadable (a page built before the file existed), and then the
 * engine lists them once it is loaded.
 * @returns {Promise<any[]|null>}
 */
async function fetchDescriptions() {
  try {
    const res = await fetch(new URL("./evaluators.json", import.meta.url)); // index.html preloads it

    if (!res.ok) return null;
    const list = await res.json();
    return Array.isArray(list) && list.length && list.every((e) => e && typeof e.id === "string" && Array.isArray(e.inputs)) ? list : null;
  } catch {
    return null;
  }
}

async function main() {
  const doc = document;
  const html = doc.documentElement;
  const state = new State();
  const engine = new Engine();
  const loading = ref(doc, "loading");

  // The wasm downloads and compiles from the start (index.html preloads it), and wasmstart.js
  // starts Go on it the moment it has compiled; from the service worker's cache, the wasm is
  // compiled and Go started from here, once the shell is painted (see start).
  /** @type {(value?: unknown) => void} */
  let shellDrawn = () => {};
  const drawn = new Promise((resolve) => (shellDrawn = resolve));
  // The user's own evaluators are read from this browser's storage meanwhile (custom/registry.js):
  // the shell is not kept waiting for IndexedDB (6-50 ms after the descriptions, measured), they
  // are added to the picker drawn when they are in, and the engine gets them (rj.define) once it
  // is ready.
  const registry = EvaluatorRegistry.start([]);
  // The modules the first paint does not need (the engine's, the verdicts', the calls') are asked
  // for as soon as this module runs, all at once (index.html lists them in a template:
  // scripts/webfiles.mjs), so that they do not compete with the first paint's modules while the
  // page is parsed. Asked for only once the shell was painted, Go's start (which waits for them)
  // began 200-280 ms after the wasm had compiled; measured cold on loopback, 9 loads each at load
  // average 4-5: engine ready 574 -> 522 ms, buttons 166 -> 143 (the picker is prerendered).
  const later = Promise.resolve().then(() => {
    const list = doc.querySelector('template[data-ref="later-modules"]');
    if (list) doc.head.append(/** @type {HTMLTemplateElement} */ (list).content.cloneNode(true));
  });
  const engineModule = import("./ragjudge.js"); // modulepreload
  let [builtins, config] = await Promise.all([fetchDescriptions(), fetchConfig()]);
  const running = start(drawn);
  const engineLoad = engineModule.then(({ load }) => load({ wasm: running }));
  engineLoad.catch(() => {}); // its failure is shown below, once the shell is drawn
  // What shows results and makes calls (verdicts, the model's client) is not in the first
  // paint, and before the views hear that the engine is ready.
  const resultModules = later.then(loadResultModules);
  resultModules.catch(() => {}); // said below, as the engine's failure
  state.config = config;
  const described = builtins;
  if (!builtins) {
    shellDrawn(); // nothing to draw without the engine's list
    try {
      builtins = (await engineLoad).evaluators();
    } catch (e) {
      engineFailed(e);
      return;
    }
  }
  registry.setBuiltins(builtins);
  // Evaluate shows the evaluator last chosen, or a share link's: when that may be one of the
  // user's own, it waits for them, to be drawn with it at once rather than redrawn.
  const chosen = state.get("evaluator");
  if (/^#rj\d+\./.test(location.hash) || (chosen && !builtins.some((b) => b.id === chosen))) await registry.loaded;
  let evaluators = registry.all();

  mountSettings(doc, state);
  const viewsMenu = mountViewsMenu(doc);
  // What an Evaluate view says to the one drawn after it (a share link's evaluator was saved).
  const note = signal("");
  // A share link the page is opened on: Evaluate opens it (location.hash, read before show
  // replaces it with the view's name).
  const SHARE_HASH = /^#rj\d+\./;
  /** mountEvaluateView draws Evaluate with everything it needs, and a share link to open. @param {string} link */
  const mountEvaluateView = (link) => mountEvaluate(ref(doc, "view-evaluate"), { evaluators, engine, state, registry, note, link });
  let evaluate = mountEvaluateView(SHARE_HASH.test(location.hash) ? location.hash : "");
  /** @type {Promise<void>|false} the calculator's mount, once begun */
  let calculatorMounted = false;
  /** @type {Promise<void>|false} the Batch view's mount, once begun */
  let batchMounted = false;
  /** @type {Promise<void>|false} the My evaluators view's mount, once begun */
  let customMounted = false;
  // An evaluator added, renamed or removed in My evaluators: Evaluate is drawn again with it, when
  // it is next shown (not under the user's hands, and not once per keystroke of a title).
  let evaluateStale = false;
  // A share link the view drawn before had not finished opening is opened by the one drawn now.
  const redrawEvaluate = () => {
    evaluateStale = false;
    evaluators = registry.all();
    evaluate = mountEvaluateView(evaluate.dispose());
  };
  onChange(() => registry.listed.value, () => {
    if (state.get("view") === "evaluate") redrawEvaluate();
    else evaluateStale = true;
  });
  // The user's evaluators, once read, join the picker drawn without them (no redraw: what the user
  // has begun to type or select stays). The other views are mounted after this (show).
  const customsIn = registry.loaded.then(() => {
    evaluators = registry.all();
    evaluate.addEvaluators(evaluators);
  });
  // "Use in Evaluate" in My evaluators.
  onChange(() => registry.asked.value, (asked) => {
    if (!asked) return;
    const id = asked.id;
    if (evaluateStale) redrawEvaluate();
    if (evaluators.some((x) => x.id === id)) evaluate.select(id);
    show("evaluate", { focus: true });
  });

  const tabs = [...ref(doc, "tabs").querySelectorAll('[role="tab"]')];
  async function show(view, { focus = false } = {}) {
    if (!VIEWS.includes(view)) view = "evaluate";
    for (const t of tabs) {
      const on = t.dataset.view === view;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      if (on && focus) t.focus();
    }
    viewsMenu.sync(view);
    for (const v of VIEWS) ref(doc, "view-" + v).hidden = v !== view;
    if (state.get("view") !== view) state.set({ view });
    if (location.hash.slice(1) !== view) history.replaceState(null, "", "#" + view);
    if (view === "evaluate" && evaluateStale) redrawEvaluate();
    // The other views are mounted with the user's evaluators in (customsIn).
    if (view === "calculator" && !calculatorMounted) {
      calculatorMounted = customsIn.then(() => mountCalculator(ref(doc, "view-calculator"), { engine, state, evaluators }));
    }
    if (view === "batch" && !batchMounted) {
      // Drawn at once; it reads datasets and reopens stored runs once the engine is ready, and
      // its promise resolves then.
      batchMounted = customsIn.then(() => mountBatch(ref(doc, "view-batch"), { engine, evaluators, state, registry }));
    }
    if (view === "batch") await batchMounted;
    if (view === "calculator") await calculatorMounted;
    if (view === "custom" && !customMounted) customMounted = customsIn.then(() => mountLazy("./custom/view.js", ref(doc, "view-custom"), "My evaluators", { engine, registry, state }));
    if (view === "custom") await customMounted;
  }
  for (const t of tabs) {
    t.addEventListener("click", () => show(t.dataset.view));
    t.addEventListener("keydown", (e) => {
      const i = tabs.indexOf(t);
      // Up and Down too: on a phone the tabs are a list under the top bar (viewsmenu.js).
      const next = e.key === "ArrowRight" || e.key === "ArrowDown";
      const prev = e.key === "ArrowLeft" || e.key === "ArrowUp";
      const j = next ? i + 1 : prev ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? tabs.length - 1 : -1;
      if (j === -1 && !prev) return;
      e.preventDefault();
      show(tabs[(j + tabs.length) % tabs.length].dataset.view, { focus: true });
    });
  }
  // A share link pasted into the tab changes only the fragment: Evaluate is shown (drawn again
  // first when stale) and the view shown then opens it. Evaluate listening itself lost the link
  // when this redraw disposed it before its listener ran.
  window.addEventListener("hashchange", () => {
    const hash = location.hash;
    show(SHARE_HASH.test(hash) ? "evaluate" : hash.slice(1));
    if (SHARE_HASH.test(hash)) evaluate.openLink(hash);
  });
  doc.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && state.get("view") === "evaluate") {
      e.preventDefault();
      evaluate.run();
    }
  });
  const first = show(location.hash.slice(1) || state.get("view"));
  loading.hidden = true;
  html.dataset.shell = "ready";
  performance.mark("ragjudge-shell");
  // Model settings clicked before the modules had run (boot.js noted it): opened now. (An
  // evaluator or a tab clicked then is open already: mountEvaluate and show read them.)
  if (/** @type {any} */ (window).ragjudgeBoot?.settings) ref(doc, "settings-button").click();
  // After this frame is painted, not in it; a hidden tab paints nothing (and runs no animation
  // frames), so there the engine starts at once.
  if (doc.visibilityState === "hidden") shellDrawn();
  else requestAnimationFrame(() => setTimeout(shellDrawn, 0));

  let rj;
  try {
    [rj] = await Promise.all([engineLoad, resultModules]);
  } catch (e) {
    engineFailed(e);
    return;
  }
  performance.mark("ragjudge-engine");
  ref(doc, "version").textContent = "ragjudge " + (rj.version || "");
  await customsIn;
  registry.attach(rj); // before the views hear of the engine, so that they find the user's evaluators defined
  engine.ready(rj);
  html.dataset.engine = "ready";
  // evaluators.json comes from the same build as the wasm; one from another build would draw
  // forms the engine does not read, so the engine's own list wins. (Checked after the engine is
  // marked ready: listing the evaluators costs the engine a few ms.)
  const engineBuiltins = rj.evaluators().filter((e) => !e.custom);
  if (described && JSON.stringify(engineBuiltins) !== JSON.stringify(described)) {
    console.warn("ragjudge: evaluators.json differs from the engine's evaluators (is it from another build? run make build); using the engine's");
    registry.setBuiltins(engineBuiltins);
    redrawEvaluate();
    if (calculatorMounted) {
      calculatorMounted = false;
      replace(ref(doc, "view-calculator"));
    }
  }
  // The first view is whole (the Batch view has reopened its runs), and so is the one shown now.
  await first;
  await show(state.get("view"));
  // The page is whole: the e2e tests wait for this.
  html.dataset.ready = "true";
  performance.mark("ragjudge-ready");
  // Offline: the service worker keeps the page's files (after the page is whole, so that its
  // precaching does not compete with the first load).
  import("./offline.js") // modulepreload
    .then(({ startOffline }) => startOffline(ref(doc, "updated")))
    .catch(() => {});

  /** engineFailed says the engine did not load, with why; what is drawn stays readable. */
  function engineFailed(e) {
    engine.fail(e);
    html.dataset.engine = "failed";
    loading.hidden = false;
    loading.classList.add("msg-error");
    replace(
      loading,
      h("strong", { text: "✗ The judge engine did not load: " }),
      String((e && e.message) || e),
      h("br"),
      "Build it with make build (or make run), then reload.",
    );
  }
}

// mountCalculator loads the Recall calculator (calculator/view.js) on first visit.
async function mountCalculator(root, { engine, state, evaluators }) {
  let mod;
  try {
    mod = await import("./calculator/view.js"); // modulepreload
  } catch (e) {
    viewLoadFailed(root, "calculator-load-error", "Recall calculator", e);
    return;
  }
  mod.mountCalculator(root, { engine, state, evaluators });
}

// mountBatch loads the Batch view (web/batch/view.js) on first visit; a view that cannot load says
// so, with the error.
async function mountBatch(root, { engine, evaluators, state, registry }) {
  let mod, renderVerdict;
  try {
    [mod, { renderVerdict }] = await Promise.all([import("./batch/view.js"), import("./verdict/render.js")]);
  } catch (e) {
    viewLoadFailed(root, "batch-load-error", "Batch evaluation", e);
    return;
  }
  await mod.mount(root, { engine, evaluators, state, renderVerdict, registry });
}

// mountLazy loads a view's module (path, relative to this file) on first visit and mounts it into
// root with ctx; a view that cannot load says so, with the error.
async function mountLazy(path, root, title, ctx) {
  let mod, renderVerdict;
  try {
    [mod, { renderVerdict }] = await Promise.all([import(path), import("./verdict/render.js")]);
  } catch (e) {
    replace(root, h("section", { class: "card msg-error" }, h("h2", { class: "card-title", text: title }), h("p", { text: `✗ The ${title} view did not load: ` + (e instanceof Error ? e.message : String(e)) })));
    return;
  }
  await mod.mount(root, { ...ctx, renderVerdict });
}

/** viewLoadFailed says in root that a view's modules did not load, with the error. */
function viewLoadFailed(root, dataRef, title, e) {
  const name = title === "Batch evaluation" ? "The Batch view" : "The " + title;
  replace(
    root,
    h(
      "section",
      { class: "card msg-error", dataset: { ref: dataRef } },
      h("h2", { class: "card-title", text: title }),
      h("p", { text: `✗ ${name} did not load: ` + (e instanceof Error ? e.message : String(e)) }),
    ),
  );
}

main();
