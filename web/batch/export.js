// export.js: a run's rows as JSONL, JSON and CSV. Every row of the dataset is exported, finished or
// not (pending rows say so), with its inputs, verdict, raw judge answers (the first and, after a
// repair request, the corrected one) and error.

import { statusOf, causeOf, reasonOf } from "./status.js";

/** exportRecord is the one shape every format is made from. */
export function exportRecord(index, item, result, threshold = null) {
  const v = (result && result.verdict) || null;
  return {
    row: index + 1,
    status: statusOf(result, threshold),
    cause: result ? causeOf(result, threshold) : "not run yet",
    passed: v ? (v.passed === undefined ? null : v.passed) : null,
    score: v && typeof v.score === "number" ? v.score : null,
    inputs: item && item.inputs ? item.inputs : null,
    input_error: item && item.error ? item.error : null,
    verdict: v ? v.verdict === undefined ? null : v.verdict : null,
    checks: v ? v.checks || [] : [],
    answers: result ? result.answers || [] : [],
    error: result && result.error ? result.error : null,
    reason: result ? reasonOf(result) : "",
    usage: result ? result.usage : null,
    cached_calls: result ? result.cachedCalls || 0 : 0,
    attempts: result ? result.attempts || 0 : 0,
  };
}

function records(items, results, threshold) {
  const out = [];
  for (let i = 0; i < items.length; i++) out.push(exportRecord(i, items[i], results[i], threshold));
  return out;
}

/** toJSONL: one JSON object per line, one line per dataset row. */
export function toJSONL(items, results, { threshold = null } = {}) {
  return records(items, results, threshold)
    .map((r) => JSON.stringify(r))
    .join("\n")
    .concat(items.length ? "\n" : "");
}

/** toJSON: {run, summary, rows}. run must not hold the API key (the caller strips it). */
export function toJSON(items, results, { threshold = null, run = null, summary = null } = {}) {
  return JSON.stringify({ run, summary, rows: records(items, results, threshold) }, null, 2) + "\n";
}

/**
 * csvField escapes one CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF or
 * leading/trailing space, quotes doubled. A text that a spreadsheet would run as a formula
 * (starting with = + - @, tab or CR) gets a leading apostrophe, since dataset cells and judge
 * answers are untrusted; numbers are written as they are.
 */
export function csvField(v) {
  if (v === null || v === undefined) return "";
  let s;
  if (typeof v === "number") s = Number.isFinite(v) ? String(v) : "";
  else if (typeof v === "boolean") s = v ? "true" : "false";
  else if (typeof v === "string") {
    s = v;
    if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  } else s = JSON.stringify(v);
  if (/[",\r\n]/.test(s) || /^\s|\s$/.test(s)) s = '"' + s.replace(/"/g, '""') + '"';
  return s;
}

/**
 * toCSV: one line per row; inputs become one column each (lists and objects as JSON), then the
 * verdict (as JSON), checks, the raw answers, the error, tokens. Lines end in CRLF.
 */
export function toCSV(items, results, { threshold = null, inputNames = null } = {}) {
  const recs = records(items, results, threshold);
  let names = inputNames;
  if (!names) {
    const seen = new Set();
    for (const r of recs) for (const k of Object.keys(r.inputs || {})) seen.add(k);
    names = [...seen];
  }
  const header = ["row", "status", "cause", "passed", "score", ...names.map((n) => "input." + n), "input_error", "verdict", "checks", "answer", "repair_answer", "error", "prompt_tokens", "completion_tokens", "cached_calls", "attempts"];
  const lines = [header.map(csvField).join(",")];
  for (const r of recs) {
    const row = [
      r.row,
      r.status,
      r.cause,
      r.passed,
      r.score,
      ...names.map((n) => (r.inputs ? r.inputs[n] : null)),
      r.input_error,
      r.verdict,
      r.checks.map((c) => c.severity + ": " + c.message).join("\n"),
      r.answers[0] === undefined ? null : r.answers[0],
      r.answers[1] === undefined ? null : r.answers[1],
      r.error ? r.error.message : null,
      r.usage ? r.usage.prompt_tokens : null,
      r.usage ? r.usage.completion_tokens : null,
      r.cached_calls,
      r.attempts,
    ];
    lines.push(row.map(csvField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
