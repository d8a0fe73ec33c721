// sizeby.mjs shows where the bytes of the wasm go: the size of each section, the code of each Go
// package and its largest functions, and, with --why, the chain of references that keeps a
// symbol in the wasm. scripts/sizeby.sh builds the wasm it reads (as `make build` does, but
// keeping the function names that -ldflags=-s strips) and runs it:
//
//   bash scripts/sizeby.sh                      packages, then the 40 largest functions
//   bash scripts/sizeby.sh --top 100 template   the 100 largest functions whose name has "template"
//   bash scripts/sizeby.sh --why time.Time.Format
//
// Sizes are of uncompressed code: brotli takes Go's wasm to about a sixth, unevenly, so measure a
// change with `make build && scripts/size.sh`. Each function also costs data beside its code
// (its name, line tables and an entry in the runtime's function tables, about 100 bytes raw).
// Go's own `go tool nm` does not read wasm, hence this.

import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const opt = { wasm: "", deps: "", top: 40, filter: "", why: [] };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--top") opt.top = Number(args[++i]);
  else if (a === "--deps") opt.deps = args[++i];
  else if (a === "--why") opt.why.push(args[++i]);
  else if (!opt.wasm) opt.wasm = a;
  else opt.filter = a;
}
if (!opt.wasm || !(opt.top >= 0)) {
  console.error("usage: node scripts/sizeby.mjs FILE.wasm [--top N] [FILTER] [--deps DUMPDEP.txt --why SYMBOL]...");
  process.exit(2);
}

if (opt.why.length) {
  why(readFileSync(opt.deps, "utf8"), opt.why);
} else {
  report(readFileSync(opt.wasm));
}

/** @param {Uint8Array} b @param {number} i @returns {[number, number]} */
function uleb(b, i) {
  let r = 0, s = 0, x;
  do {
    x = b[i++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
  } while (x & 0x80);
  return [r, i];
}

/** report prints the sections, the code by package and the largest functions. */
function report(/** @type {Buffer} */ b) {
  const names = new Map(); // function index → name, from the "name" custom section
  const sections = [];
  let imports = 0, bodies = [];
  for (let i = 8; i < b.length;) {
    const id = b[i];
    const [n, start] = uleb(b, i + 1);
    const end = start + n;
    let label = ["custom", "type", "import", "function", "table", "memory", "global", "export",
      "start", "element", "code", "data", "data count"][id] ?? `section ${id}`;
    if (id === 0) {
      const [len, j] = uleb(b, start);
      const name = b.subarray(j, j + len).toString();
      label = `custom "${name}"`;
      if (name === "name") readNames(b, j + len, end, names);
    } else if (id === 2) {
      let [count, j] = uleb(b, start);
      for (; count > 0; count--) {
        for (let k = 0; k < 2; k++) { const [l, j2] = uleb(b, j); j = j2 + l; } // module, field
        const kind = b[j++];
        if (kind === 0) { imports++; j = uleb(b, j)[1]; }
        else if (kind === 1) { j++; const fl = b[j++]; j = uleb(b, j)[1]; if (fl & 1) j = uleb(b, j)[1]; }
        else if (kind === 2) { const fl = b[j++]; j = uleb(b, j)[1]; if (fl & 1) j = uleb(b, j)[1]; }
        else j += 2;
      }
    } else if (id === 10) {
      let [count, j] = uleb(b, start);
      for (let f = 0; f < count; f++) {
        const [size, j2] = uleb(b, j);
        bodies.push([imports + f, size + (j2 - j)]);
        j = j2 + size;
      }
    }
    sections.push([label, n]);
    i = end;
  }
  console.log(`${opt.wasm}: ${b.length} bytes`);
  for (const [label, n] of sections.filter(([, n]) => n > 1000)) console.log(pad(n, 10) + "  " + label);
  if (!names.size) {
    console.log("no function names (built with -ldflags=-s?): run scripts/sizeby.sh");
    return;
  }
  const total = bodies.reduce((s, [, n]) => s + n, 0);
  const byPkg = new Map();
  const fns = bodies.map(([idx, n]) => {
    const name = names.get(idx) ?? `func ${idx}`;
    const pkg = packageOf(name);
    const p = byPkg.get(pkg) ?? { n: 0, count: 0 };
    p.n += n;
    p.count++;
    byPkg.set(pkg, p);
    return [name, n];
  });
  console.log(`\ncode by package (${bodies.length} functions, ${total} bytes):`);
  console.log("     bytes      %  funcs  package");
  for (const [pkg, p] of [...byPkg].sort((x, y) => y[1].n - x[1].n)) {
    if (p.n < 2000 && !opt.filter) continue;
    if (opt.filter && !pkg.includes(opt.filter)) continue;
    console.log(pad(p.n, 10) + pad((100 * p.n / total).toFixed(1), 7) + pad(p.count, 7) + "  " + pkg);
  }
  const shown = fns.filter(([name]) => !opt.filter || name.includes(opt.filter))
    .sort((x, y) => y[1] - x[1]).slice(0, opt.top);
  console.log(`\nlargest functions${opt.filter ? ` matching "${opt.filter}"` : ""}:`);
  for (const [name, n] of shown) console.log(pad(n, 10) + "  " + name);
}

/** readNames reads the function names of the "name" section's subsection 1 into names. */
function readNames(/** @type {Buffer} */ b, /** @type {number} */ i, /** @type {number} */ end, /** @type {Map<number,string>} */ names) {
  while (i < end) {
    const sub = b[i];
    const [size, j] = uleb(b, i + 1);
    if (sub === 1) {
      let [count, k] = uleb(b, j);
      for (; count > 0; count--) {
        const [idx, k2] = uleb(b, k);
        const [len, k3] = uleb(b, k2);
        names.set(idx, b.subarray(k3, k3 + len).toString());
        k = k3 + len;
      }
    }
    i = j + size;
  }
}

/**
 * packageOf returns the Go package of a function name as the wasm spells it: "/" stays, "." in
 * the path becomes "_" ("ragjudge_core_template.__evaluator_.eval" is ragjudge/core/template).
 */
function packageOf(/** @type {string} */ name) {
  if (name.startsWith("type_.") || name.startsWith("type:")) return "(type equality and hash functions)";
  const m = /^((?:[^/]*\/)*[^./]*)\./.exec(name);
  return m ? m[1].replaceAll("_", "/") : name;
}

/**
 * why prints, for each symbol, the chain of references the linker followed to it from the
 * program's roots (-ldflags=-dumpdep lists each reference as "from -> to", the first reaching
 * a symbol being the one that kept it).
 */
function why(/** @type {string} */ dump, /** @type {string[]} */ symbols) {
  const parent = new Map();
  for (const line of dump.split("\n")) {
    const k = line.indexOf(" -> ");
    if (k < 0) continue;
    const to = line.slice(k + 4);
    if (!parent.has(to)) parent.set(to, line.slice(0, k));
  }
  for (const s of symbols) {
    if (!parent.has(s)) {
      const near = [...parent.keys()].filter((k) => k.includes(s)).slice(0, 10);
      console.log(`${s}: not in the wasm${near.length ? `; symbols with that in their name: ${near.join(", ")}` : ""}`);
      continue;
    }
    console.log(s);
    const seen = new Set();
    for (let x = s; parent.has(x) && !seen.has(x); x = parent.get(x)) {
      seen.add(x);
      console.log("  <- " + parent.get(x));
    }
  }
}

function pad(/** @type {string|number} */ v, /** @type {number} */ n) {
  return String(v).padStart(n);
}
