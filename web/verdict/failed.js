// failed.js: the verdict panel when there is no verdict because of what the last Run did: its call
// failed (the batch's error state, "! Error — rate limited (429)", with the call's own sentence
// of what happened and what to do, what the server said, and Run again), or Stop came before any
// answer. Drawn where the verdict would have been, so that the eye waiting for the verdict finds
// why there is none, whatever the page's scroll.

import { h, badgeIn } from "../lib/dom.js";
import { causeOf } from "../results/status.js";

/**
 * RunOutcome is how the last Run ended without a whole answer: its call failed (error, a
 * CallError), or it was stopped.
 * @typedef {{kind: "failed", error: any} | {kind: "stopped"}} RunOutcome
 */

/**
 * outcomeView draws outcome for the verdict panel. partial: some of the answer arrived first
 * (its verdict is drawn under this). onRunAgain, when given, is offered as a button.
 * @param {RunOutcome} outcome
 * @param {{partial?: boolean, onRunAgain?: () => void}} [opts]
 * @returns {HTMLElement}
 */
export function outcomeView(outcome, { partial = false, onRunAgain } = {}) {
  const again = onRunAgain ? h("button", { type: "button", class: "btn btn-small", dataset: { ref: "run-again" }, text: "↻ Run again", on: { click: onRunAgain } }) : null;
  if (outcome.kind === "stopped") {
    return h(
      "div",
      { class: "empty", dataset: { ref: "run-stopped" } },
      h("p", { class: "empty-title", text: "Stopped" }),
      h("p", { text: "Stop came before the judge's answer: there is nothing to read." }),
      again,
    );
  }
  const err = outcome.error || {};
  return h(
    "div",
    { class: "call-failed", dataset: { ref: "call-failed", kind: String(err.kind || ""), status: String(err.status || "") } },
    badgeIn(document, { state: "error", icon: "!", word: "Error — " + (causeOf({ error: err }) || "call failed"), cls: "state-error", size: "badge-big", ref: "failed-badge" }),
    h("p", { class: "call-failed-msg", dataset: { ref: "call-failed-message" }, text: String(err.message || "The call failed.") }),
    err.detail ? h("p", { class: "detail", text: "The server said: " + err.detail }) : null,
    partial ? h("p", { class: "hint", text: "Part of the answer arrived before that: what it says is read below." }) : null,
    again ? h("div", { class: "btn-row" }, again) : null,
  );
}
