// histogram.js: the score histogram as an inline SVG, built with DOM calls (no markup strings), with
// a text alternative for screen readers and grey projectors. It builds in the document it is given,
// so the same chart goes into the page and into a report's detached document (web/report/).

import { svgIn } from "./figures.js";
import { fmtNum } from "../lib/format.js";

/**
 * histogramSVG draws hist (aggregate.histogram's shape): one bar per bin, count above it, range
 * below; in doc (the page's document unless given).
 * @param {{lo: number, hi: number, bins: {from: number, to: number, count: number}[]}} hist
 * @param {{width?: number, height?: number, doc?: Document}} [opts]
 */
export function histogramSVG(hist, { width = 420, height = 160, doc = document } = {}) {
  const el = (/** @type {string} */ tag, /** @type {Object<string, string|number>} */ attrs = {}, /** @type {string|null} */ text = null) => svgIn(doc, tag, attrs, text);
  const bins = hist.bins;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const padL = 8;
  const padB = 22;
  const padT = 16;
  const w = (width - padL * 2) / bins.length;
  const total = bins.reduce((a, b) => a + b.count, 0);
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width: "100%",
    role: "img",
    class: "histogram",
    "data-ref": "histogram",
    preserveAspectRatio: "xMidYMid meet",
  });
  svg.append(
    el("title", {}, `Score histogram: ${total} scored rows; ` + bins.map((b) => `${fmtNum(b.from)}–${fmtNum(b.to)}: ${b.count}`).join(", ")),
  );
  const chartH = height - padB - padT;
  svg.append(el("line", { x1: padL, x2: width - padL, y1: padT + chartH + 0.5, y2: padT + chartH + 0.5, class: "hist-axis" }));
  bins.forEach((b, i) => {
    const bh = b.count ? Math.max(2, (b.count / max) * chartH) : 0;
    const x = padL + i * w + 2;
    const g = el("g", { class: "hist-bin", "data-count": b.count });
    g.append(el("title", {}, `${fmtNum(b.from)} to ${fmtNum(b.to)}: ${b.count} row${b.count === 1 ? "" : "s"}`));
    g.append(el("rect", { x, y: padT + chartH - bh, width: Math.max(1, w - 4), height: bh, rx: 2, class: "hist-bar" }));
    if (b.count) g.append(el("text", { x: x + (w - 4) / 2, y: padT + chartH - bh - 4, "text-anchor": "middle", class: "hist-count" }, String(b.count)));
    svg.append(g);
  });
  // Range labels at the ends and the middle keep the axis readable at any bin count.
  /** @type {[number, string][]} */
  const ticks = [[0, "start"], [Math.floor(bins.length / 2), "middle"], [bins.length, "end"]];
  for (const [i, anchor] of ticks) {
    const v = i === bins.length ? hist.hi : bins[i] ? bins[i].from : hist.hi;
    svg.append(el("text", { x: padL + i * w, y: height - 6, "text-anchor": anchor, class: "hist-label" }, fmtNum(v)));
  }
  return svg;
}
