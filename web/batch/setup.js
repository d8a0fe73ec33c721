// setup.js: the "New batch run" card: the dataset (picker or drop), the evaluator, the columns →
// inputs mapping, the preview with every row's problems (preview.js), the run options and the
// estimate. It owns what is being set up; the run controller asks it for that when Run is pressed.

import { h, replace, uid, field } from "../lib/dom.js";
import { mountRunOptions } from "./runoptions.js";
import { detectMatches, matchLabel, prepareItemsAsync } from "./mapping.js";
import { checkRows, drawProblems, drawPreviewTable, estimateText } from "./preview.js";
import { prefsOf, setPrefs } from "./prefs.js";
import { formatWords } from "./words.js";
import { repeatsOf, ordersOf } from "./repeatopts.js";
import { labelField } from "../stats/labelfield.js";
import { suggestLabelColumn } from "../stats/labels.js";
import { setupLine, plannedRequest } from "./setupline.js";
import { plannedJudges } from "./judges.js";
import { requestSettings } from "./endpoint.js";
import { yieldToLoop } from "./turns.js";
import { fmtInt } from "../lib/format.js";
import { onChange } from "../lib/store.js";
import { chosenOf, keepChosen, keptMapping, keptLabel, againText } from "./chosen.js";

/**
 * @typedef {Object} Setup what is being set up
 * @property {string} name the dataset's file name
 * @property {{columns: string[], paths?: string[], rows: Object[], errors: {line: number, message: string}[], warnings?: {line: number, row: number, message: string}[], format?: string}} table
 * @property {Object<string, string>} mapping input name → column
 * @property {import("./mapping.js").ColumnMatch[]} matches the guessed mapping, with the name each input was recognised by
 * @property {import("./preview.js").Checked|null} checked the rows as the run takes them, once checked
 * @property {string} label the column of human labels the run is compared with ("" for none)
 * @property {string} labelYes what a yes in it means: "pass", "fail", or "" for what its name says
 */

/**
 * mountSetup builds the setup card. hooks: onRun() (Run pressed), onWarm() (a dataset is loaded:
 * get ready for calls), onConcurrency(n), callsCapped() (whether calls through here are capped at 6),
 * browserLimit() (a direct endpoint the browser calls over HTTP/1.1: {origin, limit, seen}, see runcontroller.js).
 * @param {{rj: Object, engine: import("../shell/enginestatus.js").Engine, state: import("../shell/state.js").State, store: Object, evaluators: Object[]}} ctx
 * onReady(ready) (whether what is set up has rows to judge: Run is enabled) is told each change;
 * onPlan(plan) each time what a run of it would ask is drawn again (the batch file's line shows it too).
 * @param {{onRun: () => void, onWarm: () => void, onConcurrency: (n: number) => void, callsCapped: () => boolean, browserLimit?: () => ({origin: string, limit: number, seen: string} | null), maxConcurrency?: () => number, onReady?: (ready: boolean) => void,
 *   onPlan?: (plan: {rows: number, plan: import("./setupline.js").Plan | null}) => void}} hooks
 */
export function mountSetup({ rj, engine, state, store, evaluators }, hooks) {
  let byID = new Map(evaluators.map((e) => [e.id, e]));
  if (!byID.has(prefsOf(state).evaluator)) setPrefs(state, { evaluator: evaluators[0].id });
  const prefs = () => prefsOf(state);
  const evaluator = () => byID.get(prefs().evaluator);
  /** @type {Setup|null} */
  let setup = null;
  /** loaded is what is set up, for the functions that only run once a dataset is loaded. */
  const loaded = () => /** @type {Setup} */ (setup);
  let gen = 0;

  const fileInput = h("input", {
    type: "file",
    id: uid("bfile"),
    class: "offscreen",
    accept: ".jsonl,.json,.csv,.tsv,.ndjson,.txt,application/json,text/csv,text/tab-separated-values",
    dataset: { ref: "batch-file" },
    on: { change: () => fileInput.files[0] && loadFile(fileInput.files[0]) },
  });
  const drop = h(
    "label",
    { class: "drop", htmlFor: fileInput.id, dataset: { ref: "batch-drop" }, tabIndex: 0 },
    h("span", { class: "drop-icon", text: "⇪", attrs: { "aria-hidden": "true" } }),
    h("strong", { text: "Choose a dataset" }),
    h("span", { text: " or drop it here: CSV, TSV, JSON or JSONL (RAGAS, DeepEval, promptfoo or this tool's column names)." }),
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
  // A dataset set up before a reload is asked for by name (chosen.js).
  const before = chosenOf(state);
  if (before) {
    fileMsg.dataset.again = before.name;
    fileMsg.className = "batch-msg msg-again";
    const [head, tail] = againText(before).split(before.name);
    fileMsg.append(head, h("strong", { text: before.name }), tail);
  }

  const evSelect = h(
    "select",
    { class: "input", id: uid("bev"), dataset: { ref: "batch-evaluator" }, on: { change: () => chooseEvaluator(evSelect.value) } },
    evaluators.map((e) => h("option", { value: e.id, text: e.title || e.id })),
  );
  evSelect.value = prefs().evaluator;
  const mappingEl = h("div", { class: "mapping", dataset: { ref: "batch-mapping" } });
  const previewEl = h("div", { class: "preview", dataset: { ref: "batch-preview" } });
  const problemsEl = h("div", { class: "problems", dataset: { ref: "batch-problems" } });

  const options = mountRunOptions({ state, store, hooks, dataset: () => (setup ? setup.name : "") });
  const { drawConcurrencyHint, drawCacheInfo, keepRepeats } = options;
  options.orders.show(evaluator());
  const estimateEl = h("p", { class: "estimate", dataset: { ref: "batch-estimate" }, attrs: { "aria-live": "polite" } });
  // What Run would spend and ask, on one line, where the eye is before pressing it.
  const planEl = h("p", { class: "setup-line", dataset: { ref: "batch-setup-line" } });
  const runBtn = h("button", { type: "button", class: "btn btn-primary", text: "▶ Run batch", dataset: { ref: "batch-run" }, disabled: true, on: { click: () => hooks.onRun() } });
  const runMsg = h("div", { class: "batch-msg", dataset: { ref: "batch-run-msg" }, attrs: { role: "alert" } });

  const card = h(
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
    options.el,
    planEl,
    estimateEl,
    h("div", { class: "run-row" }, runBtn, runMsg),
  );

  async function loadFile(file) {
    fileMsg.textContent = "Reading " + file.name + "…";
    fileMsg.className = "batch-msg";
    let text;
    try {
      text = await file.text();
    } catch (e) {
      return fail("Could not read " + file.name + ": " + (e instanceof Error ? e.message : String(e)));
    }
    loadText(file.name, text);
  }

  function fail(msg) {
    delete fileMsg.dataset.format;
    fileMsg.textContent = "✗ " + msg;
    fileMsg.className = "batch-msg msg-error";
    setup = null;
    runBtn.disabled = true;
    if (hooks.onReady) hooks.onReady(false);
    replace(mappingEl);
    replace(previewEl);
    replace(problemsEl);
    estimateEl.textContent = "";
    planEl.textContent = "";
    if (hooks.onPlan) hooks.onPlan({ rows: 0, plan: null });
  }

  /** @type {{name: string, text: string} | null} a dataset chosen before the engine was ready */
  let pending = null;
  onChange(() => engine.status, () => {
    if (!pending) return;
    const p = pending;
    pending = null;
    if (engine.rj) loadText(p.name, p.text);
    else fail(p.name + " cannot be read: the judge engine did not load.");
  });

  /** loadText reads text (named name) as the dataset to set up; before the engine is ready, once it is. */
  function loadText(name, text) {
    delete fileMsg.dataset.again; // a file is chosen: what is asked for is said no more
    if (!engine.rj && engine.status === "loading") {
      pending = { name, text };
      fileMsg.className = "batch-msg";
      fileMsg.dataset.engine = "loading";
      fileMsg.textContent = `${name} is read when the judge engine has loaded…`;
      return;
    }
    delete fileMsg.dataset.engine;
    let table;
    try {
      // The content decides the format; the name's extension is only a hint (JSON Lines named .json).
      table = rj.readDataset(text, undefined, name);
    } catch (e) {
      const err = /** @type {any} */ (e);
      return fail(name + " could not be read as a dataset: " + (err.detail || err.message));
    }
    if (!table.rows.length) return fail(name + " has no rows that could be read" + (table.errors.length ? ": " + table.errors[0].message + " (line " + table.errors[0].line + ")" : "."));
    keepRepeats(name);
    setup = { name, table, mapping: {}, matches: [], checked: null, label: "", labelYes: "" };
    setup.label = suggestLabelColumn(mappable()) || "";
    Object.assign(setup, keptLabel(chosenOf(state), name, mappable()));
    fileMsg.className = "batch-msg";
    fileMsg.dataset.format = table.format;
    fileMsg.textContent = `✓ ${name}: ${fmtInt(table.rows.length)} rows (${formatWords(table, name)}), columns ${table.columns.join(", ")}` + (table.errors.length ? `; ${table.errors.length} could not be read (listed below).` : ".");
    mapFor(prefs().evaluator);
    hooks.onWarm();
  }

  function chooseEvaluator(id) {
    if (!byID.has(id)) return;
    if (prefs().evaluator !== id) setPrefs(state, { evaluator: id });
    evSelect.value = id;
    options.orders.show(byID.get(id));
    if (setup) mapFor(id);
  }

  let mappedFor = ""; // the evaluator and its inputs the rows were last mapped for
  /** mapFor guesses the mapping for evaluator id and checks the rows with it. */
  function mapFor(id) {
    const setup = loaded();
    mappedFor = id + JSON.stringify(byID.get(id)?.inputs);
    try {
      ({ mapping: setup.mapping, matches: setup.matches } = detectMatches(rj, byID.get(id), mappable()));
      setup.mapping = keptMapping(chosenOf(state), setup.name, id, mappable(), setup.mapping) || setup.mapping;
    } catch {
      setup.mapping = {};
      setup.matches = [];
    }
    remap();
  }

  /** mappable: the columns and the dotted paths into object columns (vars.question) a mapping may name. */
  function mappable() {
    const setup = loaded();
    const t = setup.table;
    return t.paths && t.paths.length ? t.paths : t.columns;
  }

  function drawMapping() {
    const setup = loaded();
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
        // A guessed column says which name it was recognised by, while the choice is still the guess.
        const match = setup.matches.find((m) => m.input === input.name && m.column === setup.mapping[input.name]);
        return h(
          "div",
          { class: "field map-field" + (input.required && !setup.mapping[input.name] ? " map-missing" : "") },
          h("label", { htmlFor: sel.id }, h("span", { text: lab }), " ", h("code", { text: input.name })),
          sel,
          match && match.column !== input.name ? h("div", { class: "hint", dataset: { ref: "batch-map-from-" + input.name }, text: "guessed from " + matchLabel(match) }) : null,
        );
      }),
      labelField(document, { rows: setup.table.rows, columns: mappable(), chosen: setup.label, yes: setup.labelYes, suggested: suggestLabelColumn(mappable()), onChange: (c, yes) => ((setup.label = c), (setup.labelYes = yes), keepChosen(state, setup, ev)) }),
    );
  }

  /** remap reads every row through the mapping and checks it as the run will render it. */
  async function remap() {
    const setup = loaded();
    const my = ++gen;
    const ev = evaluator();
    /** @type {any} */
    const isStale = () => my !== gen;
    runBtn.disabled = true;
    if (hooks.onReady) hooks.onReady(false);
    estimateEl.textContent = "Checking rows…";
    keepChosen(state, setup, ev);
    drawMapping();
    const items = await prepareItemsAsync(rj, ev, setup.table.rows, setup.mapping, { yieldFn: yieldToLoop, isStale });
    if (!items || isStale()) return;
    const checked = await checkRows(rj, ev, items, { yieldFn: yieldToLoop, isStale });
    if (!checked || isStale()) return;
    setup.checked = checked;
    drawProblems(problemsEl, { readErrors: setup.table.errors || [], readWarnings: setup.table.warnings || [], checked, ev });
    drawPreviewTable(previewEl, { items: checked.items, ev });
    drawEstimate();
  }

  /** drawPlan draws the setup line: what a run of what is set up would spend and ask, or why it cannot run. */
  function drawPlan() {
    if (!setup || !setup.checked) return;
    const p = prefs();
    const plan = plannedRequest(state.get("settings") || {}, p);
    const rows = setup.checked.judged;
    const live = requestSettings(state);
    // The batch file holds one order (onPlan gets the plan without it); a live run may judge both.
    planEl.textContent = !plan ? "No model is set: choose one in Model settings." : setupLine({ rows, plan: { ...plan, orders: ordersOf(p, evaluator()), judges: plannedJudges(state, p) }, cache: p.useCache });
    planEl.classList.toggle("msg-error", !plan);
    if (plan && live.error) planEl.textContent += ` (Run needs an endpoint: ${live.error.replace(/^Batch runs need a model: /, "")})`;
    if (hooks.onPlan) hooks.onPlan({ rows, plan });
  }

  function drawEstimate() {
    if (!setup || !setup.checked) return;
    drawPlan();
    const p = prefs();
    const st = state.get("settings") || {};
    estimateEl.textContent = estimateText({ checked: setup.checked, ev: evaluator(), mapping: setup.mapping, maxTokens: Number(st.maxTokens) || 0, priceIn: p.priceIn, priceOut: p.priceOut, repeats: repeatsOf(p), orders: ordersOf(p, evaluator()), judges: plannedJudges(state, p).length || 1 });
    // A run in which no row can be judged would only produce errors.
    runBtn.disabled = setup.checked.judged === 0;
    if (hooks.onReady) hooks.onReady(!runBtn.disabled);
  }

  onChange(() => state.get("settings"), () => drawConcurrencyHint());
  onChange(() => [state.get("settings"), state.get("batch")], () => drawEstimate());
  drawConcurrencyHint();
  drawCacheInfo();

  return {
    card,
    drop,
    loadText,
    drawCacheInfo,
    drawConcurrencyHint,
    /** ready: a dataset is checked and has rows to judge, so Run may start. */
    ready: () => !runBtn.disabled && card.open,
    /**
     * setEvaluators offers evaluators (the user added, renamed or removed one of theirs); the
     * chosen one stays chosen while it is there.
     * @param {Object[]} list
     */
    setEvaluators(list) {
      byID = new Map(list.map((e) => [e.id, e]));
      replace(evSelect, list.map((e) => h("option", { value: e.id, text: e.title || e.id })));
      if (!byID.has(prefs().evaluator)) setPrefs(state, { evaluator: list[0].id });
      evSelect.value = prefs().evaluator;
      options.orders.show(evaluator());
      // The rows are checked again only when the chosen evaluator's inputs changed.
      if (setup && mappedFor !== prefs().evaluator + JSON.stringify(evaluator()?.inputs)) mapFor(prefs().evaluator);
    },
    /** current: what is set up (null before a dataset is loaded or while its rows are checked), and its evaluator. */
    current: () => (setup && setup.checked ? { name: setup.name, table: setup.table, mapping: { ...setup.mapping }, label: setup.label, labelYes: setup.labelYes, items: setup.checked.items, ev: evaluator() } : null),
    /** say shows a message beside the Run button ("" clears it). */
    say: (text) => (runMsg.textContent = text),
  };
}
