// runbar.js: what the Evaluate view (view.js) shows of running, drawn in effects from its state
// (viewstate.js) and the page's: the Run button's words, the answer box's words, the last call's
// usage line, and, beside Run, a pointer to a failed call's error, which is told once, in the
// verdict panel (verdict/failed.js), and pointed to only while that panel is off screen (a
// phone has it under the form and the prompt).

import { h, replace } from "../lib/dom.js";
import { effect } from "../lib/store.js";

/**
 * drawRunBar draws the run bar's parts from view (viewstate.js) until the returned dispose is
 * called. usageLine words a call's usage (judgecall.js, loaded once a call was made: null before).
 * The pointer's click is the view's (layout.js onPointer: it brings the verdict panel into view).
 * @param {{view: import("./viewstate.js").ViewState, els: ReturnType<typeof import("./layout.js").drawSkeleton>,
 *   engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State,
 *   usageLine: (call: import("./judgecall.js").JudgeCall) => string | null}} o
 * @returns {() => void} dispose
 */
export function drawRunBar({ view, els, engine, state, usageLine }) {
  const { runBtn, answerTA, answerHint, usageEl, failedPointer, verdictEl } = els;

  // The Run button and the answer box's words: where calls go, the engine, the render, the call
  // in flight.
  function drawRun() {
    const running = view.running.value;
    const ep = state.endpoint();
    const manual = ep.mode === "manual";
    const loading = !engine.rj;
    runBtn.textContent = running ? "Running…" : loading ? (engine.status === "failed" ? "The judge engine did not load" : "Loading the judge engine…") : manual ? "Copy prompt for your chat tool" : "▶ Run with model";
    runBtn.disabled = !!running || !view.rendered.value;
    // Tests and styles tell the engine-loading state apart from inputs that cannot be rendered.
    runBtn.dataset.engine = engine.status;
    runBtn.setAttribute("aria-busy", String(engine.status === "loading"));
    answerTA.placeholder = manual ? "Paste the judge's answer here: the verdict updates as you paste." : "The model's answer streams in here. You can also paste or edit an answer.";
    answerHint.textContent = manual
      ? "Manual mode: no calls are made. Paste any chat tool's answer."
      : `Calls go ${ep.label.replace(/^via /, "via ")}, model ${state.get("settings").model || "(none set)"}.`;
  }

  // The last call's usage line.
  function drawUsage() {
    const lastCall = view.lastCall.value;
    const line = lastCall && usageLine(lastCall);
    if (line) replace(usageEl, h("span", { class: "hint", dataset: { ref: "usage-text" }, text: line }));
    else replace(usageEl);
  }

  // The pointer beside Run: a failed call while the verdict panel, which says why, is off screen.
  function drawPointer() {
    const outcome = view.outcome.value;
    failedPointer.hidden = !(outcome && outcome.kind === "failed" && !view.verdictInView.value);
  }

  // Whether the verdict panel is on screen: any of it below the sticky top bar.
  /** @type {IntersectionObserver | null} */
  let watch = null;
  if (typeof IntersectionObserver === "function") {
    const bar = document.querySelector(".topbar");
    const top = bar ? Math.round(bar.getBoundingClientRect().height) : 0;
    watch = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) view.verdictInView.value = last.isIntersecting;
    }, { rootMargin: `-${top}px 0px 0px 0px` });
    watch.observe(verdictEl);
  }

  const effects = [effect(drawRun), effect(drawUsage), effect(drawPointer)];
  return () => {
    watch?.disconnect();
    for (const dispose of effects) dispose();
  };
}
