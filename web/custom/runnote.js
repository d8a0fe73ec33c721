// runnote.js: what a batch run of one of the user's evaluators shows of that evaluator: its full
// definition as the run recorded it, and whether it has been edited or deleted since (the run
// keeps being shown and resumed with the recorded one: registry.js forRun).

import { h } from "../lib/dom.js";

/**
 * usedEvaluator is the run card's "Evaluator used" disclosure for run, or null when the run's
 * evaluator is a built-in (a built-in is fixed by the page's version).
 * @param {{evaluator: string, evaluatorSpec?: any}} run
 * @param {{state?: string}} ev the evaluator the run is shown with (registry.forRun)
 * @returns {HTMLElement|null}
 */
export function usedEvaluator(run, ev) {
  const spec = run.evaluatorSpec;
  if (!spec) return null;
  const since = ev && ev.state === "edited" ? " It has been edited since; this run keeps the definition below." : ev && ev.state === "deleted" ? " It has been deleted since; this run keeps the definition below." : "";
  return h(
    "details",
    { class: "used-evaluator", dataset: { ref: "batch-used-evaluator", state: (ev && ev.state) || "current" } },
    h("summary", { text: `Evaluator used: ${spec.title || spec.id} (yours, ${spec.id})` }),
    h("p", { class: "hint", text: "The run recorded the evaluator's whole definition when it started." + since }),
    // The templates as they read, then the whole definition as data.
    (Array.isArray(spec.messages) ? spec.messages : [{ role: "prompt", content: spec.prompt }]).map((/** @type {any} */ m) => [
      h("div", { class: "preview-role", text: m.role }),
      h("pre", { class: "mono used-spec", dataset: { ref: "batch-used-template" }, text: String(m.content ?? "") }),
    ]),
    h("details", {}, h("summary", { text: "The definition as JSON" }), h("pre", { class: "mono used-spec", dataset: { ref: "batch-used-spec" }, text: JSON.stringify(spec, null, 2) })),
  );
}
