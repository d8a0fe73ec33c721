// pairwise.js: the "pairwise" view: the expected and the actual answer side by side, each with
// its grade and the judge's justification, their [i] citations marked in or out of range, the
// computed citation check, and the judge's sentence-by-sentence analysis.

import { h, badge } from "../lib/dom.js";
import { generic, rest } from "./common.js";

function grade(x) {
  if (x === true || x === 1 || x === "1" || x === "true") return true;
  if (x === false || x === 0 || x === "0" || x === "false") return false;
  return null;
}

// citedText renders an answer with its [i] citations marked as in or out of range. It reads the
// user's own answer text, not anything the core wrote.
function citedText(text, n) {
  const el = h("p", { class: "answer-text" });
  let pos = 0;
  for (const m of String(text).matchAll(/\[(\d+)\]/g)) {
    if (m.index > pos) el.append(document.createTextNode(text.slice(pos, m.index)));
    const i = Number(m[1]);
    const ok = i >= 1 && i <= n;
    el.append(h("span", { class: "cite " + (ok ? "cite-ok" : "cite-bad"), text: m[0], title: ok ? `Reference ${i}` : `There is no reference ${i}` }));
    pos = m.index + m[0].length;
  }
  if (pos < text.length) el.append(document.createTextNode(text.slice(pos)));
  return el;
}

const SENTENCE_COLUMNS = [
  ["sentence", "Sentence"],
  ["criterion_1", "1 · cites a source"],
  ["criterion_2", "2 · right source"],
  ["criterion_3", "3 · faithful to it"],
];

// sentenceTable is a table on a wide screen and one block per sentence on a phone (table.stack,
// each cell labelled with its column), so no column is cut off.
function sentenceTable(rows) {
  if (!Array.isArray(rows) || !rows.length) return h("p", { class: "hint", text: "The judge gave no sentence-by-sentence analysis." });
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "sentences stack" },
      h("thead", {}, h("tr", {}, SENTENCE_COLUMNS.map(([, t]) => h("th", { scope: "col", text: t })))),
      h(
        "tbody",
        {},
        rows.map((r) => h("tr", {}, SENTENCE_COLUMNS.map(([k, t]) => h("td", { text: (r && r[k]) ?? "", dataset: { label: t } })))),
      ),
    ),
  );
}

function citationView(c, nContexts) {
  if (!c) return null;
  const uncited = c.uncited || [];
  const bad = c.out_of_range || [];
  const items = [];
  for (const s of uncited) items.push(h("li", { class: "check-warning" }, h("span", { class: "check-icon", text: "⚠ No citation" }), " ", h("span", { text: typeof s === "string" ? s : s.sentence ?? JSON.stringify(s) })));
  for (const b of bad)
    items.push(
      h(
        "li",
        { class: "check-error" },
        h("span", { class: "check-icon", text: "✗ Out of range" }),
        " ",
        h("span", {
          text: typeof b === "object" ? `[${b.ref ?? "?"}]${b.sentence ? " in “" + b.sentence + "”" : ""} (references are 1–${nContexts})` : `[${b}] (references are 1–${nContexts})`,
        }),
      ),
    );
  const other = rest(c, ["uncited", "out_of_range", "sentences"]);
  return h(
    "section",
    { class: "citations", dataset: { ref: "citations" } },
    h("h3", { text: "Citation check (computed, not judged)" }),
    typeof c.sentences === "number" ? h("p", { class: "hint", text: `${c.sentences} sentence${c.sentences === 1 ? "" : "s"} of the actual answer checked for [i] citations.` }) : null,
    items.length ? h("ul", { class: "checks" }, items) : h("p", { class: "checks-ok", text: `✓ Every sentence of the actual answer cites a reference in 1–${nContexts}.` }),
    Object.keys(other).length ? generic(other) : null,
  );
}

/** pairwiseView draws a two-answer verdict (see the file comment). */
export function pairwiseView({ head, score, d, v, ev, inputs }) {
  const words = ev.words || { passed: "Passed", failed: "Failed" };
  const n = (inputs.contexts || []).length;
  const a1 = (d.answer_1 && typeof d.answer_1 === "object" && d.answer_1) || {};
  const a2 = (d.answer_2 && typeof d.answer_2 === "object" && d.answer_2) || {};
  const side = (title, text, a, key) => {
    const graded = Object.keys(a).length > 0;
    const g = grade(a.faithfulness);
    const cause = !graded ? "not graded" : a.faithfulness === null && a.answer_only_asserts_no_document_answers === true ? "answer only says no document answers" : "no grade";
    return h(
      "div",
      { class: "side", dataset: { side: key } },
      h("h3", { text: title }),
      badge(graded ? g : null, { word: g === true ? words.passed : g === false ? words.failed : undefined, cause }),
      citedText(text || "", n),
      a.faithfulness_justification ? h("p", { class: "reason", text: a.faithfulness_justification }) : null,
    );
  };
  const said = v.passed === true ? words.passed : v.passed === false ? words.failed : "not graded";
  head.append(h("div", { class: "big-number", text: "Actual answer " }, h("strong", { text: said.toLowerCase() })));
  if (score) head.append(score);
  const other = rest(d, ["answer_1", "answer_2", "citations"]);
  return h(
    "div",
    {},
    h("div", { class: "sides" }, side("Answer 1 · expected", inputs.expected_output, a1, "1"), side("Answer 2 · actual", inputs.actual_output, a2, "2")),
    citationView(d.citations, n),
    h("details", { class: "sentence-details", open: true }, h("summary", { text: "Answer 2 · sentence by sentence" }), sentenceTable(a2.content_analysis_sentence_by_sentence)),
    h("details", { class: "sentence-details" }, h("summary", { text: "Answer 1 · sentence by sentence" }), sentenceTable(a1.content_analysis_sentence_by_sentence)),
    Object.keys(other).length ? generic(other) : null,
  );
}
