// packfiles.mjs: what the npm package ragjudge ships, read from the modules themselves: the JS API
// (web/ragjudge.js) and the ragjudge command (cli/ragjudge.mjs), every module they import
// statically, the files they reach with new URL("…", import.meta.url) (the wasm, Go's
// wasm_exec.js, the page's stylesheets a report carries), and the API's declarations (made by
// `make pack` under pkg/types/). package.json's "files" must list exactly these: never a test,
// node_modules or serve/.
//
//   node scripts/packfiles.mjs            print the list
//   node scripts/packfiles.mjs --check    exit 1, saying what differs, when package.json's "files" is not it
//   node scripts/packfiles.mjs --write    write it into package.json's "files"
//
// The list drifts whenever a module the API or the command imports is added or dropped: make
// check's unit tests (test/unit/packfiles.test.mjs, through filesDrift) fail then, naming the
// command that writes it, so a change never reaches npm pack's prepack with a stale list.

import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { staticGraph } from "./webfiles.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** ENTRIES are the package's entry points: the JS API and the command. */
export const ENTRIES = ["web/ragjudge.js", "cli/ragjudge.mjs"];

/** TYPES is where `make pack` writes the API's declarations (a folder, listed as one entry). */
export const TYPES = "pkg/types/";

const ASSET = /new URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/**
 * packFiles is the package's file list, sorted: modules, the assets they reach, and TYPES.
 * package.json is shipped by npm itself and left out. A relative dynamic import() in a shipped
 * module is an error: the list follows static imports only.
 * @param {string} [root]
 * @returns {string[]}
 */
export function packFiles(root = ROOT) {
  const modules = new Set();
  for (const e of ENTRIES) for (const f of staticGraph(root, e)) modules.add(f);
  const out = new Set(modules);
  for (const f of modules) {
    const src = readFileSync(join(root, f), "utf8");
    // Types in JSDoc comments name modules with import("…") too: comments are not code.
    const code = src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of code.matchAll(DYNAMIC)) throw new Error(`${f} imports ${m[1]} dynamically: make it a static import, or list it here`);
    for (const m of code.matchAll(ASSET)) {
      const asset = posix.normalize(posix.join(posix.dirname(f), m[1]));
      if (asset === "package.json") continue;
      out.add(asset);
    }
  }
  out.add(TYPES);
  return [...out].sort();
}

/** WRITE is the command that brings package.json's "files" up to date. */
export const WRITE = "node scripts/packfiles.mjs --write";

/**
 * filesDrift compares package.json's "files" (in root) with packFiles: what it lacks and what it
 * lists that is shipped no more; said is "" when they agree, else what differs and the command
 * that writes the list.
 * @param {string} [root]
 * @returns {{missing: string[], extra: string[], said: string}}
 */
export function filesDrift(root = ROOT) {
  const files = packFiles(root);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const have = new Set(pkg.files || []);
  const want = new Set(files);
  const missing = files.filter((f) => !have.has(f));
  const extra = [...have].filter((f) => !want.has(f));
  const said = missing.length || extra.length
    ? `package.json "files" is out of date (run ${WRITE}):` + (missing.length ? `\n  missing: ${missing.join(", ")}` : "") + (extra.length ? `\n  not shipped any more: ${extra.join(", ")}` : "")
    : "";
  return { missing, extra, said };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2] || "";
  const files = packFiles();
  const pkgPath = join(ROOT, "package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  if (mode === "--write") {
    pkg.files = files;
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2) + "\n");
  } else if (mode === "--check") {
    const { said } = filesDrift();
    const absent = files.filter((f) => !existsSync(join(ROOT, f === TYPES ? TYPES + "ragjudge.d.ts" : f)));
    if (said) {
      console.error(said);
      process.exit(1);
    }
    if (absent.length) {
      console.error(`not built yet (make pack builds them): ${absent.join(", ")}`);
      process.exit(1);
    }
  } else console.log(files.join("\n"));
}
