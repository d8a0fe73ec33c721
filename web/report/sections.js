// sections.js: a report's sections, each a pure builder `(doc, data) => Element | null` that draws
// one part of a ReportData (data.js) in the document it is given, a detached one when a report is
// built (build.js). Text, all of it untrusted (dataset names, inputs, judge answers), is only ever
// set with textContent or setAttribute, never parsed as markup; serializing the document escapes it.
//
// SECTIONS is the report, in order. The trust panels (agreement with human labels, repeat
// consistency) are drawn by the builders in PANELS, by the key of data.panels they draw: a run that
// has that data gets the panel, any other gets none.

import { histogramSVG } from "../stats/histogram.js";
import { causesList } from "../batch/summary.js";
import { STATE_WORDS, wordFor, fmtInt, fmtNum, clip, cellText } from "../batch/words.js";
import { agreementPanel } from "../stats/agreement.js";
import { consistencyPanel } from "../stats/consistency.js";

/** @typedef {import("./data.js").ReportData} ReportData */
/** @typedef {(doc: Document, data: ReportData) => Element | null} Section */

/**
 * el builds an element in doc. props: class, text (textContent), dataset, attrs (attributes); children:
 * nodes, strings (text nodes), arrays; null and false are skipped.
 * @param {Document} doc
 * @param {string} tag
 * @param {{class?: string, text?: string|number, dataset?: Object<string, string>, attrs?: Object<string, string|number|boolean|null|undefined>}} [props]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function el(doc, tag, props = {}, ...children) {
  const e = doc.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.text !== undefined) e.textContent = String(props.text);
  if (props.dataset) Object.assign(e.dataset, props.dataset);
  for (const [k, v] of Object.entries(props.attrs || {})) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : String(v));
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "object" ? c : doc.createTextNode(String(c)));
  }
  return e;
}

/**
 * badgeEl is a row state as a badge: icon, the evaluator's word, colour; undetermined and error
 * rows say their cause. The page's words and icons (batch/format.js STATE_WORDS).
 * @param {Document} doc
 * @param {string} status
 * @param {string|null} cause
 * @param {{words?: {passed?: string, failed?: string}}} ev
 * @param {string} [size] "badge-small" or "badge-big"
 */
export function badgeEl(doc, status, cause, ev, size = "badge-small") {
  const w = STATE_WORDS[/** @type {keyof typeof STATE_WORDS} */ (status)] || STATE_WORDS.pending;
  let word = wordFor(status, ev);
  if ((status === "undetermined" || status === "error") && cause) word += " — " + cause;
  return el(doc, "span", { class: `badge ${size} ${w.cls}`, dataset: { state: status } }, el(doc, "span", { class: "badge-icon", text: w.icon, attrs: { "aria-hidden": "true" } }), el(doc, "span", { class: "badge-word", text: word }));
}

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
  return el(
    doc,
    "header",
    { class: "rp-header", dataset: { ref: "report-header" } },
    el(doc, "p", { class: "rp-brand" }, el(doc, "span", { class: "logo", text: "⚖", attrs: { "aria-hidden": "true" } }), " ragjudge report"),
    el(doc, "h1", { class: "rp-title", text: data.title }),
    ev.description ? el(doc, "p", { class: "desc", text: ev.description }) : null,
    el(doc, "dl", { class: "rp-facts" }, facts.map(([k, v]) => [el(doc, "dt", { text: k }), el(doc, "dd", { text: v })])),
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
  return el(
    doc,
    "section",
    { class: "card rp-prompt", dataset: { ref: "report-prompt" } },
    el(doc, "h2", { class: "card-title", text: "The judge's prompt" }),
    ev.template
      ? el(doc, "details", { attrs: { open: true } }, el(doc, "summary", { text: `Template (${ev.dialect || "template"}), as this custom evaluator defines it` }), el(doc, "pre", { class: "mono rp-pre rp-scroll", text: ev.template, attrs: { tabindex: 0 } }))
      : el(doc, "p", { class: "hint", text: `The built-in prompt "${ev.id}" of ragjudge ${data.version}, in ${ev.dialect === "format" ? "Python str.format" : "Jinja"}.` }),
    data.prompt
      ? el(
          doc,
          "details",
          { attrs: { open: data.kind === "single" } },
          el(doc, "summary", { text: data.kind === "single" ? "The prompt as the judge received it" : "The prompt as the judge received it for row 1" }),
          // Every message the judge got, each under its role, where there is more than the prompt.
          data.messages && data.messages.length > 1
            ? data.messages.map((m) => el(doc, "div", { class: "rp-msg", dataset: { ref: "report-message", role: m.role } }, el(doc, "div", { class: "prompt-role", text: m.role }), el(doc, "pre", { class: "mono rp-pre rp-scroll", text: m.content, attrs: { tabindex: 0 } })))
            : el(doc, "pre", { class: "mono rp-pre rp-scroll", text: data.prompt, attrs: { tabindex: 0 } }),
        )
      : null,
  );
}

/** @type {Section} */
export function summarySection(doc, data) {
  const s = data.summary;
  if (!s) return null;
  return el(
    doc,
    "section",
    { class: "card rp-summary", dataset: { ref: "report-summary" } },
    el(doc, "h2", { class: "card-title", text: "Summary" }),
    el(doc, "div", { class: "stats" }, s.cards.map((c) => el(doc, "div", { class: "stat", dataset: { ref: c.ref } }, el(doc, "div", { class: "stat-value", text: c.value }), el(doc, "div", { class: "stat-label", text: c.label }), el(doc, "div", { class: "hint", text: c.sub })))),
    el(
      doc,
      "div",
      { class: "summary-row" },
      el(doc, "div", { class: "summary-block" }, el(doc, "h3", { class: "sub-title", text: "Score histogram" }), s.histogram ? histogramSVG(s.histogram, { doc }) : el(doc, "p", { class: "hint", text: "No scores." })),
      el(doc, "div", { class: "summary-block" }, el(doc, "h3", { class: "sub-title", text: "Undetermined and errors, by cause" }), causesList(doc, s.causes)),
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
    ["agreement", agreementPanel],
    ["consistency", consistencyPanel],
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
  return drawn.length ? el(doc, "section", { class: "card rp-panels", dataset: { ref: "report-panels" } }, el(doc, "h2", { class: "card-title", text: "Trusting the judge" }), drawn) : null;
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
  if (Array.isArray(v)) return el(doc, "ol", { class: "rp-list" }, v.map((x) => el(doc, "li", {}, x && typeof x === "object" && typeof x.text === "string" ? [x.title || x.id ? el(doc, "strong", { text: (x.title || x.id) + ": " }) : null, x.text] : cellText(x))));
  return el(doc, "div", { class: "rp-text", text: cellText(v) });
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
    ? el(doc, "ul", { class: "checks" }, row.checks.map((c) => el(doc, "li", { class: c.severity === "error" ? "check-error" : "check-warning", dataset: { code: c.code } }, el(doc, "span", { class: "check-icon", text: c.severity === "error" ? "✗ Error" : "⚠ Warning" }), " ", c.message)))
    : row.answers.length && row.status !== "error"
      ? el(doc, "p", { class: "checks-ok", text: "✓ No problems reading the judge's answer." })
      : null;
  const reasons = row.reasons.length
    ? el(
        doc,
        "ul",
        { class: "rp-reasons" },
        row.reasons.map((x) =>
          el(
            doc,
            "li",
            { class: "rp-reason" + (x.state ? " v-" + x.state : "") },
            el(doc, "strong", { text: (x.state === "pass" ? "✓ " : x.state === "fail" ? "✗ " : x.state ? "? " : "") + x.label }),
            x.text ? [" ", el(doc, "span", { class: "rp-reason-text", text: x.text })] : null,
            x.notes.length ? el(doc, "ul", {}, x.notes.map((n) => el(doc, "li", { text: n }))) : null,
          ),
        ),
      )
    : null;
  const answers = row.answers.map((a, k) => [el(doc, "h3", { class: "rp-h", text: k === 0 ? "The judge's answer" : "The judge's corrected answer (after one repair request)" }), el(doc, "pre", { class: "mono rp-pre", text: a })]);
  const inputs = row.inputs.length ? [el(doc, "h3", { class: "rp-h", text: "Inputs" }), el(doc, "dl", { class: "rp-inputs" }, row.inputs.map((i) => [el(doc, "dt", { text: i.label }), el(doc, "dd", {}, valueEl(doc, i.value))]))] : null;
  const repeats = row.repeats.map((x) => [el(doc, "h3", { class: "rp-h", text: x.label }), x.answers.map((a) => el(doc, "pre", { class: "mono rp-pre", text: a }))]);
  const labelled = !!labelColumn && row.label !== undefined && row.label !== null;
  const agreeText = row.agrees === true ? "✓ the judge agrees" : row.agrees === false ? "✗ the judge disagrees" : "";
  const labelLine = labelled
    ? el(doc, "p", { class: "rp-label-line", dataset: { ref: "report-row-label" } }, el(doc, "strong", { text: `Human label (${labelColumn}): ` }), String(row.label), agreeText ? ` · ${agreeText}` : "")
    : null;
  const body = el(doc, "div", { class: "rp-body" }, labelLine, checks, reasons, answers, repeats, inputs, row.usage ? el(doc, "p", { class: "hint", text: row.usage }) : null);
  /** @type {Object<string, string>} */
  const rowData = { status: row.status, n: String(row.n) };
  if (labelled) rowData.agrees = row.agrees === null || row.agrees === undefined ? "" : String(row.agrees);
  if (row.split) rowData.split = "true";
  // One evaluation: its verdict is the report, shown whole under the big badge.
  if (bare) return el(doc, "div", { class: "rp-row rp-bare", dataset: { status: row.status, n: String(row.n) } }, body);
  return el(
    doc,
    "details",
    { class: "rp-row", dataset: rowData, attrs: { open } },
    el(
      doc,
      "summary",
      { class: labelled ? "rp-line rp-line-label" : "rp-line" },
      el(doc, "span", { class: "rp-num", text: String(row.n) }),
      badgeEl(doc, row.status, row.cause, ev),
      el(doc, "span", { class: "rp-score", text: row.score === null ? "–" : fmtNum(row.score) }),
      el(doc, "span", { class: "rp-clip", text: clip(row.text, 140) }),
      labelled ? el(doc, "span", { class: "rp-label" + (row.agrees === false ? " rp-disagree" : ""), text: `label ${row.label}` + (row.agrees === false ? " ≠" : "") }) : null,
      row.note ? el(doc, "span", { class: "rp-note", text: clip(row.note, 160) }) : null,
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
  return el(doc, "div", { class: "big-number", dataset: { ref: "report-score" } }, el(doc, "strong", { text: w.value }), w.words ? " " + w.words : null, w.exact ? el(doc, "span", { class: "exact", text: w.exact }) : null);
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
    el(
      doc,
      "button",
      { class: "filter-chip", dataset: { f: k }, attrs: { type: "button", "aria-pressed": String(k === "all") } },
      k === "passed" || k === "failed" ? label + wordFor(k, data.evaluator) : label,
      el(doc, "span", { class: "chip-count", text: " " + fmtInt(k === "all" ? data.rows.length : counts.get(k) || 0) }),
    ),
  );
  const tools = single
    ? null
    : el(
        doc,
        "div",
        { class: "rp-tools", dataset: { ref: "report-filters" } },
        el(doc, "div", { class: "filters", attrs: { role: "group", "aria-label": "Show rows" } }, chips),
        el(doc, "label", { class: "rp-search" }, "Find ", el(doc, "input", { class: "input", attrs: { type: "search", id: "rp-q", placeholder: "text in a row" } })),
        el(doc, "button", { class: "btn btn-small", text: "Expand all", attrs: { type: "button", id: "rp-open" } }),
        el(doc, "button", { class: "btn btn-small btn-ghost", text: "Collapse all", attrs: { type: "button", id: "rp-close" } }),
        el(doc, "span", { class: "hint", text: `${fmtInt(data.rows.length)} rows`, attrs: { id: "rp-count", role: "status" } }),
      );
  return el(
    doc,
    "section",
    { class: "card rp-rows", dataset: { ref: "report-rows" } },
    el(doc, "h2", { class: "card-title", text: single ? "Verdict" : "Rows" }),
    single ? el(doc, "div", { class: "verdict-head" }, badgeEl(doc, data.rows[0].status, data.rows[0].cause, data.evaluator, "badge-big"), scoreEl(doc, data.rows[0].scoreText)) : null,
    tools,
    el(doc, "div", { class: "rp-list-rows" }, data.rows.map((r) => rowEl(doc, r, data.evaluator, single, single, data.labelColumn || null))),
  );
}

/** @type {Section} */
export function footSection(doc, data) {
  return el(doc, "footer", { class: "foot rp-foot" }, el(doc, "span", { text: `ragjudge ${data.version}` }), el(doc, "span", { text: "A self-contained file: it loads nothing from anywhere and holds no key." }));
}

/**
 * SECTIONS are a report's sections in order; each draws what its data has and leaves out the rest.
 * @type {Section[]}
 */
export const SECTIONS = [headerSection, summarySection, panelsSection, promptSection, rowsSection, promptBelowSection, footSection];
