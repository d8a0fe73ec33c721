// editor.js: a template editor: a plain textarea beside a gutter of line numbers, grown to fit its
// lines (so the gutter never has to follow a scroll), with each error of the template marked on
// its line's number and listed beneath the editor with the line it points at quoted and a ▲ under
// its column, and a button that selects the span. The quote sits under the editor, not over the
// text: a box drawn over the lines below the error hid them while the user fixed it. No
// framework: the text is the textarea's value, and everything drawn from it goes through
// textContent.

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
  const list = h("ul", { class: "checks tpl-checks", id: id + "-checks", dataset: { ref: ref + "-checks" }, attrs: { "aria-live": "polite" } });
  const el = h(
    "div",
    { class: "tpl", dataset: { ref } },
    h("label", { class: "field-label", htmlFor: id, text: label }),
    h("div", { class: "tpl-box" }, gutter, h("div", { class: "tpl-code" }, ta)),
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
    // Every check is in the list; the first of each line quotes that line with a ▲ under its column.
    const text = ta.value;
    const starts = lineStarts(text);
    const quoted = new Set();
    replace(
      list,
      checks.map((c) => {
        const sev = c.severity === "error" ? "error" : "warning";
        const quote = c.line && c.line <= lines && !quoted.has(c.line);
        if (quote) quoted.add(c.line ?? 0);
        return h(
          "li",
          { class: "check-" + sev, dataset: { code: c.code || "", line: String(c.line || "") } },
          h("span", { class: "check-icon", text: sev === "error" ? "✗ Error" : "⚠ Warning" }),
          " ",
          c.line ? h("span", { class: "tpl-where", text: `line ${c.line}${c.col ? ", column " + c.col : ""}: ` }) : null,
          h("span", { text: c.message }),
          c.line
            ? [" ", h("button", { type: "button", class: "btn btn-small btn-ghost locate", text: "Show", attrs: { "aria-label": `Show line ${c.line} in ${label}` }, on: { click: () => selectSpan(ta, { line: c.line || 1, col: c.col, len: c.len }) } })]
            : null,
          quote ? lineQuote(text, starts, c, sev) : null,
        );
      }),
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

const QUOTE_WIDTH = 72; // characters of a long line quoted around the column

/**
 * lineQuote is check c's line of text quoted, its number beside it and a ▲ under c's column (a
 * long line cut around the column, "…" where it is cut).
 * @param {string} text @param {number[]} starts @param {Check} c @param {string} sev
 * @returns {HTMLElement}
 */
function lineQuote(text, starts, c, sev) {
  const line = c.line ?? 1;
  const from = starts[line - 1] ?? 0;
  const to = line < starts.length ? starts[line] - 1 : text.length;
  let chars = [...text.slice(from, to).replace(/\t/g, " ")];
  let col = Math.min(Math.max(1, c.col || 1), chars.length + 1);
  let head = "";
  if (col > QUOTE_WIDTH - 12) {
    const cut = col - (QUOTE_WIDTH - 24);
    chars = chars.slice(cut);
    col -= cut - 1;
    head = "…";
  }
  const tail = chars.length > QUOTE_WIDTH ? "…" : "";
  const shown = head + chars.slice(0, QUOTE_WIDTH).join("") + tail;
  return h(
    "div",
    { class: "tpl-pin tpl-pin-" + sev, dataset: { ref: "tpl-pin", line: String(line), col: String(c.col || 1), code: c.code || "" }, attrs: { "aria-hidden": "true" } },
    h("span", { class: "tpl-pin-ln", text: String(line) }),
    h("span", { class: "tpl-pin-src", text: shown || " " }),
    h("span", { class: "tpl-pin-ln" }),
    h("span", { class: "tpl-caret", text: " ".repeat(col - 1 + head.length) + "▲" }),
  );
}
