// layout.js: the Evaluate view's skeleton: its four cards and the elements the view fills
// in (view.js), each found by its data-ref as tests and styles expect.

import { h, replace } from "../lib/dom.js";

/**
 * drawSkeleton draws the Evaluate view's cards into root, promptView's (promptcard.js promptCard) among
 * them, in place of what index.html prerendered there, and returns the elements the view fills in; on's handlers are the buttons' and the answer box's.
 * @param {HTMLElement} root
 * @param {ReturnType<typeof import("./promptcard.js").promptCard>} promptView
 * @param {HTMLElement|null} adopt index.html's picker to take over, or null to draw one
 * @param {{onExample: () => void, onClear: () => void, onRun: () => void, onStop: () => void, onAnswer: () => void, onPointer: () => void}} on
 */
export function drawSkeleton(root, promptView, adopt, on) {
  const promptMsgs = h("div", { class: "prompt-msgs", dataset: { ref: "prompt-messages" }, attrs: { "aria-live": "polite" } });
  // The picker index.html carries (scripts/webfiles.mjs, shown by boot.js), when given, is taken
  // over as it is, with the focus in it; view.js adopts its buttons (addPick).
  const focused = adopt && adopt.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement) : null;
  const picker = adopt || h("div", { class: "picker", attrs: { role: "radiogroup", "aria-label": "Evaluator" } });
  const desc = h("p", { class: "desc", dataset: { ref: "description" } });
  const exampleBtn = h("button", { type: "button", class: "btn btn-small", dataset: { ref: "example" }, text: "Load example", on: { click: on.onExample } });
  const clearBtn = h("button", { type: "button", class: "btn btn-small btn-ghost", dataset: { ref: "clear" }, text: "Clear", on: { click: on.onClear } });
  const formEl = h("div", { class: "form", dataset: { ref: "form" } });

  const runBtn = h("button", { type: "button", class: "btn btn-primary btn-run", dataset: { ref: "run" }, on: { click: on.onRun } });
  const stopBtn = h("button", { type: "button", class: "btn btn-stop", dataset: { ref: "stop" }, text: "■ Stop", hidden: true, on: { click: on.onStop } });
  const runStatus = h("div", { class: "run-status", dataset: { ref: "run-status" }, attrs: { role: "status", "aria-live": "polite" } });
  const runError = h("div", { class: "run-error", dataset: { ref: "run-error" }, attrs: { role: "alert" } });
  // A failed call is told once, in the verdict panel; beside Run only this pointer to it, shown
  // while the panel is off screen (view.js).
  const failedPointer = h("button", { type: "button", class: "failed-pointer", dataset: { ref: "run-failed-pointer" }, hidden: true, on: { click: on.onPointer } }, "✗ The call failed: see why in the verdict ↓");

  const verdictEl = h("div", { class: "verdict-slot", dataset: { ref: "verdict" }, attrs: { "aria-live": "polite" } });
  const answerTA = h("textarea", {
    class: "input mono answer",
    id: "judge-answer",
    rows: 8,
    dataset: { ref: "answer" },
    attrs: { spellcheck: "false" },
    on: { input: on.onAnswer },
  });
  const answerHint = h("p", { class: "hint", dataset: { ref: "answer-hint" } });
  const usageEl = h("div", { class: "usage", dataset: { ref: "usage" } });

  replace(
    root,
    h(
      "div",
      { class: "evaluate" },
      h(
        "div",
        { class: "col col-left" },
        h(
          "section",
          { class: "card" },
          h("h2", { class: "card-title", text: "1 · What to judge" }),
          picker,
          h("div", { class: "desc-row" }, desc, h("div", { class: "btn-row" }, exampleBtn, clearBtn)),
          formEl,
          h(
            "div",
            { class: "runbar" },
            h("div", { class: "btn-row" }, runBtn, stopBtn, h("span", { class: "kbd-hint", text: "or Ctrl/⌘ + Enter" })),
            runStatus,
            runError,
            failedPointer,
          ),
        ),
        h(
          "section",
          { class: "card" },
          h("div", { class: "card-head" }, h("h2", { class: "card-title", text: "2 · The prompt the judge gets" }), promptView.buttons),
          promptMsgs,
          promptView.body,
        ),
      ),
      h(
        "div",
        { class: "col col-right" },
        h("section", { class: "card verdict-card" }, h("h2", { class: "card-title", text: "3 · Verdict" }), verdictEl),
        h(
          "section",
          { class: "card" },
          h("div", { class: "card-head" }, h("h2", { class: "card-title" }, h("label", { htmlFor: "judge-answer", text: "The judge's raw answer" })), usageEl),
          answerHint,
          answerTA,
        ),
      ),
    ),
  );
  focused?.focus(); // moved into the view drawn now, which blurred it
  return { root, promptMsgs, picker, desc, exampleBtn, formEl, runBtn, stopBtn, runStatus, runError, failedPointer, verdictEl, answerTA, answerHint, usageEl };
}

/**
 * revealCard scrolls the page to card when its top is not on screen below the sticky top bar (a
 * long form on a laptop scrolls the verdict off; a phone has it under the form and the prompt).
 * @param {HTMLElement|null} card
 */
export function revealCard(card) {
  if (!card) return;
  const bar = document.querySelector(".topbar");
  const top = bar ? bar.getBoundingClientRect().bottom : 0;
  const r = card.getBoundingClientRect();
  if (r.top >= top && r.top + Math.min(r.height, 160) <= window.innerHeight) return;
  card.scrollIntoView({ block: "start" }); // below the top bar: the card's scroll-margin-top
}

/**
 * exampleWords says on the Load example button what it loads. In manual mode it loads the
 * example whole, its judge answer too, so the verdict shows at once; with a model it loads the
 * inputs only ("Load example inputs"), since the answer is the model's to give, and a verdict
 * drawn from the example's answer would pass for the model's (in a link, in a report).
 * @param {HTMLButtonElement} btn
 * @param {boolean} has the evaluator has an example
 * @param {boolean} withAnswer its example has a judge answer
 * @param {boolean} manual
 */
export function exampleWords(btn, has, withAnswer, manual) {
  const inputsOnly = has && withAnswer && !manual;
  btn.disabled = !has;
  btn.textContent = inputsOnly ? "Load example inputs" : "Load example";
  btn.title = !has
    ? "This evaluator has no example: save one in My evaluators (Save as the example)"
    : inputsOnly
      ? "Fills in the example's inputs; the model answers when you run (in manual mode the example's judge answer is loaded too)"
      : "";
}
