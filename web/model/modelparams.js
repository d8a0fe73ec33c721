// modelparams.js: the sampling parameters a request carries, written the way each model accepts
// them (reasoning models take max_completion_tokens and no temperature).

/**
 * isReasoningModel says whether OpenAI serves model as a reasoning model (o1, o3, o4, gpt-5 and
 * their dated or sized variants, also behind a provider prefix such as "openai/"). Those refuse
 * `max_tokens` (they take `max_completion_tokens`) and any temperature but their own.
 * @param {string} model
 */
export function isReasoningModel(model) {
  const name = String(model || "").toLowerCase().split("/").pop() || "";
  return /^(o1|o3|o4|gpt-5)(\b|[-_.]|$)/.test(name);
}

/**
 * modelParams turns the model settings into the request's sampling parameters, the one place both
 * single evaluation and batch take them from. The dev server forwards a body as it is sent, so
 * the page writes what each model accepts: for reasoning models the token cap goes in
 * `max_completion_tokens` and the temperature is left out.
 * @param {{model: string, temperature?: number | string, maxTokens?: number | string}} settings
 * @returns {Record<string, number>}
 */
export function modelParams({ model, temperature, maxTokens }) {
  const cap = Number(maxTokens) || 0;
  /** @type {Record<string, number>} */
  const params = {};
  if (isReasoningModel(model)) {
    if (cap > 0) params.max_completion_tokens = cap;
    return params;
  }
  params.temperature = Number(temperature) || 0;
  if (cap > 0) params.max_tokens = cap;
  return params;
}
