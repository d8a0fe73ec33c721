// packdata.mjs rewrites a wasm file's data section in fewer segments. Go's wasm linker starts a
// new data segment after every run of eight or more zero bytes: ragjudge.wasm had 63,000 of them,
// whose headers (an offset and a length each, half a megabyte) sit between the data and break
// the long matches brotli and gzip find in it. Joined across runs of at most MAX_GAP zero bytes,
// written out as zeros, the segments fill memory with the same bytes (memory starts zeroed), and
// the wasm is 70 KB smaller in brotli and 109 KB in gzip (0.6 MB larger raw, which no one
// downloads). A data section holding anything but active segments of memory 0 at constant
// offsets that do not overlap (what Go writes) is left as it is.
//
//   node scripts/packdata.mjs web/ragjudge.wasm
import fs from "node:fs";
import { pathToFileURL } from "node:url";

/** MAX_GAP is the longest run of zero bytes two segments are joined across. */
export const MAX_GAP = 64;

/**
 * packData returns the module bytes with its data section's segments joined across zero runs of
 * at most maxGap bytes, and the segment counts before and after (equal when it changed nothing).
 * @param {Uint8Array} wasm
 * @param {number} [maxGap]
 * @returns {{ bytes: Uint8Array, before: number, after: number }}
 */
export function packData(wasm, maxGap = MAX_GAP) {
  const r = reader(wasm);
  if (wasm.length < 8 || r.u32le(0) !== 0x6d736100) throw new Error("packdata: not a wasm module");
  r.pos = 8;
  const parts = [wasm.subarray(0, 8)];
  let before = 0;
  let after = 0;
  let dataCountAt = -1;
  while (r.pos < wasm.length) {
    const start = r.pos;
    const id = wasm[r.pos++];
    const size = r.uleb();
    const end = r.pos + size;
    if (id === 12) dataCountAt = parts.length;
    if (id !== 11) {
      parts.push(wasm.subarray(start, end));
      r.pos = end;
      continue;
    }
    const segments = readSegments(r, end);
    r.pos = end;
    if (!segments) return { bytes: wasm, before: 0, after: 0 };
    before = segments.length;
    const joined = join(segments, maxGap);
    after = joined.length;
    const body = [uleb(joined.length)];
    for (const s of joined) {
      body.push(Uint8Array.of(0, 0x41), sleb(s.offset), Uint8Array.of(0x0b), uleb(s.length), ...s.parts);
    }
    const section = concat(body);
    parts.push(Uint8Array.of(11), uleb(section.length), section);
  }
  if (dataCountAt >= 0) {
    const count = uleb(after);
    parts[dataCountAt] = concat([Uint8Array.of(12), uleb(count.length), count]);
  }
  return { bytes: concat(parts), before, after };
}

// readSegments reads a data section's segments, or returns null for one packData leaves alone.
function readSegments(r, end) {
  const count = r.uleb();
  const segments = [];
  for (let i = 0; i < count; i++) {
    if (r.uleb() !== 0 || r.bytes[r.pos++] !== 0x41) return null; // passive, another memory, not i32.const
    const offset = r.sleb();
    if (r.bytes[r.pos++] !== 0x0b || offset < 0) return null;
    const length = r.uleb();
    segments.push({ offset, length, parts: [r.bytes.subarray(r.pos, r.pos + length)] });
    r.pos += length;
  }
  if (r.pos !== end) return null;
  // Go writes its sections' segments in the order of the sections, not of their addresses:
  // segments that do not overlap fill memory the same in any order.
  segments.sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < segments.length; i++) {
    if (segments[i].offset < segments[i - 1].offset + segments[i - 1].length) return null;
  }
  return segments;
}

function join(segments, maxGap) {
  const out = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    const gap = last ? s.offset - (last.offset + last.length) : Infinity;
    if (gap <= maxGap) {
      last.parts.push(new Uint8Array(gap), ...s.parts);
      last.length += gap + s.length;
    } else {
      out.push({ offset: s.offset, length: s.length, parts: [...s.parts] });
    }
  }
  return out;
}

function reader(bytes) {
  return {
    bytes,
    pos: 0,
    u32le(at) {
      return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
    },
    uleb() {
      let n = 0;
      let scale = 1;
      let c;
      do {
        c = bytes[this.pos++];
        n += (c & 0x7f) * scale;
        scale *= 128;
      } while (c & 0x80);
      return n;
    },
    sleb() {
      let n = 0;
      let shift = 0;
      let c;
      do {
        c = bytes[this.pos++];
        n |= (c & 0x7f) << shift;
        shift += 7;
      } while (c & 0x80 && shift < 35);
      if (shift < 32 && c & 0x40) n |= -1 << shift;
      return n;
    },
  };
}

/**
 * uleb is n in unsigned LEB128, as wasm writes counts and lengths.
 * @param {number} n
 */
export function uleb(n) {
  const out = [];
  do {
    let c = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) c |= 0x80;
    out.push(c);
  } while (n > 0);
  return Uint8Array.from(out);
}

// sleb writes an i32.const operand: signed LEB128 of n as a 32-bit integer.
function sleb(n) {
  n |= 0;
  const out = [];
  for (;;) {
    const c = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(c & 0x40)) || (n === -1 && c & 0x40)) {
      out.push(c);
      return Uint8Array.from(out);
    }
    out.push(c | 0x80);
  }
}

function concat(chunks) {
  let size = 0;
  for (const c of chunks) size += c.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node scripts/packdata.mjs FILE.wasm");
    process.exit(2);
  }
  const { bytes, before, after } = packData(fs.readFileSync(file));
  if (after < before) {
    fs.writeFileSync(file + ".tmp", bytes);
    fs.renameSync(file + ".tmp", file);
    console.log(`packdata: ${file}: ${before} data segments joined into ${after}`);
  } else {
    console.log(`packdata: ${file}: left as it is (${before} data segments)`);
  }
}
