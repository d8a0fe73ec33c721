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
import { mountShare } from "./sharing.js";
import { viewState } from "./viewstate.js";
import { drawRunBar } from "./runbar.js";
import { effect, onChange, batch, untracked } from "../lib/store.js";

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
 * registry (the page's) holds the evaluators opened from share links, shown too; note is the page's
 * word to the next Evaluate view drawn (sharing.js: a link's evaluator was saved).
 * @param {{evaluators: any[], engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State, registry: import("../custom/registry.js").EvaluatorRegistry|null,
 *   note: import("../lib/store.js").Signal<string>, link?: string}} ctx
 */
export function mountEvaluate(root, { evaluators: described, engine, state, registry, note, link = "" }) {
  const evaluators = [...described, ...(registry ? registry.linked.values() : [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const byID = new Map(evaluators.map((e) => [e.id, e]));
  // An evaluator clicked in index.html's picker before the modules had run (boot.js) is the one
  // to open; the picker is taken over, buttons and all, only when it shows these evaluators.
  const boot = /** @type {any} */ (window).ragjudgeBoot;
  if (boot && boot.picked && byID.has(boot.picked)) state.set({ evaluator: boot.picked });
  if (boot) boot.picked = "";
  const adopted = adoptablePicker(root, evaluators);
  if (!byID.has(state.get("evaluator"))) state.set({ evaluator: evaluators[0].id });
  // The view's state (viewstate.js), which its parts read and set and the effects below draw.
  const view = viewState(state, byID.get(state.get("evaluator")));
  const { drafts } = view;
  // What is typed is the view's own (drafts), kept in the state a moment after the last keystroke.
  const saveSoon = debounce(() => drafts.keep(), 400);
  // A page left (a reload, a closed tab) within the wait keeps the last keystrokes too.
  const saveNow = () => saveSoon.flush();
  window.addEventListener("pagehide", saveNow);

  /** @type {any} */
  let renderError = null;
  // A share link's verdict is brought into view again once it is drawn (the engine may still be
  // loading when the link is read, and the cards above it grow as it does).
  let revealPending = false;

  // ---- skeleton --------------------------------------------------------------------------
  const promptView = promptCard();
  const els = drawSkeleton(root, promptView, adopted, {
    onExample: () => loadExample(),
    onClear: () => clearForm(),
    onRun: () => run(),
    onStop: () => stop(),
    onPointer: () => revealVerdict(),
    onAnswer: () => {
      drafts.setAnswer(view.ev.value, answerTA.value);
      forgetLastRun();
      revealPending = false;
      saveSoon();
      judgeSoon();
    },
  });
  const { promptMsgs, picker, desc, exampleBtn, formEl, runStatus, runError, verdictEl, answerTA } = els;

  // ---- sharing: a link, a report (sharing.js) --------------------------------------------
  const share = mountShare({
    view, els, engine, state, registry, byID, note, currentRender, select, stop, clearForm, drawForm,
    addPick: (e) => addPick(e),
    revealVerdict: (verdictToCome) => {
      revealVerdict();
      revealPending = verdictToCome && !verdictEl.querySelector('[data-ref="verdict-view"]');
    },
  }, link);

  // ---- evaluator picker --------------------------------------------------------------------
  const { add: addPick, addEvaluators } = fillPicker(picker, { evaluators, byID, shown: () => view.ev.value.id, onSelect: (id) => select(id) });

  /** @type {any} the form buildForm made */
  let form = null;
  function select(id) {
    stop();
    revealPending = false;
    const ev = (view.ev.value = byID.get(id));
    if (!ev.fromLink) state.set({ evaluator: id });
    picker.querySelector(`input[value="${id}"]`).checked = true;
    drawForm();
  }

  // rawForm is the evaluator's form values; a first visit starts from its declared example, so
  // the page shows a whole prompt at once instead of an empty form.
  function rawForm() {
    const ev = view.ev.value;
    if (!drafts.form(ev)) drafts.setForm(ev, fromInputs(ev, (ev.example && ev.example.inputs) || {}));
    return drafts.form(ev);
  }

  function drawForm() {
    const ev = view.ev.value;
    view.epoch.value++;
    desc.textContent = ev.description || "";
    share.drawLinkNote();
    form = buildForm(formEl, ev, rawForm(), onFormChange);
    answerTA.value = drafts.answer(ev);
    requestAnimationFrame(() => autoGrow(answerTA));
    forgetLastRun();
    runError.textContent = "";
    runStatus.textContent = "";
    update();
  }

  // forgetLastRun: the usage line and how the last Run ended go once the answer or the inputs change.
  function forgetLastRun() {
    batch(() => {
      view.lastCall.value = null;
      view.outcome.value = null;
    });
  }

  function onFormChange() {
    revealPending = false; // the user is at work on the form: nothing pulls the page away from it
    drafts.touch(view.ev.value);
    saveSoon();
    updateSoon();
  }

  // An evaluator of the user's without an example (a new one) has none to load. Its example is
  // its editor's sample, which can change while this view is open (registry.revised).
  function syncExample() {
    const ev = view.ev.value;
    exampleWords(exampleBtn, hasExample(ev), !!(ev.example && ev.example.answer), state.endpoint().mode === "manual");
  }

  function loadExample() {
    const ev = view.ev.value;
    const ex = ev.example;
    if (!hasExample(ev)) return;
    stop(); // new inputs: an answer to the old ones would be a verdict on nothing
    drafts.setForm(ev, fromInputs(ev, ex.inputs));
    // In manual mode the example comes with a judge answer so the verdict shows at once.
    drafts.setAnswer(ev, state.endpoint().mode === "manual" ? ex.answer : "");
    saveNow();
    drawForm();
  }

  function clearForm() {
    const ev = view.ev.value;
    stop();
    drafts.setForm(ev, fromInputs(ev, {}));
    drafts.setAnswer(ev, "");
    saveNow();
    drawForm();
    formEl.querySelector("textarea, input, select")?.focus();
  }

  // ---- rendering the prompt -----------------------------------------------------------------
  function inputs() {
    return toInputs(view.ev.value, rawForm());
  }

  function update() {
    const ev = view.ev.value;
    const inp = inputs();
    form.clearErrors();
    replace(promptMsgs);
    renderError = null;
    const rj = engine.rj;
    if (!rj) {
      view.rendered.value = null;
      promptMsgs.append(h("p", { class: "note", dataset: { ref: "engine-loading" }, text: engineNote(engine, "The prompt appears") }));
      promptView.draw(null, ev.inputs.map((i) => i.name));
      judge();
      return;
    }
    /** @type {any} */
    let rendered = null;
    try {
      rendered = rj.render(ev.id, inp);
    } catch (e) {
      renderError = e;
    }
    view.rendered.value = rendered;
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
    judge();
  }
  const updateSoon = debounce(update, 120);

  // currentRender is the render of the form as it is now. The prompt is drawn a moment after the
  // last keystroke (updateSoon); an action (Run, Ctrl+Enter, a report) taken within that moment
  // renders the form first, so that it never acts on the inputs before the last edit.
  function currentRender() {
    updateSoon.settle();
    return view.rendered.value;
  }

  // fieldOf finds which input a check or an error is about, so it can be shown next to that
  // input as well: a check's `input`, or what an input error is about (its `subject`).
  function fieldOf(err) {
    const name = err && (err.input || (err.kind === "input" ? err.subject : ""));
    return name && view.ev.value.inputs.some((i) => i.name === name) ? name : null;
  }


  // ---- verdict --------------------------------------------------------------------------------
  /** judge draws the verdict panel from the answer as it is, and offers sharing only with a verdict to share. */
  function judge() {
    drawVerdict();
    share.sync();
  }

  function drawVerdict() {
    const answer = answerTA.value;
    const outcome = view.outcome.value;
    if (view.running.value) {
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
    const ev = view.ev.value;
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
  // run runs the prompt (runbutton.js): copied in manual mode, otherwise asked of the model.
  const run = async () => {
    if (!evaluaterun) await loadResultModules();
    return /** @type {typeof import("./runbutton.js")} */ (evaluaterun).runJudge({ view, els, engine, state, promptView, currentRender, revealVerdict });
  };

  function stop() {
    view.running.peek()?.ctl.abort();
  }

  // ---- what the view draws from its state, the page's state and the engine ----------------------
  // Each is disposed with the view.
  const effects = [
    // The Run button, the answer box's words, the usage line, the pointer to a failed call (runbar.js).
    drawRunBar({ view, els, engine, state, usageLine: (call) => (judgecall ? judgecall.usageLine(call) : null) }),
    // The evaluator shown, or its example (its editor's sample, saved as it is typed), or where calls go changed.
    effect(() => {
      registry?.revised(view.ev.value.id).value;
      state.get("settings"); // in manual mode Load example loads the answer too: its words change
      untracked(syncExample);
    }),
    // A call went out (the judge is answering) or ended (its verdict, or how it ended).
    onChange(() => view.running.value, () => judge()),
    onChange(() => state.get("settings"), () => {
      if (!answerTA.value.trim()) judge();
    }),
    // The engine became ready (or failed): what waited for it is drawn now, from the inputs as
    // they are, typed while it loaded included.
    onChange(() => engine.status, () => {
      if (engine.rj) runError.textContent = "";
      update();
    }),
  ];

  function dispose() {
    stop();
    saveNow();
    window.removeEventListener("pagehide", saveNow);
    for (const dispose of effects) dispose();
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
