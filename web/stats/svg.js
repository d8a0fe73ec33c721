// svg.js: the agreement pictures, as pure functions (doc, data) => Element: the confusion matrix
// as a small heat-mapped table (the reviewers' labels down, the judge's verdicts across, with
// the judge's undetermined verdicts as a third column) and a scatter plot of the judge's score
// against the human score. Colour is never the only carrier: every cell says ✓ agree or ✗
// disagree in words, and the scatter has a text alternative. Colours come from the page's
// palette (style.css custom properties), so light and dark themes both work.

import { svgIn } from "./figures.js";
import { hIn } from "../lib/dom.js";
import { fmtNum } from "../lib/format.js";

/**
 * @typedef {{tt: number, tf: number, ft: number, ff: number, nt: number, nf: number}} Matrix
 * rj.agreement's matrix: first letter the judge (t passed, f failed, n undetermined), second the human
 */

/**
 * confusionTable is the 2×3 confusion matrix: a row per human label (passed, failed), a column
 * per judge verdict (passed, failed, undetermined). Each cell shows its count and its share of
 * the row; its background deepens with that share (CSS --heat, 0..1), green where the judge and
 * the label agree, red where they disagree, grey for undetermined.
 * @param {Document} doc
 * @param {Matrix} m
 * @param {{passed?: string, failed?: string}} [words] the evaluator's words for the two verdicts
 * @returns {HTMLElement}
 */
export function confusionTable(doc, m, words = {}) {
  const pass = words.passed || "Passed";
  const fail = words.failed || "Failed";
  const rows = [
    { key: "t", label: "✓ " + pass, cells: [m.tt, m.ft, m.nt] },
    { key: "f", label: "✗ " + fail, cells: [m.tf, m.ff, m.nf] },
  ];
  const judgeCols = [
    { key: "t", label: "✓ " + pass },
    { key: "f", label: "✗ " + fail },
    { key: "n", label: "? Undetermined" },
  ];
  const table = hIn(doc, "table", { class: "confusion", dataset: { ref: "confusion-matrix" } });
  table.append(hIn(doc, "caption", { class: "hint", text: "Rows: what your reviewers said. Columns: what the judge said." }));
  table.append(
    hIn(
      doc,
      "thead",
      {},
      hIn(doc, "tr", {}, hIn(doc, "td", { class: "confusion-corner" }), hIn(doc, "th", { attrs: { colspan: 3, scope: "colgroup" }, class: "confusion-axis", text: "Judge" })),
      hIn(doc, "tr", {}, hIn(doc, "th", { class: "confusion-axis", attrs: { scope: "col" }, text: "Reviewers" }), judgeCols.map((c) => hIn(doc, "th", { attrs: { scope: "col" }, text: c.label }))),
    ),
  );
  const body = hIn(doc, "tbody");
  for (const r of rows) {
    const total = r.cells[0] + r.cells[1] + r.cells[2];
    const tr = hIn(doc, "tr", {}, hIn(doc, "th", { attrs: { scope: "row" }, text: r.label }));
    r.cells.forEach((count, j) => {
      const c = judgeCols[j];
      const kind = c.key === "n" ? "und" : c.key === r.key ? "agree" : "disagree";
      const share = total ? count / total : 0;
      const word = kind === "agree" ? "✓ agree" : kind === "disagree" ? "✗ disagree" : "? no verdict";
      const td = hIn(
        doc,
        "td",
        { class: "confusion-cell confusion-" + kind, dataset: { cell: c.key + r.key, count: String(count) }, attrs: { "aria-label": `${count} rows: reviewers ${r.label.slice(2)}, judge ${c.label.slice(2)} (${word.slice(2)})` } },
        hIn(doc, "span", { class: "confusion-count", text: String(count) }),
        hIn(doc, "span", { class: "confusion-word", text: total ? `${word} · ${Math.round(share * 100)}%` : word }),
      );
      // The heat is a custom property the stylesheet mixes into the cell's colour (CSSOM: the
      // page's CSP allows it, style attributes in markup it does not).
      td.style.setProperty("--heat", String(Math.round(share * 100) / 100));
      tr.append(td);
    });
    body.append(tr);
  }
  table.append(body);
  return table;
}

/**
 * @typedef {{x: number, y: number, row: number}} Point the judge's score x and the human score y of row (1-based)
 */

/**
 * ticks is about five round values spanning [lo, hi].
 * @param {number} lo
 * @param {number} hi
 * @returns {number[]}
 */
export function ticks(lo, hi) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number((Math.round(v / step) * step).toPrecision(12)) + 0); // 0.6, not 0.6000000000000001; 0, not -0
  return out;
}

/**
 * scatterSVG plots the judge's score (across) against the human score (up), one disc per
 * distinct pair, its area growing with the number of rows at that point (scores on a 1–5 scale
 * pile up), with the diagonal where the two would be equal when their ranges overlap, and a
 * <title> listing what it shows.
 * @param {Document} doc
 * @param {Point[]} points
 * When the two are on different scales, diagonal is false (y = x would mean nothing) and xRange
 * may set the judge's axis to its declared range, each axis then on its own range.
 * @param {{width?: number, height?: number, xLabel?: string, yLabel?: string, xRange?: [number, number], diagonal?: boolean}} [opts]
 * @returns {SVGElement}
 */
export function scatterSVG(doc, points, { width = 520, height = 380, xLabel = "Judge's score", yLabel = "Human score", xRange, diagonal = true } = {}) {
  const padL = 64;
  const padR = 18;
  const padT = 16;
  const padB = 58;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const span = (/** @type {number[]} */ v) => {
    let lo = v.length ? Math.min(...v) : 0;
    let hi = v.length ? Math.max(...v) : 1;
    if (lo === hi) (lo -= 0.5), (hi += 0.5);
    const pad = (hi - lo) * 0.06;
    return [lo - pad, hi + pad];
  };
  const [x0, x1] = span(xRange ? [...xRange, ...xs] : xs);
  const [y0, y1] = span(ys);
  const W = width - padL - padR;
  const H = height - padT - padB;
  const px = (/** @type {number} */ x) => padL + ((x - x0) / (x1 - x0)) * W;
  const py = (/** @type {number} */ y) => padT + H - ((y - y0) / (y1 - y0)) * H;
  /** @type {Map<string, {x: number, y: number, rows: number[]}>} */
  const piles = new Map();
  for (const p of points) {
    const k = p.x + "|" + p.y;
    const pile = piles.get(k);
    if (pile) pile.rows.push(p.row);
    else piles.set(k, { x: p.x, y: p.y, rows: [p.row] });
  }
  const most = Math.max(1, ...[...piles.values()].map((p) => p.rows.length));
  const root = svgIn(doc, "svg", { viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", class: "scatter", "data-ref": "agreement-scatter", "data-points": points.length, preserveAspectRatio: "xMidYMid meet" });
  root.append(svgIn(doc, "title", {}, `Scatter plot of ${points.length} rows: ${xLabel.toLowerCase()} across, ${yLabel.toLowerCase()} up` + (points.length ? `; judge's scores from ${fmtNum(Math.min(...xs))} to ${fmtNum(Math.max(...xs))}, human scores from ${fmtNum(Math.min(...ys))} to ${fmtNum(Math.max(...ys))}.` : ".")));
  const grid = svgIn(doc, "g", { class: "scatter-grid" });
  root.append(grid);
  for (const t of ticks(x0, x1)) {
    grid.append(svgIn(doc, "line", { x1: px(t), x2: px(t), y1: padT, y2: padT + H }));
    root.append(svgIn(doc, "text", { x: px(t), y: padT + H + 22, "text-anchor": "middle", class: "scatter-tick" }, fmtNum(t)));
  }
  for (const t of ticks(y0, y1)) {
    grid.append(svgIn(doc, "line", { x1: padL, x2: padL + W, y1: py(t), y2: py(t) }));
    root.append(svgIn(doc, "text", { x: padL - 8, y: py(t) + 6, "text-anchor": "end", class: "scatter-tick" }, fmtNum(t)));
  }
  root.append(svgIn(doc, "rect", { x: padL, y: padT, width: W, height: H, class: "scatter-frame" }));
  // The diagonal y = x, where the judge's score equals the human score, over the shared range.
  const lo = Math.max(x0, y0);
  const hi = Math.min(x1, y1);
  if (diagonal && hi > lo) root.append(svgIn(doc, "line", { x1: px(lo), y1: py(lo), x2: px(hi), y2: py(hi), class: "scatter-diagonal", "data-ref": "scatter-diagonal" }));
  const dots = svgIn(doc, "g", { class: "scatter-dots" });
  for (const p of piles.values()) {
    const r = 5 + 11 * Math.sqrt(p.rows.length / most);
    const g = svgIn(doc, "g", { class: "scatter-point", "data-count": p.rows.length });
    g.append(svgIn(doc, "title", {}, `judge ${fmtNum(p.x)}, human ${fmtNum(p.y)}: ${p.rows.length} row${p.rows.length === 1 ? "" : "s"} (${p.rows.slice(0, 8).join(", ")}${p.rows.length > 8 ? ", …" : ""})`));
    g.append(svgIn(doc, "circle", { cx: px(p.x), cy: py(p.y), r: Math.round(r * 10) / 10 }));
    if (p.rows.length > 1 && r >= 10) g.append(svgIn(doc, "text", { x: px(p.x), y: py(p.y) + 5, "text-anchor": "middle", class: "scatter-count" }, String(p.rows.length)));
    dots.append(g);
  }
  root.append(dots);
  root.append(svgIn(doc, "text", { x: padL + W / 2, y: height - 10, "text-anchor": "middle", class: "scatter-axis" }, xLabel));
  root.append(svgIn(doc, "text", { x: 18, y: padT + H / 2, "text-anchor": "middle", class: "scatter-axis", transform: `rotate(-90 18 ${padT + H / 2})` }, yLabel));
  return root;
}
