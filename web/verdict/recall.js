// recall.js: the "recall" view: one bar per passage score (essential and bonus told apart, each
// labelled with its passage's first words), the exact fraction of the score, and the core's
// line-by-line comparison of the recomputed formula with the judge's own lines. The bars and the
// comparison are built in the document they are given (recallFigures), so that a report holds
// them as the page shows them.

import { h, hIn } from "../lib/dom.js";
import { generic, rest } from "./common.js";
import { fmtNum, clip } from "../lib/format.js";

function scoresOf(list) {
  if (!Array.isArray(list)) return null;
  return list.map((x) => {
    if (typeof x === "number") return x;
    if (x && typeof x === "object") {
      const v = x.value ?? x.score;
      return v === null || v === undefined ? NaN : Number(v);
    }
    return Number(x);
  });
}

/**
 * readScores are the passage scores read from a recall verdict's detail d, as numbers, or null when
 * one is missing or unreadable (the core named a problem): what the calculator may take as its own.
 * @param {any} d
 * @returns {{essential: number[], bonus: number[]}|null}
 */
export function readScores(d) {
  if (!d || typeof d !== "object" || !Array.isArray(d.essential)) return null;
  const essential = scoresOf(d.essential) || [];
  const bonus = scoresOf(d.bonus) || [];
  const p = problemsOf(d);
  if (p.essential.some(Boolean) || p.bonus.some(Boolean) || ![...essential, ...bonus].every(Number.isFinite)) return null;
  return { essential, bonus };
}

/** bars draws one bar per passage score, essential and bonus told apart. */
export function bars(essential, bonus, labels = { essential: [], bonus: [] }, problems = { essential: [], bonus: [] }, max = 5) {
  return barsIn(document, essential, bonus, labels, problems, max);
}

/**
 * barsIn is bars built in doc (a report's detached document).
 * @param {Document} doc @param {number[]} essential @param {number[]} bonus
 * @param {{essential: string[], bonus: string[]}} [labels] @param {{essential: string[], bonus: string[]}} [problems] @param {number} [max]
 */
function barsIn(doc, essential, bonus, labels = { essential: [], bonus: [] }, problems = { essential: [], bonus: [] }, max = 5) {
  const bar = (kind, i, s) => {
    const problem = problems[kind][i];
    const pct = Number.isFinite(s) ? Math.max(0, Math.min(1, s / max)) * 100 : 0;
    const label = labels[kind][i];
    const name = `${kind === "essential" ? "Essential" : "Bonus"} ${i + 1}`;
    const fill = hIn(doc, "span", { class: "bar-fill" });
    fill.style.setProperty("width", `${pct}%`); // setProperty: the report's document (cli/dom.mjs) has no cssText
    return hIn(
      doc,
      "li",
      { class: "bar bar-" + kind + (problem ? " bar-bad" : ""), dataset: { kind, index: String(i + 1) } },
      hIn(doc, "span", { class: "bar-label" }, hIn(doc, "strong", { text: name }), label ? hIn(doc, "span", { class: "bar-passage", text: label }) : null),
      hIn(doc, "span", { class: "bar-track", attrs: { role: "img", "aria-label": Number.isFinite(s) ? `${name}: ${fmtNum(s)} of ${max}` : `${name}: no readable score` } }, fill),
      hIn(doc, "span", { class: "bar-value", text: Number.isFinite(s) ? `${fmtNum(s)} / ${max}` : "?" }),
      problem ? hIn(doc, "span", { class: "bar-problem", text: "✗ " + problem }) : null,
    );
  };
  return hIn(doc, "ul", { class: "bars", dataset: { ref: "bars" } }, essential.map((s, i) => bar("essential", i, s)), bonus.map((s, i) => bar("bonus", i, s)));
}

/** passageLabels gives each passage of a ground truth a short label (its first words). */
export function passageLabels(rj, gt) {
  try {
    const p = rj.passages(gt || "");
    const short = (t) => clip(t, 68);
    return { essential: (p.essential || []).map(short), bonus: (p.bonus || []).map(short) };
  } catch {
    return { essential: [], bonus: [] };
  }
}

// problemsOf collects what the core said about individual scores ("out of range 1–5", …).
function problemsOf(d) {
  const out = { essential: [], bonus: [] };
  for (const kind of ["essential", "bonus"]) {
    for (const [i, x] of (Array.isArray(d[kind]) ? d[kind] : []).entries()) {
      if (x && typeof x === "object" && x.problem) out[kind][i] = x.problem;
    }
  }
  return out;
}

// afterLabel drops the "RECALL_…:" label the core's recomputed line starts with; the row's
// header already says it.
function afterLabel(s, label) {
  if (typeof s !== "string") return s;
  const t = s.trimStart();
  return label && t.startsWith(label + ":") ? t.slice(label.length + 1).trim() : s;
}

const LINE_COLUMNS = ["Recomputed", "Judge wrote", "Agreement"];

// The words of each line's result (the core's recall.Compare): "rounded-per-step" is a judge
// that did what the seed asks (each step rounded to 2 decimals), not an error.
const LINE_STATES = { same: "✓ agrees", "rounded-per-step": "✓ right, rounded per step", differs: "✗ differs", none: "–" };

// The summary key of each formula line's value, in the core's line order.
const LINE_KEYS = ["essential", "bonus", "combined", "final", "final"];

/** lineState is a line's result: the core's `result`, or from `match` for a verdict stored before it. */
function lineState(l) {
  if (typeof l.result === "string" && l.result in LINE_STATES) return l.result;
  return l.match === true ? "same" : l.match === false ? "differs" : "none";
}

// exactNote says the exact value where the seed's chain, rounded per step, ends elsewhere
// (3.67 + 0.17 = 3.84, exactly 23/6 ≈ 3.83); "" where they agree.
function exactNote(rec, i) {
  const key = LINE_KEYS[i];
  if (!rec || !rec.stepped || !rec.exact || rec.stepped[key] === rec[key]) return "";
  return `exactly ${rec.exact[key]} ≈ ${fmtNum(rec[key])}`;
}

// lineTable shows the core's line-by-line comparison: the recomputed seed-format line (the chain
// rounded per step, with the exact value where it differs) beside what the judge stated, and how
// they compare.
function lineTable(doc, lines, rec) {
  const h = (/** @type {string} */ tag, /** @type {any} */ props, /** @type {any[]} */ ...kids) => hIn(doc, tag, props, ...kids);
  const rows = lines.map((l, i) => {
    const label = String(l.label || "");
    const state = lineState(l);
    const recomputed = l.recomputed === null || l.recomputed === undefined ? "(undetermined)" : afterLabel(l.recomputed, label);
    const note = l.recomputed ? exactNote(rec, i) : "";
    return h(
      "tr",
      { class: "line-" + state, dataset: { label, state } },
      h("th", { scope: "row", class: "mono", text: label.replace(/^RECALL_/, "") || "—" }),
      h("td", { class: "mono", dataset: { label: LINE_COLUMNS[0] } }, recomputed, note ? h("span", { class: "exact line-exact", dataset: { ref: "line-exact" }, text: note }) : null),
      h("td", { class: "mono", dataset: { label: LINE_COLUMNS[1] }, text: l.stated === null || l.stated === undefined ? "(not stated)" : afterLabel(l.stated, label) }),
      h("td", { class: "line-state", text: LINE_STATES[state] }),
    );
  });
  return h(
    "section",
    { class: "formula", dataset: { ref: "formula" } },
    h("h3", { text: "The arithmetic, rounded per step as the seed asks, against the judge's" }),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "lines stack" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col", text: "Line" }), h("th", { scope: "col", text: LINE_COLUMNS[0] }), h("th", { scope: "col", text: LINE_COLUMNS[1] }), h("th", { scope: "col" }, h("span", { class: "sr-only", text: LINE_COLUMNS[2] }))),
        ),
        h("tbody", {}, rows),
      ),
    ),
  );
}

/**
 * recallFigures are a recall verdict's figures built in doc: what the ground truth owes, one bar
 * per passage score (labels: each passage's first words, or none) and the recomputed formula
 * against the judge's lines. The page's view and a report draw the same.
 * @param {Document} doc
 * @param {any} d the verdict's detail (rj.parse's `verdict`)
 * @param {{max?: number, labels?: {essential: string[], bonus: string[]}}} [o]
 * @returns {HTMLElement[]}
 */
export function recallFigures(doc, d, { max = 5, labels } = {}) {
  const essential = scoresOf(d.essential);
  const bonus = scoresOf(d.bonus) || [];
  const rec = d.recomputed && typeof d.recomputed === "object" ? d.recomputed : null;
  const parts = [];
  if (d.expected && typeof d.expected === "object") {
    parts.push(hIn(doc, "p", { class: "hint", text: `The ground truth has ${d.expected.essential} essential and ${d.expected.bonus} bonus passages; the judge owes a score for each.` }));
  }
  if (essential && (essential.length || bonus.length)) parts.push(barsIn(doc, essential, bonus, labels, problemsOf(d), max));
  if (Array.isArray(d.lines) && d.lines.length) parts.push(lineTable(doc, d.lines, rec));
  return parts;
}

/** recallView draws a recall verdict (see the file comment). */
export function recallView({ head, score, d, v, ev, inputs, rj, labels }) {
  const max = (ev.score && ev.score.max) || 5;
  if (score) head.append(score); // with its exact value beneath (scoreView)
  const threshold = d.threshold ?? inputs.threshold;
  if (threshold !== undefined && threshold !== null && threshold !== "") head.append(h("div", { class: "hint", text: `pass threshold ≥ ${threshold}` }));
  const parts = recallFigures(document, d, { max, labels: labels ? passageLabels(rj, inputs.passage_gt) : undefined });
  const other = rest(d, ["essential", "bonus", "lines", "recomputed", "expected", "stated", "threshold"]);
  if (Object.keys(other).length) parts.push(generic(other));
  return h("div", {}, parts);
}
