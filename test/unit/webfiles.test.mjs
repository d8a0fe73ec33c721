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
import { publishedFiles, precacheList, preloadGraph, staticGraph, withPreloads, withShell, shellHTML, dist, versionPage } from "../../scripts/webfiles.mjs";

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

test("versionPage: the page's references to the build's files go under v/VERSION/; the manifest, the API, anchors, other sites stay", () => {
  const published = new Set(["app.js", "style.css", "ragjudge.wasm", "evaluators.json", "lib/b.js", "icons/icon.svg", "manifest.webmanifest"]);
  const html = [
    '<link rel="stylesheet" href="style.css">',
    '<link rel="preload" href="ragjudge.wasm" as="fetch" crossorigin>',
    '<link rel="preload" href="evaluators.json" as="fetch">',
    '<link rel="preload" href="ragjudge/config" as="fetch">',
    '<link rel="modulepreload" href="lib/b.js">',
    '<script type="module" src="app.js"></script>',
    '<link rel="icon" href="icons/icon.svg"><link rel="manifest" href="manifest.webmanifest">',
    '<script src="missing.js"></script><a href="#main">skip</a><a href="https://x.test/app.js">x</a><a href="../app.js">up</a>',
    '<p>the text app.js stays; data-x="app.js" too</p>',
  ].join("\n");
  const want = html
    .replace('href="style.css"', 'href="v/0123456789abcdef/style.css"')
    .replace('href="ragjudge.wasm"', 'href="v/0123456789abcdef/ragjudge.wasm"')
    .replace('href="evaluators.json"', 'href="v/0123456789abcdef/evaluators.json"')
    .replace('href="lib/b.js"', 'href="v/0123456789abcdef/lib/b.js"')
    .replace('src="app.js"', 'src="v/0123456789abcdef/app.js"')
    .replace('href="icons/icon.svg"', 'href="v/0123456789abcdef/icons/icon.svg"');
  assert.equal(versionPage(html, "0123456789abcdef", published), want);
});

test("precacheList: index.html is listed as served (versioned), the version is of the files as they are", () => {
  const dir = fixture({ ...PAGE, "index.html": '<script type="module" src="app.js"></script>' });
  try {
    const list = precacheList(dir);
    const raw = list.files.map(([f, sum]) => f + " " + (f === "index.html" ? sha('<script type="module" src="app.js"></script>') : sum) + "\n").join("");
    assert.equal(list.version, sha(raw).slice(0, 16));
    assert.deepEqual(list.files.find(([f]) => f === "index.html"), ["index.html", sha(`<script type="module" src="v/${list.version}/app.js"></script>`)]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("dist: the published files, also under v/VERSION/, the wasm's current precompressed copies, precache.js and _headers", () => {
  const dir = fixture({ ...PAGE, "index.html": PAGE["index.html"] + '\n<script type="module" src="app.js"></script>' });
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
    // The build's files again under v/VERSION/, as they are; index.html names them there.
    for (const f of publishedFiles(dir).filter((f) => f !== "index.html")) assert.equal(readFileSync(join(out, "v", list.version, f), "utf8"), readFileSync(join(dir, f), "utf8"), f);
    assert.ok(existsSync(join(out, "v", list.version, "ragjudge.wasm.br")));
    assert.match(readFileSync(join(out, "index.html"), "utf8"), new RegExp(`src="v/${list.version}/app.js"`));
    assert.equal(sha(readFileSync(join(out, "index.html"))), list.files.find(([f]) => f === "index.html")[1]);
    const headers = readFileSync(join(out, "_headers"), "utf8");
    // Every rule names a file there is; each header is set by one rule of a path only.
    const rules = [...headers.matchAll(/^(\/\S*)\n((?:  .*\n?)*)/gm)].map((m) => ({ path: m[1], lines: m[2].trim().split("\n").map((l) => l.trim()) }));
    for (const r of rules) assert.ok(r.path === "/*" || r.path === "/v/*" || r.path === "/" || existsSync(join(out, r.path.slice(1))) || r.path === "/manifest.webmanifest", r.path);
    const matches = (rule, path) => (rule.endsWith("/*") ? path.startsWith(rule.slice(0, -1)) : rule === path);
    /** @param {string} path @returns {Record<string, string>} */
    const headersOf = (path) => {
      const got = {};
      for (const r of rules.filter((r) => matches(r.path, path))) {
        for (const l of r.lines) {
          const [k, v] = l.split(/: (.*)/);
          assert.equal(got[k], undefined, `${path}: ${k} set by two rules`);
          got[k] = v;
        }
      }
      return got;
    };
    for (const p of ["/", "/index.html", "/sw.js", "/precache.js"]) assert.equal(headersOf(p)["Cache-Control"], "no-cache", p);
    assert.equal(headersOf(`/v/${list.version}/app.js`)["Cache-Control"], "public, max-age=31536000, immutable");
    assert.equal(headersOf(`/v/${list.version}/ragjudge.wasm`)["Content-Type"], "application/wasm");
    assert.equal(headersOf("/ragjudge.wasm")["Content-Type"], "application/wasm");
    assert.equal(headersOf("/manifest.webmanifest")["Content-Type"], "application/manifest+json");
    for (const f of publishedFiles(out)) headersOf("/" + f);
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
