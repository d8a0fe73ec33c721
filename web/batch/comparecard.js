// comparecard.js: "Compare two runs" in the Batch view's runs card: pick two stored runs, see
// them side by side (compare.js). Shown once there are two runs to pick from.

import { h, replace, uid, field } from "../lib/dom.js";
import { loadRun } from "./runrecords.js";
import { prefsOf, thresholdOf } from "./prefs.js";
import { compareData, comparePanel } from "../stats/compare.js";
import { isCheckup } from "../checkup/data.js";
import { compareCheckups, checkupComparePanel } from "../checkup/compare.js";
import { checkupReferences } from "../api/checkupreferences.js";

/**
 * mountCompare builds the comparison's controls and place; refresh() re-reads the stored runs.
 * @param {{rj: any, store: any, state: import("../shell/state.js").State, byID: Map<string, any>}} ctx
 */
export function mountCompare({ rj, store, state, byID }) {
  const pick = (/** @type {string} */ ref) => h("select", { class: "input", id: uid("cmp"), dataset: { ref } });
  const selA = pick("compare-a");
  const selB = pick("compare-b");
  const out = h("div", { dataset: { ref: "compare-out" }, attrs: { "aria-live": "polite" } });
  const go = h("button", { type: "button", class: "btn", text: "Compare", dataset: { ref: "compare-run" }, on: { click: () => compare() } });
  const el = h(
    "div",
    { class: "compare", dataset: { ref: "batch-compare" }, hidden: true },
    h("h3", { class: "sub-title", text: "Compare two runs" }),
    h("p", { class: "hint", text: "Two runs over the same dataset, for example one evaluator with two judge models: their numbers side by side, Cohen's κ between them, and the rows whose verdict changed. Two check-ups compare by failure mode." }),
    h("div", { class: "compare-pick" }, field("Run A", selA), field("Run B", selB), go),
    out,
  );

  /** label names a run in the pickers. */
  const label = (/** @type {any} */ r) =>
    `${r.name} · ${r.evaluator} · ${(r.settings && r.settings.model) || "?"}` + (r.settings && r.settings.repeats > 1 ? ` ×${r.settings.repeats}` : "") + ` · ${r.total} ${isCheckup(r) ? "cases" : "rows"} · ${new Date(r.createdAt).toLocaleString()}`;

  async function refresh() {
    const runs = await store.listRuns();
    el.hidden = runs.length < 2;
    const keep = [selA.value, selB.value];
    for (const [sel, fallback] of /** @type {[HTMLSelectElement, number][]} */ ([
      [selA, 1],
      [selB, 0],
    ])) {
      const was = sel === selA ? keep[0] : keep[1];
      replace(sel, runs.map((/** @type {any} */ r) => h("option", { value: r.id, text: label(r) })));
      if (runs.some((/** @type {any} */ r) => r.id === was)) sel.value = was;
      else if (runs[fallback]) sel.value = runs[fallback].id;
    }
  }

  async function compare() {
    if (selA.value === selB.value) {
      replace(out, h("p", { class: "compare-mismatch", attrs: { role: "alert" }, text: "✗ Pick two different runs." }));
      return;
    }
    const [a, b] = await Promise.all([loadRun(store, selA.value), loadRun(store, selB.value)]);
    if (!a || !b) {
      replace(out, h("p", { class: "compare-mismatch", attrs: { role: "alert" }, text: "✗ That run is no longer stored in this browser." }));
      return refresh();
    }
    const p = prefsOf(state);
    const ev = byID.get(a.run.evaluator);
    const evB = byID.get(b.run.evaluator);
    // Two check-ups compare by failure mode and case (checkup/compare.js); a check-up and a run do not compare.
    if (isCheckup(a.run) || isCheckup(b.run)) {
      if (isCheckup(a.run) && isCheckup(b.run)) replace(out, checkupComparePanel(document, compareCheckups(rj, a, b, { evA: ev, evB, references: checkupReferences })));
      else replace(out, h("p", { class: "compare-mismatch", attrs: { role: "alert" }, text: `✗ Run ${isCheckup(a.run) ? "A" : "B"} is a check-up and the other a run over a dataset: compare a check-up with another check-up.` }));
      return;
    }
    const words = { a: ev ? ev.words || null : null, b: evB ? evB.words || null : null };
    const data = compareData(rj, a, b, { threshold: thresholdOf(p), priceIn: p.priceIn, priceOut: p.priceOut, inputNames: ev ? ev.inputs.map((/** @type {any} */ i) => i.name) : [], words });
    replace(out, comparePanel(document, data));
  }

  return { el, refresh, compare };
}
