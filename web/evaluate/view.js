// view.js: the Evaluate view. Left: pick an evaluator, fill its form (built from
// rj.evaluators()), see the prompt rendered live, Run. Right: the verdict and the judge's raw
// answer, which streams in from a model or is pasted by hand (manual mode); either way the same
// rj.parse gives the same verdict.
//
// The view is drawn from the evaluators' descriptions before the engine has loaded: the picker,
// the form and the answer box work at once; the prompt, the verdict and Run wait quietly for the
// engine (shell/enginestatus.js) and appear when it is ready.
//
// Under the verdict, the evaluation is shared as a link or a report, and a page opened on a share
// link shows it: sharing.js.

import { h, replace, debounce, badge, selectSpan } from "../lib/dom.js";
import { exampleWords, drawSkeleton, revealCard } from "./layout.js";
import { adoptablePicker, fillPicker } from "./picker.js";
import { buildForm, fromInputs, toInputs, missingRequired, autoGrow, listWords } from "../lib/form.js";
import { promptCard } from "./promptcard.js";
import { engineNote } from "../shell/enginestatus.js";
import { pageRegistry } from "../custom/registry.js";
import { mountShare } from "./sharing.js";

// What shows a verdict and what makes calls are not needed to draw the view: they are outside the
// first paint's module graph, which they would only make larger, and are imported once app.js runs
// (loadResultModules, which app.js awaits before it tells the views that the engine is ready, so
// that a verdict never waits for them).
/** @type {typeof import("../verdict/render.js")|null} */
let verdicts = null;
/** @type {typeof import("../verdict/failed.js")|null} */
let failed = null;
/** @type {typeof import("./judgecall.js")|null} */
let judgecall = null;
/** @type {typeof import("./runbutton.js")|null} */
let evaluaterun = null;

/**
 * loadResultModules imports what the view needs once the engine is ready: verdicts, calls.
 * @returns {Promise<void>}
 */
export async function loadResultModules() {
  [verdicts, failed, judgecall, evaluaterun] = await Promise.all([
    import("../verdict/render.js"), // modulepreload
    import("../verdict/failed.js"), // modulepreload
    import("./judgecall.js"), // modulepreload
    import("./runbutton.js"), // modulepreload
  ]);
}

/**
 * mountEvaluate builds the Evaluate view into root from evaluators (what rj.evaluators() lists);
 * what needs the engine waits for engine.rj. dispose() detaches the view from the state and the
 * engine, and returns the share link it had not finished opening ("" when none), for the view
 * drawn next (link) to open; openLink opens a share link pasted into the tab.
 * @param {HTMLElement} root
 * registry (the page's, when not given) holds the evaluators opened from share links, shown too.
 * @param {{evaluators: any[], engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State, registry?: import("../custom/registry.js").EvaluatorRegistry|null, link?: string}} ctx
 */
export function mountEvaluate(root, { evaluators: described, engine, state, registry = pageRegistry(), link = "" }) {
  const evaluators = [...described, ...(registry ? registry.linked.values() : [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const byID = new Map(evaluators.map((e) => [e.id, e]));
  // An evaluator clicked in index.html's picker before the modules had run (boot.js) is the one
  // to open; the picker is taken over, buttons and all, only when it shows these evaluators.
  const boot = /** @type {any} */ (window).ragjudgeBoot;
  if (boot && boot.picked && byID.has(boot.picked)) state.set({ evaluator: boot.picked });
  if (boot) boot.picked = "";
  const adopted = adoptablePicker(root, evaluators);
  if (!byID.has(state.get("evaluator"))) state.data.evaluator = evaluators[0].id;
  // A link's evaluator keeps its form and answer in its own draft, never in the stored state.
  const formsOf = () => (ev.fromLink ? ev.draft.forms : state.get("forms"));
  const answersOf = () => (ev.fromLink ? ev.draft.answers : state.get("answers"));
  const saveSoon = debounce(() => state.save(), 400);
  // A page left (a reload, a closed tab) within the wait keeps the last keystrokes too.
  const saveNow = () => saveSoon.settle();
  window.addEventListener("pagehide", saveNow);

  let ev = byID.get(state.get("evaluator"));
  /** @type {any} the last successful rj.render result */
  let rendered = null;
  /** @type {any} */
  let renderError = null;
  /** @type {{ctl: AbortController} | null} while a call is in flight */
  let running = null;
  /** @type {import("./judgecall.js").JudgeCall | null} */
  let lastCall = null;
  /** @type {import("../verdict/failed.js").RunOutcome | null} how the last Run ended without a whole answer, told in the verdict panel */
  let outcome = null;
  // A share link's verdict is brought into view again once it is drawn (the engine may still be
  // loading when the link is read, and the cards above it grow as it does).
  let revealPending = false;

  // ---- skeleton --------------------------------------------------------------------------
  const promptView = promptCard();
  const { promptMsgs, picker, desc, exampleBtn, formEl, runBtn, stopBtn, runStatus, runError, verdictEl, answerTA, answerHint, usageEl } = drawSkeleton(root, promptView, adopted, {
    onExample: () => loadExample(),
    onClear: () => clearForm(),
    onRun: () => run(),
    onStop: () => stop(),
    onAnswer: () => { answersOf()[ev.id] = answerTA.value; lastCall = null; outcome = null; revealPending = false; saveSoon(); drawUsage(); judgeSoon(); },
  });

  // ---- sharing: a link, a report (sharing.js) --------------------------------------------
  const share = mountShare({
    root, verdictEl, desc, runStatus, answerTA, engine, state, registry, byID,
    ev: () => ev,
    running: () => !!running,
    rendered: () => currentRender(),
    model: () => (lastCall ? lastCall.model : ""),
    inputs: () => inputs(),
    rawForm: () => rawForm(),
    formsOf, answersOf, select, stop, clearForm, drawForm,
    addPick: (e) => addPick(e),
    revealVerdict: (verdictToCome) => {
      revealVerdict();
      revealPending = verdictToCome && !verdictEl.querySelector('[data-ref="verdict-view"]');
    },
  }, link);

  // ---- evaluator picker --------------------------------------------------------------------
  const { add: addPick, addEvaluators } = fillPicker(picker, { evaluators, byID, shown: () => ev.id, onSelect: (id) => select(id) });

  /** @type {any} the form buildForm made */
  let form = null;
  function select(id) {
    stop();
    revealPending = false;
    ev = byID.get(id);
    if (!ev.fromLink) state.set({ evaluator: id });
    picker.querySelector(`input[value="${id}"]`).checked = true;
    drawForm();
  }

  // rawForm is the evaluator's form values; a first visit starts from its declared example, so
  // the page shows a whole prompt at once instead of an empty form.
  function rawForm() {
    const forms = formsOf();
    if (!forms[ev.id]) forms[ev.id] = fromInputs(ev, (ev.example && ev.example.inputs) || {});
    return forms[ev.id];
  }

  let epoch = 0; // bumped whenever the form is redrawn for other inputs; a run is only for its epoch
  function drawForm() {
    epoch++;
    desc.textContent = ev.description || "";
    syncExample();
    share.drawLinkNote();
    form = buildForm(formEl, ev, rawForm(), onFormChange);
    answerTA.value = answersOf()[ev.id] || "";
    requestAnimationFrame(() => autoGrow(answerTA));
    lastCall = null;
    outcome = null;
    runError.textContent = "";
    runStatus.textContent = "";
    drawUsage();
    syncMode();
    update();
  }

  function onFormChange() {
    revealPending = false; // the user is at work on the form: nothing pulls the page away from it
    saveSoon();
    updateSoon();
  }

  // An evaluator of the user's without an example (a new one) has none to load. Its example is
  // its editor's sample, which can change while this view is open (registry "updated").
  function syncExample() {
    exampleWords(exampleBtn, hasExample(ev), !!(ev.example && ev.example.answer), state.endpoint().mode === "manual");
  }

  function loadExample() {
    const ex = ev.example;
    if (!hasExample(ev)) return;
    stop(); // new inputs: an answer to the old ones would be a verdict on nothing
    formsOf()[ev.id] = fromInputs(ev, ex.inputs);
    // In manual mode the example comes with a judge answer so the verdict shows at once.
    answersOf()[ev.id] = state.endpoint().mode === "manual" ? ex.answer : "";
    state.save();
    drawForm();
  }

  function clearForm() {
    stop();
    formsOf()[ev.id] = fromInputs(ev, {});
    answersOf()[ev.id] = "";
    state.save();
    drawForm();
    formEl.querySelector("textarea, input, select")?.focus();
  }

  // ---- rendering the prompt -----------------------------------------------------------------
  function inputs() {
    return toInputs(ev, rawForm());
  }

  function update() {
    const inp = inputs();
    form.clearErrors();
    replace(promptMsgs);
    renderError = null;
    const rj = engine.rj;
    if (!rj) {
      rendered = null;
      promptMsgs.append(h("p", { class: "note", dataset: { ref: "engine-loading" }, text: engineNote(engine, "The prompt appears") }));
      promptView.draw(null, ev.inputs.map((i) => i.name));
      syncMode();
      judge();
      return;
    }
    try {
      rendered = rj.render(ev.id, inp);
    } catch (e) {
      rendered = null;
      renderError = e;
    }
    if (renderError) {
      const missing = missingRequired(ev, inp);
      const fieldName = fieldOf(renderError);
      if (missing.length) {
        promptMsgs.append(h("p", { class: "note", text: `Fill in ${listWords(missing)} to see the prompt.` }));
      } else {
        const where = renderError.line ? ` (line ${renderError.line}, column ${renderError.col})` : "";
        promptMsgs.append(h("p", { class: "msg-error", dataset: { ref: "render-error" } }, h("strong", { text: "✗ Cannot render the prompt" + where + ": " }), renderError.message));
      }
      if (fieldName && !missing.length) form.setError(fieldName, "✗ " + (renderError.detail || renderError.message));
    } else {
      // The render's checks ({code, message, input}); an engine without them gave warnings' text.
      for (const w of rendered.checks || rendered.warnings || []) {
        const text = typeof w === "string" ? w : w.message;
        const fieldName = typeof w === "string" ? null : fieldOf(w);
        promptMsgs.append(h("p", { class: "msg-warning", dataset: { ref: "render-warning", code: (typeof w === "object" && w.code) || "" } }, h("strong", { text: "⚠ " }), text));
        if (fieldName) form.setError(fieldName, "⚠ " + text);
      }
    }
    promptView.draw(rendered, ev.inputs);
    syncMode();
    judge();
  }
  const updateSoon = debounce(update, 120);

  // currentRender is the render of the form as it is now. The prompt is drawn a moment after the
  // last keystroke (updateSoon); an action (Run, Ctrl+Enter, a report) taken within that moment
  // renders the form first, so that it never acts on the inputs before the last edit.
  function currentRender() {
    updateSoon.settle();
    return rendered;
  }

  // fieldOf finds which input a check or an error is about, so it can be shown next to that
  // input as well: a check's `input`, or what an input error is about (its `subject`).
  function fieldOf(err) {
    const name = err && (err.input || (err.kind === "input" ? err.subject : ""));
    return name && ev.inputs.some((i) => i.name === name) ? name : null;
  }


  // ---- verdict --------------------------------------------------------------------------------
  /** judge draws the verdict panel from the answer as it is, and offers sharing only with a verdict to share. */
  function judge() {
    drawVerdict();
    share.sync();
  }

  function drawVerdict() {
    const answer = answerTA.value;
    if (running) {
      replace(verdictEl, h("div", { class: "waiting" }, h("span", { class: "pulse", attrs: { "aria-hidden": "true" } }), "The judge is answering…"));
      return;
    }
    // How the last Run ended, when it brought no whole answer, stays where the verdict goes.
    const ended = outcome && failed ? failed.outcomeView(outcome, { partial: !!answer.trim(), onRunAgain: () => run() }) : null;
    if (!answer.trim()) {
      if (ended) {
        replace(verdictEl, ended);
        return;
      }
      const manual = state.endpoint().mode === "manual";
      replace(
        verdictEl,
        h(
          "div",
          { class: "empty" },
          h("p", { class: "empty-title", text: "No verdict yet" }),
          h("p", {
            text: manual
              ? "Copy the prompt into any chat tool, then paste its answer below."
              : "Run the prompt with your model, or paste a judge's answer below.",
          }),
        ),
      );
      return;
    }
    const rj = engine.rj;
    if (!rj || !verdicts) {
      replace(verdictEl, h("p", { class: "note", dataset: { ref: "engine-loading-verdict" }, text: engineNote(engine, "The verdict appears") }));
      if (rj) loadResultModules().then(judge, () => {});
      return;
    }
    const { renderVerdict, checksView } = verdicts;
    const inp = inputs();
    let v;
    try {
      v = rj.parse(ev.id, inp, answer);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      replace(verdictEl, ended, badge(null, { cause: "the inputs are not valid", size: "badge-big" }), checksView([{ severity: "error", message }]));
      return;
    }
    replace(verdictEl, ended, renderVerdict({ rj, ev, inputs: inp, v, answer, onLocate: locate }));
    if (revealPending) {
      revealPending = false;
      requestAnimationFrame(revealVerdict);
    }
  }
  const judgeSoon = debounce(judge, 250);

  // revealVerdict brings the verdict card into view: what a Run or a share link brings is shown
  // where it lands (a phone's one column has it under the form and the prompt).
  const revealVerdict = () => revealCard(/** @type {HTMLElement} */ (verdictEl.closest(".verdict-card")));

  // locate shows, in the judge's answer, the span a check points at.
  /** @param {{line: number, col?: number, len?: number}} c */
  function locate(c) {
    selectSpan(answerTA, c);
  }

  // ---- running ----------------------------------------------------------------------------------
  function syncMode() {
    const ep = state.endpoint();
    const manual = ep.mode === "manual";
    const loading = !engine.rj;
    runBtn.textContent = running ? "Running…" : loading ? (engine.status === "failed" ? "The judge engine did not load" : "Loading the judge engine…") : manual ? "Copy prompt for your chat tool" : "▶ Run with model";
    runBtn.disabled = !!running || !rendered;
    // Tests and styles tell the engine-loading state apart from inputs that cannot be rendered.
    runBtn.dataset.engine = engine.status;
    runBtn.setAttribute("aria-busy", String(engine.status === "loading"));
    answerTA.placeholder = manual ? "Paste the judge's answer here: the verdict updates as you paste." : "The model's answer streams in here. You can also paste or edit an answer.";
    answerHint.textContent = manual
      ? "Manual mode: no calls are made. Paste any chat tool's answer."
      : `Calls go ${ep.label.replace(/^via /, "via ")}, model ${state.get("settings").model || "(none set)"}.`;
    syncExample();
  }

  function drawUsage() {
    if (!lastCall) {
      replace(usageEl);
      return;
    }
    if (!judgecall) return; // a call was made: its module is in
    replace(usageEl, h("span", { class: "hint", dataset: { ref: "usage-text" }, text: judgecall.usageLine(lastCall) }));
  }

  // run runs the prompt (runbutton.js): copied in manual mode, otherwise asked of the model.
  const run = async () => {
    if (!evaluaterun) await loadResultModules();
    return /** @type {typeof import("./runbutton.js")} */ (evaluaterun).runJudge({
      root, engine, state, promptView, answerTA, runStatus, runError, stopBtn,
      ev: () => ev,
      epoch: () => epoch,
      rendered: () => currentRender(),
      running: () => !!running,
      setRunning: (r) => { running = r; },
      setLastCall: (c) => { lastCall = c; },
      setOutcome: (o) => { outcome = o; },
      revealVerdict,
      answersOf, drawUsage, syncMode, judge,
    });
  };

  function stop() {
    if (running) running.ctl.abort();
  }

  // ---- keyboard, state and the engine -----------------------------------------------------------
  /** @param {any} e */
  const onState = (e) => {
    if (e.detail.keys.includes("settings")) {
      syncMode();
      if (!answerTA.value.trim()) judge();
    }
  };
  state.addEventListener("change", onState);
  // The engine became ready (or failed): what waited for it is drawn now, from the inputs as
  // they are, typed while it loaded included.
  const onEngine = () => {
    if (engine.rj) runError.textContent = "";
    update();
  };
  engine.addEventListener("change", onEngine);
  // The user's evaluator's example is its editor's sample, saved as it is typed.
  /** @param {any} e */
  const onUpdated = (e) => {
    if (e.detail.id === ev.id) syncExample();
  };
  registry?.addEventListener("updated", onUpdated);

  function dispose() {
    stop();
    saveSoon.settle();
    window.removeEventListener("pagehide", saveNow);
    state.removeEventListener("change", onState);
    engine.removeEventListener("change", onEngine);
    registry?.removeEventListener("updated", onUpdated);
    return share.dispose();
  }

  drawForm();
  share.start();
  return { run, stop, select, loadExample, dispose, addEvaluators, openLink: share.open };
}

/**
 * hasExample says whether evaluator e has an example to load: some input's value or a judge
 * answer (the engine lists an evaluator without one with an empty example).
 * @param {any} e @returns {boolean}
 */
function hasExample(e) {
  const ex = e.example;
  return !!ex && (Object.keys(ex.inputs || {}).length > 0 || !!ex.answer);
}
