// preview.js: the preview pane of the My evaluators view (view.js): the sample inputs form, the
// prompt rendered with them, and the verdict of a pasted judge answer, drawn as Evaluate draws it.

import { h, replace, badge, selectSpan } from "../dom.js";
import { buildForm, fromInputs, toInputs, missingRequired, listWords } from "../form.js";
import { checksView } from "../verdicts.js";
import { engineNote } from "../engine.js";
import { describe, cleanInputs, sampleValue } from "./spec.js";

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
      h("p", { class: "hint", text: `${messages.reduce((n, m) => n + m.content.length, 0).toLocaleString()} characters · about ${Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4).toLocaleString()} tokens` }),
    );
    verdict();
  }

  /** verdict reads the pasted answer with the evaluator's reader and draws it as Evaluate does. */
  function verdict() {
    const c = ctx.cur;
    if (!c) return;
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

  return { drawSample, sampleDesc, preview, verdict };
}
