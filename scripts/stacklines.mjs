// stacklines.mjs puts the source lines back into a Go stack printed by a wasm whose line tables
// scripts/droplines.mjs dropped: it reads the stack on stdin and, for each frame written
// "\t?:0 +0x1f", writes the file and line the same function at the same offset has in WASM, a
// build of the same source with its line tables (scripts/stacklines.sh makes one).
//
//   node scripts/stacklines.mjs WASM < stack.txt
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { memoryOf, pclntab, pcTable } from "./droplines.mjs";

// The fields of Go's _func read here, as byte offsets (see droplines.mjs).
const funcPcfile = 20, funcPcln = 24, funcCuOffset = 32;

/**
 * lineReader returns a function that gives "file:line" for a function's name and an offset from
 * its entry, or "" when wasm has no such function or no line for it.
 * @param {Uint8Array} wasm
 */
export function lineReader(wasm) {
  const mem = memoryOf(wasm);
  const tab = mem && pclntab(mem);
  if (!tab) throw new Error("stacklines: no Go pclntab in this wasm");
  const byName = new Map(tab.funcs.map((f) => [f.name, f]));
  // pcvalue is the runtime's pcvalue: the value table off gives at pc target.
  const pcvalue = (/** @type {number} */ off, /** @type {number} */ entry, /** @type {number} */ target) => {
    if (off === 0) return -1;
    let val = -1, pc = entry;
    for (const [dv, dpc] of pcTable(mem, tab.pctab, off)) {
      val += dv;
      pc += dpc;
      if (target < pc) return val;
    }
    return -1;
  };
  const cString = (/** @type {number} */ a) => {
    const bytes = [];
    for (; mem.byte(a) !== 0; a++) bytes.push(mem.byte(a));
    return Buffer.from(bytes).toString("utf8");
  };
  return (/** @type {string} */ name, /** @type {number} */ offset) => {
    const f = byName.get(name);
    if (!f) return "";
    // A frame's PC is where its call returns; the line is the call's, one PC before (as the
    // runtime's traceback looks it up).
    const target = f.entry + Math.max(offset - 1, 0);
    const line = pcvalue(mem.u32(f.fn + funcPcln), f.entry, target);
    const fileno = pcvalue(mem.u32(f.fn + funcPcfile), f.entry, target);
    if (line < 0 || fileno < 0) return "";
    const cu = mem.u32(f.fn + funcCuOffset);
    const fileOff = mem.u32(tab.cutab + 4 * (cu + fileno));
    return `${cString(tab.filetab + fileOff)}:${line}`;
  };
}

/**
 * annotate returns stack with the "?:0" of each frame replaced by its file and line from lines
 * (a lineReader); a frame it cannot place keeps "?:0".
 * @param {string} stack
 * @param {(name: string, offset: number) => string} lines
 */
export function annotate(stack, lines) {
  const out = stack.split("\n");
  for (let i = 1; i < out.length; i++) {
    const m = /^(\s+)\?:0 \+0x([0-9a-f]+)/.exec(out[i]);
    if (!m) continue;
    // The line before names the function: "pkg.(*T).f(args...)", or "panic({...})" for gopanic.
    let name = out[i - 1].trim().replace(/\(([^()]|\([^()]*\))*\)$/, "");
    if (name === "panic") name = "runtime.gopanic";
    const at = lines(name, parseInt(m[2], 16));
    if (at) out[i] = m[1] + at + out[i].slice(m[0].length - `+0x${m[2]}`.length - 1);
  }
  return out.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node scripts/stacklines.mjs WASM < stack.txt");
    process.exit(2);
  }
  process.stdout.write(annotate(fs.readFileSync(0, "utf8"), lineReader(fs.readFileSync(file))));
}
