// runbutton.js: Run in the Evaluate view (view.js): the prompt copied for a chat tool in
// manual mode, otherwise sent to the model with its answer streamed into the answer box. It sets
// the view's state (viewstate.js: the call in flight, what it reported, how it ended), which the
// view draws from.

import { autoGrow } from "../lib/form.js";
import { batch } from "../lib/store.js";
import { askJudge } from "./judgecall.js";
import { CallKind } from "../model/callerror.js";
import { modelsSettled } from "../shell/modelpick.js";

/**
 * runJudge runs the shown evaluator's rendered prompt: in manual mode it copies it, otherwise it
 * asks the model and streams the answer in, then judges it. currentRender is the render of the
 * form as it is now (view.js); revealVerdict brings the verdict panel into view.
 * @param {{view: import("./viewstate.js").ViewState, els: ReturnType<typeof import("./layout.js").drawSkeleton>,
 *   engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State,
 *   promptView: ReturnType<typeof import("./promptcard.js").promptCard>, currentRender: () => any, revealVerdict: () => void}} o
 */
export async function runJudge(o) {
  const { view, engine, state, promptView, currentRender, revealVerdict } = o;
  const { root, answerTA, runStatus, runError, stopBtn } = o.els;
  if (view.running.peek()) return;
  if (!engine.rj) {
    runError.textContent = engine.status === "failed" ? "The judge engine did not load: see the message above." : "The judge engine is still loading: Run works in a moment.";
    return;
  }
  const rendered = currentRender();
  if (!rendered) {
    runError.textContent = "The prompt cannot be rendered yet: fix the inputs above first.";
    return;
  }
  runError.textContent = "";
  const ep = state.endpoint();
  if (ep.mode === "manual") {
    const ok = await promptView.copy();
    runStatus.textContent = ok ? "Prompt copied. Paste it into any chat tool, then paste its answer into the judge's answer box." : "Select the prompt and copy it by hand.";
    answerTA.focus();
    return;
  }
  // The endpoint's model list, when it is being asked for, may replace a default it does not list
  // (shell/modelpick.js): the call goes with the model it settles.
  const epoch = view.epoch.peek();
  await modelsSettled();
  if (view.running.peek() || view.epoch.peek() !== epoch) return;
  const st = state.get("settings");
  if (!st.model) {
    runError.textContent = "No model is set: choose one in Model settings.";
    return;
  }
  const ctl = new AbortController();
  // The run belongs to the inputs it started on: switching evaluators, Clear or Load example
  // stop it, and what arrives after that is dropped rather than shown against other inputs.
  const runEv = view.ev.peek();
  const runEpoch = view.epoch.peek();
  const mine = () => view.epoch.peek() === runEpoch;
  let got = "";
  answerTA.value = "";
  answerTA.readOnly = true;
  view.drafts.setAnswer(runEv, "");
  stopBtn.hidden = false;
  // The view draws the call in flight: "Running…", no usage line, the judge answering.
  batch(() => {
    view.running.value = { ctl };
    view.lastCall.value = null;
    view.outcome.value = null;
  });
  revealVerdict();
  root.querySelector(".col-right")?.classList.add("streaming");
  runStatus.textContent = "Waiting for the model…";
  let raf = 0;
  let failed = false;
  const flush = () => {
    raf = 0;
    if (!mine()) return;
    answerTA.value = got;
    autoGrow(answerTA);
    answerTA.scrollTop = answerTA.scrollHeight;
  };
  try {
    const res = await askJudge({
      ep,
      settings: st,
      apiKey: state.key,
      messages: rendered.messages,
      signal: ctl.signal,
      onDelta: (piece) => {
        got += piece;
        if (mine() && runStatus.textContent !== "Receiving the answer…") runStatus.textContent = "Receiving the answer…";
        if (!raf) raf = requestAnimationFrame(flush);
      },
    });
    if ("error" in res) {
      const err = res.error;
      if (!mine()) {
        // The user moved on to another evaluator; nothing to report here.
      } else if (err.kind === CallKind.ABORTED) {
        runStatus.textContent = got ? "Stopped. The partial answer is kept below." : "Stopped.";
        if (!got) view.outcome.value = { kind: "stopped" };
      } else {
        // Said once, in the verdict panel (drawn once the call is no longer in flight), where the
        // verdict was awaited; Run has a pointer to it while it is off screen (view.js).
        runStatus.textContent = "";
        view.outcome.value = { kind: "failed", error: err };
        failed = true;
      }
    } else {
      got = res.content;
      view.lastCall.value = res.call;
      if (mine()) runStatus.textContent = res.call.finishReason === "length" ? "⚠ The answer stopped at max tokens: it may be cut short." : "Done.";
    }
  } finally {
    if (raf) cancelAnimationFrame(raf);
    if (mine()) view.drafts.setAnswer(runEv, got);
    answerTA.readOnly = false;
    stopBtn.hidden = true;
    root.querySelector(".col-right")?.classList.remove("streaming");
    view.drafts.keep();
    if (mine()) {
      answerTA.value = got;
      autoGrow(answerTA);
    }
    // The view draws the call ended: Run again, the usage line, the verdict or how it ended.
    batch(() => {
      view.running.value = null;
      if (!mine()) view.lastCall.value = null;
    });
    if (failed) revealVerdict();
  }
}
