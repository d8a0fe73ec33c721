// wire.js is ragjudge.js's side of the argument wire (bridge/wire.go): it checks a call's
// arguments, flattens them by JSON's rules (objects keep their key order) into a tape of tags and
// numbers and a list of strings, names inputs already sent by id instead (heldValues, withHeld),
// and packs the lot into the one byte buffer Go copies in one go (pack).

import { RagJudgeError } from "./errors.js";

/** typeName names v's type in the words the Go side uses ("a number", "a list", ...). */
function typeName(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  switch (typeof v) {
    case "boolean":
      return "a boolean";
    case "number":
    case "bigint":
      return "a number";
    case "string":
      return "a string";
    case "object":
      return "an object";
  }
  return "a " + typeof v;
}

/** Checks a text argument: a string, or undefined/null for "not given". */
export function textArg(fn, name, v) {
  if (v === undefined || v === null || typeof v === "string") return v ?? undefined;
  const detail = `${name} must be a string, got ${typeName(v)}`;
  throw new RagJudgeError(`input: ${fn}: ${detail}`, { kind: "input", name: fn, detail });
}

/** inputError is the RagJudgeError for a bad argument of fn. */
function inputError(fn, detail) {
  return new RagJudgeError(`input: ${fn}: ${detail}`, { kind: "input", name: fn, detail });
}

/** The tags of the argument wire (bridge/wire.go). */
export const W_NULL = 0, W_FALSE = 1, W_TRUE = 2, W_NUMBER = 3, W_STRING = 4, W_LIST = 5, W_OBJECT = 6, W_HELD = 7, W_HOLD = 8;

/**
 * Flattens a data argument into the argument wire (bridge/wire.go): tags and numbers onto tape,
 * strings (keys and values, in the order Go reads them) onto strs. It reads `v` by
 * JSON.stringify's rules (own enumerable keys in their order, toJSON honoured, undefined
 * properties left out, undefined list items as null), refusing what JSON would silently change
 * (NaN, infinities, functions, symbols, BigInts) and what the engine does not read (nesting
 * deeper than `limit`, cycles), with the path of the value in the message
 * ("inputs.evidence[2].text"). A getter, toJSON or proxy that throws is an input error too: every
 * piece of user code runs here, before anything crosses into the wasm.
 * @param {string} fn @param {string} name @param {unknown} v @param {number} limit
 * @param {number[]} tape @param {string[]} strs
 */
export function flatten(fn, name, v, limit, tape, strs) {
  /** @type {(string|number)[]} */
  const path = [name];
  // The path as JS writes it; a long one keeps its first and last six steps.
  const where = () => {
    const steps = path.map((p, k) => (k === 0 ? p : typeof p === "number" ? `[${p}]` : `.${p}`));
    return (steps.length > 12 ? [...steps.slice(0, 6), "…", ...steps.slice(-6)] : steps).join("");
  };
  /** put appends x; it returns false, having appended nothing, when x is undefined. */
  const put = (/** @type {any} */ x, /** @type {number} */ depth) => {
    switch (typeof x) {
      case "undefined":
        return false;
      case "boolean":
        tape.push(x ? W_TRUE : W_FALSE);
        return true;
      case "string":
        tape.push(W_STRING);
        strs.push(x);
        return true;
      case "number":
        if (!Number.isFinite(x)) throw inputError(fn, `${where()} holds ${x}, which is not a finite number`);
        tape.push(W_NUMBER, x);
        return true;
      case "object":
        break;
      default:
        throw inputError(fn, `${where()} holds a ${typeof x}, which is not JSON data`);
    }
    if (x === null) {
      tape.push(W_NULL);
      return true;
    }
    if (depth >= limit) throw inputError(fn, `${where()} is circular or nested deeper than ${limit} levels`);
    if (typeof x.toJSON === "function") return put(x.toJSON(), depth + 1);
    if (Array.isArray(x)) {
      tape.push(W_LIST, x.length);
      for (let k = 0; k < x.length; k++) {
        path.push(k);
        if (!put(x[k], depth + 1)) tape.push(W_NULL);
        path.pop();
      }
      return true;
    }
    const at = tape.length;
    tape.push(W_OBJECT, 0);
    let n = 0;
    for (const key of Object.keys(x)) {
      path.push(key);
      const item = x[key];
      if (item !== undefined) {
        const t = tape.length, s = strs.length;
        strs.push(key);
        if (put(item, depth + 1)) n++;
        else (tape.length = t), (strs.length = s); // a toJSON that gave undefined: left out
      }
      path.pop();
    }
    tape[at + 1] = n;
    return true;
  };
  try {
    if (!put(v, 0)) tape.push(W_NULL);
  } catch (err) {
    if (err instanceof RagJudgeError) throw err;
    throw inputError(fn, `${where()} could not be read: ${err}`);
  }
}

const utf8 = new TextEncoder();
export const utf8Decoder = new TextDecoder();
/** The buffer calls are packed into, kept between calls up to this size. */
const keptBytes = 8 << 20;
let scratch = new ArrayBuffer(64 << 10);

/**
 * Packs a call's flattened arguments into the byte layout of bridge/wire.go and returns the bytes
 * (a view of a buffer the next call reuses: Go copies them before the call returns).
 * @param {number[]} tape @param {string[]} strs @returns {Uint8Array}
 */
export function pack(tape, strs) {
  let units = 0;
  for (let k = 0; k < strs.length; k++) units += strs[k].length;
  const head = 8 + 8 * tape.length + 4 * strs.length;
  const need = head + 3 * units; // UTF-8 takes at most 3 bytes for each UTF-16 unit
  let buf = scratch;
  if (need > buf.byteLength) {
    buf = new ArrayBuffer(Math.max(need, 2 * buf.byteLength));
    if (buf.byteLength <= keptBytes) scratch = buf;
  }
  const counts = new Uint32Array(buf, 0, 2);
  counts[0] = tape.length;
  counts[1] = strs.length;
  new Float64Array(buf, 8, tape.length).set(tape);
  const lens = new Uint32Array(buf, 8 + 8 * tape.length, strs.length);
  const bytes = new Uint8Array(buf);
  let off = head;
  for (let k = 0; k < strs.length; k++) {
    const s = strs[k];
    const start = off;
    // Keys and short texts are mostly ASCII: copying them here is faster than a TextEncoder call.
    let i = 0;
    if (s.length < 64) {
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        bytes[off++] = c;
      }
    }
    if (i < s.length) off += utf8.encodeInto(i === 0 ? s : s.slice(i), bytes.subarray(off)).written;
    lens[k] = off - start;
  }
  return new Uint8Array(buf, 0, off);
}

/** @typedef {{id: number, tape: number[], strs: string[], sent: boolean}} Held */

/** The length from which a text argument that may be held (a template's source) is held. */
const heldTextLength = 1024;

/**
 * heldValues returns one load's hold function, which finds the id an object argument's flattening
 * goes by, and its holdText function, which does the same for a long text seen before: a
 * template's source sent again (rj.template on each row, an editor's preview) is named by id,
 * not encoded, copied into Go and compared with the parsed one's again. A text is held the
 * second time it is sent, so that a text sent once (each keystroke's new source) takes no place
 * among what Go keeps. Held inputs (see bridge/wire.go's held): render then parse of the same inputs, or a
 * render on each keystroke with the same variables, send them once. An argument is flattened on
 * every call anyway (that is what checks it and runs its getters and toJSON); when the flattening
 * is equal, string for string, to one sent before, the call names it by id instead of sending it.
 * Equal flattenings make equal values in Go, so a mutated input is never answered from a stale
 * copy; a held value Go has let go of (it keeps a bounded number) makes it ask for the call again
 * with the values (MissWire).
 * @returns {{hold: (v: object, tape: number[], strs: string[]) => Held, holdText: (s: string) => Held|null}}
 */
export function heldValues() {
  /** @type {WeakMap<object, Held>} the last flattening sent for each inputs object */
  const heldFor = new WeakMap();
  /** @type {Held[]} the last few sent, newest last: a form rebuilds its inputs object each time */
  const recent = [];
  let nextHeld = 1;
  /** @param {Held} h @param {number[]} tape @param {string[]} strs */
  const same = (h, tape, strs) => {
    if (h.tape.length !== tape.length || h.strs.length !== strs.length) return false;
    for (let k = 0; k < tape.length; k++) if (h.tape[k] !== tape[k]) return false;
    for (let k = 0; k < strs.length; k++) if (h.strs[k] !== strs[k]) return false;
    return true;
  };
  /** @type {Map<string, Held|null>} the last texts sent (null: sent once, not held), oldest first */
  const texts = new Map();
  /**
   * holdText returns the Held of text s, or null when s is to be sent as it is.
   * @param {string} s @returns {Held|null}
   */
  const holdText = (s) => {
    if (s.length < heldTextLength) return null;
    let h = texts.get(s);
    texts.delete(s);
    if (h === undefined) h = null;
    else h ??= { id: nextHeld++, tape: [W_STRING], strs: [s], sent: false };
    texts.set(s, h);
    if (texts.size > 16) texts.delete(texts.keys().next().value ?? "");
    return h;
  };
  /** @param {object} v @param {number[]} tape @param {string[]} strs @returns {Held} */
  const hold = (v, tape, strs) => {
    let h = heldFor.get(v);
    if (!h || !same(h, tape, strs)) {
      h = undefined;
      for (let k = recent.length - 1; k >= 0 && !h; k--) if (same(recent[k], tape, strs)) h = recent[k];
      h ??= { id: nextHeld++, tape, strs, sent: false };
      heldFor.set(v, h);
    }
    const at = recent.indexOf(h);
    if (at >= 0) recent.splice(at, 1);
    recent.push(h);
    if (recent.length > 8) recent.shift();
    return h;
  };
  return { hold, holdText };
}

/**
 * withHeld fills in a call's held-argument placeholders: a held argument goes as its values
 * (W_HOLD) when Go may not have it (never sent, or all = true after Go said it had let it go),
 * else as its id (W_HELD). It returns tape and strs themselves when nothing needs its values.
 * @param {number[]} tape @param {string[]} strs
 * @param {{at: number, sAt: number, held: Held}[]} helds where a held argument goes in tape and strs
 * @param {boolean} all
 * @returns {{t: number[], ss: string[]}}
 */
export function withHeld(tape, strs, helds, all) {
  let t = tape, ss = strs;
  if (helds.some((x) => all || !x.held.sent)) {
    t = [];
    ss = [];
    let from = 0, sFrom = 0;
    for (const { at, sAt, held } of helds) {
      for (let k = from; k < at; k++) t.push(tape[k]);
      for (let k = sFrom; k < sAt; k++) ss.push(strs[k]);
      if (all || !held.sent) {
        t.push(W_HOLD, held.id);
        for (let k = 0; k < held.tape.length; k++) t.push(held.tape[k]);
        for (let k = 0; k < held.strs.length; k++) ss.push(held.strs[k]);
      } else {
        t.push(W_HELD, held.id);
      }
      from = at + 2;
      sFrom = sAt;
    }
    for (let k = from; k < tape.length; k++) t.push(tape[k]);
    for (let k = sFrom; k < strs.length; k++) ss.push(strs[k]);
  }
  return { t, ss };
}
