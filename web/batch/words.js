// format.js: how the Batch view writes numbers, durations, money and a row's state in words, and
// the small DOM helpers its modules share (a state badge, a download, the view's stylesheet).

import { h, addStylesheet } from "../lib/dom.js";

/** STATE_WORDS: a row's state as an icon, a word and a CSS class. judging and retrying are rows in flight. */
export const STATE_WORDS = {
  passed: { icon: "✓", word: "Passed", cls: "state-pass" },
  failed: { icon: "✗", word: "Failed", cls: "state-fail" },
  scored: { icon: "◆", word: "Scored", cls: "state-scored" },
  undetermined: { icon: "?", word: "Undetermined", cls: "state-undetermined" },
  error: { icon: "!", word: "Error", cls: "state-error" },
  pending: { icon: "…", word: "Not run yet", cls: "state-pending" },
  judging: { icon: "•", word: "Judging…", cls: "state-pending" },
  retrying: { icon: "↻", word: "Retrying", cls: "state-pending" },
  saving: { icon: "•", word: "Saving…", cls: "state-pending" },
};

/**
 * wordFor is the word for a row state: for passed and failed, the words the evaluator declares
 * (rj.evaluators(): "Grounded" / "Not grounded", ...).
 * @param {string} status
 * @param {{words?: {passed?: string, failed?: string}}} [ev]
 */
export function wordFor(status, ev) {
  const w = ev && ev.words;
  if (w && status === "passed" && w.passed) return w.passed;
  if (w && status === "failed" && w.failed) return w.failed;
  return (STATE_WORDS[/** @type {keyof typeof STATE_WORDS} */ (status)] || STATE_WORDS.pending).word;
}

/** fmtNum rounds n to digits decimals; "–" for anything that is not a finite number. */
export function fmtNum(n, digits = 2) {
  if (typeof n !== "number" || !Number.isFinite(n)) return "–";
  return String(Math.round(n * 10 ** digits) / 10 ** digits);
}

/** fmtInt writes a count with thousands separators. */
export function fmtInt(n) {
  return Number(n || 0).toLocaleString("en-US");
}

/** fmtDuration writes seconds as "12 s", "3 min 4 s" or "1 h 2 min". */
export function fmtDuration(s) {
  if (!Number.isFinite(s) || s < 0) return "–";
  if (s < 60) return Math.ceil(s) + " s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + " min " + Math.round(s - m * 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}

/** fmtMoney writes dollars, with four decimals below a cent; "" for no amount. */
export function fmtMoney(x) {
  if (x === null || !Number.isFinite(x)) return "";
  return "$" + (x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2));
}

/** clip squeezes white space and cuts s to n characters with an ellipsis. */
export function clip(s, n) {
  s = String(s ?? "").replace(/\s+/g, " ").trim();
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

/** cellText shows a dataset value as text: strings as they are, the rest as JSON. */
export function cellText(v) {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

/** plural: "1 row", "2 rows". */
export function plural(n, word) {
  return `${fmtInt(n)} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * stateBadge is a row's state as a small badge; undetermined and error rows say their cause.
 * @param {string} status
 * @param {string|null} cause
 * @param {{words?: {passed?: string, failed?: string}}} [ev] the evaluator, for its verdict words
 * @param {string} [text] the word to show instead of the state's own
 */
export function stateBadge(status, cause, ev, text) {
  const w = STATE_WORDS[/** @type {keyof typeof STATE_WORDS} */ (status)] || STATE_WORDS.pending;
  let word = text || wordFor(status, ev);
  if ((status === "undetermined" || status === "error") && cause) word += " — " + cause;
  return h(
    "span",
    { class: `badge badge-small ${w.cls}`, dataset: { state: status } },
    h("span", { class: "badge-icon", text: w.icon, attrs: { "aria-hidden": "true" } }),
    h("span", { class: "badge-word", text: word }),
  );
}

/** download saves text as a file named name. */
export function download(name, text, type) {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** ensureStylesheet adds batch.css to the page once. */
export function ensureStylesheet() {
  addStylesheet(new URL("./batch.css", import.meta.url).href, "batch-css");
}

/** FORMAT_WORDS: a dataset's format (rj.readDataset's `format`) in words. */
const FORMAT_WORDS = { jsonl: "JSON Lines", json: "JSON", csv: "CSV", tsv: "TSV" };

/**
 * formatWords says what a dataset was read as: "JSON Lines", "CSV with semicolons", and when its
 * file's name said another format (the content decides: `named`), "JSON Lines by its content,
 * though named .json".
 * @param {{format: string, named?: string, delimiter?: string}} table
 * @param {string} name the file's name
 */
export function formatWords(table, name) {
  let w = FORMAT_WORDS[/** @type {keyof typeof FORMAT_WORDS} */ (table.format)] || String(table.format || "").toUpperCase();
  if (table.format === "csv" && table.delimiter === ";") w += " with semicolons";
  if (!table.named) return w;
  const dot = name.lastIndexOf(".");
  return `${w} by its content, though named ${dot >= 0 ? name.slice(dot).toLowerCase() : "." + table.named}`;
}
