// runpanel.js: the check-up chart in the Batch view's run card, for a check-up run (run.checkup):
// graded from the open run's results (data.js) when they change, at most once a second while
// cases stream in; a missed case opens in the case dialog (casedialog.js). It also gives the
// exports their check-up fields (each case's row, failure mode, right verdict and outcome).

import { checkupPanel } from "./chart.js";
import { checkupView, isCheckup, checkupExportFields } from "./data.js";
import { mountCaseDialog } from "./casedialog.js";
import { checkupReferences } from "../api/checkupreferences.js";
import { addStylesheet } from "../lib/dom.js";
import { redrawGate } from "./redraw.js";

/** ensureStylesheet adds checkup.css to the page once. */
export function ensureStylesheet() {
  addStylesheet(new URL("./checkup.css", import.meta.url).href, "checkup-css");
}

/**
 * mountCheckupRun builds the chart's place in the run card and its case dialog; draw(counts)
 * redraws it for the controller's open run (hidden for a run that is no check-up).
 * @param {{rj: any, controller: import("../batch/runcontroller.js").RunController, renderVerdict: Function}} ctx
 */
export function mountCheckupRun({ rj, controller, renderVerdict }) {
  ensureStylesheet();
  const el = document.createElement("div");
  el.className = "trust";
  el.dataset.ref = "batch-checkup";
  el.hidden = true;
  const cases = mountCaseDialog({ rj, renderVerdict });
  const gate = redrawGate();

  /** @param {import("../results/counts.js").RunCounts} counts */
  function draw(counts) {
    const c = controller.current;
    if (!c || !isCheckup(c.run)) {
      el.hidden = true;
      el.replaceChildren();
      gate.reset();
      return;
    }
    if (!gate.due(c.run.id, counts)) return;
    const v = checkupView(rj, c, { references: checkupReferences });
    const list = v.missed.map((m) => m.index);
    el.hidden = false;
    el.replaceChildren(checkupPanel(document, v, { onOpen: (i) => cases.open(c, v.grades, i, list) }));
  }

  function grades() {
    const c = controller.current;
    if (!c || !isCheckup(c.run)) return null;
    return checkupView(rj, c, { references: checkupReferences }).grades;
  }

  return {
    el,
    dialog: cases.dialog,
    draw,
    /** grades: the open check-up's cases graded now, or null for another run. */
    grades,
    /** exportFields: the open check-up's fields for each exported case, or null for another run. */
    exportFields() {
      const g = grades();
      return g ? checkupExportFields(g) : null;
    },
  };
}
