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
	AnswerEmpty           Code = "answer.empty"
	AnswerTooLong         Code = "answer.too-long"
)

// The evaluators' inputs.
const (
	InputUnknownMode      Code = "input.unknown-mode"
	InputNoMarkers        Code = "input.no-markers"
	InputEmptyList        Code = "input.empty-list"
	InputMissing          Code = "input.missing"
	InputWrongType        Code = "input.wrong-type"
	InputBlank            Code = "input.blank"
	InputBadItem          Code = "input.bad-item"
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
