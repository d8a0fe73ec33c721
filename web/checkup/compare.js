// compare.js: two check-ups side by side (two judge models, or two versions of a prompt), as two
// runs compare (stats/compare.js): each one's overall catch rate in large type, then each failure
// mode's two rates with their intervals, a difference called clear only when the two 95% intervals
// do not overlap, then the cases the two judged differently. Cases are paired by their dataset
// row, transformation and inputs, so two check-ups of the same rows and seed compare case by case;
// others compare by failure mode only, and the panel says so. A pure builder for the page's runs
// card (batch/comparecard.js).

import { hIn } from "../lib/dom.js";
import { scrollTable } from "../stats/figures.js";
import { checkupView } from "./data.js";
import { gauge, standingChip } from "./chart.js";
import { intervalText } from "./words.js";
import { pct, plural } from "../lib/format.js";

/** CHANGED_SHOWN: how many cases judged differently the panel lists. */
export const CHANGED_SHOWN = 100;

/**
 * @typedef {Object} CheckupSide one check-up of the two
 * @property {string} id @property {string} model @property {string} evaluator @property {string} about
 * @property {import("../api/types.js").CheckupRow} overall
 */

/**
 * @typedef {Object} CheckupComparison
 * @property {CheckupSide} a @property {CheckupSide} b
 * @property {{transform: string, name: string, expected: string, a: import("../api/types.js").CheckupRow|null, b: import("../api/types.js").CheckupRow|null}[]} modes
 * @property {{row: number, name: string, transform: string, a: string, b: string, detailA: string, detailB: string}[]} changed
 * @property {number} paired cases found in both
 * @property {boolean} same the two are made of the same cases
 */

/**
 * caseKey names a case item by what it is made of: its row, transformation and inputs.
 * @param {any} it
 */
function caseKey(it) {
  return `${it.checkup.row}|${it.checkup.transform}|${JSON.stringify(it.inputs)}`;
}

/**
 * clearly says how two rates compare: "higher" or "lower" when a's interval lies wholly above or
 * below b's, else "" (the difference may be chance).
 * @param {import("../api/types.js").Proportion} a
 * @param {import("../api/types.js").Proportion} b
 */
export function clearly(a, b) {
  if (!a.ci || !b.ci) return "";
  if (a.ci[0] > b.ci[1]) return "higher";
  if (a.ci[1] < b.ci[0]) return "lower";
  return "";
}

/**
 * compareCheckups compares check-up runs a and b (loaded runs: {run, items, results}).
 * @param {any} rj
 * @param {{run: any, items: any[], results: any[]}} a
 * @param {{run: any, items: any[], results: any[]}} b
 * @param {{evA: any, evB: any, references: readonly import("../api/types.js").CheckupReference[]}} o
 * @returns {CheckupComparison}
 */
export function compareCheckups(rj, a, b, { evA, evB, references }) {
  const va = checkupView(rj, { ...a, ev: evA || { id: a.run.evaluator } }, { references });
  const vb = checkupView(rj, { ...b, ev: evB || { id: b.run.evaluator } }, { references });
  const side = (/** @type {any} */ r, /** @type {any} */ v, /** @type {any} */ ev) => ({ id: r.run.id, model: (r.run.settings && r.run.settings.model) || "?", evaluator: (ev && (ev.title || ev.id)) || r.run.evaluator, about: v.about, overall: v.matrix.overall });
  const rowsA = new Map(va.matrix.rows.map((r) => [r.transform, r]));
  const rowsB = new Map(vb.matrix.rows.map((r) => [r.transform, r]));
  const modes = [...va.modes];
  for (const m of vb.modes) if (!modes.some((x) => x.transform === m.transform)) modes.push(m);
  const gradedB = new Map(vb.grades.cases.map((g) => [g.index, g]));
  /** @type {Map<string, number>} */
  const inB = new Map();
  b.items.forEach((it, i) => it && it.checkup && inB.set(caseKey(it), i));
  let paired = 0;
  /** @type {CheckupComparison["changed"]} */
  const changed = [];
  for (const g of va.grades.cases) {
    const j = inB.get(caseKey(a.items[g.index]));
    if (j === undefined) continue;
    paired++;
    const h = gradedB.get(j);
    if (!h || g.outcome === h.outcome || g.outcome === "pending" || h.outcome === "pending") continue;
    changed.push({ row: g.row, name: g.name, transform: g.transform, a: g.outcome, b: h.outcome, detailA: g.detail, detailB: h.detail });
  }
  return {
    a: side(a, va, evA),
    b: side(b, vb, evB),
    modes: modes.map((m) => ({ transform: m.transform, name: m.name, expected: m.expected, a: rowsA.get(m.transform) || null, b: rowsB.get(m.transform) || null })),
    changed,
    paired,
    same: paired === va.grades.cases.length && paired === vb.grades.cases.length,
  };
}

const OUTCOME_WORDS = Object.freeze({ caught: "✓ caught", missed: "✗ missed", undetermined: "? undetermined", error: "! no answer", pending: "… not judged" });

/**
 * sideCard is one check-up's card: its model and evaluator, its overall catch rate in large type.
 * @param {Document} doc
 * @param {CheckupSide} s
 * @param {"A"|"B"} label
 */
function sideCard(doc, s, label) {
  const c = s.overall.catch;
  return hIn(
    doc,
    "div",
    { class: "cu-vs-card", dataset: { ref: "checkup-compare-" + label.toLowerCase(), run: s.id, rate: c.rate === null ? "" : String(c.rate) } },
    hIn(doc, "h4", { text: `Run ${label}: ${s.model} · ${s.evaluator}` }),
    hIn(doc, "div", { class: "cu-big-line" }, hIn(doc, "div", { class: "cu-big", text: pct(c.rate, 0) }), standingChip(doc, s.overall)),
    hIn(doc, "div", { class: "cu-big-sub", text: c.n ? `${c.k} of ${c.n} caught · 95% interval ${intervalText(c.ci)}` : "no case decided yet" }),
    hIn(doc, "p", { class: "hint", text: s.about }),
  );
}

/**
 * rateCell is one failure mode's rate in one check-up.
 * @param {Document} doc
 * @param {import("../api/types.js").CheckupRow|null} r
 * @param {string} better "higher" when this side is clearly the better one
 */
function rateCell(doc, r, better) {
  if (!r) return hIn(doc, "div", { class: "cu-vs-side hint", attrs: { role: "cell" }, text: "not in this check-up" });
  return hIn(
    doc,
    "div",
    { class: "cu-vs-side", attrs: { role: "cell" }, dataset: { rate: r.catch.rate === null ? "" : String(r.catch.rate) } },
    hIn(doc, "strong", { text: pct(r.catch.rate, 0) }),
    hIn(doc, "span", { class: "hint", text: `${r.caught} of ${r.catch.n}` + (r.catch.ci ? ` · ${intervalText(r.catch.ci)}` : "") }),
    better === "higher" ? hIn(doc, "span", { class: "cu-vs-better", text: " ▲ clearly more" }) : null,
    r.catch.rate === null ? null : gauge(doc, r.catch, { label: `${pct(r.catch.rate, 0)} caught` }),
  );
}

/**
 * verdictLine says how the two overall rates compare, in one sentence.
 * @param {CheckupComparison} d
 */
export function verdictLine(d) {
  const a = d.a.overall.catch;
  const b = d.b.overall.catch;
  if (!a.n || !b.n) return "One of the two has no decided case yet.";
  const how = clearly(a, b);
  const said = `Run A caught ${a.k} of ${a.n} (${pct(a.rate, 0)}), run B ${b.k} of ${b.n} (${pct(b.rate, 0)})`;
  if (how === "higher") return `${said}: A catches clearly more (the two 95% intervals do not overlap).`;
  if (how === "lower") return `${said}: B catches clearly more (the two 95% intervals do not overlap).`;
  return `${said}: their 95% intervals overlap, so the difference may be chance; more rows would tell.`;
}

/**
 * outcomeCell is one check-up's outcome of a case, in words, with why beneath.
 * @param {Document} doc
 * @param {string} outcome
 * @param {string} detail
 */
function outcomeCell(doc, outcome, detail) {
  return hIn(doc, "td", { dataset: { outcome } }, hIn(doc, "strong", { text: OUTCOME_WORDS[/** @type {keyof typeof OUTCOME_WORDS} */ (outcome)] || outcome }), hIn(doc, "div", { class: "hint cell-note", text: detail }));
}

/**
 * checkupComparePanel draws two check-ups side by side.
 * @param {Document} doc
 * @param {CheckupComparison} d
 * @returns {HTMLElement}
 */
export function checkupComparePanel(doc, d) {
  const shown = d.changed.slice(0, CHANGED_SHOWN);
  return hIn(
    doc,
    "section",
    { class: "trust-panel compare-panel cu-compare", dataset: { ref: "checkup-compare", changed: String(d.changed.length), paired: String(d.paired) } },
    hIn(doc, "h3", { class: "sub-title", text: "Two check-ups side by side" }),
    hIn(doc, "div", { class: "cu-vs" }, sideCard(doc, d.a, "A"), sideCard(doc, d.b, "B")),
    hIn(doc, "p", { class: "cu-meaning", dataset: { ref: "checkup-compare-verdict" }, text: verdictLine(d) }),
    d.same ? null : hIn(doc, "p", { class: "hint", text: `The two are made of different cases (another dataset, seed, number of rows or evaluator): their failure modes compare; ${plural(d.paired, "case")} are in both.` }),
    hIn(
      doc,
      "div",
      { class: "cu-chart", attrs: { role: "table", "aria-label": "Catch rate by failure mode, run A and run B" } },
      hIn(doc, "div", { class: "cu-vs-row cu-row-head", attrs: { role: "row" } }, ["Failure mode", "Run A", "Run B"].map((t) => hIn(doc, "div", { attrs: { role: "columnheader" }, text: t }))),
      d.modes.map((m) => {
        const how = m.a && m.b ? clearly(m.a.catch, m.b.catch) : "";
        return hIn(
          doc,
          "div",
          { class: "cu-vs-row", attrs: { role: "row" }, dataset: { transform: m.transform } },
          hIn(doc, "div", { class: "cu-mode", attrs: { role: "rowheader" } }, hIn(doc, "strong", { text: m.name }), hIn(doc, "span", { class: "hint", text: m.expected ? "right verdict: " + m.expected : "" })),
          rateCell(doc, m.a, how),
          rateCell(doc, m.b, how === "lower" ? "higher" : ""),
        );
      }),
    ),
    hIn(doc, "h4", { class: "sub-title", text: d.changed.length ? `Cases the two judged differently (${d.changed.length})` : d.paired ? "Every case in both got the same outcome" : "No case is in both" }),
    d.changed.length
      ? scrollTable(doc, {
          ref: "checkup-compare-changed",
          class: "ptable compare-table",
          heads: ["Case", "Run A", "Run B"],
          rows: shown.map((c) =>
            hIn(doc, "tr", { dataset: { transform: c.transform } }, hIn(doc, "td", { text: `${c.row >= 0 ? "Row " + (c.row + 1) : "The example"} · ${c.name}` }), outcomeCell(doc, c.a, c.detailA), outcomeCell(doc, c.b, c.detailB)),
          ),
        })
      : null,
    d.changed.length > shown.length ? hIn(doc, "p", { class: "hint", text: `… and ${d.changed.length - shown.length} more.` }) : null,
  );
}
