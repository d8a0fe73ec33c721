// juryview.js: a row judged by a jury, in the row dialog: each judge's verdict (its badge and
// cause, its score, its repeats' note) and its answers, under the jury's verdict.

import { h } from "../lib/dom.js";
import { memberStatus, RULE_WORDS } from "../results/jury.js";
import { causeOf } from "../results/status.js";
import { repeatNote } from "../stats/consistency.js";
import { stateBadge } from "../verdict/statebadge.js";
import { fmtNum } from "../lib/format.js";

/**
 * shownMember is the judge whose answer the row dialog draws: the first that agrees with the
 * jury (juryrow.js juryVerdict shows its verdict), else the first.
 * @param {any} r a row's result with a jury
 */
export function shownMember(r) {
  const ms = r.jury.members;
  return ms.find((/** @type {any} */ m) => m.verdict && r.verdict && m.verdict.passed === r.verdict.passed) || ms[0];
}

/**
 * juryMembers is the row dialog's list of a jury's judges on row r: each one's name, verdict and answers.
 * @param {any} r @param {string[]} names @param {number|null} th @param {any} ev
 * @returns {HTMLElement}
 */
export function juryMembers(r, names, th, ev) {
  const rule = RULE_WORDS[/** @type {keyof typeof RULE_WORDS} */ (r.jury.rule)] || r.jury.rule;
  return h(
    "section",
    { class: "jury-members", dataset: { ref: "batch-row-jury" } },
    h("h3", { class: "sub-title", text: `The jury (${rule})` }),
    r.jury.members.map((/** @type {any} */ m, /** @type {number} */ j) => {
      const st = memberStatus(m, th);
      const score = m.verdict && typeof m.verdict.score === "number" ? fmtNum(m.verdict.score) : "";
      const note = Array.isArray(m.repeats) && m.repeats.length > 1 ? repeatNote({ repeats: m.repeats, verdict: {} }, th) : "";
      return h(
        "div",
        { class: "jury-member", dataset: { ref: "batch-row-judge", judge: String(j), status: st } },
        h("span", { class: "judge-name", text: names[j] || `Judge ${j + 1}` }),
        stateBadge(st, causeOf({ verdict: m.verdict, error: m.error || null }, th), ev),
        score ? h("span", { class: "hint", text: "score " + score }) : null,
        note ? h("span", { class: "hint", text: note }) : null,
        m.error ? h("span", { class: "msg-error", text: m.error.message }) : null,
        m.answers.length
          ? h("details", { class: "raw" }, h("summary", { text: m.answers.length > 1 ? `Its ${m.answers.length} answers` : "Its answer" }), m.answers.map((/** @type {string} */ a) => h("pre", { class: "mono", text: a })))
          : null,
      );
    }),
  );
}
