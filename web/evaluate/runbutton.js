// runbutton.js: Run in the Evaluate view (view.js): the prompt copied for a chat tool in
// manual mode, otherwise sent to the model with its answer streamed into the answer box. Split out
// of view.js, whose state it reads and sets through a small context.

import { h, replace } from "../lib/dom.js";
import { autoGrow } from "../lib/form.js";
import { askJudge } from "./judgecall.js";
import { CallKind } from "../model/callerror.js";
import { modelsSettled } from "../shell/modelpick.js";

/**
 * RunContext is what a run needs of the Evaluate view: its elements, and its state read and set
 * through functions, since the view changes it while a call is in flight.
 * @typedef {object} RunContext
 * @property {HTMLElement} root
 * @property {import("../shell/enginestatus.js").Engine} engine
 * @property {import("../shell/state.js").State} state
 * @property {ReturnType<typeof import("./promptcard.js").promptCard>} promptView
 * @property {HTMLTextAreaElement} answerTA
 * @property {HTMLElement} runStatus
 * @property {HTMLElement} runError
 * @property {HTMLElement} stopBtn
 * @property {() => any} ev the evaluator shown
 * @property {() => number} epoch bumped whenever the form is redrawn for other inputs
 * @property {() => any} rendered the last successful rj.render result, or null
 * @property {() => boolean} running whether a call is in flight
 * @property {(r: {ctl: AbortController} | null) => void} setRunning
 * @property {(c: import("./judgecall.js").JudgeCall | null) => void} setLastCall
 * @property {(o: import("../verdict/failed.js").RunOutcome | null) => void} setOutcome how the run ended without a whole answer, for the verdict panel
 * @property {() => void} revealVerdict brings the verdict panel into view
 * @property {() => any} answersOf the answers of the evaluator shown (a link's draft or the state's)
 * @property {() => void} drawUsage
 * @property {() => void} syncMode
 * @property {() => void} judge
 */

/**
 * runJudge runs the shown evaluator's rendered prompt: in manual mode it copies it, otherwise it
 * asks the model and streams the answer in, then judges it.
 * @param {RunContext} ctx
 */
export async function runJudge(ctx) {
  const { root, engine, state, promptView, answerTA, runStatus, runError, stopBtn } = ctx;
  if (ctx.running()) return;
  if (!engine.rj) {
    runError.textContent = engine.status === "failed" ? "The judge engine did not load: see the message above." : "The judge engine is still loading: Run works in a moment.";
    return;
  }
  const rendered = ctx.rendered();
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
  const epoch = ctx.epoch();
  await modelsSettled();
  if (ctx.running() || ctx.epoch() !== epoch) return;
  const st = state.get("settings");
  if (!st.model) {
    runError.textContent = "No model is set: choose one in Model settings.";
    return;
  }
  const ctl = new AbortController();
  ctx.setRunning({ ctl });
  // The run belongs to the inputs it started on: switching evaluators, Clear or Load example
  // stop it, and what arrives after that is dropped rather than shown against other inputs.
  const runEv = ctx.ev();
  const runEpoch = ctx.epoch();
  const mine = () => ctx.epoch() === runEpoch;
  let got = "";
  ctx.setLastCall(null);
  ctx.setOutcome(null);
  ctx.drawUsage();
  answerTA.value = "";
  answerTA.readOnly = true;
  ctx.answersOf()[runEv.id] = "";
  stopBtn.hidden = false;
  ctx.syncMode();
  ctx.judge();
  ctx.revealVerdict();
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
        if (!got) ctx.setOutcome({ kind: "stopped" });
      } else {
        // Said next to Run, and in the verdict panel (the finally's judge()), where the verdict
        // was awaited.
        runStatus.textContent = "";
        replace(runError, h("strong", { text: err.message }), err.detail ? h("div", { class: "detail", text: "The server said: " + err.detail }) : null);
        ctx.setOutcome({ kind: "failed", error: err });
        failed = true;
      }
    } else {
      got = res.content;
      ctx.setLastCall(res.call);
      if (mine()) runStatus.textContent = res.call.finishReason === "length" ? "⚠ The answer stopped at max tokens: it may be cut short." : "Done.";
    }
  } finally {
    if (raf) cancelAnimationFrame(raf);
    ctx.setRunning(null);
    if (mine()) ctx.answersOf()[runEv.id] = got;
    answerTA.readOnly = false;
    stopBtn.hidden = true;
    root.querySelector(".col-right")?.classList.remove("streaming");
    state.save();
    ctx.syncMode();
    if (mine()) {
      answerTA.value = got;
      autoGrow(answerTA);
    } else ctx.setLastCall(null);
    ctx.drawUsage();
    ctx.judge();
    if (failed) ctx.revealVerdict();
  }
}
