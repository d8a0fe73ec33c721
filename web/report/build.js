// build.js: a report as one self-contained HTML file. The sections (sections.js) draw a ReportData
// (data.js) into a detached document (document.implementation.createHTMLDocument), which is then
// serialized: whatever a dataset cell or a judge's answer holds was set as text, and the serializer
// escapes it, so it can only ever be shown, never run.
//
// Everything is inline: the page's own stylesheet (read from the page's CSSOM, so the report looks
// like the page, light and dark) and the report's additions (print included), the charts as SVG,
// and a few lines of script for the filters. The file fetches nothing: its Content-Security-Policy
// says `default-src 'none'` and lets run only the one inline script whose SHA-256 it names,
// computed here when the file is made.

import { SECTIONS } from "./sections.js";

/** REPORT_CSS is what a report adds to the page's styles: its layout, its rows, and print. */
export const REPORT_CSS = `
body.rp { display: block; min-height: 0; }
.rp-main { max-width: 1180px; margin: 0 auto; padding: 1.2rem 1.25rem 2rem; display: flex; flex-direction: column; gap: 1.1rem; }
.rp-brand { margin: 0; color: var(--muted); font-weight: 700; }
.rp-title { margin: 0.2rem 0 0.4rem; font-size: 1.6rem; line-height: 1.25; overflow-wrap: anywhere; }
.rp-facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2rem 1rem; margin: 0.6rem 0 0; }
.rp-facts dt { font-weight: 700; color: var(--muted); }
.rp-facts dd { margin: 0; overflow-wrap: anywhere; }
.rp-pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--surface-2); border: 1px solid var(--border); border-radius: 7px; padding: 0.6rem 0.75rem; margin: 0.4rem 0 0.6rem; }
.rp-scroll { max-height: 32rem; overflow: auto; }
.rp-msg { margin-top: 0.5rem; }
.rp-reason-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.rp-tools { display: flex; flex-wrap: wrap; gap: 0.5rem 0.9rem; align-items: center; margin-bottom: 0.8rem; }
.rp-tools .filters { display: flex; flex-wrap: wrap; gap: 0.35rem; }
.filter-chip[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
.rp-search { display: flex; gap: 0.4rem; align-items: center; font-weight: 600; }
.rp-search .input { width: 14rem; }
.rp-list-rows { display: flex; flex-direction: column; border-top: 1px solid var(--border); }
[data-kind="single"] .rp-list-rows { border-top: 0; }
.rp-row { border-bottom: 1px solid var(--border); }
.rp-line { display: grid; grid-template-columns: 2.6rem 15rem 3rem minmax(0, 1fr) minmax(0, 0.8fr); gap: 0.6rem; align-items: center; padding: 0.4rem 0.3rem; color: var(--text); font-weight: 400; list-style: none; }
.rp-line-label { grid-template-columns: 2.6rem 15rem 3rem minmax(0, 1fr) 11rem minmax(0, 0.6fr); }
.rp-label { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; font-size: 0.9rem; }
.rp-disagree { color: var(--fail); font-weight: 700; }
.rp-label-line { margin: 0 0 0.6rem; }
.rp-line::-webkit-details-marker { display: none; }
.rp-line::before { content: "▸"; position: absolute; margin-left: -0.9rem; color: var(--muted); }
.rp-row[open] > .rp-line::before { content: "▾"; }
.rp-row[open] > .rp-line { background: var(--surface-2); }
.rp-num { font-family: var(--mono); color: var(--muted); text-align: right; font-size: 0.85rem; }
.rp-score { font-variant-numeric: tabular-nums; font-weight: 700; }
.rp-clip, .rp-note { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.rp-note { color: var(--muted); font-size: 0.9rem; }
.rp-body { padding: 0.5rem 0.6rem 1rem 3.6rem; }
.rp-bare { border-bottom: 0; }
.rp-bare .rp-body { padding: 0; }
.rp-body .rp-h { margin: 0.8rem 0 0.2rem; font-size: 0.9rem; color: var(--muted); }
.rp-reasons { list-style: none; padding: 0; margin: 0 0 0.6rem; display: flex; flex-direction: column; gap: 0.4rem; }
.rp-reason { border-left: 5px solid var(--und); padding: 0.25rem 0.7rem; background: var(--surface-2); border-radius: 6px; }
.rp-reason.v-pass { border-left-color: var(--pass); }
.rp-reason.v-fail { border-left-color: var(--fail); }
.rp-reason ul { margin: 0.2rem 0 0; padding-left: 1.2rem; }
.rp-inputs { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.3rem 0.9rem; margin: 0; }
.rp-inputs dt { font-weight: 700; }
.rp-inputs dd { margin: 0; }
.rp-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.rp-list { margin: 0; padding-left: 1.4rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.rp-foot { border-top: 0; max-width: 1180px; margin: 0 auto; width: 100%; }
.rp-panels svg { max-width: 100%; }
@media (max-width: 760px) {
  .rp-line, .rp-line-label { grid-template-columns: 2.4rem minmax(0, 1fr) 3rem; }
  .rp-clip, .rp-note, .rp-label { grid-column: 2 / -1; }
  .rp-body { padding-left: 0.6rem; }
}
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  :root { --bg: #fff; --surface: #fff; --surface-2: #f6f8fa; --text: #000; --muted: #444; --border: #bbb; }
  body.rp { background: #fff; color: #000; font-size: 10.5pt; }
  .rp-main { max-width: none; padding: 0; gap: 0.6rem; }
  .card { box-shadow: none; border: 1px solid #bbb; break-inside: auto; }
  .rp-tools, .rp-line::before { display: none !important; }
  .rp-header, .rp-summary, .stats, .stat, .summary-block, .rp-reason, .rp-line, svg { break-inside: avoid; }
  .rp-row { break-inside: avoid-page; }
  .rp-scroll { max-height: none; overflow: visible; }
  .rp-line, .rp-line-label { grid-template-columns: 2.2rem 13rem 3rem minmax(0, 1fr); }
  .rp-label { grid-column: 4; }
  .rp-note { display: none; }
  h1, h2, h3, h4 { break-after: avoid; }
  .histogram { max-width: 12cm; }
  /* Printed, a row shows what it holds (the judge's reasons and answer), not only its line: a
     closed row's content is shown (and the script opens them where ::details-content is unknown). */
  details.rp-row::details-content { content-visibility: visible; display: block; }
}
`;

/**
 * REPORT_SCRIPT is the report's only script: the row filters (by state, by text), expand and
 * collapse all, and, in a report whose rows were packed (PACK_OVER), their unpacking. The file's
 * CSP lets run only this text, by its hash. It never reads a row's text as markup: it compares text
 * and sets `hidden`; packed rows are markup this module serialized from a DOM built with
 * textContent, parsed inert in a <template> and moved into the page.
 */
export const REPORT_SCRIPT = `(async () => {
  const html = document.documentElement;
  const packed = document.getElementById("rp-packed");
  if (packed) {
    const list = document.querySelector(".rp-list-rows");
    try {
      const bin = atob(packed.textContent.trim());
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).text();
      const t = document.createElement("template");
      t.innerHTML = text;
      list.replaceChildren(t.content);
    } catch (e) {
      list.textContent = "The rows could not be unpacked: " + e + ". Open this file in a current browser.";
    }
    packed.remove();
  }
  const rows = [...document.querySelectorAll(".rp-row")];
  const chips = [...document.querySelectorAll("[data-f]")];
  const q = document.getElementById("rp-q");
  const count = document.getElementById("rp-count");
  html.dataset.script = "ready";
  // Printed, every row shows its details; the rows opened for it close again afterwards.
  let opened = [];
  addEventListener("beforeprint", () => { opened = rows.filter((r) => !r.open); for (const r of opened) r.open = true; });
  addEventListener("afterprint", () => { for (const r of opened) r.open = false; opened = []; });
  if (!q || !count) return;
  let f = "all";
  const apply = () => {
    const t = q.value.trim().toLowerCase();
    let n = 0;
    for (const r of rows) {
      const by = f === "all" || (f === "split" ? r.dataset.split === "true" : f === "disagree" ? r.dataset.agrees === "false" : r.dataset.status === f);
      const show = by && (!t || r.textContent.toLowerCase().includes(t));
      r.hidden = !show;
      if (show) n++;
    }
    count.textContent = n + " of " + rows.length + " rows shown";
  };
  for (const c of chips) c.addEventListener("click", () => {
    f = c.dataset.f;
    for (const d of chips) d.setAttribute("aria-pressed", String(d === c));
    apply();
  });
  q.addEventListener("input", apply);
  const all = (open) => { for (const r of rows) if (!r.hidden) r.open = open; };
  document.getElementById("rp-open").addEventListener("click", () => all(true));
  document.getElementById("rp-close").addEventListener("click", () => all(false));
})();`;

/**
 * PACK_OVER: a report larger than this has its rows packed: their markup deflated (deflate-raw) and
 * written in base64 in a data block, which the report's script unpacks when it opens. Judge
 * answers and inputs are text that deflates to a third or less, so 1,000 rows of real RAG data
 * (a few KB each) stay under 3 MB; a smaller report keeps plain rows, readable without script.
 */
export const PACK_OVER = 1536 * 1024;

/**
 * deflateBase64 deflates text (deflate-raw) and writes it in base64.
 * @param {string} text
 */
async function deflateBase64(text) {
  const bytes = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 0x8000)));
  return btoa(bin);
}

/**
 * sha256Base64 is text's SHA-256 (of its UTF-8), in base64, as a CSP source names it.
 * @param {string} text
 */
export async function sha256Base64(text) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * reportCSP is the report's Content-Security-Policy: nothing may load, no form may submit, no
 * base may be set; styles are inline; the one script runs by its hash.
 * @param {string} scriptHash sha256Base64 of the script
 */
export function reportCSP(scriptHash) {
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${scriptHash}'; base-uri 'none'; form-action 'none'`;
}

/**
 * pageCSS is the page's own stylesheets' text (style.css, and batch.css when loaded), read from the
 * CSSOM: what makes a report look like the page, with no file fetched.
 * @param {Document} doc the page's document
 */
export function pageCSS(doc) {
  const out = [];
  for (const sheet of Array.from(doc.styleSheets)) {
    if (!sheet.href || !/\/(style|batch|checkup)\.css(\?|$)/.test(sheet.href)) continue;
    try {
      for (const rule of Array.from(sheet.cssRules)) out.push(rule.cssText);
    } catch {
      // a stylesheet from elsewhere cannot be read: the report goes without it
    }
  }
  return out.join("\n");
}

/**
 * rawText makes text safe inside a <style> or <script> element, whose content the serializer
 * writes unescaped: no "</" can end it early.
 * @param {string} text
 */
function rawText(text) {
  return text.replace(/<\/(?=style|script)/gi, "<\\/");
}

/**
 * buildReport draws data (a ReportData) with sections into a detached document and returns the
 * whole file's text.
 * @param {import("./data.js").ReportData} data
 * @param {{css?: string, sections?: import("./sections.js").Section[], doc?: Document, pack?: boolean|"auto"}} [opts]
 *   css: the page's styles (pageCSS); doc: where to make the detached document (the page's);
 *   pack: pack the rows always, never, or ("auto") when the file would be over PACK_OVER
 * @returns {Promise<string>}
 */
export async function buildReport(data, { css = "", sections = SECTIONS, doc: page = document, pack = "auto" } = {}) {
  const doc = page.implementation.createHTMLDocument("");
  const script = rawText(REPORT_SCRIPT);
  const hash = await sha256Base64(script);
  const meta = (/** @type {Object<string, string>} */ attrs) => {
    const m = doc.createElement("meta");
    for (const [k, v] of Object.entries(attrs)) m.setAttribute(k, v);
    return m;
  };
  const title = doc.createElement("title");
  title.textContent = data.title + " · ragjudge report";
  // The styles and the script are ours (the page's CSSOM and the constants above), not data: they
  // are placed in the file's text after serializing, as a <style> or <script> made in the detached
  // document would be checked against the page's own CSP and refused there.
  const STYLE_SLOT = "rj-style-slot";
  const SCRIPT_SLOT = "rj-script-slot";
  const slot = (/** @type {string} */ name) => {
    const m = doc.createElement("meta");
    m.setAttribute("name", name);
    return m;
  };
  doc.documentElement.setAttribute("lang", "en");
  doc.head.replaceChildren(
    meta({ charset: "utf-8" }),
    meta({ "http-equiv": "Content-Security-Policy", content: reportCSP(hash) }),
    meta({ name: "viewport", content: "width=device-width, initial-scale=1" }),
    meta({ name: "color-scheme", content: "light dark" }),
    meta({ name: "generator", content: "ragjudge " + data.version }),
    title,
    slot(STYLE_SLOT),
  );
  const main = doc.createElement("main");
  main.className = "rp-main";
  for (const section of sections) {
    const e = section(doc, data);
    if (e) main.append(e);
  }
  const body = doc.body;
  body.className = "rp";
  body.dataset.kind = data.kind;
  body.replaceChildren(main, slot(SCRIPT_SLOT));
  let html = doc.documentElement.outerHTML;
  const list = doc.querySelector(".rp-list-rows");
  if (pack === true || (pack === "auto" && list && html.length > PACK_OVER)) {
    if (!list) throw new Error("buildReport: no rows to pack");
    const rows = list.innerHTML;
    const note = doc.createElement("p");
    note.className = "hint";
    note.textContent = `${list.children.length.toLocaleString("en-US")} rows, packed: they appear in a moment (this file needs JavaScript on to show them).`;
    list.replaceChildren(note);
    // A data block: its type is no script's, so it never runs; base64 holds no "<".
    const data = doc.createElement("script");
    data.setAttribute("type", "application/x-ragjudge-rows");
    data.id = "rp-packed";
    data.textContent = await deflateBase64(rows);
    list.after(data);
    html = doc.documentElement.outerHTML;
  }
  // Each slot is once in the text: nothing else can serialize as a <meta> element (text is escaped).
  return (
    "<!doctype html>\n" +
    html
      .replace(`<meta name="${STYLE_SLOT}">`, () => "<style>" + rawText(css + "\n" + REPORT_CSS) + "</style>")
      .replace(`<meta name="${SCRIPT_SLOT}">`, () => "<script>" + script + "</script>") +
    "\n"
  );
}

/**
 * reportName is the report's file name: the run's (or evaluator's) name, made safe, and the date.
 * @param {import("./data.js").ReportData} data
 */
export function reportName(data) {
  const base = (data.dataset ? data.dataset.name.replace(/\.[^.]+$/, "") + "-" + data.evaluator.id : data.evaluator.id + "-evaluation").replace(/[^\w.-]+/g, "_").slice(0, 80);
  return `${base}-report-${data.generatedAt.slice(0, 10)}.html`;
}
