// boundary.mjs benchmarks the JS–Go boundary in one Node process (`node bench/boundary.mjs`, run
// by `make bench` after `make build`):
//
//  0. The fixed cost of a call: functions given almost nothing to do.
//  1. rj.template against the JS Jinja engines: bench/engines.mjs.
//  2. rj.render + rj.parse per evaluator, at typical size (4 KB of context) and at 1 MB.
//  3. rj.parse of a short answer with 1 MB inputs (after render of the same inputs, as a page
//     does): goal under 1 ms.
//
// Runs are interleaved (each round times every case once, in turn) and repeated; the figure is
// the median over rounds of the mean time per call, with the load average, since the machine is
// shared. `--before DIR` also times another build (DIR/ragjudge.js beside its ragjudge.wasm and
// wasm_exec.js), interleaved with this one, to compare.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { load } from "../web/ragjudge.js";
import { fmt, interleaved, loadAverage, table } from "./measure.mjs";
import { workloads } from "./workloads.mjs";

const rounds = Number(process.env.ROUNDS || 15);
const beforeAt = process.argv.indexOf("--before");
const beforeDir = beforeAt > 0 ? process.argv[beforeAt + 1] : null;

/**
 * bench times each case's fn (calls per batch: n) in interleaved rounds and returns the median
 * per-call time of each, in ms.
 * @param {{name: string, fn: () => unknown, n: number}[]} cases
 */
const bench = (cases) => interleaved(cases, { rounds });

const rj = await load();
const before = beforeDir ? await (await import(pathToFileURL(resolve(beforeDir, "ragjudge.js")).href)).load() : null;
const builds = before ? [["after", rj], ["before", before]] : [["", rj]];
console.log(`ragjudge ${rj.version}; ${rounds} interleaved rounds; load average at start ${loadAverage()}\n`);

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
console.log(`load average at end ${loadAverage()}`);
process.exit(0); // the wasm instances keep Node's event loop alive
