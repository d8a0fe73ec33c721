package diag

// Code is the stable name of a check, e.g. "answer.truncated". Codes are declared here and only
// here, each with a row in the README's "Check codes" table (TestCodesListed holds the two
// together); the page switches on them, so a code, once released, keeps its meaning.
type Code string

// The judge's answer as a whole.
const (
	AnswerTruncated       Code = "answer.truncated"
	AnswerUnreadable      Code = "answer.unreadable"
	AnswerNoVerdict       Code = "answer.no-verdict"
	AnswerSeveralVerdicts Code = "answer.several-verdicts"
	AnswerRepaired        Code = "answer.repaired"
	AnswerCoerced         Code = "answer.coerced"
	AnswerProseSkipped    Code = "answer.prose-skipped"
	// AnswerProseAfterVerdict: the verdict is the first word of a sentence that goes on ("No.
	// The date is wrong."), read as a person reads it but not a verdict line of its own.
	AnswerProseAfterVerdict Code = "answer.prose-after-verdict"
	AnswerEmpty             Code = "answer.empty"
	AnswerTooLong           Code = "answer.too-long"
)

// The evaluators' inputs, as render and parse check them (input.missing, input.empty-list and
// input.bad-item, which rowInputs reports too, are declared with its codes below).
const (
	InputUnknownMode      Code = "input.unknown-mode"
	InputNoMarkers        Code = "input.no-markers"
	InputWrongType        Code = "input.wrong-type"
	InputBlank            Code = "input.blank"
	InputDuplicateID      Code = "input.duplicate-id"
	InputOutOfRange       Code = "input.out-of-range"
	InputUnknownEvaluator Code = "input.unknown-evaluator"
)

// claim-groundedness.
const (
	ClaimsNotAList      Code = "claims.not-a-list"
	ClaimsKeyedObject   Code = "claims.keyed-object"
	ClaimsBadEntry      Code = "claims.bad-entry"
	ClaimsNoID          Code = "claims.no-id"
	ClaimsUnknownID     Code = "claims.unknown-id"
	ClaimsIDRewritten   Code = "claims.id-rewritten"
	ClaimsDuplicate     Code = "claims.duplicate"
	ClaimsSkipped       Code = "claims.skipped"
	ClaimsMissing       Code = "claims.missing"
	ClaimsBadAssertion  Code = "claims.bad-assertion"
	ClaimsContradiction Code = "claims.contradiction"
	ClaimsNoGrade       Code = "claims.no-grade"
)

// pairwise-faithfulness and its citation check.
const (
	PairwiseNoAnswer1     Code = "pairwise.no-answer-1"
	PairwiseNoAnswer2     Code = "pairwise.no-answer-2"
	PairwiseNotMeasurable Code = "pairwise.not-measurable"
	PairwiseBadAnswer     Code = "pairwise.bad-answer"
	PairwiseNoGrade       Code = "pairwise.no-grade"
	PairwiseBadGrade      Code = "pairwise.bad-grade"
	PairwiseBadFlag       Code = "pairwise.bad-flag"
	PairwiseInconsistent  Code = "pairwise.inconsistent"
	CitationUncited       Code = "citation.uncited"
	CitationOutOfRange    Code = "citation.out-of-range"
)

// rag-recall.
const (
	RecallNoScores          Code = "recall.no-scores"
	RecallScoresDoubtful    Code = "recall.scores-doubtful"
	RecallBadScores         Code = "recall.bad-scores"
	RecallInvalid           Code = "recall.invalid"
	RecallArithmeticDiffers Code = "recall.arithmetic-differs"
	RecallNoFinal           Code = "recall.no-final"
	RecallFinalUnreadable   Code = "recall.final-unreadable"
)

// Reading a dataset: the errors of readDataset (a text it cannot read at all) and the checks on
// its rows (a row not loaded is an error; a row loaded with a doubt is a warning).
const (
	DatasetTooLarge       Code = "dataset.too-large"
	DatasetEmpty          Code = "dataset.empty"
	DatasetUnknownFormat  Code = "dataset.unknown-format"
	DatasetNotUTF8        Code = "dataset.not-utf8"
	DatasetInvalidJSON    Code = "dataset.invalid-json"
	DatasetBadRow         Code = "dataset.bad-row"
	DatasetStopped        Code = "dataset.stopped"
	DatasetTextAfterRows  Code = "dataset.text-after-rows"
	DatasetTooManyRows    Code = "dataset.too-many-rows"
	DatasetTooManyColumns Code = "dataset.too-many-columns"
	DatasetUnclosedQuote  Code = "dataset.unclosed-quote"
	DatasetQuoteInField   Code = "dataset.quote-in-field"
	DatasetMissingFields  Code = "dataset.missing-fields"
)

// A dataset row's inputs, as rowInputs builds them through a column mapping; input.missing,
// input.empty-list and input.bad-item are also what render and parse say of an evaluator's inputs.
const (
	InputUnmapped      Code = "input.unmapped"
	InputMissing       Code = "input.missing"
	InputEmptyList     Code = "input.empty-list"
	InputNotAList      Code = "input.not-a-list"
	InputOneItem       Code = "input.one-item"
	InputListFromPipes Code = "input.list-from-pipes"
	InputBadListCell   Code = "input.bad-list-cell"
	InputNumpyList     Code = "input.numpy-list"
	InputNullItem      Code = "input.null-item"
	InputBadItem       Code = "input.bad-item"
	InputItemText      Code = "input.item-text"
	InputJoined        Code = "input.joined"
	InputNotText       Code = "input.not-text"
	InputNotANumber    Code = "input.not-a-number"
	InputNotAChoice    Code = "input.not-a-choice"
)

// Added by the page's batch engine (web/batch/runstate.js RepairCode) to a verdict read after its
// one repair request; declared here so that the README's table is the one list of codes.
const (
	RepairUsed       Code = "repair.used"
	RepairUnreadable Code = "repair.unreadable"
	RepairNone       Code = "repair.none"
)

// Added by the page's batch engine (web/stats/majority.js SPLIT_CODE) to the majority verdict of a
// row judged several times whose repeats split evenly between passed and failed.
const (
	RepeatSplit Code = "repeat.split"
)

// A pairwise row judged in both orders, its answers exchanged the second time (the check-up's
// CombineOrders).
const (
	PositionFlip     Code = "position.flip"
	PositionUngraded Code = "position.ungraded"
)

// A custom evaluator's definition, as rj.checkEvaluator and rj.define check it: each check has
// the path of the field it is about, and the line, column and length inside a template.
const (
	EvaluatorBadSpec           Code = "evaluator.bad-spec"
	EvaluatorUnknownField      Code = "evaluator.unknown-field"
	EvaluatorMissingField      Code = "evaluator.missing-field"
	EvaluatorWrongType         Code = "evaluator.wrong-type"
	EvaluatorBadValue          Code = "evaluator.bad-value"
	EvaluatorBadID             Code = "evaluator.bad-id"
	EvaluatorBuiltinID         Code = "evaluator.builtin-id"
	EvaluatorPromptAndMessages Code = "evaluator.prompt-and-messages"
	EvaluatorTemplate          Code = "evaluator.template"
	EvaluatorUndeclaredInput   Code = "evaluator.undeclared-input"
	EvaluatorUnusedInput       Code = "evaluator.unused-input"
	EvaluatorJudgedUnread      Code = "evaluator.judged-unread"
	EvaluatorDuplicateInput    Code = "evaluator.duplicate-input"
	EvaluatorBadLabel          Code = "evaluator.bad-label"
	EvaluatorBadPath           Code = "evaluator.bad-path"
	EvaluatorUnknownBuiltin    Code = "evaluator.unknown-builtin"
	EvaluatorBuiltinInput      Code = "evaluator.builtin-input"
)

// What a custom evaluator's reader says of a judge's answer, besides the answer.* codes above.
const (
	AnswerOutOfRange    Code = "answer.out-of-range"
	AnswerOtherScale    Code = "answer.other-scale"
	AnswerSeveralScores Code = "answer.several-scores"
	AnswerNeutralLabel  Code = "answer.neutral-label"
	AnswerMissingField  Code = "answer.missing-field"
	AnswerBadField      Code = "answer.bad-field"
)

// Confidence from logprobs (rj.parse with {logprobs}): why a verdict has no confidence. Each is a
// warning beside a verdict that stands as it was read; confidence is then null with
// confidence_reason.
const (
	ConfidenceNone           Code = "confidence.none"
	ConfidenceBadLogprobs    Code = "confidence.bad-logprobs"
	ConfidenceUnsupported    Code = "confidence.unsupported"
	ConfidenceNoVerdict      Code = "confidence.no-verdict"
	ConfidenceMismatch       Code = "confidence.mismatch"
	ConfidenceNoToken        Code = "confidence.no-token"
	ConfidenceNoAlternatives Code = "confidence.no-alternatives"
	ConfidenceAmbiguous      Code = "confidence.ambiguous"
	ConfidenceLowMass        Code = "confidence.low-mass"
)

// A jury of judges (rj.jury): why the jury's verdict is undetermined.
const (
	JuryTie          Code = "jury.tie"
	JuryUndetermined Code = "jury.undetermined"
)
