// judges.js: a jury's judges as a run keeps them, without the DOM. The first judge is the model
// settings' (its endpoint and model, as a run of one judge); the others are chosen in the Batch
// view's Jury option (juryoption.js) and saved in the preferences: each is an endpoint (one of
// the dev server's upstreams by name, or a direct base URL) and a model. A run's record keeps
// every judge without any key; each judge's key is found when a call goes (keyFor), like the
// page's own key for its endpoint: the key the user gave for that endpoint, in memory.

import { localHost, hostOfURL } from "../model/keyguard.js";
import { juryRule } from "./juryrow.js";
import { judgeLabel } from "../results/jury.js";

/** MAX_JUDGES is the most judges a jury has. */
export const MAX_JUDGES = 5;

/**
 * @typedef {{via: "proxy" | "direct", upstream?: string, baseURL?: string, model: string}} Judge
 *   proxy: the dev server, to its upstream named upstream ("" for its default); direct: baseURL
 */

/**
 * cleanJudge is j as a run keeps it, or null when it names no endpoint or no model.
 * @param {any} j @returns {Judge | null}
 */
export function cleanJudge(j) {
  if (!j || typeof j !== "object") return null;
  const model = typeof j.model === "string" ? j.model.trim() : "";
  if (!model) return null;
  if (j.via === "proxy") return { via: "proxy", upstream: typeof j.upstream === "string" ? j.upstream : "", model };
  if (j.via === "direct" && typeof j.baseURL === "string" && /^https?:\/\//i.test(j.baseURL.trim())) return { via: "direct", baseURL: j.baseURL.trim().replace(/\/+$/, ""), model };
  return null;
}

/**
 * pageJudge is the judge the model settings make: state's endpoint and model.
 * @param {{endpoint(): {mode: string, baseURL?: string}, config: any}} state @param {string} model
 * @returns {Judge}
 */
export function pageJudge(state, model) {
  const ep = state.endpoint();
  if (ep.mode === "direct") return { via: "direct", baseURL: String(ep.baseURL || "").replace(/\/+$/, ""), model };
  return { via: "proxy", upstream: defaultUpstream(state.config), model };
}

/** defaultUpstream is the name of the dev server's default upstream, "" when it lists none. @param {any} config */
function defaultUpstream(config) {
  return (config && typeof config.default_upstream === "string" && config.default_upstream) || "";
}

/**
 * upstreamOf is the dev server's upstream judge j calls ({name, host, server_key}), or null.
 * @param {Judge} j @param {any} config
 */
export function upstreamOf(j, config) {
  if (j.via !== "proxy" || !config) return null;
  const list = Array.isArray(config.upstreams) ? config.upstreams : [];
  const name = j.upstream || defaultUpstream(config);
  return list.find((u) => u && u.name === name) || (!j.upstream || j.upstream === defaultUpstream(config) ? { name, host: config.upstream_host || "", server_key: !!config.server_key } : null);
}

/**
 * keyId is the endpoint a judge's key belongs to: the dev server's upstream by name, or a base URL.
 * @param {Judge} j @param {any} config
 */
export function keyId(j, config) {
  return j.via === "proxy" ? "proxy:" + (j.upstream || defaultUpstream(config)) : "direct:" + (j.baseURL || "");
}

/**
 * judgeKeyNeeded tells whether judge j's calls need a key of the page's: none for an upstream
 * with a server key or on a local host, nor for a dev server whose token this page lacks (as
 * keyguard.js keyNeeded for the page's endpoint); a direct endpoint unless it is local.
 * @param {Judge} j @param {any} config
 */
export function judgeKeyNeeded(j, config) {
  if (j.via === "direct") return !localHost(hostOfURL(j.baseURL || ""));
  if (!config) return true;
  if (config.token === "required") return false;
  const u = upstreamOf(j, config);
  if (!u) return true;
  return !u.server_key && !localHost(u.host || "");
}

/**
 * juryChoice is the jury the preferences hold: the extra judges (cleaned, at most MAX_JUDGES − 1)
 * and the rule. p.jury is {judges: Judge[], rule, pass_at?}.
 * @param {any} p the Batch view's preferences
 */
export function juryChoice(p) {
  const jury = (p && p.jury) || {};
  const judges = (Array.isArray(jury.judges) ? jury.judges : []).map(cleanJudge).filter((j) => j !== null).slice(0, MAX_JUDGES - 1);
  return { judges: /** @type {Judge[]} */ (judges), ...juryRule(jury) };
}

/**
 * jurySettings is what a new run's record keeps of its jury: every judge (the page's first) and
 * the rule; {} when the preferences add no judge (a run of one judge, as before).
 * @param {{endpoint(): {mode: string, baseURL?: string}, config: any}} state @param {string} model the model settings' model @param {any} p the preferences
 * @returns {{judges?: Judge[], jury?: {rule: string, pass_at?: number}}}
 */
export function jurySettings(state, model, p) {
  const { judges, ...rule } = juryChoice(p);
  if (!judges.length) return {};
  return { judges: [pageJudge(state, model), ...judges], jury: rule };
}

/**
 * judgeRequest is where judge j's calls go: the endpoint base (proxyBase for the dev server) and,
 * through the dev server, the upstream by name.
 * @param {Judge} j @param {string} proxyBase
 * @returns {{endpoint: string, upstream?: string, model: string}}
 */
export function judgeRequest(j, proxyBase) {
  if (j.via === "direct") return { endpoint: j.baseURL || "", model: j.model };
  return { endpoint: proxyBase, ...(j.upstream ? { upstream: j.upstream } : {}), model: j.model };
}

/**
 * plannedJudges is the names of the judges a run set up now would ask (the setup lines count its
 * calls by them), [] without a jury.
 * @param {{endpoint(): {mode: string, baseURL?: string}, config: any, get(name: string): any}} state @param {any} p the preferences
 * @returns {string[]}
 */
export function plannedJudges(state, p) {
  const s = jurySettings(state, (state.get("settings") || {}).model || "", p);
  return s.judges ? s.judges.map((j) => judgeLabel(j, state.config)) : [];
}

/**
 * juryProblem says why the jury the preferences hold cannot run here, or "": a judge that calls
 * the dev server on a page without one, or an upstream the dev server does not list (its calls
 * would be refused, unknown_upstream, and never sent to another).
 * @param {{config: any}} state @param {any} p the preferences
 */
export function juryProblem(state, p) {
  const { judges } = juryChoice(p);
  for (let i = 0; i < judges.length; i++) {
    const j = judges[i];
    if (j.via !== "proxy") continue;
    if (!state.config) return `Judge ${i + 2} calls the dev server, and this page has none: give it a direct URL in the Jury option, or remove it.`;
    if (!upstreamOf(j, state.config)) return `Judge ${i + 2}: this dev server has no upstream named ${j.upstream}; choose one it lists in the Jury option.`;
  }
  return "";
}
