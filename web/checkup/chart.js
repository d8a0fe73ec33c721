// chart.js: the check-up read like a doctor's chart (UI.md): the overall catch rate in large type
// on a 0–100% gauge with the published reference points marked on it and listed beside it in
// small type with their sources, what the numbers mean in words, one row per failure mode with
// its caught / missed / undetermined bar, counts and Wilson interval, then the missed cases, each
// one click away. A pure builder (doc, data) => Element on lib/dom.js hIn, so that a report draws
// the same chart in its own document; the page passes onOpen to open a case, a report draws each
// missed case in place (casedetail.js).

import { hIn } from "../lib/dom.js";
import { svgIn } from "../stats/figures.js";
import { intervalText, meaning, modeRate, standing } from "./words.js";
import { pct, plural } from "../lib/format.js";

/** MISSED_SHOWN: how many missed cases the chart lists (the run's table shows them all). */
export const MISSED_SHOWN = 50;

/**
 * @typedef {Object} MissedCase a case the judge missed, as the chart lists it
 * @property {number} index its index in the run
 * @property {number} row its dataset row (0-based; -1 the evaluator's example)
 * @property {string} name @property {string} transform @property {string} expected @property {string} detail @property {string} note
 * @property {string} [said] the verdict as read, in words (a report's)
 * @property {string} [prompt] the prompt the judge got (a report's)
 * @property {string[]} [answers] the judge's answers (a report's: the first order's, then the exchanged one's)
 */

/**
 * @typedef {Object} CheckupView what the chart draws (data.js checkupView)
 * @property {{rows: import("../api/types.js").CheckupRow[], overall: import("../api/types.js").CheckupRow}} matrix
 * @property {(import("./words.js").ModeLine & {cases: number, reason: string})[]} modes every
 *   transformation of the check-up, in order, with its cases and, for one no row allowed, why
 * @property {number} pending @property {number} errors
 * @property {MissedCase[]} missed
 * @property {number} missedTotal
 * @property {string} about what was checked, in one line
 * @property {readonly import("../api/types.js").CheckupReference[]} references
 */

/**
 * gauge is a 0–100% track with the interval as a band and the rate as a dot; with marks, the
 * published figures as ticks, each labelled under the track.
 * @param {Document} doc
 * @param {import("../api/types.js").Proportion} c
 * @param {{marks?: readonly import("../api/types.js").CheckupReference[], big?: boolean, label: string}} o
 */
export function gauge(doc, c, { marks = [], big = false, label }) {
  const H = big ? 60 : 16;
  const y = big ? 22 : 4;
  const h = big ? 12 : 8;
  const p = (/** @type {number} */ x) => Math.round(Math.max(0, Math.min(1, x)) * 100000) / 1000 + "%";
  const root = svgIn(doc, "svg", { width: "100%", height: H, role: "img", class: "cu-gauge" + (big ? " cu-gauge-big" : ""), "data-rate": c.rate === null ? "" : c.rate });
  root.append(svgIn(doc, "title", {}, label));
  root.append(svgIn(doc, "rect", { x: 0, y, width: "100%", height: h, rx: h / 2, class: "cu-track" }));
  for (const q of [0.25, 0.5, 0.75]) root.append(svgIn(doc, "line", { x1: p(q), x2: p(q), y1: y, y2: y + h, class: "cu-grid" }));
  // Each mark's label goes under the track, or over it when the one before is under (they may be close).
  const shown = marks.filter((m) => typeof m.value === "number").sort((a, b) => /** @type {number} */ (a.value) - /** @type {number} */ (b.value));
  shown.forEach((m, k) => {
    const v = /** @type {number} */ (m.value);
    const above = k % 2 === 1;
    root.append(svgIn(doc, "line", { x1: p(v), x2: p(v), y1: above ? y - 8 : y - 3, y2: above ? y + h + 3 : y + h + 8, class: "cu-mark" }));
    const anchor = v > 0.75 ? "end" : v < 0.25 ? "start" : "middle";
    root.append(svgIn(doc, "text", { x: p(v), y: above ? y - 10 : y + h + 20, "text-anchor": anchor, class: "cu-mark-label", "data-mark": m.id }, `${m.name || m.id} ${pct(v, 0)}`));
  });
  if (c.ci) root.append(svgIn(doc, "rect", { x: p(c.ci[0]), y, width: p(c.ci[1] - c.ci[0]), height: h, rx: h / 2, class: "cu-band" }));
  if (c.rate !== null) root.append(svgIn(doc, "circle", { cx: p(c.rate), cy: y + h / 2, r: big ? 9 : 5.5, class: "cu-dot" }));
  return root;
}

/**
 * countsBar is one failure mode's cases as a bar: caught (green), missed (red, hatched), then
 * undetermined (grey, dotted), each as wide as its share; a grey projector still tells them
 * apart, and the legend under it says the counts in words.
 * @param {Document} doc
 * @param {{caught: number, missed: number, undetermined: number, total: number}} r
 * @param {string} label
 */
export function countsBar(doc, r, label) {
  const root = svgIn(doc, "svg", { width: "100%", height: 22, role: "img", class: "cu-bar" });
  root.append(svgIn(doc, "title", {}, label));
  const id = "cu-" + Math.random().toString(36).slice(2, 8);
  const defs = svgIn(doc, "defs");
  const hatch = svgIn(doc, "pattern", { id: id + "-m", width: 7, height: 7, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  hatch.append(svgIn(doc, "rect", { width: 7, height: 7, class: "cu-seg-missed" }), svgIn(doc, "line", { x1: 0, y1: 0, x2: 0, y2: 7, class: "cu-hatch" }));
  const dots = svgIn(doc, "pattern", { id: id + "-u", width: 6, height: 6, patternUnits: "userSpaceOnUse" });
  dots.append(svgIn(doc, "rect", { width: 6, height: 6, class: "cu-seg-und" }), svgIn(doc, "circle", { cx: 3, cy: 3, r: 1.2, class: "cu-dots" }));
  defs.append(hatch, dots);
  root.append(defs);
  const n = Math.max(1, r.total);
  let x = 0;
  const p = (/** @type {number} */ v) => Math.round(v * 100000) / 1000 + "%";
  for (const [k, fill, cls] of /** @type {[ "caught"|"missed"|"undetermined", string, string][]} */ ([
    ["caught", "", "cu-seg-caught"],
    ["missed", `url(#${id}-m)`, "cu-seg-missed-fill"],
    ["undetermined", `url(#${id}-u)`, "cu-seg-und-fill"],
  ])) {
    if (!r[k]) continue;
    const w = r[k] / n;
    root.append(svgIn(doc, "rect", { x: p(x), y: 1, width: p(w), height: 20, class: cls, ...(fill ? { fill } : {}), "data-seg": k, "data-count": r[k] }));
    x += w;
  }
  root.append(svgIn(doc, "rect", { x: 0, y: 1, width: "100%", height: 20, class: "cu-frame" }));
  return root;
}

/**
 * legend is a bar's counts in words, with the three icons: "✓ 18 caught · ✗ 2 missed · ? 1 undetermined".
 * @param {{caught: number, missed: number, undetermined: number}} r
 */
export function legend(r) {
  return [`✓ ${r.caught} caught`, `✗ ${r.missed} missed`, r.undetermined ? `? ${r.undetermined} undetermined` : ""].filter(Boolean).join(" · ");
}

/**
 * references lists the published figures beside the catch rate, in small type, each in a line
 * with its source (a link to it) and, folded, what it measured in full and how far it compares
 * with a check-up.
 * @param {Document} doc
 * @param {readonly import("../api/types.js").CheckupReference[]} refs
 */
function references(doc, refs) {
  return hIn(
    doc,
    "aside",
    { class: "cu-refs", dataset: { ref: "checkup-references" } },
    hIn(doc, "h4", { text: "Published figures to read it by" }),
    hIn(
      doc,
      "ul",
      {},
      refs.map((r) => {
        const s = r.source;
        const who = s.authors.split(",")[0].trim().split(" ").slice(-1)[0] + " et al.";
        return hIn(
          doc,
          "li",
          { dataset: { reference: r.id } },
          hIn(doc, "strong", { text: `${r.figure} · ${r.name || s.title}` }),
          hIn(doc, "span", { text: " " + (r.short || r.measures) + " (" }),
          hIn(doc, "a", { text: `${who}, ${s.year}`, attrs: { href: s.url, target: "_blank", rel: "noopener noreferrer", title: `${s.title} (${s.venue})` } }),
          ")",
          hIn(doc, "details", {}, hIn(doc, "summary", { text: "What it measured, and how far it compares" }), hIn(doc, "p", { text: `It measured ${r.measures}.` }), hIn(doc, "p", { text: `Beside a check-up: ${r.compare}.` })),
        );
      }),
    ),
  );
}

/**
 * modeRow is one failure mode's line of the chart.
 * @param {Document} doc
 * @param {import("../api/types.js").CheckupRow | undefined} row its matrix row (none before a case of it is graded)
 * @param {CheckupView["modes"][number]} mode
 */
function modeRow(doc, row, mode) {
  const name = hIn(doc, "div", { class: "cu-mode", attrs: { role: "rowheader" } }, hIn(doc, "strong", { text: mode.name }), hIn(doc, "span", { class: "hint", text: mode.cases ? `right verdict: ${mode.expected} · ${plural(mode.cases, "case")}` : "not offered" }));
  if (!mode.cases) {
    return hIn(doc, "div", { class: "cu-row cu-row-off", attrs: { role: "row" }, dataset: { transform: mode.transform } }, name, hIn(doc, "div", { class: "cu-off hint", attrs: { role: "cell" }, text: "No drawn row allowed it: " + mode.reason }));
  }
  const r = row || { caught: 0, missed: 0, undetermined: 0, total: 0, catch: { k: 0, n: 0, rate: null, ci: null } };
  const words = `${mode.name}: ${legend(r)}` + (r.catch.rate === null ? "" : `; catch rate ${modeRate(/** @type {any} */ (r))}`);
  return hIn(
    doc,
    "div",
    { class: "cu-row", attrs: { role: "row" }, dataset: { transform: mode.transform, caught: String(r.caught), missed: String(r.missed), undetermined: String(r.undetermined), rate: r.catch.rate === null ? "" : String(r.catch.rate) } },
    name,
    hIn(doc, "div", { class: "cu-bars", attrs: { role: "cell" } }, r.total ? countsBar(doc, r, words) : hIn(doc, "div", { class: "cu-bar-none" }), hIn(doc, "div", { class: "cu-legend", text: r.total ? legend(r) : "not judged yet" })),
    hIn(
      doc,
      "div",
      { class: "cu-rate", attrs: { role: "cell" } },
      hIn(doc, "strong", { text: pct(r.catch.rate, 0) }),
      hIn(doc, "span", { class: "hint", text: r.catch.ci ? intervalText(r.catch.ci) : r.total ? "none decided" : "" }),
      r.catch.rate === null ? null : gauge(doc, /** @type {any} */ (r.catch), { label: words }),
    ),
  );
}

/**
 * standingChip flags the overall catch rate as a chart flags a result, icon and word with its
 * colour (words.js standing): "✓ reliable", "! catches most", "✗ misses many".
 * @param {Document} doc
 * @param {import("../api/types.js").CheckupRow} overall
 */
export function standingChip(doc, overall) {
  const st = standing(overall);
  return st ? hIn(doc, "span", { class: "cu-standing cu-standing-" + st.kind, dataset: { ref: "checkup-standing", standing: st.kind }, text: st.text }) : null;
}

/**
 * missedCases lists the missed cases by failure mode: in the page each case is a button naming
 * its row, opening it; in a report, each is drawn in place (caseDetail).
 * @param {Document} doc
 * @param {CheckupView} d
 * @param {{onOpen?: (index: number) => void, caseDetail?: (doc: Document, m: MissedCase) => Element}} o
 */
function missedCases(doc, d, { onOpen, caseDetail }) {
  /** @type {Map<string, MissedCase[]>} */
  const groups = new Map();
  for (const m of d.missed) {
    if (!groups.has(m.transform)) groups.set(m.transform, []);
    /** @type {MissedCase[]} */ (groups.get(m.transform)).push(m);
  }
  return hIn(
    doc,
    "div",
    { class: "cu-missed", dataset: { ref: "checkup-missed" } },
    [...groups].map(([transform, list]) =>
      hIn(
        doc,
        "div",
        { class: "cu-missed-mode", dataset: { transform } },
        hIn(doc, "div", { class: "cu-missed-head" }, hIn(doc, "strong", { text: `${list[0].name} ` }), hIn(doc, "span", { class: "hint", text: `${list.length} missed · right verdict: ${list[0].expected}` })),
        hIn(
          doc,
          "ul",
          { class: onOpen ? "cu-missed-rows" : "cu-missed-cases" },
          list.map((m) => {
            const where = m.row >= 0 ? `Row ${m.row + 1}` : "The example";
            if (!onOpen) return hIn(doc, "li", { dataset: { index: String(m.index) } }, caseDetail ? caseDetail(doc, m) : hIn(doc, "span", { text: `✗ ${where}: ${m.detail}` }));
            const b = hIn(doc, "button", { class: "cu-open", text: "✗ " + where, attrs: { type: "button", title: m.detail, "aria-label": `${where}, ${m.name}: ${m.detail}` }, dataset: { ref: "checkup-open-case", index: String(m.index) } });
            b.addEventListener("click", () => onOpen(m.index));
            return hIn(doc, "li", { dataset: { index: String(m.index) } }, b);
          }),
        ),
      ),
    ),
  );
}

/**
 * checkupPanel draws a check-up. onOpen(index), when given, makes each missed case a button that
 * opens it (the page); without it, caseDetail(doc, missedCase) draws each in place (a report).
 * @param {Document} doc
 * @param {CheckupView} d
 * @param {{onOpen?: (index: number) => void, caseDetail?: (doc: Document, m: MissedCase) => Element}} [o]
 * @returns {HTMLElement}
 */
export function checkupPanel(doc, d, { onOpen, caseDetail } = {}) {
  const o = d.matrix.overall;
  const names = new Map(d.modes.map((m) => [m.transform, m]));
  const rows = new Map(d.matrix.rows.map((r) => [r.transform, r]));
  const words = meaning(o, d.matrix.rows, names, d);
  const score = hIn(
    doc,
    "div",
    { class: "cu-score" },
    hIn(doc, "div", { class: "cu-big-line" }, hIn(doc, "div", { class: "cu-big", dataset: { ref: "checkup-rate" }, text: pct(o.catch.rate, 0) }), standingChip(doc, o)),
    hIn(doc, "div", { class: "stat-label", text: "catch rate: cases judged right, of those decided" }),
    hIn(doc, "div", { class: "cu-big-sub", dataset: { ref: "checkup-counts" }, text: o.catch.n ? `${o.catch.k} of ${o.catch.n} · 95% interval ${intervalText(o.catch.ci)}` : "no case decided yet" }),
    gauge(doc, o.catch, { marks: d.references, big: true, label: `Overall catch rate ${pct(o.catch.rate, 0)}` + (o.catch.ci ? `, 95% interval ${intervalText(o.catch.ci)}` : "") + "; published reference points marked" }),
  );
  const missedList = d.missed.length ? missedCases(doc, d, { onOpen, caseDetail }) : null;
  const panel = hIn(
    doc,
    "section",
    { class: "trust-panel checkup-panel", dataset: { ref: "checkup-panel", caught: String(o.caught), missed: String(o.missed), undetermined: String(o.undetermined), rate: o.catch.rate === null ? "" : String(o.catch.rate) } },
    hIn(doc, "h3", { class: "sub-title", text: "Check-up: which failures does the judge catch?" }),
    hIn(doc, "p", { class: "hint", dataset: { ref: "checkup-about" }, text: d.about }),
    hIn(doc, "div", { class: "cu-head" }, score, references(doc, d.references)),
    hIn(doc, "div", { class: "cu-meaning", dataset: { ref: "checkup-meaning" } }, words.map((w) => hIn(doc, "p", { text: w }))),
    hIn(
      doc,
      "div",
      { class: "cu-chart", attrs: { role: "table", "aria-label": "Failure modes: caught, missed and undetermined cases, and the catch rate" }, dataset: { ref: "checkup-chart" } },
      hIn(doc, "div", { class: "cu-row cu-row-head", attrs: { role: "row" } }, ["Failure mode", "Caught · missed · undetermined", "Catch rate (95% interval)"].map((t) => hIn(doc, "div", { attrs: { role: "columnheader" }, text: t }))),
      d.modes.map((m) => modeRow(doc, rows.get(m.transform), m)),
    ),
    hIn(doc, "h4", { class: "sub-title", text: d.missedTotal ? `Missed cases (${d.missedTotal})` : o.catch.n ? "No case missed" : "Missed cases" }),
    missedList,
    d.missedTotal > d.missed.length ? hIn(doc, "p", { class: "hint", text: `… and ${d.missedTotal - d.missed.length} more (the table below lists every case).` }) : null,
  );
  return panel;
}
