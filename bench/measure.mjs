// measure.mjs: what the Node benchmarks share (bench/api.mjs, bench/boundary.mjs,
// bench/engines.mjs): times in ms printed as µs or ms, medians, aligned tables, the load average,
// and timing contenders in interleaved rounds.
import { loadavg } from "node:os";

/** fmt prints a time in ms as µs below 1 ms, else as ms; null as "-". @param {number|null|undefined} ms */
export const fmt = (ms) => (ms == null ? "-" : ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

/** median of xs (the upper one of an even count). @param {number[]} xs */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

/** loadAverage is the 1, 5 and 15 minute load averages, as uptime prints them. */
export const loadAverage = () => loadavg().map((x) => x.toFixed(2)).join(" ");

/**
 * table prints rows under head, the first column left-aligned and the others right-aligned.
 * @param {string[]} head @param {unknown[][]} rows
 */
export function table(head, rows) {
  const w = head.map((h, k) => Math.max(h.length, ...rows.map((r) => String(r[k]).length)));
  const line = (/** @type {unknown[]} */ r) => r.map((c, k) => (k === 0 ? String(c).padEnd(w[k]) : String(c).padStart(w[k]))).join("  ");
  console.log(line(head));
  console.log(w.map((n) => "-".repeat(n)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log();
}

/**
 * interleaved times each case's fn in rounds: each round runs every case once, in turn, as a
 * batch of n calls (n: the case's own, or enough calls for a batch of about batchMs, found in
 * the warm-up, which runs each case for warmMs first). Interleaving spreads the shared machine's other work over all cases alike. It
 * returns each case's median over rounds of the mean time per call, in ms, by name: the cost of
 * a call with its share of what comes only now and then (a garbage collection). With perCall,
 * it also fills that map with each case's median of single calls over all rounds: on a loaded
 * machine a batch's mean often holds a wait for the CPU of many calls' length, which a single
 * call's median leaves out; with fastest, the fastest single call (what the code costs when
 * nothing else gets in its way). With cpu, it fills that map with each case's median over rounds of
 * the process's CPU time per call (process.cpuUsage, Node only): what a call costs, its share of
 * collections included, without the time spent waiting for a CPU the machine's other work holds.
 * @param {{name: string, fn: () => unknown, n?: number}[]} cases
 * @param {{rounds?: number, batchMs?: number, warmMs?: number, perCall?: Map<string, number>, fastest?: Map<string, number>, cpu?: Map<string, number>}} [opts]
 * @returns {Map<string, number>}
 */
export function interleaved(cases, { rounds = 15, batchMs = 10, warmMs = 0, perCall, fastest, cpu } = {}) {
  const ns = cases.map((c) => {
    // Warm up first for warmMs: V8 runs a wasm function (and JS) with its baseline compiler
    // until it has run for a while, then with its optimizing one, on other threads.
    for (const t0 = performance.now(); performance.now() - t0 < warmMs;) c.fn();
    if (c.n) {
      for (let k = 0; k < Math.min(c.n, 50); k++) c.fn();
      return c.n;
    }
    // Size the batch from about batchMs of calls.
    let calls = 0;
    const t0 = performance.now();
    while (calls < 5 || performance.now() - t0 < batchMs) c.fn(), calls++;
    return Math.max(1, Math.round((calls * batchMs) / (performance.now() - t0)));
  });
  const times = cases.map(() => /** @type {number[]} */ ([]));
  const singles = cases.map(() => /** @type {number[]} */ ([]));
  const cpus = cases.map(() => /** @type {number[]} */ ([]));
  for (let r = 0; r < rounds; r++) {
    cases.forEach((c, i) => {
      const u0 = cpu ? process.cpuUsage() : null;
      const t0 = performance.now();
      let t = t0;
      for (let k = 0; k < ns[i]; k++) {
        c.fn();
        if (perCall || fastest) {
          const now = performance.now();
          singles[i].push(now - t);
          t = now;
        }
      }
      times[i].push((performance.now() - t0) / ns[i]);
      if (u0) {
        const u = process.cpuUsage(u0);
        cpus[i].push((u.user + u.system) / 1000 / ns[i]);
      }
    });
  }
  if (perCall) cases.forEach((c, i) => perCall.set(c.name, median(singles[i])));
  if (fastest) cases.forEach((c, i) => fastest.set(c.name, Math.min(...singles[i])));
  if (cpu) cases.forEach((c, i) => cpu.set(c.name, median(cpus[i])));
  return new Map(cases.map((c, i) => [c.name, median(times[i])]));
}
