// modelpick.js: the model the settings use when the user has not chosen one. A fresh page's
// default (state.js) is an OpenAI model; an endpoint that does not list it (Ollama, vLLM, LM
// Studio, a proxy to another provider) would refuse every call with it, so once the endpoint's
// models are known (GET /v1/models) the default becomes one it lists. A model the user typed is
// never replaced, only flagged when the endpoint does not list it.

import { DEFAULTS } from "./state.js";

/**
 * NOT_CHAT: names of models that do not answer chat completions (embeddings, speech, images,
 * moderation, completions-only). Most model lists say nothing but the name (OpenAI's, Ollama's
 * and vLLM's /v1/models), so embedding models are known by their families too: Ollama's
 * all-minilm, bge-m3, snowflake-arctic-embed, paraphrase-multilingual, sentence-transformers'
 * MPNet and MiniLM, BERTs, E5 and GTE, ColBERT, CLIP.
 */
const NOT_CHAT = /embed|minilm|mpnet|bert\b|(^|[/:_-])(bge|e5|gte|clip)([/:_.-]|$)|paraphrase|sentence-|colbert|whisper|tts|dall-e|davinci|babbage|moderation|transcribe|audio|realtime|image|rerank|search/i;

/**
 * answersChat says whether a listed model may answer chat: not when the endpoint marks it as
 * another kind (notChat), nor when its name is one of NOT_CHAT's.
 * @param {string} name @param {string[]} [notChat]
 */
export function answersChat(name, notChat = []) {
  return !notChat.includes(name) && !NOT_CHAT.test(name);
}

/** asking is the endpoint's model list being asked for (settings.js), until what it settles is set. */
/** @type {Promise<void>|null} */
let asking = null;

/**
 * askingModels notes that the model list is being asked for, until p settles: a run waits for it
 * (modelsSettled) before it reads the model, so that a default the endpoint does not list is never
 * sent in the moment before the list has replaced it.
 * @param {Promise<unknown>} p
 */
export function askingModels(p) {
  const mine = Promise.resolve(p).then(
    () => {},
    () => {},
  );
  asking = mine;
  mine.then(() => {
    if (asking === mine) asking = null;
  });
}

/** modelsSettled resolves once no model list is being asked for (askingModels). */
export async function modelsSettled() {
  while (asking) await asking;
}

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
 * becomes the first listed model, in the endpoint's order, that answers chat (answersChat: an
 * embedding model would fail every call), or none ("", so that Run asks for one) when no listed
 * model does: a model the endpoint is known not to list is never the default.
 * @param {{listed: string[], model: string, chosen: boolean, notChat?: string[]}} o
 * @returns {{model: string, note: string, replaced: boolean}}
 */
export function pickModel({ listed, model, chosen, notChat = [] }) {
  if (!listed.length || listed.includes(model)) return { model, note: "", replaced: false };
  const n = modelsText(listed.length);
  if (chosen) return { model, note: `⚠ The endpoint does not list ${model} (it lists ${n}): check the name (an Azure deployment's name is yours, and is not listed).`, replaced: false };
  const pick = listed.find((m) => answersChat(m, notChat));
  if (!pick) return { model: "", note: `⚠ None of the ${n} the endpoint lists answers chat (embedding, speech or image models): type the name of a chat model.`, replaced: true };
  return { model: pick, note: `${model ? model + " is not offered here, so the" : "The"} model is ${pick}, one the endpoint lists; type another to change it.`, replaced: true };
}
