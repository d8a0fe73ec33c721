// consistencyview.js: the Consistency panel in the Batch view's run card, for a run whose rows are
// judged several times: drawn from the open run's results (consistency.js) when they change, at
// most once a second while rows stream in, hidden for a run of one repeat.

import { consistencyData, consistencyPanel } from "./consistency.js";

const REDRAW_MS = 1000;

/**
 * mountConsistency builds the panel's place; draw(counts) redraws it for the controller's open run.
 * @param {{rj: any, controller: import("../batch/runcontroller.js").RunController, threshold: () => number|null}} ctx
 */
export function mountConsistency({ rj, controller, threshold }) {
  const el = document.createElement("div");
  el.className = "trust";
  el.dataset.ref = "batch-consistency";
  el.hidden = true;
  let key = "";
  let at = 0;

  /** @param {import("../results/counts.js").RunCounts} counts */
  function draw(counts) {
    const c = controller.current;
    if (!c || !(c.run.settings.repeats > 1)) {
      el.hidden = true;
      el.replaceChildren();
      key = "";
      return;
    }
    const th = threshold();
    const k = `${c.run.id}|${counts.done}|${counts.remaining}|${th}`;
    const now = performance.now();
    if (k === key || (key.startsWith(c.run.id + "|") && counts.remaining > 0 && now - at < REDRAW_MS)) return;
    key = k;
    at = now;
    const data = consistencyData(rj, c.results, th, c.run.total, c.ev ? c.ev.words || null : null);
    el.hidden = !data;
    el.replaceChildren(...(data ? [consistencyPanel(document, data)] : []));
  }

  return { el, draw };
}
