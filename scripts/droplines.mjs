// droplines.mjs removes the line tables from a Go wasm: the table of each function that maps its
// code to source lines (pcln), the one that maps it to source files (pcfile), the files' names and
// each function's first line. Go's runtime reads them for one thing, printing a stack (a panic's,
// runtime.Stack, runtime.Caller), and ragjudge's wasm prints one only when the core panics; they
// were 58 KB of its brotli. A stack then reads "?:0 +0x1f" where it read "template/eval.go:312
// +0x1f", with every function still named: scripts/stacklines.sh puts the lines back from a build
// of the same commit. What the runtime needs to run (the stack frame sizes, pcsp, and the
// garbage collector's pointer maps, pcdata) is left as it is.
//
// Each function's entry (Go's _func, runtime/runtime2.go) keeps its place: its pcfile and pcln
// offsets become 0, which the runtime reads as "no table" (funcline1 then gives "?", 0), and the
// bytes of the tables, of the file names and of the compilation units' file lists become zeros,
// which cost brotli almost nothing. Only the pclntab layout Go has written since 1.20 (magic
// 0xfffffff1) is read; another is left as it is, with a message, and the size budget notices.
//
//   node scripts/droplines.mjs web/ragjudge.wasm
import fs from "node:fs";
import { pathToFileURL } from "node:url";

/** PCLNTAB_MAGIC starts Go's pclntab header (go1.20 and later), then two zero bytes, the
 * instruction size quantum (1) and the pointer size (8 on wasm). */
const PCLNTAB_MAGIC = Uint8Array.of(0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8);

// The fields of Go's _func used here, as byte offsets; pcdata offsets follow at funcPcdata.
const funcPcsp = 16, funcPcfile = 20, funcPcln = 24, funcNpcdata = 28, funcCuOffset = 32,
  funcStartLine = 36, funcPcdata = 44;

/**
 * memoryOf reads a module's data section: the memory its active segments fill, read and written
 * by address. Addresses no segment holds read as zero (memory starts zeroed); writing a zero
 * there changes nothing, writing anything else is an error. Null when the section holds
 * anything but active segments of memory 0 at constant offsets (what Go writes).
 * @param {Uint8Array} wasm the module; writes go to these bytes
 */
export function memoryOf(wasm) {
  let pos = 8;
  const uleb = () => {
    let n = 0, scale = 1, c;
    do {
      c = wasm[pos++];
      n += (c & 0x7f) * scale;
      scale *= 128;
    } while (c & 0x80);
    return n;
  };
  const sleb = () => {
    let n = 0, shift = 0, c;
    do {
      c = wasm[pos++];
      n |= (c & 0x7f) << shift;
      shift += 7;
    } while (c & 0x80 && shift < 35);
    if (shift < 32 && c & 0x40) n |= -1 << shift;
    return n;
  };
  /** @type {{ addr: number, at: number, length: number }[]} */
  const segments = [];
  while (pos < wasm.length) {
    const id = wasm[pos++];
    const size = uleb();
    const end = pos + size;
    if (id === 11) {
      for (let count = uleb(); count > 0; count--) {
        if (uleb() !== 0 || wasm[pos++] !== 0x41) return null;
        const addr = sleb();
        if (wasm[pos++] !== 0x0b) return null;
        const length = uleb();
        segments.push({ addr, at: pos, length });
        pos += length;
      }
    }
    pos = end;
  }
  segments.sort((a, b) => a.addr - b.addr);
  /** where returns the segment holding addr, or undefined. */
  const where = (/** @type {number} */ addr) => {
    let lo = 0, hi = segments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid].addr + segments[mid].length <= addr) lo = mid + 1;
      else hi = mid;
    }
    const s = segments[lo];
    return s && s.addr <= addr ? s : undefined;
  };
  return {
    segments,
    byte(/** @type {number} */ addr) {
      const s = where(addr);
      return s ? wasm[s.at + addr - s.addr] : 0;
    },
    setByte(/** @type {number} */ addr, /** @type {number} */ v) {
      const s = where(addr);
      if (s) wasm[s.at + addr - s.addr] = v;
      else if (v !== 0) throw new Error(`droplines: address ${addr} is in no data segment`);
    },
    u32(/** @type {number} */ addr) {
      return (this.byte(addr) | (this.byte(addr + 1) << 8) | (this.byte(addr + 2) << 16) | (this.byte(addr + 3) << 24)) >>> 0;
    },
    setU32(/** @type {number} */ addr, /** @type {number} */ v) {
      for (let i = 0; i < 4; i++) this.setByte(addr + i, (v >>> (8 * i)) & 0xff);
    },
    u64(/** @type {number} */ addr) {
      return this.u32(addr) + this.u32(addr + 4) * 2 ** 32;
    },
    /** find returns the address of the first copy of needle in a segment, or -1. */
    find(/** @type {Uint8Array} */ needle) {
      for (const s of segments) {
        const i = Buffer.from(wasm.buffer, wasm.byteOffset + s.at, s.length).indexOf(needle);
        if (i >= 0) return s.addr + i;
      }
      return -1;
    },
  };
}

/**
 * pclntab finds Go's pclntab in a module's memory and reads its header and its functions: for
 * each, its name, entry (a PC) and the address of its _func. Null when there is none Go 1.20 or
 * later wrote.
 * @param {NonNullable<ReturnType<typeof memoryOf>>} mem
 */
export function pclntab(mem) {
  const at = mem.find(PCLNTAB_MAGIC);
  if (at < 0 || at % 8 !== 0) return null;
  const nfunc = mem.u64(at + 8);
  const off = (/** @type {number} */ k) => at + mem.u64(at + k);
  const h = { at, nfunc, textStart: mem.u64(at + 24), funcnametab: off(32), cutab: off(40), filetab: off(48), pctab: off(56), pcln: off(64) };
  if (!(h.funcnametab < h.cutab && h.cutab <= h.filetab && h.filetab <= h.pctab && h.pctab <= h.pcln)) return null;
  const funcs = [];
  for (let k = 0; k < nfunc; k++) {
    const entryOff = mem.u32(h.pcln + 8 * k);
    const fn = h.pcln + mem.u32(h.pcln + 8 * k + 4);
    if (mem.u32(fn) !== entryOff) return null; // the function table and the _func disagree: not Go's layout
    let name = "";
    for (let a = h.funcnametab + mem.u32(fn + 4); mem.byte(a) !== 0; a++) name += String.fromCharCode(mem.byte(a));
    funcs.push({ name, entry: h.textStart + entryOff, fn });
  }
  return { ...h, funcs };
}

/**
 * pcTable reads the pc-value table at pctab+off: pairs of a value delta (zig-zag varint) and a pc
 * delta (varint), ended by a zero value delta after the first pair. It yields each pair's value
 * delta and pc delta, and returns the table's length in bytes.
 * @param {NonNullable<ReturnType<typeof memoryOf>>} mem
 * @returns {Generator<[number, number], number>}
 */
export function* pcTable(mem, /** @type {number} */ pctab, /** @type {number} */ off) {
  let a = pctab + off;
  const varint = () => {
    let n = 0, scale = 1, c;
    do {
      c = mem.byte(a++);
      n += (c & 0x7f) * scale;
      scale *= 128;
    } while (c & 0x80);
    return n;
  };
  for (let first = true; ; first = false) {
    const uv = varint();
    if (uv === 0 && !first) return a - (pctab + off);
    yield [uv & 1 ? -((uv + 1) / 2) : uv / 2, varint()];
  }
}

/**
 * tableLength is the length in bytes of the pc-value table at pctab+off (see pcTable).
 * @param {NonNullable<ReturnType<typeof memoryOf>>} mem
 */
export function tableLength(mem, /** @type {number} */ pctab, /** @type {number} */ off) {
  const table = pcTable(mem, pctab, off);
  for (let r = table.next(); ; r = table.next()) if (r.done) return r.value;
}

/**
 * dropLines zeroes the line tables of the Go wasm module wasm (see the file's comment), in place,
 * and returns how many functions it changed and how many bytes it zeroed; null when it found no
 * pclntab it reads (the module is then as it was).
 * @param {Uint8Array} wasm
 */
export function dropLines(wasm) {
  if (wasm.length < 8 || new DataView(wasm.buffer, wasm.byteOffset).getUint32(0, true) !== 0x6d736100) {
    throw new Error("droplines: not a wasm module");
  }
  const mem = memoryOf(wasm);
  const tab = mem && pclntab(mem);
  if (!tab) return null;
  const dropped = new Map(); // pctab offset → length, of the line and file tables
  const kept = new Set(); // pctab offsets of the tables the runtime runs on; Go shares equal tables
  for (const { fn } of tab.funcs) {
    for (const field of [funcPcfile, funcPcln]) {
      const off = mem.u32(fn + field);
      if (off) dropped.set(off, tableLength(mem, tab.pctab, off));
    }
    kept.add(mem.u32(fn + funcPcsp));
    for (let i = mem.u32(fn + funcNpcdata) - 1; i >= 0; i--) kept.add(mem.u32(fn + funcPcdata + 4 * i));
  }
  let zeroed = 0;
  for (const [off, length] of dropped) {
    if (kept.has(off)) continue;
    for (let i = 0; i < length; i++) mem.setByte(tab.pctab + off + i, 0);
    zeroed += length;
  }
  for (const { fn } of tab.funcs) {
    for (const field of [funcPcfile, funcPcln, funcCuOffset, funcStartLine]) mem.setU32(fn + field, 0);
  }
  // The compilation units' file lists and the file names: read only through pcfile.
  for (let a = tab.cutab; a < tab.pctab; a++) mem.setByte(a, 0);
  zeroed += tab.pctab - tab.cutab;
  return { funcs: tab.funcs.length, zeroed };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node scripts/droplines.mjs FILE.wasm");
    process.exit(2);
  }
  const wasm = fs.readFileSync(file);
  const done = dropLines(wasm);
  if (!done) {
    console.log(`droplines: ${file}: left as it is (no Go pclntab of the layout it reads)`);
  } else {
    fs.writeFileSync(file + ".tmp", wasm);
    fs.renameSync(file + ".tmp", file);
    console.log(`droplines: ${file}: line tables of ${done.funcs} functions dropped (${done.zeroed} bytes zeroed)`);
  }
}
