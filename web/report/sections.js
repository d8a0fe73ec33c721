// sections.js: a report's sections, each a pure builder `(doc, data) => Element | null` that draws
// one part of a ReportData (data.js) in the document it is given, a detached one when a report is
// built (build.js). Text, all of it untrusted (dataset names, inputs, judge answers), is only ever
// set with textContent or setAttribute, never parsed as markup; serializing the document escapes it.
//
// SECTIONS is the report, in order. The trust panels (a check-up's chart, agreement with human
// labels, repeat consistency, position bias in both orders) are drawn by the builders in PANELS,
// by the key of data.panels they draw: a run that has that data gets the panel, any other gets none.

import { histogramSVG } from "../stats/histogram.js";
import { agreementPanel } from "../stats/agreementpanel.js";
import { juryPanel } from "../stats/jury.js";
import { consistencyPanel } from "../stats/consistency.js";
import { checkupPanel } from "../checkup/chart.js";
import { caseDetail } from "../checkup/casedetail.js";
import { positionPanel } from "../checkup/position.js";
import { causesList } from "../stats/figures.js";
import { wordFor, stateBadge } from "../verdict/statebadge.js";
import { recallFigures } from "../verdict/recall.js";
import { fmtInt, fmtNum, clip, cellText } from "../lib/format.js";
import { hIn } from "../lib/dom.js";
import { isNote } from "../results/causes.js";

/** @typedef {import("./data.js").ReportData} ReportData */
/** @typedef {(doc: Document, data: ReportData) => Element | null} Section */

/** dateText writes an ISO time as people read it, in UTC so the file says the same everywhere. */
function dateText(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().replace("T", " ").replace(/:\d\d\.\d+Z$/, " UTC");
}

/** @type {Section} */
export function headerSection(doc, data) {
  const ev = data.evaluator;
  const facts = [
    ["Dataset", data.dataset ? `${data.dataset.name} (${fmtInt(data.dataset.rows)} rows)` : "one evaluation"],
    ["Evaluator", `${ev.title} (${ev.id}${ev.custom ? ", custom" : ", built-in"})`],
    ["Model", data.model ? data.model + (data.where ? ` (${data.where})` : "") : data.where || "not recorded"],
    ["Parameters", Object.entries(data.params).map(([k, v]) => `${k} ${v}`).join(", ") || "–"],
    data.run ? ["Run", `started ${dateText(data.run.startedAt)} · ${runWords(data.run)}`] : null,
    ["Report", `made ${dateText(data.generatedAt)} with ragjudge ${data.version || "(version unknown)"}`],
  ].filter((x) => x !== null);
  return hIn(
    doc,
    "header",
    { class: "rp-header", dataset: { ref: "report-header" } },
    hIn(doc, "p", { class: "rp-brand" }, hIn(doc, "span", { class: "logo", text: "⚖", attrs: { "aria-hidden": "true" } }), " ragjudge report"),
    hIn(doc, "h1", { class: "rp-title", text: data.title }),
    ev.description ? hIn(doc, "p", { class: "desc", text: ev.description }) : null,
    hIn(doc, "dl", { class: "rp-facts" }, facts.map(([k, v]) => [hIn(doc, "dt", { text: k }), hIn(doc, "dd", { text: v })])),
  );
}

/**
 * runWords says how far a run got.
 * @param {NonNullable<ReportData["run"]>} run
 */
function runWords(run) {
  const of = `${fmtInt(run.done)} of ${fmtInt(run.total)} rows judged`;
  const th = (run.threshold !== null ? ` · pass when score ≥ ${fmtNum(run.threshold)}` : "") + (run.repeats > 1 ? ` · each row judged ${run.repeats} times, its verdict the majority` : "");
  if (run.state === "done") return "finished, " + of + th;
  if (run.state === "paused" || run.state === "held") return "paused, " + of + th;
  if (run.state === "cancelled") return "cancelled, " + of + th;
  return (run.state || "unfinished") + ", " + of + th;
}

/**
 * promptSection shows the judge's prompt near the top of a batch run's report (a collapsed sample
 * above a thousand rows); promptBelowSection shows it under the verdict of one evaluation, which
 * a reader wants first.
 * @type {Section}
 */
export function promptSection(doc, data) {
  return data.kind === "single" ? null : promptCard(doc, data);
}

/** @type {Section} */
export function promptBelowSection(doc, data) {
  return data.kind === "single" ? promptCard(doc, data) : null;
}

/** @type {Section} */
function promptCard(doc, data) {
  const ev = data.evaluator;
  if (!ev.template && !data.prompt) return null;
  return hIn(
    doc,
    "section",
    { class: "card rp-prompt", dataset: { ref: "report-prompt" } },
    hIn(doc, "h2", { class: "card-title", text: "The judge's prompt" }),
    ev.template
      ? hIn(doc, "details", { attrs: { open: true } }, hIn(doc, "summary", { text: `Template (${ev.dialect || "template"}), as this custom evaluator defines it` }), hIn(doc, "pre", { class: "mono rp-pre rp-scroll", text: ev.template, attrs: { tabindex: 0 } }))
      : hIn(doc, "p", { class: "hint", text: `The built-in prompt "${ev.id}" of ragjudge ${data.version}, in ${ev.dialect === "format" ? "Python str.format" : "Jinja"}.` }),
    data.prompt
      ? hIn(
          doc,
          "details",
          { attrs: { open: data.kind === "single" } },
          hIn(doc, "summary", { text: data.kind === "single" ? "The prompt as the judge received it" : "The prompt as the judge received it for row 1" }),
          // Every message the judge got, each under its role, where there is more than the prompt.
          data.messages && data.messages.length > 1
            ? data.messages.map((m) => hIn(doc, "div", { class: "rp-msg", dataset: { ref: "report-message", role: m.role } }, hIn(doc, "div", { class: "prompt-role", text: m.role }), hIn(doc, "pre", { class: "mono rp-pre rp-scroll", text: m.content, attrs: { tabindex: 0 } })))
            : hIn(doc, "pre", { class: "mono rp-pre rp-scroll", text: data.prompt, attrs: { tabindex: 0 } }),
        )
      : null,
  );
}

/** @type {Section} */
export function summarySection(doc, data) {
  const s = data.summary;
  if (!s) return null;
  return hIn(
    doc,
    "section",
    { class: "card rp-summary", dataset: { ref: "report-summary" } },
    hIn(doc, "h2", { class: "card-title", text: "Summary" }),
    hIn(doc, "div", { class: "stats" }, s.cards.map((c) => hIn(doc, "div", { class: "stat", dataset: { ref: c.ref } }, hIn(doc, "div", { class: "stat-value", text: c.value }), hIn(doc, "div", { class: "stat-label", text: c.label }), hIn(doc, "div", { class: "hint", text: c.sub })))),
    hIn(
      doc,
      "div",
      { class: "summary-row" },
      hIn(doc, "div", { class: "summary-block" }, hIn(doc, "h3", { class: "sub-title", text: "Score histogram" }), s.histogram ? histogramSVG(s.histogram, { doc }) : hIn(doc, "p", { class: "hint", text: "No scores." })),
      hIn(doc, "div", { class: "summary-block" }, hIn(doc, "h3", { class: "sub-title", text: "Undetermined and errors, by cause" }), causesList(doc, s.causes)),
    ),
  );
}

/**
 * PANELS draw the trust panels, by the key of data.panels each draws: a builder (doc, panelData)
 * => Element, the same the Batch view draws its panels with (web/stats/): agreement with human
 * labels (stats/agreement.js agreementData's data) and consistency over repeats
 * (stats/consistency.js consistencyData's). A key without a builder is left out.
 * @type {Map<string, (doc: Document, panel: any) => Element | null>}
 */
export const PANELS = new Map(
  /** @type {[string, (doc: Document, panel: any) => Element | null][]} */ ([
    ["checkup", (doc, d) => checkupPanel(doc, d, { caseDetail })],
    ["agreement", agreementPanel],
    ["consistency", consistencyPanel],
    ["position", positionPanel],
    ["jury", juryPanel],
  ]),
);

/** @type {Section} */
export function panelsSection(doc, data) {
  const drawn = [];
  for (const [name, panel] of Object.entries(data.panels || {})) {
    const build = PANELS.get(name);
    if (!build || panel === null || panel === undefined) continue;
    const e = build(doc, panel);
    if (e) drawn.push(e);
  }
  return drawn.length ? hIn(doc, "section", { class: "card rp-panels", dataset: { ref: "report-panels" } }, hIn(doc, "h2", { class: "card-title", text: "Trusting the judge" }), drawn) : null;
}

/** FILTERS are the row filters, as the page's table has them. */
const FILTERS = [
  ["all", "All"],
  ["passed", "✓ "],
  ["failed", "✗ "],
  ["undetermined", "? Undetermined"],
  ["error", "! Errors"],
  ["scored", "◆ Scored"],
  ["pending", "… Not run"],
];

/** TRUST_FILTERS are the filters a run with human labels (disagree) or repeats (split) adds, as the page's table has them. */
const TRUST_FILTERS = [
  ["split", "⇄ Flipped"],
  ["disagree", "≠ Disagree with label"],
];

/**
 * valueEl shows an input's value: a text as text, a list as a numbered list, anything else as JSON.
 * @param {Document} doc
 * @param {any} v
 */
function valueEl(doc, v) {
  if (Array.isArray(v)) return hIn(doc, "ol", { class: "rp-list" }, v.map((x) => hIn(doc, "li", {}, x && typeof x === "object" && typeof x.text === "string" ? [x.title || x.id ? hIn(doc, "strong", { text: (x.title || x.id) + ": " }) : null, x.text] : cellText(x))));
  return hIn(doc, "div", { class: "rp-text", text: cellText(v) });
}

/**
 * rowEl is one row: a line that says its verdict, and, expanded, what the judge said and read.
 * @param {Document} doc
 * @param {import("./data.js").ReportRow} row
 * @param {ReportData["evaluator"]} ev
 * @param {boolean} open expanded
 * @param {boolean} [bare] the body alone, without the line that expands it (one evaluation's report)
 * @param {string|null} [labelColumn] the run's human label column: the row's label is shown beside its verdict
 */
export function rowEl(doc, row, ev, open, bare = false, labelColumn = null) {
  const checks = row.checks.length
    ? hIn(doc, "ul", { class: "checks" }, row.checks.map((c) => hIn(doc, "li", { class: c.severity === "error" ? "check-error" : isNote(c) ? "check-note" : "check-warning", dataset: { code: c.code } }, hIn(doc, "span", { class: "check-icon", text: c.severity === "error" ? "✗ Error" : isNote(c) ? "ℹ Note" : "⚠ Warning" }), " ", c.message)))
    : row.answers.length && row.status !== "error"
      ? hIn(doc, "p", { class: "checks-ok", text: "✓ No problems reading the judge's answer." })
      : null;
  const reasons = row.reasons.length
    ? hIn(
        doc,
        "ul",
        { class: "rp-reasons" },
        row.reasons.map((x) =>
          hIn(
            doc,
            "li",
            { class: "rp-reason" + (x.state ? " v-" + x.state : "") },
            hIn(doc, "strong", { text: (x.state === "pass" ? "✓ " : x.state === "fail" ? "✗ " : x.state ? "? " : "") + x.label }),
            x.text ? [" ", hIn(doc, "span", { class: "rp-reason-text", text: x.text })] : null,
            x.notes.length ? hIn(doc, "ul", {}, x.notes.map((n) => hIn(doc, "li", { text: n }))) : null,
          ),
        ),
      )
    : null;
  const answers = row.answers.map((a, k) => [hIn(doc, "h3", { class: "rp-h", text: k === 0 ? "The judge's answer" : "The judge's corrected answer (after one repair request)" }), hIn(doc, "pre", { class: "mono rp-pre", text: a })]);
  const inputs = row.inputs.length ? [hIn(doc, "h3", { class: "rp-h", text: "Inputs" }), hIn(doc, "dl", { class: "rp-inputs" }, row.inputs.map((i) => [hIn(doc, "dt", { text: i.label }), hIn(doc, "dd", {}, valueEl(doc, i.value))]))] : null;
  const repeats = row.repeats.map((x) => [hIn(doc, "h3", { class: "rp-h", text: x.label }), x.answers.map((a) => hIn(doc, "pre", { class: "mono rp-pre", text: a }))]);
  const labelled = !!labelColumn && row.label !== undefined && row.label !== null;
  const agreeText = row.agrees === true ? "✓ the judge agrees" : row.agrees === false ? "✗ the judge disagrees" : "";
  const labelLine = labelled
    ? hIn(doc, "p", { class: "rp-label-line", dataset: { ref: "report-row-label" } }, hIn(doc, "strong", { text: `Human label (${labelColumn}): ` }), String(row.label), agreeText ? ` · ${agreeText}` : "")
    : null;
  // A recall verdict's bars and its formula against the judge's lines, as the page draws them.
  const figures = row.recall ? hIn(doc, "div", { class: "rp-recall" }, recallFigures(doc, row.recall.detail, { max: row.recall.max, labels: row.recall.labels || undefined })) : null;
  const body = hIn(doc, "div", { class: "rp-body" }, labelLine, checks, figures, reasons, answers, repeats, inputs, row.usage ? hIn(doc, "p", { class: "hint", text: row.usage }) : null);
  /** @type {Object<string, string>} */
  const rowData = { status: row.status, n: String(row.n) };
  if (labelled) rowData.agrees = row.agrees === null || row.agrees === undefined ? "" : String(row.agrees);
  if (row.split) rowData.split = "true";
  // One evaluation: its verdict is the report, shown whole under the big badge.
  if (bare) return hIn(doc, "div", { class: "rp-row rp-bare", dataset: { status: row.status, n: String(row.n) } }, body);
  return hIn(
    doc,
    "details",
    { class: "rp-row", dataset: rowData, attrs: { open } },
    hIn(
      doc,
      "summary",
      { class: labelled ? "rp-line rp-line-label" : "rp-line" },
      hIn(doc, "span", { class: "rp-num", text: String(row.n) }),
      stateBadge(row.status, row.cause, ev, { doc }),
      hIn(doc, "span", { class: "rp-score", text: row.score === null ? "–" : fmtNum(row.score) }),
      hIn(doc, "span", { class: "rp-clip", text: clip(row.text, 140) }),
      labelled ? hIn(doc, "span", { class: "rp-label" + (row.agrees === false ? " rp-disagree" : ""), text: `label ${row.label}` + (row.agrees === false ? " ≠" : "") }) : null,
      row.note ? hIn(doc, "span", { class: "rp-note", text: clip(row.note, 160) }) : null,
    ),
    body,
  );
}

/**
 * scoreEl is a score as the page writes it (ReportRow.scoreText, words.js scoreWords): the value
 * large, the words after it, the exact value beneath; null for none.
 * @param {Document} doc
 * @param {import("../verdict/words.js").ScoreWords|null|undefined} w
 */
function scoreEl(doc, w) {
  if (!w) return null;
  return hIn(doc, "div", { class: "big-number", dataset: { ref: "report-score" } }, hIn(doc, "strong", { text: w.value }), w.words ? " " + w.words : null, w.exact ? hIn(doc, "span", { class: "exact", text: w.exact }) : null);
}

/** @type {Section} */
export function rowsSection(doc, data) {
  const single = data.kind === "single";
  const counts = new Map();
  for (const r of data.rows) counts.set(r.status, (counts.get(r.status) || 0) + 1);
  counts.set("split", data.rows.filter((r) => r.split).length);
  counts.set("disagree", data.rows.filter((r) => r.agrees === false).length);
  const repeated = !!(data.run && data.run.repeats > 1);
  const trust = TRUST_FILTERS.filter(([k]) => (k === "split" ? repeated : !!data.labelColumn));
  const chips = [...FILTERS.filter(([k]) => k === "all" || counts.get(k)), ...trust].map(([k, label]) =>
    hIn(
      doc,
      "button",
      { class: "filter-chip", dataset: { f: k }, attrs: { type: "button", "aria-pressed": String(k === "all") } },
      k === "passed" || k === "failed" ? label + wordFor(k, data.evaluator) : label,
      hIn(doc, "span", { class: "chip-count", text: " " + fmtInt(k === "all" ? data.rows.length : counts.get(k) || 0) }),
    ),
  );
  const tools = single
    ? null
    : hIn(
        doc,
        "div",
        { class: "rp-tools", dataset: { ref: "report-filters" } },
        hIn(doc, "div", { class: "filters", attrs: { role: "group", "aria-label": "Show rows" } }, chips),
        hIn(doc, "label", { class: "rp-search" }, "Find ", hIn(doc, "input", { class: "input", attrs: { type: "search", id: "rp-q", placeholder: "text in a row" } })),
        hIn(doc, "button", { class: "btn btn-small", text: "Expand all", attrs: { type: "button", id: "rp-open" } }),
        hIn(doc, "button", { class: "btn btn-small btn-ghost", text: "Collapse all", attrs: { type: "button", id: "rp-close" } }),
        hIn(doc, "span", { class: "hint", text: `${fmtInt(data.rows.length)} rows`, attrs: { id: "rp-count", role: "status" } }),
      );
  return hIn(
    doc,
    "section",
    { class: "card rp-rows", dataset: { ref: "report-rows" } },
    hIn(doc, "h2", { class: "card-title", text: single ? "Verdict" : "Rows" }),
    single ? hIn(doc, "div", { class: "verdict-head" }, stateBadge(data.rows[0].status, data.rows[0].cause, data.evaluator, { doc, size: "badge-big" }), scoreEl(doc, data.rows[0].scoreText)) : null,
    tools,
    hIn(doc, "div", { class: "rp-list-rows" }, data.rows.map((r) => rowEl(doc, r, data.evaluator, single, single, data.labelColumn || null))),
  );
}

/** @type {Section} */
export function footSection(doc, data) {
  return hIn(doc, "footer", { class: "foot rp-foot" }, hIn(doc, "span", { text: `ragjudge ${data.version}` }), hIn(doc, "span", { text: "A self-contained file: it loads nothing from anywhere and holds no key." }));
}

/**
 * SECTIONS are a report's sections in order; each draws what its data has and leaves out the rest.
 * @type {Section[]}
 */
export const SECTIONS = [headerSection, summarySection, panelsSection, promptSection, rowsSection, promptBelowSection, footSection];
