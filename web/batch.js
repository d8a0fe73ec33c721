// batch.js: the Batch view. Load a dataset (picker or drop), choose the evaluator, check the
// detected column mapping and a preview with each row's problems, see an estimate of calls and
// tokens, then run every row through the judge with bounded concurrency, a progress bar, pause,
// resume and cancel. Finished rows are stored in IndexedDB as they complete, so a reload shows
// them and resumes the rest; results are summarised (pass rate, mean score, causes, histogram),
// listed in a virtualized table whose rows open the same verdict view as Evaluate, and exported
// as JSONL, CSV or JSON. The engine lives in web/batch/ (pure modules, tested in Node).
//
// app.js calls mount(root, {rj, state, renderVerdict, h, ...}). Untrusted text (dataset cells,
// judge answers) is only ever set as textContent.

import { h, replace, uid, badge, debounce } from "./dom.js";
import { Runner, yieldToLoop } from "./batch/engine.js";
import { openStore } from "./batch/store.js";
import { newRun, saveRun, loadRun, todoIndices } from "./batch/runs.js";
import { detectMapping, prepareItemsAsync } from "./batch/mapping.js";
import { statusOf, causeOf, reasonOf, STATUSES } from "./batch/status.js";
import { aggregate, estimateTokens, messagesChars } from "./batch/aggregate.js";
import { toJSONL, toJSON, toCSV } from "./batch/export.js";
import { histogramSVG } from "./batch/chart.js";
import { VTable } from "./batch/vtable.js";
import { DEFAULT_POLICY } from "./batch/http.js";
import { startCallWorker } from "./batch/calls.js";
import { socketURL } from "./batch/socket.js";

const PREFS = {
  evaluator: "",
  concurrency: 8,
  useCache: true,
  priceIn: "",
  priceOut: "",
  threshold: "",
  timeoutS: DEFAULT_POLICY.timeoutMs / 1000,
  attempts: DEFAULT_POLICY.maxAttempts,
};

const WORDS = {
  passed: { icon: "✓", word: "Passed", cls: "state-pass" },
  failed: { icon: "✗", word: "Failed", cls: "state-fail" },
  scored: { icon: "◆", word: "Scored", cls: "state-scored" },
  undetermined: { icon: "?", word: "Undetermined", cls: "state-undetermined" },
  error: { icon: "!", word: "Error", cls: "state-error" },
  pending: { icon: "…", word: "Not run yet", cls: "state-pending" },
};

// The verdict words of each evaluator, as the single-evaluation view uses them (verdicts.js).
const VERDICT_WORDS = {
  "claim-groundedness": ["Grounded", "Not grounded"],
  "answer-grounding": ["Grounded", "Not grounded"],
  "pairwise-faithfulness": ["Faithful", "Not faithful"],
  "rag-recall": ["Meets threshold", "Below threshold"],
};

function wordFor(status, evaluatorId) {
  const w = VERDICT_WORDS[evaluatorId];
  if (w && status === "passed") return w[0];
  if (w && status === "failed") return w[1];
  return (WORDS[status] || WORDS.pending).word;
}

const FILTERS = [
  ["all", "All"],
  ["passed", "✓ Passed"],
  ["failed", "✗ Failed"],
  ["undetermined", "? Undetermined"],
  ["error", "! Errors"],
  ["scored", "◆ Scored"],
  ["pending", "… Not run"],
];

const ROW_H = 40;
const PREVIEW_ROWS = 8;

function ensureStylesheet() {
  if (document.querySelector('link[data-ref="batch-css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./batch/batch.css", import.meta.url).href;
  link.dataset.ref = "batch-css";
  document.head.append(link);
}

function fmtNum(n, digits = 2) {
  if (typeof n !== "number" || !Number.isFinite(n)) return "–";
  return String(Math.round(n * 10 ** digits) / 10 ** digits);
}

function fmtInt(n) {
  return Number(n || 0).toLocaleString("en-US");
}

function fmtDuration(s) {
  if (!Number.isFinite(s) || s < 0) return "–";
  if (s < 60) return Math.ceil(s) + " s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + " min " + Math.round(s - m * 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}

function fmtMoney(x) {
  if (x === null || !Number.isFinite(x)) return "";
  return "$" + (x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2));
}

function clip(s, n) {
  s = String(s ?? "").replace(/\s+/g, " ").trim();
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

function cellText(v) {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

function stateBadge(status, cause, evaluatorId) {
  const w = WORDS[status] || WORDS.pending;
  let text = wordFor(status, evaluatorId);
  if ((status === "undetermined" || status === "error") && cause) text += " — " + cause;
  return h(
    "span",
    { class: `badge badge-small ${w.cls}`, dataset: { state: status } },
    h("span", { class: "badge-icon", text: w.icon, attrs: { "aria-hidden": "true" } }),
    h("span", { class: "badge-word", text }),
  );
}

function download(name, text, type) {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** mount builds the Batch view into root. ctx: {rj, state, renderVerdict}. */
export async function mount(root, ctx) {
  ensureStylesheet();
  const { rj, state, renderVerdict } = ctx;
  const evaluators = rj.evaluators();
  const byID = new Map(evaluators.map((e) => [e.id, e]));
  const prefs = { ...PREFS, ...(state.get("batch") || {}) };
  if (!byID.has(prefs.evaluator)) prefs.evaluator = evaluators[0].id;
  const savePrefs = debounce(() => state.set({ batch: { ...prefs } }), 300);
  const store = await openStore();

  // ---- setup: the file, evaluator, mapping, preview, estimate ----------------------------
  let setup = null; // {name, table, mapping, items, gen}
  let gen = 0;

  const fileInput = h("input", {
    type: "file",
    id: uid("bfile"),
    class: "offscreen",
    accept: ".jsonl,.json,.csv,.ndjson,.txt,application/json,text/csv",
    dataset: { ref: "batch-file" },
    on: { change: () => fileInput.files[0] && loadFile(fileInput.files[0]) },
  });
  const drop = h(
    "label",
    { class: "drop", htmlFor: fileInput.id, dataset: { ref: "batch-drop" }, tabIndex: 0 },
    h("span", { class: "drop-icon", text: "⇪", attrs: { "aria-hidden": "true" } }),
    h("strong", { text: "Choose a dataset" }),
    h("span", { text: " or drop it here: JSONL, JSON or CSV (RAGAS, promptfoo vars or this tool's input names)." }),
  );
  drop.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      fileInput.click();
    }
  });
  for (const ev of ["dragenter", "dragover"]) {
    drop.addEventListener(ev, (e) => {
      e.preventDefault();
      drop.classList.add("drop-over");
    });
  }
  for (const ev of ["dragleave", "drop"]) drop.addEventListener(ev, () => drop.classList.remove("drop-over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) loadFile(f);
  });
  const fileMsg = h("div", { class: "batch-msg", dataset: { ref: "batch-file-msg" }, attrs: { role: "status", "aria-live": "polite" } });

  const evSelect = h(
    "select",
    { class: "input", id: uid("bev"), dataset: { ref: "batch-evaluator" }, on: { change: () => chooseEvaluator(evSelect.value) } },
    evaluators.map((e) => h("option", { value: e.id, text: e.title || e.id })),
  );
  evSelect.value = prefs.evaluator;
  const mappingEl = h("div", { class: "mapping", dataset: { ref: "batch-mapping" } });
  const previewEl = h("div", { class: "preview", dataset: { ref: "batch-preview" } });
  const problemsEl = h("div", { class: "problems", dataset: { ref: "batch-problems" } });

  const num = (ref, value, attrs, onChange) =>
    h("input", { type: "number", class: "input narrow", value: String(value), dataset: { ref }, attrs, on: { change: (e) => onChange(e.target.value) } });
  const concurrencyIn = num("batch-concurrency", prefs.concurrency, { min: 1, max: 64, step: 1 }, (v) => {
    prefs.concurrency = Math.max(1, Math.min(64, Math.round(Number(v)) || 8));
    concurrencyIn.value = String(prefs.concurrency);
    savePrefs();
    if (cur && cur.runner) cur.runner.setConcurrency(prefs.concurrency);
  });
  // A browser keeps at most 6 HTTP/1.1 connections to one host, and the dev server speaks HTTP/1.1.
  const concurrencyHint = h("div", { class: "hint", dataset: { ref: "batch-concurrency-hint" } });
  /** callsSocket is the dev server's calls socket URL when the calls go through one that has it. */
  function callsSocket() {
    const cfg = state.config;
    if (state.endpoint().mode !== "proxy" || !cfg || typeof cfg.calls !== "string" || typeof WebSocket !== "function") return undefined;
    return socketURL(cfg.calls, location.href);
  }

  function drawConcurrencyHint() {
    const capped = state.endpoint().mode === "proxy" && !callsSocket();
    concurrencyHint.textContent = capped && prefs.concurrency > 6 ? "Through this dev server at most 6 calls are in flight (a browser's HTTP/1.1 limit per host; a newer dev server lifts it)." : "";
  }
  concurrencyIn.addEventListener("change", drawConcurrencyHint);
  const timeoutIn = num("batch-timeout", prefs.timeoutS, { min: 1, max: 600, step: 1 }, (v) => {
    prefs.timeoutS = Math.max(1, Math.min(600, Number(v) || 60));
    savePrefs();
  });
  const attemptsIn = num("batch-attempts", prefs.attempts, { min: 1, max: 10, step: 1 }, (v) => {
    prefs.attempts = Math.max(1, Math.min(10, Math.round(Number(v)) || 5));
    savePrefs();
  });
  const priceInIn = num("batch-price-in", prefs.priceIn, { min: 0, step: "any", placeholder: "$ / 1M" }, (v) => {
    prefs.priceIn = v;
    savePrefs();
    drawEstimate();
    update(true);
  });
  const priceOutIn = num("batch-price-out", prefs.priceOut, { min: 0, step: "any", placeholder: "$ / 1M" }, (v) => {
    prefs.priceOut = v;
    savePrefs();
    drawEstimate();
    update(true);
  });
  const cacheBox = h("input", {
    type: "checkbox",
    id: uid("bcache"),
    checked: prefs.useCache,
    dataset: { ref: "batch-use-cache" },
    on: { change: () => ((prefs.useCache = cacheBox.checked), savePrefs()) },
  });
  const cacheInfo = h("span", { class: "hint", dataset: { ref: "batch-cache-count" } });
  const clearCacheBtn = h("button", {
    type: "button",
    class: "btn btn-small btn-ghost",
    text: "Clear cache",
    dataset: { ref: "batch-clear-cache" },
    on: {
      click: async () => {
        await store.cacheClear();
        drawCacheInfo();
      },
    },
  });
  const estimateEl = h("p", { class: "estimate", dataset: { ref: "batch-estimate" }, attrs: { "aria-live": "polite" } });
  const runBtn = h("button", { type: "button", class: "btn btn-primary", text: "▶ Run batch", dataset: { ref: "batch-run" }, disabled: true, on: { click: () => startNewRun() } });
  const runMsg = h("div", { class: "batch-msg", dataset: { ref: "batch-run-msg" }, attrs: { role: "alert" } });

  const field = (label, control, hint) => {
    if (!control.id) control.id = uid("bf");
    return h("div", { class: "field" }, h("label", { htmlFor: control.id, text: label }), control, hint ? h("div", { class: "hint", text: hint }) : null);
  };

  const setupCard = h(
    "details",
    { class: "card batch-setup", dataset: { ref: "batch-setup" }, open: true },
    h("summary", { class: "setup-summary", dataset: { ref: "batch-new" } }, h("h2", { class: "card-title", text: "New batch run" })),
    h("p", { class: "desc", text: "Judge every row of a dataset with one evaluator. Finished rows are kept in this browser, so a reload or a flaky endpoint loses nothing." }),
    fileInput,
    drop,
    fileMsg,
    h("div", { class: "batch-grid" }, field("Evaluator", evSelect)),
    h("h3", { class: "sub-title", text: "Columns → inputs" }),
    mappingEl,
    h("h3", { class: "sub-title", text: "Preview" }),
    problemsEl,
    previewEl,
    h(
      "details",
      { class: "batch-options", open: true },
      h("summary", { text: "Run options" }),
      h(
        "div",
        { class: "batch-grid" },
        h("div", { class: "field" }, h("label", { htmlFor: (concurrencyIn.id = uid("bf")), text: "Concurrent calls" }), concurrencyIn, concurrencyHint),
        field("Timeout per call (s)", timeoutIn),
        field("Attempts per call", attemptsIn, "retries on 429, 5xx, network errors and timeouts, with backoff"),
        field("Price per 1M input tokens", priceInIn),
        field("Price per 1M output tokens", priceOutIn),
      ),
      h("div", { class: "check" }, cacheBox, h("label", { htmlFor: cacheBox.id, text: "Answer identical requests from the local cache (untick to bypass it)" }), " ", cacheInfo, clearCacheBtn),
    ),
    estimateEl,
    h("div", { class: "run-row" }, runBtn, runMsg),
  );

  // ---- the open run: progress, summary, table, export -----------------------------------
  let cur = null; // {run, ev, items, results, runner, doneTimes, startedAt, filter, view}
  const runTitle = h("h2", { class: "card-title", dataset: { ref: "batch-run-title" } });
  const runSub = h("p", { class: "hint", dataset: { ref: "batch-run-sub" } });
  const bar = h("div", { class: "pbar", attrs: { role: "progressbar", "aria-valuemin": "0", "aria-valuemax": "100", "aria-label": "Rows finished" }, dataset: { ref: "batch-progress" } });
  const barOK = h("div", { class: "pbar-ok" });
  const barBad = h("div", { class: "pbar-bad" });
  bar.append(barOK, barBad);
  const progText = h("div", { class: "prog-text", dataset: { ref: "batch-progress-text" }, attrs: { "aria-live": "off" } });
  const liveLine = h("div", { class: "hint live-line", dataset: { ref: "batch-live" }, attrs: { role: "status" } });
  const pauseBtn = h("button", { type: "button", class: "btn", text: "❚❚ Pause", dataset: { ref: "batch-pause" }, on: { click: () => pauseRun() } });
  const resumeBtn = h("button", { type: "button", class: "btn btn-primary", text: "▶ Resume", dataset: { ref: "batch-resume" }, on: { click: () => resumeRun(false) } });
  const cancelBtn = h("button", { type: "button", class: "btn btn-stop", text: "■ Cancel", dataset: { ref: "batch-cancel" }, on: { click: () => cancelRun() } });
  const newBtn = h("button", {
    type: "button",
    class: "btn btn-ghost",
    text: "+ New run",
    dataset: { ref: "batch-new-run" },
    on: {
      click: () => {
        setupCard.open = true;
        setupCard.scrollIntoView({ block: "start" });
        drop.focus();
      },
    },
  });
  const retryBtn = h("button", { type: "button", class: "btn", text: "↻ Retry failed rows", dataset: { ref: "batch-retry-failed" }, on: { click: () => resumeRun(true) } });
  const exportBtns = [
    ["jsonl", "JSONL"],
    ["csv", "CSV"],
    ["json", "JSON"],
  ].map(([fmt, label]) => h("button", { type: "button", class: "btn btn-small", text: "⤓ " + label, dataset: { ref: "batch-export-" + fmt }, on: { click: () => exportRun(fmt) } }));
  const summaryEl = h("div", { class: "summary", dataset: { ref: "batch-summary" } });
  const thresholdIn = num("batch-threshold", prefs.threshold, { min: 0, step: "any", placeholder: "none" }, (v) => {
    prefs.threshold = v;
    savePrefs();
    update(true);
  });
  const thresholdField = h("div", { class: "threshold", dataset: { ref: "batch-threshold-field" } }, field("Pass when score ≥", thresholdIn, "for evaluators whose verdict is a score (rag-recall)"));
  const filterEl = h("div", { class: "filters", attrs: { role: "radiogroup", "aria-label": "Show rows" }, dataset: { ref: "batch-filters" } });
  const tableHead = h(
    "div",
    { class: "vt-head", attrs: { role: "row" } },
    ["#", "Verdict", "Score", "Input", "Why / note"].map((t) => h("span", { class: "vt-cell", attrs: { role: "columnheader" }, text: t })),
  );
  const viewport = h("div", { class: "vt", dataset: { ref: "batch-table" } });
  const tableCount = h("span", { class: "hint", dataset: { ref: "batch-table-count" } });
  const table = new VTable(viewport, { rowHeight: ROW_H, renderRow: (i, el) => drawRow(i, el), onOpen: (i) => openRow(cur.view[i]), label: "Batch results" });

  const runCard = h(
    "section",
    { class: "card batch-run", dataset: { ref: "batch-run-card" }, hidden: true },
    runTitle,
    runSub,
    bar,
    progText,
    liveLine,
    h("div", { class: "run-row" }, pauseBtn, resumeBtn, cancelBtn, retryBtn, newBtn, h("span", { class: "spacer" }), h("span", { class: "hint", text: "Export every row:" }), exportBtns),
    summaryEl,
    thresholdField,
    h("div", { class: "table-bar" }, filterEl, tableCount),
    h("div", { class: "vt-wrap" }, tableHead, viewport),
  );

  const runsList = h("div", { class: "runs", dataset: { ref: "batch-runs" } });
  const runsCard = h("section", { class: "card batch-runs" }, h("h2", { class: "card-title", text: "Runs in this browser" }), runsList);

  const dialog = h("dialog", { class: "batch-dialog", dataset: { ref: "batch-dialog" }, attrs: { "aria-label": "Row verdict" } });
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) dialog.close();
  });

  const durableNote = store.durable
    ? null
    : h("p", { class: "batch-msg msg-error", text: "This browser refuses local storage (IndexedDB): results will not survive a reload. Export them when the run ends." });

  replace(root, h("div", { class: "batch" }, durableNote, runCard, setupCard, runsCard, dialog));

  // ---- setup logic ------------------------------------------------------------------------

  function evaluator() {
    return byID.get(prefs.evaluator);
  }

  async function loadFile(file) {
    fileMsg.textContent = "Reading " + file.name + "…";
    fileMsg.className = "batch-msg";
    let text;
    try {
      text = await file.text();
    } catch (e) {
      return fail("Could not read " + file.name + ": " + e.message);
    }
    loadText(file.name, text);
  }

  function fail(msg) {
    fileMsg.textContent = "✗ " + msg;
    fileMsg.className = "batch-msg msg-error";
    setup = null;
    runBtn.disabled = true;
    replace(mappingEl);
    replace(previewEl);
    replace(problemsEl);
    estimateEl.textContent = "";
  }

  function loadText(name, text) {
    const lower = name.toLowerCase();
    const format = lower.endsWith(".csv") ? "csv" : lower.endsWith(".jsonl") || lower.endsWith(".ndjson") ? "jsonl" : lower.endsWith(".json") ? "json" : undefined;
    let table;
    try {
      table = rj.readDataset(text, format);
    } catch (e) {
      return fail(name + " could not be read as a dataset: " + (e.detail || e.message));
    }
    if (!table.rows.length) return fail(name + " has no rows that could be read" + (table.errors.length ? ": " + table.errors[0].message + " (line " + table.errors[0].line + ")" : "."));
    setup = { name, table, mapping: {}, items: null };
    const fmt = table.format ? table.format.toUpperCase() : format ? format.toUpperCase() : "";
    fileMsg.className = "batch-msg";
    fileMsg.textContent = `✓ ${name}: ${fmtInt(table.rows.length)} rows${fmt ? " (" + fmt + ")" : ""}, columns ${table.columns.join(", ")}` + (table.errors.length ? `; ${table.errors.length} could not be read (listed below).` : ".");
    chooseEvaluator(prefs.evaluator, true);
    warmUp();
  }

  function chooseEvaluator(id, fresh = false) {
    if (!byID.has(id)) return;
    if (prefs.evaluator !== id) {
      prefs.evaluator = id;
      savePrefs();
    }
    evSelect.value = id;
    if (!setup) return;
    if (fresh || !setup.mappingFor || setup.mappingFor !== id) {
      try {
        setup.mapping = detectMapping(rj, evaluator(), mappable());
      } catch (e) {
        setup.mapping = {};
      }
      setup.mappingFor = id;
    }
    drawMapping();
    remap();
  }

  /** mappable: the columns and the dotted paths into object columns (vars.question) a mapping may name. */
  function mappable() {
    const t = setup.table;
    return t.paths && t.paths.length ? t.paths : t.columns;
  }

  function drawMapping() {
    const ev = evaluator();
    replace(
      mappingEl,
      ev.inputs.map((input) => {
        const sel = h(
          "select",
          {
            class: "input",
            id: uid("bmap"),
            dataset: { ref: "batch-map-" + input.name },
            on: {
              change: () => {
                if (sel.value) setup.mapping[input.name] = sel.value;
                else delete setup.mapping[input.name];
                remap();
              },
            },
          },
          h("option", { value: "", text: input.required ? "— choose a column —" : "(not used)" }),
          mappable().map((c) => h("option", { value: c, text: c })),
        );
        sel.value = setup.mapping[input.name] || "";
        const lab = (input.label || input.name) + (input.required ? "" : " (optional)");
        return h(
          "div",
          { class: "field map-field" + (input.required && !setup.mapping[input.name] ? " map-missing" : "") },
          h("label", { htmlFor: sel.id }, h("span", { text: lab }), " ", h("code", { text: input.name })),
          sel,
        );
      }),
    );
  }

  async function remap() {
    const my = ++gen;
    const ev = evaluator();
    runBtn.disabled = true;
    estimateEl.textContent = "Checking rows…";
    drawMapping();
    const items = await prepareItemsAsync(rj, ev, setup.table.rows, setup.mapping, { yieldFn: yieldToLoop, isStale: () => my !== gen });
    if (!items || my !== gen) return;
    setup.items = items;
    drawPreview();
    await drawEstimate();
  }

  function drawPreview() {
    const ev = evaluator();
    const items = setup.items;
    const bad = [];
    for (let i = 0; i < items.length && bad.length < 50; i++) if (items[i].error) bad.push(items[i].error);
    const nBad = items.filter((x) => x.error).length;
    const noted = [];
    for (let i = 0; i < items.length && noted.length < 50; i++) if (items[i].notes) noted.push(`Row ${i + 1}: ${items[i].notes.join("; ")}`);
    const nNoted = items.filter((x) => x.notes).length;
    const readErrs = setup.table.errors || [];
    replace(
      problemsEl,
      readErrs.length
        ? h(
            "details",
            { class: "problem-list", open: readErrs.length <= 5, dataset: { ref: "batch-read-errors" } },
            h("summary", { text: `⚠ ${readErrs.length} line${readErrs.length === 1 ? "" : "s"} could not be read and will not be judged` }),
            h("ul", {}, readErrs.slice(0, 50).map((e) => h("li", { text: `line ${e.line}: ${e.message}` }))),
          )
        : null,
      nBad
        ? h(
            "details",
            { class: "problem-list", open: nBad <= 5, dataset: { ref: "batch-row-problems" } },
            h("summary", { text: `⚠ ${nBad} row${nBad === 1 ? "" : "s"} cannot be judged with this mapping (they will end as errors)` }),
            h("ul", {}, bad.map((m) => h("li", { text: m }))),
          )
        : h("p", { class: "ok-line", text: `✓ All ${fmtInt(items.length)} rows have the inputs ${ev.id} needs.` }),
      nNoted
        ? h(
            "details",
            { class: "problem-list note-list", dataset: { ref: "batch-row-notes" } },
            h("summary", { text: `ℹ ${nNoted} row${nNoted === 1 ? "" : "s"} read with an adjustment` }),
            h("ul", {}, noted.map((m) => h("li", { text: m }))),
          )
        : null,
    );
    const cols = ev.inputs.map((i) => i.name);
    const head = h("tr", {}, h("th", { text: "#" }), cols.map((c) => h("th", { text: c })), h("th", { text: "Problems" }));
    const body = items.slice(0, PREVIEW_ROWS).map((it, i) =>
      h(
        "tr",
        { class: it.error ? "row-bad" : "" },
        h("td", { text: String(i + 1) }),
        cols.map((c) => h("td", { text: it.inputs ? clip(cellText(it.inputs[c]), 120) : "", attrs: { title: it.inputs ? clip(cellText(it.inputs[c]), 1000) : "" } })),
        h("td", { class: it.error ? "cell-bad" : it.notes ? "cell-note" : "cell-ok", text: it.error ? "✗ " + it.error.replace(/^Row \d+: /, "") : it.notes ? "ℹ " + it.notes.join("; ") : "✓" }),
      ),
    );
    replace(previewEl, h("div", { class: "table-scroll" }, h("table", { class: "ptable" }, h("thead", {}, head), h("tbody", {}, body))), items.length > PREVIEW_ROWS ? h("p", { class: "hint", text: `… and ${fmtInt(items.length - PREVIEW_ROWS)} more rows.` }) : null);
  }

  async function drawEstimate() {
    if (!setup || !setup.items) return;
    const my = gen;
    const ev = evaluator();
    const items = setup.items;
    let chars = 0;
    let ok = 0;
    let renderErr = 0;
    let t = performance.now();
    for (let i = 0; i < items.length; i++) {
      if (items[i].error) continue;
      try {
        chars += messagesChars(rj.render(ev.id, items[i].inputs).messages);
        ok++;
      } catch {
        renderErr++;
      }
      if (performance.now() - t > 12) {
        await yieldToLoop();
        if (my !== gen) return;
        t = performance.now();
      }
    }
    const st = state.get("settings") || {};
    const tokens = estimateTokens(chars);
    const maxOut = Number(st.maxTokens) || 0;
    let text = `About ${fmtInt(ok)} calls and ~${fmtInt(tokens)} input tokens (estimated from the rendered prompts' length at ~4 characters per token)`;
    if (maxOut) text += `, at most ${fmtInt(maxOut * ok)} output tokens (max tokens ${fmtInt(maxOut)} per call)`;
    text += "; an unreadable answer costs one more repair call; cached answers cost nothing.";
    const pin = Number(prefs.priceIn);
    const pout = Number(prefs.priceOut);
    if (prefs.priceIn !== "" && Number.isFinite(pin)) {
      const low = (tokens * pin) / 1e6;
      const high = low + (prefs.priceOut !== "" && Number.isFinite(pout) && maxOut ? (maxOut * ok * pout) / 1e6 : 0);
      text += ` Input cost ≈ ${fmtMoney(low)}` + (high > low ? `, at most ${fmtMoney(high)} with output.` : ".");
    }
    if (renderErr) text += ` ${renderErr} rows fail to render and will end as errors.`;
    // A run in which no row can be judged would only produce errors: say what to map instead.
    runBtn.disabled = ok === 0;
    if (ok === 0) {
      const missing = ev.inputs.filter((i) => i.required && !setup.mapping[i.name]).map((i) => i.name);
      text = missing.length
        ? `No row can be judged yet: choose a column for ${missing.join(", ")} above.`
        : "No row can be judged with this mapping: see the problems above.";
    }
    estimateEl.textContent = text;
  }

  async function drawCacheInfo() {
    try {
      const n = await store.cacheCount();
      cacheInfo.textContent = `${fmtInt(n)} answer${n === 1 ? "" : "s"} cached.`;
    } catch {
      cacheInfo.textContent = "";
    }
  }

  function requestSettings() {
    const ep = state.endpoint();
    if (ep.mode === "manual" || !ep.baseURL) return { error: "Batch runs need a model: open Model settings and choose the dev server or a direct base URL." };
    const st = state.get("settings");
    if (!st.model) return { error: "Set a model in Model settings first." };
    return {
      request: { endpoint: ep.baseURL, model: st.model, params: { temperature: Number(st.temperature) || 0, max_tokens: Number(st.maxTokens) || undefined } },
      where: ep.label,
    };
  }

  async function startNewRun() {
    runMsg.textContent = "";
    if (!setup || !setup.items) return;
    const rs = requestSettings();
    if (rs.error) {
      runMsg.textContent = "✗ " + rs.error;
      return;
    }
    const ev = evaluator();
    const items = setup.items;
    const run = newRun(
      {
        name: setup.name,
        evaluator: ev.id,
        mapping: { ...setup.mapping },
        columns: setup.table.columns,
        readErrors: (setup.table.errors || []).slice(0, 200),
        settings: { ...rs.request, where: rs.where },
      },
      items,
    );
    // This tab's claim on the run is asked for before any other tab can see the run (locks are
    // granted in the order asked), so the run need not wait for it to start.
    const claim = claimRun(run.id);
    // The run starts from memory while its rows are written, so its first calls go out at once;
    // no result is stored before the run and its rows are (resumeRun waits on created).
    const created = saveRun(store, run, items);
    created.then(drawRuns, (e) => {
      runMsg.textContent = "✗ The run could not be stored in this browser, so it was stopped: " + ((e && e.message) || e);
      if (cur && cur.run.id === run.id && cur.runner) cur.runner.cancel();
    });
    await openRun(run.id, { start: true, loaded: { run, items, results: new Array(items.length), created, claim } });
    runCard.scrollIntoView({ block: "start" });
  }

  // ---- run logic -------------------------------------------------------------------------

  /** openRun shows run id (loaded from the store, or given as loaded: {run, items, results, created}) and with start runs it. */
  async function openRun(id, { start = false, loaded = null } = {}) {
    if (cur && cur.runner && (cur.runner.state === "running" || cur.runner.state === "paused")) {
      if (cur.run.id === id) return;
      await pauseRun();
    }
    loaded ||= await loadRun(store, id);
    if (!loaded) return;
    const ev = byID.get(loaded.run.evaluator) || { id: loaded.run.evaluator, inputs: [] };
    cur = { ...loaded, ev, runner: null, doneTimes: [], filter: "all", view: [], agg: null };
    runCard.hidden = false;
    delete runCard.dataset.state; // until the first draw of this run says otherwise
    setupCard.open = false;
    runTitle.textContent = `${loaded.run.name} · ${ev.title || ev.id}`;
    runSub.textContent = `${fmtInt(loaded.run.total)} rows · model ${loaded.run.settings.model} ${loaded.run.settings.where ? "(" + loaded.run.settings.where + ")" : ""} · started ${new Date(loaded.run.createdAt).toLocaleString()}`;
    drawFilters();
    update(true);
    if (start) await resumeRun(false);
    else drawButtons();
  }

  function persistState(s) {
    if (!cur) return;
    cur.run.state = s;
    cur.run.finished = cur.results.filter(Boolean).length;
    const run = cur.run;
    // Never before the run's items are stored (a new run is stored while it starts).
    (cur.created || Promise.resolve()).then(() => store.putRun(run)).then(drawRuns, () => {});
  }

  // The runs' judge calls go out from a worker (calls.js), so that a busy main thread does not keep
  // call slots taken; null (calls made here) where workers fail.
  let callsP = null;
  const warmed = new Set();

  /**
   * warmUp gets ready for a run while the user is still looking at the mapping: it starts the call
   * worker and opens the dev server's calls socket, or for an endpoint on another origin opens the
   * connection to it, so that Run's first calls wait for neither (on loopback about a tenth of a
   * second; over the internet more).
   */
  function warmUp() {
    callsP ||= startCallWorker();
    const socket = callsSocket();
    if (socket) callsP.then((calls) => calls && calls.warm(socket));
    const ep = state.endpoint();
    if (!ep.baseURL) return;
    let url;
    try {
      url = new URL(ep.baseURL, location.href);
    } catch {
      return;
    }
    if (!/^https?:$/.test(url.protocol) || url.origin === location.origin || warmed.has(url.origin)) return;
    warmed.add(url.origin);
    // The user's own endpoint setting, reduced to its origin. Judge calls are CORS requests without
    // credentials, so the connection to warm is an anonymous one.
    const link = document.createElement("link");
    link.rel = "preconnect";
    link.crossOrigin = "anonymous";
    link.href = url.origin;
    document.head.append(link);
  }

  /**
   * claimRun asks for this tab's exclusive claim on run id (one tab runs a given run; a second tab
   * that opens it only watches): resolves to {held, release}. Held until release() is called.
   */
  function claimRun(id) {
    if (!navigator.locks || !navigator.locks.request) return Promise.resolve({ held: true, release() {} });
    return new Promise((resolve) => {
      navigator.locks
        .request("ragjudge-batch-" + id, { ifAvailable: true }, (lock) => {
          if (!lock) return resolve({ held: false, release() {} });
          return new Promise((release) => resolve({ held: true, release }));
        })
        .catch(() => resolve({ held: true, release() {} }));
    });
  }

  async function resumeRun(retryFailed) {
    if (!cur) return;
    if (cur.runner && cur.runner.state === "paused" && !retryFailed) {
      cur.runner.resume();
      persistState("running");
      drawButtons();
      return;
    }
    if (cur.runner && (cur.runner.state === "running" || cur.runner.state === "paused")) return;
    const c = cur;
    // A new run's claim was asked for before the run was stored: the run starts without waiting
    // for it. Otherwise the claim and the worker are asked for at once (each takes a while).
    const fresh = c.claim;
    c.claim = null;
    const claim = fresh || claimRun(c.run.id);
    const calls = await (callsP ||= startCallWorker());
    const lock = fresh ? { held: true, release: () => claim.then((l) => l.release()) } : await claim;
    if (cur !== c || (c.runner && (c.runner.state === "running" || c.runner.state === "paused"))) return lock.release();
    if (!lock.held) {
      liveLine.textContent = "This run is running in another tab.";
      return;
    }
    const threshold = thresholdValue();
    const todo = todoIndices(c.run.total, c.results, { retryFailed, threshold });
    if (!todo.length) {
      lock.release();
      persistState("done");
      drawButtons();
      return;
    }
    const rs = requestSettings();
    if (rs.error) {
      lock.release();
      liveLine.textContent = "✗ " + rs.error;
      persistState("paused");
      drawButtons();
      return;
    }
    const ev = c.ev;
    const runner = new Runner({
      runId: c.run.id,
      items: c.items,
      todo,
      judge: { render: (inputs) => rj.render(ev.id, inputs), parse: (inputs, text) => rj.parse(ev.id, inputs, text) },
      // The run keeps the model and parameters it started with, so resumed rows are judged alike (and hit the cache alike).
      request: { endpoint: rs.request.endpoint, model: c.run.settings.model, params: c.run.settings.params },
      apiKey: () => state.key || undefined, // read at each call: a key entered while paused is used on resume
      concurrency: prefs.concurrency,
      calls,
      // Through the dev server the calls share one WebSocket when it has one: over HTTP/1.1 a
      // browser keeps at most 6 connections to a host, whatever the concurrency.
      socket: callsSocket(),
      cache: store,
      useCache: prefs.useCache,
      readCache: !retryFailed,
      store: c.created ? { putResult: (r) => c.created.then(() => store.putResult(r)), flush: () => store.flush() } : store,
      policy: { timeoutMs: prefs.timeoutS * 1000, maxAttempts: prefs.attempts },
      onResult: (r) => {
        c.results[r.index] = r;
        c.doneTimes.push(performance.now());
        update(false);
      },
      onRetry: (info) => {
        const e = info.error;
        liveLine.textContent = `Row ${info.index + 1}: ${e.kind === "http" ? "HTTP " + e.status : e.kind}, retrying in ${fmtNum(info.delayMs / 1000, 1)} s (attempt ${info.attempt + 1}).`;
      },
      onHold: (e) => {
        liveLine.textContent = "Paused: " + e.message + " Then press Resume.";
        persistState("paused");
        drawButtons();
      },
      onState: () => {
        drawButtons();
        update(true);
      },
    });
    c.runner = runner;
    if (fresh) {
      fresh.then((l) => {
        if (l.held) return;
        runner.cancel(); // another tab had it after all: it runs the run, this one watches
        liveLine.textContent = "This run is running in another tab.";
      });
    }
    c.startedAt = performance.now();
    c.doneTimes = [];
    persistState("running");
    drawButtons();
    liveLine.textContent = retryFailed ? `Retrying ${fmtInt(todo.length)} failed rows, asking the judge again.` : `Running ${fmtInt(todo.length)} rows.`;
    const go = async () => {
      try {
        const end = await runner.start();
        await store.flush();
        if (cur !== c) return;
        persistState(end === "done" ? "done" : "cancelled");
        liveLine.textContent = end === "done" ? `Finished: ${fmtInt(c.results.filter(Boolean).length)} of ${fmtInt(c.run.total)} rows have a verdict or an error.` : "Cancelled: unfinished rows can be resumed.";
        drawNow();
        drawButtons();
        drawRuns();
        drawCacheInfo();
        root.dispatchEvent(new CustomEvent("batch-run-end", { detail: { runId: c.run.id, state: end } }));
      } finally {
        lock.release();
      }
    };
    go();
  }

  async function pauseRun() {
    if (!cur || !cur.runner) return;
    cur.runner.pause();
    persistState("paused");
    liveLine.textContent = "Paused: calls in flight finish, no new ones start.";
    drawButtons();
  }

  function cancelRun() {
    if (!cur || !cur.runner) return;
    cur.runner.cancel();
    persistState("cancelled");
    drawButtons();
  }

  function drawButtons() {
    const s = cur && cur.runner ? cur.runner.state : "idle";
    const a = cur && cur.agg;
    const unfinished = a ? a.counts.pending : 0;
    const failed = a ? a.counts.error + a.counts.undetermined : 0;
    pauseBtn.hidden = s !== "running";
    resumeBtn.hidden = !(s === "paused" || ((s === "idle" || s === "done" || s === "cancelled") && unfinished > 0));
    cancelBtn.hidden = !(s === "running" || s === "paused");
    retryBtn.hidden = !((s === "idle" || s === "done" || s === "cancelled") && failed > 0);
    retryBtn.textContent = `↻ Retry ${failed} failed row${failed === 1 ? "" : "s"}`;
  }

  function thresholdValue() {
    const t = prefs.threshold === "" || prefs.threshold === null ? NaN : Number(prefs.threshold);
    return Number.isFinite(t) ? t : null;
  }

  let scheduled = false;
  let forceNext = false;
  let lastDraw = 0;
  let lastFull = 0;
  let fullTimer = 0;
  /**
   * update redraws the progress line at most 5 times a second, and the summary, histogram and
   * table at most once a second while rows stream in (at once when full is asked for), so that a
   * fast run spends its main thread on the calls, not on layout.
   */
  function update(full) {
    if (full) forceNext = true;
    if (scheduled) return;
    scheduled = true;
    const wait = forceNext ? 0 : Math.max(0, 200 - (performance.now() - lastDraw));
    setTimeout(() => requestAnimationFrame(draw), wait);
  }

  /** drawNow draws everything at once: the end of a run is shown without waiting for a frame. */
  function drawNow() {
    forceNext = true;
    draw();
  }

  function draw() {
    scheduled = false;
    const now = performance.now();
    lastDraw = now;
    if (!cur) return;
    cur.agg = aggregate(cur.results, cur.run.total, { threshold: thresholdValue(), priceIn: prefs.priceIn, priceOut: prefs.priceOut });
    const running = cur.runner && cur.runner.state === "running";
    if (forceNext || !running || now - lastFull > 1000) {
      forceNext = false;
      lastFull = now;
      drawSummary();
      refilter();
      drawButtons();
    } else {
      // Showing every row, the rows in view can be redrawn with the progress line (a few dozen
      // elements): the table then never says "not run yet" of a row the line counts as done.
      // Under a filter, which rows are shown changes too, and that waits for the full pass.
      if (cur.filter === "all") table.refresh();
      if (!fullTimer) {
        // A later pass brings the summary and table up to date even if no more rows finish.
        fullTimer = setTimeout(() => {
          fullTimer = 0;
          update(true);
        }, 1000 - (now - lastFull));
      }
    }
    drawProgress();
  }

  function drawProgress() {
    const a = cur.agg;
    const total = cur.run.total || 1;
    const finished = a.finished;
    const bad = a.counts.error + a.counts.undetermined;
    barOK.style.width = ((finished - bad) / total) * 100 + "%";
    barBad.style.width = (bad / total) * 100 + "%";
    bar.setAttribute("aria-valuenow", String(Math.round((finished / total) * 100)));
    const windowMs = 15_000;
    const now = performance.now();
    while (cur.doneTimes.length && cur.doneTimes[0] < now - windowMs) cur.doneTimes.shift();
    const span = Math.min(windowMs, now - (cur.startedAt || now));
    const running = cur.runner && cur.runner.state === "running";
    const rate = running && span > 500 ? cur.doneTimes.length / (span / 1000) : 0;
    const remaining = a.counts.pending;
    const parts = [
      `${fmtInt(finished)} of ${fmtInt(cur.run.total)} done`,
      `${fmtInt(bad)} without a verdict`,
      `${fmtInt(remaining)} remaining`,
      running ? (rate ? `${fmtNum(rate, 1)} rows/s` : "… rows/s") : null,
      running && rate && remaining ? `ETA ${fmtDuration(remaining / rate)}` : null,
      `cache hits ${fmtInt(a.cachedCalls)} of ${fmtInt(a.cachedCalls + a.calls)} calls`,
      `${fmtInt(a.promptTokens)} in + ${fmtInt(a.completionTokens)} out tokens`,
      a.cost !== null ? fmtMoney(a.cost) : null,
    ].filter(Boolean);
    progText.textContent = parts.join(" · ");
    progText.dataset.done = String(finished);
    progText.dataset.total = String(cur.run.total);
    progText.dataset.cacheHits = String(a.cachedCalls);
    // The state and the counts change in the same frame, so a test (or a person) never sees "done" with stale counts.
    runCard.dataset.state = cur.runner ? cur.runner.state : "idle";
    runCard.dataset.runId = cur.run.id;
  }

  function drawSummary() {
    const a = cur.agg;
    const stat = (label, value, sub, ref) => h("div", { class: "stat", dataset: { ref } }, h("div", { class: "stat-value", text: value }), h("div", { class: "stat-label", text: label }), sub ? h("div", { class: "hint", text: sub }) : null);
    const causes = a.causes.length
      ? h(
          "ul",
          { class: "causes", dataset: { ref: "batch-causes" } },
          a.causes.map((c) => h("li", {}, h("span", { class: "cause-count", text: fmtInt(c.count) }), " ", h("span", { text: c.cause }))),
        )
      : h("p", { class: "hint", text: "No undetermined rows and no errors." });
    replace(
      summaryEl,
      h(
        "div",
        { class: "stats" },
        stat("pass rate", a.passRate === null ? "–" : Math.round(a.passRate * 1000) / 10 + "%", a.decided ? `${fmtInt(a.counts.passed)} passed of ${fmtInt(a.decided)} with a pass/fail verdict` : "no pass/fail verdicts yet", "batch-pass-rate"),
        stat("mean score", a.meanScore === null ? "–" : fmtNum(a.meanScore), a.scored ? `over ${fmtInt(a.scored)} scored rows` : "no scores yet", "batch-mean-score"),
        stat("undetermined", fmtInt(a.counts.undetermined), `${fmtInt(a.counts.error)} errors`, "batch-undetermined"),
        stat("tokens", fmtInt(a.promptTokens + a.completionTokens), (a.cost !== null ? fmtMoney(a.cost) + " · " : "") + `${fmtInt(a.calls)} paid calls, ${fmtInt(a.cachedCalls)} from cache`, "batch-tokens"),
      ),
      h(
        "div",
        { class: "summary-row" },
        h("div", { class: "summary-block" }, h("h3", { class: "sub-title", text: "Score histogram" }), a.scored ? histogramSVG(a.histogram) : h("p", { class: "hint", text: "No scores yet." })),
        h("div", { class: "summary-block" }, h("h3", { class: "sub-title", text: "Undetermined and errors, by cause" }), causes),
      ),
    );
    thresholdField.hidden = !(a.counts.scored > 0 || thresholdValue() !== null);
  }

  function drawFilters() {
    replace(
      filterEl,
      FILTERS.map(([key, label]) => {
        const b = h("button", {
          type: "button",
          class: "filter-chip",
          dataset: { ref: "batch-filter-" + key, filter: key },
          attrs: { role: "radio", "aria-checked": String(cur.filter === key) },
          on: {
            click: () => {
              cur.filter = key;
              viewport.scrollTop = 0;
              drawFilters();
              refilter();
            },
          },
        });
        const word = key === "passed" || key === "failed" ? label.slice(0, 2) + wordFor(key, cur.ev.id) : label;
        b.append(h("span", { text: word }), h("span", { class: "chip-count" }));
        return b;
      }),
    );
  }

  function refilter() {
    const th = thresholdValue();
    const counts = { all: 0, passed: 0, failed: 0, undetermined: 0, error: 0, scored: 0, pending: 0 };
    const view = [];
    for (let i = 0; i < cur.run.total; i++) {
      const st = statusOf(cur.results[i], th);
      counts.all++;
      counts[st]++;
      if (cur.filter === "all" || cur.filter === st) view.push(i);
    }
    cur.view = view;
    for (const b of filterEl.querySelectorAll("[data-filter]")) {
      b.lastChild.textContent = " " + fmtInt(counts[b.dataset.filter]);
      b.hidden = counts[b.dataset.filter] === 0 && b.dataset.filter !== "all" && b.dataset.filter !== cur.filter && ["scored", "pending"].includes(b.dataset.filter);
    }
    tableCount.textContent = `${fmtInt(view.length)} row${view.length === 1 ? "" : "s"} shown`;
    table.setCount(view.length);
  }

  function firstText(item) {
    if (!item || !item.inputs) return item && item.error ? item.error : "";
    for (const input of cur.ev.inputs || []) {
      const v = item.inputs[input.name];
      if (typeof v === "string" && v) return v;
    }
    return cellText(Object.values(item.inputs)[0]);
  }

  function drawRow(i, el) {
    const index = cur.view[i];
    const r = cur.results[index];
    const th = thresholdValue();
    const st = statusOf(r, th);
    const v = r && r.verdict;
    const note = r ? (st === "undetermined" || st === "error" ? reasonOf(r) : r.repaired ? "repaired after one correction request" : r.cachedCalls && !r.calls ? "from cache" : "") : "";
    el.dataset.status = st;
    el.dataset.index = String(index);
    el.replaceChildren(
      h("span", { class: "vt-cell vt-num", attrs: { role: "cell" }, text: String(index + 1) }),
      h("span", { class: "vt-cell", attrs: { role: "cell" } }, stateBadge(st, r ? causeOf(r, th) : null, cur.ev.id)),
      h("span", { class: "vt-cell vt-score", attrs: { role: "cell" }, text: v && typeof v.score === "number" ? fmtNum(v.score) : "–" }),
      h("span", { class: "vt-cell vt-text", attrs: { role: "cell" }, text: clip(firstText(cur.items[index]), 160) }),
      h("span", { class: "vt-cell vt-note", attrs: { role: "cell" }, text: clip(note, 200) }),
    );
  }

  function openRow(index) {
    const r = cur.results[index];
    const item = cur.items[index] || {};
    const th = thresholdValue();
    const st = statusOf(r, th);
    const close = h("button", { type: "button", class: "btn btn-ghost dialog-close", text: "✕ Close", on: { click: () => dialog.close() } });
    const prev = h("button", { type: "button", class: "btn btn-small", text: "← Previous", disabled: index === 0, on: { click: () => openRow(index - 1) } });
    const next = h("button", { type: "button", class: "btn btn-small", text: "Next →", disabled: index >= cur.run.total - 1, on: { click: () => openRow(index + 1) } });
    let body;
    if (!r) body = h("p", { text: "This row has not been judged yet." });
    else if (r.error) body = h("div", { class: "verdict v-undetermined" }, stateBadge("error", causeOf(r, th)), h("p", { class: "msg-error", dataset: { ref: "batch-row-error" }, text: r.error.message }));
    else {
      let v = r.verdict;
      if (st === "passed" || st === "failed") v = { ...v, passed: st === "passed" };
      try {
        body = renderVerdict({ rj, ev: cur.ev, inputs: item.inputs, v, answer: r.answers[r.answers.length - 1] });
      } catch (e) {
        body = h("pre", { class: "mono", text: JSON.stringify(r.verdict, null, 2) });
      }
    }
    const answers = r && r.answers.length
      ? r.answers.map((a, k) => h("details", { class: "raw", open: k === r.answers.length - 1 }, h("summary", { text: k === 0 ? "The judge's answer" : "The judge's corrected answer (after one repair request)" }), h("pre", { class: "mono", text: a })))
      : [];
    replace(
      dialog,
      h("div", { class: "dialog-head" }, h("h2", { class: "card-title", text: `Row ${index + 1} of ${fmtInt(cur.run.total)}` }), prev, next, close),
      body,
      answers,
      h("details", { class: "raw" }, h("summary", { text: "Inputs" }), h("pre", { class: "mono", text: item.inputs ? JSON.stringify(item.inputs, null, 2) : item.error || "" })),
      r ? h("p", { class: "hint", text: `${r.calls} call${r.calls === 1 ? "" : "s"}, ${r.cachedCalls} from cache, ${r.attempts} attempt${r.attempts === 1 ? "" : "s"}, ${fmtInt(r.usage.prompt_tokens)} + ${fmtInt(r.usage.completion_tokens)} tokens, ${fmtNum(r.ms / 1000, 1)} s` }) : null,
    );
    dialog.dataset.index = String(index);
    if (!dialog.open) dialog.showModal();
    close.focus();
  }

  function exportRun(fmt) {
    if (!cur) return;
    const th = thresholdValue();
    const base = cur.run.name.replace(/\.[^.]+$/, "").replace(/[^\w.-]+/g, "_") + "-" + cur.run.evaluator;
    const run = { id: cur.run.id, name: cur.run.name, evaluator: cur.run.evaluator, mapping: cur.run.mapping, model: cur.run.settings.model, params: cur.run.settings.params, createdAt: new Date(cur.run.createdAt).toISOString() };
    const agg = aggregate(cur.results, cur.run.total, { threshold: th, priceIn: prefs.priceIn, priceOut: prefs.priceOut });
    const inputNames = (cur.ev.inputs || []).map((i) => i.name);
    if (fmt === "jsonl") download(base + ".jsonl", toJSONL(cur.items, cur.results, { threshold: th }), "application/x-ndjson");
    else if (fmt === "csv") download(base + ".csv", toCSV(cur.items, cur.results, { threshold: th, inputNames: inputNames.length ? inputNames : null }), "text/csv");
    else download(base + ".json", toJSON(cur.items, cur.results, { threshold: th, run, summary: agg }), "application/json");
  }

  /** deleteButton asks twice, in place: "Delete", then "Delete N rows?" for a few seconds. */
  function deleteButton(r) {
    let armed = 0;
    const b = h("button", {
      type: "button",
      class: "btn btn-small btn-ghost",
      text: "Delete",
      dataset: { ref: "batch-delete-run" },
      attrs: { "aria-label": `Delete the run of ${r.name}` },
      on: {
        click: async () => {
          if (!armed) {
            b.textContent = `Delete ${fmtInt(r.total)} rows?`;
            b.classList.add("btn-stop");
            armed = setTimeout(() => {
              armed = 0;
              b.textContent = "Delete";
              b.classList.remove("btn-stop");
            }, 4000);
            return;
          }
          clearTimeout(armed);
          if (cur && cur.run.id === r.id) {
            if (cur.runner) cur.runner.cancel();
            cur = null;
            runCard.hidden = true;
            setupCard.open = true;
          }
          await store.deleteRun(r.id);
          drawRuns();
        },
      },
    });
    return b;
  }

  async function drawRuns() {
    const runs = await store.listRuns();
    if (!runs.length) {
      replace(runsList, h("p", { class: "hint", text: "No runs yet. Runs you start are kept here until you delete them." }));
      return;
    }
    replace(
      runsList,
      h(
        "table",
        { class: "ptable runs-table" },
        h("thead", {}, h("tr", {}, ["Started", "Dataset", "Evaluator", "Model", "Rows", "State", ""].map((t) => h("th", { text: t })))),
        h(
          "tbody",
          {},
          runs.map((r) =>
            h(
              "tr",
              { dataset: { run: r.id } },
              h("td", { text: new Date(r.createdAt).toLocaleString() }),
              h("td", { text: r.name }),
              h("td", { text: r.evaluator }),
              h("td", { text: (r.settings && r.settings.model) || "" }),
              h("td", { text: `${fmtInt(r.finished || 0)} / ${fmtInt(r.total)}` }),
              h("td", { text: r.state }),
              h(
                "td",
                { class: "actions" },
                h("button", { type: "button", class: "btn btn-small", text: "Open", dataset: { ref: "batch-open-run" }, on: { click: () => openRun(r.id) } }),
                deleteButton(r),
              ),
            ),
          ),
        ),
      ),
    );
  }

  root.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !runBtn.disabled && setupCard.open) {
      e.preventDefault();
      startNewRun();
    }
  });

  // ---- start: saved runs, and a run that was going when the page was left resumes ---------
  // The call worker takes a while to start (its modules load over the network): started now,
  // it is ready long before a dataset is loaded and mapped.
  callsP ||= startCallWorker();
  drawCacheInfo();
  await drawRuns();
  const runs = await store.listRuns();
  const interrupted = runs.find((r) => r.state === "running");
  if (interrupted) await openRun(interrupted.id, { start: true });
  else if (runs.length) await openRun(runs[0].id);
  drawConcurrencyHint();
  state.addEventListener("change", (e) => {
    if (!(e.detail && e.detail.keys && e.detail.keys.includes("settings"))) return;
    drawConcurrencyHint();
    if (setup && setup.items) drawEstimate();
  });

  return {
    loadText,
    openRun,
    get current() {
      return cur;
    },
  };
}

export { mount as mountBatch };
