// links.js: "Copy link" in the Evaluate view and the opening of such a link, between the page
// and codec.js (the format). Loaded on the first click, or when the page opens on a share link.

import { encodeShare, decodeShare, shareURL, crc32, MAX_LINK, SHARE_ERRORS } from "./codec.js";
import { freeId } from "../custom/specedit.js";
import { canonical, sameJudging } from "../custom/specsame.js";

/**
 * makeLink writes one evaluation as a link to this page: {url} or, past MAX_LINK, {tooLong}
 * with the length it would have had. A custom evaluator travels as its definition (ev.spec).
 * @param {{ev: any, inputs: any, answer: string, model?: string}} e
 * @returns {Promise<{url: string, length: number, tooLong: boolean}>}
 */
export async function makeLink({ ev, inputs, answer, model }) {
  const fragment = await encodeShare({ evaluator: ev.id, spec: ev.custom && ev.spec ? ev.spec : null, inputs, answer, model });
  const url = shareURL(location.href, fragment);
  return { url, length: url.length, tooLong: url.length > MAX_LINK };
}

/**
 * readLink reads a share fragment against the page's evaluators (byID). A link names a built-in by
 * its id, or carries a custom evaluator's whole definition: that is checked with
 * rj.checkEvaluator (without the engine, it is not, and openLink waits for the engine first), and
 * the link's inputs are checked against the inputs it declares. Reading defines nothing. A
 * definition may not stand in for a built-in's id.
 * @param {string} hash location.hash
 * @param {{byID: Map<string, any>, rj: any}} ctx
 */
export function readLink(hash, { byID, rj }) {
  return decodeShare(hash, (id, spec) => {
    const own = byID.get(id);
    if (!spec) return own && !own.custom ? own : null;
    if (own && !own.custom) return null;
    if (rj && typeof rj.checkEvaluator === "function") {
      const c = rj.checkEvaluator(spec);
      if (!c.ok) throw new Error(c.errors.map((/** @type {any} */ e) => (e.path ? e.path + (e.line ? ` line ${e.line}, column ${e.col}` : "") + ": " : "") + e.message).join("; "));
    }
    return Array.isArray(spec.inputs) && spec.inputs.every((/** @type {any} */ i) => i && typeof i.name === "string") ? { inputs: spec.inputs } : null;
  });
}

/**
 * @typedef {Object} LinkEvaluator
 * @property {any} ev the evaluator the link's evaluation is shown and run with
 * @property {"builtin"|"same"|"differs"|"none"} own how the user's own evaluator of the link's id
 *   stands: a built-in; the user's, with the link's definition (then ev is theirs); the user's,
 *   with another definition; or none (then ev is the link's own, defined under a temporary id)
 */

/**
 * linkEvaluator is the evaluator a link's evaluation was judged with, or why there is none: a
 * built-in by its id; for a custom evaluator's definition, the user's own when it has the same id
 * and definition, else the link's definition itself, defined in the engine under a temporary id
 * (registry.forLink, see linkId): a verdict read by another definition would not be the one shared.
 * The same definition opened twice gets the same evaluator.
 * @param {Map<string, any>} byID the Evaluate view's evaluators
 * @param {import("./codec.js").SharedEvaluation} shared
 * @param {import("../custom/registry.js").EvaluatorRegistry|null} registry
 * @returns {LinkEvaluator | {error: string}}
 */
export function linkEvaluator(byID, shared, registry) {
  const ev = byID.get(shared.evaluator);
  if (!shared.spec) return ev && !ev.custom ? { ev, own: "builtin" } : { error: `The link names an evaluator this page does not have: "${shared.evaluator}".` };
  const key = canonical(shared.spec);
  // The user's own, when it judges as the link's did (its title or example may differ).
  if (ev && ev.custom && !ev.fromLink && sameJudging(ev.spec, shared.spec)) return { ev, own: "same" };
  const title = typeof shared.spec.title === "string" && shared.spec.title ? `"${shared.spec.title}" (${shared.evaluator})` : `"${shared.evaluator}"`;
  if (!registry || !registry.rj) return { error: `The link's custom evaluator ${title} cannot be used: the judge engine is not ready.` };
  const own = registry.records.has(shared.evaluator) ? "differs" : "none";
  for (const d of registry.linked.values()) if (canonical(d.spec) === key) return { ev: d, own };
  try {
    return { ev: registry.forLink(shared.spec, linkId(shared.spec, registry.takenIds())), own };
  } catch (e) {
    return { error: `The link's custom evaluator ${title} cannot be used: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * linkId is the temporary id a link's custom evaluator is defined under: "link-" and the CRC-32 of
 * its definition (keys sorted), in hex, or that with -2, -3, … when taken (by the user's own
 * evaluators, whose ids are never changed for it).
 * @param {any} spec @param {Iterable<string>} taken
 */
export function linkId(spec, taken) {
  return freeId("link-" + crc32(new TextEncoder().encode(canonical(spec))).toString(16).padStart(8, "0"), taken);
}

/**
 * @typedef {{ok: true, value: {shared: import("./codec.js").SharedEvaluation} & LinkEvaluator} | {ok: false, code: string, message: string}} OpenedLink
 */

/**
 * openLink reads a share fragment and finds the evaluator to show it with (linkEvaluator). A
 * custom evaluator's definition needs the engine, to be checked and defined: openLink waits for it.
 * Nothing is stored.
 * @param {string} hash location.hash
 * @param {{byID: Map<string, any>, engine: {rj: any, whenReady: () => Promise<boolean>}, registry: import("../custom/registry.js").EvaluatorRegistry|null}} ctx
 * @returns {Promise<OpenedLink>}
 */
export async function openLink(hash, { byID, engine, registry }) {
  const rj = engine.rj;
  let res = await readLink(hash, { byID, rj });
  // Read without the engine (it may have become ready meanwhile): the definition was not checked.
  if (res.ok && res.value.spec && !rj) {
    if (!(await engine.whenReady())) return { ok: false, code: SHARE_ERRORS.EVALUATOR, message: "The link carries a custom evaluator, and the judge engine that checks it did not load." };
    res = await readLink(hash, { byID, rj: engine.rj });
  }
  if (!res.ok) return res;
  const found = linkEvaluator(byID, res.value, registry);
  if ("error" in found) return { ok: false, code: SHARE_ERRORS.EVALUATOR, message: found.error };
  return { ok: true, value: { shared: res.value, ...found } };
}

/**
 * saveLinked adds a link's evaluator (registry.forLink's description) to the user's evaluators,
 * under its own id, or, when that is taken, under "<id>-shared" (-2, -3, … when that is too), with
 * the evaluation as the editor's sample (inputs) and answer; the link's temporary evaluator goes.
 * ready(id) is called with the id before anything changes, so that the page can make it the
 * evaluator shown: the registry tells the views of the new evaluator as it saves.
 * @param {import("../custom/registry.js").EvaluatorRegistry} registry
 * @param {any} ev
 * @param {{inputs: any, answer: string}} sample
 * @param {(id: string) => void} [ready]
 * @returns {Promise<string>} the id it was saved under
 */
export async function saveLinked(registry, ev, { inputs, answer }, ready) {
  const taken = registry.takenIds();
  const id = taken.has(ev.linkOf) ? freeId(ev.linkOf + "-shared", taken) : ev.linkOf;
  const spec = { ...structuredClone(ev.spec), id };
  if (ready) ready(id);
  registry.dropLinked(ev.id);
  await registry.save({ id, spec, sample: { inputs: structuredClone(inputs) }, answer, ok: true, updatedAt: Date.now() });
  return id;
}
