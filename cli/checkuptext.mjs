// checkuptext.mjs: a check-up in a terminal's words, as the page's check-up card and chart say
// it: the cases before anything is paid (setupcard.js's table and setup line), then the chart
// (chart.js) as text: one line per failure mode with its counts and catch rate (Wilson 95%
// interval), the overall catch rate with its standing and what it means (words.js), the published
// reference points in small print (checkupreferences.js), the position bias of a check-up judged
// in both orders (position.js), and the missed cases with the right verdict beside the one read.
// Every figure and sentence is the page's; only the layout is the terminal's.

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)
import { expectedWords, legend, meaning, modeRate, standing, pct, intervalText, saidWords, slotWords, fmtInt } from "./page.mjs";

/**
 * table lays rows of cells out in columns (the last one unpadded), each line indented.
 * @param {string[][]} rows
 * @param {string} [indent]
 * @returns {string[]}
 */
export function table(rows, indent = "  ") {
  const widths = [];
  for (const r of rows) r.forEach((c, k) => (widths[k] = Math.max(widths[k] || 0, [...c].length)));
  return rows.map((r) => indent + r.map((c, k) => (k === r.length - 1 ? c : c + " ".repeat(widths[k] - [...c].length))).join("  ").trimEnd());
}

/**
 * planLines says a check-up's cases before it runs: each failure mode with its right verdict, its
 * cases and the rows that did not allow it, and the rows that could not be judged at all.
 * @param {import("../web/checkup/cases.js").CheckupPlan} plan
 * @returns {string[]}
 */
export function planLines(plan) {
  const first = new Map();
  for (const it of plan.items) if (!first.has(it.checkup.transform)) first.set(it.checkup.transform, it.checkup);
  const rows = [["Failure mode", "Right verdict", "Cases", "Not offered on"]];
  for (const t of plan.transforms) {
    rows.push([t.name, first.has(t.transform) ? expectedWords(first.get(t.transform).expect) : "–", fmtInt(t.cases), t.skipped ? `${fmtInt(t.skipped)} row${t.skipped === 1 ? "" : "s"}: ${t.reason}` : ""]);
  }
  const out = table(rows);
  if (plan.refused.length) out.push(`  ${fmtInt(plan.refused.length)} drawn row${plan.refused.length === 1 ? "" : "s"} could not be judged at all (${plan.refused[0].reason}).`);
  return out;
}

/**
 * referenceLines are the published reference points, in small print: each figure, what it is of,
 * and its source.
 * @param {readonly import("../web/types.js").CheckupReference[]} refs
 * @returns {string[]}
 */
export function referenceLines(refs) {
  return [
    "  Published figures to read it by (they measure other things: see the report for how far each compares):",
    ...refs.map((r) => `    · ${r.figure} · ${r.name || r.source.title}: ${r.short || r.measures} (${r.source.url})`),
  ];
}

/**
 * chartLines is the check-up chart as text, from data.js checkupView's view of the run.
 * @param {ReturnType<typeof import("../web/checkup/data.js").checkupView>} v
 * @returns {string[]}
 */
export function chartLines(v) {
  const o = v.matrix.overall;
  const rows = new Map(v.matrix.rows.map((r) => [r.transform, r]));
  const names = new Map(v.modes.map((m) => [m.transform, m]));
  const lines = [v.about];
  const cells = [["Failure mode", "Right verdict", "Caught · missed · undetermined", "Catch rate (95% interval)"]];
  const off = [];
  for (const m of v.modes) {
    const r = rows.get(m.transform);
    if (m.cases) cells.push([m.name, m.expected, r && r.total ? legend(r) : "not judged yet", r ? modeRate(r) : ""]);
    else off.push(`  Not offered: ${m.name}. No drawn row allowed it: ${m.reason}`);
  }
  cells.push(["Overall", "", legend(o), o.catch.n ? `${pct(o.catch.rate, 0)} (${intervalText(o.catch.ci)})` : "no case decided"]);
  lines.push(...table(cells), ...off);
  const s = standing(o);
  lines.push("", `Catch rate: ${pct(o.catch.rate, 0)}` + (o.catch.n ? ` (${o.catch.k} of ${o.catch.n} decided cases; 95% interval ${intervalText(o.catch.ci)})` : " (no case decided)") + (s ? `  ${s.text}` : ""));
  for (const w of meaning(o, v.matrix.rows, names, { ...v, retry: "the same command with --out asks them again" })) lines.push("  " + w);
  lines.push(...referenceLines(v.references));
  return lines;
}

/**
 * missedLines lists the missed cases, by failure mode as the chart groups them (its right
 * verdict said once): each case's row, the verdict read, and why it is a miss (the chart's list:
 * at most its first MISSED_SHOWN).
 * @param {ReturnType<typeof import("../web/checkup/data.js").checkupView>} v
 * @param {any} ev @param {any[]} results
 * @returns {string[]}
 */
export function missedLines(v, ev, results) {
  if (!v.missedTotal) return v.matrix.overall.catch.n ? ["No case missed."] : [];
  const lines = [`Missed cases (${fmtInt(v.missedTotal)}):`];
  /** @type {Map<string, import("../web/checkup/chart.js").MissedCase[]>} */
  const groups = new Map();
  for (const m of v.missed) groups.set(m.transform, [...(groups.get(m.transform) || []), m]);
  for (const list of groups.values()) {
    lines.push(`  ${list[0].name}: ${list.length} missed · right verdict: ${list[0].expected}`);
    for (const m of list) lines.push(`    ✗ ${m.row >= 0 ? `Row ${m.row + 1}` : "The example"}, read ${saidWords(ev, results[m.index])}: ${m.detail}`);
  }
  if (v.missedTotal > v.missed.length) lines.push(`  … and ${fmtInt(v.missedTotal - v.missed.length)} more (outcome "missed" in the results file).`);
  return lines;
}

/**
 * positionLines says a check-up judged in both orders: how often a grade changed when the answers
 * exchanged places, and how often the first slot won (position.js positionData).
 * @param {import("../web/checkup/position.js").PositionData} d
 * @returns {string[]}
 */
export function positionLines(d) {
  return [
    "Position bias (each case judged in both orders):",
    `  ${pct(d.flip.rate, 0)} position flips: ` + (d.compared ? `${d.flips} of ${d.compared} judgements changed an answer's grade when the answers exchanged places (95% interval ${intervalText(d.flip.ci)}); those cases are undetermined.` : "no case's two orders could be compared."),
    `  ${pct(d.first.rate, 0)} first slot won: ` + (d.decided ? `${d.first_won} of ${d.decided} orders where one answer got 1 and the other 0 (95% interval ${intervalText(d.first.ci)}): ${slotWords(d.first)}.` : slotWords(d.first) + "."),
  ];
}
