// preview.js: what a run will do, known before any call. Every row that has its inputs is rendered
// as the run would render it, so a row that the judge's prompt refuses (an empty list, a ground
// truth without markers, ...) is found here: the preview says how many rows will be judged and,
// grouped by the error's code, why the others will not; the run makes those rows input errors
// without a call. The same pass measures the prompts for the estimate of calls and tokens.

import { h, replace } from "../lib/dom.js";
import { estimateTokens, messagesChars } from "../results/aggregate.js";
import { fmtInt, fmtMoney, clip, cellText, plural } from "../lib/format.js";

const PREVIEW_ROWS = 8;
const LISTED = 50; // rows listed under each reason

/** ROW_INPUTS is the group of rows the mapping could not give their inputs (mapping.js gives no code). */
export const ROW_INPUTS = "row-inputs";

/** REASONS: a few words for the codes a row is refused or warned for; other codes show their first message. */
const REASONS = {
  [ROW_INPUTS]: "a required input is missing or unreadable with this mapping",
  "input.no-markers": "the ground truth has no [ESSENTIAL PASSAGE] marker, so there is nothing to score",
  "input.empty-list": "a list input is empty",
  "input.not-a-list": "a list input is not a list",
  "input.unknown-mode": "the mode is not one the evaluator knows",
  "citation.out-of-range": "the answer cites a passage number the row does not have",
};

/** codeOf is the stable code of a render error: its code, else its kind (an engine without codes). */
function codeOf(e) {
  if (e && typeof e.code === "string" && e.code) return e.code;
  return "render." + ((e && e.kind) || "error");
}

/** renderChecks are a rendered prompt's warnings as {code, message} (plain strings where the engine has no codes). */
function renderChecks(rendered) {
  if (Array.isArray(rendered.checks)) return rendered.checks.map((c) => ({ code: c.code || "render.warning", message: c.message }));
  return (rendered.warnings || []).map((w) => (typeof w === "string" ? { code: "render.warning", message: w } : { code: w.code || "render.warning", message: w.message }));
}

/**
 * @typedef {Object} Reason rows that share one code
 * @property {string} code
 * @property {string} label
 * @property {{index: number, message: string}[]} rows
 */

/**
 * @typedef {Object} Checked
 * @property {any[]} items the rows as the run takes them (mapping.js's items): those that will be
 *   judged may have warnings; the others have an error and its code
 * @property {number} judged rows that will be judged
 * @property {Reason[]} refused why the others will not, by code, largest group first
 * @property {Reason[]} warned rows that render with a warning, by code
 * @property {number} chars the rendered prompts' length
 */

function group(map, code, index, message) {
  let g = map.get(code);
  if (!g) map.set(code, (g = { code, label: REASONS[code] || message, rows: [] }));
  g.rows.push({ index, message });
}

/** isCheckCode: a code the core gave (shown beside its reason), not one this module made up for an error without one. */
const isCheckCode = (code) => code !== ROW_INPUTS && !code.startsWith("render.");

const strip = (m) => String(m).replace(/^Row \d+: /, "");

const bySize = (a, b) => b.rows.length - a.rows.length || (a.code < b.code ? -1 : 1);

/**
 * checkRows renders each row of items with evaluator ev as the run will, a slice at a time.
 * Resolves to null when isStale() says the mapping changed meanwhile.
 * @param {{render: (id: string, inputs: Object) => Object}} rj
 * @param {{id: string}} ev
 * @param {any[]} items prepareItems' rows
 * @param {{yieldFn?: () => Promise<void>, isStale?: () => boolean}} [opts]
 * @returns {Promise<Checked|null>}
 */
export async function checkRows(rj, ev, items, { yieldFn, isStale = () => false } = {}) {
  const out = new Array(items.length);
  const refused = new Map();
  const warned = new Map();
  let judged = 0;
  let chars = 0;
  let t = performance.now();
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.error) {
      const check = (it.checks || []).find((/** @type {{severity: string}} */ c) => c.severity === "error");
      const code = it.code || (check && check.code) || ROW_INPUTS;
      out[i] = { ...it, code };
      group(refused, code, i, strip(it.error));
    } else {
      try {
        const rendered = rj.render(ev.id, it.inputs);
        chars += messagesChars(rendered.messages);
        judged++;
        const checks = renderChecks(rendered);
        for (const c of checks) group(warned, c.code, i, c.message);
        out[i] = checks.length ? { ...it, warnings: checks.map((c) => c.message) } : it;
      } catch (e) {
        const err = /** @type {any} */ (e);
        // A RagJudgeError's detail leaves out what it is about (the input, or the evaluator).
        const message = err && err.detail ? (err.subject ? err.subject + ": " : "") + err.detail : (err && err.message) || String(err);
        const code = codeOf(e);
        // The row keeps its place and source (exports join on them); its error makes the run skip it.
        out[i] = { ...it, error: `Row ${i + 1}: ${message}`, code };
        group(refused, code, i, message);
      }
    }
    if (yieldFn && performance.now() - t > 12) {
      await yieldFn();
      if (isStale()) return null;
      t = performance.now();
    }
  }
  return { items: out, judged, refused: [...refused.values()].sort(bySize), warned: [...warned.values()].sort(bySize), chars };
}

/** @param {{message: string}[]} rows */
const sameMessage = (rows) => rows.every((r) => r.message === rows[0].message);

/**
 * rowRanges names rows by their 1-based numbers, runs folded: "1–30", "2, 5–7, 9".
 * @param {{index: number}[]} rows  in order
 */
function rowRanges(rows) {
  const parts = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1].index === rows[j].index + 1) j++;
    const a = rows[i].index + 1, b = rows[j].index + 1;
    parts.push(a === b ? String(a) : j === i + 1 ? `${a}, ${b}` : `${a}–${b}`);
    i = j + 1;
  }
  return parts.join(", ");
}

function reasonList(ref, summary, groups, open) {
  return h(
    "details",
    { class: "problem-list" + (ref === "batch-row-warnings" ? " note-list" : ""), open, dataset: { ref } },
    h("summary", { text: summary }),
    groups.map((g) =>
      h(
        "div",
        { class: "reason", dataset: { code: g.code, count: String(g.rows.length) } },
        h("p", { class: "reason-title" }, h("strong", { text: plural(g.rows.length, "row") + ": " }), g.label, " ", isCheckCode(g.code) ? h("code", { class: "hint", text: g.code }) : null),
        // Rows that all say the same thing are named once, as ranges ("Rows 1–30"), not listed.
        sameMessage(g.rows)
          ? h("p", { class: "reason-rows", text: `${g.rows.length === 1 ? "Row" : "Rows"} ${rowRanges(g.rows)}` + (g.rows[0].message === g.label ? "" : `: ${g.rows[0].message}`) })
          : h("ul", {}, g.rows.slice(0, LISTED).map((r) => h("li", { text: `Row ${r.index + 1}: ${r.message}` }))),
        !sameMessage(g.rows) && g.rows.length > LISTED ? h("p", { class: "hint", text: `… and ${fmtInt(g.rows.length - LISTED)} more.` }) : null,
      ),
    ),
  );
}

/**
 * drawProblems says what the dataset's reading and the checks found: lines that could not be read,
 * how many rows will be judged and why the others will not, warnings, and adjustments.
 * @param {HTMLElement} el
 * @param {{readErrors: {line: number, message: string}[], readWarnings?: {line: number, row?: number, message: string}[], checked: Checked, ev: {id: string}}} o
 */
export function drawProblems(el, { readErrors, readWarnings = [], checked, ev }) {
  const items = checked.items;
  const notJudged = items.length - checked.judged;
  const noted = [];
  for (let i = 0; i < items.length && noted.length < LISTED; i++) if (items[i].notes) noted.push(`Row ${i + 1}: ${items[i].notes.join("; ")}`);
  const nNoted = items.filter((x) => x.notes).length;
  replace(
    el,
    readErrors.length
      ? h(
          "details",
          { class: "problem-list", open: readErrors.length <= 5, dataset: { ref: "batch-read-errors" } },
          h("summary", { text: `⚠ ${readErrors.length} line${readErrors.length === 1 ? "" : "s"} could not be read and will not be judged` }),
          h("ul", {}, readErrors.slice(0, LISTED).map((e) => h("li", { text: `line ${e.line}: ${e.message}` }))),
        )
      : null,
    readWarnings.length
      ? h(
          "details",
          { class: "problem-list note-list", dataset: { ref: "batch-read-warnings" } },
          h("summary", { text: `ℹ ${plural(readWarnings.length, "line")} read with a doubt (they will be judged as read)` }),
          h("ul", {}, readWarnings.slice(0, LISTED).map((w) => h("li", { text: `line ${w.line}${w.row ? ` (row ${w.row})` : ""}: ${w.message}` }))),
        )
      : null,
    notJudged
      ? reasonList(
          "batch-row-problems",
          `⚠ ${fmtInt(checked.judged)} of ${plural(items.length, "row")} will be judged; ${fmtInt(notJudged)} will not (they end as input errors, without a call):`,
          checked.refused,
          notJudged <= 5 || checked.refused.length <= 3,
        )
      : h("p", { class: "ok-line", dataset: { ref: "batch-all-ok" }, text: `✓ All ${fmtInt(items.length)} rows have the inputs ${ev.id} needs.` }),
    checked.warned.length
      ? reasonList("batch-row-warnings", `⚠ ${plural(checked.warned.reduce((n, g) => n + g.rows.length, 0), "warning")} on rows that will be judged`, checked.warned, false)
      : null,
    nNoted
      ? h(
          "details",
          { class: "problem-list note-list", dataset: { ref: "batch-row-notes" } },
          h("summary", { text: `ℹ ${nNoted} row${nNoted === 1 ? "" : "s"} read with an adjustment` }),
          h("ul", {}, noted.map((m) => h("li", { text: m }))),
        )
      : null,
  );
}

/** drawPreviewTable shows the first rows' inputs and what is wrong with each. */
export function drawPreviewTable(el, { items, ev }) {
  const cols = ev.inputs.map((i) => i.name);
  const head = h("tr", {}, h("th", { text: "#" }), cols.map((c) => h("th", { text: c })), h("th", { text: "Problems" }));
  const body = items.slice(0, PREVIEW_ROWS).map((it, i) => {
    const note = it.error ? "✗ " + it.error.replace(/^Row \d+: /, "") : it.warnings ? "⚠ " + it.warnings.join("; ") : it.notes ? "ℹ " + it.notes.join("; ") : "✓";
    return h(
      "tr",
      { class: it.error ? "row-bad" : "" },
      h("td", { text: String(i + 1) }),
      cols.map((c) => h("td", { text: it.inputs ? clip(cellText(it.inputs[c]), 120) : "", attrs: { title: it.inputs ? clip(cellText(it.inputs[c]), 1000) : "" } })),
      h("td", { class: it.error ? "cell-bad" : it.warnings || it.notes ? "cell-note" : "cell-ok", text: note }),
    );
  });
  replace(el, h("div", { class: "table-scroll" }, h("table", { class: "ptable" }, h("thead", {}, head), h("tbody", {}, body))), items.length > PREVIEW_ROWS ? h("p", { class: "hint", text: `… and ${fmtInt(items.length - PREVIEW_ROWS)} more rows.` }) : null);
}

/**
 * estimateText is the estimate of calls, tokens and cost for the rows that will be judged, or
 * what to do when none can be.
 * @param {{checked: Checked, ev: {inputs: {name: string, required: boolean}[]}, mapping: Object, maxTokens: number, priceIn: string, priceOut: string, repeats?: number, orders?: number, judges?: number}} o
 *   repeats: how many times each row is judged; orders: 2 when each judgement is made in both orders;
 *   judges: a jury's judges (each asks every row; the prices are taken as every judge's)
 */
export function estimateText({ checked, ev, mapping, maxTokens, priceIn, priceOut, repeats = 1, orders = 1, judges = 1 }) {
  // Each repeat (and each order, and each judge) of a row is a call of its own: N repeats cost N times as much.
  const each = repeats * orders * judges;
  const ok = checked.judged * each;
  if (ok === 0) {
    const missing = ev.inputs.filter((i) => i.required && !mapping[i.name]).map((i) => i.name);
    return missing.length ? `No row can be judged yet: choose a column for ${missing.join(", ")} above.` : "No row can be judged with this mapping: see the problems above.";
  }
  const tokens = estimateTokens(checked.chars) * each;
  const how = [repeats > 1 ? `${fmtInt(repeats)} repeats` : "", orders > 1 ? `${fmtInt(orders)} orders` : "", judges > 1 ? `${fmtInt(judges)} judges` : ""].filter(Boolean).join(" × ");
  let text = `About ${fmtInt(ok)} calls${how ? ` (${fmtInt(checked.judged)} rows × ${how})` : ""} and ~${fmtInt(tokens)} input tokens (estimated from the rendered prompts' length at ~4 characters per token)`;
  if (maxTokens) text += `, at most ${fmtInt(maxTokens * ok)} output tokens (max tokens ${fmtInt(maxTokens)} per call)`;
  text += "; an unreadable answer costs one more repair call; cached answers cost nothing.";
  const pin = Number(priceIn);
  const pout = Number(priceOut);
  if (priceIn !== "" && Number.isFinite(pin)) {
    const low = (tokens * pin) / 1e6;
    const high = low + (priceOut !== "" && Number.isFinite(pout) && maxTokens ? (maxTokens * ok * pout) / 1e6 : 0);
    text += ` Input cost ≈ ${fmtMoney(low)}` + (high > low ? `, at most ${fmtMoney(high)} with output.` : ".");
  }
  return text;
}
