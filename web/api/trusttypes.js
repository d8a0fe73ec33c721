// trusttypes.js holds the JSDoc types of ragjudge.js's trust functions (agreement, correlation,
// consistency, the check-up, confidence, calibration, the jury), apart from types.js so that each
// stays short; it exports no value.

/** @typedef {import("./types.js").Verdict} Verdict */
/** @typedef {import("./types.js").Check} Check */

/**
 * @typedef {Object} Agreement how the judge's verdicts agree with human labels (rj.agreement);
 *   every number that is undefined for the input is null, with a `*_reason` in words beside it
 * @property {number} pairs the pairs given: compared + no_label + undetermined
 * @property {number} compared pairs where the judge decided and the human label is given
 * @property {number} no_label pairs without a human label (whatever the judge said)
 * @property {number} undetermined pairs with a label but no verdict from the judge
 * @property {number} agree compared pairs where the two agree
 * @property {number|null} accuracy agree / compared
 * @property {number|null} kappa Cohen's κ over the compared pairs; null when undefined (no pair
 *   compared, or both gave one and the same class to every pair), then `kappa_reason` says why
 * @property {[number, number]|null} kappa_ci κ's 95% interval, κ ± 1.96·SE clipped to [−1, 1]
 * @property {number|null} kappa_se κ's large-sample standard error (Fleiss, Cohen & Everitt 1969)
 * @property {string} [kappa_reason]
 * @property {number|null} expected_agreement the agreement expected by chance (κ's p_e)
 * @property {{tt: number, tf: number, ft: number, ff: number, nt: number, nf: number}} matrix the
 *   confusion matrix: first letter the judge (t passed, f failed, n undetermined), second the human
 * @property {number|null} judge_fail_precision of the compared pairs the judge failed, the share
 *   the human failed too
 * @property {string} [judge_fail_precision_reason]
 * @property {number|null} judge_fail_recall of the compared pairs the human failed, the share the
 *   judge failed too
 * @property {string} [judge_fail_recall_reason]
 */

/**
 * @typedef {Object} Correlation how the judge's scores follow human scores (rj.correlation)
 * @property {number} n pairs where both scores are given (a null skips its pair)
 * @property {number|null} pearson Pearson's r; null when n < 2 or a side does not vary
 * @property {string} [pearson_reason]
 * @property {number|null} spearman Spearman's ρ, tied scores given their average rank
 * @property {string} [spearman_reason]
 * @property {number|null} mae the mean absolute difference, in the scores' unit; null when n = 0
 * @property {string} [mae_reason]
 */

/**
 * @typedef {Object} RowConsistency one row's repeated verdicts (rj.consistency)
 * @property {boolean|null} majority the most frequent of passed, failed and undetermined; null on
 *   a tie for the most frequent, when undetermined is the most frequent, and for no verdicts
 * @property {boolean} unanimous at least one verdict, all the same (undetermined counts as one)
 * @property {number} n @property {number} passed @property {number} failed
 * @property {number} undetermined
 */

/**
 * @typedef {Object} Consistency the judge's agreement with itself over repeats (rj.consistency)
 * @property {number} rows
 * @property {number} unanimous rows with verdicts, all the same
 * @property {number} split rows with two verdicts or more, not all the same
 * @property {number|null} fleiss_kappa Fleiss' κ with passed, failed and undetermined as its
 *   categories (pass a failed repeat as null, not left out), over the rows with the most common
 *   number of verdicts (two or more); null when undefined, then `fleiss_reason` says why
 * @property {string} [fleiss_reason]
 * @property {number} fleiss_rows the rows κ is over
 * @property {number} fleiss_repeats their number of verdicts each
 * @property {RowConsistency[]} per_row
 */

/**
 * @typedef {Object} Description the mean and spread of scores (rj.describe)
 * @property {number} n the scores given (a null is skipped)
 * @property {number|null} mean null when n = 0, with `mean_reason`
 * @property {number|null} sd the sample standard deviation (n − 1); null when n < 2, with `sd_reason`
 * @property {string} [mean_reason] @property {string} [sd_reason]
 */

/**
 * @typedef {Object} CheckupExpect what a known-answer case's verdict must say: `text` in words,
 *   and exactly one of `passed` (true, false, or null: the judge declines, not measurable),
 *   `claim` (one claim's grade, from the claim cards), `scores` (rag-recall's passage and final
 *   scores; `final_below` names the transform of the row's case whose recall this one's must be
 *   below, given to checkupGrade in `refs`) or `orders` ("same": judged in both orders, the grades
 *   follow the answers)
 * @property {string} text
 * @property {boolean|null} [passed]
 * @property {{passed: string, failed: string}} [words] the evaluator's words, with `passed`
 * @property {{id: string, grounded: boolean}} [claim]
 * @property {{essential_min?: number, essential_max?: number, passage?: number, passage_max?: number, final_min?: number, final_below?: string}} [scores]
 * @property {"same"} [orders]
 */

/**
 * @typedef {Object} CheckupCase one known-answer case of a row (rj.checkupCases): plain inputs
 *   for the evaluator, run like any row; its verdict is graded with rj.checkupGrade
 * @property {string} name the transformation, in words ("A claim from another row")
 * @property {string} transform its stable id ("foreign", "citations-removed", …; README "The check-up")
 * @property {Object} inputs the evaluator's inputs
 * @property {CheckupExpect} expect
 * @property {string} note what was done to this row ("the added claim is a sentence of row 4 of the pool …")
 * @property {boolean} [both_orders] a pairwise case to judge in both orders (rj.swapOrders), the
 *   two verdicts combined with rj.combineOrders before grading
 */

/**
 * @typedef {Object} CheckupCases what rj.checkupCases gives for one row
 * @property {CheckupCase[]} cases
 * @property {{transform: string, name: string, reason: string}[]} skipped the transformations the
 *   row does not allow, and why
 */

/**
 * @typedef {Object} CheckupGrade rj.checkupGrade's reading of a case's verdict
 * @property {"caught"|"missed"|"undetermined"} outcome
 * @property {string} detail why, in words ("expected claim c4 ungrounded; the judge graded it grounded")
 * @property {string} [code] for undetermined: the verdict's check code that left it so
 */

/**
 * @typedef {Object} Proportion k of n, its share and the share's 95% Wilson score interval;
 *   `rate` and `ci` are null for n = 0, with `reason`
 * @property {number} k @property {number} n
 * @property {number|null} rate
 * @property {[number, number]|null} ci exactly 0 and 1 at the ends
 * @property {string} [reason]
 */

/**
 * @typedef {Object} CheckupRow one transformation's line of the matrix (rj.checkupMatrix)
 * @property {string} transform "" for the overall row
 * @property {number} caught @property {number} missed @property {number} undetermined
 * @property {number} total
 * @property {Proportion} catch caught of caught + missed (undetermined cases are not counted in it)
 */

/**
 * @typedef {Object} PositionStats a pairwise run judged in both orders (rj.positionStats)
 * @property {number} rows the verdicts given
 * @property {number} compared rows whose two orders could be compared
 * @property {number} flips compared rows where an answer's grade changed with its place
 * @property {Proportion} flip flips of compared
 * @property {number} decided orders in which one slot's answer got 1 and the other 0
 * @property {number} first_won of those, the orders the first slot's answer won
 * @property {Proportion} first first_won of decided: near 0.5 without position bias
 * @property {number} not_both verdicts given that were not combined (null, or one order's)
 */

/**
 * @typedef {Object} CheckupReference a published figure to read a check-up by (checkupReferences)
 * @property {string} id
 * @property {string} name the benchmark's name ("MT-Bench")
 * @property {string} figure the figure, in words ("over 80%")
 * @property {string} short what was measured, in a line (shown beside a catch rate; `measures` says it in full)
 * @property {number|null} value the figure as a share, when it is one
 * @property {string} measures what was measured, in words
 * @property {string} compare what of a check-up it may be set beside, and how far
 * @property {{authors: string, title: string, venue: string, year: number, url: string}} source
 */

/**
 * @typedef {Object} Logprob one token of a chat completion's choices[0].logprobs.content, as
 *   OpenAI, vLLM, llama.cpp and Ollama write it (other keys, such as llama.cpp's `id`, are ignored)
 * @property {string} token
 * @property {number} logprob finite and at most 0 (−9999 is read as a probability of 0)
 * @property {number[]|null} [bytes] its UTF-8 bytes, which win over `token` when given
 * @property {{token: string, logprob: number, bytes?: number[]|null}[]|null} [top_logprobs] the
 *   most likely tokens at its position (asked with top_logprobs: N)
 */

/**
 * @typedef {Object} ParseOptions
 * @property {Logprob[]|{content: Logprob[]|null}|null} [logprobs] the chat completion's
 *   choices[0].logprobs.content (or choices[0].logprobs) that wrote the answer; the key given,
 *   even as null, asks for a confidence
 */

/**
 * @typedef {Object} Confidence how sure the judge was of its verdict, from the logprobs at the
 *   token where the reader found it (README "Confidence from logprobs")
 * @property {"verdict"|"score"} kind "verdict": a pass or fail word (yes/no, a label, a JSON
 *   grade); "score": a number on a scale
 * @property {number|null} p_pass the share of the passing words' (or passing scores') first
 *   tokens, renormalised with the failing ones: p_pass + p_fail = 1; null for a score reader
 *   without a passing score
 * @property {number|null} p_fail
 * @property {number} mass the probability the verdict words (or the scale's numbers) held at that
 *   token before renormalising, at least 0.5
 * @property {number} [expected_score] kind "score": Σ p·s over the scale's numbers
 * @property {{score: number, p: number}[]} [distribution] kind "score": each score seen among the
 *   alternatives with its share, by ascending score
 * @property {{index: number, text: string, logprob: number}} token the token read: its index in
 *   the logprobs, its text and its own log probability
 */

/**
 * @typedef {Verdict & {confidence: Confidence|null, confidence_reason?: string}} WeighedVerdict
 *   a verdict parsed with {logprobs}: `confidence` null when it cannot be had, with
 *   `confidence_reason` and a `confidence.*` warning among the checks
 */

/**
 * @typedef {Object} CalibrationBin one bin of a reliability diagram
 * @property {number} lo @property {number} hi the bin is [lo, hi) ([0.9, 1] for the last)
 * @property {number} n the pairs in it
 * @property {number|null} mean_p their mean probability; null for an empty bin
 * @property {number|null} rate the share of them the humans passed; null for an empty bin
 */

/**
 * @typedef {Object} Calibration how the judge's confidence holds against human labels
 *   (rj.calibration)
 * @property {number} n pairs with both a probability and a label
 * @property {number} skipped pairs with a null on either side
 * @property {number|null} brier the mean of (p − y)², y 1 for a human pass; null when n = 0
 * @property {string} [brier_reason]
 * @property {number|null} ece the expected calibration error, Σ (n_b/n)·|mean_p − rate| over the
 *   bins; null when n = 0
 * @property {string} [ece_reason]
 * @property {CalibrationBin[]} bins ten equal-width bins of p, empty ones kept
 */

/**
 * @typedef {boolean|null|number|{passed?: boolean|null, score?: number|null}} JuryMember one judge's
 *   verdict on the row: true, false, null (undetermined), a score (rule "mean"), or an object
 *   with `passed` and `score` (rj.parse's result will do)
 */

/**
 * @typedef {Object} JuryOptions
 * @property {"majority"|"mean"|"all"|"any"} [rule] default "majority"
 * @property {number} [pass_at] rule "mean": the mean passes at this score
 */

/**
 * @typedef {Object} JuryVerdict the jury's verdict on a row (rj.jury), shaped as a verdict
 * @property {boolean|null} passed null when undetermined (then `checks` holds jury.tie or
 *   jury.undetermined), or for rule "mean" without pass_at
 * @property {number|null} score 1 or 0 by the verdict; the mean for rule "mean"
 * @property {"majority"|"mean"|"all"|"any"} rule
 * @property {number} members
 * @property {{passed: number, failed: number, undetermined: number}} votes the members' verdicts
 * @property {number} scored the members with a score
 * @property {Check[]} checks
 */

export {};
