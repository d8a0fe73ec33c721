// labelfield.js: the "Human label" choice of the Batch mapping: any column (or none) as the
// reviewers' label the judge is compared with, a column named like one proposed, and a line
// saying what the chosen column holds, with its unreadable cells by row.

import { el } from "./make.js";
import { readLabels, labelSummary } from "./labels.js";

/** NONE is the select's value for "no label column". */
const NONE = "";

/**
 * labelField builds the field in doc. rows are the dataset's rows, columns what a mapping may
 * name; chosen the column chosen so far ("" for none); onChange(column) is called with the new
 * choice ("" for none).
 * @param {Document} doc
 * @param {{rows: any[], columns: string[], chosen: string, suggested: string|null, onChange: (column: string) => void}} opts
 * @returns {HTMLElement}
 */
export function labelField(doc, { rows, columns, chosen, suggested, onChange }) {
  const id = "blabel-" + Math.random().toString(36).slice(2, 8);
  const sel = /** @type {HTMLSelectElement} */ (
    el(
      doc,
      "select",
      { class: "input", dataset: { ref: "batch-map-label" }, attrs: { id } },
      el(doc, "option", { text: "(none: no comparison)", attrs: { value: NONE } }),
      columns.map((c) => el(doc, "option", { text: c, attrs: { value: c } })),
    )
  );
  sel.value = chosen;
  const note = el(doc, "div", { class: "hint", dataset: { ref: "batch-label-summary" }, attrs: { "aria-live": "polite" } });
  const draw = () => {
    const c = sel.value;
    note.replaceChildren();
    delete note.dataset.kind;
    if (!c) {
      note.textContent = suggested ? "" : "Map a column of your reviewers' verdicts (or scores) to see how far to trust the judge.";
      return;
    }
    const l = readLabels(rows, c);
    note.dataset.kind = l.kind || "";
    note.dataset.unreadable = String(l.unreadable.length);
    note.append((c === suggested ? "Proposed from its name. " : "") + labelSummary(l));
    if (l.unreadable.length) {
      const shown = l.unreadable.slice(0, 10).map((u) => `row ${u.row}: “${u.text.length > 30 ? u.text.slice(0, 29) + "…" : u.text}”`);
      note.append(el(doc, "div", { class: "label-unreadable", dataset: { ref: "batch-label-unreadable" }, text: "Not read as a label: " + shown.join("; ") + (l.unreadable.length > 10 ? `; and ${l.unreadable.length - 10} more.` : ".") }));
    }
  };
  sel.addEventListener("change", () => {
    draw();
    onChange(sel.value);
  });
  draw();
  return el(
    doc,
    "div",
    { class: "field map-field label-field" },
    el(doc, "label", { attrs: { for: id } }, el(doc, "span", { text: "Human label (optional)" }), " ", el(doc, "code", { text: "compared with the judge" })),
    sel,
    note,
  );
}
