// codec.js: one evaluation as a link. The evaluator (a built-in's id, or a custom evaluator's whole
// definition), the inputs and the judge's answer go into the URL fragment as JSON, deflated
// (CompressionStream "deflate-raw") and written in base64url, behind a prefix that carries the
// format's version: `#rj1.<base64url>`. The deflated bytes end with their CRC-32 (deflate-raw has
// no checksum of its own), so a link changed in transit is refused rather than read as another
// evaluation. A fragment never reaches a server, and the key is never in
// it: nothing here reads the page's settings.
//
// Reading a link trusts nothing: the fragment's length, its alphabet, the deflate stream, the size it
// inflates to (capped, so a small link cannot inflate into gigabytes), the JSON, the version, the
// evaluator and every input's type are checked, and any failure is one error with a code
// (SHARE_ERRORS) and a sentence; the caller then shows an empty form, never a part of the link.
// Pure: no DOM, the same in browsers and in Node ≥ 20 (unit tests in test/unit/sharecodec.test.mjs).

/** SHARE_PREFIX starts a share fragment; its digit is the format's version. */
export const SHARE_PREFIX = "rj1.";

/** SHARE_VERSION is the payload's own version field (`v`). */
export const SHARE_VERSION = 1;

/** MAX_LINK is the longest link offered: browsers and chat tools keep up to about 64 KB of a URL. */
export const MAX_LINK = 64 * 1024;

/** MAX_FRAGMENT is the longest fragment read; a longer one is refused before decoding. */
export const MAX_FRAGMENT = 256 * 1024;

/** MAX_INFLATED caps what a fragment may inflate to: deflate reaches ~1000:1, a 64 KB link must not become 64 MB. */
export const MAX_INFLATED = 2 * 1024 * 1024;

/** SHARE_ERRORS are the codes a link's reading fails with; the page decides from them, not from messages. */
export const SHARE_ERRORS = Object.freeze({
  PREFIX: "share.prefix", // not a share fragment of a version this page reads
  BASE64: "share.base64", // not base64url
  TOO_BIG: "share.too-big", // the fragment, or what it inflates to, is over the cap
  DEFLATE: "share.deflate", // not a deflate stream, or cut short
  JSON: "share.json", // the inflated text is not JSON
  VERSION: "share.version", // a payload version this page does not read
  EVALUATOR: "share.evaluator", // no evaluator, or one this page does not have
  SHAPE: "share.shape", // a field of the wrong type, or an input the evaluator does not have
  CHECKSUM: "share.checksum", // the data's CRC-32 does not match: changed or cut in transit
});

/** CRC_TABLE is CRC-32's (IEEE 802.3, as zip and PNG use) byte table. */
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * crc32 is the CRC-32 of bytes.
 * @param {Uint8Array} bytes
 */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * withCRC appends bytes' CRC-32 (4 bytes, big-endian).
 * @param {Uint8Array} bytes
 */
function withCRC(bytes) {
  const out = new Uint8Array(bytes.length + 4);
  out.set(bytes);
  new DataView(out.buffer).setUint32(bytes.length, crc32(bytes));
  return out;
}

/**
 * @typedef {Object} SharedEvaluation
 * @property {string} evaluator the evaluator's id
 * @property {Object|null} spec a custom evaluator's whole definition (rj.define's argument), or null for a built-in
 * @property {Object<string, any>} inputs the JS API's inputs (rj.render's), by input name
 * @property {string} answer the judge's raw answer
 * @property {string} [model] the model that answered, when known (a name, never an endpoint or a key)
 */

/**
 * @typedef {{ok: true, value: SharedEvaluation} | {ok: false, code: string, message: string}} ShareResult
 */

/** isShareFragment says whether a location.hash (with or without its "#") is a share link's. */
export function isShareFragment(hash) {
  return typeof hash === "string" && /^#?rj\d+\./.test(hash);
}

/**
 * toBase64url writes bytes in base64url, without padding.
 * @param {Uint8Array} bytes
 */
export function toBase64url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 0x8000)));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * fromBase64url reads base64url (padding optional); null when s is not base64url.
 * @param {string} s
 * @returns {Uint8Array|null}
 */
export function fromBase64url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  let bin;
  try {
    bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * pipe runs bytes through a (de)compression stream and collects the output, stopping with an
 * error past limit bytes.
 * @param {Uint8Array} bytes
 * @param {TransformStream} stream
 * @param {number} limit
 */
async function pipe(bytes, stream, limit) {
  const reader = new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      reader.cancel().catch(() => {});
      throw new RangeError("over " + limit + " bytes");
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

/**
 * encodeShare writes one evaluation as a fragment (without "#"): SHARE_PREFIX then the payload's
 * JSON, deflated, in base64url. spec is a custom evaluator's definition, null for a built-in.
 * @param {{evaluator: string, spec?: Object|null, inputs: Object, answer: string, model?: string}} e
 * @returns {Promise<string>}
 */
export async function encodeShare({ evaluator, spec = null, inputs, answer, model }) {
  /** @type {Object<string, any>} */
  const payload = { v: SHARE_VERSION, e: spec ? { spec } : evaluator, i: inputs, a: answer };
  if (model) payload.m = model;
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  const packed = await pipe(bytes, new CompressionStream("deflate-raw"), Infinity);
  return SHARE_PREFIX + toBase64url(withCRC(packed));
}

/**
 * fail is a failed reading.
 * @param {string} code
 * @param {string} message
 * @returns {ShareResult}
 */
function fail(code, message) {
  return { ok: false, code, message };
}

/** isPlainObject: a JSON object (not an array, not null). */
function isPlainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * checkInput says what is wrong with value for an input described as input (rj.evaluators()'s), or "".
 * @param {{name: string, kind?: string}} input
 * @param {any} value
 */
export function checkInput(input, value) {
  const kind = input.kind || "text";
  const isText = (x) => typeof x === "string";
  const rowOf = (keys) => (x) => isText(x) || (isPlainObject(x) && Object.keys(x).every((k) => keys.includes(k)) && isText(x.text) && keys.every((k) => x[k] === undefined || isText(x[k])));
  switch (kind) {
    case "text":
    case "choice":
      return isText(value) ? "" : "a text";
    case "number":
      return (typeof value === "number" && Number.isFinite(value)) || isText(value) ? "" : "a number";
    case "list":
      return isText(value) || (Array.isArray(value) && value.every(isText)) ? "" : "a list of texts";
    case "claims":
      return Array.isArray(value) && value.every(rowOf(["id", "text"])) ? "" : "a list of claims (texts, or {id, text})";
    case "evidence":
      return Array.isArray(value) && value.every(rowOf(["title", "text"])) ? "" : "a list of evidence (texts, or {title, text})";
    default:
      // A kind this page does not know (a newer custom evaluator): text or a list of texts.
      return isText(value) || (Array.isArray(value) && value.every(isText)) ? "" : "a text or a list of texts";
  }
}

/**
 * decodeShare reads a fragment (with or without "#") into a SharedEvaluation, or says why it
 * cannot. evaluatorOf finds the evaluator a payload names (its description, with `inputs`); for a
 * custom evaluator's definition, it gets the spec and returns the evaluator it defines, or null
 * (then the link is refused as naming an unknown evaluator). Nothing of a link that fails is returned.
 * @param {string} fragment
 * @param {(id: string, spec: Object|null) => ({inputs: {name: string, kind?: string}[]} | null)} evaluatorOf
 * @returns {Promise<ShareResult>}
 */
export async function decodeShare(fragment, evaluatorOf) {
  const frag = String(fragment || "").replace(/^#/, "");
  if (frag.length > MAX_FRAGMENT) return fail(SHARE_ERRORS.TOO_BIG, `The link is too long to read (${frag.length} characters; at most ${MAX_FRAGMENT}).`);
  if (!frag.startsWith(SHARE_PREFIX)) {
    const m = /^rj(\d+)\./.exec(frag);
    return m
      ? fail(SHARE_ERRORS.VERSION, `The link was made by a newer ragjudge (format ${m[1]}); this page reads format ${SHARE_VERSION}.`)
      : fail(SHARE_ERRORS.PREFIX, "This is not a ragjudge share link.");
  }
  const bytes = fromBase64url(frag.slice(SHARE_PREFIX.length));
  if (!bytes || !bytes.length) return fail(SHARE_ERRORS.BASE64, "The link is damaged: its data is not base64url (was it cut or changed when it was copied?).");
  if (bytes.length < 5) return fail(SHARE_ERRORS.DEFLATE, "The link is damaged: its data is too short (was it cut when it was copied?).");
  const packed = bytes.subarray(0, bytes.length - 4);
  if (new DataView(bytes.buffer, bytes.byteOffset + packed.length, 4).getUint32(0) !== crc32(packed)) {
    return fail(SHARE_ERRORS.CHECKSUM, "The link is damaged: its checksum does not match (was it cut or changed when it was copied?).");
  }
  let text;
  try {
    const inflated = await pipe(packed, new DecompressionStream("deflate-raw"), MAX_INFLATED);
    text = new TextDecoder("utf-8", { fatal: true }).decode(inflated);
  } catch (e) {
    if (e instanceof RangeError) return fail(SHARE_ERRORS.TOO_BIG, `The link's data unpacks to more than ${MAX_INFLATED / 1024 / 1024} MB: refused.`);
    return fail(SHARE_ERRORS.DEFLATE, "The link is damaged: its data does not unpack (was it cut or changed when it was copied?).");
  }
  let p;
  try {
    p = JSON.parse(text);
  } catch {
    return fail(SHARE_ERRORS.JSON, "The link is damaged: its data is not JSON.");
  }
  if (!isPlainObject(p)) return fail(SHARE_ERRORS.SHAPE, "The link's data is not an evaluation.");
  if (p.v !== SHARE_VERSION) return fail(SHARE_ERRORS.VERSION, `The link's data is of format ${JSON.stringify(p.v)}; this page reads format ${SHARE_VERSION}.`);
  /** @type {Object|null} */
  let spec = null;
  let id = "";
  if (typeof p.e === "string" && p.e) id = p.e;
  else if (isPlainObject(p.e) && isPlainObject(p.e.spec) && typeof p.e.spec.id === "string" && p.e.spec.id) {
    spec = p.e.spec;
    id = p.e.spec.id;
  } else return fail(SHARE_ERRORS.EVALUATOR, "The link does not say which evaluator judged.");
  if (id.length > 200) return fail(SHARE_ERRORS.EVALUATOR, "The link names an evaluator this page does not have.");
  let ev;
  try {
    ev = evaluatorOf(id, spec);
  } catch (e) {
    return fail(SHARE_ERRORS.EVALUATOR, `The link's custom evaluator "${id}" cannot be used: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!ev) return fail(SHARE_ERRORS.EVALUATOR, spec ? `The link's custom evaluator "${id}" cannot be used on this page.` : `The link names an evaluator this page does not have: "${id}".`);
  if (!isPlainObject(p.i)) return fail(SHARE_ERRORS.SHAPE, "The link's inputs are not a set of named values.");
  if (typeof p.a !== "string") return fail(SHARE_ERRORS.SHAPE, "The link's judge answer is not a text.");
  if (p.m !== undefined && typeof p.m !== "string") return fail(SHARE_ERRORS.SHAPE, "The link's model name is not a text.");
  const byName = new Map(ev.inputs.map((i) => [i.name, i]));
  for (const [name, value] of Object.entries(p.i)) {
    const input = byName.get(name);
    if (!input) return fail(SHARE_ERRORS.SHAPE, `The link has an input "${name.slice(0, 80)}" that evaluator "${id}" does not have.`);
    const want = checkInput(input, value);
    if (want) return fail(SHARE_ERRORS.SHAPE, `The link's input "${name}" is not ${want}.`);
  }
  /** @type {SharedEvaluation} */
  const value = { evaluator: id, spec, inputs: p.i, answer: p.a };
  if (p.m) value.model = p.m;
  return { ok: true, value };
}

/**
 * shareURL is the page's address with fragment in place of its own; the fragment alone holds the evaluation.
 * @param {string} href the page's address (location.href)
 * @param {string} fragment encodeShare's result
 */
export function shareURL(href, fragment) {
  return href.replace(/#.*$/, "") + "#" + fragment;
}
