// types.js holds the JSDoc types of ragjudge.js's API (what load() returns and what its functions
// take and give), apart from the code so that each stays short; it exports no value. ragjudge.js
// names each of them again, so `import("../ragjudge.js").Agreement` keeps working.

/**
 * @typedef {Object} Input
 * @property {string} name the key in `inputs`
 * @property {string} label
 * @property {"text"|"list"|"claims"|"evidence"|"choice"|"number"} kind
 * @property {boolean} required
 * @property {string[]} [choices] for kind "choice"; the first is the default
 * @property {string} [help]
 * @property {boolean} [judged] true on exactly one input of each evaluator: the one its verdict is
 *   about (the answer being judged, not the expected one or the evidence)
 */

/**
 * @typedef {Object} Evaluator
 * @property {string} id e.g. "claim-groundedness"
 * @property {string} title
 * @property {string} description
 * @property {"jinja"|"format"} dialect the seed prompt's template language
 * @property {Input[]} inputs
 * @property {string} output what the judge writes, in words
 * @property {boolean} custom true for an evaluator defined with define()
 * @property {EvaluatorSpec} [spec] a custom evaluator's definition, normalised (defaults filled in)
 * @property {string[]} [variables] a built-in's: the names its prompt reads, which its reader
 *   makes of its inputs (claim-groundedness: question, reports, evidence); a custom evaluator
 *   with its reader (output kind "builtin") gets them all, undeclared
 */

/**
 * @typedef {Object} EvaluatorSpec a custom evaluator's definition (README "Custom evaluators")
 * @property {string} id `[a-z0-9-]+`, not a built-in's
 * @property {string} [title]
 * @property {string} [description]
 * @property {"jinja"|"format"} [dialect] default "jinja"
 * @property {string} [prompt] one user message (a template); or messages
 * @property {{role: "system"|"user"|"assistant", content: string}[]} [messages] each content a template
 * @property {{name: string, label?: string, kind?: string, required?: boolean, help?: string, judged?: boolean, choices?: string[]}[]} inputs
 * @property {Object} output the reader: {kind: "yes-no"|"score"|"label"|"json"|"builtin", ...}
 * @property {{passed: string, failed: string}} [words]
 * @property {{inputs: Object, answer: string}} [example]
 * @property {{replaced?: boolean|null, emptied?: boolean|null, halved?: boolean|null}} [checkup]
 *   the check-up's generic transformations of the judged input and the verdict right for each
 *   under this rubric: true passes, false fails, null the judge declines (a label mapped to
 *   null); one left out is not offered
 */

/**
 * @typedef {Check & {path: string}} SpecCheck a check of a definition: `path` is the field it is
 *   about ("inputs[2]", "messages[1].content"); `line`, `col`, `len` are inside that template
 */

/**
 * @typedef {Object} EvaluatorCheck what rj.checkEvaluator says of a definition
 * @property {boolean} ok no error: define() takes it
 * @property {SpecCheck[]} errors every error, each with its path (and line, col, len in a template)
 * @property {SpecCheck[]} warnings e.g. `evaluator.unused-input`: never in the way of define()
 * @property {string[]} variables the names its templates read, in the order of first reads
 * @property {string[]} provided the names a built-in reader makes of its inputs, which the
 *   templates read without declaring them (claim-groundedness's question, reports, evidence);
 *   [] for another reader. An editor never offers one of them as a new input
 */

/**
 * @typedef {Object} Span where one substitution landed in the prompt: `prompt.slice(start, end)`
 *   is the substituted text (offsets are JS string indices, UTF-16 code units).
 * @property {string} expr the expression, e.g. "question"
 * @property {string} input the input the substituted text comes from ("contexts" for
 *   `{{ passage }}` in `{% for passage in contexts %}`), "" for text of no input (`{{ loop.index }}`)
 * @property {number} start
 * @property {number} end
 */

/**
 * @typedef {Object} Rendered
 * @property {string} prompt
 * @property {{role: string, content: string}[]} messages one user message holding the prompt
 * @property {string[]} warnings
 * @property {Span[]} spans
 */

/**
 * @typedef {Object} Check
 * @property {"error"|"warning"} severity
 * @property {string} code stable, e.g. "answer.no-verdict" (the README's check codes): decide from it
 * @property {string} message for people; its wording may change
 * @property {string} [input] the input the check is about; absent: the judge's answer
 * @property {number} [line] 1-based line of the span the check is about, when there is one
 * @property {number} [col] 1-based column, in characters
 * @property {number} [len] the span's length, in characters
 */

/**
 * @typedef {Object} Verdict
 * @property {boolean|null} passed null when undetermined; then `checks` says why
 * @property {number|null} score
 * @property {Object} verdict evaluator-specific detail
 * @property {Check[]} checks
 */

/**
 * @typedef {Object} Recall
 * @property {number} essential rounded half up to at most 2 decimals
 * @property {number} bonus
 * @property {number} combined
 * @property {number} final min(5, combined)
 * @property {{essential: string, bonus: string, combined: string, final: string}} exact
 *   exact fractions, e.g. "7/2"
 * @property {{essential: number, bonus: number, combined: number, final: number}} stepped the
 *   seed's chain with each line rounded to 2 decimals before the next uses it (3.67 + 0.17 = 3.84
 *   where the exact combined value is 23/6, 3.83)
 * @property {string[]} lines the seed's own format, that chain, e.g. "RECALL_Essential_Formula: (4 + 3) / 2 = 3.5"
 */

/**
 * @typedef {Object} Dataset
 * @property {"jsonl"|"json"|"csv"|"tsv"} format the format given or detected
 * @property {"jsonl"|"json"|"csv"|"tsv"} [named] the format the file's name says, when the content
 *   was read as another (readDataset with a name and no format)
 * @property {string} [delimiter] for csv and tsv: ",", ";" or "\t"
 * @property {string[]} columns the union of the rows' keys, in first-seen order
 * @property {string[]} paths the columns and the dotted paths into object columns
 *   ("vars.question"): what a mapping may name
 * @property {Object[]} rows
 * @property {{line: number, col?: number, code: string, message: string}[]} errors rows that
 *   could not be read (codes `dataset.*`)
 * @property {{line: number, col?: number, row: number, code: string, message: string}[]} warnings
 *   rows loaded with a doubt (a quote kept as text); `row` is 1-based in `rows`
 */

/**
 * @typedef {Object} ColumnMatch why mapColumns chose a column: "question ← user_input (RAGAS)"
 * @property {string} input
 * @property {string} column the column or dotted path, as the dataset spells it
 * @property {string} alias the name of the alias table that matched (the input's own name, or a synonym)
 * @property {string} [tool] who writes that name ("RAGAS", "DeepEval, GroUSE"); absent for this tool's own names
 * @property {string} [nested] the object column it was found in ("vars")
 * @property {boolean} [guess] the path was not listed: the input's own name inside an object column
 */

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
 * @property {string} figure the figure, in words ("over 80%")
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

/**
 * @typedef {Object} RagJudge
 * @property {string} version
 * @property {() => Evaluator[]} evaluators the built-in evaluators, in display order
 * @property {(id: string, inputs: Object) => Rendered} render renders evaluator `id`'s prompt
 * @property {{(id: string, inputs: Object, output: string): Verdict; (id: string, inputs: Object, output: string, opts: ParseOptions): WeighedVerdict}} parse
 *   reads the judge's answer `output`; never throws for a bad answer (that is `passed: null` with
 *   an error check), only for a bad id, inputs or options. With `{logprobs}` the verdict also
 *   has `confidence` (null with `confidence_reason` when it cannot be had; bad logprobs included)
 * @property {(scores: {essential: (number|string)[], bonus?: (number|string)[]}) => Recall} recall
 *   the recall formula, computed exactly; scores may be numbers or numeric strings ("3.5")
 * @property {(passageGT: string) => {essential: string[], bonus: string[]}} passages splits a
 *   ground truth at its [ESSENTIAL PASSAGE] / [BONUS PASSAGE] markers
 * @property {(source: string, dialect: "jinja"|"format", vars?: Object) => string} template
 *   renders any template in the Jinja subset or Python str.format
 * @property {(source: string, dialect: "jinja"|"format") => string[]} variables the names a
 *   template reads from its inputs, in the order of their first reads (not the names a loop,
 *   set, with, macro parameter or call block binds, nor Jinja's globals such as range or loop);
 *   throws as template does for a template that does not parse
 * @property {(text: string, format?: "jsonl"|"json"|"csv"|"tsv", name?: string) => Dataset} readDataset reads a
 *   dataset; `format` omitted detects it from the content, with the file's `name` (its extension)
 *   only a hint: JSON Lines named .json is read as JSON Lines, and `named` says what the name said
 * @property {(id: string, columns: string[]) => {mapping: Object<string, string>, matches: ColumnMatch[]}} mapColumns
 *   extension: guesses which column feeds each of evaluator `id`'s inputs from the column names
 *   (the core's one alias table: RAGAS, DeepEval, GroUSE, ARES, RAGChecker, promptfoo `vars.*`,
 *   TruLens, Phoenix and this tool's own input names); `mapping` is input name -> column (or
 *   dotted path, e.g. "vars.question"), in the evaluator's input order; inputs with no likely
 *   column are left out; `matches` says for each mapped input which name it was recognised by.
 *   Pass a dataset's `paths` to let it look inside object columns.
 * @property {(id: string, row: Object, mapping: Object<string, string>) => {inputs: Object, checks: Check[], messages: string[]}} rowInputs
 *   extension: evaluator `id`'s inputs taken from one dataset row through `mapping`, converted
 *   to each input's kind (a JSON or Python list in a CSV cell becomes a list, ...); `checks`
 *   (codes `input.*`, each with its `input`) say what is missing or unreadable (errors: the input
 *   is left out, so render() then fails on it) or was adjusted (warnings); `messages` are their
 *   messages
 * @property {(judge: (boolean|null)[], human: (boolean|null)[]) => Agreement} agreement the
 *   judge's verdicts against human labels, pair by pair (true passed, false failed, null
 *   undetermined or no label); the two lists must be of the same length
 * @property {(xs: (number|null)[], ys: (number|null)[]) => Correlation} correlation the judge's
 *   scores xs against human scores ys, pair by pair, pairs with a null skipped
 * @property {(rows: (boolean|null)[][]) => Consistency} consistency each row's repeated verdicts
 * @property {(xs: (number|null)[]) => Description} describe the mean and sample standard
 *   deviation of scores, nulls skipped (a row's scores over a run's repeats)
 * @property {(p: (number|null)[], human: (boolean|null)[]) => Calibration} calibration the judge's
 *   probabilities of a pass (confidence.p_pass) against human labels, pair by pair, nulls skipped
 * @property {(verdicts: JuryMember[], opts?: JuryOptions) => JuryVerdict} jury one row's verdict
 *   from several judges' by a rule: "majority" (undetermined members vote "cannot say"; a tie is
 *   undetermined), "mean" of scores, "all" must pass, "any" passes
 * @property {(spec: EvaluatorSpec|string) => {id: string, inputs: Input[], warnings: SpecCheck[]}} define
 *   defines (or defines again) a custom evaluator from its definition (an object or its JSON
 *   text); render, parse, mapColumns and rowInputs then take its id. An input no template reads
 *   is optional, whatever `required` says. Throws a RagJudgeError of kind "evaluator" whose
 *   `problems` are every problem (checkEvaluator's errors), its `code`, `path`, `line` and `col`
 *   the first one's, its message all of them
 * @property {(id: string) => boolean} undefine removes custom evaluator `id`; false if there is none
 * @property {(spec: EvaluatorSpec|string) => EvaluatorCheck} checkEvaluator
 *   checks a definition without defining it and never throws for a bad one: every problem at once
 *   (for an editor's re-check on each keystroke); `variables` are the names its templates read
 * @property {(id: string) => EvaluatorSpec} spec evaluator `id` as an editable definition: a
 *   built-in's prompt, inputs and reader (output kind "builtin") under the id "<id>-copy", or a
 *   custom evaluator's own definition
 * @property {(id: string, inputs: Object, options?: {seed?: number, pool?: Object[]}) => CheckupCases} checkupCases
 *   the known-answer cases one row of evaluator `id` yields (README "The check-up"), the same for
 *   the same row, seed and pool; `pool` is other rows' inputs, where foreign sentences come from.
 *   Throws as render does for a row the evaluator cannot judge
 * @property {(c: CheckupCase, verdict: Verdict, refs?: Object<string, Verdict>) => CheckupGrade} checkupGrade
 *   grades a case by the verdict its inputs got (for a `both_orders` case, combineOrders' verdict);
 *   `refs` are the row's other cases' verdicts by transform, for an expectation relative to one
 * @property {(graded: {transform: string, outcome: string}[]) => {rows: CheckupRow[], overall: CheckupRow}} checkupMatrix
 *   counts graded cases by transformation, with catch rates and their Wilson intervals
 * @property {(id: string, inputs: Object) => Object} swapOrders a pairwise row's inputs with its
 *   two answers exchanged (expected_output and actual_output)
 * @property {(first: Verdict, second: Verdict) => Verdict} combineOrders one verdict of a pairwise
 *   row judged as it is (first) and exchanged (second): the actual output's grade when the orders
 *   agree, else undetermined with `position.flip`; its detail gains `orders`
 * @property {(verdicts: (Verdict|null)[]) => PositionStats} positionStats the flip rate and how
 *   often the first slot won, over combined verdicts
 */

export {};
