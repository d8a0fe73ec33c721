// specform.js: a custom evaluator's check-up in My evaluators: one control per generic
// transformation of the judged input (replaced by another row's, emptied, cut in half) saying
// which verdict is right under the evaluator's rubric: it passes, it fails, the judge declines (a
// label mapped to null), or the transformation is not offered. It writes the definition's
// `checkup` field in place ({replaced, emptied, halved}: true, false or null; one not offered is
// left out, and the field goes when none is offered), which the definition's check
// (api/speccheck.js, and the core's) then judges; its warnings show under the control they are
// about (errors: the paths "checkup", "checkup.replaced", ...), as outputform.js's do.

import { h, uid, addStylesheet } from "../lib/dom.js";

/** TRANSFORMS are the generic transformations, in the order the core makes them (core/checkup/custom.go). */
export const TRANSFORMS = Object.freeze([
  { key: "replaced", label: "The judged input replaced by another row's", hint: "an unrelated row's text, sharing no content word with this row's other inputs" },
  { key: "emptied", label: "The judged input emptied", hint: "offered only when the judged input is optional: a required one empty is refused before any call" },
  { key: "halved", label: "The judged input cut in half", hint: "its first half of words (or of items, for a list)" },
]);

/**
 * choiceOf is a transformation's verdict as the select says it: "pass", "fail", "decline", or "" (not offered).
 * @param {any} checkup
 * @param {string} key
 */
export function choiceOf(checkup, key) {
  if (!checkup || typeof checkup !== "object" || !(key in checkup)) return "";
  const v = checkup[key];
  return v === true ? "pass" : v === false ? "fail" : v === null ? "decline" : "";
}

/**
 * withChoice is spec's checkup field with transformation key set to choice (see choiceOf), or
 * undefined when no transformation is left offered.
 * @param {any} checkup
 * @param {string} key
 * @param {string} choice
 * @returns {Object<string, boolean|null> | undefined}
 */
export function withChoice(checkup, key, choice) {
  /** @type {Object<string, boolean|null>} */
  const next = {};
  for (const t of TRANSFORMS) {
    const c = t.key === key ? choice : choiceOf(checkup, t.key);
    if (c) next[t.key] = c === "pass" ? true : c === "fail" ? false : null;
  }
  return Object.keys(next).length ? next : undefined;
}

/**
 * checkupForm draws the controls into el for definition spec (edited in place: spec.checkup) and
 * calls onChange after each change. errors maps each path a check may point at to the element
 * its message goes in.
 * @param {HTMLElement} el
 * @param {any} spec
 * @param {() => void} onChange
 * @returns {{errors: Map<string, HTMLElement>}}
 */
export function checkupForm(el, spec, onChange) {
  addStylesheet(new URL("./checkup.css", import.meta.url).href, "checkup-css");
  /** @type {Map<string, HTMLElement>} */
  const errors = new Map();
  const words = spec.words || {};
  const options = [
    ["", "not offered"],
    ["pass", `passes (${words.passed || "Pass"})`],
    ["fail", `fails (${words.failed || "Fail"})`],
    ["decline", "the judge declines (a label mapped to null)"],
  ];
  const whole = h("div", { class: "field-error", dataset: { errorFor: "checkup" }, attrs: { "aria-live": "polite" } });
  errors.set("checkup", whole);
  const fields = TRANSFORMS.map((t) => {
    const sel = h(
      "select",
      {
        class: "input",
        id: uid("ccu"),
        dataset: { ref: "custom-checkup-" + t.key },
        on: {
          change: () => {
            const next = withChoice(spec.checkup, t.key, sel.value);
            if (next) spec.checkup = next;
            else delete spec.checkup;
            onChange();
          },
        },
      },
      options.map(([v, text]) => h("option", { value: v, text })),
    );
    sel.value = choiceOf(spec.checkup, t.key);
    const err = h("div", { class: "field-error", id: sel.id + "-err", dataset: { errorFor: "checkup." + t.key }, attrs: { "aria-live": "polite" } });
    sel.setAttribute("aria-describedby", err.id);
    errors.set("checkup." + t.key, err);
    return h("div", { class: "field", dataset: { path: "checkup." + t.key } }, h("label", { htmlFor: sel.id, text: t.label }), sel, h("div", { class: "hint", text: t.hint }), err);
  });
  el.replaceChildren(
    h("p", { class: "hint", text: "The check-up (in Batch) tests a judge model on your own rows without labels, by changing the input the verdict is about. Say which verdict is right under your rubric for each change; one not offered makes no case." }),
    ...fields,
    h("div", { class: "field" }, whole),
  );
  return { errors };
}
