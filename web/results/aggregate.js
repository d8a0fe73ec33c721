// aggregate.js: a run's summary, computed from its stored results only (so a reopened run and a
// live one agree): counts by status, pass rate, mean score, undetermined and error counts by cause,
// a score histogram, tokens, cache hits and cost.

import { statusOf, causeOf } from "./status.js";

/**
 * aggregate summarises results (sparse array or list; missing rows are pending) for a run of
 * total rows. threshold as in statusOf; prices in currency per million input/output tokens.
 * @param {Array<any>} results
 * @param {number} total
 * @param {{threshold?: number|null, priceIn?: string|number|null, priceOut?: string|number|null, bins?: number}} [opts]
 */
export function aggregate(results, total, { threshold = null, priceIn = null, priceOut = null, bins = 10 } = {}) {
  const counts = { passed: 0, failed: 0, scored: 0, undetermined: 0, error: 0, pending: 0 };
  const causes = new Map();
  const scores = [];
  let promptTokens = 0;
  let completionTokens = 0;
  let calls = 0;
  let cachedCalls = 0;
  let failedCalls = 0;
  let repaired = 0;
  let finished = 0;
  for (const r of results) {
    if (!r) continue;
    finished++;
    const st = statusOf(r, threshold);
    counts[st]++;
    if (st === "undetermined" || st === "error") {
      const c = causeOf(r, threshold);
      causes.set(c, (causes.get(c) || 0) + 1);
    }
    const s = r.verdict && r.verdict.score;
    if (!r.error && typeof s === "number" && Number.isFinite(s)) scores.push(s);
    // What the row spent: its latest try's, and its earlier tries' in this run (a Retry or an Ask
    // again replaces a row's result, not what was paid for it: batch/rowresult.js carrySpend).
    const e = r.earlier || { calls: 0, cachedCalls: 0, attempts: 0, prompt_tokens: 0, completion_tokens: 0 };
    promptTokens += ((r.usage && r.usage.prompt_tokens) || 0) + (e.prompt_tokens || 0);
    completionTokens += ((r.usage && r.usage.completion_tokens) || 0) + (e.completion_tokens || 0);
    calls += (r.calls || 0) + (e.calls || 0);
    cachedCalls += (r.cachedCalls || 0) + (e.cachedCalls || 0);
    // Attempts that reached for the endpoint and got no answer (a 503, a timeout): every attempt
    // made that did not become one of the row's answered calls. Cache hits make no attempt.
    failedCalls += Math.max(0, (r.attempts || 0) - (r.calls || 0)) + Math.max(0, (e.attempts || 0) - (e.calls || 0));
    if (r.repaired) repaired++;
  }
  counts.pending = Math.max(0, total - finished);
  const decided = counts.passed + counts.failed;
  const mean = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
  /** @type {number|null} */
  let cost = null;
  const pin = Number(priceIn);
  const pout = Number(priceOut);
  if ((priceIn !== null && priceIn !== "" && Number.isFinite(pin)) || (priceOut !== null && priceOut !== "" && Number.isFinite(pout))) {
    cost = (promptTokens * (Number.isFinite(pin) ? pin : 0) + completionTokens * (Number.isFinite(pout) ? pout : 0)) / 1e6;
  }
  return {
    total,
    finished,
    counts,
    passRate: decided ? counts.passed / decided : null,
    decided,
    meanScore: mean,
    scored: scores.length,
    causes: [...causes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([cause, count]) => ({ cause, count })),
    histogram: histogram(scores, bins),
    promptTokens,
    completionTokens,
    calls,
    cachedCalls,
    failedCalls,
    repaired,
    cost,
  };
}

/**
 * histogram bins scores over [0, hi], hi being 1 for unit scores and the next integer above the
 * largest score otherwise (5 for rag-recall); the last bin is closed so the maximum is counted.
 */
export function histogram(scores, bins = 10) {
  const max = scores.length ? Math.max(...scores) : 1;
  const min = scores.length ? Math.min(...scores) : 0;
  const lo = Math.min(0, Math.floor(min));
  const hi = max <= 1 ? 1 : Math.ceil(max);
  const width = (hi - lo) / bins;
  const counts = new Array(bins).fill(0);
  for (const s of scores) {
    let i = Math.floor((s - lo) / width);
    if (i >= bins) i = bins - 1;
    if (i < 0) i = 0;
    counts[i]++;
  }
  return { lo, hi, bins: counts.map((count, i) => ({ from: lo + i * width, to: lo + (i + 1) * width, count })) };
}

/** estimateTokens: about four characters per token, the usual rule of thumb for English text. */
export function estimateTokens(chars) {
  return Math.ceil(chars / 4);
}

/** messagesChars counts the characters of all messages' content. */
export function messagesChars(messages) {
  let n = 0;
  for (const m of messages || []) n += typeof m.content === "string" ? m.content.length : 0;
  return n;
}
