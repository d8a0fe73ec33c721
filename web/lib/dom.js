// dom.js: the page's only way to build DOM. Text is always set with textContent (or as a text
// node), never parsed as HTML, so nothing an input, a judge answer or a dataset cell contains can
// become markup or script.

/**
 * h builds an element in the page's document (hIn, in another: a report's). props: "class",
 * "text" (textContent), "dataset" ({k: v}), "on" ({event: fn}), "attrs" ({name: value}, for
 * aria-* and the like), anything else is set as a property (type, value, disabled, htmlFor, …).
 * children: nodes, strings (become text nodes), arrays, null/false (skipped).
 */
export function h(tag, props = {}, /** @type {any[]} */ ...children) {
  return hIn(document, tag, props, ...children);
}

/**
 * hIn is h building in doc: the trust panels and reports build in the document they are given
 * (the page's, or a report's detached one), so that each is a pure function (doc, data) => Element.
 * @param {Document} doc @param {string} tag @param {Object<string, any>|null} [props] @param {...any} children
 * @returns {any}
 */
export function hIn(doc, tag, props = {}, ...children) {
  const el = doc.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") el.style.cssText = v; // CSSOM, which the page's CSP allows (style attributes it does not)
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === "attrs") {
      for (const [a, av] of Object.entries(v)) if (av !== undefined && av !== null && av !== false) el.setAttribute(a, String(av));
    } else if (k === "href" || k === "src" || k === "action" || k === "formaction") {
      throw new Error("dom.h: URL properties are not allowed (" + k + ")");
    } else /** @type {any} */ (el)[k] = v;
  }
  append(el, children);
  return el;
}

/** append adds children (nodes, strings, arrays, falsy skipped) to el, in el's document. */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "object" ? c : el.ownerDocument.createTextNode(String(c)));
  }
  return el;
}

/** clear empties el and appends children. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** ref finds the element with data-ref=name under root (the page finds DOM by data-* attributes). */
export function ref(root, name) {
  const el = root.querySelector(`[data-ref="${name}"]`);
  if (!el) throw new Error("missing [data-ref=" + name + "]");
  return el;
}

let idSeq = 0;
/** uid returns a fresh id for label/aria wiring. */
export function uid(prefix = "rj") {
  idSeq += 1;
  return `${prefix}-${idSeq}`;
}

/**
 * debounce returns fn delayed until ms have passed without another call. flush(...args) calls it
 * now; settle() calls it now only when a call is still waiting (with that call's arguments), so
 * that what reads fn's result acts on the latest edit rather than on the one before the wait.
 */
export function debounce(fn, ms) {
  let t = 0;
  /** @type {any[]|null} the waiting call's arguments, or null when none waits */
  let waiting = null;
  const d = (...args) => {
    clearTimeout(t);
    waiting = args;
    t = setTimeout(() => {
      waiting = null;
      fn(...args);
    }, ms);
  };
  d.flush = (...args) => {
    clearTimeout(t);
    waiting = null;
    fn(...args);
  };
  d.settle = () => {
    if (waiting) d.flush(...waiting);
  };
  return d;
}

/** copyText copies s to the clipboard, falling back to a selected textarea where the API is missing. */
export async function copyText(s) {
  try {
    await navigator.clipboard.writeText(s);
    return true;
  } catch {
    const ta = h("textarea", { value: s, attrs: { "aria-hidden": "true" }, class: "offscreen" });
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

/**
 * The three verdict states, the same everywhere (single and batch): icon, word, CSS class. The
 * words are fallbacks: a verdict is shown with its evaluator's own words (ev.words).
 */
export const STATES = {
  pass: { icon: "✓", word: "Passed", cls: "state-pass" },
  fail: { icon: "✗", word: "Failed", cls: "state-fail" },
  undetermined: { icon: "?", word: "Undetermined", cls: "state-undetermined" },
};

/** stateOf maps passed (true/false/null) to a STATES key. */
export function stateOf(passed) {
  return passed === true ? "pass" : passed === false ? "fail" : "undetermined";
}

/**
 * badgeIn is the page's one badge, built in doc: an icon and a word in a state's colour (cls),
 * data-state=state; size is "badge-big", "badge-small" or "".
 * @param {Document} doc
 * @param {{state: string, icon: string, word: string, cls: string, size?: string, ref?: string}} b
 */
export function badgeIn(doc, { state, icon, word, cls, size = "", ref }) {
  return hIn(
    doc,
    "span",
    { class: ["badge", size, cls].filter(Boolean).join(" "), dataset: ref ? { ref, state } : { state } },
    hIn(doc, "span", { class: "badge-icon", text: icon, attrs: { "aria-hidden": "true" } }),
    hIn(doc, "span", { class: "badge-word", text: word }),
  );
}

/**
 * badge renders a verdict state with icon, word and colour; words overrides the default word
 * (e.g. "Faithful"), cause is appended to an undetermined state ("Undetermined — <cause>").
 * @param {boolean|null|undefined} passed
 * @param {{word?: string, cause?: string|null, size?: string}} [opts]
 */
export function badge(passed, { word, cause, size = "" } = {}) {
  const st = STATES[stateOf(passed)];
  let text = word || st.word;
  if (passed !== true && passed !== false && cause) text += " — " + cause;
  return badgeIn(document, { state: stateOf(passed), icon: st.icon, word: text, cls: st.cls, size });
}

/**
 * selectSpan selects, in a textarea, the span a check points at (line and col 1-based, counted
 * in characters; len characters long, at least one), focuses it and brings it into view.
 * @param {HTMLTextAreaElement} ta
 * @param {{line: number, col?: number, len?: number}} at
 */
export function selectSpan(ta, at) {
  const text = ta.value;
  const lines = text.split("\n");
  let start = 0;
  for (let i = 0; i < at.line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  start += [...(lines[at.line - 1] || "")].slice(0, Math.max(0, (at.col || 1) - 1)).join("").length;
  const end = start + [...text.slice(start)].slice(0, Math.max(1, at.len || 1)).join("").length;
  ta.focus();
  ta.setSelectionRange(Math.min(start, text.length), Math.min(end, text.length));
  ta.scrollIntoView({ block: "center" });
}

/**
 * confirmButton is a button that asks twice, in place, for what cannot be undone (a delete): the
 * first click shows ask, in the stop colour, for ms; a second click in that time calls onConfirm,
 * otherwise it goes back to text. No dialog takes the focus away from the list it sits in.
 * @param {{text: string, ask: string, onConfirm: () => any, ms?: number, class?: string, dataset?: Record<string, string>, attrs?: Record<string, any>}} o
 */
export function confirmButton({ text, ask, onConfirm, ms = 4000, ...props }) {
  let armed = 0;
  const b = h("button", {
    type: "button",
    class: "btn btn-small btn-ghost",
    ...props,
    text,
    on: {
      click: async () => {
        if (!armed) {
          b.textContent = ask;
          b.classList.add("btn-stop");
          armed = setTimeout(() => {
            armed = 0;
            b.textContent = text;
            b.classList.remove("btn-stop");
          }, ms);
          return;
        }
        clearTimeout(armed);
        await onConfirm();
      },
    },
  });
  return b;
}

/**
 * addStylesheet adds the stylesheet at href (a view's own CSS, loaded with the view) to the page
 * once, marked data-ref=ref so a second call finds it.
 * @param {string} href @param {string} ref
 */
export function addStylesheet(href, ref) {
  if (document.querySelector(`link[data-ref="${ref}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.ref = ref;
  document.head.append(link);
}

/** download saves text as a file named name. */
export function download(name, text, type) {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * field is a labelled form control: the label, the control (given an id when it has none) and,
 * when given, a hint under it.
 * @param {string} label @param {HTMLElement} control @param {string} [hint]
 */
export function field(label, control, hint) {
  if (!control.id) control.id = uid("bf");
  return h("div", { class: "field" }, h("label", { htmlFor: control.id, text: label }), control, hint ? h("div", { class: "hint", text: hint }) : null);
}
