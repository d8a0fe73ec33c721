// boot.js: the page before its modules have run. index.html carries the Evaluate view's cards and
// its evaluator picker, written at build time from evaluators.json (scripts/webfiles.mjs), hidden;
// this small classic script runs as the parser reaches the end of <main>, before the first paint
// in practice, and shows them as the page will: the view the address or the saved state names,
// its tab selected, the evaluator last chosen checked. The evaluator buttons are thus on screen
// with the page's first paint rather than once its modules have loaded (app.js takes the picker
// over as it is, evaluate/view.js).
//
// Until app.js has drawn the shell (<html data-shell="ready">) nothing else on the page has its
// handlers; what a user does meanwhile is kept, not lost:
//   - a click on an evaluator is the browser's own (the picker is radio buttons): it stays checked,
//     and app.js opens that evaluator (ragjudgeBoot.picked);
//   - a click on a tab shows that view's tab and address at once, and app.js opens that view;
//   - a click on Model settings is noted (ragjudgeBoot.settings) and app.js opens them.
// It reads the state the way state.js does and writes nothing to it. No module: it must not wait
// for anything, and it runs where module scripts would wait for the whole document.

(function boot() {
  const VIEWS = ["evaluate", "batch", "calculator", "custom"];
  const doc = document;
  const html = doc.documentElement;
  /** @type {{picked: string, settings: boolean}} what the user did before app.js ran */
  const early = { picked: "", settings: false };
  /** @type {any} */ (window).ragjudgeBoot = early;
  const hydrated = () => html.dataset.shell === "ready";

  /** @type {any} */
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem("ragjudge.page.v1") || "null");
  } catch {
    saved = null; // storage refused or a corrupt entry: state.js drops it too
  }
  const savedView = saved && typeof saved.view === "string" ? saved.view : "";
  const evaluator = saved && typeof saved.evaluator === "string" ? saved.evaluator : "";

  /** @param {string} view */
  const showView = (view) => {
    if (!VIEWS.includes(view)) view = "evaluate";
    for (const t of doc.querySelectorAll('[data-ref="tabs"] [role="tab"]')) {
      const on = /** @type {HTMLElement} */ (t).dataset.view === view;
      t.setAttribute("aria-selected", String(on));
      /** @type {HTMLElement} */ (t).tabIndex = on ? 0 : -1;
      // A phone's top bar names the view shown on the button its tabs fold into (viewsmenu.js).
      const current = on && doc.querySelector('[data-ref="views-current"]');
      if (current) current.textContent = t.textContent;
    }
    // Only Evaluate has something drawn yet; the others keep the page's "Loading…".
    const evaluate = doc.getElementById("view-evaluate");
    const drawn = !!(evaluate && evaluate.querySelector(".picker[data-prerendered]"));
    for (const v of VIEWS) {
      const el = doc.getElementById("view-" + v);
      if (el) el.hidden = v !== view || (v === "evaluate" && !drawn);
    }
    const loading = doc.querySelector('[data-ref="loading"]');
    if (loading) /** @type {HTMLElement} */ (loading).hidden = view === "evaluate" && drawn;
  };

  const picker = doc.querySelector("#view-evaluate .picker[data-prerendered]");
  if (picker) {
    // The evaluator last chosen; the first when none is (state.js's default is the first built-in);
    // none when it is one of the user's own, which app.js adds to the picker, checked.
    const inputs = /** @type {HTMLInputElement[]} */ ([...picker.querySelectorAll('input[type="radio"]')]);
    const chosen = evaluator ? inputs.find((i) => i.value === evaluator) : inputs[0];
    if (chosen) chosen.checked = true;
    picker.addEventListener("change", (e) => {
      if (!hydrated()) early.picked = /** @type {HTMLInputElement} */ (e.target).value;
    });
  }
  showView(location.hash.slice(1) || savedView);

  doc.querySelector('[data-ref="tabs"]')?.addEventListener("click", (e) => {
    const tab = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (e.target).closest('[role="tab"]'));
    if (!tab || hydrated()) return;
    history.replaceState(null, "", "#" + tab.dataset.view);
    showView(tab.dataset.view || "");
  });
  doc.querySelector('[data-ref="settings-button"]')?.addEventListener("click", () => {
    if (!hydrated()) early.settings = !early.settings;
  });
})();
