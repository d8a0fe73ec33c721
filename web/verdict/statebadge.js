// statebadge.js: a batch row's state in words and as a badge, the same in the Batch view's table
// and in a report (built in the document it is given).

import { badgeIn } from "../lib/dom.js";

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

/**
 * stateBadge is a row's state as a badge; undetermined and error rows say their cause.
 * @param {string} status
 * @param {string|null} cause
 * @param {{words?: {passed?: string, failed?: string}}} [ev] the evaluator, for its verdict words
 * @param {{text?: string, size?: string, doc?: Document, ref?: string}} [opts] text: the word to show instead of the state's own;
 *   size: "badge-small" (the default) or "badge-big"; doc: the document to build in (a report's)
 */
export function stateBadge(status, cause, ev, { text, size = "badge-small", doc = document, ref } = {}) {
  const w = STATE_WORDS[/** @type {keyof typeof STATE_WORDS} */ (status)] || STATE_WORDS.pending;
  let word = text || wordFor(status, ev);
  if ((status === "undetermined" || status === "error") && cause) word += " — " + cause;
  return badgeIn(doc, { state: status, icon: w.icon, word, cls: w.cls, size, ref });
}
