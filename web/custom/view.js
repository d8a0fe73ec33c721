// view.js: the My evaluators view. A list of the user's evaluators (new from scratch, from a
// starter, or a built-in duplicated; imported from and exported to .json files), and the editor of
// the one open: its templates with line numbers and each error under its line, re-checked as you
// type (rj.checkEvaluator, debounced); the inputs the templates read (rj.variables through the
// check), the reader's settings, a preview of the prompt rendered with sample inputs and a pane to
// paste a judge answer and see its verdict, drawn as Evaluate draws it.
//
// Everything is saved as it is typed (registry.js, IndexedDB). An evaluator whose check passes is
// defined in the engine and offered in Evaluate and Batch; one with errors is kept, marked, and
// offered again once fixed. Loaded by app.js the first time the view is shown.
//
// This module holds the open evaluator and its checking and saving; the list card
// (evaluatorlist.js), the editor form (editorform.js) and the preview pane (preview.js) draw
// their parts from one shared context, Ctx, through which they also call each other.

import { h, replace, debounce, addStylesheet } from "../lib/dom.js";
import { fromInputs, toInputs } from "../lib/form.js";
import { engineNote } from "../shell/enginestatus.js";
import { onChange } from "../lib/store.js";
import { evaluatorList } from "./evaluatorlist.js";
import { editorForm } from "./editorform.js";
import { previewPane } from "./preview.js";
import { describe, cleanInputs, syncInputs, sampleOf, ID_RE } from "./specedit.js";

const CHECK_MS = 150; // re-check this long after the last keystroke

/**
 * @typedef {import("./registry.js").EvaluatorRegistry} Registry
 * @typedef {{name: string, label?: string, kind?: string, required?: boolean, auto?: boolean, unused?: boolean}} EditInput
 * @typedef {{key: string, spec: any, inputs: EditInput[], kinds: Record<string, string>, raw: any, answer: string, checks: any[], ok: boolean|undefined, read?: string[], provided?: string[],
 *   editors: Map<string, ReturnType<typeof import("./editor.js").templateEditor>>, fieldErrors: Map<string, HTMLElement>, outErrors: Map<string, HTMLElement>}} Open
 */

/**
 * Ctx is what the view's parts share: the view's arguments, the open evaluator (cur, null when
 * none), the editor's elements by role (parts), whether an edit waits for its debounce (pending),
 * and every part's functions, so that one part can redraw another's.
 * @typedef {{engine: import("../shell/enginestatus.js").Engine, registry: Registry, state: import("../shell/state.js").State, renderVerdict: Function,
 *   prefs: () => any, editorEl: HTMLElement, cur: Open|null, parts: Record<string, HTMLElement>, pending: boolean, [fn: string]: any}} Ctx
 */

/**
 * mount builds the view into root.
 * @param {HTMLElement} root
 * @param {{engine: import("../shell/enginestatus.js").Engine, registry: Registry, state: import("../shell/state.js").State, renderVerdict: Function}} ctx
 */
export async function mount(root, { engine, registry, state, renderVerdict }) {
  ensureStylesheet();
  const prefs = () => state.get("custom") || {};
  const editorEl = h("div", { class: "custom-editor", dataset: { ref: "custom-editor" } });
  /** @type {Ctx} */
  const ctx = { engine, registry, state, renderVerdict, prefs, editorEl, cur: null, parts: {}, pending: false, create, openEditor, specNow, edited, errText, readerInputs };
  const list = evaluatorList(ctx);
  Object.assign(ctx, list, editorForm(ctx), previewPane(ctx));
  replace(root, h("div", { class: "custom" }, list.listCard, editorEl));

  // ---- the editor -----------------------------------------------------------------------------

  /** create stores spec as a new evaluator and opens it. @param {any} spec */
  async function create(spec) {
    const { sample, answer } = sampleOf(spec);
    const rec = { id: spec.id, spec, sample, answer, ok: checkOk(spec), updatedAt: Date.now() };
    await registry.save(rec);
    ctx.say(`✓ Created ${spec.title || spec.id}.`);
    openEditor(spec.id);
    ctx.drawList();
    ctx.parts.title?.focus();
  }

  /** checkOk is whether spec passes the engine's check (undefined before the engine is ready). @param {any} spec */
  function checkOk(spec) {
    const rj = /** @type {any} */ (engine.rj);
    if (!rj) return undefined;
    try {
      return !!rj.checkEvaluator(spec).ok;
    } catch {
      return false;
    }
  }

  /** openEditor opens evaluator id in the editor. @param {string} id */
  function openEditor(id) {
    flush(); // the open one's last keystrokes are kept before another is opened
    const r = registry.records.get(id);
    if (!r) {
      ctx.cur = null;
      replace(ctx.editorEl, h("section", { class: "card custom-none" }, h("p", { class: "hint", text: "Open one of your evaluators above, or start a new one." })));
      ctx.drawList();
      return;
    }
    if (prefs().open !== id) state.set({ custom: { ...prefs(), open: id } });
    const spec = structuredClone(r.spec);
    // An imported definition with errors may hold anything: the editor takes the inputs it can
    // show (objects), and the check says what is wrong with the rest.
    // What a definition leaves out takes the schema's default (README "Custom evaluators"): an
    // imported input without `required` is required, as the engine reads it.
    const inputs = (Array.isArray(spec.inputs) ? spec.inputs : [])
      .filter((/** @type {any} */ i) => i && typeof i === "object" && !Array.isArray(i))
      .map((/** @type {any} */ i) => ({ ...i, kind: i.kind ?? "text", required: i.required ?? true }));
    const d = describe({ ...spec, inputs: cleanInputs(inputs) });
    ctx.cur = { key: id, spec, inputs, kinds: {}, raw: fromInputs(d, (r.sample && r.sample.inputs) || {}), answer: r.answer || "", checks: [], ok: r.ok, editors: new Map(), fieldErrors: new Map(), outErrors: new Map() };
    ctx.drawEditor();
    ctx.drawList();
    check();
  }

  /** readerInputs are the inputs of the built-in whose reader the open evaluator uses, or []. */
  function readerInputs() {
    const out = ctx.cur?.spec?.output;
    const b = out && out.kind === "builtin" ? registry.builtins.find((x) => x.id === out.evaluator) : null;
    return b ? b.inputs : [];
  }

  /** specNow is the spec as the editor holds it, ready to check or save. */
  function specNow() {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    return { ...c.spec, inputs: cleanInputs(c.inputs.filter((i) => i.name !== "" || i.label)) };
  }

  // ---- checking, saving -----------------------------------------------------------------------
  const checkSoon = debounce(() => check(), CHECK_MS);
  const saveSoon = debounce(() => save(), 300);
  const previewSoon = debounce(() => ctx.preview(), 120);
  const verdictSoon = debounce(() => ctx.verdict(), 200);
  Object.assign(ctx, { saveSoon, previewSoon, verdictSoon });


  /** flush checks and stores at once an edit still waiting for its debounce. */
  function flush() {
    if (!ctx.pending) return;
    ctx.pending = false;
    check();
  }

  /** edited is called after every edit of the spec. @param {{inputs?: boolean}} [what] */
  function edited(what = {}) {
    ctx.pending = true;
    ctx.editorEl.dataset.saving = "true"; // until the edit is stored (tests wait on this before a reload)
    if (what.inputs) previewSoon();
    checkSoon();
  }

  /**
   * check asks the engine about the spec as it is: errors and warnings shown where they point,
   * the inputs synced with the names the templates read, and then saved (defined in the engine
   * when there is no error) and previewed.
   */
  function check() {
    ctx.pending = false;
    const c = ctx.cur;
    if (!c) return;
    const rj = /** @type {any} */ (engine.rj);
    if (!rj) {
      ctx.parts.status.className = "custom-status note";
      ctx.parts.status.textContent = engineNote(engine, "Checks appear");
      save();
      return;
    }
    const t0 = performance.now();
    let res = rj.checkEvaluator(specNow());
    const t1 = performance.now();
    // The names the templates read: new ones become inputs, inputs added that way and no longer
    // read go (a name typed letter by letter leaves no trail); inputs the user touched stay.
    // What a built-in reader makes of its inputs is never an input (rj.checkEvaluator's
    // provided), and the inputs it needs are declared as it declares them.
    // A template that does not parse reads no names yet: the table waits for it to parse again.
    const templateBroken = res.errors.some((/** @type {any} */ e) => e.code === "evaluator.template" || e.code === "evaluator.bad-spec");
    if (!templateBroken && Array.isArray(res.variables)) {
      const before = JSON.stringify(c.inputs);
      const next = syncInputs(c.inputs, res.variables, { provided: res.provided || [], own: readerInputs() });
      if (JSON.stringify(next) !== before) {
        c.inputs = next;
        ctx.drawInputs();
        ctx.drawSample();
        res = rj.checkEvaluator(specNow());
      }
    }
    // What the templates read now, for the inputs table's Remove (a name still read comes back).
    if (!templateBroken) c.read = Array.isArray(res.variables) ? res.variables : [];
    c.provided = res.provided || [];
    // Page-side checks: the id must be free among the user's own (the core knows the built-ins').
    const local = [];
    const id = c.spec.id;
    if (typeof id === "string" && id !== c.key && registry.records.has(id)) local.push({ severity: "error", code: "evaluator.bad-id", message: `You already have an evaluator with the id ${id}.`, path: "id" });
    // While a template does not parse, every input looks unread: those warnings would only be noise.
    const warnings = res.warnings.filter((/** @type {any} */ w) => !(templateBroken && w.code === "evaluator.unused-input"));
    c.checks = [...local, ...res.errors, ...warnings.map((/** @type {any} */ w) => ({ severity: "warning", ...w }))].map((x) => ({ severity: x.severity || "error", ...x }));
    c.ok = !local.length && !!res.ok;
    ctx.showChecks();
    // How long a re-check took (the engine's check and drawing its results), for the figures.
    ctx.editorEl.dataset.checkMs = (performance.now() - t0).toFixed(2);
    ctx.editorEl.dataset.checkEngineMs = (t1 - t0).toFixed(2);
    save();
  }

  /** save stores the evaluator as the editor holds it; a renamed one moves to its new id. */
  async function save() {
    const c = ctx.cur;
    if (!c) return;
    const spec = specNow();
    const d = ctx.sampleDesc();
    // problems: the errors the list counts (kept in memory, not stored).
    const problems = c.checks.filter((x) => x.severity === "error");
    const rec = { id: spec.id, spec, sample: { inputs: toInputs(d, c.raw) }, answer: c.answer, ok: c.ok, problems, updatedAt: Date.now() };
    // An id that is not valid, or another's, is not saved under: the evaluator stays where it is.
    if (typeof spec.id !== "string" || !ID_RE.test(spec.id) || registry.builtinIds().has(spec.id) || (spec.id !== c.key && registry.records.has(spec.id))) {
      const old = registry.records.get(c.key);
      if (!old) return;
      await registry.save({ ...rec, id: c.key, spec: { ...spec, id: c.key }, ok: false });
    } else {
      const oldId = c.key;
      c.key = spec.id;
      await registry.save(rec, { oldId });
      if (oldId !== spec.id) state.set({ custom: { ...prefs(), open: spec.id } });
    }
    ctx.editorEl.dataset.saving = "false";
    ctx.drawList();
    ctx.preview();
  }

  // ---- the engine, the list ---------------------------------------------------------------------
  onChange(() => engine.status, () => {
    ctx.drawFrom();
    if (ctx.cur) check();
  });
  onChange(() => registry.listed.value, () => ctx.drawList());
  // Leaving the page (or its tab) right after typing: what was typed is stored now.
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && flush());

  ctx.drawFrom();
  ctx.drawList();
  const first = prefs().open && registry.records.has(prefs().open) ? prefs().open : registry.customs()[0]?.id;
  openEditor(first || "");
}

/** @param {unknown} e */
function errText(e) {
  const x = /** @type {any} */ (e);
  return (x && (x.detail || x.message)) || String(e);
}

/** ensureStylesheet adds custom.css to the page once. */
function ensureStylesheet() {
  addStylesheet(new URL("./custom.css", import.meta.url).href, "custom-css");
}
