// claims.js: the "claims" view: one card per unit the judge grades (a claim), each with its own
// verdict, the assertions the judge found unsupported and the evidence it leans on, under the
// count of units that passed. An answer cut short shows the units that arrived as such and says
// the rest was cut short (the core's status "cut", counted in counts.cut); it has no score.

import { h, badge, stateOf } from "../lib/dom.js";
import { hasCode } from "../results/causes.js";
import { generic, rest } from "./common.js";

// units lists the graded units: the verdict's own list (the core merges in each claim's text),
// else the inputs' claims as the core numbers them (strings get c1, c2, … by position).
function units(d, inputs) {
  const list = Array.isArray(d) ? d : Array.isArray(d.claims) ? d.claims : null;
  if (list) return list.filter((c) => c && typeof c === "object");
  return (inputs.claims || []).map((c, i) => (typeof c === "string" ? { id: "c" + (i + 1), text: c } : { id: String(c.id || "c" + (i + 1)), text: c.text }));
}

// wasCut reports whether the answer was cut short before unit c's grade arrived: its status
// says so; a verdict read before the core had that status calls it "missing", with no entry.
function wasCut(c, cut) {
  return c.status === "cut" || (cut && c.status === "missing" && !c.line);
}

function passedOf(c) {
  const assertions = c.ungrounded_assertions || [];
  if (c.status === "ungrounded" || c.grounded === false || assertions.length > 0) return false;
  if (c.status === "grounded" || c.grounded === true) return true;
  return null;
}

/** claimsView draws a claims verdict (see the file comment). */
export function claimsView({ head, score, d, v, ev, inputs }) {
  const cut = hasCode(v.checks, "answer.truncated");
  const words = ev.words || { passed: "Passed", failed: "Failed" };
  const evidence = inputs.evidence || [];
  const list = units(d, inputs);
  let arrived = 0;
  const cards = list.map((c) => {
    const id = String(c.id ?? c.claim_id ?? "");
    const lost = wasCut(c, cut);
    const passed = lost || c.status === "missing" ? null : passedOf(c);
    if (!lost) arrived++;
    // A claim with an entry in the answer (it has a line) that has no grade had no grounded value.
    let cause = "the judge skipped this claim";
    if (lost) cause = "the answer was cut short before it";
    else if (passed === null && (c.line || (c.status && c.status !== "missing"))) cause = "no grounded value";
    const assertions = c.ungrounded_assertions || [];
    const ids = Array.isArray(c.evidence_ids) ? c.evidence_ids.map(String) : [];
    return h(
      "li",
      { class: "claim-card v-" + stateOf(passed), dataset: { claim: id, state: stateOf(passed), arrived: String(!lost) } },
      h("div", { class: "claim-top" }, h("span", { class: "chip mono", text: id }), badge(passed, { word: passed === true ? words.passed : passed === false ? words.failed : undefined, cause })),
      h("p", { class: "claim-text", text: c.text ?? "" }),
      assertions.length
        ? h(
            "ul",
            { class: "assertions" },
            assertions.map((a) =>
              h("li", {}, h("q", { class: "assertion", text: typeof a === "string" ? a : a.assertion ?? JSON.stringify(a) }), a && a.reason ? h("div", { class: "reason", text: a.reason }) : null),
            ),
          )
        : null,
      ids.length
        ? h(
            "div",
            { class: "leans" },
            "Evidence it leans on: ",
            ids.map((n) => {
              const e = evidence[Number(n) - 1];
              const title = e && typeof e === "object" && e.title ? " " + e.title : "";
              return h("span", { class: "chip", text: `ID ${n}${title}` });
            }),
          )
        : null,
    );
  });
  if (cut) {
    const unit = (ev.score && ev.score.unit) || "claims";
    const counts = !Array.isArray(d) && d.counts;
    if (counts && typeof counts.cut === "number" && typeof counts.total === "number") arrived = counts.total - counts.cut;
    head.append(
      h(
        "div",
        { class: "cut-note", dataset: { ref: "cut-short" } },
        h("strong", { text: `Cut short: ${arrived} of ${list.length} ${unit} arrived` }),
        "The answer stopped before the rest: no score.",
      ),
    );
  } else if (score) head.append(score);
  const other = Array.isArray(d) ? {} : rest(d, ["claims", "counts"]);
  return h("div", {}, h("ul", { class: "claim-cards" }, cards), Object.keys(other).length ? generic(other) : null);
}
