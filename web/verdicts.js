// verdicts.js: the verdict views. renderVerdict draws any evaluator's verdict: a large state
// badge (icon, word and colour) with the number that matters, a view made for the evaluator when
// one exists (claim cards, a yes/no badge, answers side by side, recall bars), and always the
// checks. Fields it does not know are shown generically rather than dropped. The batch view reuses
// it so a row opens the same view as a single evaluation.

import { h, badge, stateOf } from "./dom.js";

const WORDS = {
  "claim-groundedness": ["Grounded", "Not grounded"],
  "answer-grounding": ["Grounded", "Not grounded"],
  "pairwise-faithfulness": ["Faithful", "Not faithful"],
  "rag-recall": ["Meets threshold", "Below threshold"],
};

/** causeOf says in words why a verdict is undetermined. */
export function causeOf(v) {
  const err = (v.checks || []).find((c) => c.severity === "error");
  if (err) return shortCause(err.message);
  if (v.score !== null && v.score !== undefined) return "no pass threshold set";
  return "the judge's answer did not say";
}

// shortCause turns a check's message into the few words shown after "Undetermined —"; the full
// message is always listed under the badge.
function shortCause(msg) {
  const m = String(msg).replace(/^undetermined:\s*/i, "");
  const rules = [
    [/no passage score|no score/i, "no passage scores in the answer"],
    [/truncat|cut short/i, "answer cut short"],
    [/not measurable/i, "not measurable: the answer says no document answers"],
    [/no grade|skipp|missing/i, "the judge skipped part of it"],
    [/gave no answer_2|not graded/i, "the actual answer was not graded"],
    [/neither yes nor no/i, "the answer is neither yes nor no"],
    [/out of (range|\d)/i, "a score is out of range"],
    [/no json|no (json )?payload|could not (find|read)|cannot be read|unreadable|not (json|valid)|unexpected|stopped reading/i, "answer could not be read"],
  ];
  for (const [re, words] of rules) if (re.test(m)) return words;
  if (m.length <= 60) return m;
  const cut = m.slice(0, 60);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), 40)) + "…";
}

/** fmt prints a number as people read it: at most 2 decimals, no trailing zeros. */
export function fmt(n) {
  if (typeof n !== "number" || !Number.isFinite(n)) return String(n);
  return String(Math.round(n * 100) / 100);
}

/**
 * renderVerdict returns the element showing verdict v (from rj.parse) for evaluator ev with inputs
 * (the JS API's shape) and the judge's answer text. rj is used for the recall recomputation.
 */
export function renderVerdict({ rj, ev, inputs, v, answer, scoreOnly = false, labels = true }) {
  const id = ev.id;
  const [yes, no] = WORDS[id] || ["Passed", "Failed"];
  const d = v.verdict && typeof v.verdict === "object" ? v.verdict : {};
  const head = h("div", { class: "verdict-head" });
  // scoreOnly: where no pass threshold applies (the calculator), a score without errors is
  // shown as the score alone rather than as "undetermined".
  const hasError = (v.checks || []).some((c) => c.severity === "error");
  if (!(scoreOnly && v.passed === null && !hasError)) {
    const big = badge(v.passed, { word: v.passed === true ? yes : v.passed === false ? no : undefined, cause: causeOf(v), size: "badge-big" });
    big.dataset.ref = "verdict-badge";
    head.append(big);
  }
  let body = null;
  try {
    switch (id) {
      case "claim-groundedness":
        body = claimView(head, d, inputs, v);
        break;
      case "answer-grounding":
        body = yesNoView(head, d, inputs, v);
        break;
      case "pairwise-faithfulness":
        body = pairwiseView(head, d, inputs, v);
        break;
      case "rag-recall":
        body = recallView(head, d, inputs, v, rj, answer, labels);
        break;
      default:
        if (v.score !== null && v.score !== undefined) head.append(h("div", { class: "big-number", text: fmt(v.score) }));
        body = generic(d);
    }
  } catch (e) {
    // A detail shape this page does not know yet must not hide the verdict itself.
    body = h("div", {}, h("p", { class: "hint", text: "Details shown as data (" + e.message + ")." }), generic(d));
  }
  return h(
    "div",
    { class: "verdict " + "v-" + stateOf(v.passed), dataset: { ref: "verdict-view", state: stateOf(v.passed), evaluator: id } },
    head,
    checksView(v.checks || []),
    body,
    h("details", { class: "raw-data" }, h("summary", { text: "Verdict as data (JSON)" }), h("pre", { class: "mono", text: JSON.stringify(v, null, 2) })),
  );
}

/** checksView lists errors and warnings, each with an icon and a word. */
export function checksView(checks) {
  if (!checks.length) return h("p", { class: "checks-ok", dataset: { ref: "checks" }, text: "✓ No problems reading the judge's answer." });
  return h(
    "ul",
    { class: "checks", dataset: { ref: "checks" } },
    checks.map((c) =>
      h(
        "li",
        { class: "check-" + (c.severity === "error" ? "error" : "warning") },
        h("span", { class: "check-icon", text: c.severity === "error" ? "✗ Error" : "⚠ Warning", attrs: { "aria-hidden": "false" } }),
        " ",
        h("span", { text: c.message }),
      ),
    ),
  );
}

// ---- claim-groundedness -------------------------------------------------------------------

function claimList(d) {
  if (Array.isArray(d)) return d;
  return d.claims || d.Claims || [];
}

function claimID(c) {
  return String(c.claim_id ?? c.id ?? c.claimId ?? "");
}

// inputClaims lists the claims as the core numbers them: strings get c1, c2, … by position.
function inputClaims(inputs) {
  return (inputs.claims || []).map((c, i) => (typeof c === "string" ? { id: "c" + (i + 1), text: c } : { id: String(c.id || "c" + (i + 1)), text: c.text }));
}

function evidenceIDs(c) {
  const explicit = c.evidence_ids ?? c.evidence ?? c.chunk_ids ?? c.chunks;
  if (Array.isArray(explicit)) return explicit.map(String);
  const ids = new Set();
  const text = JSON.stringify(c.ungrounded_assertions || c.assertions || []);
  for (const m of text.matchAll(/\b(?:ID|chunk|evidence|source)\s*#?:?\s*(\d+)/gi)) ids.add(m[1]);
  return [...ids];
}

function claimView(head, d, inputs, v) {
  const judged = claimList(d);
  const byID = new Map(judged.map((c) => [claimID(c), c]));
  const claims = inputClaims(inputs);
  const evidence = inputs.evidence || [];
  let grounded = 0;
  const cards = claims.map((c) => {
    const j = byID.get(c.id);
    const assertions = (j && (j.ungrounded_assertions || j.assertions)) || [];
    let passed = null;
    let cause = "the judge skipped this claim";
    if (j && j.status !== "missing") {
      const g = j.grounded;
      passed = j.status === "ungrounded" || g === false || assertions.length > 0 ? false : j.status === "grounded" || g === true ? true : null;
      if (passed === null) cause = "no grounded value";
    }
    if (passed === true) grounded++;
    const ids = j ? evidenceIDs(j) : [];
    return h(
      "li",
      { class: "claim-card v-" + stateOf(passed), dataset: { claim: c.id, state: stateOf(passed) } },
      h("div", { class: "claim-top" }, h("span", { class: "chip mono", text: c.id }), badge(passed, { cause })),
      h("p", { class: "claim-text", text: c.text }),
      assertions.length
        ? h(
            "ul",
            { class: "assertions" },
            assertions.map((a) =>
              h(
                "li",
                {},
                h("q", { class: "assertion", text: typeof a === "string" ? a : a.assertion ?? JSON.stringify(a) }),
                a && a.reason ? h("div", { class: "reason", text: a.reason }) : null,
              ),
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
  const extra = judged.filter((c) => !claims.some((x) => x.id === claimID(c)));
  head.append(
    h(
      "div",
      { class: "big-number", dataset: { ref: "score" } },
      h("strong", { text: `${grounded} of ${claims.length}` }),
      ` claim${claims.length === 1 ? "" : "s"} grounded`,
    ),
  );
  return h(
    "div",
    {},
    h("ul", { class: "claim-cards" }, cards),
    extra.length ? h("p", { class: "hint", text: `Ignored: the judge also graded ${extra.map(claimID).join(", ")}, which the inputs do not have.` }) : null,
  );
}

// ---- answer-grounding --------------------------------------------------------------------------

function yesNoView(head, d, inputs, v) {
  const word = String(d.answer ?? d.label ?? (v.passed === true ? "yes" : v.passed === false ? "no" : "")).toLowerCase();
  const mode = d.mode || inputs.mode || "strict";
  head.append(
    h(
      "div",
      { class: "yesno " + (word === "yes" ? "yes" : word === "no" ? "no" : "none"), dataset: { ref: "yesno" } },
      h("span", { class: "yesno-word", text: word === "yes" ? "YES" : word === "no" ? "NO" : "—" }),
      h("span", { class: "yesno-mode", text: `${mode} mode` }),
    ),
  );
  const rest = { ...d };
  delete rest.answer;
  delete rest.mode;
  return Object.keys(rest).length ? generic(rest) : null;
}

// ---- pairwise-faithfulness -------------------------------------------------------------------

function grade(x) {
  if (x === true || x === 1 || x === "1" || x === "true") return true;
  if (x === false || x === 0 || x === "0" || x === "false") return false;
  return null;
}

// citedText renders an answer with its [i] citations marked as in or out of range.
function citedText(text, n) {
  const el = h("p", { class: "answer-text" });
  let pos = 0;
  for (const m of String(text).matchAll(/\[(\d+)\]/g)) {
    if (m.index > pos) el.append(document.createTextNode(text.slice(pos, m.index)));
    const i = Number(m[1]);
    const ok = i >= 1 && i <= n;
    el.append(h("span", { class: "cite " + (ok ? "cite-ok" : "cite-bad"), text: m[0], title: ok ? `Reference ${i}` : `There is no reference ${i}` }));
    pos = m.index + m[0].length;
  }
  if (pos < text.length) el.append(document.createTextNode(text.slice(pos)));
  return el;
}

function sentenceTable(rows) {
  if (!Array.isArray(rows) || !rows.length) return h("p", { class: "hint", text: "The judge gave no sentence-by-sentence analysis." });
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "sentences" },
      h("thead", {}, h("tr", {}, ["Sentence", "1 · cites a source", "2 · right source", "3 · faithful to it"].map((t) => h("th", { scope: "col", text: t })))),
      h(
        "tbody",
        {},
        rows.map((r) =>
          h(
            "tr",
            {},
            h("td", { text: r.sentence ?? "" }),
            h("td", { text: r.criterion_1 ?? "" }),
            h("td", { text: r.criterion_2 ?? "" }),
            h("td", { text: r.criterion_3 ?? "" }),
          ),
        ),
      ),
    ),
  );
}

function citationView(c, nContexts) {
  if (!c) return null;
  const uncited = c.uncited || c.uncited_sentences || c.missing || [];
  const bad = c.out_of_range || c.outOfRange || c.invalid || [];
  const items = [];
  for (const s of uncited) items.push(h("li", { class: "check-warning" }, h("span", { class: "check-icon", text: "⚠ No citation" }), " ", h("span", { text: typeof s === "string" ? s : s.sentence ?? s.text ?? JSON.stringify(s) })));
  for (const b of bad)
    items.push(
      h(
        "li",
        { class: "check-error" },
        h("span", { class: "check-icon", text: "✗ Out of range" }),
        " ",
        h("span", {
          text:
            typeof b === "object"
              ? `[${b.index ?? b.ref ?? b.citation ?? "?"}]${b.sentence ? " in “" + b.sentence + "”" : ""} (references are 1–${nContexts})`
              : `[${b}] (references are 1–${nContexts})`,
        }),
      ),
    );
  const known = new Set(["uncited", "uncited_sentences", "missing", "out_of_range", "outOfRange", "invalid", "sentences"]);
  const rest = Object.fromEntries(Object.entries(c).filter(([k]) => !known.has(k)));
  return h(
    "section",
    { class: "citations", dataset: { ref: "citations" } },
    h("h3", { text: "Citation check (computed, not judged)" }),
    typeof c.sentences === "number" ? h("p", { class: "hint", text: `${c.sentences} sentence${c.sentences === 1 ? "" : "s"} of the actual answer checked for [i] citations.` }) : null,
    items.length ? h("ul", { class: "checks" }, items) : h("p", { class: "checks-ok", text: `✓ Every sentence of the actual answer cites a reference in 1–${nContexts}.` }),
    Object.keys(rest).length ? generic(rest) : null,
  );
}

function pairwiseView(head, d, inputs, v) {
  const n = (inputs.contexts || []).length;
  const a1 = d.answer_1 || d.answer1 || {};
  const a2 = d.answer_2 || d.answer2 || {};
  const side = (title, text, a, key) => {
    const g = grade(a.faithfulness);
    const cause = a.faithfulness === null ? "answer only says no document answers" : "no grade";
    return h(
      "div",
      { class: "side", dataset: { side: key } },
      h("h3", { text: title }),
      badge(Object.keys(a).length ? g : null, { word: g === true ? "Faithful" : g === false ? "Not faithful" : undefined, cause: Object.keys(a).length ? cause : "not graded" }),
      citedText(text || "", n),
      a.faithfulness_justification ? h("p", { class: "reason", text: a.faithfulness_justification }) : null,
    );
  };
  head.append(h("div", { class: "big-number", text: "Actual answer " }, h("strong", { text: v.passed === true ? "faithful" : v.passed === false ? "not faithful" : "not graded" })));
  return h(
    "div",
    {},
    h("div", { class: "sides" }, side("Answer 1 · expected", inputs.expected_output, a1, "1"), side("Answer 2 · actual", inputs.actual_output, a2, "2")),
    citationView(d.citations || d.citation || d.citation_check, n),
    h("details", { class: "sentence-details", open: true }, h("summary", { text: "Answer 2 · sentence by sentence" }), sentenceTable(a2.content_analysis_sentence_by_sentence)),
    h("details", { class: "sentence-details" }, h("summary", { text: "Answer 1 · sentence by sentence" }), sentenceTable(a1.content_analysis_sentence_by_sentence)),
  );
}

// ---- rag-recall ------------------------------------------------------------------------------

function scoresOf(list) {
  if (!Array.isArray(list)) return null;
  return list.map((x) => {
    if (typeof x === "number") return x;
    if (x && typeof x === "object") {
      const v = x.value ?? x.score;
      return v === null || v === undefined ? NaN : Number(v);
    }
    return Number(x);
  });
}

/** judgeLines picks the judge's own formula lines out of its answer, keyed by label. */
export function judgeLines(answer) {
  const out = {};
  for (const line of String(answer || "").split(/\r?\n/)) {
    const m = line.match(/(RECALL_[A-Za-z_]+)\**\s*[:=]\s*\**\s*(.*)$/);
    if (m && m[1] !== "RECALL_Reasoning") out[m[1]] = m[2].replace(/\*+$/, "").trim();
  }
  return out;
}

function lastNumber(s) {
  const m = String(s).match(/(-?\d+(?:\.\d+)?)(?:\s*\**\s*)$/);
  return m ? Number(m[1]) : NaN;
}

/** bars draws one bar per passage score, essential and bonus told apart. */
export function bars(essential, bonus, labels = { essential: [], bonus: [] }, problems = { essential: [], bonus: [] }) {
  const bar = (kind, i, s) => {
    const problem = problems[kind][i];
    const max = 5;
    const pct = Number.isFinite(s) ? Math.max(0, Math.min(1, s / max)) * 100 : 0;
    const label = labels[kind][i];
    return h(
      "li",
      { class: "bar bar-" + kind + (problem ? " bar-bad" : ""), dataset: { kind, index: String(i + 1) } },
      h("span", { class: "bar-label" }, h("strong", { text: `${kind === "essential" ? "Essential" : "Bonus"} ${i + 1}` }), label ? h("span", { class: "bar-passage", text: label }) : null),
      h("span", { class: "bar-track", attrs: { role: "img", "aria-label": Number.isFinite(s) ? `${kind} passage ${i + 1}: ${fmt(s)} of 5` : `${kind} passage ${i + 1}: no readable score` } }, h("span", { class: "bar-fill", style: `width:${pct}%` })),
      h("span", { class: "bar-value", text: Number.isFinite(s) ? `${fmt(s)} / 5` : "?" }),
      problem ? h("span", { class: "bar-problem", text: "✗ " + problem }) : null,
    );
  };
  return h("ul", { class: "bars", dataset: { ref: "bars" } }, essential.map((s, i) => bar("essential", i, s)), bonus.map((s, i) => bar("bonus", i, s)));
}

/** passageLabels gives each passage of a ground truth a short label (its first words). */
export function passageLabels(rj, gt) {
  try {
    const p = rj.passages(gt || "");
    const short = (t) => {
      const s = String(t).replace(/\s+/g, " ").trim();
      return s.length > 70 ? s.slice(0, 67) + "…" : s;
    };
    return { essential: (p.essential || []).map(short), bonus: (p.bonus || []).map(short) };
  } catch {
    return { essential: [], bonus: [] };
  }
}

function recallView(head, d, inputs, v, rj, answer, labels) {
  const essential = scoresOf(d.essential ?? d.essential_scores ?? (d.scores && d.scores.essential));
  const bonus = scoresOf(d.bonus ?? d.bonus_scores ?? (d.scores && d.scores.bonus)) || [];
  let rec = d.recomputed && typeof d.recomputed === "object" ? d.recomputed : null;
  if (!rec && essential && essential.length && [...essential, ...bonus].every(Number.isFinite) && !(v.checks || []).some((c) => c.severity === "error")) {
    try {
      rec = rj.recall({ essential, bonus });
    } catch {
      rec = null;
    }
  }
  const score = v.score ?? null;
  if (score !== null) {
    head.append(
      h(
        "div",
        { class: "big-number", dataset: { ref: "score" } },
        h("strong", { text: `${fmt(score)} / 5` }),
        rec && rec.exact && rec.exact.final ? h("span", { class: "exact", text: `exactly ${rec.exact.final}` }) : null,
      ),
    );
  }
  const threshold = d.threshold ?? inputs.threshold;
  if (threshold !== undefined && threshold !== null) head.append(h("div", { class: "hint", text: `pass threshold ≥ ${threshold}` }));
  const parts = [];
  if (d.expected && typeof d.expected === "object") {
    const ex = d.expected;
    parts.push(h("p", { class: "hint", text: `The ground truth has ${ex.essential ?? ex.Essential} essential and ${ex.bonus ?? ex.Bonus} bonus passages; the judge owes a score for each.` }));
  }
  if (essential && (essential.length || bonus.length)) {
    parts.push(bars(essential, bonus, labels ? passageLabels(rj, inputs.passage_gt) : undefined, problemsOf(d)));
  }
  if (Array.isArray(d.lines) && d.lines.length && typeof d.lines[0] === "object") parts.push(lineTable(d.lines));
  else if (rec) parts.push(compareLines(rec.lines || [], judgeLines(answer)));
  const known = new Set(["essential", "bonus", "essential_scores", "bonus_scores", "scores", "lines", "recomputed", "exact", "expected", "stated", "threshold"]);
  const rest = Object.fromEntries(Object.entries(d).filter(([k]) => !known.has(k)));
  if (Object.keys(rest).length) parts.push(generic(rest));
  return h("div", {}, parts);
}

// problemsOf collects what the core said about individual scores ("out of range 1–5", …).
function problemsOf(d) {
  const out = { essential: [], bonus: [] };
  for (const kind of ["essential", "bonus"]) {
    for (const [i, x] of (Array.isArray(d[kind]) ? d[kind] : []).entries()) {
      if (x && typeof x === "object" && x.problem) out[kind][i] = x.problem;
    }
  }
  return out;
}

// lineTable shows the core's line-by-line comparison: the recomputed seed-format line beside
// what the judge stated, with match true/false/null.
function lineTable(lines) {
  const strip = (s, label) => (typeof s === "string" ? s.replace(new RegExp("^\\s*" + label + "\\s*:\\s*"), "") : s);
  const rows = lines.map((l) => {
    const label = String(l.label || "");
    const state = l.match === true ? "same" : l.match === false ? "differs" : "none";
    return h(
      "tr",
      { class: "line-" + state, dataset: { label, state } },
      h("th", { scope: "row", class: "mono", text: label.replace(/^RECALL_/, "") || "—" }),
      h("td", { class: "mono", text: l.recomputed === null || l.recomputed === undefined ? "(undetermined)" : strip(l.recomputed, label) }),
      h("td", { class: "mono", text: l.stated === null || l.stated === undefined ? "(not stated)" : strip(l.stated, label) }),
      h("td", { class: "line-state", text: state === "same" ? "✓ agrees" : state === "differs" ? "✗ differs" : "–" }),
    );
  });
  return formulaSection(rows);
}

function formulaSection(rows) {
  return h(
    "section",
    { class: "formula", dataset: { ref: "formula" } },
    h("h3", { text: "The arithmetic: recomputed exactly, against the judge's" }),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "lines" },
        h("thead", {}, h("tr", {}, ["Line", "Recomputed", "Judge wrote", ""].map((t) => h("th", { scope: "col", text: t })))),
        h("tbody", {}, rows),
      ),
    ),
  );
}

// compareLines sets the recomputed formula lines beside the judge's own, marking differences.
function compareLines(lines, judged) {
  const rows = lines.map((line) => {
    const m = line.match(/^(RECALL_[A-Za-z_]+):\s*(.*)$/);
    const label = m ? m[1] : "";
    const ours = m ? m[2] : line;
    const theirs = label ? judged[label] : undefined;
    let state = "none";
    if (theirs !== undefined) {
      const a = lastNumber(ours);
      const b = lastNumber(theirs);
      state = Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) < 0.006 ? "same" : "differs";
    }
    return h(
      "tr",
      { class: "line-" + state, dataset: { label, state } },
      h("th", { scope: "row", class: "mono", text: label.replace(/^RECALL_/, "") || "—" }),
      h("td", { class: "mono", text: ours }),
      h("td", { class: "mono", text: theirs ?? "(not stated)" }),
      h("td", { class: "line-state", text: state === "same" ? "✓ agrees" : state === "differs" ? "✗ differs" : "–" }),
    );
  });
  return formulaSection(rows);
}

// ---- generic ---------------------------------------------------------------------------------

/** generic shows any JSON value as nested lists, all text via textContent. */
export function generic(x, depth = 0) {
  if (x === null || x === undefined) return h("span", { class: "mono", text: "null" });
  if (typeof x !== "object") return h("span", { text: String(x) });
  if (depth > 6) return h("span", { class: "mono", text: JSON.stringify(x) });
  if (Array.isArray(x)) return h("ol", { class: "generic" }, x.map((e) => h("li", {}, generic(e, depth + 1))));
  return h(
    "dl",
    { class: "generic" },
    Object.entries(x).flatMap(([k, val]) => [h("dt", { text: k.replace(/_/g, " ") }), h("dd", {}, generic(val, depth + 1))]),
  );
}
