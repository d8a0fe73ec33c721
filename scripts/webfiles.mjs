// webfiles.mjs: what the page is made of, read from the files actually in web/ (never a hand
// list, so a module added to web/ is published, precached and preloaded without editing anything):
//
//   node scripts/webfiles.mjs preload web            rewrite index.html's modulepreload block and
//                                                    its prerendered evaluator picker
//   node scripts/webfiles.mjs preload web --check    exit 1 when those blocks are out of date
//   node scripts/webfiles.mjs precache web OUT.js    write the service worker's precache list
//   node scripts/webfiles.mjs dist web DIR           write DIR: web/ ready for a static host
//
// The modulepreload block lists app.js's static import graph (what the first paint needs), so the
// browser asks for every module of it at once instead of one import level per round trip; then, in
// a <template> app.js adds to the document once the shell is painted, the graphs of the modules
// app.js's graph imports with import() on a line marked "// modulepreload" (the engine's, the
// verdicts', the calls': needed soon, not to draw); other modules loaded with import() (the Batch
// view) stay out of it.
//
// The precache list (precache.js, read by sw.js with importScripts) names every published file
// with the SHA-256 of its bytes; its version is a hash over those names and sums, so any change to
// any file is a new version, and the service worker checks each file it caches against its sum
// (a file fetched while a deploy is half done cannot slip into a version). serve/ answers
// /precache.js with the same list computed from its web directory (precache.go): both follow the
// rules of publishedFiles.
//
// Every file of a build is also published under v/VERSION/ (VERSION the precache version), and
// index.html, as served, names the build's files there (versionPage): a browser keeps those for
// good (Cache-Control: immutable), while index.html, sw.js and precache.js are revalidated. The
// modules import each other by relative path, so what a module under v/VERSION/ imports, or a
// worker or stylesheet it names relative to itself, is of the same build, with no build step: the
// dev server answers v/VERSION/PATH from PATH, and make dist copies the files there.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, readdirSync, statSync, mkdirSync, copyFileSync, rmSync, utimesSync, renameSync, existsSync } from "node:fs";
import { join, dirname, posix, relative, sep, extname } from "node:path";
import { fileURLToPath } from "node:url";

/** NOT_PRECACHED are published files the service worker does not cache: itself and its list. */
export const NOT_PRECACHED = new Set(["sw.js", "precache.js", "_headers"]);

/**
 * publishedFiles lists web's files as the page's URLs see them ("batch/view.js"), sorted: every
 * regular file but dotfiles (and what is under a dot directory) and the precompressed siblings
 * (.br, .gz) of another file, which are the same file in another coding.
 * @param {string} web @returns {string[]}
 */
export function publishedFiles(web) {
  /** @type {string[]} */
  const out = [];
  const walk = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.name.startsWith(".")) continue;
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.isFile()) out.push(relative(web, p).split(sep).join("/"));
    }
  };
  walk(web);
  const all = new Set(out);
  return out.filter((f) => !((f.endsWith(".br") || f.endsWith(".gz")) && all.has(f.slice(0, -3)))).sort();
}

/**
 * precacheList is what sw.js caches: [url, sha256 hex] for each published file but sw.js and
 * its list, and the version, a hash over the lot.
 * @param {string} web @returns {{version: string, files: [string, string][]}}
 */
export function precacheList(web) {
  const published = publishedFiles(web);
  /** @type {[string, string][]} */
  const files = published
    .filter((f) => !NOT_PRECACHED.has(f))
    .map((f) => [f, sha256(readFileSync(join(web, f)))]);
  const version = sha256(files.map(([f, sum]) => f + " " + sum + "\n").join("")).slice(0, 16);
  // index.html is listed with the sum of the page as served (versionPage), the version being of
  // the files as they are in web/.
  const page = files.find(([f]) => f === "index.html");
  if (page) page[1] = sha256(versionPage(readFileSync(join(web, "index.html"), "utf8"), version, new Set(published)));
  return { version, files };
}

/** sha256 is the hex SHA-256 of data. @param {string|Buffer} data */
const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** VERSION_DIR is the folder the build's files are also published under, as v/VERSION/PATH. */
export const VERSION_DIR = "v";

// A reference in index.html to a file the build versions: a relative src or href naming a script,
// a stylesheet, the wasm, JSON or an image; not the web app manifest (whose own references are
// relative to it), nor the dev server's API (no file extension). serve/precache.go pageRef is the same.
const PAGE_REF = /(\s(?:src|href)=")([A-Za-z0-9_][A-Za-z0-9_./-]*\.(?:js|mjs|css|wasm|json|svg|png|ico))"/g;

/**
 * versionPage is index.html's text with each reference to a published file moved under
 * v/VERSION/, as the dev server serves it (serve/precache.go versionPage, byte for byte).
 * @param {string} html @param {string} version @param {Set<string>} published
 */
export function versionPage(html, version, published) {
  return html.replace(PAGE_REF, (m, attr, ref) => (published.has(posix.normalize(ref)) && !ref.includes("..") ? `${attr}${VERSION_DIR}/${version}/${ref}"` : m));
}

/** precacheScript is precache.js's text for list (serve/ writes the same bytes). */
export function precacheScript(list) {
  return "// The service worker's precache list, generated from the published files.\nself.PRECACHE = " + JSON.stringify(list) + ";\n";
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+["'](\.{1,2}\/[^"']+)["']|^\s*import\s+["'](\.{1,2}\/[^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/**
 * moduleImports lists the relative specifiers a module's source imports: static (import and
 * export ... from, at the start of a line) and dynamic (import("./x.js") in code; JSDoc's
 * import("./x.js").Type in comments is a type, not an import, and is left out).
 * @param {string} src @returns {{static: string[], dynamic: string[]}}
 */
export function moduleImports(src) {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
  return {
    static: [...src.matchAll(IMPORT)].map((m) => m[1] || m[2]),
    dynamic: [...code.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]),
  };
}

/**
 * importGraph is every module of web (its .js files but Go's wasm_exec.js) with what it imports,
 * as web-relative paths: {from: [{to, dynamic}]}. A module's own comments are not read.
 * @param {string} web @returns {Map<string, {to: string, dynamic: boolean}[]>}
 */
export function importGraph(web) {
  /** @type {Map<string, {to: string, dynamic: boolean}[]>} */
  const graph = new Map();
  for (const f of publishedFiles(web)) {
    if (!f.endsWith(".js") || f === "wasm_exec.js" || f === "precache.js") continue;
    const { static: st, dynamic } = moduleImports(readFileSync(join(web, f), "utf8"));
    const to = (/** @type {string} */ spec) => posix.normalize(posix.join(posix.dirname(f), spec));
    graph.set(f, [...st.map((s) => ({ to: to(s), dynamic: false })), ...dynamic.map((s) => ({ to: to(s), dynamic: true }))]);
  }
  return graph;
}

/**
 * staticGraph is the modules entry imports statically, directly or not, entry first: the files a
 * browser must fetch before entry runs. Dynamic import() is not followed.
 * @param {string} web @param {string} entry e.g. "app.js" @returns {string[]}
 */
export function staticGraph(web, entry) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const spec of moduleImports(readFileSync(join(web, f), "utf8")).static) visit(posix.normalize(posix.join(posix.dirname(f), spec)));
  };
  visit(entry);
  return [...seen];
}

const PRELOADED_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\).*\/\/\s*modulepreload\b/g;

/**
 * preloadGraph is what index.html preloads: entry's static graph (the first paint), then the
 * static graphs of the modules it imports dynamically on a line marked "// modulepreload" (needed
 * soon, e.g. the engine's, but not to draw), in that order; the browser asks in document order.
 * @param {string} web @param {string} entry @returns {string[]}
 */
export function preloadGraph(web, entry) {
  const first = staticGraph(web, entry);
  const out = new Set(first);
  for (const f of first) {
    const src = readFileSync(join(web, f), "utf8");
    for (const m of src.matchAll(PRELOADED_IMPORT)) {
      for (const g of staticGraph(web, posix.normalize(posix.join(posix.dirname(f), m[1])))) out.add(g);
    }
  }
  return [...out];
}

const BEGIN = "<!-- modulepreload: begin (written by scripts/webfiles.mjs from app.js's imports) -->";
const END = "<!-- modulepreload: end -->";

/**
 * withPreloads returns index.html's text with its modulepreload block listing graph. The modules
 * of graph not in first (the first paint's static graph) are listed in an inert <template
 * data-ref="later-modules">, which app.js puts in the document as soon as it runs: asked for all
 * at once then, rather than one import level per round trip, and not in the head, where they held
 * up the first paint (measured on a cold load on loopback: its connections to the server and the
 * main thread, which parses each preloaded module as it arrives).
 * @param {string} html @param {string[]} graph @param {string[]} [first] all of graph by default
 */
export function withPreloads(html, graph, first = graph) {
  const a = html.indexOf(BEGIN);
  const b = html.indexOf(END);
  if (a < 0 || b < a) throw new Error(`index.html has no "${BEGIN}" ... "${END}" block`);
  const indent = html.slice(html.lastIndexOf("\n", a) + 1, a);
  const now = new Set(first);
  const link = (f) => `<link rel="modulepreload" href="${f}">`;
  const later = graph.filter((f) => !now.has(f));
  const lines = graph.filter((f) => now.has(f)).map((f) => indent + link(f));
  if (later.length) lines.push(`${indent}<template data-ref="later-modules">`, ...later.map((f) => indent + "  " + link(f)), `${indent}</template>`);
  return html.slice(0, a) + BEGIN + "\n" + lines.join("\n") + "\n" + indent + html.slice(b);
}

const SHELL_BEGIN = "<!-- prerender: begin (written by scripts/webfiles.mjs from evaluators.json) -->";
const SHELL_END = "<!-- prerender: end -->";

/** escapeHTML makes text safe as HTML text or a quoted attribute's value. @param {string} text */
export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] || c);
}

/**
 * shellHTML is the Evaluate view's cards and its evaluator picker as the page draws them
 * (evaluate/layout.js drawSkeleton, evaluate/view.js addPick) for the built-ins of evaluators (what
 * evaluators.json lists), none checked: web/boot.js shows them before the modules have run and
 * checks the evaluator last chosen, and evaluate/view.js takes the picker over. "" without evaluators.
 * @param {any[]|null} evaluators @param {string} indent
 */
export function shellHTML(evaluators, indent) {
  if (!Array.isArray(evaluators) || !evaluators.length) return "";
  const picks = [...evaluators]
    .filter((e) => e && typeof e.id === "string" && /^[a-z0-9][a-z0-9._-]*$/i.test(e.id))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((e) => {
      const id = escapeHTML("pick-" + e.id);
      return `<div class="pick"><input type="radio" name="evaluator" id="${id}" value="${escapeHTML(e.id)}" data-ref="${id}"><label for="${id}">${escapeHTML(e.title || e.id)}</label></div>`;
    });
  const card = (title, head = false) => `<section class="card">${head ? `<div class="card-head"><h2 class="card-title">${title}</h2></div>` : `<h2 class="card-title">${title}</h2>`}</section>`;
  const i = (n) => "\n" + indent + "  ".repeat(n);
  return [
    `${i(0)}<div class="evaluate">`,
    `${i(1)}<div class="col col-left">`,
    `${i(2)}<section class="card">`,
    `${i(3)}<h2 class="card-title">1 · What to judge</h2>`,
    `${i(3)}<div class="picker" role="radiogroup" aria-label="Evaluator" data-prerendered>`,
    ...picks.map((p) => i(4) + p),
    `${i(3)}</div>`,
    `${i(2)}</section>`,
    `${i(2)}${card("2 · The prompt the judge gets", true)}`,
    `${i(1)}</div>`,
    `${i(1)}<div class="col col-right">`,
    `${i(2)}<section class="card verdict-card"><h2 class="card-title">3 · Verdict</h2></section>`,
    `${i(2)}${card("The judge's raw answer", true)}`,
    `${i(1)}</div>`,
    `${i(0)}</div>`,
    "\n" + indent.slice(2),
  ].join("");
}

/** withShell returns index.html's text with its prerender block holding shellHTML(evaluators). */
export function withShell(html, evaluators) {
  const a = html.indexOf(SHELL_BEGIN);
  const b = html.indexOf(SHELL_END);
  if (a < 0 || b < a) throw new Error(`index.html has no "${SHELL_BEGIN}" ... "${SHELL_END}" block`);
  const indent = html.slice(html.lastIndexOf("\n", a) + 1, a).replace(/\S.*$/, "") + "  ";
  return html.slice(0, a) + SHELL_BEGIN + shellHTML(evaluators, indent) + html.slice(b);
}

// headersFile is _headers (Netlify and Cloudflare Pages read it) for a dist folder of version. A
// request takes the headers of every rule its path matches, so each header is set by one rule only.
function headersFile(version) {
  return `# Headers for static hosts that read this file (Netlify, Cloudflare Pages); see the README.
#
# Cache life: every file revalidates (Cache-Control: no-cache, answered 304 while unchanged). The
# names carry no content hash, and repeat visits do not wait on the network anyway: the service
# worker (sw.js) answers them from its cache and fetches a new build's files in the background.
# sw.js and precache.js must never be kept without asking, or a new build would not be seen.
#
# Content-Encoding: ragjudge.wasm.br (brotli) and ragjudge.wasm.gz (gzip) are ragjudge.wasm
# precompressed, for servers that send such a copy in place of the file when the browser accepts
# it (nginx brotli_static/gzip_static, Caddy's file_server precompressed, serve/). Netlify and
# Cloudflare Pages compress on their own and do not use them; never serve a .br or .gz copy under
# the wasm's name without "Content-Encoding: br" or "gzip" and "Vary: Accept-Encoding".
/*
  X-Content-Type-Options: nosniff
/v/*
  Cache-Control: public, max-age=31536000, immutable
/
  Cache-Control: no-cache
  Content-Security-Policy: frame-ancestors 'none'
  X-Frame-Options: DENY
  Referrer-Policy: no-referrer
/index.html
  Cache-Control: no-cache
  Content-Security-Policy: frame-ancestors 'none'
  X-Frame-Options: DENY
  Referrer-Policy: no-referrer
/ragjudge.wasm
  Content-Type: application/wasm
/v/${version}/ragjudge.wasm
  Content-Type: application/wasm
/manifest.webmanifest
  Content-Type: application/manifest+json
/sw.js
  Cache-Control: no-cache
  Content-Type: text/javascript; charset=utf-8
/precache.js
  Cache-Control: no-cache
  Content-Type: text/javascript; charset=utf-8
`;
}

/**
 * dist writes out: the published files of web (with the wasm's .br and .gz copies, their times
 * kept), each also under v/VERSION/, index.html as served (versionPage), precache.js and
 * _headers; a folder to upload as it is.
 * @param {string} web @param {string} out
 */
export function dist(web, out) {
  const tmp = out + ".tmp";
  rmSync(tmp, { recursive: true, force: true });
  const names = publishedFiles(web);
  const copies = [];
  for (const f of names) {
    copies.push(f);
    for (const ext of [".br", ".gz"]) {
      try {
        if (statSync(join(web, f + ext)).mtimeMs === statSync(join(web, f)).mtimeMs) copies.push(f + ext);
      } catch {
        // no precompressed copy
      }
    }
  }
  const list = precacheList(web);
  const versioned = copies.filter((f) => f !== "index.html").map((f) => posix.join(VERSION_DIR, list.version, f));
  for (const [f, to] of [...copies.map((f) => [f, f]), ...copies.filter((f) => f !== "index.html").map((f, i) => [f, versioned[i]])]) {
    const path = join(tmp, to);
    mkdirSync(dirname(path), { recursive: true });
    copyFileSync(join(web, f), path);
    const st = statSync(join(web, f));
    utimesSync(path, st.atime, st.mtime);
  }
  if (existsSync(join(web, "index.html"))) writeFileSync(join(tmp, "index.html"), versionPage(readFileSync(join(web, "index.html"), "utf8"), list.version, new Set(names)));
  writeFileSync(join(tmp, "precache.js"), precacheScript(list));
  writeFileSync(join(tmp, "_headers"), headersFile(list.version));
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return copies.length + versioned.length + 2;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [cmd, web = "web", arg] = process.argv.slice(2);
  if (cmd === "preload") {
    const file = join(web, "index.html");
    const html = readFileSync(file, "utf8");
    let want = withPreloads(html, preloadGraph(web, "app.js"), staticGraph(web, "app.js"));
    // The picker is written from evaluators.json, a build output (make build writes it first);
    // without it the block is left as it is.
    if (existsSync(join(web, "evaluators.json"))) want = withShell(want, JSON.parse(readFileSync(join(web, "evaluators.json"), "utf8")));
    if (process.argv.includes("--check")) {
      if (want !== html) {
        console.error(`${file}: the modulepreload or prerender block is out of date: run make build (node scripts/webfiles.mjs preload ${web})`);
        process.exit(1);
      }
    } else if (want !== html) {
      writeFileSync(file, want);
      console.log(`${file}: modulepreload and prerender blocks updated`);
    }
  } else if (cmd === "precache" && arg) {
    writeFileSync(arg, precacheScript(precacheList(web)));
  } else if (cmd === "dist" && arg) {
    const n = dist(web, arg);
    console.log(`${arg}: ${n} files, version ${precacheList(web).version}`);
  } else {
    console.error("usage: node scripts/webfiles.mjs preload WEB [--check] | precache WEB OUT.js | dist WEB DIR");
    process.exit(2);
  }
}
