// settings.js: the model settings popover in the top bar (endpoint, model, key, temperature, max
// tokens) and the badge that says where judge calls go.

import { h, ref, replace, uid } from "../lib/dom.js";
import { modelChosen, modelsText, pickModel, askingModels } from "./modelpick.js";
import { onChange } from "../lib/store.js";

/** KEY_SETTLE_MS: how long the key field stays unchanged before the models are asked for with it. */
const KEY_SETTLE_MS = 400;

/** mountSettings wires the settings button, popover and badge to state. */
export function mountSettings(root, state) {
  const button = ref(root, "settings-button");
  const pop = ref(root, "settings");
  const where = ref(root, "where");
  const s = () => state.get("settings");
  let models = [];
  /** @type {string[]} the listed models the endpoint marks as answering no chat (llm.js listModels) */
  let notChat = [];
  let modelsFor = "";
  let replacedNote = ""; // what the default model became, said until the user picks another
  let keyTimer = 0;

  const field = (label, control, hint) => {
    const id = control.id || (control.id = uid("set"));
    return h(
      "div",
      { class: "field" },
      h("label", { htmlFor: id, text: label }),
      control,
      hint ? h("div", { class: "hint", id: id + "-hint", text: hint }) : null,
    );
  };

  const radio = (value, label, extra) => {
    const id = uid("ep");
    const input = h("input", {
      type: "radio",
      name: "endpoint",
      id,
      value,
      dataset: { ref: "endpoint-" + value },
      on: { change: () => state.setSettings({ endpoint: value }) },
    });
    return h("div", { class: "radio" }, input, h("label", { htmlFor: id }, label), extra || null);
  };

  const baseURL = h("input", {
    type: "url",
    class: "input",
    placeholder: "https://api.openai.com/v1",
    dataset: { ref: "base-url" },
    attrs: { "aria-label": "Direct base URL", spellcheck: "false", autocomplete: "off" },
    on: { change: () => state.setSettings({ baseURL: baseURL.value.trim() }) },
  });
  const proxyLabel = h("span");
  const modelList = h("datalist", { id: uid("models") });
  const model = h("input", {
    class: "input",
    dataset: { ref: "model" },
    attrs: { list: modelList.id, spellcheck: "false", autocomplete: "off" },
    // A model typed here is the user's: never replaced by the endpoint's list (modelpick.js).
    on: { change: () => state.setSettings({ model: model.value.trim(), modelChosen: model.value.trim() !== "" }) },
  });
  const modelHint = h("div", { class: "hint", attrs: { "aria-live": "polite" } });
  const key = h("input", {
    type: "password",
    class: "input",
    dataset: { ref: "key" },
    attrs: { autocomplete: "off", spellcheck: "false" },
    on: { input: () => state.setKey(key.value.trim()) },
  });
  const remember = h("input", {
    type: "checkbox",
    id: uid("rem"),
    dataset: { ref: "remember" },
    on: {
      change: () => {
        state.setSettings({ remember: remember.checked });
        state.saveKey();
      },
    },
  });
  const keyHint = h("div", { class: "hint" });
  const temperature = h("input", {
    type: "number",
    class: "input narrow",
    min: "0",
    max: "2",
    step: "0.1",
    dataset: { ref: "temperature" },
    on: { change: () => state.setSettings({ temperature: clampNum(temperature.value, 0, 2, 0) }) },
  });
  const maxTokens = h("input", {
    type: "number",
    class: "input narrow",
    min: "1",
    step: "1",
    dataset: { ref: "max-tokens" },
    on: { change: () => state.setSettings({ maxTokens: Math.round(clampNum(maxTokens.value, 1, 1e7, 2048)) }) },
  });
  const stream = h("input", {
    type: "checkbox",
    id: uid("stream"),
    dataset: { ref: "stream" },
    on: { change: () => state.setSettings({ stream: stream.checked }) },
  });
  const close = h("button", { type: "button", class: "btn btn-ghost", text: "Done", on: { click: () => hide(true) } });

  replace(
    pop,
    h("h2", { class: "popover-title", text: "Model settings" }),
    h(
      "fieldset",
      { class: "endpoint" },
      h("legend", { text: "Where judge calls go" }),
      radio("proxy", proxyLabel),
      radio("direct", "Direct to a base URL (the provider must allow browser calls)", baseURL),
      radio("manual", "Manual: no calls, copy the prompt and paste the answer"),
    ),
    field("Model", model),
    modelList,
    modelHint,
    field("API key", key),
    keyHint,
    h("div", { class: "check" }, remember, h("label", { htmlFor: remember.id, text: "Remember the key on this device" })),
    h("div", { class: "row2" }, field("Temperature", temperature), field("Max tokens", maxTokens)),
    h("div", { class: "check" }, stream, h("label", { htmlFor: stream.id, text: "Stream the answer as it arrives" })),
    h("div", { class: "popover-actions" }, close),
  );

  function sync() {
    const st = s();
    const ep = state.endpoint();
    for (const m of ["proxy", "direct", "manual"]) pop.querySelector(`[data-ref="endpoint-${m}"]`).checked = ep.mode === m;
    const proxyRadio = pop.querySelector('[data-ref="endpoint-proxy"]');
    proxyRadio.disabled = !state.config;
    proxyLabel.textContent = !state.config
      ? "This dev server (/v1): not running here (start it with make run)"
      : state.config.token === "required"
        ? "This dev server (/v1): shared, it needs its access token: open the address it printed (…/?token=…)"
        : `This dev server (/v1) → ${state.config.upstream_host || state.config.upstream}`;
    baseURL.disabled = ep.mode !== "direct";
    if (document.activeElement !== baseURL) baseURL.value = st.baseURL;
    if (document.activeElement !== model) model.value = st.model;
    if (document.activeElement !== key) key.value = state.key;
    remember.checked = !!st.remember;
    temperature.value = String(st.temperature);
    maxTokens.value = String(st.maxTokens);
    stream.checked = st.stream !== false;
    const disabled = ep.mode === "manual";
    for (const el of [model, key, temperature, maxTokens, stream]) el.disabled = disabled;
    key.placeholder = state.config && state.config.server_key && ep.mode === "proxy" ? "optional: the dev server has a key" : "sk-…";
    keyHint.textContent = st.remember
      ? "Saved in this browser's storage until you untick the box."
      : "Kept in memory only: gone when you close the tab.";
    where.textContent = ep.label;
    where.dataset.mode = ep.mode;
    // A shared dev server whose access token this page lacks: its calls are refused.
    where.dataset.locked = String(ep.mode === "proxy" && !!state.config && state.config.token === "required");
    // Calls go through the dev server, and it did not answer (the page came from the service
    // worker's cache, or the server stopped): said, and asked again until it answers.
    where.dataset.down = String(ep.mode === "proxy" && !state.config);
    if (where.dataset.down === "true") watchServer();
  }

  /** @type {any} the next ask for the dev server's config, while it does not answer */
  let serverTimer = null;
  let serverWait = 2000;
  /**
   * watchServer asks for the dev server's /ragjudge/config at growing intervals (2 s doubling, at
   * most 30 s) while calls go through it and it does not answer; once it does, the page has its
   * config (where calls go, its key and token, its caps) as a page loaded from it has.
   */
  function watchServer() {
    if (serverTimer !== null) return;
    serverTimer = setTimeout(async () => {
      serverTimer = null;
      if (state.config || state.endpoint().mode !== "proxy") return;
      let cfg = null;
      try {
        const res = await fetch("ragjudge/config", { cache: "no-store" });
        const j = res.ok ? await res.json() : null;
        cfg = j && typeof j === "object" && "upstream" in j ? j : null;
      } catch {
        // still not reachable
      }
      if (cfg) {
        serverWait = 2000;
        // A signal: a run waiting for it (for a key it may not need) hears (batch/runcontroller.js).
        state.config = cfg;
        sync();
        modelsFor = ""; // asked while it was down: ask again
        refreshModels(!pop.hidden);
        return;
      }
      serverWait = Math.min(30_000, serverWait * 2);
      watchServer();
    }, serverWait);
  }

  /**
   * refreshModels asks the endpoint for its models (a GET, never paid) when where calls go or the
   * key changed, offers them in the model field, and makes the default model one the endpoint
   * lists when the user has not chosen one (modelpick.js). It asks whenever a call could go: with a
   * key to send, the user's or the dev server's, or to an endpoint that needs none (Ollama, vLLM on
   * this machine: keyguard.js); unless opened (open: the popover is shown), never to one that needs
   * a key the page lacks. A run waits for the answer before it reads the model (askingModels).
   * where.dataset.models says how far it is: "asking", then the number of models listed.
   * @param {boolean} [open]
   */
  function refreshModels(open = false) {
    const asked = listEndpointModels(open);
    askingModels(asked);
    return asked;
  }

  /** @param {boolean} open */
  async function listEndpointModels(open) {
    const ep = state.endpoint();
    if (ep.mode === "manual") {
      modelHint.textContent = "";
      delete where.dataset.models;
      return;
    }
    const sig = ep.baseURL + "|" + state.key; // in memory only, as the key is
    if (sig === modelsFor) return;
    // Not needed to draw the page.
    const [{ listModels }, { keyMissing }] = await Promise.all([import("../model/llm.js"), import("../model/keyguard.js")]);
    if (!open && keyMissing(state)) {
      if (where.dataset.models === "asking") delete where.dataset.models;
      return;
    }
    if (keyMissing(state)) {
      // The endpoint needs a key to list its models: none is asked for without it.
      modelsFor = "";
      modelHint.textContent = "Enter your API key to see the endpoint's models.";
      return;
    }
    if (sig === modelsFor) return;
    modelsFor = sig;
    where.dataset.models = "asking";
    modelHint.textContent = "Asking the endpoint for its models…";
    const listed = await listModels({ baseURL: ep.baseURL, key: state.key, signal: undefined });
    if (sig !== modelsFor) return; // asked again meanwhile: that answer is the one to show
    models = listed.map((m) => m.id);
    notChat = listed.filter((m) => m.chat === false).map((m) => m.id);
    replace(modelList, [...models].sort().map((m) => h("option", { value: m })));
    const st = s();
    const pick = pickModel({ listed: models, model: st.model, chosen: modelChosen(st), notChat });
    replacedNote = pick.replaced ? pick.note : "";
    where.dataset.models = String(models.length);
    if (pick.replaced) state.setSettings({ model: pick.model, modelChosen: false });
    drawModelHint();
  }

  /** drawModelHint says how many models the endpoint lists, and what became of the model (modelpick.js). */
  function drawModelHint() {
    if (state.endpoint().mode === "manual" || where.dataset.models === "asking" || !where.dataset.models) return;
    const st = s();
    const pick = pickModel({ listed: models, model: st.model, chosen: modelChosen(st), notChat });
    const note = pick.note || (st.modelChosen === false ? replacedNote : "");
    modelHint.textContent = (models.length ? `${modelsText(models.length)} offered by the endpoint; type to pick one.` : "The endpoint lists no models: type the model's name.") + (note ? " " + note : "");
  }

  // fit keeps the whole popover reachable in any window: it scrolls within the height left
  // below where it starts (Max tokens, Stream and Done stay reachable on a phone or a short laptop).
  function fit() {
    if (pop.hidden) return;
    const top = pop.getBoundingClientRect().top;
    pop.style.maxHeight = Math.max(160, Math.floor(window.innerHeight - Math.max(0, top) - 8)) + "px";
  }
  window.addEventListener("resize", fit);

  function show() {
    pop.hidden = false;
    button.setAttribute("aria-expanded", "true");
    fit();
    sync();
    refreshModels(true);
    (pop.querySelector("input:checked") || pop.querySelector("input")).focus();
  }
  function hide(focusButton) {
    if (pop.hidden) return;
    pop.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focusButton) button.focus();
  }
  button.addEventListener("click", () => (pop.hidden ? show() : hide(true)));
  pop.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      hide(true);
    }
  });
  document.addEventListener("pointerdown", (e) => {
    if (!pop.hidden && !pop.contains(e.target) && !button.contains(e.target)) hide(false);
  });
  // Where calls go or the key changed: the models are asked for again. A key is typed a character
  // at a time: the list is asked for once it stops changing.
  const changed = (/** @type {boolean} */ typed) => {
    sync();
    drawModelHint();
    clearTimeout(keyTimer);
    if (typed) keyTimer = setTimeout(() => refreshModels(!pop.hidden), KEY_SETTLE_MS);
    else refreshModels(!pop.hidden);
  };
  onChange(() => state.get("settings"), () => changed(false));
  onChange(() => state.key, () => changed(true));
  sync();
  // The list is asked for at once (not only when the popover opens), when a call could go: a run
  // started without opening it must not go out with a default model the endpoint does not have.
  // It waits for the first paint; where says "asking" meanwhile, and a run waits for it.
  if (state.endpoint().mode !== "manual") {
    where.dataset.models = "asking";
    askingModels(new Promise((resolve) => setTimeout(() => resolve(refreshModels()), 0)));
  }
  return { show, hide };
}

function clampNum(v, lo, hi, dflt) {
  const n = Number(v);
  if (v === "" || !Number.isFinite(n)) return dflt;
  return Math.min(hi, Math.max(lo, n));
}
