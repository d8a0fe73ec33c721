// data.js: what a report holds, as plain data: gathered from a batch run or from one evaluation,
// then drawn by the sections (sections.js) into a self-contained HTML file (build.js). Pure: no
// DOM, Node tests cover it. What goes in is chosen field by field, never copied wholesale from the
// page's settings or the run's record: a key, an endpoint's address (which may carry a user, a
// password or a `?api-key=`) and request headers never reach a report.

import { causeOf, reasonOf, judgedInput, statusOf } from "../results/status.js";
import { repeatNote } from "../stats/consistency.js";
import { scoreWords, judgeReasons } from "../verdict/words.js";
import { ORDER_WORDS } from "../checkup/position.js";
import { summaryCards } from "../results/summarywords.js";
import { juryNames, juryNote, juryLines } from "../results/jury.js";

/** REPORT_FORMAT is the version of ReportData's shape. */
export const REPORT_FORMAT = 1;

/**
 * @typedef {Object} ReportRow one row (or the one evaluation) as a report shows it
 * @property {number} n 1-based row number
 * @property {string} status statusOf's: passed, failed, scored, undetermined, error, pending
 * @property {string|null} cause why it is undetermined or an error, in a few words
 * @property {number|null} score
 * @property {import("../verdict/words.js").ScoreWords|null} scoreText the score as the page writes it ("2 of 3" "claims grounded", "4 / 5"; words.js scoreWords), null where the page shows none
 * @property {string} note the sentence behind the cause, or what else is worth saying
 * @property {string} text the input the verdict is about (its judged input), for the row's line
 * @property {{name: string, label: string, value: any}[]} inputs every input, in the evaluator's order
 * @property {string[]} answers the judge's raw answers (the first, and after a repair request the corrected one);
 *   for a row judged several times, [] and its answers are in repeats
 * @property {{label: string, answers: string[]}[]} repeats each repeat of a row judged several times, with its verdict in words
 * @property {{severity: string, code: string, message: string}[]} checks
 * @property {Reason[]} reasons what the judge said about each part, when its verdict has parts
 * @property {string} usage calls and tokens, in words ("" when not known)
 * @property {string|null} [label] the human label in words ("✓ Grounded", "4", "no label"), for a run with a label column
 * @property {boolean|null} [agrees] whether the judge agrees with it (null: no label, no verdict, or a numeric label)
 * @property {boolean} [split] judged several times, its repeats did not all give the same verdict
 * @property {{detail: any, max: number, labels: {essential: string[], bonus: string[]}|null}|null} [recall] a recall verdict's
 *   detail, for its figures as the page draws them (verdict/recall.js recallFigures: the passage bars, the recomputed formula
 *   against the judge's lines), with its scale's maximum and its passages' first words when known
 */

/**
 * @typedef {Object} RowLabels a run's human labels, per row (stats/labels.js readLabels and
 *   stats/agreement.js rowAgreement)
 * @property {string} column
 * @property {"boolean"|"number"|null} kind
 * @property {any[]} values by row index: true, false, a number, or null
 * @property {(boolean|null)[]} agrees by row index
 */

/**
 * @typedef {Object} Reason
 * @property {string} label e.g. "Claim c2"
 * @property {"pass"|"fail"|"undetermined"|""} state
 * @property {string} text e.g. the claim, or the judge's justification
 * @property {string[]} notes e.g. each ungrounded assertion with its reason
 */

/**
 * @typedef {Object} ReportData
 * @property {number} format REPORT_FORMAT
 * @property {"batch"|"single"} kind
 * @property {string} title
 * @property {string} generatedAt ISO time
 * @property {string} version ragjudge's version
 * @property {{name: string, rows: number} | null} dataset
 * @property {{id: string, title: string, description: string, dialect: string, custom: boolean, words: {passed: string, failed: string}, template: string|null}} evaluator
 *   template: a custom evaluator's own prompt template(s); null for a built-in, whose prompt is the version's
 * @property {string|null} prompt the prompt as the judge received it (the evaluation's, or a batch's first row's): the last user message
 * @property {{role: string, content: string}[]|null} [messages] every message the judge received with it (a system message), in order, when there is more than the prompt
 * @property {string} model
 * @property {string} where where the calls went, as the page says it, host only
 * @property {Object<string, number|boolean|string>} params model parameters (temperature, max tokens, …)
 * @property {{state: string, startedAt: string, total: number, done: number, threshold: number|null, repeats: number} | null} run
 * @property {{cards: import("../results/summarywords.js").SummaryCard[], histogram: any, causes: {cause: string, count: number}[]} | null} summary
 * @property {Object<string, any>} panels trust panels' data by name ("checkup", "agreement", "consistency", "position"), where the run has it
 * @property {string|null} [labelColumn] the run's human label column, when it has one (rows carry label and agrees)
 * @property {ReportRow[]} rows
 */

/**
 * scrubWhere keeps of a "where calls go" label only what names the host: no user, password, path
 * or query (a label is "via dev server → api.openai.com" or "direct → host", but a base URL typed
 * by hand could have slipped one in).
 * @param {string} where
 */
export function scrubWhere(where) {
  return String(where || "")
    .replace(/[a-z][\w+.-]*:\/\/[^\s]*/gi, (u) => {
      try {
        return new URL(u).host;
      } catch {
        return "";
      }
    })
    .replace(/[^\s@]*@/g, "")
    .replace(/[?#].*$/, "")
    .slice(0, 200);
}

/** PARAMS are the model parameters a report may show, each a number, a boolean or a short word. */
const PARAMS = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "seed", "reasoning_effort", "stream"];

/**
 * safeParams keeps of params only the known model parameters with plain values.
 * @param {any} params
 * @returns {Object<string, number|boolean|string>}
 */
export function safeParams(params) {
  /** @type {Object<string, number|boolean|string>} */
  const out = {};
  if (!params || typeof params !== "object") return out;
  for (const k of PARAMS) {
    const v = params[k];
    if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
    else if (typeof v === "boolean") out[k] = v;
    else if (typeof v === "string" && /^[\w.-]{1,20}$/.test(v)) out[k] = v;
  }
  return out;
}

/**
 * evaluatorInfo is what a report says about an evaluator (rj.evaluators()'s entry; a custom one
 * carries `custom` and its definition in `spec`).
 * @param {any} ev
 */
export function evaluatorInfo(ev) {
  const spec = ev && ev.spec && typeof ev.spec === "object" ? ev.spec : null;
  let template = null;
  if (spec) {
    if (typeof spec.prompt === "string") template = spec.prompt;
    else if (Array.isArray(spec.messages)) template = spec.messages.map((m) => `[${m && m.role}]\n${m && m.content}`).join("\n\n");
  }
  return {
    // A definition's own id: a run's recorded one and a share link's are defined under stand-in ids.
    id: String((spec && typeof spec.id === "string" && spec.id) || ev.id),
    title: String(ev.title || ev.id),
    description: String(ev.description || ""),
    dialect: String(ev.dialect || ""),
    custom: !!(ev.custom || spec),
    words: { passed: (ev.words && ev.words.passed) || "Passed", failed: (ev.words && ev.words.failed) || "Failed" },
    template,
  };
}

const STATE_OF = (/** @type {any} */ b) => (b === true ? "pass" : b === false ? "fail" : "undetermined");

/**
 * reasonsOf is what the judge said about each part of its verdict, for the views that have parts
 * (claims, the two answers of a pairwise verdict, the recall's formula lines), then the reasoning
 * it wrote in its JSON as the verdict view shows it (words.js judgeReasons: a custom reader's
 * reason, fields named reasoning, explanation, …); [] where the raw answer says it all.
 * @param {string} view the evaluator's declared view
 * @param {any} d the verdict's detail (rj.parse's `verdict`)
 * @returns {Reason[]}
 */
export function reasonsOf(view, d) {
  if (!d || typeof d !== "object") return [];
  return [...partReasons(view, d), ...judgeReasons(d).map((r) => ({ label: r.label, state: /** @type {""} */ (""), text: r.text, notes: [] }))];
}

/**
 * partReasons is reasonsOf's part for the views that have parts.
 * @param {string} view
 * @param {any} d
 * @returns {Reason[]}
 */
function partReasons(view, d) {
  const str = (/** @type {any} */ x) => (typeof x === "string" ? x : x === undefined || x === null ? "" : JSON.stringify(x));
  if (Array.isArray(d.claims)) {
    return d.claims.map((/** @type {any} */ c) => ({
      label: "Claim " + str(c.id),
      state: c.status === "grounded" || c.grounded === true ? "pass" : c.status === "ungrounded" || c.grounded === false ? "fail" : "undetermined",
      text: str(c.text),
      notes: (Array.isArray(c.ungrounded_assertions) ? c.ungrounded_assertions : []).map((/** @type {any} */ a) => (a && a.reason ? `${str(a.assertion)}: ${str(a.reason)}` : str(a && a.assertion))),
    }));
  }
  if (view === "pairwise" || d.answer_1 || d.answer_2) {
    return [
      ["answer_1", "Expected answer"],
      ["answer_2", "Actual answer"],
    ]
      .filter(([k]) => d[k] && typeof d[k] === "object")
      .map(([k, label]) => ({ label, state: STATE_OF(d[k].faithfulness), text: str(d[k].faithfulness_justification), notes: [] }));
  }
  // A recall verdict's parts are its figures (ReportRow.recall): the bars and the formula's lines.
  return [];
}

/**
 * usageText says a row's calls and tokens in words.
 * @param {any} r a RowResult
 */
function usageText(r) {
  if (!r || !r.usage) return "";
  const calls = r.calls || 0;
  return `${calls} call${calls === 1 ? "" : "s"}, ${r.cachedCalls || 0} from cache, ${r.usage.prompt_tokens || 0} + ${r.usage.completion_tokens || 0} tokens`;
}

/**
 * inputList is a row's inputs in the evaluator's order (then any others), each with its label.
 * @param {any} ev
 * @param {any} inputs
 */
function inputList(ev, inputs) {
  if (!inputs || typeof inputs !== "object") return [];
  const declared = (ev.inputs || []).filter((/** @type {any} */ i) => i && i.name in inputs);
  const names = new Set(declared.map((/** @type {any} */ i) => i.name));
  return [
    ...declared.map((/** @type {any} */ i) => ({ name: i.name, label: i.label || i.name, value: inputs[i.name] })),
    ...Object.keys(inputs)
      .filter((k) => !names.has(k))
      .map((k) => ({ name: k, label: k, value: inputs[k] })),
  ];
}

/**
 * firstText is the text a row's line shows: its judged input, else its first text input.
 * @param {any} ev
 * @param {any} inputs
 */
function firstText(ev, inputs) {
  if (!inputs || typeof inputs !== "object") return "";
  const judged = judgedInput(ev);
  if (judged && typeof inputs[judged] === "string" && inputs[judged]) return inputs[judged];
  for (const i of ev.inputs || []) if (typeof inputs[i.name] === "string" && inputs[i.name]) return inputs[i.name];
  return "";
}

/**
 * repeatLabel says one repeat's verdict: "Repeat 2 of 3: ✗ Not grounded · score 0".
 * @param {any} ev
 * @param {any} rep {verdict, answers, repaired}
 * @param {number} k
 * @param {number} n
 * @param {number|null} threshold
 */
function repeatLabel(ev, rep, k, n, threshold) {
  if (rep.error) return `Repeat ${k + 1} of ${n}: no answer: ${rep.error.message || "failed"}`;
  const st = statusOf({ verdict: rep.verdict, error: null }, threshold);
  const words = { passed: "✓ " + ((ev.words && ev.words.passed) || "Passed"), failed: "✗ " + ((ev.words && ev.words.failed) || "Failed"), scored: "◆ Scored", undetermined: "? Undetermined" };
  const v = rep.verdict || {};
  const score = typeof v.score === "number" && Number.isFinite(v.score) ? ` · score ${Math.round(v.score * 100) / 100}` : "";
  return `Repeat ${k + 1} of ${n}: ${words[/** @type {keyof typeof words} */ (st)] || st}${score}` + (rep.repaired ? " (after one repair request)" : "");
}

/**
 * rowOf is row index of a run (or the one evaluation) as a report shows it.
 * @param {any} ev
 * @param {any} item the row as mapped ({inputs} or {error})
 * @param {any} r its RowResult, or undefined when not run
 * @param {string} status statusOf's
 * @param {number|null} threshold
 * @param {number} index
 * @param {string[]} [names] a jury's judges (results/jury.js juryNames): each one's verdict is listed as a repeat's is
 * @param {{essential: string[], bonus: string[]}|null} [passageLabels] a recall verdict's passages' first words
 * @returns {ReportRow}
 */
export function rowOf(ev, item, r, status, threshold, index, names = [], passageLabels = null) {
  const v = r && !r.error ? r.verdict || {} : null;
  let note = "";
  if (r) note = status === "undetermined" || status === "error" ? reasonOf(r) : r.repaired ? "repaired after one correction request" : "";
  else if (item && item.error) note = String(item.error);
  else note = "not judged yet";
  const reps = r && Array.isArray(r.repeats) && r.repeats.length > 1 ? r.repeats : null;
  // A row judged in both orders shows each order's answers, as a repeat's are shown.
  const orders = r && !reps && Array.isArray(r.orders) && r.orders.length === 2 ? r.orders : null;
  if (reps && !note) note = repeatNote(r, threshold);
  const jury = r && r.jury ? juryLines(ev, r, names, threshold) : null;
  if (jury) note = juryNote(r, null, threshold) + (note ? " · " + note : "");
  return {
    n: index + 1,
    status,
    cause: r ? causeOf(r, threshold) : null,
    score: v && typeof v.score === "number" && Number.isFinite(v.score) ? v.score : null,
    scoreText: v ? scoreWords(ev, v) : null,
    note,
    text: item ? firstText(ev, item.inputs) : "",
    inputs: item ? inputList(ev, item.inputs) : [],
    answers: r && Array.isArray(r.answers) && !reps && !orders && !jury ? r.answers.map(String) : [],
    repeats: jury
      ? jury
      : reps
      ? reps.map((/** @type {any} */ x, /** @type {number} */ k) => ({ label: repeatLabel(ev, x, k, reps.length, threshold), answers: (x.answers || []).map(String) }))
      : orders
      ? orders.map((/** @type {any} */ o, /** @type {number} */ k) => ({ label: `The judge's answer, ${ORDER_WORDS[k]}` + (o.error ? `: no answer: ${o.error.message || "failed"}` : ""), answers: (o.answers || []).map(String) }))
      : [],
    checks: v && Array.isArray(v.checks) ? v.checks.map((/** @type {any} */ c) => ({ severity: String(c.severity), code: String(c.code || ""), message: String(c.message) })) : [],
    reasons: v ? reasonsOf(ev.view, v.verdict) : [],
    usage: usageText(r),
    recall: ev.view === "recall" && v && v.verdict && typeof v.verdict === "object" ? { detail: v.verdict, max: (ev.score && ev.score.max) || 5, labels: passageLabels } : null,
  };
}

/**
 * batchReportData gathers a batch run's report: its record, evaluator, rows, results and counts
 * (the run controller's OpenRun and RunCounts), and what only the page knows (the version, the
 * first row's prompt, the trust panels' data).
 * @param {Object} a
 * @param {any} a.run the run's record
 * @param {any} a.ev its evaluator
 * @param {any[]} a.items its rows as mapped
 * @param {Array<any>} a.results by row index
 * @param {import("../results/counts.js").RunCounts} a.counts
 * @param {string} a.state the run's state (done, paused, cancelled, …)
 * @param {number|null} [a.threshold]
 * @param {string} [a.version]
 * @param {string|null} [a.prompt] the first row's prompt as rendered
 * @param {{role: string, content: string}[]|null} [a.messages] and its messages
 * @param {Object<string, any>} [a.panels]
 * @param {RowLabels|null} [a.labels] the run's human labels, when it has a label column
 * @param {Date} [a.now]
 * @returns {ReportData}
 */
export function batchReportData({ run, ev, items, results, counts, state, threshold = null, version = "", prompt = null, messages = null, panels = {}, labels = null, now = new Date() }) {
  const settings = run.settings || {};
  const repeats = Number(settings.repeats) > 1 ? Number(settings.repeats) : 1;
  const names = juryNames(settings);
  const rows = [];
  for (let i = 0; i < run.total; i++) {
    const row = rowOf(ev, items[i], results[i], counts.status[i] || "pending", threshold, i, names);
    if (labels && labels.kind) {
      row.label = labelText(ev, labels.kind, labels.values[i]);
      row.agrees = typeof labels.agrees[i] === "boolean" ? labels.agrees[i] : null;
    }
    if (repeats > 1) row.split = !!(counts.split && counts.split.has(i));
    rows.push(row);
  }
  return {
    format: REPORT_FORMAT,
    kind: "batch",
    title: `${run.name} · ${ev.title || ev.id}`,
    generatedAt: now.toISOString(),
    version: String(version || ""),
    dataset: { name: String(run.name), rows: run.total },
    evaluator: evaluatorInfo(run.evaluatorSpec ? { ...ev, spec: run.evaluatorSpec } : ev),
    prompt,
    messages: messageList(messages),
    model: names.length ? `a jury of ${names.length}: ${names.join(", ")}` : String(settings.model || ""),
    where: scrubWhere(settings.where),
    params: safeParams(settings.params),
    run: { state: String(state || ""), startedAt: new Date(run.createdAt).toISOString(), total: run.total, done: counts.done, threshold, repeats },
    // A check-up's pass rate mixes cases built to pass with cases built to fail: its chart (panels.checkup) says what matters.
    summary: run.checkup ? null : { cards: summaryCards(counts, repeats), histogram: counts.scored ? counts.histogram : null, causes: counts.causes },
    panels: panels || {},
    labelColumn: labels && labels.kind ? String(labels.column) : null,
    rows,
  };
}

/**
 * labelText is a human label in words: a boolean in the evaluator's words, a number as written.
 * @param {any} ev
 * @param {"boolean"|"number"} kind
 * @param {any} v
 */
export function labelText(ev, kind, v) {
  if (v === null || v === undefined) return "no label";
  if (kind === "number") return typeof v === "number" ? String(Math.round(v * 1000) / 1000) : "no label";
  const w = (ev && ev.words) || {};
  return v === true ? "✓ " + (w.passed || "Passed") : v === false ? "✗ " + (w.failed || "Failed") : "no label";
}

/**
 * singleReportData gathers one evaluation's report: the evaluator, the inputs, the judge's answer
 * and the verdict rj.parse read from it, the prompt as rendered, and the model that answered.
 * @param {Object} a
 * @param {any} a.ev
 * @param {any} a.inputs the JS API's inputs
 * @param {string} a.answer
 * @param {any} a.verdict rj.parse's result
 * @param {string|null} [a.prompt] the prompt (the last user message)
 * @param {{role: string, content: string}[]|null} [a.messages] every message the judge got (rj.render's messages)
 * @param {string} [a.model]
 * @param {string} [a.where]
 * @param {any} [a.params]
 * @param {string} [a.version]
 * @param {{essential: string[], bonus: string[]}|null} [a.passageLabels] a recall verdict's passages' first words (verdict/recall.js passageLabels)
 * @param {Date} [a.now]
 * @returns {ReportData}
 */
export function singleReportData({ ev, inputs, answer, verdict, prompt = null, messages = null, model = "", where = "", params = null, version = "", now = new Date(), passageLabels = null }) {
  const status = verdict.passed === true ? "passed" : verdict.passed === false ? "failed" : typeof verdict.score === "number" && !(verdict.checks || []).some((/** @type {any} */ c) => c.severity === "error") ? "scored" : "undetermined";
  const r = { verdict, answers: [answer], error: null };
  return {
    format: REPORT_FORMAT,
    kind: "single",
    title: `${ev.title || ev.id} · one evaluation`,
    generatedAt: now.toISOString(),
    version: String(version || ""),
    dataset: null,
    evaluator: evaluatorInfo(ev),
    prompt,
    messages: messageList(messages),
    model: String(model || ""),
    where: scrubWhere(where),
    params: safeParams(params),
    run: null,
    summary: null,
    panels: {},
    rows: [rowOf(ev, { inputs }, r, status, null, 0, [], passageLabels)],
  };
}

/**
 * messageList keeps of a render's messages their roles and texts, when there is more than the one
 * prompt (a system message, an exchange before it); null otherwise, where the prompt says it all.
 * @param {any} messages
 * @returns {{role: string, content: string}[]|null}
 */
export function messageList(messages) {
  if (!Array.isArray(messages) || messages.length < 2) return null;
  return messages.filter((m) => m && typeof m === "object").map((m) => ({ role: String(m.role || ""), content: String(m.content ?? "") }));
}
