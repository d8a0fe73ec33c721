// runscard.js: the "Runs in this browser" card: every stored run, with Open and a Delete that asks
// twice, in place. The open run's row shows the same counts as the run card.

import { h, replace, confirmButton } from "../lib/dom.js";
import { fmtInt } from "../lib/format.js";

/**
 * mountRunsList builds the card.
 * @param {{store: Object, controller: import("./runcontroller.js").RunController}} ctx
 */
export function mountRunsList({ store, controller }) {
  const list = h("div", { class: "runs", dataset: { ref: "batch-runs" } });
  const card = h("section", { class: "card batch-runs" }, h("h2", { class: "card-title", text: "Runs in this browser" }), list);
  /** @type {Promise<void>|null} */
  let drawing = null;
  let again = false;

  /** deleteButton asks twice, in place: "Delete", then "Delete N rows?" for a few seconds. */
  function deleteButton(r) {
    return confirmButton({
      text: "Delete",
      ask: `Delete ${fmtInt(r.total)} rows?`,
      dataset: { ref: "batch-delete-run" },
      attrs: { "aria-label": `Delete the run of ${r.name}` },
      onConfirm: () => controller.remove(r.id),
    });
  }

  /**
   * current shows the open run's counts in its row (counts: the RunCounts the run card is drawn from).
   * @param {import("../results/counts.js").RunCounts|null} [counts]
   */
  function current(counts = controller.counts()) {
    const c = controller.current;
    if (!c || !counts) return;
    const row = list.querySelector(`tr[data-run="${CSS.escape(c.run.id)}"]`);
    if (!row) return;
    row.querySelector("[data-col=rows]").textContent = `${fmtInt(counts.done)} / ${fmtInt(counts.total)}`;
    row.querySelector("[data-col=state]").textContent = controller.state();
  }

  async function drawOnce() {
    const runs = await store.listRuns();
    if (!runs.length) {
      replace(list, h("p", { class: "hint", text: "No runs yet. Runs you start are kept here until you delete them." }));
      return;
    }
    // On a phone the table's rows stack (batch.css) rather than widening the page.
    replace(
      list,
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "ptable runs-table" },
          h("thead", {}, h("tr", {}, ["Started", "Dataset", "Evaluator", "Model", "Rows", "State"].map((t) => h("th", { text: t })), h("th", {}, h("span", { class: "offscreen", text: "Actions" })))),
          h(
            "tbody",
            {},
            runs.map((r) =>
              h(
                "tr",
                { dataset: { run: r.id } },
                // data-label: a phone shows each cell on a line of its own, named (batch.css).
                h("td", { dataset: { label: "Started" }, text: new Date(r.createdAt).toLocaleString() }),
                h("td", { dataset: { label: "Dataset" }, text: r.name }),
                h("td", { dataset: { label: "Evaluator" }, text: r.evaluator }),
                h("td", { dataset: { label: "Model" }, text: (r.settings && r.settings.model) || "" }),
                h("td", { dataset: { col: "rows", label: "Rows" }, text: `${fmtInt(r.finished || 0)} / ${fmtInt(r.total)}` }),
                h("td", { dataset: { col: "state", label: "State" }, text: r.state }),
                h("td", { class: "actions" }, h("button", { type: "button", class: "btn btn-small", text: "Open", dataset: { ref: "batch-open-run" }, on: { click: () => controller.open(r.id) } }), deleteButton(r)),
              ),
            ),
          ),
        ),
      ),
    );
    current();
  }

  /** draw redraws the list from the store; draws asked for while one is under way are folded into one more. */
  async function draw() {
    if (drawing) {
      again = true;
      return drawing;
    }
    drawing = (async () => {
      do {
        again = false;
        await drawOnce();
      } while (again);
    })();
    try {
      await drawing;
    } finally {
      drawing = null;
    }
  }

  return { card, draw, current };
}
