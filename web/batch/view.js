// view.js: the Batch view, assembled. Load a dataset, choose the evaluator, check the mapping and
// the preview (setup.js, preview.js), run every row through the judge with pause, resume and
// cancel (runcontroller.js), and see the progress, summary and rows (summary.js, table.js) and the stored
// runs (runscard.js). Every count on the screen is drawn from one RunCounts per frame (counts.js).
//
// app.js calls mount(root, {engine, evaluators, state, renderVerdict, registry}), possibly before the judge
// engine has loaded: the view is drawn at once; reading a dataset waits for the engine (setup.js),
// and so do the stored runs, which are listed and reopened once it is ready. Untrusted text
// (dataset cells, judge answers) is only ever set as textContent.

import { h, replace, download } from "../lib/dom.js";
import { openStore } from "./runstore.js";
import { aggregate } from "../results/aggregate.js";
import { toJSONL, toJSON, toCSV, mergeExtra } from "./export.js";
import { RunController } from "./runcontroller.js";
import { RunState } from "./states.js";
import { Retry } from "./runrecords.js";
import { mountSetup } from "./setup.js";
import { mountSummary } from "./summary.js";
import { mountTable } from "./table.js";
import { mountRunsList } from "./runscard.js";
import { prefsOf, thresholdOf } from "./prefs.js";
import { ensureStylesheet } from "./words.js";
import { mountBatchFile } from "./batchfileview.js";
import { mountAgreement } from "../stats/agreementview.js";
import { mountConsistency } from "../stats/consistencyview.js";
import { mountCompare } from "./comparecard.js";
import { usedEvaluator } from "../custom/runnote.js";
import { mountCheckupSetup } from "./checkupsetup.js";
import { mountCheckupRun } from "../checkup/runpanel.js";
import { isCheckup } from "../checkup/data.js";
import { mountPosition, ordersExportFields } from "../checkup/position.js";
import { juryExportFields } from "../stats/jury.js";
import { rate } from "../results/summarywords.js";
import { fmtInt } from "../lib/format.js";
import { wordFor } from "../verdict/statebadge.js";
import { effect, onChange } from "../lib/store.js";

const DRAW_EVERY_MS = 200; // at most 5 draws a second while rows stream in

/**
 * mount builds the Batch view into root.
 * @param {HTMLElement} root
 * registry, when given, is the page's evaluators (custom/registry.js): the user's own come and go,
 * and a run of one of them is shown with the definition it recorded.
 * @param {{engine: import("../shell/enginestatus.js").Engine, evaluators: Object[], state: import("../shell/state.js").State, renderVerdict: Function, registry?: import("../custom/registry.js").EvaluatorRegistry}} ctx
 */
export async function mount(root, { engine, evaluators, state, renderVerdict, registry }) {
  ensureStylesheet();
  // The registry's list, when there is one: the list handed in can be older (evaluators made in
  // My evaluators before Batch is first shown, Evaluate not visited since).
  if (registry) evaluators = registry.all();
  const rj = engine.api;
  const byID = new Map(evaluators.map((e) => [e.id, e]));
  const store = await openStore();
  const controller = new RunController({ rj, state, store, byID, evaluatorFor: registry && ((run) => registry.forRun(run)) });
  const threshold = () => thresholdOf(prefsOf(state));
  /** @type {ReturnType<typeof mountCheckupSetup> | null} the check-up card, told when the setup changes */
  let checkupSetup = null;

  const setup = mountSetup(
    { rj, engine, state, store, evaluators },
    {
      onRun: () => startNew(),
      onWarm: () => controller.warmUp(),
      onConcurrency: (n) => controller.setConcurrency(n),
      callsCapped: () => controller.callsCapped(),
      browserLimit: () => controller.browserLimit(),
      maxConcurrency: () => controller.maxConcurrency(),
      onReady: (ready) => {
        batchFile.setReady(ready);
        checkupSetup?.refresh();
      },
      onPlan: (plan) => batchFile.drawPlan(plan),
    },
  );
  const batchFile = mountBatchFile({ rj, state, store, controller, setup });
  setup.card.append(batchFile.el);
  const summary = mountSummary({ state });
  const agreement = mountAgreement({ rj, controller, words: (ev) => ({ passed: wordFor("passed", ev), failed: wordFor("failed", ev) }), threshold });
  const table = mountTable({ rj, controller, renderVerdict, threshold, agreement });
  const runsList = mountRunsList({ store, controller });
  const consistency = mountConsistency({ rj, controller, threshold });
  const comparison = mountCompare({ rj, store, state, byID });
  checkupSetup = mountCheckupSetup({ rj, state, controller, setup, evaluator: () => byID.get(prefsOf(state).evaluator) });
  const checkupRun = mountCheckupRun({ rj, controller, renderVerdict });
  const position = mountPosition({ rj, controller });
  runsList.card.append(comparison.el);
  if (registry) onChange(() => registry.listed.value, () => {
    const list = registry.all();
    byID.clear();
    for (const e of list) byID.set(e.id, e);
    setup.setEvaluators(list);
    checkupSetup?.refresh();
  });

  // ---- the run card ------------------------------------------------------------------------
  const runTitle = h("h2", { class: "card-title", dataset: { ref: "batch-run-title" } });
  const runSub = h("p", { class: "hint", dataset: { ref: "batch-run-sub" } });
  const usedEl = h("div", { dataset: { ref: "batch-run-evaluator" } });
  const readOnlyNote = h("p", {
    class: "batch-msg readonly-note",
    dataset: { ref: "batch-readonly" },
    hidden: true,
    text: "This run is running in another tab: this tab shows its progress as it goes, read-only. Pause, resume or cancel it there.",
  });
  const liveLine = h("div", { class: "hint live-line", dataset: { ref: "batch-live" }, attrs: { role: "status" } });
  const button = (ref, cls, text, onClick) => h("button", { type: "button", class: "btn " + cls, text, dataset: { ref }, on: { click: onClick } });
  const pauseBtn = button("batch-pause", "", "❚❚ Pause", () => controller.pause());
  const resumeBtn = button("batch-resume", "btn-primary", "▶ Resume", () => controller.resume());
  // A run waiting for a key (runcontroller.js waitingForKey) goes on by itself once one is entered in Model settings.
  const keyBtn = button("batch-enter-key", "btn-primary", "Enter your key", () => /** @type {HTMLElement | null} */ (document.querySelector('[data-ref="settings-button"]'))?.click());
  const cancelBtn = button("batch-cancel", "btn-stop", "■ Cancel", () => controller.cancel());
  // The errors the summary counts are retried (their answered calls come from the cache); the
  // undetermined rows are a choice of their own: asking again pays for answers the judge gave.
  const retryBtn = button("batch-retry-failed", "", "↻ Retry failed rows", () => controller.resume(Retry.ERRORS));
  const askAgainBtn = button("batch-retry-undetermined", "", "↻ Ask again for undetermined rows", () => controller.resume(Retry.UNDETERMINED));
  const newBtn = button("batch-new-run", "btn-ghost", "+ New run", () => {
    setup.card.open = true;
    setup.card.scrollIntoView({ block: "start" });
    setup.drop.focus();
  });
  const exportBtns = [
    ["jsonl", "JSONL"],
    ["csv", "CSV"],
    ["json", "JSON"],
  ].map(([fmt, label]) => button("batch-export-" + fmt, "btn-small", "⤓ " + label, () => exportRun(fmt)));
  const reportBtn = button("batch-report", "btn-small", "⤓ Download report", () => downloadReport());
  const reportMsg = h("span", { class: "hint", dataset: { ref: "batch-report-msg" }, attrs: { role: "status" } });
  const runCard = h(
    "section",
    { class: "card batch-run", dataset: { ref: "batch-run-card" }, hidden: true },
    runTitle,
    runSub,
    usedEl,
    readOnlyNote,
    summary.bar,
    summary.progText,
    liveLine,
    batchFile.reportEl,
    h("div", { class: "run-row" }, keyBtn, pauseBtn, resumeBtn, cancelBtn, retryBtn, askAgainBtn, newBtn, h("span", { class: "spacer" }), h("span", { class: "hint", text: "Export every row:" }), exportBtns, reportBtn),
    reportMsg,
    checkupRun.el,
    summary.summaryEl,
    position.el,
    agreement.el,
    consistency.el,
    summary.thresholdField,
    table.bar,
    table.table,
  );
  const durableNote = store.durable
    ? null
    : h("p", { class: "batch-msg msg-error", text: "This browser refuses local storage (IndexedDB): results will not survive a reload. Export them when the run ends." });
  replace(root, h("div", { class: "batch" }, durableNote, runCard, setup.card, checkupSetup.card, runsList.card, table.dialog, checkupRun.dialog));

  // ---- drawing: one RunCounts, everything drawn from it in the same frame --------------------
  let scheduled = false;
  let forceNext = false;
  let lastDraw = 0;
  let ticker = 0;

  /** update draws soon: at once when full, else at most every DRAW_EVERY_MS while rows stream in. */
  function update(full) {
    if (full) forceNext = true;
    if (scheduled) return;
    scheduled = true;
    const wait = forceNext ? 0 : Math.max(0, DRAW_EVERY_MS - (performance.now() - lastDraw));
    setTimeout(() => requestAnimationFrame(draw), wait);
  }

  function draw() {
    scheduled = false;
    forceNext = false;
    lastDraw = performance.now();
    const cur = controller.current;
    if (!cur) return;
    const counts = /** @type {import("../results/counts.js").RunCounts} */ (controller.counts());
    const s = controller.state();
    const running = s === RunState.RUNNING;
    summary.drawProgress(counts, running ? rate(cur.doneTimes, cur.startedAt, performance.now()) : null, running ? controller.pace() : null);
    summary.drawSummary(counts, cur.run.settings.repeats || 1);
    agreement.draw(counts);
    // A check-up's pass rate mixes cases built to pass with cases built to fail: its chart says what matters.
    // Nor are human labels or a score threshold of a check-up's: its cases carry their right verdicts.
    const checkup = isCheckup(cur.run);
    summary.summaryEl.hidden = agreement.el.hidden = checkup;
    if (checkup) summary.thresholdField.hidden = true;
    checkupRun.draw(counts);
    position.draw(counts);
    consistency.draw(counts);
    table.draw(counts);
    drawButtons(counts, s, cur.readOnly);
    runsList.current(counts);
    // The state and the counts change in the same frame, so a test (or a person) never sees "done" with stale counts.
    runCard.dataset.state = s;
    runCard.dataset.runId = cur.run.id;
    runCard.dataset.readonly = String(cur.readOnly);
    // While running, a draw every second keeps the rate and "retrying in 2 s" true without new results.
    if (running && !ticker) ticker = setInterval(() => update(false), 1000);
    if (!running && ticker) ticker = (clearInterval(ticker), 0);
  }

  /** drawButtons shows what can be done with the run now; nothing, in a tab that only watches it. */
  function drawButtons(counts, s, readOnly) {
    const running = controller.running();
    // A paused run with no Runner in this tab (reopened, imported) has nothing to cancel.
    const stopped = s === RunState.IDLE || s === RunState.DONE || s === RunState.CANCELLED || (s === RunState.PAUSED && !running);
    // The same counts as the summary's card: "3 errors" and "undetermined 2".
    const failed = counts.counts.error;
    const undetermined = counts.counts.undetermined;
    pauseBtn.hidden = readOnly || !(s === RunState.RUNNING || s === RunState.OUTAGE);
    const forKey = !readOnly && controller.waitingForKey();
    keyBtn.hidden = !forKey;
    resumeBtn.hidden = forKey || readOnly || !(s === RunState.PAUSED || s === RunState.HELD || (stopped && counts.remaining > 0));
    cancelBtn.hidden = readOnly || !running || !(s === RunState.RUNNING || s === RunState.PAUSED || s === RunState.HELD || s === RunState.OUTAGE);
    retryBtn.hidden = readOnly || !(stopped && failed > 0);
    retryBtn.textContent = `↻ Retry ${fmtInt(failed)} failed row${failed === 1 ? "" : "s"}`;
    askAgainBtn.hidden = readOnly || !(stopped && undetermined > 0);
    askAgainBtn.textContent = `↻ Ask again for ${fmtInt(undetermined)} undetermined row${undetermined === 1 ? "" : "s"}`;
    readOnlyNote.hidden = !readOnly;
    // A report is of a run that stands still: finished, paused or stopped.
    reportBtn.hidden = s === RunState.RUNNING || s === RunState.OUTAGE;
  }

  /** downloadReport saves the open run as one self-contained HTML file (report/, loaded on the first click). */
  async function downloadReport() {
    if (!controller.current) return;
    reportMsg.textContent = "Making the report…";
    try {
      const [{ batchReport }, { save }] = await Promise.all([import("./runreport.js"), import("../report/download.js")]);
      const report = save(await batchReport({ controller, state, rj }));
      reportMsg.textContent = `Report saved as ${report.name} (${fmtInt(Math.ceil(report.bytes / 1024))} KB).`;
    } catch (e) {
      reportMsg.textContent = "✗ The report could not be made: " + (e instanceof Error ? e.message : String(e));
    }
  }

  // ---- what the view draws from the controller's signals (runcontroller.js) ------------------
  onChange(() => controller.opened.value, (opened) => {
    if (!opened) {
      runCard.hidden = true;
      setup.card.open = true;
      return;
    }
    const cur = /** @type {import("./openrun.js").OpenRun} */ (controller.current);
    const run = cur.run;
    runCard.hidden = false;
    delete runCard.dataset.state; // until the first draw of this run says otherwise
    setup.card.open = false;
    runTitle.textContent = `${run.name} · ${cur.ev.title || cur.ev.id}`;
    const judged =
      (run.settings.repeats > 1 ? ` · each row judged ${run.settings.repeats} times` + (typeof run.settings.params.temperature === "number" ? ` at temperature ${run.settings.params.temperature}` : "") : "") +
      (run.settings.orders === 2 ? " · in both orders" : "");
    runSub.textContent = `${fmtInt(run.total)} ${isCheckup(run) ? "cases" : "rows"} · model ${run.settings.model} ${run.settings.where ? "(" + run.settings.where + ")" : ""}${judged} · started ${new Date(run.createdAt).toLocaleString()}`;
    replace(usedEl, usedEvaluator(run, cur.ev));
    table.reset();
    update(true);
  });
  // Rows stream in: drawn at most every DRAW_EVERY_MS; the run's state changed: drawn at once.
  onChange(() => controller.counted.value, () => update(false));
  onChange(() => controller.turned.value, () => update(true));
  effect(() => {
    liveLine.textContent = controller.message.value;
  });
  onChange(() => controller.runs.value, () => {
    runsList.draw();
    comparison.refresh();
  });
  onChange(() => controller.protocol.value, () => setup.drawConcurrencyHint());
  onChange(() => controller.ended.value, (detail) => {
    if (!detail) return;
    if (controller.current && controller.current.run.id === detail.runId) {
      forceNext = true;
      draw(); // the end of a run is shown without waiting for a frame
    }
    setup.drawCacheInfo();
    root.dispatchEvent(new CustomEvent("batch-run-end", { detail }));
  });
  onChange(() => state.get("batch"), () => update(true)); // threshold and prices change statuses and costs

  async function startNew() {
    setup.say("");
    const s = setup.current();
    if (!s) return;
    const err = await controller.startNew(s);
    if (err) setup.say("✗ " + err);
    else runCard.scrollIntoView({ block: "start" });
  }

  /** checkupOf is what a JSON export says of a check-up: its record and its matrix now. */
  function checkupOf(run) {
    const g = checkupRun.grades();
    return g ? { ...run.checkup, matrix: g.matrix, pending: g.pending, errors: g.errors } : undefined;
  }

  function exportRun(fmt) {
    const cur = controller.current;
    if (!cur) return;
    const p = prefsOf(state);
    const th = thresholdOf(p);
    const base = cur.run.name.replace(/\.[^.]+$/, "").replace(/[^\w.-]+/g, "_") + "-" + cur.run.evaluator;
    const run = { id: cur.run.id, name: cur.run.name, evaluator: cur.run.evaluator, evaluatorSpec: cur.run.evaluatorSpec, mapping: cur.run.mapping, model: cur.run.settings.model, ...(cur.run.settings.judges ? { judges: cur.run.settings.judges, jury: cur.run.settings.jury } : {}), params: cur.run.settings.params, repeats: cur.run.settings.repeats || 1, orders: cur.run.settings.orders || 1, checkup: checkupOf(cur.run), createdAt: new Date(cur.run.createdAt).toISOString() };
    const inputNames = (cur.ev.inputs || []).map((i) => i.name);
    const columns = Array.isArray(cur.run.columns) ? cur.run.columns : null; // the dataset's own column order
    // The human label and whether the judge agrees with it; a check-up case's failure mode and outcome; a row's exchanged order.
    const extra = mergeExtra(agreement.exportFields(), checkupRun.exportFields(), ordersExportFields(cur.run, cur.results, cur.items), juryExportFields(cur.run, cur.results, th));
    if (fmt === "jsonl") download(base + ".jsonl", toJSONL(cur.items, cur.results, { threshold: th, columns, extra }), "application/x-ndjson");
    else if (fmt === "csv") download(base + ".csv", toCSV(cur.items, cur.results, { threshold: th, inputNames: inputNames.length ? inputNames : null, columns, extra }), "text/csv");
    else download(base + ".json", toJSON(cur.items, cur.results, { threshold: th, run: { ...run, label: cur.run.label || null }, columns, extra, summary: aggregate(cur.results, cur.run.total, { threshold: th, priceIn: p.priceIn, priceOut: p.priceOut }) }), "application/json");
  }

  root.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && setup.ready()) {
      e.preventDefault();
      startNew();
    }
  });

  // ---- start: saved runs, and a run that was going when the page was left resumes -----------
  // The call worker takes a while to start (its modules load over the network): started now, it
  // is ready long before a dataset is loaded and mapped.
  controller.calls();
  // Opening a run draws its verdicts: the engine's work. Without an engine, there is nothing to
  // reopen (the page says why).
  if (!(await engine.whenReady())) return publicAPI();
  await runsList.draw();
  comparison.refresh();
  const runs = await store.listRuns();
  const interrupted = runs.find((r) => r.state === RunState.RUNNING);
  if (interrupted) await controller.open(interrupted.id, { start: true });
  else if (runs.length) await controller.open(runs[0].id);
  setup.drawConcurrencyHint();
  return publicAPI();

  function publicAPI() {
    return {
      loadText: setup.loadText,
      openRun: (/** @type {string} */ id, /** @type {any} */ opts) => controller.open(id, opts),
      get current() {
        return controller.current;
      },
    };
  }
}
