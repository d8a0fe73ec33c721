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
 * readLink reads a share fragment against the page's evaluators (byID). A custom evaluator's
 * definition is handed to rj.define when the engine has it (and is ready); without it, a link
 * carrying one is refused as naming an evaluator this page does not have.
 * @param {string} hash location.hash
 * @param {{byID: Map<string, any>, rj: any}} ctx
 */
export function readLink(hash, { byID, rj }) {
  return decodeShare(hash, (id, spec) => {
    if (!spec) return byID.get(id) || null;
    if (byID.has(id) && !byID.get(id).custom) return null; // a definition may not stand in for a built-in
    if (!rj || typeof rj.define !== "function") return null;
    const defined = rj.define(spec);
    return defined && Array.isArray(defined.inputs) ? { ...spec, ...defined, custom: true, spec } : null;
  });
}
