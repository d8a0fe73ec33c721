// editor.js: a template editor: a plain textarea beside a gutter of line numbers, grown to fit its
// lines (so the gutter never has to follow a scroll), with each error of the template shown in a
// box right under the line it points at (a ▲ under its column), the line's number marked, and the
// same checks listed beneath with a button that selects the span. No framework: the text is the
// textarea's value, and everything drawn from it goes through textContent.

import { h, replace, selectSpan } from "../dom.js";
import { lineStarts } from "./spec.js";

/**
 * @typedef {{severity: string, code?: string, message: string, path?: string, line?: number, col?: number, len?: number}} Check
 */

/**
 * templateEditor builds an editor for one template. label names it for assistive technology
 * (and is shown above it); ref is its data-ref; onInput is called after every edit.
 * @param {{label: string, ref: string, value: string, onInput: (value: string) => void}} opts
 */
export function templateEditor({ label, ref, value, onInput }) {
  const id = "tpl-" + ref;
  const gutter = h("div", { class: "tpl-gutter", attrs: { "aria-hidden": "true" } });
  const ta = h("textarea", {
    id,
    class: "tpl-input mono",
    value,
    wrap: "off",
    dataset: { ref: ref + "-input" },
    attrs: { spellcheck: "false", autocomplete: "off", autocapitalize: "off", "aria-describedby": id + "-checks" },
    on: {
      input: () => {
        fit();
        onInput(ta.value);
      },
    },
  });
  const pins = h("div", { class: "tpl-pins" });
  const list = h("ul", { class: "checks tpl-checks", id: id + "-checks", dataset: { ref: ref + "-checks" }, attrs: { "aria-live": "polite" } });
  const el = h(
    "div",
    { class: "tpl", dataset: { ref } },
    h("label", { class: "field-label", htmlFor: id, text: label }),
    h("div", { class: "tpl-box" }, gutter, h("div", { class: "tpl-code" }, ta, pins)),
    list,
  );
  /** @type {Check[]} */
  let shown = [];
  let lines = 0;

  /** fit sizes the textarea to its lines and numbers the gutter. */
  function fit() {
    const n = lineStarts(ta.value).length;
    if (n !== lines) {
      lines = n;
      ta.rows = n + 1;
      replace(gutter, Array.from({ length: n }, (_, i) => h("div", { class: "tpl-ln", dataset: { line: String(i + 1) }, text: String(i + 1) })));
      marked = new Map();
      markGutter();
    }
  }

  /** @type {Map<number, string>} the lines marked now, and how */
  let marked = new Map();
  /** markGutter marks the lines the checks point at; only lines whose mark changes are touched. */
  function markGutter() {
    const bad = new Map();
    for (const c of shown) if (c.line) bad.set(c.line, bad.get(c.line) === "error" || c.severity === "error" ? "error" : "warning");
    const rows = /** @type {HTMLCollectionOf<HTMLElement>} */ (gutter.children);
    for (const line of new Set([...marked.keys(), ...bad.keys()])) {
      const ln = rows[line - 1];
      const sev = bad.get(line);
      if (!ln || marked.get(line) === sev) continue;
      ln.className = "tpl-ln" + (sev ? " tpl-ln-" + sev : "");
      ln.textContent = (sev === "error" ? "✗ " : sev === "warning" ? "⚠ " : "") + line;
    }
    marked = bad;
  }

  /**
   * setChecks shows checks (those of this template; line/col relative to it).
   * @param {Check[]} checks
   */
  function setChecks(checks) {
    shown = checks;
    markGutter();
    // One box per line: the first check of a line is shown under it; every check is in the list.
    const seen = new Set();
    const boxes = [];
    for (const c of checks) {
      if (!c.line || seen.has(c.line) || c.line > lines) continue;
      seen.add(c.line);
      const sev = c.severity === "error" ? "error" : "warning";
      const box = h(
        "div",
        { class: "tpl-pin tpl-pin-" + sev, dataset: { ref: "tpl-pin", line: String(c.line), col: String(c.col || 1), code: c.code || "" }, attrs: { "aria-hidden": "true" } },
        h("span", { class: "tpl-caret", text: "▲" }),
        h("span", { text: (sev === "error" ? "✗ " : "⚠ ") + c.message }),
      );
      // Under line c.line: the textarea's top padding, then c.line lines of its line height.
      box.style.top = `calc(var(--tpl-pad) + ${c.line} * var(--tpl-lh))`;
      // The ▲ under its column: the box starts where the text does, less its own padding.
      /** @type {HTMLElement} */ (box.firstChild).style.marginLeft = `calc(${Math.max(0, (c.col || 1) - 1)}ch - var(--pin-pad))`;
      boxes.push(box);
    }
    replace(pins, boxes);
    replace(
      list,
      checks.map((c) =>
        h(
          "li",
          { class: c.severity === "error" ? "check-error" : "check-warning", dataset: { code: c.code || "", line: String(c.line || "") } },
          h("span", { class: "check-icon", text: c.severity === "error" ? "✗ Error" : "⚠ Warning" }),
          " ",
          c.line ? h("span", { class: "tpl-where", text: `line ${c.line}${c.col ? ", column " + c.col : ""}: ` }) : null,
          h("span", { text: c.message }),
          c.line
            ? [" ", h("button", { type: "button", class: "btn btn-small btn-ghost locate", text: "Show", attrs: { "aria-label": `Show line ${c.line} in ${label}` }, on: { click: () => selectSpan(ta, { line: c.line || 1, col: c.col, len: c.len }) } })]
            : null,
        ),
      ),
    );
  }

  fit();
  return {
    el,
    textarea: ta,
    setChecks,
    /** @param {string} v */
    setValue(v) {
      if (ta.value === v) return;
      ta.value = v;
      fit();
    },
  };
}
