// app.js: the page's entry point. Loads the judge engine (ragjudge.js + wasm) and the dev server's
// config in parallel, then builds the top bar, the model settings and the three views: Evaluate,
// Batch (web/batch/view.js, loaded on first visit) and the Recall calculator.

import { load } from "./ragjudge.js";
import { State } from "./state.js";
import { h, ref, replace } from "./dom.js";
import { mountSettings } from "./settings.js";
import { mountEvaluate } from "./evaluate.js";
import { mountCalculator } from "./calculator.js";
import { renderVerdict } from "./verdicts.js";

const VIEWS = ["evaluate", "batch", "calculator"];

async function fetchConfig() {
  try {
    const res = await fetch("ragjudge/config", { headers: { Accept: "application/json" } });
    if (!res.ok) return null;
    const j = await res.json();
    return j && typeof j === "object" && "upstream" in j ? j : null;
  } catch {
    return null; // served as static files: no dev server, so no proxy
  }
}

async function main() {
  const doc = document;
  const state = new State();
  const loading = ref(doc, "loading");
  let rj;
  try {
    [rj, state.config] = await Promise.all([load(), fetchConfig()]);
  } catch (e) {
    replace(
      loading,
      h("strong", { text: "✗ The judge engine did not load: " }),
      String((e && e.message) || e),
      h("br"),
      "Build it with make build (or make run), then reload.",
    );
    loading.classList.add("msg-error");
    return;
  }
  performance.mark("ragjudge-engine");
  loading.hidden = true;
  ref(doc, "version").textContent = "ragjudge " + (rj.version || "");

  mountSettings(doc, state);
  const evaluate = mountEvaluate(ref(doc, "view-evaluate"), { rj, state });
  let calculatorMounted = false;
  let batchMounted = false;

  const tabs = [...ref(doc, "tabs").querySelectorAll('[role="tab"]')];
  async function show(view, { focus = false } = {}) {
    if (!VIEWS.includes(view)) view = "evaluate";
    for (const t of tabs) {
      const on = t.dataset.view === view;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      if (on && focus) t.focus();
    }
    for (const v of VIEWS) ref(doc, "view-" + v).hidden = v !== view;
    if (view === "calculator" && !calculatorMounted) {
      calculatorMounted = true;
      mountCalculator(ref(doc, "view-calculator"), { rj, state });
    }
    if (view === "batch" && !batchMounted) {
      batchMounted = true;
      await mountBatch(ref(doc, "view-batch"), { rj, state });
    }
    if (state.get("view") !== view) state.set({ view });
    if (location.hash.slice(1) !== view) history.replaceState(null, "", "#" + view);
  }
  for (const t of tabs) {
    t.addEventListener("click", () => show(t.dataset.view));
    t.addEventListener("keydown", (e) => {
      const i = tabs.indexOf(t);
      const j = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? tabs.length - 1 : -1;
      if (j === -1 && !["ArrowRight", "ArrowLeft"].includes(e.key)) return;
      e.preventDefault();
      show(tabs[(j + tabs.length) % tabs.length].dataset.view, { focus: true });
    });
  }
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  doc.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && state.get("view") === "evaluate") {
      e.preventDefault();
      evaluate.run();
    }
  });
  await show(location.hash.slice(1) || state.get("view"));
  // The page is usable: tests and the page benchmark wait for this.
  doc.documentElement.dataset.ready = "true";
  performance.mark("ragjudge-ready");
}

// mountBatch loads the Batch view (web/batch/view.js) on first visit; a view that cannot load says
// so, with the error.
async function mountBatch(root, { rj, state }) {
  let mod;
  try {
    mod = await import("./batch/view.js");
  } catch (e) {
    replace(
      root,
      h(
        "section",
        { class: "card msg-error", dataset: { ref: "batch-load-error" } },
        h("h2", { class: "card-title", text: "Batch evaluation" }),
        h("p", { text: "✗ The Batch view did not load: " + (e instanceof Error ? e.message : String(e)) }),
      ),
    );
    return;
  }
  await mod.mount(root, { rj, state, renderVerdict });
}

main();
