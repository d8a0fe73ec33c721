// labelfield.js: the "Human label" choice of the Batch mapping: any column (or none) as the
// reviewers' label the judge is compared with, a column named like one proposed, and a line
// saying what the chosen column holds, with its unreadable cells by row.

import { readLabels, labelSummary } from "./labels.js";
import { hIn } from "../lib/dom.js";
import { cut } from "../lib/format.js";

/** NONE is the select's value for "no label column". */
const NONE = "";

/**
 * labelField builds the field in doc. rows are the dataset's rows, columns what a mapping may
 * name; chosen the column chosen so far ("" for none) and yes what a yes in it means ("pass",
 * "fail", or "" for what its name says); onChange(column, yes) is called with the new choice.
 * @param {Document} doc
 * @param {{rows: any[], columns: string[], chosen: string, yes?: string, suggested: string|null, onChange: (column: string, yes: string) => void}} opts
 * @returns {HTMLElement}
 */
export function labelField(doc, { rows, columns, chosen, yes = "", suggested, onChange }) {
  const id = "blabel-" + Math.random().toString(36).slice(2, 8);
  const sel = /** @type {HTMLSelectElement} */ (
    hIn(
      doc,
      "select",
      { class: "input", dataset: { ref: "batch-map-label" }, attrs: { id } },
      hIn(doc, "option", { text: "(none: no comparison)", attrs: { value: NONE } }),
      columns.map((c) => hIn(doc, "option", { text: c, attrs: { value: c } })),
    )
  );
  sel.value = chosen;
  // What a yes (true, 1) in the column means: a label column about a fault (HaluEval's
  // "hallucination": "yes") holds yes for a failed answer. Shown when the column holds such answers.
  const yesId = id + "-yes";
  const yesSel = /** @type {HTMLSelectElement} */ (
    hIn(
      doc,
      "select",
      { class: "input", dataset: { ref: "batch-map-label-yes" }, attrs: { id: yesId } },
      hIn(doc, "option", { text: "as its name says", attrs: { value: "" } }),
      hIn(doc, "option", { text: "pass", attrs: { value: "pass" } }),
      hIn(doc, "option", { text: "fail", attrs: { value: "fail" } }),
    )
  );
  yesSel.value = yes;
  const yesRow = hIn(doc, "div", { class: "label-yes", dataset: { ref: "batch-label-yes" } }, hIn(doc, "label", { attrs: { for: yesId }, text: "Yes, true and 1 mean " }), yesSel);
  const note = hIn(doc, "div", { class: "hint", dataset: { ref: "batch-label-summary" }, attrs: { "aria-live": "polite" } });
  const draw = () => {
    const c = sel.value;
    note.replaceChildren();
    delete note.dataset.kind;
    yesRow.hidden = true;
    if (!c) {
      note.textContent = suggested ? "" : "Map a column of your reviewers' verdicts (or scores) to see how far to trust the judge.";
      return;
    }
    const l = readLabels(rows, c, /** @type {any} */ (yesSel.value));
    yesRow.hidden = !(l.kind === "boolean" && l.answers > 0);
    note.dataset.kind = l.kind || "";
    note.dataset.yes = l.yes;
    note.dataset.unreadable = String(l.unreadable.length);
    note.append((c === suggested ? "Proposed from its name. " : "") + labelSummary(l));
    if (l.unreadable.length) {
      const shown = l.unreadable.slice(0, 10).map((u) => `row ${u.row}: “${cut(u.text, 30)}”`);
      note.append(hIn(doc, "div", { class: "label-unreadable", dataset: { ref: "batch-label-unreadable" }, text: "Not read as a label: " + shown.join("; ") + (l.unreadable.length > 10 ? `; and ${l.unreadable.length - 10} more.` : ".") }));
    }
  };
  sel.addEventListener("change", () => {
    yesSel.value = ""; // another column: what its own name says
    draw();
    onChange(sel.value, yesSel.value);
  });
  yesSel.addEventListener("change", () => {
    draw();
    onChange(sel.value, yesSel.value);
  });
  draw();
  return hIn(
    doc,
    "div",
    { class: "field map-field label-field" },
    hIn(doc, "label", { attrs: { for: id } }, hIn(doc, "span", { text: "Human label (optional)" })),
    sel,
    yesRow,
    note,
  );
}
