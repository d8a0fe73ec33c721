// modelpick.js: the model the settings use when the user has not chosen one. A fresh page's
// default (state.js) is an OpenAI model; an endpoint that does not list it (Ollama, vLLM, LM
// Studio, a proxy to another provider) would refuse every call with it, so once the endpoint's
// models are known (GET /v1/models) the default becomes one it lists. A model the user typed is
// never replaced, only flagged when the endpoint does not list it.

import { DEFAULTS } from "./state.js";

/** NOT_CHAT: names of models that do not answer chat completions (embeddings, speech, images, moderation, completions-only). */
const NOT_CHAT = /embed|whisper|tts|dall-e|davinci|babbage|moderation|transcribe|audio|realtime|image|rerank|search/i;

/**
 * modelChosen says whether the user chose settings' model: so marked when typed (modelChosen),
 * and for settings saved before that mark, any model other than the default.
 * @param {{model?: string, modelChosen?: boolean}} settings
 */
export function modelChosen(settings) {
  if (typeof settings.modelChosen === "boolean") return settings.modelChosen;
  return !!settings.model && settings.model !== DEFAULTS.settings.model;
}

/**
 * modelsText says how many models the endpoint lists: "1 model", "12 models".
 * @param {number} n
 */
export function modelsText(n) {
  return `${n} model${n === 1 ? "" : "s"}`;
}

/**
 * pickModel is the model to use once the endpoint's list is known, and a note for the user: the
 * current one when listed (or when the list is empty: nothing to go by); a model the user chose
 * stays, with a warning when the endpoint does not list it; an unchosen default the endpoint lacks
 * becomes the first listed model that answers chat (else the first listed).
 * @param {{listed: string[], model: string, chosen: boolean}} o
 * @returns {{model: string, note: string, replaced: boolean}}
 */
export function pickModel({ listed, model, chosen }) {
  if (!listed.length || listed.includes(model)) return { model, note: "", replaced: false };
  const n = modelsText(listed.length);
  if (chosen) return { model, note: `⚠ The endpoint does not list ${model} (it lists ${n}): check the name (an Azure deployment's name is yours, and is not listed).`, replaced: false };
  const pick = listed.find((m) => !NOT_CHAT.test(m)) || listed[0];
  return { model: pick, note: `${model ? model + " is not offered here, so the" : "The"} model is ${pick}, one the endpoint lists; type another to change it.`, replaced: true };
}
