// words.js: what a check-up's numbers mean, said in words beside them (issue 21, "figures to
// read it by"): the catch rate with its interval, how to read it against the published figures
// (api/checkupreferences.js), what is left out of it, and which failure modes the judge misses. The
// numbers are the core's (rj.checkupMatrix); this only says them. Pure, no DOM. Shares are written
// as whole percentages (lib/format.js pct(x, 0)).

import { pct, plural } from "../lib/format.js";

/**
 * intervalText writes a 95% interval as "73–93%", "" for none.
 * @param {[number, number]|null|undefined} ci
 */
export function intervalText(ci) {
  return ci ? `${Math.round(ci[0] * 100)}–${Math.round(ci[1] * 100)}%` : "";
}

/** FEW is the number of decided cases under which an interval is said to be wide. */
export const FEW = 20;

/**
 * @typedef {Object} ModeLine a failure mode as the chart names it
 * @property {string} transform @property {string} name @property {string} expected what its verdict must be, in words
 */

/**
 * lead is the chart's first sentence: how many decided cases the judge caught.
 * @param {import("../api/types.js").CheckupRow} overall
 */
export function lead(overall) {
  const c = overall.catch;
  if (!c.n) return overall.total ? "No case was decided: the judge's answers said nothing of them (see the undetermined cases)." : "No case has been judged yet.";
  return `The judge caught ${c.k} of the ${plural(c.n, "case")} it decided (${pct(c.rate, 0)}; with 95% confidence between ${intervalText(c.ci).replace("–", "% and ")}).`;
}

/**
 * reading says how to read the overall catch rate against the published figures: they measure
 * other things (agreement with people, hard benchmark pairs), while a check-up's cases are plain
 * and have one right verdict each, so a good judge should score clearly above them.
 * @param {import("../api/types.js").CheckupRow} overall
 * @returns {string}
 */
export function reading(overall) {
  const c = overall.catch;
  if (!c.n || !c.ci || c.rate === null) return "";
  const [lo, hi] = c.ci;
  if (!overall.missed) return lo >= 0.9 ? "It missed none: it catches these failures reliably." : `It missed none; over ${c.n} decided cases the true rate could still be as low as ${pct(lo, 0)}.`;
  if (lo >= 0.9) return "It catches these failures reliably. Each case is built to have one right verdict, so this is what a judge you can rely on looks like.";
  if (hi < 0.55)
    return "That is no better than the best judge on a benchmark of deliberately hard pairs (about 55%), and these cases are plain ones: on this material, the judge's verdicts cannot be trusted to catch these failures.";
  if (c.rate >= 0.8) return "It catches most of them; the failure modes below with misses are the ones that slip through, and the missed cases show how.";
  return "It misses many plain failures: read the failure modes with the lowest rates, and the missed cases, before trusting its verdicts on this material.";
}

/**
 * standing flags the overall catch rate in two words, by the same bands reading uses: reliable
 * (the interval's low end at 90% or more), none missed (fewer cases, all caught), catches most
 * (80% or more), misses many; null before a case is decided.
 * @param {import("../api/types.js").CheckupRow} overall
 * @returns {{kind: "good"|"fair"|"poor", text: string} | null}
 */
export function standing(overall) {
  const c = overall.catch;
  if (!c.n || !c.ci || c.rate === null) return null;
  if (c.ci[0] >= 0.9) return { kind: "good", text: "✓ reliable" };
  if (!overall.missed) return { kind: "good", text: "✓ none missed" };
  if (c.rate >= 0.8) return { kind: "fair", text: "! catches most" };
  return { kind: "poor", text: "✗ misses many" };
}

/**
 * leftOut says what the catch rate does not count: undetermined cases, failed calls (with how to
 * ask them again: g.retry, the page's button unless told), cases not judged yet; "" when nothing
 * is left out.
 * @param {import("../api/types.js").CheckupRow} overall
 * @param {{pending: number, errors: number, retry?: string}} g
 */
export function leftOut(overall, g) {
  const parts = [];
  if (overall.undetermined)
    parts.push(`${overall.undetermined} case${overall.undetermined === 1 ? " was" : "s were"} undetermined (the answer said nothing of ${overall.undetermined === 1 ? "it" : "them"}: unreadable, or a part not graded) and ${overall.undetermined === 1 ? "is" : "are"} not counted as missed`);
  if (g.errors) parts.push(`${g.errors} got no answer (the call failed: ${g.retry || "Retry failed rows"})`);
  if (g.pending) parts.push(`${g.pending} ${g.pending === 1 ? "is" : "are"} not judged yet`);
  if (!parts.length) return "";
  const s = parts.join("; ") + ".";
  return s[0].toUpperCase() + s.slice(1);
}

/**
 * firmness warns that an interval over few decided cases is wide; "" otherwise.
 * @param {import("../api/types.js").CheckupRow} overall
 */
export function firmness(overall) {
  const n = overall.catch.n;
  if (!n || n >= FEW) return "";
  return `With ${n} decided case${n === 1 ? "" : "s"} the interval is wide: draw more rows (or another seed) for a firmer figure.`;
}

/**
 * weakModes names the failure modes the judge misses most of: those whose catch rate is below
 * one half with an interval that stays below 0.8; "" when there are none.
 * @param {import("../api/types.js").CheckupRow[]} rows
 * @param {Map<string, ModeLine>} names
 */
export function weakModes(rows, names) {
  const weak = rows.filter((r) => r.catch.rate !== null && r.catch.rate < 0.5 && r.catch.ci && r.catch.ci[1] < 0.8);
  if (!weak.length) return "";
  const said = weak.map((r) => `${(names.get(r.transform) || { name: r.transform }).name.toLowerCase()} (${r.catch.k} of ${r.catch.n})`);
  return `It misses most of: ${said.join("; ")}.`;
}

/**
 * meaning is the chart's sentences, in order, none empty.
 * @param {import("../api/types.js").CheckupRow} overall
 * @param {import("../api/types.js").CheckupRow[]} rows
 * @param {Map<string, ModeLine>} names
 * @param {{pending: number, errors: number, retry?: string}} g
 * @returns {string[]}
 */
export function meaning(overall, rows, names, g) {
  return [lead(overall), reading(overall), weakModes(rows, names), firmness(overall), leftOut(overall, g)].filter(Boolean);
}

/**
 * modeRate writes one failure mode's catch rate and interval: "90% (70–97%)", or why there is none.
 * @param {import("../api/types.js").CheckupRow} row
 */
export function modeRate(row) {
  const c = row.catch;
  return c.rate === null ? "no case decided" : `${pct(c.rate, 0)} (${intervalText(c.ci)})`;
}

/**
 * expectedWords says what a case's verdict must be: the expectation's own words, but a claim's
 * id left out ("the added claim ungrounded"), since every case names its claim alike.
 * @param {any} expect a case's expect (api/trusttypes.js CheckupExpect)
 * @returns {string}
 */
export function expectedWords(expect) {
  if (expect && expect.claim && typeof expect.claim === "object") return `the added claim ${expect.claim.grounded ? "grounded" : "ungrounded"}`;
  return String((expect && expect.text) || "");
}
