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

import { h, replace, debounce, uid, badge, selectSpan } from "../dom.js";
import { buildForm, fromInputs, toInputs, missingRequired, listWords, autoGrow } from "../form.js";
import { checksView } from "../verdicts.js";
import { engineNote } from "../engine.js";
import { templateEditor } from "./editor.js";
import { download } from "../batch/format.js";
import { outputForm } from "./outputform.js";
import { blankSpec, copyOf, freeId, templatesOf, syncInputs, cleanInputs, describe, exportFile, readImport, importProblem, sampleValue, sampleOf, errorAt, ID_RE, labelOf } from "./spec.js";

const CHECK_MS = 150; // re-check this long after the last keystroke
const ROLES = ["system", "user", "assistant"];

/**
 * @typedef {import("./registry.js").EvaluatorRegistry} Registry
 * @typedef {{name: string, label?: string, kind?: string, required?: boolean, auto?: boolean, unused?: boolean}} EditInput
 */

/**
 * mount builds the view into root.
 * @param {HTMLElement} root
 * @param {{engine: import("../engine.js").Engine, registry: Registry, state: import("../state.js").State, renderVerdict: Function}} ctx
 */
export async function mount(root, { engine, registry, state, renderVerdict }) {
  ensureStylesheet();
  const prefs = () => state.get("custom") || {};

  // ---- the list card ------------------------------------------------------------------------
  const listEl = h("div", { class: "custom-list", dataset: { ref: "custom-list" } });
  const msg = h("div", { class: "custom-msg", dataset: { ref: "custom-msg" }, attrs: { role: "status", "aria-live": "polite" } });
  const newBtn = h("button", { type: "button", class: "btn btn-primary", text: "+ New evaluator", dataset: { ref: "custom-new" }, on: { click: () => create(blankSpec(takenIds())) } });
  const fromSel = h("select", { class: "input", id: uid("from"), dataset: { ref: "custom-new-from" }, on: { change: () => newFrom(fromSel.value) } });
  const fileInput = h("input", { type: "file", id: uid("imp"), class: "offscreen", tabIndex: -1, accept: ".json,application/json", dataset: { ref: "custom-import-file" }, attrs: { "aria-label": "Import evaluators from a .json file" }, on: { change: () => fileInput.files && fileInput.files[0] && importFile(fileInput.files[0]) } });
  const importBtn = h("button", { type: "button", class: "btn", text: "⇪ Import .json", dataset: { ref: "custom-import" }, on: { click: () => fileInput.click() } });
  const exportAllBtn = h("button", { type: "button", class: "btn btn-ghost", text: "⤓ Export all", dataset: { ref: "custom-export-all" }, on: { click: () => exportSpecs(registry.customs().map((r) => r.spec), "my-evaluators.json") } });
  const durableNote = registry.store.durable ? null : h("p", { class: "msg-error", text: "This browser refuses local storage (IndexedDB): your evaluators will not survive a reload. Export them to keep them." });
  const listCard = h(
    "section",
    { class: "card custom-card" },
    h("h2", { class: "card-title", text: "My evaluators" }),
    h("p", { class: "desc", text: "Your own judge prompts, with the reader that turns the judge's answer into a verdict. They are kept in this browser and offered in Evaluate and Batch beside the built-ins." }),
    durableNote,
    h("div", { class: "btn-row custom-actions" }, newBtn, h("label", { htmlFor: fromSel.id, class: "sr-only", text: "New from a starter or a built-in" }), fromSel, importBtn, fileInput, exportAllBtn),
    msg,
    listEl,
  );
  const editorEl = h("div", { class: "custom-editor", dataset: { ref: "custom-editor" } });
  replace(root, h("div", { class: "custom" }, listCard, editorEl));

  /** @type {{file: string, title: string, description?: string, spec?: any}[]} */
  let starters = [];
  loadStarters().then((s) => {
    starters = s;
    drawFrom();
  });

  function takenIds() {
    return [...registry.builtinIds(), ...registry.customs().map((r) => r.id)];
  }

  function drawFrom() {
    const rj = /** @type {any} */ (engine.rj);
    replace(
      fromSel,
      h("option", { value: "", text: "New from…" }),
      starters.length ? h("optgroup", { attrs: { label: "Starters" } }, starters.map((s, i) => h("option", { value: "starter:" + i, text: s.title }))) : null,
      h(
        "optgroup",
        { attrs: { label: rj ? "Duplicate a built-in" : "Duplicate a built-in (when the engine has loaded)" } },
        registry.builtins.map((b) => h("option", { value: "builtin:" + b.id, text: b.title || b.id, disabled: !rj || typeof rj.spec !== "function" })),
      ),
    );
    fromSel.value = "";
  }

  async function newFrom(v) {
    fromSel.value = "";
    if (!v) return;
    try {
      if (v.startsWith("starter:")) {
        const s = starters[Number(v.slice(8))];
        const spec = s.spec || (await fetchJSON(new URL("../starters/" + s.file, import.meta.url)));
        await create(copyOf(spec, takenIds(), { suffix: "", title: spec.title }));
      } else if (v.startsWith("builtin:")) {
        const rj = /** @type {any} */ (engine.rj);
        if (!rj) return;
        // The engine names the copy already: "<id>-copy", "<title> (copy)".
        const spec = rj.spec(v.slice(8));
        await create(copyOf(spec, takenIds(), { suffix: "", title: spec.title || `${v.slice(8)} (copy)` }));
      }
    } catch (e) {
      say("✗ Could not start from it: " + errText(e), true);
    }
  }

  function say(text, error = false) {
    msg.className = "custom-msg" + (text ? (error ? " msg-error" : " msg-note") : "");
    msg.textContent = text;
  }

  function drawList() {
    const recs = registry.customs();
    exportAllBtn.disabled = !recs.length;
    if (!recs.length) {
      replace(listEl, h("p", { class: "hint", dataset: { ref: "custom-empty" }, text: "No evaluators of yours yet. Start one from scratch, from a starter, or by duplicating a built-in." }));
      return;
    }
    const open = cur && cur.key;
    replace(
      listEl,
      h(
        "ul",
        { class: "custom-items" },
        recs.map((r) => {
          const ok = r.ok !== false;
          return h(
            "li",
            { class: "custom-item" + (r.id === open ? " is-open" : ""), dataset: { id: r.id } },
            h(
              "button",
              { type: "button", class: "custom-open", dataset: { ref: "custom-open" }, attrs: { "aria-current": r.id === open ? "true" : null }, on: { click: () => openEditor(r.id) } },
              h("span", { class: "custom-title", text: r.spec.title || r.id }),
              h("span", { class: "custom-id mono", text: r.id }),
            ),
            h("span", { class: "custom-state " + (ok ? "is-ok" : "is-bad"), dataset: { ref: "custom-state" }, text: ok ? "✓ ready" : "✗ has errors" }),
          );
        }),
      ),
    );
  }

  // ---- the editor -----------------------------------------------------------------------------
  /**
   * @type {null | {key: string, spec: any, inputs: EditInput[], kinds: Record<string, string>, raw: any, answer: string, checks: any[], ok: boolean|undefined,
   *   editors: Map<string, ReturnType<typeof templateEditor>>, fieldErrors: Map<string, HTMLElement>, outErrors: Map<string, HTMLElement>}}
   */
  let cur = null;
  /** @type {Record<string, HTMLElement>} */
  let parts = {};

  /** create stores spec as a new evaluator and opens it. @param {any} spec */
  async function create(spec) {
    const { sample, answer } = sampleOf(spec);
    const rec = { id: spec.id, spec, sample, answer, ok: checkOk(spec), updatedAt: Date.now() };
    await registry.save(rec);
    say(`✓ Created ${spec.title || spec.id}.`);
    openEditor(spec.id);
    drawList();
    parts.title?.focus();
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
      cur = null;
      replace(editorEl, h("section", { class: "card custom-none" }, h("p", { class: "hint", text: "Open one of your evaluators above, or start a new one." })));
      drawList();
      return;
    }
    if (prefs().open !== id) state.set({ custom: { ...prefs(), open: id } });
    const spec = structuredClone(r.spec);
    const inputs = (spec.inputs || []).map((/** @type {any} */ i) => ({ ...i }));
    const d = describe({ ...spec, inputs: cleanInputs(inputs) });
    cur = { key: id, spec, inputs, kinds: {}, raw: fromInputs(d, (r.sample && r.sample.inputs) || {}), answer: r.answer || "", checks: [], ok: r.ok, editors: new Map(), fieldErrors: new Map(), outErrors: new Map() };
    drawEditor();
    drawList();
    check();
  }

  function drawEditor() {
    const c = /** @type {NonNullable<typeof cur>} */ (cur);
    const s = c.spec;
    const fieldErrors = (c.fieldErrors = new Map());
    const field = (label, control, path, hint) => {
      control.id ||= uid("cf");
      const err = h("div", { class: "field-error", id: control.id + "-err", dataset: { errorFor: path }, attrs: { "aria-live": "polite" } });
      fieldErrors.set(path, err);
      control.setAttribute("aria-describedby", err.id);
      return h("div", { class: "field", dataset: { path } }, h("label", { htmlFor: control.id, text: label }), control, hint ? h("div", { class: "hint", text: hint }) : null, err);
    };
    const textIn = (key, ref, attrs = {}) =>
      h("input", { type: "text", class: "input", value: s[key] ?? "", dataset: { ref }, attrs: { autocomplete: "off", ...attrs }, on: { input: (e) => ((s[key] = /** @type {HTMLInputElement} */ (e.target).value), edited()) } });

    const status = h("div", { class: "custom-status", dataset: { ref: "custom-status" }, attrs: { role: "status", "aria-live": "polite" } });
    const idIn = textIn("id", "custom-id", { spellcheck: "false", pattern: "[a-z0-9-]+" });
    const titleIn = textIn("title", "custom-title");
    // The words a verdict is shown with ("Polite" / "Not polite"); both or neither.
    const wordIn = (which, ref) =>
      h("input", {
        type: "text",
        class: "input",
        value: (s.words && s.words[which]) || "",
        dataset: { ref },
        attrs: { autocomplete: "off", placeholder: which === "passed" ? "Passed" : "Failed" },
        on: {
          input: (e) => {
            const words = { passed: "", failed: "", ...(s.words || {}), [which]: /** @type {HTMLInputElement} */ (e.target).value };
            if (!words.passed.trim() && !words.failed.trim()) delete s.words;
            else s.words = words;
            edited();
          },
        },
      });
    const passedIn = wordIn("passed", "custom-word-passed");
    const failedIn = wordIn("failed", "custom-word-failed");
    const descIn = h("textarea", { class: "input", rows: 2, value: s.description ?? "", dataset: { ref: "custom-description" }, on: { input: () => ((s.description = descIn.value), autoGrow(descIn), edited()) } });
    requestAnimationFrame(() => autoGrow(descIn));
    const dialectSel = h(
      "select",
      { class: "input narrow", dataset: { ref: "custom-dialect" }, on: { change: () => ((s.dialect = dialectSel.value), edited()) } },
      h("option", { value: "jinja", text: "Jinja" }),
      h("option", { value: "format", text: "str.format" }),
    );
    dialectSel.value = s.dialect === "format" ? "format" : "jinja";
    parts = { title: titleIn };

    // templates: one prompt, or messages
    const tplEl = h("div", { class: "tpl-list" });
    const shapeSel = h(
      "select",
      { class: "input", dataset: { ref: "custom-shape" }, on: { change: () => setShape(shapeSel.value) } },
      h("option", { value: "prompt", text: "One prompt (the user's message)" }),
      h("option", { value: "messages", text: "Messages (system, user, assistant)" }),
    );
    shapeSel.value = Array.isArray(s.messages) ? "messages" : "prompt";
    const addMsgBtn = h("button", { type: "button", class: "btn btn-small", text: "+ Add a message", dataset: { ref: "custom-add-message" }, on: { click: () => { s.messages.push({ role: "user", content: "" }); drawTemplates(); edited(); } } });

    function setShape(v) {
      if (v === "messages" && !Array.isArray(s.messages)) {
        s.messages = [{ role: "system", content: "" }, { role: "user", content: s.prompt ?? "" }];
        delete s.prompt;
      } else if (v === "prompt" && Array.isArray(s.messages)) {
        s.prompt = s.messages.map((/** @type {any} */ m) => m.content).filter(Boolean).join("\n\n");
        delete s.messages;
      }
      drawTemplates();
      edited();
    }

    function drawTemplates() {
      c.editors = new Map();
      addMsgBtn.hidden = !Array.isArray(s.messages);
      const blocks = templatesOf(s).map((t, i) => {
        const ed = templateEditor({
          label: t.role ? `Message ${i + 1} (${t.role})` : "Prompt",
          ref: t.role ? `custom-tpl-${i}` : "custom-tpl",
          value: t.source,
          onInput: (v) => {
            if (Array.isArray(s.messages)) s.messages[i].content = v;
            else s.prompt = v;
            edited();
          },
        });
        c.editors.set(t.path, ed);
        if (!t.role) return ed.el;
        const roleSel = h("select", { class: "input narrow", dataset: { ref: `custom-role-${i}` }, attrs: { "aria-label": `Role of message ${i + 1}` }, on: { change: () => ((s.messages[i].role = roleSel.value), edited()) } }, ROLES.map((r) => h("option", { value: r, text: r })));
        roleSel.value = t.role;
        const rm = h("button", { type: "button", class: "btn btn-small btn-ghost", text: "Remove", attrs: { "aria-label": `Remove message ${i + 1}` }, disabled: s.messages.length < 2, on: { click: () => { s.messages.splice(i, 1); drawTemplates(); edited(); } } });
        const err = h("div", { class: "field-error", dataset: { errorFor: `messages[${i}].role` } });
        fieldErrors.set(`messages[${i}].role`, err);
        return h("div", { class: "tpl-message" }, h("div", { class: "btn-row" }, roleSel, rm), ed.el, err);
      });
      replace(tplEl, blocks);
      if (cur) showChecks();
    }

    // inputs table
    const inputsEl = h("div", { class: "inputs-table", dataset: { ref: "custom-inputs" } });
    const outEl = h("div", { class: "output-form", dataset: { ref: "custom-output" } });
    c.outErrors = outputForm(outEl, s, registry.builtins, () => edited()).errors;

    // preview and verdict
    const sampleEl = h("div", { class: "form", dataset: { ref: "custom-sample" } });
    const previewEl = h("div", { class: "custom-preview", dataset: { ref: "custom-preview" }, attrs: { "aria-live": "polite" } });
    const answerTA = h("textarea", { class: "input mono answer", id: uid("cans"), rows: 6, value: c.answer, dataset: { ref: "custom-answer" }, attrs: { spellcheck: "false", placeholder: "Paste a judge's answer here: the verdict updates as you paste." }, on: { input: () => { c.answer = answerTA.value; pending = true; editorEl.dataset.saving = "true"; saveSoon(); verdictSoon(); } } });
    const verdictEl = h("div", { class: "verdict-slot", dataset: { ref: "custom-verdict" }, attrs: { "aria-live": "polite" } });

    const exportBtn = h("button", { type: "button", class: "btn btn-small", text: "⤓ Export .json", dataset: { ref: "custom-export" }, on: { click: () => exportSpecs([specNow()], `${s.id}.json`) } });
    const dupBtn = h("button", { type: "button", class: "btn btn-small", text: "Duplicate", dataset: { ref: "custom-duplicate" }, on: { click: () => create(copyOf(specNow(), takenIds())) } });
    const delBtn = deleteButton();
    const useBtn = h("button", { type: "button", class: "btn btn-small btn-primary", text: "Use in Evaluate", dataset: { ref: "custom-use" }, on: { click: () => registry.use(s.id) } });

    replace(
      editorEl,
      h(
        "div",
        { class: "custom-panes" },
        h(
          "div",
          { class: "col" },
          h(
            "section",
            { class: "card" },
            h("div", { class: "card-head" }, h("h2", { class: "card-title", text: "Evaluator" }), h("div", { class: "btn-row" }, useBtn, exportBtn, dupBtn, delBtn)),
            status,
            h("div", { class: "row2" }, field("Title", titleIn, "title"), field("Id", idIn, "id", "a-z, 0-9 and -; how datasets, runs and exports name it")),
            field("Description", descIn, "description"),
            h("div", { class: "row2" }, field("A passed verdict says", passedIn, "words.passed"), field("A failed verdict says", failedIn, "words.failed")),
          ),
          h(
            "section",
            { class: "card" },
            h("h2", { class: "card-title", text: "Prompt template" }),
            h("div", { class: "row2" }, field("Dialect", dialectSel, "dialect", s.dialect === "format" ? "{name}; {{ and }} for braces" : "{{ name }}, {% for %}, {% if %}, filters"), field("Sent as", shapeSel, "messages")),
            tplEl,
            addMsgBtn,
          ),
          h("section", { class: "card" }, h("h2", { class: "card-title", text: "Inputs" }), h("p", { class: "hint", text: "The names your templates read are added as you write them; give each a label, and say whether it is one text or a list." }), inputsEl),
          h("section", { class: "card" }, h("h2", { class: "card-title", text: "Reading the judge's answer" }), outEl),
        ),
        h(
          "div",
          { class: "col" },
          h("section", { class: "card" }, h("h2", { class: "card-title", text: "Preview with sample inputs" }), sampleEl, previewEl),
          h("section", { class: "card verdict-card" }, h("h2", { class: "card-title" }, h("label", { htmlFor: answerTA.id, text: "Paste a judge answer" })), answerTA, h("h3", { text: "Verdict" }), verdictEl),
        ),
      ),
    );
    Object.assign(parts, { useBtn, status, inputsEl, sampleEl, previewEl, verdictEl, answerTA, idIn, dialectSel });
    drawTemplates();
    drawInputs();
    drawSample();

    function deleteButton() {
      let armed = 0;
      const b = h("button", {
        type: "button",
        class: "btn btn-small btn-ghost",
        text: "Delete",
        dataset: { ref: "custom-delete" },
        on: {
          click: async () => {
            if (!armed) {
              b.textContent = "Delete it? Click again";
              b.classList.add("btn-stop");
              armed = setTimeout(() => {
                armed = 0;
                b.textContent = "Delete";
                b.classList.remove("btn-stop");
              }, 4000);
              return;
            }
            clearTimeout(armed);
            const key = c.key;
            await registry.remove(key);
            say(`Deleted ${s.title || key}. Batch runs that used it keep its definition.`);
            const next = registry.customs()[0];
            state.set({ custom: { ...prefs(), open: next ? next.id : "" } });
            openEditor(next ? next.id : "");
          },
        },
      });
      return b;
    }
  }

  /** drawInputs draws the inputs table from cur.inputs. */
  function drawInputs() {
    const c = /** @type {NonNullable<typeof cur>} */ (cur);
    if (!c.inputs.length) {
      replace(parts.inputsEl, h("p", { class: "hint", text: "Your templates read no input yet: write {{ name }} (Jinja) or {name} (str.format) where a value goes." }));
      return;
    }
    const rows = c.inputs.map((inp, i) => {
      const touch = () => {
        delete inp.auto;
        edited({ inputs: true });
      };
      const name = h("input", { type: "text", class: "input mono", value: inp.name, dataset: { ref: "custom-input-name" }, attrs: { "aria-label": `Name of input ${i + 1}`, autocomplete: "off", spellcheck: "false" }, on: { input: () => ((inp.name = name.value), touch()) } });
      const label = h("input", { type: "text", class: "input", value: inp.label ?? "", dataset: { ref: "custom-input-label" }, attrs: { "aria-label": `Label of input ${i + 1}`, autocomplete: "off" }, on: { input: () => ((inp.label = label.value), touch()) } });
      const kinds = [["text", "text"], ["list", "list of texts"]];
      // A duplicated built-in's own kinds (claims, evidence, choice, number) stay on offer.
      if (inp.kind && !kinds.some(([k]) => k === inp.kind)) kinds.push([inp.kind, inp.kind]);
      const kind = h("select", { class: "input", dataset: { ref: "custom-input-kind" }, attrs: { "aria-label": `Kind of input ${i + 1}` }, on: { change: () => ((inp.kind = kind.value), touch(), drawSample()) } }, kinds.map(([v, t]) => h("option", { value: v, text: t })));
      kind.value = inp.kind || "text";
      const req = h("input", { type: "checkbox", checked: !!inp.required, dataset: { ref: "custom-input-required" }, attrs: { "aria-label": `Input ${i + 1} is required` }, on: { change: () => ((inp.required = req.checked), touch()) } });
      const rm = h("button", { type: "button", class: "btn btn-small btn-ghost", text: "Remove", attrs: { "aria-label": `Remove input ${i + 1}` }, on: { click: () => { c.inputs.splice(i, 1); drawInputs(); edited({ inputs: true }); drawSample(); } } });
      const err = h("div", { class: "field-error", dataset: { errorFor: `inputs[${i}]` } });
      return [
        h("tr", { dataset: { input: inp.name } }, h("td", {}, name), h("td", {}, label), h("td", {}, kind), h("td", { class: "center" }, req), h("td", { class: "input-note" }, inp.unused ? h("span", { class: "chip", text: "not read" }) : null, rm)),
        h("tr", { class: "input-err" }, h("td", { attrs: { colspan: "5" } }, err)),
      ];
    });
    replace(
      parts.inputsEl,
      // On a phone the table scrolls inside its card rather than widening the page.
      h("div", { class: "table-wrap" }, h("table", { class: "ptable inputs" }, h("thead", {}, h("tr", {}, ["Name", "Label", "Kind", "Required"].map((t) => h("th", { text: t })), h("th", {}, h("span", { class: "sr-only", text: "Actions" })))), h("tbody", {}, rows))),
    );
    if (cur) showChecks();
  }

  /** drawSample draws the preview's sample inputs form for the current inputs. */
  function drawSample() {
    const c = /** @type {NonNullable<typeof cur>} */ (cur);
    const d = sampleDesc();
    for (const i of d.inputs) if (c.raw[i.name] === undefined) c.raw[i.name] = fromInputs({ inputs: [i] }, { [i.name]: sampleValue(i) })[i.name];
    for (const i of d.inputs) {
      // A kind changed: the sample's value is carried over to the new kind's shape.
      const was = c.kinds[i.name];
      if (was && was !== i.kind) {
        const v = toInputs({ inputs: [{ ...i, kind: was }] }, { [i.name]: c.raw[i.name] })[i.name];
        c.raw[i.name] = fromInputs({ inputs: [i] }, { [i.name]: Array.isArray(v) && (i.kind === "text" || i.kind === "choice" || i.kind === "number") ? v.map((x) => (typeof x === "object" ? x.text : x)).join("\n") : v })[i.name];
      }
      c.kinds[i.name] = i.kind;
    }
    buildForm(parts.sampleEl, d, c.raw, () => {
      pending = true;
      saveSoon();
      previewSoon();
    });
  }

  function sampleDesc() {
    const c = /** @type {NonNullable<typeof cur>} */ (cur);
    return describe({ ...c.spec, inputs: cleanInputs(c.inputs.filter((i) => i.name)) });
  }

  /** specNow is the spec as the editor holds it, ready to check or save. */
  function specNow() {
    const c = /** @type {NonNullable<typeof cur>} */ (cur);
    return { ...c.spec, inputs: cleanInputs(c.inputs.filter((i) => i.name !== "" || i.label)) };
  }

  // ---- checking, saving -----------------------------------------------------------------------
  const checkSoon = debounce(() => check(), CHECK_MS);
  const saveSoon = debounce(() => save(), 300);
  const previewSoon = debounce(() => preview(), 120);
  const verdictSoon = debounce(() => verdict(), 200);

  let pending = false; // an edit not yet checked and stored

  /** flush checks and stores at once an edit still waiting for its debounce. */
  function flush() {
    if (!pending) return;
    pending = false;
    check();
  }

  /** edited is called after every edit of the spec. @param {{inputs?: boolean}} [what] */
  function edited(what = {}) {
    pending = true;
    editorEl.dataset.saving = "true"; // until the edit is stored (tests wait on this before a reload)
    if (what.inputs) previewSoon();
    checkSoon();
  }

  /**
   * check asks the engine about the spec as it is: errors and warnings shown where they point,
   * the inputs synced with the names the templates read, and then saved (defined in the engine
   * when there is no error) and previewed.
   */
  function check() {
    pending = false;
    const c = cur;
    if (!c) return;
    const rj = /** @type {any} */ (engine.rj);
    if (!rj) {
      parts.status.className = "custom-status note";
      parts.status.textContent = engineNote(engine, "Checks appear");
      save();
      return;
    }
    const t0 = performance.now();
    let res = rj.checkEvaluator(specNow());
    const t1 = performance.now();
    // The names the templates read: new ones become inputs, inputs added that way and no longer
    // read go (a name typed letter by letter leaves no trail); inputs the user touched stay.
    // A template that does not parse reads no names yet: the table waits for it to parse again.
    const templateBroken = res.errors.some((/** @type {any} */ e) => e.code === "evaluator.template" || e.code === "evaluator.bad-spec");
    if (!templateBroken && Array.isArray(res.variables)) {
      const before = JSON.stringify(c.inputs);
      const next = syncInputs(c.inputs, res.variables);
      if (JSON.stringify(next) !== before) {
        c.inputs = next;
        drawInputs();
        drawSample();
        res = rj.checkEvaluator(specNow());
      }
    }
    // Page-side checks: the id must be free among the user's own (the core knows the built-ins').
    const local = [];
    const id = c.spec.id;
    if (typeof id === "string" && id !== c.key && registry.records.has(id)) local.push({ severity: "error", code: "evaluator.bad-id", message: `You already have an evaluator with the id ${id}.`, path: "id" });
    // While a template does not parse, every input looks unread: those warnings would only be noise.
    const warnings = res.warnings.filter((/** @type {any} */ w) => !(templateBroken && w.code === "evaluator.unused-input"));
    c.checks = [...local, ...res.errors, ...warnings.map((/** @type {any} */ w) => ({ severity: "warning", ...w }))].map((x) => ({ severity: x.severity || "error", ...x }));
    c.ok = !local.length && !!res.ok;
    showChecks();
    // How long a re-check took (the engine's check and drawing its results), for the figures.
    editorEl.dataset.checkMs = (performance.now() - t0).toFixed(2);
    editorEl.dataset.checkEngineMs = (t1 - t0).toFixed(2);
    save();
  }

  /** showChecks puts each check where it points: its template's line, its field, or the status. */
  function showChecks() {
    const c = cur;
    if (!c) return;
    const byTemplate = new Map();
    const rest = [];
    const fieldMsgs = new Map();
    for (const ch of c.checks) {
      const p = ch.path || "";
      if (c.editors.has(p)) {
        if (!byTemplate.has(p)) byTemplate.set(p, []);
        byTemplate.get(p).push(ch);
        continue;
      }
      const slot = slotFor(p);
      if (slot) {
        fieldMsgs.set(slot, [...(fieldMsgs.get(slot) || []), ch]);
        continue;
      }
      rest.push(ch);
    }
    for (const [p, ed] of c.editors) ed.setChecks(byTemplate.get(p) || []);
    for (const el of [...c.fieldErrors.values(), ...c.outErrors.values(), ...parts.inputsEl.querySelectorAll("[data-error-for]")]) {
      if (/** @type {HTMLElement} */ (el).dataset.local === "1") continue;
      el.textContent = "";
      el.closest(".field")?.classList.remove("has-error");
    }
    for (const [slot, list] of fieldMsgs) {
      slot.textContent = list.map((/** @type {any} */ x) => (x.severity === "error" ? "✗ " : "⚠ ") + x.message).join(" ");
      slot.dataset.severity = list.some((/** @type {any} */ x) => x.severity === "error") ? "error" : "warning";
      slot.closest(".field")?.classList.toggle("has-error", slot.dataset.severity === "error");
    }
    const errors = c.checks.filter((x) => x.severity === "error").length;
    const warnings = c.checks.length - errors;
    parts.status.className = "custom-status " + (errors ? "msg-error" : warnings ? "msg-warning" : "msg-ok");
    parts.status.dataset.state = errors ? "error" : "ok";
    /** @type {HTMLButtonElement} */ (parts.useBtn).disabled = !!errors;
    replace(
      parts.status,
      h("strong", { text: errors ? `✗ ${errors} error${errors === 1 ? "" : "s"}: fix ${errors === 1 ? "it" : "them"} to use this evaluator in Evaluate and Batch.` : "✓ Ready: offered in Evaluate and Batch." }),
      warnings ? ` ${warnings} warning${warnings === 1 ? "" : "s"}.` : null,
      rest.length ? h("ul", { class: "status-checks" }, rest.map((x) => h("li", { text: `${x.severity === "error" ? "✗" : "⚠"} ${x.path ? x.path + ": " : ""}${x.message}` }))) : null,
    );
  }

  /** slotFor is the element a check about path is shown in, or null. @param {string} p */
  function slotFor(p) {
    const c = /** @type {NonNullable<typeof cur>} */ (cur);
    if (!p) return null;
    if (c.fieldErrors.has(p)) return c.fieldErrors.get(p);
    if (p.startsWith("output")) {
      for (let q = p; q; q = q.includes(".") || q.includes("[") ? q.replace(/(\.[^.[\]]*|\[\d+\])$/, "") : "") if (c.outErrors.has(q)) return c.outErrors.get(q);
      return c.outErrors.get("output") || null;
    }
    const m = /^inputs\[(\d+)\]/.exec(p);
    if (m) return /** @type {HTMLElement|null} */ (parts.inputsEl.querySelector(`[data-error-for="inputs[${m[1]}]"]`));
    if (p === "inputs") return null;
    const msgRole = /^messages\[(\d+)\]/.exec(p);
    if (msgRole && c.fieldErrors.has(`messages[${msgRole[1]}].role`)) return c.fieldErrors.get(`messages[${msgRole[1]}].role`);
    return null;
  }

  /** save stores the evaluator as the editor holds it; a renamed one moves to its new id. */
  async function save() {
    const c = cur;
    if (!c) return;
    const spec = specNow();
    const d = sampleDesc();
    const rec = { id: spec.id, spec, sample: { inputs: toInputs(d, c.raw) }, answer: c.answer, ok: c.ok, updatedAt: Date.now() };
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
    editorEl.dataset.saving = "false";
    drawList();
    preview();
  }

  /** preview renders the prompt with the sample inputs, then the verdict of the pasted answer. */
  function preview() {
    const c = cur;
    if (!c) return;
    const rj = /** @type {any} */ (engine.rj);
    const el = parts.previewEl;
    if (!rj) {
      replace(el, h("p", { class: "note", text: engineNote(engine, "The preview appears") }));
      return verdict();
    }
    if (!c.ok || registry.records.get(c.key)?.ok === false) {
      replace(el, h("p", { class: "note", dataset: { ref: "custom-preview-note" }, text: "The preview appears when the evaluator has no errors." }));
      return verdict();
    }
    const d = sampleDesc();
    const inputs = toInputs(d, c.raw);
    let r;
    try {
      r = rj.render(c.key, inputs);
    } catch (e) {
      const missing = missingRequired(d, inputs);
      replace(el, missing.length ? h("p", { class: "note", text: `Fill in ${listWords(missing)} to see the prompt.` }) : h("p", { class: "msg-error", dataset: { ref: "custom-render-error" } }, h("strong", { text: "✗ Cannot render the prompt: " }), errText(e)));
      return verdict();
    }
    const messages = r.messages || [{ role: "user", content: r.prompt }];
    replace(
      el,
      (r.checks || r.warnings || []).map((/** @type {any} */ w) => h("p", { class: "msg-warning", text: "⚠ " + (typeof w === "string" ? w : w.message) })),
      messages.map((/** @type {any} */ m) => h("div", { class: "preview-msg" }, h("div", { class: "preview-role", text: m.role }), h("pre", { class: "prompt mono", dataset: { ref: "custom-rendered" }, tabIndex: 0, attrs: { "aria-label": `Rendered ${m.role} message` }, text: m.content }))),
      h("p", { class: "hint", text: `${messages.reduce((n, m) => n + m.content.length, 0).toLocaleString()} characters · about ${Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4).toLocaleString()} tokens` }),
    );
    verdict();
  }

  /** verdict reads the pasted answer with the evaluator's reader and draws it as Evaluate does. */
  function verdict() {
    const c = cur;
    if (!c) return;
    const el = parts.verdictEl;
    const rj = /** @type {any} */ (engine.rj);
    if (!c.answer.trim()) {
      replace(el, h("p", { class: "note", text: "Paste what a judge answered to this prompt: the verdict appears here." }));
      return;
    }
    if (!rj) {
      replace(el, h("p", { class: "note", text: engineNote(engine, "The verdict appears") }));
      return;
    }
    if (!c.ok || registry.records.get(c.key)?.ok === false) {
      replace(el, h("p", { class: "note", text: "The verdict appears when the evaluator has no errors." }));
      return;
    }
    const d = sampleDesc();
    const inputs = toInputs(d, c.raw);
    let v;
    try {
      v = rj.parse(c.key, inputs, c.answer);
    } catch (e) {
      replace(el, badge(null, { cause: "the inputs are not valid", size: "badge-big" }), checksView([{ severity: "error", message: errText(e) }]));
      return;
    }
    const ev = registry.get(c.key) || d;
    replace(el, renderVerdict({ rj, ev, inputs, v, answer: c.answer, onLocate: (/** @type {any} */ x) => selectSpan(/** @type {HTMLTextAreaElement} */ (parts.answerTA), x) }));
  }

  // ---- import, export -------------------------------------------------------------------------
  /** @param {any[]} specs @param {string} name */
  function exportSpecs(specs, name) {
    if (!specs.length) return;
    download(name, exportFile(specs), "application/json");
  }

  /** importFile reads a .json file of one or more evaluators, checks each and keeps those without errors. @param {File} file */
  async function importFile(file) {
    fileInput.value = "";
    say(`Reading ${file.name}…`);
    const { specs, names, errors } = readImport(await file.text());
    const problems = [...errors];
    if (specs.length && !(await engine.whenReady())) {
      say("✗ The judge engine did not load, so the evaluators cannot be checked: nothing was imported.", true);
      return;
    }
    const rj = /** @type {any} */ (engine.rj);
    const added = [];
    for (const [k, spec] of specs.entries()) {
      if (registry.builtinIds().has(spec.id)) {
        problems.push(`${names[k]}: that id is a built-in's; rename it in the file.`);
        continue;
      }
      const res = rj.checkEvaluator(spec);
      if (!res.ok) {
        problems.push(importProblem(names[k], res.errors));
        continue;
      }
      const id = registry.records.has(spec.id) ? freeId(spec.id + "-imported", takenIds()) : spec.id;
      const s = { ...spec, id };
      const { sample, answer } = sampleOf(s);
      await registry.save({ id, spec: s, sample, answer, ok: true, updatedAt: Date.now() });
      added.push(id === spec.id ? id : `${spec.id} as ${id} (you have one by that id)`);
    }
    drawList();
    if (added.length) openEditor(added[0].split(" ")[0]);
    const text = (added.length ? `✓ Imported ${added.join(", ")}.` : "✗ Nothing was imported.") + (problems.length ? " Not imported: " + problems.join(" ") : "");
    say(text, !added.length);
  }

  // ---- the engine, the list ---------------------------------------------------------------------
  engine.addEventListener("change", () => {
    drawFrom();
    if (cur) check();
  });
  registry.addEventListener("change", () => drawList());
  // Leaving the page (or its tab) right after typing: what was typed is stored now.
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && flush());

  drawFrom();
  drawList();
  const first = prefs().open && registry.records.has(prefs().open) ? prefs().open : registry.customs()[0]?.id;
  openEditor(first || "");
}

/**
 * loadStarters reads custom/starters.json: the starter evaluators (web/starters/) the "New from…"
 * menu offers, in its order, with the titles it shows them by.
 * @returns {Promise<{file: string, title: string, description?: string, spec?: any}[]>}
 */
async function loadStarters() {
  try {
    const list = await fetchJSON(new URL("./starters.json", import.meta.url));
    if (!Array.isArray(list)) return [];
    return list
      .map((e) => (typeof e === "string" ? { file: e, title: labelOf(e.replace(/\.json$/, "")) } : e && typeof e.file === "string" ? { file: e.file, title: e.title || labelOf(e.file.replace(/\.json$/, "")), description: e.description } : null))
      .filter((e) => e !== null);
  } catch {
    return [];
  }
}

/** @param {URL} url */
async function fetchJSON(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: ${res.status} ${res.statusText}`);
  return res.json();
}

/** @param {unknown} e */
function errText(e) {
  const x = /** @type {any} */ (e);
  return (x && (x.detail || x.message)) || String(e);
}

/** ensureStylesheet adds custom.css to the page once. */
function ensureStylesheet() {
  if (document.querySelector('link[data-ref="custom-css"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./custom.css", import.meta.url).href;
  link.dataset.ref = "custom-css";
  document.head.append(link);
}
