// engines.mjs compares ragjudge's template engine, in its wasm through the JS API, with the JS
// Jinja engines, in one Node process (`node bench/engines.mjs`, run by `make bench` after
// `make build`; ROUNDS=n sets the rounds, 15 by default; `--before DIR` also times another build,
// DIR/ragjudge.js beside its ragjudge.wasm, interleaved with this one).
//
// Two templates: the pairwise prompt (prompts/pairwise-faithfulness.md) with 10 retrieved
// passages of 600 characters, and a custom judge prompt of 10 KB of the kind a user writes in the
// evaluator editor (core/template/testdata/bench/rubric.jinja with rubric.json: macros, loops,
// conditions, filters; it keeps to what nunjucks implements too, so that one peer can be checked).
// For each:
//
//  - render: rj.template as a page calls it (the same source again: the engine keeps what it
//    parsed), with a new source each call (a comment that counts: parse and render) and with new
//    variables each call (nothing held from an earlier call), against
//    @huggingface/jinja and nunjucks, each both ways: parsed on each call (`new
//    Template(src).render(vars)`, `renderString`), and parsed once then rendered.
//  - parse: rj.variables on a source that changes each call (what the editor does on a
//    keystroke: parse, scope analysis, the names read), against @huggingface/jinja's `new
//    Template(src)` (tokenize and parse) and nunjucks' eager compile (parse and code generation).
//
// Each output is checked against real Jinja2's (Debian's /usr/bin/python3 with python3-jinja2,
// StrictUndefined); an engine whose output differs, or that fails, is marked WRONG beside its
// time, and the ratios are to the fastest peer that is right. Runs are interleaved (each round
// times every case once, in turn) and repeated; the figure is the median over rounds of the mean
// time per call (batches), the median of single calls (which leaves out the waits for the CPU
// that a loaded machine puts into some batches) and the median of the process's CPU time per
// call (CPU: a call's cost with its share of garbage collection, without those waits), and the
// fastest single call, with the load average, since the machine is shared.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { Template } from "@huggingface/jinja";
import nunjucks from "nunjucks";

import { load } from "../web/ragjudge.js";
import { fmt, interleaved, loadAverage, table } from "./measure.mjs";
import { text } from "./workloads.mjs";

const PYTHON = process.env.PYTHON || "/usr/bin/python3";
const rounds = Number(process.env.ROUNDS || 15);
const beforeAt = process.argv.indexOf("--before");
const beforeDir = beforeAt > 0 ? process.argv[beforeAt + 1] : null;

const versionOf = (pkg) => JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version;
const hf = `@huggingface/jinja ${versionOf("@huggingface/jinja")}`;
const nj = `nunjucks ${versionOf("nunjucks")}`;

const rj = await load();
const before = beforeDir ? await (await import(pathToFileURL(resolve(beforeDir, "ragjudge.js")).href)).load() : null;
/** @type {[string, any][]} */
const builds = before ? [["after", rj], ["before", before]] : [["", rj]];
const tagged = (name, tag) => (tag ? `${name} (${tag})` : name);
console.log(`ragjudge ${rj.version}, ${hf}, ${nj}, Node ${process.version}; ${rounds} interleaved rounds; load average at start ${loadAverage()}\n`);

const read = (path) => readFileSync(new URL(path, import.meta.url), "utf8");
const workloads = [
  {
    title: "pairwise prompt, 10 contexts of 600 characters",
    src: read("../prompts/pairwise-faithfulness.md"),
    vars: {
      contexts: Array.from({ length: 10 }, (_, k) => text(600, 10 * k)),
      expected_output: "Aspirin 100 mg was given on day 1 [1]. It was continued [2].",
      actual_output: "Aspirin was given [1]. The dose was 100 mg [2]. The patient recovered [3].",
    },
  },
  {
    title: "custom template of 10 KB (rubric.jinja)",
    src: read("../core/template/testdata/bench/rubric.jinja"),
    vars: JSON.parse(read("../core/template/testdata/bench/rubric.json")),
  },
];

const py = spawnSync(PYTHON, ["-c", `
import json, sys, jinja2
env = jinja2.Environment(undefined=jinja2.StrictUndefined)
json.dump([env.from_string(w["src"]).render(**w["vars"]) for w in json.load(sys.stdin)], sys.stdout)
`], { input: JSON.stringify(workloads), encoding: "utf8" });
if (py.status !== 0) throw new Error(`${PYTHON} with jinja2 failed: ${py.stderr}`);
const expected = JSON.parse(py.stdout);

const njEnv = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: true });
const summary = [];

for (const [w, { title, src, vars }] of workloads.entries()) {
  let edit = 0, turn = 0;
  const fresh = () => `${src}{# ${edit++} #}`; // a new source: nothing parsed before can be reused
  const hfParsed = new Template(src);
  const njCompiled = nunjucks.compile(src, njEnv);
  /** @type {{name: string, kind: "render"|"parse", rj?: "cached"|"fresh"|"vars"|"parse", fn: () => unknown, out?: () => string}[]} */
  const cases = [];
  for (const [tag, b] of builds) {
    cases.push({ name: tagged("rj.template", tag), kind: "render", rj: "cached", fn: () => b.template(src, "jinja", vars) });
    cases.push({ name: tagged("rj.template, new source each call", tag), kind: "render", rj: "fresh", fn: () => b.template(fresh(), "jinja", vars) });
    // New variables each call (a key the template does not read, counting): nothing sent before
    // is reused, every string crosses again.
    cases.push({ name: tagged("rj.template, new variables each call", tag), kind: "render", rj: "vars", fn: () => b.template(src, "jinja", { ...vars, call: turn++ }) });
  }
  cases.push(
    { name: `${hf}: new Template(src).render(vars)`, kind: "render", fn: () => new Template(src).render(vars) },
    { name: `${hf}: parsed once, .render(vars)`, kind: "render", fn: () => hfParsed.render(vars) },
    { name: `${nj}: renderString(src, vars)`, kind: "render", fn: () => njEnv.renderString(src, vars) },
    { name: `${nj}: compiled once, .render(vars)`, kind: "render", fn: () => njCompiled.render(vars) },
  );
  for (const [tag, b] of builds) {
    cases.push({ name: tagged("rj.variables, new source each call", tag), kind: "parse", rj: "parse", fn: () => b.variables(fresh(), "jinja") });
  }
  cases.push(
    { name: `${hf}: new Template(src)`, kind: "parse", fn: () => new Template(src) },
    { name: `${nj}: compile(src, env, eager)`, kind: "parse", fn: () => nunjucks.compile(src, njEnv, undefined, true) },
  );

  // Right or wrong: a render's output against Jinja2's; a parse by whether its engine renders
  // this template right (a parse is only worth its time to an engine that then renders it).
  const right = new Map();
  const failed = new Set(); // not timed: it throws
  for (const c of cases) {
    let out;
    try {
      out = String(c.fn());
    } catch (err) {
      out = `threw ${err}`;
      failed.add(c.name);
    }
    if (c.kind === "parse") continue;
    right.set(c.name, out === expected[w]);
    if (out !== expected[w]) {
      const at = [...out].findIndex((ch, k) => ch !== expected[w][k]);
      console.log(`${c.name}: WRONG on the ${title}, differs from Jinja2's at character ${at}: ${JSON.stringify(out.slice(Math.max(0, at - 20), at + 40))} where Jinja2 has ${JSON.stringify(expected[w].slice(Math.max(0, at - 20), at + 40))}`);
    }
  }
  const renders = (prefix) => cases.some((c) => c.kind === "render" && c.name.startsWith(prefix) && right.get(c.name));
  for (const c of cases.filter((c) => c.kind === "parse")) right.set(c.name, renders(c.rj ? "rj.template" : c.name.split(":")[0]));

  const single = new Map(), best = new Map(), cpu = new Map();
  // Each case runs for a second before it is timed: what is compared is each engine's steady
  // state, its hot code optimized (in 10 ms, most of the wasm still ran as V8's baseline code).
  const t = interleaved(cases.filter((c) => !failed.has(c.name)), { rounds, warmMs: 1000, perCall: single, fastest: best, cpu });
  const measures = [["batches, median", t], ["single calls, median", single], ["CPU, median", cpu], ["fastest call", best]];
  const fastest = (kind, m) => {
    const peers = cases.filter((c) => c.kind === kind && !c.rj && right.get(c.name) && m.has(c.name));
    return peers.length ? Math.min(...peers.map((c) => m.get(c.name))) : null;
  };
  const ratio = (x, y) => (x != null && y ? `${(x / y).toFixed(2)}×` : "-");
  console.log(`\n${title}: source ${src.length} characters, output ${expected[w].length} characters; medians (see the top of bench/engines.mjs), and each to the fastest right peer's:`);
  for (const kind of ["render", "parse"]) {
    table([kind, "output", ...measures.flatMap(([m]) => [m, "ratio"])], cases.filter((c) => c.kind === kind).map((c) => [
      c.name, right.get(c.name) ? "= Jinja2" : failed.has(c.name) ? "WRONG (fails)" : "WRONG",
      ...measures.flatMap(([, m]) => [fmt(m.get(c.name)), ratio(m.get(c.name), fastest(kind, m))]),
    ]));
  }
  const hfParse = `${hf}: new Template(src)`;
  for (const [tag] of builds) {
    const rjT = tagged("rj.template", tag), rjP = tagged("rj.variables, new source each call", tag);
    for (const [m, times] of measures) {
      summary.push([`${title}${tag ? ` (${tag})` : ""}`, m, fmt(times.get(rjT)), fmt(fastest("render", times)), ratio(times.get(rjT), fastest("render", times)),
        fmt(times.get(rjP)), fmt(times.get(hfParse)), ratio(times.get(rjP), times.get(hfParse))]);
    }
  }
}

console.log("the goals: rj.template at most 1.0× the fastest right peer's render (moonshot 0.5×); rj's parse at most 1.0× @huggingface/jinja's");
table(["template", "measure", "rj.template", "fastest right peer", "ratio", "rj.variables", "hf parse", "ratio"], summary);
console.log(`load average at end ${loadAverage()}`);
process.exit(0); // the wasm instances keep Node's event loop alive
