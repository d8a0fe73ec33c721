// juryoption.js: the Batch view's "Jury" run option: judges beside the model settings' one, each
// an endpoint (one of the dev server's upstreams by name, as /ragjudge/config lists them, or a
// direct base URL) and a model, and the rule that makes their verdicts the row's (juryrow.js).
// The judges and the rule are saved in the preferences (prefs.js jury); a judge's key, when its
// endpoint needs one the page's key is not for, is asked here and kept in memory only
// (state.judgeKey), like the page's own key when "remember" is not ticked.

import { h, uid, replace } from "../lib/dom.js";
import { effect } from "../lib/store.js";
import { prefsOf, setPrefs } from "./prefs.js";
import { juryChoice, judgeKeyNeeded, keyId, pageJudge, upstreamOf, MAX_JUDGES } from "./judges.js";
import { judgeLabel } from "../results/jury.js";

/** RULES: the rules offered, in the words the page uses. */
const RULES = [
  ["majority", "Majority (a tie is undetermined)"],
  ["all", "All must pass"],
  ["any", "Any passes"],
  ["mean", "Mean score"],
];

/**
 * juryOption builds the option. Its judges are drawn again when the model settings, the dev
 * server's config or the saved choice change.
 * @param {import("../shell/state.js").State} state
 * @returns {{el: HTMLElement, dispose: () => void}}
 */
export function juryOption(state) {
  const list = h("ol", { class: "jury-list", dataset: { ref: "batch-judges" } });
  const ruleSel = h(
    "select",
    { class: "input", id: uid("brule"), dataset: { ref: "batch-jury-rule" }, on: { change: () => save({ rule: ruleSel.value }) } },
    RULES.map(([v, t]) => h("option", { value: v, text: t })),
  );
  const passAt = h("input", { type: "number", class: "input narrow", step: "any", placeholder: "none", dataset: { ref: "batch-jury-pass-at" }, attrs: { "aria-label": "Pass at a mean score of" } });
  passAt.addEventListener("change", () => save({ pass_at: passAt.value === "" || !Number.isFinite(Number(passAt.value)) ? undefined : Number(passAt.value) }));
  const passAtField = h("span", { class: "jury-pass-at" }, " passes at ≥ ", passAt);
  const addBtn = h("button", { type: "button", class: "btn btn-small", text: "+ Add a judge", dataset: { ref: "batch-add-judge" }, on: { click: () => addJudge() } });
  const note = h("div", { class: "hint", dataset: { ref: "batch-jury-note" } });
  const summaryWord = h("span", { class: "hint jury-state", dataset: { ref: "batch-jury-state" } });
  const el = h(
    "details",
    { class: "jury-option", dataset: { ref: "batch-jury" } },
    h("summary", {}, "Jury: several judges ", summaryWord),
    h("p", { class: "hint", text: "Each row is judged by each judge (a call each, repeats and retries per judge), and the row's verdict is the jury's. Judge 1 is the model settings' model." }),
    list,
    h("div", { class: "jury-actions" }, addBtn),
    h("div", { class: "field jury-rule" }, h("label", { htmlFor: ruleSel.id, text: "The row's verdict" }), h("div", { class: "jury-rule-line" }, ruleSel, passAtField)),
    note,
  );

  /** raw is the saved jury as it is (judges not yet complete are kept, to be finished). */
  const raw = () => {
    const j = prefsOf(state).jury || {};
    return { ...j, rule: typeof j.rule === "string" ? j.rule : "majority", judges: Array.isArray(j.judges) ? j.judges : [] };
  };
  // A text field's own change is saved without drawing the judges again: the field keeps its
  // node, so the click or Tab that ended the edit lands where it was aimed.
  let quiet = false;
  /** @param {Record<string, any>} patch @param {{redraw?: boolean}} [o] */
  function save(patch, { redraw = true } = {}) {
    quiet = !redraw;
    try {
      setPrefs(state, /** @type {any} */ ({ jury: { ...raw(), ...patch } }));
    } finally {
      quiet = false;
    }
  }
  /** upstreams are the dev server's upstreams by name (the default first), [] without a dev server. */
  const upstreams = () => (state.config && Array.isArray(state.config.upstreams) ? state.config.upstreams : []);
  function addJudge() {
    const ups = upstreams();
    const page = pageJudge(state, state.get("settings").model || "");
    // A new judge starts on an upstream other than the page's, when there is one: the likely reason to add it.
    const other = ups.find((u) => u.name !== page.upstream);
    const j = ups.length ? { via: "proxy", upstream: (other || ups[0]).name, model: "" } : { via: "direct", baseURL: "", model: "" };
    save({ judges: [...raw().judges, j] });
  }

  /** drawState says in the summary how many judges a run would have. */
  function drawState() {
    const usable = juryChoice(prefsOf(state)).judges.length;
    summaryWord.textContent = usable ? `(${usable + 1} judges)` : "(off: one judge)";
  }

  function draw() {
    const jury = raw();
    const settings = state.get("settings");
    const cfg = state.config;
    const page = pageJudge(state, settings.model || "");
    const pageKey = keyId(page, cfg);
    ruleSel.value = jury.rule;
    passAt.value = typeof jury.pass_at === "number" ? String(jury.pass_at) : "";
    passAtField.hidden = jury.rule !== "mean";
    drawState();
    addBtn.disabled = jury.judges.length >= MAX_JUDGES - 1;
    const first = h("li", { class: "judge judge-page", dataset: { ref: "batch-judge", judge: "0" } }, h("span", { class: "judge-name", text: "Judge 1" }), h("span", { text: settings.model ? judgeLabel(page, cfg) : "no model set" }), h("span", { class: "hint", text: "Model settings" }));
    replace(list, first, jury.judges.map((j, i) => judgeRow(j, i, pageKey)));
    const ups = upstreams();
    note.textContent =
      state.endpoint().mode === "manual"
        ? "A jury calls models: choose the dev server or a direct URL in Model settings."
        : ups.length < 2
        ? "This dev server has one upstream; give it more (make run UPSTREAM=\"local=URL openai=URL\") to put a local and a hosted model in one jury, or add a judge at a direct URL."
        : "";
  }

  /**
   * judgeRow is the controls of judge i + 2: where its calls go, its model, its key when needed.
   * @param {any} j @param {number} i @param {string} pageKey
   */
  function judgeRow(j, i, pageKey) {
    const ups = upstreams();
    const change = (/** @type {any} */ patch, redraw = true) => save({ judges: raw().judges.map((x, k) => (k === i ? { ...x, ...patch } : x)) }, { redraw });
    const where = h(
      "select",
      { class: "input", dataset: { ref: "batch-judge-endpoint" }, attrs: { "aria-label": `Judge ${i + 2}: endpoint` } },
      ups.map((u) => h("option", { value: "proxy:" + u.name, text: `Dev server → ${u.name}${u.host ? " (" + u.host + ")" : ""}` })),
      h("option", { value: "direct", text: "Direct URL" }),
    );
    const unknown = j.via === "proxy" && !ups.some((u) => u.name === j.upstream);
    if (unknown) where.prepend(h("option", { value: "proxy:" + j.upstream, text: `Dev server → ${j.upstream || "default"} (not offered now)` }));
    where.value = j.via === "direct" ? "direct" : "proxy:" + j.upstream;
    where.addEventListener("change", () => change(where.value === "direct" ? { via: "direct", baseURL: j.baseURL || "" } : { via: "proxy", upstream: where.value.slice(6) }));
    const url = h("input", { type: "url", class: "input", value: j.baseURL || "", placeholder: "https://api.example.com/v1", hidden: j.via !== "direct", dataset: { ref: "batch-judge-url" }, attrs: { "aria-label": `Judge ${i + 2}: base URL` } });
    url.addEventListener("change", () => change({ baseURL: url.value.trim() }));
    const noModel = h("span", { class: "hint", text: "no model yet: this judge is left out", hidden: !!String(j.model || "").trim() });
    const model = h("input", { type: "text", class: "input", value: j.model || "", placeholder: "model", dataset: { ref: "batch-judge-model" }, attrs: { "aria-label": `Judge ${i + 2}: model`, autocomplete: "off", spellcheck: "false" } });
    model.addEventListener("change", () => {
      change({ model: model.value.trim() }, false);
      noModel.hidden = !!model.value.trim();
    });
    const remove = h("button", { type: "button", class: "btn btn-small btn-ghost", text: "✕", dataset: { ref: "batch-judge-remove" }, attrs: { "aria-label": `Remove judge ${i + 2}` }, on: { click: () => save({ judges: raw().judges.filter((_, k) => k !== i) }) } });
    const row = h("li", { class: "judge", dataset: { ref: "batch-judge", judge: String(i + 1) } }, h("span", { class: "judge-name", text: `Judge ${i + 2}` }), where, url, model, remove);
    const id = keyId(j, state.config);
    if (id !== pageKey && (j.via === "direct" ? !!j.baseURL : true) && judgeKeyNeeded(j, state.config)) {
      const key = h("input", { type: "password", class: "input", value: state.judgeKey(id), placeholder: "API key", dataset: { ref: "batch-judge-key" }, attrs: { "aria-label": `Judge ${i + 2}: API key for ${id.replace(/^\w+:/, "")}`, autocomplete: "off" } });
      key.addEventListener("input", () => state.setJudgeKey(id, key.value.trim()));
      row.append(key, h("span", { class: "hint judge-key-hint", text: "its endpoint's key: kept in this tab only" }));
    }
    if (j.via === "proxy" && state.config && !upstreamOf(j, state.config)) row.append(h("span", { class: "msg-error", text: `This dev server has no upstream named ${j.upstream}.` }));
    row.append(noModel);
    return row;
  }

  // Drawn again when the saved choice, the model settings or the endpoint change (not the key: its field keeps the focus).
  const dispose = effect(() => {
    state.get("batch");
    state.get("settings");
    if (quiet) drawState();
    else draw();
  });
  el.addEventListener("toggle", () => el.open && draw());
  return { el, dispose };
}
