// picker.js: the Evaluate view's evaluator picker (view.js): one radio button per
// evaluator, the user's own marked "yours" and a share link's "from link"; index.html's
// prerendered buttons (the built-ins', shown before the modules ran: boot.js) are taken over as
// they are, when they show the evaluators the view has.

import { h } from "../lib/dom.js";

/**
 * adoptablePicker is index.html's prerendered picker under root when it shows exactly the
 * built-ins of evaluators, first and in order (the view then takes it over, focus and all), else
 * null (the view draws its own). Either way it is no longer marked prerendered.
 * @param {HTMLElement} root
 * @param {any[]} evaluators in the picker's order
 * @returns {HTMLElement|null}
 */
export function adoptablePicker(root, evaluators) {
  const adopted = /** @type {HTMLElement|null} */ (root.querySelector(".picker[data-prerendered]"));
  if (!adopted) return null;
  delete adopted.dataset.prerendered;
  const shown = [...adopted.querySelectorAll("input")].map((i) => i.value);
  const builtins = evaluators.filter((e) => !e.custom).map((e) => e.id);
  if (shown.join("\n") !== builtins.join("\n") || evaluators.slice(0, shown.length).some((e) => e.custom)) return null;
  return adopted;
}

/**
 * fillPicker adds a button to picker for each evaluator and returns add(e) (one more, at the end)
 * and addEvaluators(list) (those of list it does not have, each in its place by order). shown()
 * is the evaluator shown (its button is checked); onSelect(id) is called when one is picked.
 * byID is the view's evaluators by id, which addEvaluators adds to.
 * @param {HTMLElement} picker
 * @param {{evaluators: any[], byID: Map<string, any>, shown: () => string, onSelect: (id: string) => void}} o
 */
export function fillPicker(picker, { evaluators, byID, shown, onSelect }) {
  /** add adds evaluator e to the picker. @param {any} e */
  function add(e) {
    const id = "pick-" + e.id;
    const drawn = /** @type {HTMLInputElement|null} */ (picker.querySelector(`input[value="${CSS.escape(e.id)}"]`));
    if (drawn) {
      // index.html's button (a built-in's), taken over.
      drawn.checked = e.id === shown();
      drawn.addEventListener("change", () => onSelect(e.id));
      return;
    }
    const input = h("input", {
      type: "radio",
      name: "evaluator",
      id,
      value: e.id,
      checked: e.id === shown(),
      dataset: { ref: "pick-" + e.id },
      on: { change: () => onSelect(e.id) },
    });
    // The user's own evaluators (My evaluators) are marked as theirs, a share link's as the link's.
    const mark = e.fromLink ? h("span", { class: "yours from-link", text: "from link" }) : e.custom ? h("span", { class: "yours", text: "yours" }) : null;
    picker.append(h("div", { class: "pick" }, input, h("label", { htmlFor: id }, e.title || e.id, mark)));
  }

  /**
   * addEvaluators adds the evaluators of list the picker does not show yet (the user's own, read
   * from storage after the view was drawn with the built-ins), each in its place by order, without
   * drawing anything else again: the form, its focus and what is typed stay.
   * @param {any[]} list
   */
  function addEvaluators(list) {
    for (const e of list) {
      if (byID.has(e.id)) continue;
      byID.set(e.id, e);
      add(e);
      const added = /** @type {HTMLElement} */ (picker.lastElementChild);
      const next = [...picker.children].find((p) => (byID.get(/** @type {HTMLInputElement} */ (p.querySelector("input")).value)?.order ?? 0) > (e.order ?? 0));
      if (next && next !== added) picker.insertBefore(added, next);
    }
  }

  for (const e of evaluators) add(e);
  return { add, addEvaluators };
}
