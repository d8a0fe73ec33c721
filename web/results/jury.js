// jury.js: what a row judged by a jury says per judge, as data (no DOM): each judge's status (its
// own verdict, or its repeats' majority, with the score threshold applied as to any row), the
// jury's judges named for a person, and a row's judges in a few words for the table. The engine's
// part is batch/juryrow.js; a row's result keeps jury: {rule, members: [{judge, verdict, answers,
// repaired, repeats?, orders?, error?}]}.

import { statusOf } from "./status.js";

/** RULE_WORDS: a jury's rule in the page's words. */
export const RULE_WORDS = Object.freeze({ majority: "majority", all: "all must pass", any: "any passes", mean: "mean score" });

/** STATUS_MARK: a judge's status as one mark, for the table's note. */
const STATUS_MARK = Object.freeze({ passed: "✓", failed: "✗", undetermined: "?", scored: "◆", error: "!", pending: "…" });

/**
 * hostOf is the host of an absolute URL, or the text itself.
 * @param {string} url
 */
function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * judgeLabel names a jury's judge for a person: its model and where it goes (the dev server's
 * upstream by name, or a direct endpoint's host).
 * @param {{via: string, upstream?: string, baseURL?: string, model: string}} j
 * @param {any} [config] the dev server's /ragjudge/config, for the default upstream's name
 */
export function judgeLabel(j, config = null) {
  if (j.via === "direct") return `${j.model} @ ${hostOf(j.baseURL || "")}`;
  const name = j.upstream || (config && config.default_upstream) || "";
  return name ? `${j.model} @ ${name}` : `${j.model} @ dev server`;
}

/**
 * juryNames is the names of a run's judges (its record's settings.judges), [] for a run of one judge.
 * @param {any} settings
 * @returns {string[]}
 */
export function juryNames(settings) {
  const js = settings && Array.isArray(settings.judges) && settings.judges.length > 1 ? settings.judges : [];
  return js.map((/** @type {any} */ j) => judgeLabel(j));
}

/**
 * memberStatus is one judge's status on a row: as statusOf says of a row (its repeats' majority
 * when it judged several times), "error" when its call failed.
 * @param {{verdict: any, error?: any, repeats?: any[]}} m
 * @param {number|null} [threshold]
 */
export function memberStatus(m, threshold = null) {
  return statusOf({ verdict: m.verdict, error: m.error || null, repeats: m.repeats }, threshold);
}

/**
 * juryStatuses is each judge's status on a row judged by a jury, in the judges' order; null for a
 * row without a jury (or not judged yet).
 * @param {any} result
 * @param {number|null} [threshold]
 * @returns {string[] | null}
 */
export function juryStatuses(result, threshold = null) {
  if (!result || !result.jury || !Array.isArray(result.jury.members)) return null;
  return result.jury.members.map((/** @type {any} */ m) => memberStatus(m, threshold));
}

/**
 * juryNote is a row's judges in a few words, a mark each in the judges' order ("judges ✓ ✗ ✓",
 * as a row's repeats are noted); with names, each mark after its judge's name ("a ✓ · b ✗").
 * @param {any} result @param {string[] | null} [names] @param {number|null} [threshold]
 */
export function juryNote(result, names = null, threshold = null) {
  const sts = juryStatuses(result, threshold);
  if (!sts) return "";
  const mark = (/** @type {string} */ st) => STATUS_MARK[/** @type {keyof typeof STATUS_MARK} */ (st)] || "?";
  if (!names) return "judges " + sts.map(mark).join(" ");
  return sts.map((st, j) => `${names[j] || "judge " + (j + 1)} ${mark(st)}`).join(" · ");
}

/**
 * vote is a status as a verdict for the statistics: true, false, null (undetermined or a score
 * without a threshold), undefined (no verdict to compare: an error, not judged yet).
 * @param {string} st
 * @returns {boolean|null|undefined}
 */
export function vote(st) {
  if (st === "passed") return true;
  if (st === "failed") return false;
  if (st === "undetermined" || st === "scored") return null;
  return undefined;
}

/**
 * juryLines is each judge's part of a row as a report lists it: "gpt-4o @ openai: ✗ Not
 * grounded · score 0" and its answers (a judge that failed: why).
 * @param {any} ev the evaluator (its words) @param {any} r a row's result with a jury
 * @param {string[]} names @param {number|null} [threshold]
 * @returns {{label: string, answers: string[]}[]}
 */
export function juryLines(ev, r, names, threshold = null) {
  const w = (ev && ev.words) || {};
  const words = { passed: "✓ " + (w.passed || "Passed"), failed: "✗ " + (w.failed || "Failed"), scored: "◆ Scored", undetermined: "? Undetermined", error: "! Error" };
  return r.jury.members.map((/** @type {any} */ m, /** @type {number} */ j) => {
    const name = names[j] || `Judge ${j + 1}`;
    const st = memberStatus(m, threshold);
    const v = m.verdict || {};
    const score = typeof v.score === "number" && Number.isFinite(v.score) ? ` · score ${Math.round(v.score * 100) / 100}` : "";
    const label = m.error ? `${name}: no answer: ${m.error.message || "failed"}` : `${name}: ${words[/** @type {keyof typeof words} */ (st)] || st}${score}`;
    return { label, answers: (m.answers || []).map(String) };
  });
}
