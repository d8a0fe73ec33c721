// cases.js: a check-up's cases, made before anything is paid for: a seeded draw of the dataset's
// rows (or the evaluator's worked example), the known-answer cases the core makes of each
// (rj.checkupCases, with the other rows as the pool foreign sentences come from), and those cases
// as a batch run's items, each carrying what it is (its row, transformation, expectation) so that
// a stored run can be graded after a reload (grade.js). Pure over rj: Node tests cover it, and
// the command line makes its check-ups with it (cli/checkup.mjs).

import { fmtInt } from "../lib/format.js";

/** DEFAULT_ROWS is how many rows a check-up draws unless told otherwise. */
export const DEFAULT_ROWS = 20;

/** MAX_ROWS caps the rows drawn: a few cases each, a few hundred calls at most. */
export const MAX_ROWS = 200;

/** POOL_ROWS is how many rows (a seeded sample) go to the core as the pool of foreign material: the core looks through at most 200 per case. */
export const POOL_ROWS = 300;

/** SKIPS_KEPT is how many skipped transformations a check-up's record keeps by row (all are counted). */
export const SKIPS_KEPT = 200;

/**
 * seededRandom is a small generator of numbers in [0, 1) from a whole-number seed (mulberry32):
 * the same seed draws the same rows in every browser.
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * newSeed is a seed for a new check-up: a whole number the user can read and type again.
 * @param {() => number} [random]
 */
export function newSeed(random = Math.random) {
  return 1 + Math.floor(random() * 99999);
}

/**
 * seedOf reads a typed seed: a whole number from 0 to 2^31 − 1, else null.
 * @param {unknown} v
 * @returns {number|null}
 */
export function seedOf(v) {
  const s = String(v ?? "").trim();
  if (!/^\d{1,10}$/.test(s)) return null;
  const n = Number(s);
  return n <= 0x7fffffff ? n : null;
}

/**
 * rowsOf reads a typed number of rows to draw: 1 to MAX_ROWS, else null.
 * @param {unknown} v
 * @returns {number|null}
 */
export function rowsOf(v) {
  const n = Number(String(v ?? "").trim());
  return Number.isInteger(n) && n >= 1 && n <= MAX_ROWS ? n : null;
}

/**
 * drawRows draws n of list's entries without putting back, seeded, and returns them in list's
 * order (all of them when there are no more than n).
 * @template T
 * @param {T[]} list
 * @param {number} n
 * @param {number} seed
 * @returns {T[]}
 */
export function drawRows(list, n, seed) {
  if (list.length <= n) return list.slice();
  const random = seededRandom(seed);
  const at = list.map((_, i) => i);
  // The first n places of a Fisher–Yates shuffle.
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (at.length - i));
    [at[i], at[j]] = [at[j], at[i]];
  }
  return at
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => list[i]);
}

/**
 * @typedef {Object} CaseInfo what a case item is, kept on the item (a stored run's row) so that it
 *   can be graded after a reload: the core's case without its inputs (they are the item's)
 * @property {number} row the dataset row it was made from, 0-based (-1 for the evaluator's example)
 * @property {string} name @property {string} transform @property {any} expect @property {string} note
 * @property {boolean} [both_orders]
 */

/**
 * @typedef {Object} TransformLine one transformation in a check-up: its cases and the rows that did not allow it
 * @property {string} transform @property {string} name
 * @property {number} cases
 * @property {number} skipped rows that did not allow it
 * @property {string} reason the first of their reasons, in words
 */

/**
 * @typedef {Object} CheckupPlan a check-up ready to run
 * @property {{source: any, inputs: any, checkup: CaseInfo, bothOrders?: boolean}[]} items the cases as a batch run's items
 * @property {number[]} drawn the dataset rows drawn (0-based)
 * @property {TransformLine[]} transforms in the order the core lists them
 * @property {{row: number, transform: string, name: string, reason: string}[]} skipped by row (the first SKIPS_KEPT)
 * @property {number} skips how many transformations were skipped in all
 * @property {{row: number, reason: string}[]} refused rows the core could not make cases of, and why
 * @property {number} doubled cases judged in both orders
 */

/**
 * planCheckup makes the cases of a check-up of evaluator id: n rows drawn (seeded) from rows (a
 * dataset's judged rows as mapping.js makes them, {index, source, inputs}), each row's cases made
 * with a seeded sample of the rows as the pool. yieldFn, when given, is awaited between rows (a
 * long dataset leaves the page responsive); isStale() true stops it (resolves to null).
 * @param {{checkupCases: Function}} rj
 * @param {string} id
 * @param {{index: number, source?: any, inputs: any}[]} rows
 * @param {{n: number, seed: number, yieldFn?: () => Promise<unknown>, isStale?: () => boolean}} o
 * @returns {Promise<CheckupPlan|null>}
 */
export async function planCheckup(rj, id, rows, { n, seed, yieldFn, isStale = () => false }) {
  const drawn = drawRows(rows, n, seed);
  // One pool for every row (the engine holds it between calls); a row never takes a sentence of
  // its own, which shares every word with it.
  const pool = drawRows(rows, POOL_ROWS, seed + 1).map((r) => r.inputs);
  /** @type {CheckupPlan} */
  const plan = { items: [], drawn: drawn.map((r) => r.index), transforms: [], skipped: [], skips: 0, refused: [], doubled: 0 };
  /** @type {Map<string, TransformLine>} */
  const lines = new Map();
  const line = (/** @type {string} */ transform, /** @type {string} */ name) => {
    let l = lines.get(transform);
    if (!l) lines.set(transform, (l = { transform, name, cases: 0, skipped: 0, reason: "" }));
    return l;
  };
  /** @type {string[][]} each row's transformations with cases, in the core's order */
  const seqs = [];
  for (const row of drawn) {
    if (yieldFn) await yieldFn();
    if (isStale()) return null;
    let made;
    try {
      made = rj.checkupCases(id, row.inputs, { seed, pool });
    } catch (e) {
      plan.refused.push({ row: row.index, reason: String((e && /** @type {any} */ (e).detail) || (e && /** @type {any} */ (e).message) || e) });
      continue;
    }
    seqs.push(made.cases.map((/** @type {any} */ c) => c.transform));
    for (const c of made.cases) {
      line(c.transform, c.name).cases++;
      /** @type {CaseInfo} */
      const info = { row: row.index, name: c.name, transform: c.transform, expect: c.expect, note: c.note };
      if (c.both_orders) info.both_orders = true;
      plan.items.push({ source: row.source ?? null, inputs: c.inputs, checkup: info, ...(c.both_orders ? { bothOrders: true } : {}) });
      if (c.both_orders) plan.doubled++;
    }
    for (const s of made.skipped) {
      const l = line(s.transform, s.name);
      l.skipped++;
      if (!l.reason) l.reason = s.reason;
      plan.skips++;
      if (plan.skipped.length < SKIPS_KEPT) plan.skipped.push({ row: row.index, transform: s.transform, name: s.name, reason: s.reason });
    }
  }
  // Those with cases in the core's order, then those no drawn row allowed.
  plan.transforms = [...coreOrder(seqs).map((t) => /** @type {TransformLine} */ (lines.get(t))), ...[...lines.values()].filter((l) => !l.cases)];
  return plan;
}

/**
 * coreOrder merges sequences that each list some transformations in the core's order into one
 * order of them all: each sequence's order is kept (a topological sort of "listed before"), and
 * of those that could come next, the one seen first comes first.
 * @param {string[][]} seqs
 * @returns {string[]}
 */
export function coreOrder(seqs) {
  /** @type {string[]} */
  const seen = [];
  /** @type {Map<string, Set<string>>} */
  const before = new Map(); // t -> the transformations listed before it somewhere
  for (const seq of seqs) {
    seq.forEach((t, k) => {
      if (!before.has(t)) before.set(t, new Set()), seen.push(t);
      if (k > 0) /** @type {Set<string>} */ (before.get(t)).add(seq[k - 1]);
    });
  }
  /** @type {string[]} */
  const out = [];
  const placed = new Set();
  while (out.length < seen.length) {
    const next = seen.find((t) => !placed.has(t) && [.../** @type {Set<string>} */ (before.get(t))].every((b) => placed.has(b))) ?? seen.find((t) => !placed.has(t));
    out.push(/** @type {string} */ (next));
    placed.add(next);
  }
  return out;
}

/**
 * @typedef {Object} CheckupSource where a check-up's cases come from: the rows drawn from (a
 *   dataset's judged rows, or the evaluator's worked example as row -1), the name and size the
 *   record says, and the columns and mapping the run keeps; or, with why, none
 * @property {"dataset"|"example"} use
 * @property {{index: number, source?: any, inputs: any}[]} [rows]
 * @property {string} [name] @property {number} [of]
 * @property {{columns?: string[], errors?: any[]}} [table] @property {Object<string, string>} [mapping]
 * @property {string} [why] why there are no rows
 */

/**
 * checkupSource is where evaluator ev's check-up takes its rows, as the page's check-up card
 * takes them (setupcard.js) and the command line too (cli/checkup.mjs): the rows of set-up
 * dataset s that can be judged (s.items, mapping.js items checked by preview.js, set up for ev),
 * unless want is "example" or there are none, then the evaluator's worked example.
 * @param {any} ev
 * @param {{name: string, table: any, mapping: Object<string, string>, items: any[], ev?: any} | null} s
 * @param {"dataset"|"example"} want
 * @returns {CheckupSource}
 */
export function checkupSource(ev, s, want) {
  const rows = datasetRows(ev, s);
  const example = ev && ev.example && ev.example.inputs;
  const use = want === "example" || !rows.length ? "example" : "dataset";
  if (use === "dataset" && s) return { use, rows, name: s.name, of: rows.length, table: s.table, mapping: s.mapping };
  if (!example) return { use, why: "Load a dataset above (or pick an evaluator with a worked example) to make cases from." };
  return { use, rows: [{ index: -1, source: null, inputs: example }], name: ev.title || ev.id, of: 1, table: { columns: [], errors: [] }, mapping: {} };
}

/**
 * datasetRows is the rows of set-up dataset s a check-up of ev can draw: those with inputs and
 * no input error, when s was set up for ev (none otherwise).
 * @param {any} ev
 * @param {{items: any[], ev?: any} | null} s
 */
export function datasetRows(ev, s) {
  return s && s.ev && ev && s.ev.id === ev.id ? s.items.filter((it) => it && it.inputs && !it.error) : [];
}

/**
 * checkupRun is what a check-up stores as a batch run (the run controller's startNew takes it):
 * its name, columns, mapping and cases, and its record (run.checkup) of where the cases came
 * from, the seed, and the transformations made and skipped.
 * @param {CheckupPlan} plan
 * @param {CheckupSource} src
 * @param {number} seed
 * @returns {{name: string, table: {columns: string[], errors: any[]}, mapping: Object<string, string>, items: CheckupPlan["items"], checkup: import("./data.js").CheckupRecord}}
 */
export function checkupRun(plan, src, seed) {
  return {
    name: `Check-up of ${src.name}`,
    table: { columns: (src.table && src.table.columns) || [], errors: [] },
    mapping: src.mapping || {},
    items: plan.items,
    checkup: {
      seed,
      source: src.use,
      dataset: String(src.name),
      rows: plan.drawn.length,
      of: /** @type {number} */ (src.of),
      transforms: plan.transforms,
      skipped: plan.skipped.slice(0, SKIPS_KEPT),
      skips: plan.skips,
      refused: plan.refused.slice(0, SKIPS_KEPT),
    },
  };
}

/**
 * noCasesWhy says why a plan has no case: the first reason a transformation was not offered, else
 * why a row was refused.
 * @param {CheckupPlan} plan
 */
export function noCasesWhy(plan) {
  return "No case can be made of these rows: " + (plan.transforms.map((t) => t.reason).find(Boolean) || plan.refused.map((r) => r.reason)[0] || "the evaluator has no check-up for them");
}

/**
 * casesLine is the line said before a check-up is paid for: its cases and the rows they come
 * from, then line (batch/setupline.js setupLine: the calls, the model, the temperature, the cap on
 * tokens), which names the cases itself when it multiplies them (repeats, both orders).
 * @param {CheckupPlan} plan
 * @param {string} line
 */
export function casesLine(plan, line) {
  const cases = plan.items.length;
  const drawn = `${fmtInt(plan.drawn.length)} row${plan.drawn.length === 1 ? "" : "s"}`;
  const n = fmtInt(cases);
  return line.startsWith(n + " case") ? `From ${drawn}: ${line}` : `${n} case${cases === 1 ? "" : "s"} from ${drawn}: ${line}`;
}

/**
 * caseOf is the core's case again from a stored item (its inputs and its CaseInfo), as
 * rj.checkupGrade takes it; null for an item that is no check-up case.
 * @param {any} item
 * @returns {any}
 */
export function caseOf(item) {
  const c = item && item.checkup;
  if (!c || typeof c !== "object" || !item.inputs) return null;
  return { name: c.name, transform: c.transform, inputs: item.inputs, expect: c.expect, note: c.note, ...(c.both_orders ? { both_orders: true } : {}) };
}
