// preview.js: the preview pane of the My evaluators view (view.js): the sample inputs form, the
// prompt rendered with them, the verdict of a pasted judge answer, drawn as Evaluate draws it, and
// the evaluator's example: the sample and answer saved as it when the user says so, loaded back.

import { h, replace, badge, selectSpan } from "../lib/dom.js";
import { buildForm, fromInputs, toInputs, missingRequired, listWords } from "../lib/form.js";
import { checksView } from "../verdict/render.js";
import { engineNote } from "../shell/enginestatus.js";
import { describe, cleanInputs, sampleValue, exampleOfSample, hasExampleIn } from "./specedit.js";
import { fmtInt } from "../lib/format.js";
import { canonical } from "./specsame.js";

/**
 * previewPane makes the preview pane's drawing functions, working on the view's shared context.
 * @param {import("./view.js").Ctx} ctx
 */
export function previewPane(ctx) {
  const { engine, registry, renderVerdict } = ctx;

  /** drawSample draws the preview's sample inputs form for the current inputs. */
  function drawSample() {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
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
    buildForm(ctx.parts.sampleEl, d, c.raw, () => {
      ctx.pending = true;
      ctx.saveSoon();
      ctx.previewSoon();
    });
    drawExample();
  }

  // ---- the example ------------------------------------------------------------------------------

  /** sampleNow is the editor's sample inputs and answer as an example would hold them. */
  function sampleNow() {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    const d = sampleDesc();
    return exampleOfSample(d.inputs, toInputs(d, c.raw), c.answer);
  }

  /** drawExample says how the sample stands to the evaluator's example, and which buttons apply. */
  function drawExample() {
    const c = ctx.cur;
    const { exampleState } = ctx.parts;
    const [exSave, exLoad, exDrop] = /** @type {HTMLButtonElement[]} */ ([ctx.parts.exSave, ctx.parts.exLoad, ctx.parts.exDrop]);
    if (!c || !exampleState) return;
    const has = hasExampleIn(c.spec);
    const now = sampleNow();
    const empty = !Object.keys(now.inputs).length && !now.answer;
    const same = has && canonical(now) === canonical({ inputs: c.spec.example.inputs || {}, answer: c.spec.example.answer || "" });
    exampleState.dataset.state = same ? "same" : has ? "differs" : "none";
    exampleState.textContent = same
      ? "✓ The sample inputs and the judge answer here are this evaluator's example: Evaluate's Load example loads them, and an export carries them."
      : has
        ? "The sample here is not the example: Save as the example to make it so, or Load the example to bring the example back."
        : "No example yet: Evaluate's Load example is off until you save one. What you try here stays here until you save it as the example.";
    exSave.disabled = same || empty;
    exLoad.disabled = !has || same;
    exDrop.disabled = !has;
  }

  /** saveExample makes the sample inputs and the pasted answer the evaluator's example. */
  function saveExample() {
    const c = ctx.cur;
    if (!c) return;
    c.spec.example = sampleNow();
    ctx.edited();
    drawExample();
  }

  /** loadExample puts the evaluator's example in the sample inputs and the answer pane. */
  function loadExample() {
    const c = ctx.cur;
    if (!c || !hasExampleIn(c.spec)) return;
    c.raw = fromInputs(sampleDesc(), c.spec.example.inputs || {});
    c.answer = c.spec.example.answer || "";
    /** @type {HTMLTextAreaElement} */ (ctx.parts.answerTA).value = c.answer;
    drawSample();
    ctx.pending = true;
    ctx.editorEl.dataset.saving = "true";
    ctx.saveSoon();
    preview();
  }

  /** dropExample removes the evaluator's example (the sample here stays). */
  function dropExample() {
    const c = ctx.cur;
    if (!c) return;
    delete c.spec.example;
    ctx.edited();
    drawExample();
  }

  function sampleDesc() {
    const c = /** @type {NonNullable<typeof ctx.cur>} */ (ctx.cur);
    return describe({ ...c.spec, inputs: cleanInputs(c.inputs.filter((i) => i.name)) });
  }

  /** preview renders the prompt with the sample inputs, then the verdict of the pasted answer. */
  function preview() {
    const c = ctx.cur;
    if (!c) return;
    const rj = /** @type {any} */ (engine.rj);
    const el = ctx.parts.previewEl;
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
      replace(el, missing.length ? h("p", { class: "note", text: `Fill in ${listWords(missing)} to see the prompt.` }) : h("p", { class: "msg-error", dataset: { ref: "custom-render-error" } }, h("strong", { text: "✗ Cannot render the prompt: " }), ctx.errText(e)));
      return verdict();
    }
    const messages = r.messages || [{ role: "user", content: r.prompt }];
    replace(
      el,
      (r.checks || r.warnings || []).map((/** @type {any} */ w) => h("p", { class: "msg-warning", text: "⚠ " + (typeof w === "string" ? w : w.message) })),
      messages.map((/** @type {any} */ m) => h("div", { class: "preview-msg" }, h("div", { class: "preview-role", text: m.role }), h("pre", { class: "prompt mono", dataset: { ref: "custom-rendered" }, tabIndex: 0, attrs: { "aria-label": `Rendered ${m.role} message` }, text: m.content }))),
      h("p", { class: "hint", text: `${fmtInt(messages.reduce((n, m) => n + m.content.length, 0))} characters · about ${Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4).toLocaleString()} tokens` }),
    );
    verdict();
  }

  /** verdict reads the pasted answer with the evaluator's reader and draws it as Evaluate does. */
  function verdict() {
    const c = ctx.cur;
    if (!c) return;
    drawExample();
    const el = ctx.parts.verdictEl;
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
      replace(el, badge(null, { cause: "the inputs are not valid", size: "badge-big" }), checksView([{ severity: "error", message: ctx.errText(e) }]));
      return;
    }
    const ev = registry.get(c.key) || d;
    replace(el, renderVerdict({ rj, ev, inputs, v, answer: c.answer, onLocate: (/** @type {any} */ x) => selectSpan(/** @type {HTMLTextAreaElement} */ (ctx.parts.answerTA), x) }));
  }

  return { drawSample, sampleDesc, preview, verdict, saveExample, loadExample, dropExample };
}
