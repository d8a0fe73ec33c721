// logprobwire.js: rj.parse's logprobs made lighter to send, without changing what they say.
//
// A chat completion's logprobs give every token and each of its alternatives their UTF-8 bytes
// beside their text: with top_logprobs 20, most of what crosses into the wasm is those byte lists
// (half the values of a 375-token answer), and each value costs the wasm to decode (about 0.6 µs).
// The core reads a token's bytes when given, else its text's UTF-8 (core/logprob), so bytes equal
// to the text's UTF-8 say nothing more and are left out here, as are the keys the core does not
// read (llama.cpp's "id"). Anything that is not such a plain token, or bytes that differ (a
// character split across tokens, or values that are not bytes), goes as it is, for the core to
// read or refuse with its path.

const utf8 = new TextEncoder();

/** isPlain reports whether x is an object literal the wire would read key by key. */
function isPlain(x) {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return (proto === Object.prototype || proto === null) && typeof x.toJSON !== "function";
}

/** sameBytes reports whether list is exactly the UTF-8 bytes of text. */
function sameBytes(list, text) {
  if (!Array.isArray(list)) return false;
  const b = utf8.encode(text);
  if (b.length !== list.length) return false;
  for (let i = 0; i < b.length; i++) if (list[i] !== b[i]) return false;
  return true;
}

/** slimEntry is a token or alternative without redundant bytes and unread keys, or e as it is. */
function slimEntry(e, alternative) {
  if (!isPlain(e) || typeof e.token !== "string") return e;
  const out = { token: e.token, logprob: e.logprob };
  if (e.bytes !== undefined && e.bytes !== null && !sameBytes(e.bytes, e.token)) out.bytes = e.bytes;
  if (!alternative && e.top_logprobs !== undefined) {
    out.top_logprobs = Array.isArray(e.top_logprobs) ? e.top_logprobs.map((a) => slimEntry(a, true)) : e.top_logprobs;
  }
  return out;
}

/**
 * slimParseOptions returns parse's options with their logprobs made lighter (see above), or opts
 * as they are when they hold no list of logprobs.
 * @param {unknown} opts
 */
export function slimParseOptions(opts) {
  try {
    if (!isPlain(opts)) return opts;
    const o = /** @type {any} */ (opts);
    const content = Array.isArray(o.logprobs) ? o.logprobs : isPlain(o.logprobs) && Array.isArray(o.logprobs.content) ? o.logprobs.content : null;
    if (!content) return opts;
    return { ...o, logprobs: content.map((t) => slimEntry(t, false)) };
  } catch {
    return opts; // a getter that throws: the wire reads them as they are and says where
  }
}
