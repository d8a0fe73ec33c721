// checkupsetup.js: the Batch view's "Check-up" card: where the cases come from (the dataset set up
// in "New batch run", or the evaluator's worked example), how many rows are drawn and with which
// seed (shown, settable, a new one a click away), the cases the core makes of them and what no
// row allowed, and what running them will spend (the setup line), before anything is paid for.
// Run stores the cases as a batch run (run.checkup: its record) through the run controller, so a
// check-up has the batch engine's cache, retries, pacing, resume and reload.

import { h, replace, uid } from "../lib/dom.js";
import { yieldToLoop } from "./turns.js";
import { prefsOf } from "./prefs.js";
import { setupLine, plannedRequest } from "./setupline.js";
import { requestSettings } from "./endpoint.js";
import { plannedJudges } from "./judges.js";
import { fmtInt, plural } from "../lib/format.js";
import { ordersOf } from "./repeatopts.js";
import { planCheckup, newSeed, seedOf, rowsOf, checkupSource, datasetRows, checkupRun, noCasesWhy, casesLine, DEFAULT_ROWS, MAX_ROWS } from "../checkup/cases.js";
import { expectedWords } from "../checkup/words.js";
import { onChange } from "../lib/store.js";

/**
 * @typedef {{source: "dataset"|"example", rows: number, seed: number}} CheckupChoice what the card
 *   keeps in the page's state ("checkup"), so a reload finds it
 */

/**
 * choiceOf reads the card's saved choice, defaults filled in (a new seed the first time).
 * @param {import("../shell/state.js").State} state
 * @returns {CheckupChoice}
 */
function choiceOf(state) {
  const c = state.get("checkup") || {};
  return { source: c.source === "example" ? "example" : "dataset", rows: rowsOf(c.rows) || DEFAULT_ROWS, seed: seedOf(c.seed) ?? newSeed() };
}

/**
 * mountCheckupSetup builds the card. evaluator() is the evaluator chosen in the setup card;
 * setup is that card (setup.js: current() is the dataset it holds, checked); refresh() is called
 * when either changes.
 * @param {{rj: any, state: import("../shell/state.js").State, controller: import("./runcontroller.js").RunController, evaluator: () => any,
 *   setup: {current: () => any}}} ctx
 */
export function mountCheckupSetup({ rj, state, controller, evaluator, setup }) {
  if (!state.get("checkup")) state.set({ checkup: choiceOf(state) });
  const choice = () => choiceOf(state);
  const save = (/** @type {Partial<CheckupChoice>} */ patch) => state.update("checkup", () => ({ ...choice(), ...patch }));

  const radio = (/** @type {string} */ value, /** @type {string} */ ref) => h("input", { type: "radio", name: "checkup-source", id: uid("cus"), value, dataset: { ref }, on: { change: () => save({ source: /** @type {any} */ (value) }) } });
  const fromDataset = radio("dataset", "checkup-source-dataset");
  const fromExample = radio("example", "checkup-source-example");
  const datasetNote = h("span", { class: "hint", dataset: { ref: "checkup-dataset-note" } });
  const exampleNote = h("span", { class: "hint", dataset: { ref: "checkup-example-note" } });
  const rowsIn = h("input", { type: "number", class: "input narrow", id: uid("cur"), dataset: { ref: "checkup-rows" }, attrs: { min: 1, max: MAX_ROWS, step: 1 } });
  rowsIn.addEventListener("change", () => {
    const n = rowsOf(rowsIn.value) || Math.max(1, Math.min(MAX_ROWS, Math.round(Number(rowsIn.value)) || DEFAULT_ROWS));
    rowsIn.value = String(n);
    save({ rows: n });
  });
  const seedIn = h("input", { type: "text", class: "input narrow", id: uid("cuseed"), dataset: { ref: "checkup-seed" }, attrs: { inputmode: "numeric", spellcheck: "false", autocomplete: "off" } });
  const seedMsg = h("div", { class: "hint", dataset: { ref: "checkup-seed-msg" }, attrs: { role: "status" } });
  seedIn.addEventListener("change", () => {
    const s = seedOf(seedIn.value);
    seedMsg.textContent = s === null ? "A seed is a whole number from 0 to 2,147,483,647: the last one is kept." : "";
    if (s === null) seedIn.value = String(choice().seed);
    else save({ seed: s });
  });
  const newSeedBtn = h("button", { type: "button", class: "btn btn-small", text: "↻ New seed", dataset: { ref: "checkup-new-seed" }, on: { click: () => save({ seed: newSeed() }) } });
  const evLine = h("p", { class: "hint", dataset: { ref: "checkup-evaluator" } });
  const casesEl = h("div", { class: "cu-plan", dataset: { ref: "checkup-cases" }, attrs: { "aria-live": "polite" } });
  const planEl = h("p", { class: "setup-line", dataset: { ref: "checkup-setup-line" } });
  const runBtn = h("button", { type: "button", class: "btn btn-primary", text: "▶ Run check-up", dataset: { ref: "checkup-run" }, disabled: true, on: { click: () => run() } });
  const msg = h("div", { class: "batch-msg", dataset: { ref: "checkup-msg" }, attrs: { role: "alert" } });
  const field = (/** @type {string} */ label, /** @type {HTMLElement} */ control, /** @type {any[]} */ ...more) => h("div", { class: "field" }, h("label", { htmlFor: control.id, text: label }), control, ...more);

  const card = h(
    "details",
    { class: "card checkup-setup", dataset: { ref: "checkup-setup" } },
    h("summary", { class: "setup-summary", dataset: { ref: "checkup-new" } }, h("h2", { class: "card-title", text: "Check-up: does the judge catch failures?" })),
    h("p", {
      class: "desc",
      text: "No labels needed. Rows drawn from your dataset are changed in ways whose right verdict follows from the change itself (a fact copied word for word is grounded; a sentence from an unrelated row is not; a number changed is not), the model in Model settings judges them like any run, and a chart shows which failure modes it catches and which it misses.",
    }),
    evLine,
    h(
      "fieldset",
      { class: "cu-source" },
      h("legend", { text: "Cases made from" }),
      h("div", { class: "check" }, fromDataset, h("label", { htmlFor: fromDataset.id, text: "rows of the dataset set up above " }), datasetNote),
      h("div", { class: "check" }, fromExample, h("label", { htmlFor: fromExample.id, text: "the evaluator's worked example " }), exampleNote),
    ),
    h("div", { class: "batch-grid" }, field("Rows to draw", rowsIn, h("div", { class: "hint", text: `1 to ${MAX_ROWS}; each row makes a few cases` })), field("Seed", seedIn, newSeedBtn, seedMsg)),
    casesEl,
    planEl,
    h("div", { class: "run-row" }, runBtn, msg),
  );

  /** @type {{plan: import("../checkup/cases.js").CheckupPlan, key: string, source: any} | null} */
  let made = null;
  let gen = 0;

  /** source is where the cases come from now, or why they cannot (cases.js checkupSource), its choices drawn. */
  function source() {
    const ev = evaluator();
    const s = setup.current();
    const src = checkupSource(ev, s, choice().source);
    const rows = datasetRows(ev, s);
    fromDataset.disabled = !rows.length;
    datasetNote.textContent = s ? `(${s.name}: ${plural(rows.length, "row")} that can be judged)` : "(none yet: choose one above)";
    const example = ev && ev.example && ev.example.inputs;
    fromExample.disabled = !example;
    exampleNote.textContent = example ? "(one row: cases that need another row's sentences are skipped)" : "(this evaluator has none)";
    fromDataset.checked = src.use === "dataset";
    fromExample.checked = src.use === "example";
    return src;
  }

  /** refresh makes the cases again when what they are made of changed, then draws them and what running them costs. */
  async function refresh() {
    const ev = evaluator();
    const c = choice();
    rowsIn.value = String(c.rows);
    if (document.activeElement !== seedIn) seedIn.value = String(c.seed);
    evLine.textContent = ev ? `Evaluator: ${ev.title || ev.id} (chosen in New batch run above). ` + (ev.custom && !ev.spec?.checkup ? "Your own evaluator's generic cases need their right verdicts: set them in My evaluators (Check-up)." : "") : "";
    const src = source();
    const key = JSON.stringify([ev && ev.id, ev && ev.spec, src.use, src.name, src.of, c.rows, c.seed]);
    if (made && made.key === key) return drawPlan();
    made = null;
    runBtn.disabled = true;
    if (!ev || !src.rows) {
      replace(casesEl, h("p", { class: "hint", text: /** @type {string} */ (src.why) || "" }));
      planEl.textContent = "";
      return;
    }
    const my = ++gen;
    replace(casesEl, h("p", { class: "hint", text: "Making the cases…" }));
    const plan = await planCheckup(rj, ev.id, src.rows, { n: c.rows, seed: c.seed, yieldFn: yieldToLoop, isStale: () => my !== gen });
    if (!plan || my !== gen) return;
    made = { plan, key, source: src };
    drawCases(plan);
    drawPlan();
  }

  /** drawCases lists the transformations: what each checks, its cases, and the rows that did not allow it. */
  function drawCases(plan) {
    const first = new Map();
    for (const it of plan.items) if (!first.has(it.checkup.transform)) first.set(it.checkup.transform, it.checkup);
    const rows = plan.transforms.map((t) =>
      h(
        "tr",
        { dataset: { transform: t.transform, cases: String(t.cases) } },
        h("td", { text: t.name }),
        h("td", { text: first.has(t.transform) ? expectedWords(first.get(t.transform).expect) : "–" }),
        h("td", { class: "num", text: fmtInt(t.cases) }),
        h("td", { class: "hint", text: t.skipped ? `${plural(t.skipped, "row")}: ${t.reason}` : "" }),
      ),
    );
    replace(
      casesEl,
      plan.items.length
        ? h("div", { class: "table-wrap" }, h("table", { class: "ptable cu-plan-table" }, h("thead", {}, h("tr", {}, ["Failure mode", "Right verdict", "Cases", "Not offered on"].map((t) => h("th", { text: t })))), h("tbody", {}, rows)))
        : h("p", { class: "msg-error", text: noCasesWhy(plan) }),
      plan.refused.length ? h("p", { class: "hint", text: `${fmtInt(plan.refused.length)} drawn row${plan.refused.length === 1 ? "" : "s"} could not be judged at all (${plan.refused[0].reason}).` }) : null,
    );
  }

  /** drawPlan says what running the cases would spend and ask (the setup line), or why it cannot run. */
  function drawPlan() {
    if (!made) return;
    const p = prefsOf(state);
    const ev = evaluator();
    const plan = plannedRequest(state.get("settings") || {}, p);
    const cases = made.plan.items.length;
    const live = requestSettings(state);
    planEl.classList.toggle("msg-error", !plan);
    const line = plan && setupLine({ rows: cases, plan: { ...plan, orders: ordersOf(p, ev), judges: plannedJudges(state, p) }, noun: "case", doubled: made.plan.doubled, cache: p.useCache });
    planEl.textContent = !line ? "No model is set: choose one in Model settings." : casesLine(made.plan, line);
    if (plan && live.error) planEl.textContent += ` (Run needs an endpoint: ${live.error.replace(/^Batch runs need a model: /, "")})`;
    runBtn.disabled = !cases || !plan;
  }

  async function run() {
    if (!made || !made.plan.items.length) return;
    const ev = evaluator();
    const { plan, source: src } = made;
    msg.textContent = "";
    const err = await controller.startNew({ ...checkupRun(plan, src, choice().seed), ev });
    if (err) msg.textContent = "✗ " + err;
    else card.open = false;
  }

  onChange(() => [state.get("checkup"), state.get("batch")], () => refresh());
  onChange(() => state.get("settings"), () => drawPlan());
  onChange(() => controller.opened.value, (opened) => opened && (card.open = false));
  card.addEventListener("toggle", () => card.open && refresh());

  return { card, refresh };
}
