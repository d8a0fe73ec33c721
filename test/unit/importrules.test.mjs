// importrules.test.mjs: the page's modules import each other as docs/ARCHITECTURE.md's parts table
// says (scripts/importrules.mjs), and the checks fail on what they are there to catch.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { importGraph, moduleImports } from "../../scripts/webfiles.mjs";
import { readParts, partOf, findCycle, checkImports, TABLE_HEADING } from "../../scripts/importrules.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WEB = join(ROOT, "web");
const PARTS = readParts(readFileSync(join(ROOT, "docs", "ARCHITECTURE.md"), "utf8"));

test("web/'s modules follow the parts table of docs/ARCHITECTURE.md: no cycle, no import the table forbids", () => {
  assert.deepEqual(checkImports(importGraph(WEB), PARTS, (p) => existsSync(join(WEB, p))), []);
});

test("the parts table is read from ARCHITECTURE.md: every folder of web/ with modules is a part", () => {
  const names = PARTS.map((p) => p.name);
  for (const want of ["ragjudge.js", "api/", "lib/", "model/", "evaluate/", "batch/", "stats/"]) assert.ok(names.includes(want), want);
  assert.deepEqual(PARTS.find((p) => p.name === "api/")?.mayImport, []);
  assert.equal(partOf("batch/view.js", PARTS)?.name, "batch/");
  assert.equal(partOf("ragjudge.js", PARTS)?.name, "ragjudge.js");
  assert.equal(partOf("app.js", PARTS)?.every, true);
  for (const f of importGraph(WEB).keys()) assert.ok(partOf(f, PARTS), f);
});

/** graphOf makes an import graph from {module: [imports]}; a name ending in "*" is an import(). */
const graphOf = (/** @type {Record<string, string[]>} */ o) =>
  new Map(Object.entries(o).map(([f, to]) => [f, to.map((t) => ({ to: t.replace(/\*$/, ""), dynamic: t.endsWith("*") }))]));

const TABLE = `# x

${TABLE_HEADING}

| part | what it is | may import |
| --- | --- | --- |
| \`ragjudge.js\` | the API's entry | \`api/\` |
| \`api/\` | the API | nothing |
| \`lib/\` | helpers | nothing |
| \`stats/\` | trust | \`lib/\` |
| \`batch/\` | runs | \`lib/\`, \`stats/\` |
| \`app.js\` | entry | every part |

## next
`;

test("the checks catch an import cycle made on purpose, static or import()", () => {
  const parts = readParts(TABLE);
  const ok = { "app.js": ["batch/view.js*", "ragjudge.js*"], "batch/view.js": ["batch/run.js", "stats/a.js"], "batch/run.js": ["lib/dom.js"], "stats/a.js": ["lib/dom.js"], "lib/dom.js": [], "ragjudge.js": ["api/wire.js"], "api/wire.js": [] };
  assert.deepEqual(checkImports(graphOf(ok), parts), []);
  const cyc = graphOf({ ...ok, "batch/run.js": ["lib/dom.js", "batch/view.js"] });
  assert.deepEqual(findCycle(cyc), ["batch/view.js", "batch/run.js", "batch/view.js"]);
  assert.match(checkImports(cyc, parts).join("\n"), /import cycle: batch\/view\.js → batch\/run\.js → batch\/view\.js/);
  // The same cycle through import(): ragjudge.js -> wire.js -> ragjudge.js, as it once was.
  const api = graphOf({ ...ok, "api/wire.js": ["ragjudge.js*"] });
  assert.match(checkImports(api, parts).join("\n"), /import cycle: api\/wire\.js → ragjudge\.js → api\/wire\.js|import cycle: ragjudge\.js → api\/wire\.js → ragjudge\.js/);
});

test("the checks catch the API importing the page, and a part importing one it may not", () => {
  const parts = readParts(TABLE);
  const base = { "lib/dom.js": [], "stats/a.js": ["lib/dom.js"], "batch/view.js": ["stats/a.js"], "ragjudge.js": ["api/wire.js"], "api/wire.js": [] };
  assert.deepEqual(checkImports(graphOf(base), parts), []);
  assert.deepEqual(checkImports(graphOf({ ...base, "api/wire.js": ["lib/dom.js"] }), parts), ["api/wire.js (the JS API) imports lib/dom.js (the page): the API imports nothing of the page"]);
  assert.deepEqual(checkImports(graphOf({ ...base, "stats/a.js": ["lib/dom.js", "batch/view.js*"] }), parts).filter((p) => !p.startsWith("import cycle")), [
    "stats/a.js (stats/) imports batch/view.js (batch/) with import(), which the parts table does not let stats/ import",
  ]);
  assert.deepEqual(checkImports(graphOf({ ...base, "view/x.js": [] }), parts), ['view/x.js is in no part of the parts table (docs/ARCHITECTURE.md "The page\'s parts and what each may import"): add a row or move it']);
  assert.deepEqual(checkImports(graphOf(base), parts, (p) => p !== "stats/"), ["the parts table names stats/, which is not in web/"]);
});

test("the checks catch a table that lets two parts import each other, or the API import the page", () => {
  const both = readParts(TABLE.replace("| trust | `lib/` |", "| trust | `lib/`, `batch/` |"));
  assert.deepEqual(checkImports(graphOf({}), both), ["the parts table lets parts import each other in a circle: batch/ → stats/ → batch/"]);
  const leaky = readParts(TABLE.replace("| the API | nothing |", "| the API | `lib/` |"));
  assert.deepEqual(checkImports(graphOf({}), leaky), ["the parts table lets api/ import the page: the JS API imports only ragjudge.js and api/"]);
  assert.throws(() => readParts("# no table here\n"), /has no section/);
});

test("moduleImports: static and dynamic imports, not JSDoc types nor commented code", () => {
  const src = [
    'import { a } from "./a.js";',
    'export { b } from "../b.js";',
    'import "./side.js";',
    '/** @type {import("./types.js").T} */',
    'const t = /** @type {import("./cast.js").C} */ (x);',
    'const later = import("./later.js"); // modulepreload',
    '// const old = import("./old.js");',
    'const url = "https://example.test/x.js";',
  ].join("\n");
  assert.deepEqual(moduleImports(src), { static: ["./a.js", "../b.js", "./side.js"], dynamic: ["./later.js"] });
});
