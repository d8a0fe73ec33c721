// ordersoption.js: the Batch view's "Judge both orders" run option, shown for an evaluator that
// compares two answers (a pairwise verdict): each row is judged a second time with its answers
// exchanged (orders.js), so that a judge whose grade follows the slot rather than the answer is
// caught at it. The choice is a saved run option (prefs.js bothOrders); repeatopts.js ordersOf
// says whether it applies to an evaluator.

import { h, uid } from "../lib/dom.js";
import { prefsOf, setPrefs } from "./prefs.js";

/**
 * ordersOption builds the option; show(ev) shows it when evaluator ev compares two answers.
 * @param {import("../shell/state.js").State} state
 * @returns {{field: HTMLElement, show: (ev: {view?: string} | null | undefined) => void}}
 */
export function ordersOption(state) {
  const box = h("input", {
    type: "checkbox",
    id: uid("borders"),
    checked: prefsOf(state).bothOrders === true,
    dataset: { ref: "batch-both-orders" },
    on: { change: () => setPrefs(state, { bothOrders: box.checked }) },
  });
  const field = h(
    "div",
    { class: "check orders-option", dataset: { ref: "batch-both-orders-field" }, hidden: true },
    box,
    h("label", { htmlFor: box.id, text: "Judge both orders: each row again with its two answers exchanged" }),
    h("div", { class: "hint", text: "A row whose grade follows the slot rather than the answer is undetermined (position flip); the run says how often that happened and how often the first slot won. Twice the calls." }),
  );
  return {
    field,
    show(ev) {
      field.hidden = !ev || ev.view !== "pairwise";
    },
  };
}
