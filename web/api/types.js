// types.js holds the JSDoc types of ragjudge.js's API (what load() returns and what its functions
// take and give), apart from the code so that each stays short; it exports no value. ragjudge.js
// names each of them again, so `import("../ragjudge.js").Agreement` keeps working; the types of the
// trust functions (agreement, the check-up, confidence, the jury) are in trusttypes.js.

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
 * @property {string} [variable] the name the prompt reads this input as, when its reader makes a
 *   variable of another name of it (claim-groundedness's claims are read as reports)
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

/** @typedef {import("./trusttypes.js").Agreement} Agreement */
/** @typedef {import("./trusttypes.js").Correlation} Correlation */
/** @typedef {import("./trusttypes.js").RowConsistency} RowConsistency */
/** @typedef {import("./trusttypes.js").Consistency} Consistency */
/** @typedef {import("./trusttypes.js").Description} Description */
/** @typedef {import("./trusttypes.js").CheckupExpect} CheckupExpect */
/** @typedef {import("./trusttypes.js").CheckupCase} CheckupCase */
/** @typedef {import("./trusttypes.js").CheckupCases} CheckupCases */
/** @typedef {import("./trusttypes.js").CheckupGrade} CheckupGrade */
/** @typedef {import("./trusttypes.js").Proportion} Proportion */
/** @typedef {import("./trusttypes.js").CheckupRow} CheckupRow */
/** @typedef {import("./trusttypes.js").PositionStats} PositionStats */
/** @typedef {import("./trusttypes.js").CheckupReference} CheckupReference */
/** @typedef {import("./trusttypes.js").Logprob} Logprob */
/** @typedef {import("./trusttypes.js").ParseOptions} ParseOptions */
/** @typedef {import("./trusttypes.js").Confidence} Confidence */
/** @typedef {import("./trusttypes.js").WeighedVerdict} WeighedVerdict */
/** @typedef {import("./trusttypes.js").CalibrationBin} CalibrationBin */
/** @typedef {import("./trusttypes.js").Calibration} Calibration */
/** @typedef {import("./trusttypes.js").JuryMember} JuryMember */
/** @typedef {import("./trusttypes.js").JuryOptions} JuryOptions */
/** @typedef {import("./trusttypes.js").JuryVerdict} JuryVerdict */

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
