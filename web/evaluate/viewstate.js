// viewstate.js: the Evaluate view's state (view.js), which its parts (runbutton.js, sharing.js)
// read and set and the view draws from in effects (lib/store.js): the evaluator shown, its render,
// the call in flight and how the last one ended; and the forms and answers it works on (Drafts).

import { signal } from "../lib/store.js";

/**
 * viewState is a new Evaluate view's state, showing evaluator ev.
 * @param {import("../shell/state.js").State} state @param {any} ev
 */
export function viewState(state, ev) {
  return {
    /** the evaluator shown */
    ev: signal(ev),
    /** bumped whenever the form is drawn for other inputs: a run is only for its epoch */
    epoch: signal(0),
    /** @type {import("../lib/store.js").Signal<any>} the last successful rj.render of the form, or null */
    rendered: signal(null),
    /** @type {import("../lib/store.js").Signal<{ctl: AbortController} | null>} the call in flight */
    running: signal(/** @type {{ctl: AbortController} | null} */ (null)),
    /** @type {import("../lib/store.js").Signal<import("./judgecall.js").JudgeCall | null>} what the last call reported, for the usage line */
    lastCall: signal(/** @type {import("./judgecall.js").JudgeCall | null} */ (null)),
    /** @type {import("../lib/store.js").Signal<import("../verdict/failed.js").RunOutcome | null>} how the last Run ended without a whole answer, told in the verdict panel */
    outcome: signal(/** @type {import("../verdict/failed.js").RunOutcome | null} */ (null)),
    /** whether the verdict panel is on screen (view.js watches it): a failed call points to it from Run when not */
    verdictInView: signal(true),
    drafts: new Drafts(state),
  };
}

/** @typedef {ReturnType<typeof viewState>} ViewState */

// Drafts are the forms and answers the view works on. What the user types changes the view's
// own copy in place (lib/form.js buildForm changes a form's values as they are typed), never the
// page's state, whose values are never changed in place (shell/state.js): keep() puts a copy of
// what changed in the state, which saves it. A share link's evaluator keeps its form and answer in
// its description's own draft (custom/registry.js forLink), never in the state.

/** Drafts are the Evaluate view's forms and answers, by evaluator. */
export class Drafts {
  /** @param {import("../shell/state.js").State} state */
  constructor(state) {
    this.state = state;
    /** @type {Record<string, any>} the view's copies of the forms it has shown */
    this.forms = {};
    /** @type {Record<string, string>} the answers changed here */
    this.answers = {};
    /** @type {Set<string>} the evaluators whose form or answer changed since the last keep */
    this.changed = new Set();
  }

  /** of is where evaluator ev's form and answer are kept: a link's draft, or these. @param {any} ev */
  of(ev) {
    return ev.fromLink ? ev.draft : this;
  }

  /** form is ev's form values (changed in place as the user types), or undefined before it has one. @param {any} ev */
  form(ev) {
    const d = this.of(ev);
    if (d === this && !(ev.id in this.forms)) {
      const saved = (this.state.field("forms").peek() || {})[ev.id];
      if (saved) this.forms[ev.id] = structuredClone(saved);
    }
    return d.forms[ev.id];
  }

  /** setForm makes raw ev's form values. @param {any} ev @param {any} raw */
  setForm(ev, raw) {
    this.of(ev).forms[ev.id] = raw;
    this.touch(ev);
  }

  /** answer is the judge's answer last seen or pasted for ev. @param {any} ev @returns {string} */
  answer(ev) {
    const d = this.of(ev);
    if (d === this && !(ev.id in this.answers)) return (this.state.field("answers").peek() || {})[ev.id] || "";
    return d.answers[ev.id] || "";
  }

  /** setAnswer makes text the answer for ev. @param {any} ev @param {string} text */
  setAnswer(ev, text) {
    this.of(ev).answers[ev.id] = text;
    this.touch(ev);
  }

  /** touch notes that ev's form changed in place. @param {any} ev */
  touch(ev) {
    if (!ev.fromLink) this.changed.add(ev.id);
  }

  /** keep puts copies of the forms and answers changed since the last keep in the state, which saves them. */
  keep() {
    if (!this.changed.size) return;
    const forms = { ...this.state.field("forms").peek() };
    const answers = { ...this.state.field("answers").peek() };
    for (const id of this.changed) {
      if (id in this.forms) forms[id] = structuredClone(this.forms[id]);
      if (id in this.answers) answers[id] = this.answers[id];
    }
    this.changed.clear();
    this.state.set({ forms, answers });
  }
}
