// batchfileview.js: "Export as batch file" and "Import batch results" in the Batch view's setup
// card, and the import's report in the run card. Both act on what is set up (the dataset as
// mapped, the evaluator, the model settings): the export writes those rows' requests, the import
// reads a batch output file for the same requests into a stored run like any other (summary,
// table, exports, reopened after a reload). The work is batchfileio.js's; this draws it.

import { h, replace, uid } from "../lib/dom.js";
import { exportBatch, importBatch, storeRun, cacheAnswers } from "./batchfileio.js";
import { requestSettings } from "./endpoint.js";
import { juryChoice } from "./judges.js";
import { judgeOf } from "./buildrunner.js";
import { newRun } from "./runrecords.js";
import { yieldToLoop } from "./turns.js";
import { runSettings } from "./repeatopts.js";
import { setupLine, plannedRequest } from "./setupline.js";
import { prefsOf } from "./prefs.js";
import { runLabel } from "../stats/labels.js";
import { fmtInt } from "../lib/format.js";
import { onChange } from "../lib/store.js";

/** OPENAI_MAX_REQUESTS and OPENAI_MAX_BYTES: what OpenAI's Batch API takes in one input file. */
const OPENAI_MAX_REQUESTS = 50_000;
const OPENAI_MAX_BYTES = 200 * 1024 * 1024;
/** REPORT_KEEP: the problems of each kind kept on the run's record and listed (the counts are all). */
const REPORT_KEEP = 100;

const PHASES = { render: "Rendering the requests", write: "Writing the file", read: "Reading the output", cache: "Keeping the answers in the local cache", store: "Storing the run" };

/**
 * mountBatchFile builds the batch file controls. setup is setup.js's (current() is what is set
 * up); controller is runcontroller.js's (the imported run is opened in it).
 * @param {{rj: Object, state: import("../shell/state.js").State, store: any, controller: import("./runcontroller.js").RunController,
 *   setup: {current: () => any}}} ctx
 * @returns {{el: HTMLElement, reportEl: HTMLElement, setReady: (ready: boolean) => void, drawPlan: (p: {rows: number, plan: import("./setupline.js").Plan | null}) => void}}
 */
export function mountBatchFile({ rj, state, store, controller, setup }) {
  let busy = false;
  let ready = false;
  let stopped = false;
  const exportBtn = h("button", { type: "button", class: "btn", text: "⤓ Export as batch file", dataset: { ref: "batch-export-batchfile" }, disabled: true, on: { click: () => run(doExport) } });
  const fileInput = h("input", {
    type: "file",
    id: uid("bbatch"),
    class: "offscreen",
    multiple: true,
    accept: ".jsonl,.ndjson,application/jsonl,application/x-ndjson",
    dataset: { ref: "batch-import-file" },
    attrs: { "aria-label": "Import batch results: the output file, and its error file" },
    on: {
      change: () => {
        const files = [...(fileInput.files || [])];
        fileInput.value = "";
        if (files.length) run(() => doImport(files));
      },
    },
  });
  const importBtn = h("button", {
    type: "button",
    class: "btn",
    text: "⇪ Import batch results",
    dataset: { ref: "batch-import-batchfile" },
    disabled: true,
    on: { click: () => fileInput.click() },
  });
  const stopBtn = h("button", { type: "button", class: "btn btn-small btn-stop", text: "■ Stop", dataset: { ref: "batchfile-stop" }, hidden: true, on: { click: () => (stopped = true) } });
  const bar = h("progress", { class: "batchfile-progress", max: 1, value: 0, dataset: { ref: "batchfile-progress" }, hidden: true, attrs: { "aria-label": "Batch file progress" } });
  const msg = h("div", { class: "batch-msg", dataset: { ref: "batchfile-msg" }, attrs: { role: "status", "aria-live": "polite" } });
  // What the exported file asks, as the live run's setup line says it (the same settings go in every line's body).
  const planEl = h("p", { class: "setup-line", dataset: { ref: "batchfile-setup-line" } });
  const el = h(
    "div",
    { class: "batchfile", dataset: { ref: "batchfile" } },
    h("h3", { class: "sub-title", text: "Batch file (OpenAI Batch API, Azure OpenAI, vLLM run-batch)" }),
    h("p", {
      class: "hint",
      text: "For a dataset too large for a tab, or to pay half price: export the requests as one file, run it with your provider's batch service, then import its output file (choose its error file too, if there is one). Import with the same dataset, evaluator, mapping, model and run options (repeats, temperature) as the export.",
    }),
    planEl,
    h("div", { class: "run-row" }, exportBtn, importBtn, fileInput, stopBtn, bar),
    msg,
  );
  const reportEl = h("details", { class: "batchfile-report", dataset: { ref: "batchfile-report" }, hidden: true });

  /** drawPlan says what the file of what is set up would hold (setup.js onPlan). */
  function drawPlan({ rows, plan }) {
    planEl.textContent = plan && rows ? "The file: " + setupLine({ rows, plan, unit: "request" }) : "";
    // A batch file goes to one provider: a jury set up runs live; the file holds judge 1's requests, and its import is a run of that judge.
    if (planEl.textContent && juryChoice(prefsOf(state)).judges.length) planEl.textContent += ". Judge 1's requests only: a batch file goes to one provider, so a jury runs live.";
  }

  function setReady(r) {
    ready = r;
    exportBtn.disabled = importBtn.disabled = busy || !ready;
  }

  function say(text, kind = "") {
    msg.textContent = text;
    msg.className = "batch-msg" + (kind ? " msg-" + kind : "");
  }

  function onProgress(p) {
    bar.hidden = false;
    // Once the run is being stored it is finished whole: a half-stored run would only confuse.
    if (p.phase === "store") stopBtn.hidden = true;
    bar.value = p.total ? p.done / p.total : 0;
    const of = p.phase === "read" ? `${Math.round((100 * p.done) / Math.max(1, p.total))}%` : `${fmtInt(p.done)} of ${fmtInt(p.total)}`;
    say(`${PHASES[p.phase] || p.phase}… ${of}`);
  }

  /** run does one export or import, the buttons disabled and Stop shown meanwhile. */
  async function run(fn) {
    if (busy) return;
    busy = true;
    stopped = false;
    setReady(ready);
    stopBtn.hidden = false;
    try {
      await fn();
    } catch (e) {
      const m = String((e && /** @type {any} */ (e).message) || e);
      say(m === STOPPED ? "Stopped: nothing was written." : "✗ " + m, m === STOPPED ? "" : "error");
    } finally {
      busy = false;
      stopBtn.hidden = true;
      bar.hidden = true;
      setReady(ready);
    }
  }

  const STOPPED = "stopped by the user";
  const yieldFn = async () => {
    await yieldToLoop();
    if (stopped) throw new Error(STOPPED);
  };

  /** spec is what is set up, as exportBatch and importBatch take it; a string says why there is none. */
  function spec() {
    const s = setup.current();
    if (!s) return "Load a dataset and map its columns first.";
    // The run options' repeats and temperature, as a live run of what is set up would take them.
    const plan = plannedRequest(state.get("settings") || {}, prefsOf(state));
    if (!plan) return "Set a model in Model settings first: it goes in every request (for Azure OpenAI, the deployment name).";
    const settings = runSettings({ request: { endpoint: "", model: plan.model, params: plan.params }, where: "batch file" }, prefsOf(state));
    const request = { model: settings.model, params: settings.params };
    return { s, settings, request, repeats: settings.repeats, judge: judgeOf(rj, s.ev), evaluatorId: s.ev.id, items: s.items, onProgress, yieldFn };
  }

  async function doExport() {
    const sp = spec();
    if (typeof sp === "string") return say("✗ " + sp, "error");
    const ex = await exportBatch(sp);
    const name = sp.s.name.replace(/\.[^.]+$/, "").replace(/[^\w.-]+/g, "_") + "-" + sp.evaluatorId + ".batch.jsonl";
    downloadBlob(name, ex.blob);
    const left = ex.errors.size;
    const notes = [];
    if (left) notes.push(`${fmtInt(left)} row${left === 1 ? "" : "s"} with problems left out (listed above): ${left === 1 ? "it is an error" : "they are errors"} in the imported run.`);
    const tooBig = ex.lines > OPENAI_MAX_REQUESTS || ex.blob.size > OPENAI_MAX_BYTES;
    if (tooBig) notes.push(`OpenAI's Batch API takes at most ${fmtInt(OPENAI_MAX_REQUESTS)} requests and 200 MB in one file: split it (each part a batch of its own; import all their output files together), or run it with vLLM run-batch.`);
    const each = sp.repeats > 1 ? ` (each row ${sp.repeats} times)` : "";
    say(`✓ Wrote ${name}: ${fmtInt(ex.lines)} requests${each} for model ${sp.request.model}, ${fmtMB(ex.blob.size)} (export rj:${ex.hash}). ` + notes.join(" "), tooBig ? "warning" : "");
    msg.dataset.hash = ex.hash;
    msg.dataset.lines = String(ex.lines);
  }

  /** @param {File[]} files */
  async function doImport(files) {
    const sp = spec();
    if (typeof sp === "string") return say("✗ " + sp, "error");
    const s = sp.s;
    // The record a live run of what is set up would have (runcontroller.js startNew: keep the two in step),
    // with the batch file's settings; a custom evaluator's definition is kept as custom/ keeps it.
    const run = newRun(
      {
        name: s.name,
        evaluator: s.ev.id,
        evaluatorSpec: s.ev.custom ? s.ev.spec : undefined,
        mapping: s.mapping,
        label: runLabel(s.label, s.labelYes),
        columns: s.table.columns,
        readErrors: (s.table.errors || []).slice(0, 200),
        settings: sp.settings,
      },
      s.items,
    );
    // The output file may be chosen before or after the error file: the output file is read first.
    const ordered = [...files].sort((a, b) => Number(/error/i.test(a.name)) - Number(/error/i.test(b.name)));
    // The answers bought go in the request cache, under the keys a live call here would use: a
    // Resume or a retry of this run then pays only for what the file did not answer.
    const live = requestSettings(state);
    const noCache = !prefsOf(state).useCache ? " The answers were not put in the local cache (it is turned off in Run options)." : live.error ? " The answers were not put in the local cache: no endpoint is set in Model settings, so Resume would ask for them again." : "";
    const im = await importBatch({ ...sp, runId: run.id, files: ordered, keepBodies: !noCache });
    if (im.refusal) return say("✗ " + im.refusal, "error");
    run.batch = { hash: im.hash, files: ordered.map((f) => f.name), importedAt: Date.now(), report: keptReport(im.report) };
    const cacheNote = im.answered.length ? noCache : "";
    if (im.answered.length && !noCache) await cacheAnswers({ store, judge: sp.judge, items: s.items, request: { endpoint: /** @type {{endpoint: string}} */ (live.request).endpoint, model: sp.request.model, params: sp.request.params }, answered: im.answered, bodies: im.bodies, onProgress, yieldFn });
    const stored = await storeRun({ store, run, items: s.items, results: im.results, onProgress, yieldFn: yieldToLoop });
    say(`✓ Imported ${ordered.map((f) => f.name).join(" and ")}: ${reportLine(stored.batch.report)}` + cacheNote, problems(stored.batch.report) || cacheNote ? "warning" : "");
    controller.runsChanged();
    // Opened from memory: reading 100,000 rows back from the store would only cost time.
    await controller.open(stored.id, { loaded: { run: stored, items: s.items, results: im.results } });
  }

  // The report of an imported run is drawn under its progress line whenever it is opened.
  onChange(() => controller.opened.value, (opened) => {
    if (!opened) return;
    const c = controller.current;
    const rep = c && c.run.batch && c.run.batch.report;
    reportEl.hidden = !rep;
    if (rep) drawReport(reportEl, rep, c.run.batch.files || []);
  });

  return { el, reportEl, setReady, drawPlan };
}

/**
 * keptReport is the report as the run's record keeps it: every count, the first REPORT_KEEP problems of each kind.
 * @param {import("./batchmatch.js").MatchReport} r
 */
export function keptReport(r) {
  const keep = (list) => list.slice(0, REPORT_KEEP);
  return {
    lines: r.lines,
    matched: r.matched,
    answered: r.answered,
    counts: { failed: r.failed.length, duplicate: r.duplicate.length, unknown: r.unknown.length, malformed: r.malformed.length, missing: r.missing.length },
    failed: keep(r.failed),
    duplicate: keep(r.duplicate),
    unknown: keep(r.unknown),
    malformed: keep(r.malformed),
    missing: keep(r.missing).map((i) => i + 1),
  };
}

/** problems counts the lines and rows of a kept report that did not become an answer. */
function problems(rep) {
  const c = rep.counts;
  return c.failed + c.duplicate + c.unknown + c.malformed + c.missing;
}

/** reportLine says a kept report in one sentence. */
export function reportLine(rep) {
  const c = rep.counts;
  const parts = [`${fmtInt(rep.answered)} answered`];
  if (c.failed) parts.push(`${fmtInt(c.failed)} failed`);
  if (c.missing) parts.push(`${fmtInt(c.missing)} row${c.missing === 1 ? "" : "s"} missing (Resume judges ${c.missing === 1 ? "it" : "them"} live)`);
  if (c.duplicate) parts.push(`${fmtInt(c.duplicate)} duplicate`);
  if (c.unknown) parts.push(`${fmtInt(c.unknown)} unknown custom_id${c.unknown === 1 ? "" : "s"}`);
  if (c.malformed) parts.push(`${fmtInt(c.malformed)} malformed line${c.malformed === 1 ? "" : "s"}`);
  return parts.join(", ") + ".";
}

const KINDS = [
  ["failed", "Lines without an answer (their rows are errors)"],
  ["missing", "Rows no line answered (still to judge)"],
  ["duplicate", "Duplicate custom_ids"],
  ["unknown", "Unknown custom_ids (ignored)"],
  ["malformed", "Malformed lines (ignored)"],
];

/** drawReport lists a kept report's problems by kind, each with where it is. */
function drawReport(el, rep, files) {
  const lists = KINDS.filter(([k]) => rep.counts[k] > 0).map(([k, title]) => {
    const items = rep[k].map((p) => h("li", { text: typeof p === "number" ? `row ${p}` : `${p.where}${p.customId ? " " + p.customId : ""}: ${p.message}` }));
    const more = rep.counts[k] - rep[k].length;
    return h("div", { dataset: { ref: "batchfile-report-" + k } }, h("h4", { text: `${title}: ${fmtInt(rep.counts[k])}` }), h("ul", {}, items, more > 0 ? h("li", { text: `…and ${fmtInt(more)} more` }) : null));
  });
  replace(el, h("summary", { text: `Imported from a batch file (${files.join(", ")}): ${reportLine(rep)}` }), lists.length ? lists : h("p", { class: "hint", text: "Every exported row was answered once." }));
}

/** downloadBlob saves blob as name (a Blob built from parts: never one giant string). */
function downloadBlob(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { download: name, rel: "noopener" });
  a.setAttribute("href", url);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** fmtMB is a size in bytes as "12.3 MB" (or KB under one MB). */
function fmtMB(n) {
  return n >= 1 << 20 ? (n / (1 << 20)).toFixed(1) + " MB" : Math.max(1, Math.round(n / 1024)) + " KB";
}
