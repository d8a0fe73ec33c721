// webfiles.test.mjs: scripts/webfiles.mjs, which reads what the page is made of from web/: the
// modulepreload block of index.html, the service worker's precache list and `make dist`'s folder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { publishedFiles, precacheList, preloadGraph, staticGraph, withPreloads, withShell, shellHTML, dist } from "../../scripts/webfiles.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const sha = (b) => createHash("sha256").update(b).digest("hex");

/** fixture writes files into a fresh directory and returns it. */
function fixture(files) {
  const dir = mkdtempSync(join(tmpdir(), "ragjudge-webfiles-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const PAGE = {
  "index.html": "<head>\n  <!-- modulepreload: begin (written by scripts/webfiles.mjs from app.js's imports) -->\n  <!-- modulepreload: end -->\n</head>",
  "app.js": 'import { a } from "./a.js";\nimport "./side.js";\nconst engine = import("./engine.js"); // modulepreload\nconst later = import("./view/big.js");\n',
  "a.js": 'export { b } from "./lib/b.js";\nexport const a = 1;\n',
  "lib/b.js": 'import { a } from "../a.js";\nexport const b = a;\n',
  "side.js": "export {};\n",
  "engine.js": 'import { b } from "./lib/b.js";\nimport { w } from "./wire.js";\n',
  "wire.js": "export const w = 1;\n",
  "view/big.js": 'import { a } from "../a.js";\n',
  "ragjudge.wasm": "\0asm",
  "ragjudge.wasm.br": "br",
  "ragjudge.wasm.gz": "gz",
  "data.gz": "a file of its own",
  ".hidden": "x",
  ".git/config": "x",
  "sw.js": "//",
};

test("publishedFiles: every file but dotfiles and the precompressed copies of another", () => {
  const dir = fixture(PAGE);
  try {
    assert.deepEqual(publishedFiles(dir), ["a.js", "app.js", "data.gz", "engine.js", "index.html", "lib/b.js", "ragjudge.wasm", "side.js", "sw.js", "view/big.js", "wire.js"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("preloadGraph: the static imports first, then the marked dynamic ones; unmarked ones stay out", () => {
  const dir = fixture(PAGE);
  try {
    assert.deepEqual(staticGraph(dir, "app.js"), ["app.js", "a.js", "lib/b.js", "side.js"]);
    assert.deepEqual(preloadGraph(dir, "app.js"), ["app.js", "a.js", "lib/b.js", "side.js", "engine.js", "wire.js"]);
    const html = withPreloads(PAGE["index.html"], ["app.js", "a.js"]);
    assert.match(html, /begin[^\n]*-->\n  <link rel="modulepreload" href="app.js">\n  <link rel="modulepreload" href="a.js">\n  <!-- modulepreload: end -->/);
    assert.equal(withPreloads(html, ["app.js", "a.js"]), html, "rewriting is idempotent");
    // What the first paint does not need waits in a template until app.js runs.
    assert.match(withPreloads(html, ["app.js", "a.js", "engine.js"], ["app.js", "a.js"]), /href="a.js">\n  <template data-ref="later-modules">\n    <link rel="modulepreload" href="engine.js">\n  <\/template>\n  <!-- modulepreload: end -->/);
    assert.throws(() => withPreloads("<head></head>", []), /no .* block/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("precacheList: each file with its sum, not the worker or its list; the version follows any change", () => {
  const dir = fixture(PAGE);
  try {
    const list = precacheList(dir);
    assert.equal(list.files.find(([f]) => f === "sw.js"), undefined);
    assert.deepEqual(list.files.find(([f]) => f === "lib/b.js"), ["lib/b.js", sha(PAGE["lib/b.js"])]);
    assert.match(list.version, /^[0-9a-f]{16}$/);
    writeFileSync(join(dir, "side.js"), "export const changed = 1;\n");
    assert.notEqual(precacheList(dir).version, list.version);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("dist: the published files, the wasm's current precompressed copies, precache.js and _headers", () => {
  const dir = fixture(PAGE);
  const out = join(mkdtempSync(join(tmpdir(), "ragjudge-dist-")), "dist");
  try {
    const t = new Date(Date.now() - 60000);
    for (const f of ["ragjudge.wasm", "ragjudge.wasm.br"]) utimesSync(join(dir, f), t, t);
    dist(dir, out);
    assert.ok(existsSync(join(out, "ragjudge.wasm.br")), "a copy as new as the wasm goes");
    assert.ok(!existsSync(join(out, "ragjudge.wasm.gz")), "a copy of another build does not");
    assert.ok(!existsSync(join(out, ".git")) && !existsSync(join(out, ".hidden")));
    assert.equal(statSync(join(out, "ragjudge.wasm.br")).mtimeMs, statSync(join(out, "ragjudge.wasm")).mtimeMs);
    const js = readFileSync(join(out, "precache.js"), "utf8");
    const list = JSON.parse(js.slice(js.indexOf("=") + 1, js.lastIndexOf(";")));
    assert.deepEqual(list, precacheList(dir));
    const headers = readFileSync(join(out, "_headers"), "utf8");
    // Every rule names a file there is; each header is set by one rule of a path only.
    const rules = headers.split("\n").filter((l) => l.startsWith("/"));
    for (const r of rules) assert.ok(r === "/*" || r === "/" || existsSync(join(out, r.slice(1))) || r === "/manifest.webmanifest", r);
    assert.match(headers, /\/ragjudge\.wasm\n  Content-Type: application\/wasm/);
    assert.match(headers, /\/manifest\.webmanifest\n  Content-Type: application\/manifest\+json/);
    assert.equal(headers.match(/^  Cache-Control:/gm).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dirname(out), { recursive: true, force: true });
  }
});

test("index.html's modulepreload block lists app.js's imports as they are (make build rewrites it)", () => {
  execFileSync("node", [join(ROOT, "scripts", "webfiles.mjs"), "preload", join(ROOT, "web"), "--check"], { stdio: "pipe" });
  const html = readFileSync(join(ROOT, "web", "index.html"), "utf8");
  const first = new Set(staticGraph(join(ROOT, "web"), "app.js"));
  const later = html.slice(html.indexOf('<template data-ref="later-modules">'), html.indexOf("</template>"));
  for (const f of preloadGraph(join(ROOT, "web"), "app.js")) {
    assert.ok(html.includes(`<link rel="modulepreload" href="${f}">`), f);
    assert.equal(later.includes(`href="${f}"`), !first.has(f), f);
  }
  // The first paint's graph is what draws the shell: the verdicts, the calls and the engine's modules come after it.
  for (const f of ["verdict/render.js", "model/llm.js", "evaluate/judgecall.js", "ragjudge.js"]) assert.ok(!first.has(f), f);
  assert.ok(!html.includes('href="batch/view.js"'), "the Batch view is loaded when shown, not preloaded");
});

test("withShell: the built-ins' picker in index.html, in their order, titles as text, none checked; rewriting is idempotent", () => {
  const page = '<main>\n    <section id="view-evaluate" hidden><!-- prerender: begin (written by scripts/webfiles.mjs from evaluators.json) --><!-- prerender: end --></section>\n</main>';
  const evaluators = [
    { id: "second", order: 20, title: 'Quotes "and" <b>tags</b> & more' },
    { id: "first", order: 10, title: "First" },
    { id: "bad id", order: 5, title: "Not an id a page could have" },
  ];
  const html = withShell(page, evaluators);
  assert.equal(withShell(html, evaluators), html, "idempotent");
  const picks = [...html.matchAll(/<input type="radio" name="evaluator" id="pick-([^"]+)" value="([^"]+)" data-ref="pick-([^"]+)"><label for="pick-([^"]+)">([^<]*)<\/label>/g)];
  assert.deepEqual(picks.map((m) => m[2]), ["first", "second"]);
  assert.equal(picks[1][5], "Quotes &quot;and&quot; &lt;b&gt;tags&lt;/b&gt; &amp; more");
  assert.ok(!/checked/.test(html));
  assert.match(html, /<div class="picker" role="radiogroup" aria-label="Evaluator" data-prerendered>/);
  // Without evaluators.json the block is empty: the page draws the picker when its modules run.
  assert.equal(shellHTML(null, ""), "");
  assert.equal(withShell(html, null), page);
});

test("index.html's prerendered picker lists evaluators.json's built-ins (make build writes both)", (t) => {
  if (!existsSync(join(ROOT, "web", "evaluators.json"))) return t.skip("web/evaluators.json is not built: make build");
  const html = readFileSync(join(ROOT, "web", "index.html"), "utf8");
  const evaluators = JSON.parse(readFileSync(join(ROOT, "web", "evaluators.json"), "utf8"));
  assert.equal(withShell(html, evaluators), html);
  for (const e of evaluators) assert.ok(html.includes(`value="${e.id}"`), e.id);
});
