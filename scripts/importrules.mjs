// importrules.mjs: the page's import rules, read from docs/ARCHITECTURE.md's table "The page's parts
// and what each may import", checked against the imports the modules actually make (webfiles.mjs
// importGraph). test/unit/importrules.test.mjs runs it in `make check`; by hand:
//
//   node scripts/importrules.mjs          list every broken rule, exit 1 if there is one
//
// The rules: no import cycle (static and dynamic imports alike); a module imports from another part
// only what the table lets its part import; every module is in a part of the table and every part
// of the table is in web/; the table's parts themselves import each other one way only (so two
// folders never import each other both ways); and the JS API (ragjudge.js and api/) imports nothing
// of the page, whatever the table says.

import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { importGraph } from "./webfiles.mjs";

/** TABLE_HEADING is the heading of the section whose table holds the page's parts. */
export const TABLE_HEADING = "## The page's parts and what each may import";

/** API_PARTS are the parts of the published JS API: they may import only each other. */
export const API_PARTS = ["ragjudge.js", "api/"];

/**
 * @typedef {{name: string, paths: string[], mayImport: string[], every: boolean}} Part
 * name is the part's first path; paths are the folders ("batch/") and files ("app.js") it is made
 * of; mayImport the names of the parts it may import; every: it may import every part.
 */

/**
 * readParts reads the parts table from ARCHITECTURE.md's text: the first table after
 * TABLE_HEADING, one row per part, `| paths | what it is | may import |`, the paths and the parts it
 * may import written in backquotes ("nothing" for none, "every part" for all).
 * @param {string} markdown @returns {Part[]}
 */
export function readParts(markdown) {
  const at = markdown.indexOf("\n" + TABLE_HEADING + "\n");
  if (at < 0) throw new Error(`docs/ARCHITECTURE.md has no section "${TABLE_HEADING}"`);
  const lines = markdown.slice(at + TABLE_HEADING.length + 2).split("\n");
  const start = lines.findIndex((l) => l.startsWith("|"));
  if (start < 0) throw new Error(`"${TABLE_HEADING}" has no table`);
  /** @type {Part[]} */
  const parts = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (cells.length !== 3) throw new Error(`parts table: a row needs 3 cells: ${line}`);
    const code = (/** @type {string} */ c) => [...c.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const paths = code(cells[0]);
    if (!paths.length) throw new Error(`parts table: a row names no path: ${line}`);
    const every = /\bevery part\b/.test(cells[2]);
    const mayImport = code(cells[2]);
    if (!every && !mayImport.length && !/\bnothing\b/.test(cells[2])) throw new Error(`parts table: say "nothing" when ${paths[0]} may import no other part`);
    parts.push({ name: paths[0], paths, mayImport, every });
  }
  return parts;
}

/**
 * partOf is the part a web-relative module path belongs to (its longest path that is the module
 * itself or a folder holding it), or null.
 * @param {string} file @param {Part[]} parts @returns {Part|null}
 */
export function partOf(file, parts) {
  let best = null;
  let len = -1;
  for (const p of parts) {
    for (const path of p.paths) {
      const hit = path.endsWith("/") ? file.startsWith(path) : file === path;
      if (hit && path.length > len) (best = p), (len = path.length);
    }
  }
  return best;
}

/**
 * findCycle returns one import cycle of graph as the modules along it, the first repeated at the
 * end (["a.js", "b.js", "a.js"]), or null when there is none.
 * @param {Map<string, {to: string}[]>} graph @returns {string[]|null}
 */
export function findCycle(graph) {
  /** @type {Map<string, number>} 1 on the current path, 2 done */
  const mark = new Map();
  /** @type {string[]} */
  const path = [];
  /** @param {string} v @returns {string[]|null} */
  const visit = (v) => {
    mark.set(v, 1);
    path.push(v);
    for (const { to } of graph.get(v) || []) {
      if (mark.get(to) === 1) return [...path.slice(path.indexOf(to)), to];
      if (!mark.has(to)) {
        const c = visit(to);
        if (c) return c;
      }
    }
    path.pop();
    mark.set(v, 2);
    return null;
  };
  for (const v of [...graph.keys()].sort()) {
    if (mark.has(v)) continue;
    const c = visit(v);
    if (c) return c;
  }
  return null;
}

/**
 * checkImports returns every broken rule (see the file's comment) as a sentence naming the modules
 * or parts, [] when all hold. exists tells whether a part's path is in web/.
 * @param {Map<string, {to: string, dynamic: boolean}[]>} graph
 * @param {Part[]} parts
 * @param {(path: string) => boolean} [exists]
 * @returns {string[]}
 */
export function checkImports(graph, parts, exists = () => true) {
  /** @type {string[]} */
  const problems = [];
  const byName = new Map(parts.map((p) => [p.name, p]));
  for (const p of parts) {
    for (const path of p.paths) if (!exists(path)) problems.push(`the parts table names ${path}, which is not in web/`);
    for (const q of p.mayImport) if (!byName.has(q)) problems.push(`the parts table lets ${p.name} import ${q}, which is no part of the table`);
  }
  for (const name of API_PARTS) {
    const p = byName.get(name);
    if (!p) problems.push(`the parts table has no row for ${name}, a part of the JS API`);
    else if (p.every || p.mayImport.some((q) => !API_PARTS.includes(q))) problems.push(`the parts table lets ${name} import the page: the JS API imports only ${API_PARTS.join(" and ")}`);
  }
  // The table's own graph, without the parts that may import every part (the entry points), must
  // have no cycle: two parts never import each other, even through a third.
  const partGraph = new Map(parts.filter((p) => !p.every).map((p) => [p.name, p.mayImport.filter((q) => q !== p.name).map((to) => ({ to }))]));
  const partCycle = findCycle(partGraph);
  if (partCycle) problems.push(`the parts table lets parts import each other in a circle: ${partCycle.join(" → ")}`);

  const cycle = findCycle(graph);
  if (cycle) problems.push(`import cycle: ${cycle.join(" → ")}`);
  for (const [from, edges] of [...graph].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const pf = partOf(from, parts);
    if (!pf) {
      problems.push(`${from} is in no part of the parts table (docs/ARCHITECTURE.md "${TABLE_HEADING.slice(3)}"): add a row or move it`);
      continue;
    }
    for (const { to, dynamic } of edges) {
      if (!graph.has(to)) {
        problems.push(`${from} imports ${to}, which is not a module of web/`);
        continue;
      }
      const pt = partOf(to, parts);
      if (!pt || pt === pf) continue;
      const apiFrom = API_PARTS.includes(pf.name);
      if (apiFrom && !API_PARTS.includes(pt.name)) {
        problems.push(`${from} (the JS API) imports ${to} (the page): the API imports nothing of the page`);
        continue;
      }
      if (!pf.every && !pf.mayImport.includes(pt.name)) problems.push(`${from} (${pf.name}) imports ${to} (${pt.name})${dynamic ? " with import()" : ""}, which the parts table does not let ${pf.name} import`);
    }
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const { existsSync } = await import("node:fs");
  const parts = readParts(readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8"));
  const problems = checkImports(importGraph(join(root, "web")), parts, (p) => existsSync(join(root, "web", p)));
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log(`web/: ${parts.length} parts, every import follows docs/ARCHITECTURE.md`);
}
