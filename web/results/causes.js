// causes.js: the few words shown after "Undetermined —", one place for the single and the batch
// views. They are looked up by check code (the README's "Check codes" table); the check's full
// message is always listed beside them, so a code this table lacks still says what happened.

/**
 * CAUSES maps a check code to the short cause of an undetermined verdict. Every code the README
 * lists with severity "error", but those about reading a dataset's text, has one
 * (test/unit/status.test.mjs holds the two together); warnings never make a verdict undetermined
 * and have none.
 */
export const CAUSES = Object.freeze({
  "answer.truncated": "answer cut short",
  "answer.unreadable": "answer could not be read",
  "answer.no-verdict": "the answer gives no verdict",
  "answer.several-verdicts": "the answer gives verdicts that disagree",
  "answer.empty": "empty answer",
  "answer.too-long": "answer too long to read",
  "answer.out-of-range": "the score is out of range",
  "answer.other-scale": "the score is on another scale",
  "answer.missing-field": "a field of the answer's JSON is missing",
  "answer.bad-field": "a field of the answer's JSON cannot be read",
  "input.no-markers": "the ground truth has no passage markers",
  "input.empty-list": "an input list is empty",
  "input.wrong-type": "an input has the wrong type",
  "input.blank": "an input text is empty",
  "input.duplicate-id": "two claims have the same id",
  "input.out-of-range": "the threshold is out of range",
  "input.unknown-evaluator": "unknown evaluator",
  "input.unmapped": "a required input has no column",
  "input.missing": "a required input is missing",
  "input.not-a-list": "a list input is not a list",
  "input.bad-item": "a list item cannot be read",
  "input.not-text": "a text input is not text",
  "input.not-a-number": "a number input is not a number",
  "input.not-a-choice": "an input is not one of its choices",
  "claims.not-a-list": "the claims could not be read",
  "claims.missing": "the judge skipped part of it",
  "pairwise.no-answer-2": "the actual answer was not graded",
  "pairwise.not-measurable": "not measurable: the answer says no document answers",
  "pairwise.bad-answer": "the actual answer's grade could not be read",
  "pairwise.no-grade": "the actual answer was not graded",
  "pairwise.bad-grade": "the actual answer's grade could not be read",
  "recall.no-scores": "no passage scores in the answer",
  "recall.bad-scores": "a passage score is missing or out of range",
  "recall.invalid": "the scores make no recall",
  "repeat.split": "the repeats split evenly",
  "position.flip": "the grade changed when the answers swapped places",
  "position.ungraded": "not graded with the answers swapped",
  "jury.tie": "the jury split evenly",
  "jury.undetermined": "too few of the jury decided",
});

/**
 * NOTE_CODES are warnings the page shows as a quiet note rather than a problem: they say how an
 * answer that reads right was read. answer.prose-after-verdict is the commonest correct phrasing
 * ("Yes, every claim is supported."): as a warning it marked nearly every row of a batch run, which
 * teaches people to skip warnings. The API keeps it a warning; the page decides by code.
 */
export const NOTE_CODES = Object.freeze(new Set(["answer.prose-after-verdict"]));

/** isNote says whether check c is shown as a note (NOTE_CODES), not as a warning. @param {{severity?: string, code?: string}} c */
export function isNote(c) {
  return c.severity !== "error" && NOTE_CODES.has(c.code || "");
}

/**
 * NEUTRAL_CAUSE is said of a verdict undetermined by design: the judge answered with a label its
 * custom evaluator maps to neither passed nor failed (a warning, answer.neutral-label, naming it).
 */
export const NEUTRAL_CAUSE = "the judge's label neither passes nor fails";

/** UNKNOWN_CAUSE is said of an error check whose code this page does not know (or that has none). */
export const UNKNOWN_CAUSE = "answer could not be read";

/** firstError is the first error check of a list, or undefined. */
export function firstError(checks) {
  return (checks || []).find((c) => c && c.severity === "error");
}

/** hasCode reports whether any check of the list has the given code. */
export function hasCode(checks, code) {
  return (checks || []).some((c) => c && c.code === code);
}

/**
 * causeOfChecks says in a few words why a verdict with these checks is undetermined: from its
 * first error check's code, except that an answer cut short says so whatever else went wrong
 * (what is missing is most likely missing for that reason); without an error, a label that
 * neither passes nor fails says so; else null.
 */
export function causeOfChecks(checks) {
  const err = firstError(checks);
  if (!err) return hasCode(checks, "answer.neutral-label") ? NEUTRAL_CAUSE : null;
  if (hasCode(checks, "answer.truncated")) return CAUSES["answer.truncated"];
  return CAUSES[err.code] || UNKNOWN_CAUSE;
}
