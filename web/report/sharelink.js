// sharelink.js: "Copy link" in the Evaluate view and the opening of such a link, between the page
// and share.js (the format). Loaded on the first click, or when the page opens on a share link.

import { encodeShare, decodeShare, shareURL, MAX_LINK } from "../share.js";

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
 * rj.checkEvaluator when the engine has it (nothing is defined: opening a link changes no
 * evaluator of the page), and the link's inputs are checked against the inputs it declares. A
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
      if (!c.ok) throw new Error(c.errors.map((/** @type {any} */ e) => (e.path ? e.path + ": " : "") + e.message).join("; "));
    }
    return Array.isArray(spec.inputs) && spec.inputs.every((/** @type {any} */ i) => i && typeof i.name === "string") ? { inputs: spec.inputs } : null;
  });
}

/**
 * pageEvaluator is the page's evaluator a link's evaluation was judged with, or why there is none:
 * a built-in by its id; a custom evaluator only when this page has one of the same id whose
 * definition is the link's (a verdict read by another definition would not be the one shared).
 * @param {Map<string, any>} byID
 * @param {import("../share.js").SharedEvaluation} shared
 * @returns {{ev: any} | {error: string}}
 */
export function pageEvaluator(byID, shared) {
  const ev = byID.get(shared.evaluator);
  if (!shared.spec) return ev && !ev.custom ? { ev } : { error: `The link names an evaluator this page does not have: "${shared.evaluator}".` };
  const title = typeof shared.spec.title === "string" && shared.spec.title ? `"${shared.spec.title}" (${shared.evaluator})` : `"${shared.evaluator}"`;
  if (!ev || !ev.custom) return { error: `The link was judged with a custom evaluator, ${title}, that is not among your evaluators: import its definition under My evaluators, then open the link again.` };
  if (canonical(ev.spec) !== canonical(shared.spec)) return { error: `The link was judged with a custom evaluator, ${title}, whose definition differs from yours of the same id: its verdict would not be the one shared.` };
  return { ev };
}

/**
 * canonical writes a JSON value with its objects' keys sorted, so that two definitions compare
 * equal whatever order their fields were written in.
 * @param {any} v
 * @returns {string}
 */
export function canonical(v) {
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (v && typeof v === "object") return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
  return JSON.stringify(v === undefined ? null : v);
}
