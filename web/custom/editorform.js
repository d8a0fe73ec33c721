// editorform.js: the editor form of the My evaluators view (view.js): the evaluator's fields, its
// templates (one prompt or messages, each in a templateEditor), the inputs table, the reader's
// settings (outputform.js), and the checks shown where they point. The preview pane's elements are
// made here too, so the two columns are laid out in one place; preview.js fills them.

import { h, replace, uid, confirmButton } from "../lib/dom.js";
import { autoGrow } from "../lib/form.js";
import { templateEditor } from "./editor.js";
import { outputForm } from "./outputform.js";
import { copyOf, templatesOf, removeField } from "./specedit.js";
import { builtinKinds } from "../api/specrules.js";
import { checkupForm } from "../checkup/specform.js";

const ROLES = ["system", "user", "assistant"];

/** KIND_WORDS name an input's kinds in the inputs table. */
const KIND_WORDS = { text: "text", list: "list of texts", claims: "claims", evidence: "evidence" };

/**
 * editorForm makes the editor form's drawing functions, working on the view's shared context.
 * @param {import("./view.js").Ctx} ctx
 */
export function editorForm(ctx) {
  const { registry, state, prefs } = ctx;

  function drawEditor() {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
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
      h("input", { type: "text", class: "input", value: s[key] ?? "", dataset: { ref }, attrs: { autocomplete: "off", ...attrs }, on: { input: (e) => ((s[key] = /** @type {HTMLInputElement} */ (e.target).value), ctx.edited()) } });

    const status = h("div", { class: "custom-status", dataset: { ref: "custom-status" }, attrs: { role: "status", "aria-live": "polite" } });
    // The pattern is compiled with the v flag, where a "-" in a class must be escaped.
    const idIn = textIn("id", "custom-id", { spellcheck: "false", pattern: "[a-z0-9\\-]+" });
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
            ctx.edited();
          },
        },
      });
    const passedIn = wordIn("passed", "custom-word-passed");
    const failedIn = wordIn("failed", "custom-word-failed");
    const descIn = h("textarea", { class: "input", rows: 2, value: s.description ?? "", dataset: { ref: "custom-description" }, on: { input: () => ((s.description = descIn.value), autoGrow(descIn), ctx.edited()) } });
    requestAnimationFrame(() => autoGrow(descIn));
    const dialectSel = h(
      "select",
      { class: "input narrow", dataset: { ref: "custom-dialect" }, on: { change: () => ((s.dialect = dialectSel.value), ctx.edited()) } },
      h("option", { value: "jinja", text: "Jinja" }),
      h("option", { value: "format", text: "str.format" }),
    );
    dialectSel.value = s.dialect === "format" ? "format" : "jinja";
    ctx.parts = { title: titleIn };

    // templates: one prompt, or messages
    const tplEl = h("div", { class: "tpl-list" });
    const shapeSel = h(
      "select",
      { class: "input", dataset: { ref: "custom-shape" }, on: { change: () => setShape(shapeSel.value) } },
      h("option", { value: "prompt", text: "One prompt (the user's message)" }),
      h("option", { value: "messages", text: "Messages (system, user, assistant)" }),
    );
    shapeSel.value = Array.isArray(s.messages) ? "messages" : "prompt";
    const addMsgBtn = h("button", { type: "button", class: "btn btn-small", text: "+ Add a message", dataset: { ref: "custom-add-message" }, on: { click: () => { s.messages.push({ role: "user", content: "" }); drawTemplates(); ctx.edited(); } } });

    function setShape(v) {
      if (v === "messages" && !Array.isArray(s.messages)) {
        s.messages = [{ role: "system", content: "" }, { role: "user", content: s.prompt ?? "" }];
        delete s.prompt;
      } else if (v === "prompt" && Array.isArray(s.messages)) {
        s.prompt = s.messages.map((/** @type {any} */ m) => m.content).filter(Boolean).join("\n\n");
        delete s.messages;
      }
      drawTemplates();
      ctx.edited();
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
            ctx.edited();
          },
        });
        c.editors.set(t.path, ed);
        if (!t.role) return ed.el;
        const roleSel = h("select", { class: "input narrow", dataset: { ref: `custom-role-${i}` }, attrs: { "aria-label": `Role of message ${i + 1}` }, on: { change: () => ((s.messages[i].role = roleSel.value), ctx.edited()) } }, ROLES.map((r) => h("option", { value: r, text: r })));
        roleSel.value = t.role;
        const rm = h("button", { type: "button", class: "btn btn-small btn-ghost", text: "Remove", attrs: { "aria-label": `Remove message ${i + 1}` }, disabled: s.messages.length < 2, on: { click: () => { s.messages.splice(i, 1); drawTemplates(); ctx.edited(); } } });
        const err = h("div", { class: "field-error", dataset: { errorFor: `messages[${i}].role` } });
        fieldErrors.set(`messages[${i}].role`, err);
        return h("div", { class: "tpl-message" }, h("div", { class: "btn-row" }, roleSel, rm), ed.el, err);
      });
      replace(tplEl, blocks);
      if (ctx.cur) showChecks();
    }

    // inputs table
    const inputsEl = h("div", { class: "inputs-table", dataset: { ref: "custom-inputs" } });
    const outEl = h("div", { class: "output-form", dataset: { ref: "custom-output" } });
    c.outErrors = outputForm(outEl, s, registry.builtins, () => ctx.edited()).errors;
    // The check-up's right verdicts (checkup/specform.js); its checks show under its controls.
    const checkupEl = h("div", { class: "checkup-form", dataset: { ref: "custom-checkup" } });
    for (const [p, el] of checkupForm(checkupEl, s, () => ctx.edited()).errors) fieldErrors.set(p, el);

    // preview and verdict
    const sampleEl = h("div", { class: "form", dataset: { ref: "custom-sample" } });
    const previewEl = h("div", { class: "custom-preview", dataset: { ref: "custom-preview" }, attrs: { "aria-live": "polite" } });
    const answerTA = h("textarea", { class: "input mono answer", id: uid("cans"), rows: 6, value: c.answer, dataset: { ref: "custom-answer" }, attrs: { spellcheck: "false", placeholder: "Paste a judge's answer here: the verdict updates as you paste." }, on: { input: () => { c.answer = answerTA.value; ctx.pending = true; ctx.editorEl.dataset.saving = "true"; ctx.saveSoon(); ctx.verdictSoon(); } } });
    const verdictEl = h("div", { class: "verdict-slot", dataset: { ref: "custom-verdict" }, attrs: { "aria-live": "polite" } });
    // The example (spec.example) is set only here, on purpose: the sample inputs and the pasted
    // answer are for trying the prompt, and become the example Evaluate loads and an export
    // carries when the user says so.
    const exampleState = h("p", { class: "example-state", dataset: { ref: "custom-example-state" }, attrs: { "aria-live": "polite" } });
    const exampleBtn = (text, ref, click) => h("button", { type: "button", class: "btn btn-small", text, dataset: { ref }, on: { click } });
    const exSave = exampleBtn("Save as the example", "custom-example-save", () => ctx.saveExample());
    const exLoad = exampleBtn("Load the example", "custom-example-load", () => ctx.loadExample());
    const exDrop = exampleBtn("Remove the example", "custom-example-remove", () => ctx.dropExample());
    exDrop.classList.add("btn-ghost");

    const exportBtn = h("button", { type: "button", class: "btn btn-small", text: "⤓ Export .json", dataset: { ref: "custom-export" }, on: { click: () => ctx.exportSpecs([ctx.specNow()], `${s.id}.json`) } });
    const dupBtn = h("button", { type: "button", class: "btn btn-small", text: "Duplicate", dataset: { ref: "custom-duplicate" }, on: { click: () => ctx.create(copyOf(ctx.specNow(), ctx.takenIds())) } });
    const delBtn = confirmButton({
      text: "Delete",
      ask: "Delete it? Click again",
      dataset: { ref: "custom-delete" },
      onConfirm: async () => {
        const key = c.key;
        await registry.remove(key);
        ctx.say(`Deleted ${s.title || key}. Batch runs that used it keep its definition.`);
        const next = registry.customs()[0];
        state.set({ custom: { ...prefs(), open: next ? next.id : "" } });
        ctx.openEditor(next ? next.id : "");
      },
    });
    const useBtn = h("button", { type: "button", class: "btn btn-small btn-primary", text: "Use in Evaluate", dataset: { ref: "custom-use" }, on: { click: () => registry.use(s.id) } });

    replace(
      ctx.editorEl,
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
          h("section", { class: "card" }, h("h2", { class: "card-title", text: "Check-up" }), checkupEl),
        ),
        h(
          "div",
          { class: "col" },
          h(
            "section",
            { class: "card" },
            h("h2", { class: "card-title", text: "Preview with sample inputs" }),
            h("div", { class: "example-bar", dataset: { ref: "custom-example" } }, exampleState, h("div", { class: "btn-row" }, exSave, exLoad, exDrop)),
            sampleEl,
            previewEl,
          ),
          h("section", { class: "card verdict-card" }, h("h2", { class: "card-title" }, h("label", { htmlFor: answerTA.id, text: "Paste a judge answer" })), answerTA, h("h3", { text: "Verdict" }), verdictEl),
        ),
      ),
    );
    Object.assign(ctx.parts, { useBtn, status, inputsEl, sampleEl, previewEl, verdictEl, answerTA, idIn, dialectSel, exampleState, exSave, exLoad, exDrop });
    drawTemplates();
    drawInputs();
    ctx.drawSample();
  }

  /** drawInputs draws the inputs table from ctx.cur.inputs. */
  function drawInputs() {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    if (!c.inputs.length) {
      replace(ctx.parts.inputsEl, h("p", { class: "hint", text: "Your templates read no input yet: write {{ name }} (Jinja) or {name} (str.format) where a value goes." }));
      return;
    }
    const rows = c.inputs.map((inp, i) => {
      const touch = () => {
        delete inp.auto;
        ctx.edited({ inputs: true });
      };
      const name = h("input", { type: "text", class: "input mono", value: inp.name, dataset: { ref: "custom-input-name" }, attrs: { "aria-label": `Name of input ${i + 1}`, autocomplete: "off", spellcheck: "false" }, on: { input: () => ((inp.name = name.value), touch()) } });
      const label = h("input", { type: "text", class: "input", value: inp.label ?? "", dataset: { ref: "custom-input-label" }, attrs: { "aria-label": `Label of input ${i + 1}`, autocomplete: "off" }, on: { input: () => ((inp.label = label.value), touch()) } });
      // A built-in reader's own input takes the kinds its reader reads (claims, or a list of
      // texts); any other input is a text or a list of texts.
      const own = ctx.readerInputs().find((/** @type {any} */ x) => x.name === inp.name);
      const kinds = own ? builtinKinds(own).map((k) => [k, KIND_WORDS[k] || k]) : [["text", "text"], ["list", "list of texts"]];
      if (inp.kind && !kinds.some(([k]) => k === inp.kind)) kinds.push([inp.kind, inp.kind]);
      const kind = h("select", { class: "input", dataset: { ref: "custom-input-kind" }, attrs: { "aria-label": `Kind of input ${i + 1}` }, on: { change: () => ((inp.kind = kind.value), touch(), ctx.drawSample()) } }, kinds.map(([v, t]) => h("option", { value: v, text: t })));
      kind.value = inp.kind || "text";
      const req = h("input", { type: "checkbox", checked: !!inp.required, dataset: { ref: "custom-input-required" }, attrs: { "aria-label": `Input ${i + 1} is required` }, on: { change: () => ((inp.required = req.checked), touch()) } });
      // On a phone the table stacks and its header is hidden: the checkbox says what it is.
      const reqCell = h("label", { class: "input-req" }, req, h("span", { class: "narrow-only", text: " required", attrs: { "aria-hidden": "true" } }));
      const err = h("div", { class: "field-error", dataset: { errorFor: `inputs[${i}]` } });
      const rm = h("button", { type: "button", class: "btn btn-small btn-ghost", text: "Remove", dataset: { ref: "custom-input-remove" }, attrs: { "aria-label": `Remove input ${i + 1}` }, on: { click: () => removeInput(inp, err) } });
      return [
        h("tr", { dataset: { input: inp.name } }, h("td", {}, name), h("td", {}, label), h("td", {}, kind), h("td", { class: "center" }, reqCell), h("td", { class: "input-note" }, inp.unused ? h("span", { class: "chip", text: "not read" }) : null, rm)),
        h("tr", { class: "input-err" }, h("td", { attrs: { colspan: "5" } }, err)),
      ];
    });
    replace(
      ctx.parts.inputsEl,
      // On a phone the table scrolls inside its card rather than widening the page.
      h("div", { class: "table-wrap" }, h("table", { class: "ptable inputs" }, h("thead", {}, h("tr", {}, ["Name", "Label", "Kind", "Required"].map((t) => h("th", { text: t })), h("th", {}, h("span", { class: "sr-only", text: "Actions" })))), h("tbody", {}, rows))),
    );
    if (ctx.cur) showChecks();
  }

  /**
   * removeInput removes inp from the inputs table, unless it would come straight back: a name a
   * template reads (the editor makes such names inputs), or an input a built-in reader needs.
   * Then err, under its row, says why and what to do.
   * @param {any} inp @param {HTMLElement} err
   */
  function removeInput(inp, err) {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    const own = ctx.readerInputs().find((/** @type {any} */ x) => x.name === inp.name);
    // What the reader makes (reports) never comes back as an input: it may always go.
    const provided = !own && (c.provided || []).includes(inp.name);
    let why = "";
    if (own && own.required) why = `${c.spec.output.evaluator}'s reader needs ${inp.name}: it stays while this evaluator uses that reader.`;
    else if (!provided && (c.read || []).includes(inp.name)) why = `A template reads ${inp.name}: take it out of the template first, or it comes back as an input.`;
    if (why) {
      err.dataset.local = "1";
      err.dataset.severity = "warning";
      err.textContent = "⚠ " + why;
      return;
    }
    c.inputs.splice(c.inputs.indexOf(inp), 1);
    drawInputs();
    ctx.edited({ inputs: true });
    ctx.drawSample();
  }

  /**
   * removeFieldOf removes the unknown field a check is about (its path), from the inputs the
   * editor holds or from the spec, in place (the form's controls hold the spec's objects).
   * @param {string} path
   */
  function removeFieldOf(path) {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    if (path.startsWith("inputs[") ? removeField({ inputs: c.inputs }, path) : removeField(c.spec, path)) ctx.edited({ inputs: path.startsWith("inputs[") });
  }

  /** showChecks puts each check where it points: its template's line, its field, or the status. */
  function showChecks() {
    const c = ctx.cur;
    if (!c) return;
    const byTemplate = new Map();
    const rest = [];
    const fieldMsgs = new Map();
    for (const ch of c.checks) {
      const p = ch.path || "";
      // An unknown field has no control of its own: it is listed with a button that removes it.
      if (ch.code === "evaluator.unknown-field" && p) {
        rest.push(ch);
        continue;
      }
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
    for (const el of [...c.fieldErrors.values(), ...c.outErrors.values(), ...ctx.parts.inputsEl.querySelectorAll("[data-error-for]")]) {
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
    ctx.parts.status.className = "custom-status " + (errors ? "msg-error" : warnings ? "msg-warning" : "msg-ok");
    ctx.parts.status.dataset.state = errors ? "error" : "ok";
    /** @type {HTMLButtonElement} */ (ctx.parts.useBtn).disabled = !!errors;
    replace(
      ctx.parts.status,
      h("strong", { text: errors ? `✗ ${errors} error${errors === 1 ? "" : "s"}: fix ${errors === 1 ? "it" : "them"} to use this evaluator in Evaluate and Batch.` : "✓ Ready: offered in Evaluate and Batch." }),
      warnings ? ` ${warnings} warning${warnings === 1 ? "" : "s"}.` : null,
      rest.length
        ? h(
            "ul",
            { class: "status-checks", dataset: { ref: "custom-problems" } },
            rest.map((x) =>
              h(
                "li",
                { dataset: { code: x.code || "", path: x.path || "" } },
                `${x.severity === "error" ? "✗" : "⚠"} ${x.path ? x.path + ": " : ""}${x.message}`,
                x.code === "evaluator.unknown-field" && x.path
                  ? [" ", h("button", { type: "button", class: "btn btn-small btn-ghost", text: "Remove it", dataset: { ref: "custom-remove-field" }, attrs: { "aria-label": `Remove the field ${x.path}` }, on: { click: () => removeFieldOf(x.path) } })]
                  : null,
              ),
            ),
          )
        : null,
    );
  }

  /** slotFor is the element a check about path is shown in, or null. @param {string} p */
  function slotFor(p) {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    if (!p) return null;
    if (c.fieldErrors.has(p)) return c.fieldErrors.get(p);
    if (p.startsWith("output")) {
      for (let q = p; q; q = q.includes(".") || q.includes("[") ? q.replace(/(\.[^.[\]]*|\[\d+\])$/, "") : "") if (c.outErrors.has(q)) return c.outErrors.get(q);
      return c.outErrors.get("output") || null;
    }
    const m = /^inputs\[(\d+)\]/.exec(p);
    if (m) return /** @type {HTMLElement|null} */ (ctx.parts.inputsEl.querySelector(`[data-error-for="inputs[${m[1]}]"]`));
    if (p === "inputs") return null;
    const msgRole = /^messages\[(\d+)\]/.exec(p);
    if (msgRole && c.fieldErrors.has(`messages[${msgRole[1]}].role`)) return c.fieldErrors.get(`messages[${msgRole[1]}].role`);
    return null;
  }

  return { drawEditor, drawInputs, showChecks };
}
