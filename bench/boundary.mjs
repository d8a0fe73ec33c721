// boundary.mjs benchmarks the JS–Go boundary in one Node process (`node bench/boundary.mjs`, run
// by `make bench` after `make build`):
//
//  0. The fixed cost of a call: functions given almost nothing to do.
//  1. rj.template on the pairwise prompt (prompts/pairwise-faithfulness.md) with 10 contexts,
//     against @huggingface/jinja (`new Template(src).render(vars)`: parse and render) and nunjucks
//     (`renderString`, autoescape off, throwOnUndefined on). Each engine's output is first checked
//     against real Jinja2's (Debian's /usr/bin/python3 with python3-jinja2, run once here); an
//     engine whose output differs is reported as wrong and its time is not a result.
//  2. rj.render + rj.parse per evaluator, at typical size (4 KB of context) and at 1 MB.
//  3. rj.parse of a short answer with 1 MB inputs (after render of the same inputs, as a page
//     does): goal under 1 ms.
//
// Runs are interleaved (each round times every case once, in turn) and repeated; the figure is
// the median over rounds of the mean time per call, with the load average, since the machine is
// shared. `--before DIR` also times another build (DIR/ragjudge.js beside its ragjudge.wasm and
// wasm_exec.js), interleaved with this one, to compare.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { Template } from "@huggingface/jinja";
import nunjucks from "nunjucks";

import { load } from "../web/ragjudge.js";
import { text, workloads } from "./workloads.mjs";

const PYTHON = process.env.PYTHON || "/usr/bin/python3";
const rounds = Number(process.env.ROUNDS || 15);
const beforeAt = process.argv.indexOf("--before");
const beforeDir = beforeAt > 0 ? process.argv[beforeAt + 1] : null;

const fmt = (ms) => (ms == null ? "-" : ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

function table(head, rows) {
  const w = head.map((h, k) => Math.max(h.length, ...rows.map((r) => String(r[k]).length)));
  const line = (r) => r.map((c, k) => (k === 0 ? String(c).padEnd(w[k]) : String(c).padStart(w[k]))).join("  ");
  console.log(line(head));
  console.log(w.map((n) => "-".repeat(n)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log();
}

/**
 * bench times each case's fn (calls per batch: n) in interleaved rounds and returns the median
 * per-call time of each, in ms.
 * @param {{name: string, fn: () => unknown, n: number}[]} cases
 */
function bench(cases) {
  for (const c of cases) for (let k = 0; k < Math.min(c.n, 50); k++) c.fn(); // warm up
  const times = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    cases.forEach((c, i) => {
      const t0 = performance.now();
      for (let k = 0; k < c.n; k++) c.fn();
      times[i].push((performance.now() - t0) / c.n);
    });
  }
  return new Map(cases.map((c, i) => [c.name, median(times[i])]));
}

const rj = await load();
const before = beforeDir ? await (await import(pathToFileURL(resolve(beforeDir, "ragjudge.js")).href)).load() : null;
const builds = before ? [["after", rj], ["before", before]] : [["", rj]];
console.log(`ragjudge ${rj.version}; ${rounds} interleaved rounds; load average at start ${loadavg().map((x) => x.toFixed(2)).join(" ")}\n`);

// --- 0. the fixed cost of a call: as little work and as few arguments as each function takes ---
{
  const empty = {};
  const cases = builds.flatMap(([tag, b]) => {
    const t = tag ? ` (${tag})` : "";
    return [
      { name: `rj.passages("")${t}`, fn: () => b.passages(""), n: 2000 },
      { name: `rj.template("", "jinja", {})${t}`, fn: () => b.template("", "jinja", empty), n: 2000 },
      { name: `rj.parse("answer-grounding", 1 fact, "yes")${t}`, fn: () => b.parse("answer-grounding", { answer: "a", facts: ["f"] }, "yes"), n: 2000 },
    ];
  });
  const t = bench(cases);
  console.log("the fixed cost of a call, median:");
  table(["call", "median"], cases.map((c) => [c.name, fmt(t.get(c.name))]));
}

// --- 1. rj.template against the JS Jinja engines ---
const src = readFileSync(new URL("../prompts/pairwise-faithfulness.md", import.meta.url), "utf8");
// Ten retrieved passages of about 600 characters each, as a retriever returns them.
const vars = {
  contexts: Array.from({ length: 10 }, (_, k) => text(600, 10 * k)),
  expected_output: "Aspirin 100 mg was given on day 1 [1]. It was continued [2].",
  actual_output: "Aspirin was given [1]. The dose was 100 mg [2]. The patient recovered [3].",
};

const py = spawnSync(PYTHON, ["-c", `
import json, sys, jinja2
d = json.load(sys.stdin)
env = jinja2.Environment(undefined=jinja2.StrictUndefined)
sys.stdout.write(env.from_string(d["src"]).render(**d["vars"]))
`], { input: JSON.stringify({ src, vars }), encoding: "utf8" });
if (py.status !== 0) throw new Error(`${PYTHON} with jinja2 failed: ${py.stderr}`);
const expected = py.stdout;

const nunjucksEnv = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: true });
const engines = [
  ...builds.map(([tag, b]) => [`rj.template${tag ? ` (${tag})` : ""}`, () => b.template(src, "jinja", vars)]),
  ["@huggingface/jinja 0.5.11: new Template(src).render(vars)", () => new Template(src).render(vars)],
  ["nunjucks 3.2.4: renderString", () => nunjucksEnv.renderString(src, vars)],
];
// Where does the parse cache count: the same engine on a source that changes on every call (a
// comment with a counter), so that nothing parsed before can be reused.
let edit = 0;
engines.push(...builds.map(([tag, b]) => [`rj.template, new source each call${tag ? ` (${tag})` : ""}`,
  () => b.template(src + `{# ${edit++} #}`, "jinja", vars)]));
// And on variables that change on every call, so that nothing sent before can be reused.
let turn = 0;
engines.push(...builds.map(([tag, b]) => [`rj.template, new variables each call${tag ? ` (${tag})` : ""}`,
  () => b.template(src, "jinja", { ...vars, actual_output: vars.actual_output + turn++ })]));

const right = new Map();
for (const [name, fn] of engines) {
  let out;
  try {
    out = fn();
  } catch (err) {
    out = `threw ${err}`;
  }
  if (name.includes("new variables")) out = out.replace(/\[3\]\.\d+\n/, "[3].\n"); // the counter it appends
  right.set(name, out === expected);
  if (out !== expected) {
    const at = [...out].findIndex((c, k) => c !== expected[k]);
    console.log(`${name}: WRONG output, differs from Jinja2's at character ${at}: ${JSON.stringify(out.slice(Math.max(0, at - 20), at + 30))} vs ${JSON.stringify(expected.slice(Math.max(0, at - 20), at + 30))}`);
  }
}
const t1 = bench(engines.map(([name, fn]) => ({ name, fn, n: 200 })));
const rjTime = t1.get(engines[0][0]);
table(["pairwise prompt, 10 contexts of 600 characters", "output", "median", "vs rj.template"], engines.map(([name]) => [
  name, right.get(name) ? "= Jinja2" : "WRONG", right.get(name) ? fmt(t1.get(name)) : `(${fmt(t1.get(name))})`,
  `${(t1.get(name) / rjTime).toFixed(2)}×`,
]));

// --- 2. render + parse per evaluator ---
for (const [label, size, n] of [["typical inputs (4 KB of context)", 4096, 100], ["1 MB of context", 1 << 20, 3]]) {
  const cases = [];
  for (const [id, inputs, answer] of workloads(size)) {
    for (const [tag, b] of builds) {
      const t = tag ? ` ${tag}` : "";
      cases.push({ name: `${id} render${t}`, fn: () => b.render(id, inputs), n });
      cases.push({ name: `${id} parse${t}`, fn: () => b.parse(id, inputs, answer), n });
      // What a page does with a row: render it, then parse the judge's answer.
      cases.push({ name: `${id} render+parse${t}`, fn: () => { b.render(id, inputs); b.parse(id, inputs, answer); }, n });
      // The same with a new inputs object of new strings each time (a row read from a dataset):
      // nothing sent before can be reused for the render.
      cases.push({
        name: `${id} render+parse, new inputs${t}`,
        fn: () => {
          const fresh = structuredClone(inputs);
          b.render(id, fresh);
          b.parse(id, fresh, answer);
        },
        n,
      });
    }
  }
  const t = bench(cases);
  const rows = [];
  for (const [id] of workloads(64)) {
    for (const [tag] of builds) {
      const sfx = tag ? ` ${tag}` : "";
      rows.push([`${id}${sfx}`, fmt(t.get(`${id} render${sfx}`)), fmt(t.get(`${id} parse${sfx}`)),
        fmt(t.get(`${id} render+parse${sfx}`)), fmt(t.get(`${id} render+parse, new inputs${sfx}`))]);
    }
  }
  console.log(`${label}, median:`);
  table(["evaluator", "render", "parse", "render+parse", "render+parse, new inputs"], rows);
}

// --- 3. parse of a short answer with 1 MB inputs ---
const short = [];
for (const [id, inputs, , answer] of workloads(1 << 20)) {
  for (const [tag, b] of builds) {
    b.render(id, inputs); // as a page does before it calls the judge
    short.push({ name: `${id}${tag ? ` ${tag}` : ""}`, fn: () => b.parse(id, inputs, answer), n: 20 });
  }
}
const t3 = bench(short);
console.log("parse of a short answer with 1 MB inputs (after render of the same inputs), median (goal: under 1 ms):");
table(["evaluator", "parse", "under 1 ms"], short.map((c) => [c.name, fmt(t3.get(c.name)), t3.get(c.name) < 1 ? "yes" : "NO"]));
console.log(`load average at end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
process.exit(0); // the wasm instances keep Node's event loop alive
