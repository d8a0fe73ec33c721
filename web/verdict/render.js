// render.js: the verdict views. renderVerdict draws any evaluator's verdict: a large state
// badge (icon, the evaluator's own word, colour) with the number that matters, the view its
// evaluator declares (ev.view: claim cards, a yes/no badge, answers side by side, recall bars;
// a generic view for a view this page does not know), and always the checks. The page knows no
// evaluator by id: words, view and score printing all come from rj.evaluators(). The batch view
// reuses renderVerdict so a row opens the same view as a single evaluation.

import { h, badge, stateOf } from "../lib/dom.js";
import { causeOfChecks, hasCode, isNote } from "../results/causes.js";
import { generic, scoreView, rest } from "./common.js";
import { judgeReasons } from "./words.js";
import { claimsView } from "./claims.js";
import { yesNoView } from "./yesno.js";
import { pairwiseView } from "./pairwise.js";
import { recallView } from "./recall.js";


/** VIEWS maps an evaluator's declared view to the function that draws it. */
const VIEWS = { claims: claimsView, "yes-no": yesNoView, pairwise: pairwiseView, recall: recallView };

/** READER_KINDS: a custom reader's detail names its kind (core/judge CustomDetail): the reader's, not news to a reader of the verdict. */
const READER_KINDS = new Set(["yes-no", "score", "label", "json"]);

function genericView({ head, score, d }) {
  if (score) head.append(score);
  const custom = READER_KINDS.has(d.kind);
  if (!custom) {
    const other = rest(d, ["reason"]);
    return Object.keys(other).length ? generic(other) : null;
  }
  // A custom reader's detail: the word it read, in a sentence; the JSON it read, under a
  // disclosure; its reason is shown as the judge's reason (reasonsView), not again here.
  const parts = [];
  if (typeof d.label === "string" && d.label) parts.push(h("p", { class: "judge-said", dataset: { ref: "judge-said" } }, "The judge said ", h("strong", { text: "“" + d.label + "”" }), "."));
  if (d.fields && typeof d.fields === "object") parts.push(h("details", { class: "judge-fields", dataset: { ref: "judge-fields" } }, h("summary", { text: "The JSON the judge wrote, as read" }), generic(d.fields)));
  const other = rest(d, ["reason", "kind", "label", "fields"]);
  if (Object.keys(other).length) parts.push(generic(other));
  return parts.length ? h("div", {}, parts) : null;
}

/**
 * reasonsView shows the reasoning the judge wrote in its JSON (words.js judgeReasons: a custom
 * reader's reason, fields named reasoning, explanation, …) as prose under the verdict; a report
 * holds the same.
 * @param {{label: string, text: string}[]} list
 */
function reasonsView(list) {
  if (!list.length) return null;
  return h(
    "div",
    { class: "judge-reasons", dataset: { ref: "judge-reasons" } },
    list.map((r) => h("div", { class: "judge-reason" }, h("div", { class: "judge-reason-label", text: r.label }), h("p", { class: "judge-reason-text", text: r.text }))),
  );
}

/** causeOf says in words why a verdict is undetermined. */
export function causeOf(v) {
  const cause = causeOfChecks(v.checks);
  if (cause) return cause;
  if (v.score !== null && v.score !== undefined) return "no pass threshold set";
  return "the judge's answer did not say";
}

/**
 * renderVerdict returns the element showing verdict v (from rj.parse) for evaluator ev (an entry
 * of rj.evaluators()) with inputs (the JS API's shape) and the judge's answer text. rj gives the
 * passages' labels; onLocate(check), when given, is offered for checks that point at a span of
 * the answer.
 * @param {{rj: any, ev: any, inputs: any, v: any, answer?: string, scoreOnly?: boolean, labels?: boolean, onLocate?: (c: any) => void}} args
 */
export function renderVerdict({ rj, ev, inputs, v, answer = "", scoreOnly = false, labels = true, onLocate }) {
  const words = ev.words || { passed: "Passed", failed: "Failed" };
  const d = v.verdict && typeof v.verdict === "object" ? v.verdict : {};
  const head = h("div", { class: "verdict-head" });
  const checks = v.checks || [];
  // scoreOnly: where no pass threshold applies (the calculator), a score without errors is
  // shown as the score alone rather than as "undetermined".
  const hasError = checks.some((c) => c.severity === "error");
  if (!(scoreOnly && v.passed === null && !hasError)) {
    const big = badge(v.passed, { word: v.passed === true ? words.passed : v.passed === false ? words.failed : undefined, cause: causeOf(v), size: "badge-big" });
    big.dataset.ref = "verdict-badge";
    head.append(big);
  }
  // An answer cut short is undetermined whatever it said: no score is shown for it (scoreWords).
  const score = scoreView(ev, v);
  const view = VIEWS[ev.view] || genericView;
  let body = null;
  try {
    body = view({ head, score, d, v, ev, inputs, rj, answer, labels });
  } catch (e) {
    // A detail shape this page does not know yet must not hide the verdict itself.
    body = h("div", {}, h("p", { class: "hint", text: "Details shown as data (" + (e instanceof Error ? e.message : String(e)) + ")." }), generic(d));
  }
  return h(
    "div",
    { class: "verdict " + "v-" + stateOf(v.passed), dataset: { ref: "verdict-view", state: stateOf(v.passed), view: ev.view || "generic" } },
    head,
    checksView(checks, { onLocate }),
    reasonsView(judgeReasons(d)),
    body,
    h("details", { class: "raw-data" }, h("summary", { text: "Verdict as data (JSON)" }), h("pre", { class: "mono", text: JSON.stringify(v, null, 2) })),
  );
}

// FOLLOW_FROM_CUT are the checks that only repeat, unit by unit, that an answer cut short
// lacks its end ("the judge skipped claim c3"); with answer.truncated they are folded away
// under it rather than blaming the judge.
const FOLLOW_FROM_CUT = new Set(["claims.skipped", "claims.missing", "pairwise.no-answer-1", "pairwise.no-answer-2", "recall.no-final"]);

function checkItem(c, onLocate) {
  const error = c.severity === "error";
  const note = isNote(c);
  return h(
    "li",
    { class: "check-" + (error ? "error" : note ? "note" : "warning"), dataset: { code: c.code || "" } },
    h("span", { class: "check-icon", text: error ? "✗ Error" : note ? "ℹ Note" : "⚠ Warning" }),
    " ",
    h("span", { text: c.message }),
    onLocate && !c.input && c.line
      ? [" ", h("button", { type: "button", class: "btn btn-small btn-ghost locate", dataset: { ref: "locate" }, text: "Show in the answer", on: { click: () => onLocate(c) } })]
      : null,
  );
}

/**
 * checksView lists errors and warnings, each with an icon and a word; with onLocate, a check
 * that points at a span of the judge's answer gets a button that shows it there.
 * @param {any[]} checks
 * @param {{onLocate?: (c: any) => void}} [opts]
 */
export function checksView(checks, { onLocate } = {}) {
  if (!checks.length) return h("p", { class: "checks-ok", dataset: { ref: "checks" }, text: "✓ No problems reading the judge's answer." });
  // Only notes (how a right answer was read): no problem, and the notes under it.
  if (checks.every(isNote))
    return h("div", { dataset: { ref: "checks" } }, h("p", { class: "checks-ok", text: "✓ No problems reading the judge's answer." }), h("ul", { class: "checks checks-notes" }, checks.map((c) => checkItem(c, onLocate))));
  const cut = hasCode(checks, "answer.truncated");
  const shown = cut ? checks.filter((c) => !FOLLOW_FROM_CUT.has(c.code)) : checks;
  const folded = checks.length - shown.length;
  return h(
    "div",
    { dataset: { ref: "checks" } },
    h("ul", { class: "checks" }, shown.map((c) => checkItem(c, onLocate))),
    folded
      ? h(
          "details",
          { class: "folded-checks" },
          h("summary", { text: `${folded} more check${folded === 1 ? "" : "s"} that follow from the cut` }),
          h("ul", { class: "checks" }, checks.filter((c) => FOLLOW_FROM_CUT.has(c.code)).map((c) => checkItem(c))),
        )
      : null,
  );
}
