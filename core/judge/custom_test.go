package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// decodeObject reads a JSON object written in a test.
func decodeObject(t testing.TB, text string) *value.Object {
	t.Helper()
	v, err := value.Decode([]byte(text))
	require.NoError(t, err, text)
	o, ok := v.(*value.Object)
	require.True(t, ok, text)
	return o
}

// spec is a normalised definition (as the JS API sends it) with the given output and prompt,
// reading the inputs question (text) and answer (text).
func spec(id, prompt, output string) string {
	return `{"id": "` + id + `", "title": "T", "description": "", "dialect": "jinja", "prompt": ` + prompt + `,
		"inputs": [{"name": "question", "label": "Q", "kind": "text", "required": true},
		           {"name": "answer", "label": "A", "kind": "text", "required": true, "judged": true}],
		"output": ` + output + `}`
}

// defineSpec defines text in a fresh registry and returns the registry.
func defineSpec(t testing.TB, text string) *Registry {
	t.Helper()
	r := testRegistry(t)
	_, err := r.Define(decodeObject(t, text))
	require.NoError(t, err)
	return r
}

var inputsQA = value.NewObject("question", "Q?", "answer", "A.")

// readerCase is one judge answer and what a custom reader must make of it: passed and score (nil
// for undetermined), the detail's label, and the codes of its checks in order.
type readerCase struct {
	name, answer string
	passed       *bool
	score        *float64
	label        string
	codes        []diag.Code
}

func yes() *bool                       { return verdictPassed(true) }
func no() *bool                        { return verdictPassed(false) }
func score(f float64) *float64         { return verdictScore(f) }
func codes(c ...diag.Code) []diag.Code { return c }

func runReaderCases(t *testing.T, r *Registry, id string, cases []readerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := r.Parse(id, inputsQA, tc.answer)
			require.NoError(t, err)
			assert.Equal(t, tc.passed, v.Passed, "passed")
			assert.Equal(t, tc.score, v.Score, "score")
			var got []diag.Code
			for _, c := range v.Checks {
				got = append(got, c.Code)
				if c.Severity == diag.SevError {
					assert.Nil(t, v.Passed, "an error check leaves the verdict undetermined")
				}
			}
			assert.Equal(t, tc.codes, got, "checks: %v", v.Checks)
			if d, ok := v.Verdict.(*CustomDetail); ok && tc.label != "" {
				assert.Equal(t, tc.label, d.Label)
			}
		})
	}
}

func TestCustomYesNoReader(t *testing.T) {
	r := defineSpec(t, spec("polite", `"Is it polite? {{ answer }}"`, `{"kind": "yes-no", "pass": "yes"}`))
	runReaderCases(t, r, "polite", []readerCase{
		{name: "bare yes", answer: "Yes.", passed: yes(), score: score(1), label: "yes"},
		{name: "verdict line after prose", answer: "The tone is courteous throughout.\nVerdict: no", passed: no(), score: score(0), label: "no"},
		{name: "reasoning block then answer", answer: "<think>Is \"thanks\" polite? Yes, it is.</think>\n**Yes**", passed: yes(), score: score(1)},
		{name: "truncated inside reasoning", answer: "<think>The reply starts with a greeting, so", codes: codes(diag.AnswerTruncated)},
		{name: "yes inside a sentence is no verdict", answer: "I would say yes, mostly, but it is curt.", codes: codes(diag.AnswerNoVerdict)},
		{name: "verdicts that disagree", answer: "Yes\nOn reflection:\nNo", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "empty", answer: "  ", codes: codes(diag.AnswerEmpty)},
		{name: "yes then its reason", answer: "Yes, it thanks the user and apologises.", passed: yes(), score: score(1), label: "yes", codes: codes(diag.AnswerProseAfterVerdict)},
		{name: "No. then its reason", answer: "No. It ends with \"whatever\".", passed: no(), score: score(0), label: "no", codes: codes(diag.AnswerProseAfterVerdict)},
		{name: "first word against the last line", answer: "No, it is curt.\nOn reflection it is fine.\nYes", codes: codes(diag.AnswerSeveralVerdicts)},
	})
	// pass "no": the judge's "no" passes (a question about a fault).
	r = defineSpec(t, spec("hallucinates", `"Does it invent facts? {{ answer }}"`, `{"kind": "yes-no", "pass": "no"}`))
	runReaderCases(t, r, "hallucinates", []readerCase{
		{name: "no passes", answer: "Final answer: No", passed: yes(), score: score(1), label: "no"},
		{name: "yes fails", answer: "yes", passed: no(), score: score(0), label: "yes"},
	})
}

func TestCustomLabelReader(t *testing.T) {
	r := defineSpec(t, spec("correctness", `"{{ question }} {{ answer }}"`,
		`{"kind": "label", "labels": {"Correct": true, "partially correct": null, "incorrect": false, "N/A": null}}`))
	runReaderCases(t, r, "correctness", []readerCase{
		{name: "whole answer", answer: "Correct.", passed: yes(), score: score(1), label: "Correct"},
		{name: "multi-word label with emphasis", answer: "It gets the year right but not the month.\n\nVerdict: **Partially  Correct**", label: "partially correct", codes: codes(diag.AnswerNeutralLabel)},
		{name: "incorrect is not correct", answer: "incorrect", passed: no(), score: score(0), label: "incorrect"},
		{name: "label on the last line", answer: "The dates differ.\nIncorrect", passed: no(), score: score(0), label: "incorrect"},
		{name: "label with a slash", answer: "Verdict: n/a", label: "N/A", codes: codes(diag.AnswerNeutralLabel)},
		{name: "label inside prose is none", answer: "The answer is mostly correct.", codes: codes(diag.AnswerNoVerdict)},
		{name: "labels that disagree", answer: "Verdict: correct\nFinal verdict: incorrect", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "fenced label", answer: "```\ncorrect\n```", passed: yes(), score: score(1), label: "Correct"},
		{name: "cut in the reasoning", answer: "<think>Compare the two dates", codes: codes(diag.AnswerTruncated)},
		// A label at the start of a sentence that goes on reads as that label, as yes and no do.
		{name: "label then a period and prose", answer: "Correct. The answer matches the reference.", passed: yes(), score: score(1), label: "Correct",
			codes: codes(diag.AnswerProseAfterVerdict)},
		{name: "multi-word label then a comma", answer: "Partially correct, the year is right but not the month.", label: "partially correct",
			codes: codes(diag.AnswerProseAfterVerdict, diag.AnswerNeutralLabel)},
		{name: "label then a colon", answer: "**Incorrect**: the reference gives 1889.", passed: no(), score: score(0), label: "incorrect", codes: codes(diag.AnswerProseAfterVerdict)},
		{name: "label followed by a word is prose", answer: "Correct answers name the year; this one does not.", codes: codes(diag.AnswerNoVerdict)},
		// LangChain's QA grader asks for "GRADE: CORRECT or INCORRECT" (its prompt, langchain
		// evaluation/qa/eval_prompt.py); judges often go on after it.
		{name: "GRADE: line", answer: "The student answer gives 1889, as the true answer does.\nGRADE: CORRECT", passed: yes(), score: score(1), label: "Correct"},
		{name: "GRADE: first, then prose", answer: "GRADE: INCORRECT\n\nThe true answer is 1889.", passed: no(), score: score(0), label: "incorrect"},
	})
	// Arize Phoenix's classification templates: a bare label, or with an explanation, an answer
	// that ends "LABEL: <label>" (the prompt itself ends "EXPLANATION:", so the answer may start
	// in the middle of one). Written in the shape its tests and tutorials show.
	r = defineSpec(t, spec("hallucination", `"{{ question }} {{ answer }}"`, `{"kind": "label", "labels": {"factual": true, "hallucinated": false}}`))
	runReaderCases(t, r, "hallucination", []readerCase{
		{name: "bare label with white space", answer: "\nfactual ", passed: yes(), score: score(1), label: "factual"},
		{name: "explanation then LABEL", answer: "EXPLANATION: The reference gives 1889 and so does the answer.\nLABEL: factual", passed: yes(), score: score(1), label: "factual"},
		{name: "continued explanation then a quoted LABEL", answer: "The answer says 1887, but the reference text says 1889, so the answer is not factual.\nLABEL: \"hallucinated\"",
			passed: no(), score: score(0), label: "hallucinated"},
		{name: "bold LABEL", answer: "**EXPLANATION:** It adds a claim.\n**LABEL:** hallucinated", passed: no(), score: score(0), label: "hallucinated"},
		{name: "LABEL first", answer: "LABEL: hallucinated\nEXPLANATION: the date is made up.", passed: no(), score: score(0), label: "hallucinated"},
		{name: "LABEL followed by a word is prose", answer: "EXPLANATION: x\nLABEL: factual claims only", codes: codes(diag.AnswerNoVerdict)},
		{name: "LABEL against the first line", answer: "factual\nEXPLANATION: on reflection it invents a date.\nLABEL: hallucinated", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "the format echoed", answer: "EXPLANATION: The reference and the answer agree.\nLABEL: factual/hallucinated", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "label then a dash and the reason", answer: "Hallucinated - the date is not in the reference.", passed: no(), score: score(0), label: "hallucinated",
			codes: codes(diag.AnswerProseAfterVerdict)},
		{name: "bold label, period, reason", answer: "**Factual.** Every detail is in the reference.", passed: yes(), score: score(1), label: "factual", codes: codes(diag.AnswerProseAfterVerdict)},
	})
	// Phoenix issue #2404 (Arize-ai/phoenix): Claude answered a relevance template with the label
	// and its explanation on one line, " label: unrelated, explanation: A more relevant …".
	r = defineSpec(t, spec("relevance", `"{{ question }} {{ answer }}"`, `{"kind": "label", "labels": {"relevant": true, "unrelated": false}}`))
	runReaderCases(t, r, "relevance", []readerCase{
		{name: "label and explanation on one line", answer: " label: unrelated, explanation: A more relevant recommendation would likely be XYZ.", passed: no(), score: score(0), label: "unrelated"},
	})
	// autoevals' first chain-of-thought suffix asked for the choice again as "Answer=X".
	r = defineSpec(t, spec("factuality", `"{{ question }} {{ answer }}"`, `{"kind": "label", "labels": {"A": null, "B": null, "C": true, "D": false, "E": true}}`))
	runReaderCases(t, r, "factuality", []readerCase{
		{name: "Answer=X after the reasoning", answer: "1. The expert says Paris.\n2. The submission says Paris, France.\nD is wrong since nothing conflicts.\nC\nAnswer=C", passed: yes(), score: score(1), label: "C"},
		{name: "Answer = X", answer: "The submission contradicts the expert.\nAnswer = D", passed: no(), score: score(0), label: "D"},
		{name: "a sentence starting with a choice letter is prose", answer: "A submitted answer may be a subset.\nAnswer: A subset of the expert answer", codes: codes(diag.AnswerNoVerdict)},
		{name: "a list marker is no choice", answer: "A. The expert says Paris.\nB. The submission says Paris, France.", codes: codes(diag.AnswerNoVerdict)},
		{name: "E.g. is a word", answer: "E.g. the submission adds a country.", codes: codes(diag.AnswerNoVerdict)},
		{name: "a choice then a colon", answer: "C: the submission is a superset of the expert answer.", passed: yes(), score: score(1), label: "C", codes: codes(diag.AnswerProseAfterVerdict)},
	})
	// The message names the labels, not yes and no.
	r = defineSpec(t, spec("correctness", `"{{ question }} {{ answer }}"`,
		`{"kind": "label", "labels": {"Correct": true, "partially correct": null, "incorrect": false, "N/A": null}}`))
	v, err := r.Parse("correctness", inputsQA, "maybe")
	require.NoError(t, err)
	assert.Contains(t, v.Checks[0].Message, `one of "Correct", "partially correct", "incorrect" or "N/A"`)
}

func TestCustomScoreReader(t *testing.T) {
	r := defineSpec(t, spec("quality", `"{{ question }} {{ answer }}"`, `{"kind": "score", "label": "Score", "min": 1, "max": 5, "pass_at": 4}`))
	runReaderCases(t, r, "quality", []readerCase{
		{name: "plain", answer: "Score: 4", passed: yes(), score: score(4)},
		{name: "bold label over max", answer: "The answer is complete.\n\n**Score:** 4/5", passed: yes(), score: score(4)},
		{name: "equals", answer: "Score = 3", passed: no(), score: score(3)},
		{name: "decimal", answer: "Final score: 4.5", passed: yes(), score: score(4.5)},
		{name: "sentence period", answer: "Score: 2.", passed: no(), score: score(2)},
		{name: "json-ish", answer: `{"score": 5, "reason": "complete"}`, passed: yes(), score: score(5)},
		// A judge that contradicts itself is undetermined, as the yes/no and label readers make
		// "Yes … Final answer: No": never the score written last.
		{name: "scores that disagree are no score", answer: "Score: 4\nOn second thought the dates are wrong.\nScore: 2", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "a revised score disagrees too", answer: "Draft. Score: 2\nAfter checking the dates again:\nScore: 5", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "same score twice is no warning", answer: "Score: 4\nScore: 4", passed: yes(), score: score(4)},
		{name: "reasoning echoes the format", answer: "<think>I must end with Score: 1 to 5. Maybe Score: 3</think>\nScore: 4", passed: yes(), score: score(4)},
		{name: "out of range is an error, never clamped", answer: "Score: 7", codes: codes(diag.AnswerOutOfRange)},
		{name: "the scale echoed is no score", answer: "The answer covers the question.\nScore: 1-5", codes: codes(diag.AnswerNoVerdict)},
		{name: "a range is no score", answer: "Score: 3 – 4", codes: codes(diag.AnswerNoVerdict)},
		{name: "a range in words is no score", answer: "Score: 3 to 4", codes: codes(diag.AnswerNoVerdict)},
		{name: "a range, then the score", answer: "Score: 1-5, where 5 is best.\nScore: 4", passed: yes(), score: score(4)},
		{name: "a dash then words is no range", answer: "Score: 2 - the dates are wrong", passed: no(), score: score(2)},
		{name: "the scale in parentheses before the colon", answer: "The answer is complete.\nScore (1-5): 4", passed: yes(), score: score(4)},
		{name: "an aside in parentheses", answer: "**Score (out of 5):** 3", passed: no(), score: score(3)},
		{name: "parentheses that never close are no aside", answer: "Score (1-5 4", codes: codes(diag.AnswerNoVerdict)},
		{name: "zero below min", answer: "Score: 0", codes: codes(diag.AnswerOutOfRange)},
		{name: "negative", answer: "Score: -1", codes: codes(diag.AnswerOutOfRange)},
		{name: "another scale", answer: "Score: 8/10", codes: codes(diag.AnswerOtherScale)},
		{name: "another scale, then this one: the last wins", answer: "Out of ten, Score: 8/10.\nOn the 1-5 scale, Score: 4/5", passed: yes(), score: score(4), codes: codes(diag.AnswerSeveralScores)},
		{name: "this scale, then another", answer: "Score: 4/5, i.e. Score: 8/10", codes: codes(diag.AnswerOtherScale)},
		{name: "label without a number", answer: "Score: N/A, the answer is empty", codes: codes(diag.AnswerNoVerdict)},
		{name: "no label", answer: "I rate it four out of five.", codes: codes(diag.AnswerNoVerdict)},
		{name: "a word that starts with the label", answer: "Scores: 4", codes: codes(diag.AnswerNoVerdict)},
		{name: "number then a letter", answer: "Score: 4th", codes: codes(diag.AnswerNoVerdict)},
		{name: "truncated reasoning", answer: "<think>Score: 4 seems", codes: codes(diag.AnswerTruncated)},
		{name: "empty", answer: "", codes: codes(diag.AnswerEmpty)},
		// Scores of aspects beside the score: the label after another word is another score
		// while the label also stands on its own (multi-criteria rubrics, G-Eval-style steps).
		{name: "overall first, then an aspect", answer: "Overall Score: 4\nClarity Score: 2", passed: yes(), score: score(4), codes: codes(diag.AnswerSeveralScores)},
		{name: "aspects, then the score", answer: "- Accuracy Score: 2\n- Clarity Score: 5\n\n**Score:** 3", passed: no(), score: score(3), codes: codes(diag.AnswerSeveralScores)},
		{name: "a score in a sentence after the score", answer: "Score: 4\n\nNote: a Score: 5 would need the launch date too.", passed: yes(), score: score(4), codes: codes(diag.AnswerSeveralScores)},
		{name: "only aspect scores: read as they come", answer: "Relevance Score: 2\nCompleteness Score: 4", passed: yes(), score: score(4), codes: codes(diag.AnswerSeveralScores)},
		{name: "an aspect alone", answer: "Relevance Score: 4", passed: yes(), score: score(4)},
		{name: "final and total only say which: a score beside another disagrees", answer: "Score: 2 for the first part.\nTotal Score: 4", codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "final only says which: the score beside aspects", answer: "Clarity Score: 2\nFinal Score: 4", passed: yes(), score: score(4), codes: codes(diag.AnswerSeveralScores)},
		{name: "snake-case aspect keys", answer: `{"clarity_score": 2, "overall_score": 4}`, passed: yes(), score: score(4), codes: codes(diag.AnswerSeveralScores)},
		// A comma in the number: a decimal comma (4,5) or a thousands separator (1,000), not 4 or 1.
		{name: "decimal comma", answer: "Score: 4,5", codes: codes(diag.AnswerNoVerdict)},
		{name: "thousands separator", answer: "Score: 1,000", codes: codes(diag.AnswerNoVerdict)},
		{name: "a comma then a reason", answer: "Score: 2, the dates are wrong", passed: no(), score: score(2)},
		{name: "a vulgar fraction is no whole number", answer: "Score: 4½", codes: codes(diag.AnswerNoVerdict)},
		// "Score: [your score]" in the prompt, filled in.
		{name: "number in brackets", answer: "Feedback: complete.\nScore: [4]", passed: yes(), score: score(4)},
		{name: "range in brackets is the format echoed", answer: "Score: [1-5]", codes: codes(diag.AnswerNoVerdict)},
		{name: "brackets around more than a number", answer: "Score: [4 of 5]", codes: codes(diag.AnswerNoVerdict)},
		// A bold label or a heading above its number.
		{name: "number on the next line", answer: "The answer is complete.\n\n**Score:**\n4", passed: yes(), score: score(4)},
		{name: "number after a blank line", answer: "### Score:\n\n3/5", passed: no(), score: score(3)},
		{name: "a list on the next line is no score", answer: "Score:\n- relevance 4\n- clarity 3", codes: codes(diag.AnswerNoVerdict)},
	})
	// Microsoft.Extensions.AI.Evaluation's and Azure AI Evaluation's evaluators ask for "<S0>your
	// chain of thoughts</S0>, <S1>your explanation</S1>, <S2>your Score</S2>" (their prompts;
	// dotnet/extensions #6569 quotes a judge's "Let's think step by step" answer); other prompts
	// ask for the score in <score> tags.
	r = defineSpec(t, spec("groundedness", `"{{ question }} {{ answer }}"`, `{"kind": "score", "label": "S2", "min": 1, "max": 5, "pass_at": 4}`))
	runReaderCases(t, r, "groundedness", []readerCase{
		{name: "S0 S1 S2", answer: "<S0>Let's think step by step: the context gives the order id and the tracking code; the response repeats both.</S0>\n<S1>Fully grounded.</S1>\n<S2>5</S2>",
			passed: yes(), score: score(5)},
		{name: "score tag with spaces", answer: "<S0>The response adds a delivery date.</S0><S1>Partly grounded.</S1><S2> 3 </S2>", passed: no(), score: score(3)},
		{name: "the format echoed in the thoughts, then the score", answer: "<S0>I must give <S2>your Score</S2> as 1 to 5.</S0><S2>4</S2>", passed: yes(), score: score(4)},
		{name: "a closing tag is no label", answer: "<S0>x</S0><S1>y</S1></S2>", codes: codes(diag.AnswerNoVerdict)},
		{name: "S2 tag left empty", answer: "<S0>x</S0><S1>y</S1><S2></S2>", codes: codes(diag.AnswerNoVerdict)},
	})
	r = defineSpec(t, spec("tagged", `"{{ question }} {{ answer }}"`, `{"kind": "score", "label": "score", "min": 0, "max": 10, "pass_at": 7}`))
	runReaderCases(t, r, "tagged", []readerCase{
		{name: "score tags", answer: "<reasoning>All claims hold.</reasoning>\n<score>9</score>", passed: yes(), score: score(9)},
	})
	// Prometheus-style feedback ends with the score after a tag in brackets.
	r = defineSpec(t, spec("prometheus", `"{{ question }} {{ answer }}"`, `{"kind": "score", "label": "RESULT", "min": 1, "max": 5, "pass_at": 4}`))
	runReaderCases(t, r, "prometheus", []readerCase{
		{name: "tag then the score", answer: "Feedback: The response covers every point of the reference answer. [RESULT] 5", passed: yes(), score: score(5)},
		{name: "tag on its own line, over max", answer: "Feedback: Two of the dates are wrong.\n[RESULT] 2/5", passed: no(), score: score(2)},
		{name: "tag then a colon", answer: "[RESULT]: 4", passed: yes(), score: score(4)},
		{name: "the format echoed, then the score", answer: "I must write [RESULT] (an integer number between 1 and 5).\nFeedback: fine. [RESULT] 4", passed: yes(), score: score(4)},
		{name: "the scale echoed is no score", answer: "Feedback: fine. [RESULT] 1-5", codes: codes(diag.AnswerNoVerdict)},
		{name: "a closing bracket without its opening one", answer: "RESULT] 4", codes: codes(diag.AnswerNoVerdict)},
		{name: "an opening bracket without its closing one", answer: "[RESULT 4", codes: codes(diag.AnswerNoVerdict)},
		{name: "out of range", answer: "[RESULT] 6", codes: codes(diag.AnswerOutOfRange)},
	})
	// Without pass_at, passed is null and the score is read.
	r = defineSpec(t, spec("rate", `"{{ question }} {{ answer }}"`, `{"kind": "score", "label": "Note", "min": 0, "max": 10}`))
	runReaderCases(t, r, "rate", []readerCase{
		{name: "another label", answer: "Note : 7", score: score(7)},
		{name: "max", answer: "note: 10/10", score: score(10)},
	})
}

func TestCustomJSONReader(t *testing.T) {
	r := defineSpec(t, spec("judge-json", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": "$.verdict", "pass_values": [true, "pass", 1], "score": "$.result.score", "reason": "$.reason", "min": 0, "max": 1}`))
	runReaderCases(t, r, "judge-json", []readerCase{
		{name: "strict JSON", answer: `{"verdict": "pass", "result": {"score": 0.9}, "reason": "fine"}`, passed: yes(), score: score(0.9), label: "pass"},
		{name: "boolean", answer: `{"verdict": true, "result": {"score": 1}, "reason": "fine"}`, passed: yes(), score: score(1)},
		{name: "number equals 1.0", answer: `{"verdict": 1.0, "result": {"score": 1}, "reason": "x"}`, passed: yes(), score: score(1)},
		{name: "other value fails", answer: `{"verdict": "fail", "result": {"score": 0.2}, "reason": "x"}`, passed: no(), score: score(0.2)},
		{name: "texts in any case", answer: `{"verdict": " PASS ", "result": {"score": 0.2}, "reason": "x"}`, passed: yes(), score: score(0.2), label: " PASS "},
		{name: "a number written as a text", answer: `{"verdict": "1", "result": {"score": 1}, "reason": "x"}`, passed: yes(), score: score(1)},
		{name: "a text that is no pass value", answer: `{"verdict": "partial", "result": {"score": 0.5}, "reason": "x"}`, passed: no(), score: score(0.5)},
		{name: "keys in another case", answer: `{"Verdict": "pass", "Result": {"Score": 0.5}, "Reason": "x"}`, passed: yes(), score: score(0.5)},
		{name: "fenced with prose and a repair", answer: "Here is my assessment.\n```json\n{\"verdict\": \"pass\", \"result\": {\"score\": 0.75,}, \"reason\": \"ok\"}\n```",
			passed: yes(), score: score(0.75), codes: codes(diag.AnswerRepaired, diag.AnswerProseSkipped)},
		{name: "example in the reasoning, answer after", answer: "<think>Format: {\"verdict\": \"fail\", \"result\": {\"score\": 0}}</think>\n{\"verdict\": \"pass\", \"result\": {\"score\": 1}, \"reason\": \"x\"}", passed: yes(), score: score(1)},
		{name: "missing reason is a warning", answer: `{"verdict": "pass", "result": {"score": 1}}`, passed: yes(), score: score(1), codes: codes(diag.AnswerMissingField)},
		{name: "missing score", answer: `{"verdict": "pass", "reason": "x"}`, codes: codes(diag.AnswerMissingField)},
		{name: "score not a number", answer: `{"verdict": "pass", "result": {"score": "high"}, "reason": "x"}`, codes: codes(diag.AnswerBadField)},
		{name: "score as text", answer: `{"verdict": "pass", "result": {"score": "0.5"}, "reason": "x"}`, passed: yes(), score: score(0.5)},
		{name: "score out of range", answer: `{"verdict": "pass", "result": {"score": 3}, "reason": "x"}`, codes: codes(diag.AnswerOutOfRange)},
		{name: "null verdict", answer: `{"verdict": null, "result": {"score": 1}, "reason": "x"}`, passed: no(), score: score(1)},
		{name: "truncated", answer: "```json\n{\"verdict\": \"pass\", \"result\": {\"score\": 0.", codes: codes(diag.AnswerTruncated)},
		{name: "no JSON", answer: "It passes.", codes: codes(diag.AnswerNoVerdict)},
	})
	r = defineSpec(t, spec("cites", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": {"path": "$.items[*].ok", "combine": "any"}, "pass_values": [true], "score": {"path": "$.items[*].ok", "combine": "mean"}}`))
	runReaderCases(t, r, "cites", []readerCase{
		{name: "any of the items", answer: `{"items": [{"ok": false}, {"ok": true}, {"ok": false}, {"ok": false}]}`, passed: yes(), score: score(0.25)},
		{name: "none", answer: `{"items": [{"ok": false}]}`, passed: no(), score: score(0)},
		{name: "an item without the key", answer: `{"items": [{"ok": true}, {"why": "x"}]}`, codes: codes(diag.AnswerMissingField)},
		{name: "an empty list is no verdict", answer: `{"items": []}`, codes: codes(diag.AnswerMissingField)},
		{name: "not a list", answer: `{"items": {"ok": true}}`, codes: codes(diag.AnswerMissingField)},
	})
	// A key written twice with different values says two things: the lenient reading keeps the
	// last, as Python's json does (and so RAGAS and DeepEval), but either could be the verdict.
	// Each of these was a confident verdict from the last value.
	r = defineSpec(t, spec("twice", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": "$.pass", "pass_values": [true], "score": {"path": "$.items[*].s", "combine": "mean"}, "reason": "$.reason"}`))
	runReaderCases(t, r, "twice", []readerCase{
		{name: "pass twice, differently", answer: `{"pass": true, "items": [{"s": 1}], "reason": "ok", "pass": false}`, codes: codes(diag.AnswerRepaired, diag.AnswerSeveralVerdicts)},
		{name: "pass in two cases", answer: `{"pass": true, "Pass": false, "items": [{"s": 1}], "reason": "ok"}`, codes: codes(diag.AnswerSeveralVerdicts)},
		{name: "a score twice in an item", answer: `{"pass": true, "items": [{"s": 1}, {"s": 0, "s": 1}], "reason": "ok"}`, codes: codes(diag.AnswerRepaired, diag.AnswerSeveralVerdicts)},
		{name: "pass twice, alike", answer: `{"pass": true, "items": [{"s": 1}], "reason": "ok", "pass": true}`, passed: yes(), score: score(1), codes: codes(diag.AnswerRepaired)},
		{name: "the reason twice is no verdict", answer: `{"reason": "first", "pass": true, "items": [{"s": 0.5}], "reason": "second"}`, passed: yes(), score: score(0.5), codes: codes(diag.AnswerRepaired)},
	})
	// A mean of the largest numbers is the largest number: summed first it overflowed to
	// infinity, which could not be sent to the page at all ("internal: cannot encode").
	r = defineSpec(t, spec("huge", `"{{ question }} {{ answer }}"`, `{"kind": "json", "score": {"path": "$.s[*]", "combine": "mean"}}`))
	runReaderCases(t, r, "huge", []readerCase{
		{name: "mean of the largest floats", answer: `{"s": [1.7976931348623157e308, 1.7976931348623157e308]}`, score: score(1.7976931348623157e308)},
		{name: "mean of huge opposites", answer: `{"s": [1e308, -1e308, 1e308, -1e308]}`, score: score(0)},
	})
	r = defineSpec(t, spec("range", `"{{ question }} {{ answer }}"`, `{"kind": "score", "min": 1, "max": 5}`))
	v, err := r.Parse("range", inputsQA, "Score: "+strings.Repeat("9", 400))
	require.NoError(t, err)
	require.Len(t, v.Checks, 1)
	assert.Equal(t, "the score infinity (at 1:1) is outside 1..5", v.Checks[0].Message)
	v, err = r.Parse("range", inputsQA, "Score: 1e400")
	require.NoError(t, err)
	assert.Equal(t, diag.AnswerNoVerdict, v.Checks[0].Code)
	// A json reader with a score and pass_at passes by the score; an index picks one item.
	r = defineSpec(t, spec("first", `"{{ question }} {{ answer }}"`, `{"kind": "json", "score": "$.scores[1]", "min": 1, "max": 5, "pass_at": 3}`))
	runReaderCases(t, r, "first", []readerCase{
		{name: "index", answer: `{"scores": [1, 4]}`, passed: yes(), score: score(4)},
		{name: "index past the end", answer: `{"scores": [1]}`, codes: codes(diag.AnswerMissingField)},
	})
}

// TestCustomJSONReaderPeers reads answers in the shapes other tools' judges write them, for
// their prompts written as json readers: promptfoo's llm-rubric ({reason, pass, score}), DeepEval's
// faithfulness verdicts ("yes", "no", "idk"), RAGAS' context precision ({reason, verdict: 1|0}).
// Judges write the value their prompt showed in another type or case; each answer here got a
// confident wrong verdict when pass values were compared strictly.
func TestCustomJSONReaderPeers(t *testing.T) {
	r := defineSpec(t, spec("rubric", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": "$.pass", "pass_values": [true], "score": "$.score", "reason": "$.reason", "min": 0, "max": 1}`))
	runReaderCases(t, r, "rubric", []readerCase{
		{name: "boolean", answer: `{"reason": "The output greets the user.", "pass": true, "score": 1.0}`, passed: yes(), score: score(1)},
		{name: "pass as the text true", answer: `{"reason": "Svaret henviser til databeskyttelse.", "score": 1, "pass": "true"}`, passed: yes(), score: score(1)},
		{name: "pass as the text False", answer: "```json\n{\"reason\": \"Pirate speak.\", \"pass\": \"False\", \"score\": 0}\n```", passed: no(), score: score(0)},
		{name: "pass as 1", answer: `{"reason": "ok", "pass": 1, "score": 1}`, passed: yes(), score: score(1)},
		{name: "Python's True, repaired", answer: `{"reason": "ok", "pass": True, "score": 0.9}`, passed: yes(), score: score(0.9), codes: codes(diag.AnswerRepaired)},
	})
	r = defineSpec(t, spec("faithfulness", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": "$.verdicts[*].verdict", "pass_values": ["yes", "idk"]}`))
	runReaderCases(t, r, "faithfulness", []readerCase{
		{name: "yes and idk", answer: `{"verdicts": [{"verdict": "yes"}, {"verdict": "idk", "reason": "The context does not say."}]}`, passed: yes(), score: score(1)},
		{name: "capitalised", answer: "```json\n{\n  \"verdicts\": [\n    {\"verdict\": \"Yes\"},\n    {\"verdict\": \"YES\"}\n  ]\n}\n```", passed: yes(), score: score(1)},
		{name: "one no", answer: `{"verdicts": [{"verdict": "yes"}, {"verdict": "no", "reason": "The context says 1889."}]}`, passed: no(), score: score(0)},
	})
	// With fail_values, a value that is neither is no verdict: DeepEval's judges sometimes write
	// "unsure" or "partially" where the prompt allowed "yes", "no" and "idk".
	r = defineSpec(t, spec("faithful", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": "$.verdicts[*].verdict", "pass_values": ["yes", "idk"], "fail_values": ["no"]}`))
	runReaderCases(t, r, "faithful", []readerCase{
		{name: "pass and fail values", answer: `{"verdicts": [{"verdict": "yes"}, {"verdict": "No"}]}`, passed: no(), score: score(0)},
		{name: "every one passes", answer: `{"verdicts": [{"verdict": "IDK"}, {"verdict": "yes"}]}`, passed: yes(), score: score(1)},
		{name: "a value that is neither", answer: `{"verdicts": [{"verdict": "yes"}, {"verdict": "unsure"}]}`, codes: codes(diag.AnswerBadField)},
		{name: "null is neither", answer: `{"verdicts": [{"verdict": null}]}`, codes: codes(diag.AnswerBadField)},
	})
	r = defineSpec(t, spec("rubric2", `"{{ question }} {{ answer }}"`, `{"kind": "json", "pass": "$.pass", "pass_values": [true], "fail_values": [false]}`))
	runReaderCases(t, r, "rubric2", []readerCase{
		{name: "the text false", answer: `{"pass": "False"}`, passed: no(), score: score(0)},
		// A boolean field reads "yes" and "no" as the built-ins read one (output.Bool).
		{name: "yes is true", answer: `{"pass": "yes"}`, passed: yes(), score: score(1)},
		{name: "unsure is neither true nor false", answer: `{"pass": "unsure"}`, codes: codes(diag.AnswerBadField)},
	})
	// Without fail_values, pass values that are one boolean fail only on the other: a judge
	// asked for true or false that writes null, "unsure" or 0.5 has not failed the answer. Each
	// of these was a confident failure (judges write null when they cannot tell; promptfoo-style
	// rubrics ask for "pass": true or false; RAGAS-style verdicts are 1 or 0).
	r = defineSpec(t, spec("rubric3", `"{{ question }} {{ answer }}"`, `{"kind": "json", "pass": "$.pass", "pass_values": [true], "reason": "$.reason"}`))
	runReaderCases(t, r, "rubric3", []readerCase{
		{name: "null is no failure", answer: `{"reason": "I cannot tell from the output alone.", "pass": null}`, codes: codes(diag.AnswerBadField)},
		{name: "a word that is no boolean", answer: `{"reason": "mostly", "pass": "partially"}`, codes: codes(diag.AnswerBadField)},
		{name: "a number that is no boolean", answer: `{"reason": "half", "pass": 0.5}`, codes: codes(diag.AnswerBadField)},
		{name: "false fails", answer: `{"reason": "no greeting", "pass": false}`, passed: no(), score: score(0)},
		{name: "the text No fails", answer: `{"reason": "no greeting", "pass": "No"}`, passed: no(), score: score(0)},
		{name: "the text Yes passes", answer: `{"reason": "greets", "pass": "Yes"}`, passed: yes(), score: score(1)},
	})
	r = defineSpec(t, spec("ragas-verdict", `"{{ question }} {{ answer }}"`, `{"kind": "json", "pass": "$.statements[*].verdict", "pass_values": [1]}`))
	runReaderCases(t, r, "ragas-verdict", []readerCase{
		{name: "ones and zeros", answer: `{"statements": [{"statement": "a", "verdict": 1}, {"statement": "b", "verdict": 0}]}`, passed: no(), score: score(0)},
		{name: "a verdict that is neither", answer: `{"statements": [{"statement": "a", "verdict": 1}, {"statement": "b", "verdict": "idk"}]}`, codes: codes(diag.AnswerBadField)},
	})
	// Pass values that are texts keep the rule: any other value fails.
	r = defineSpec(t, spec("texts", `"{{ question }} {{ answer }}"`, `{"kind": "json", "pass": "$.verdict", "pass_values": ["yes", "idk"]}`))
	runReaderCases(t, r, "texts", []readerCase{
		{name: "another text fails", answer: `{"verdict": "unsure"}`, passed: no(), score: score(0)},
		{name: "true is yes", answer: `{"verdict": true}`, passed: yes(), score: score(1)},
	})
	r = defineSpec(t, spec("precision", `"{{ question }} {{ answer }}"`,
		`{"kind": "json", "pass": "$.verdict", "pass_values": [1], "reason": "$.reason"}`))
	runReaderCases(t, r, "precision", []readerCase{
		{name: "1", answer: `{"reason": "The context gives the date.", "verdict": 1}`, passed: yes(), score: score(1)},
		{name: "the text 1", answer: `{"reason": "useful", "verdict": "1"}`, passed: yes(), score: score(1)},
		{name: "true for 1", answer: `{"reason": "useful", "verdict": true}`, passed: yes(), score: score(1)},
		{name: "0", answer: `{"reason": "not about the question", "verdict": 0}`, passed: no(), score: score(0)},
		{name: "the text 0.0", answer: `{"reason": "no", "verdict": "0.0"}`, passed: no(), score: score(0)},
	})
}

func TestPickPath(t *testing.T) {
	root := decodeObject(t, `{"a": {"b": [1, {"c": true}], "d-e": "x"}, "items": [{"ok": 1}, {"ok": 2}]}`)
	tests := []struct {
		path, missing string
		want          []any
	}{
		{"$.a.d-e", "", []any{"x"}},
		{"$.A.D_E", "", []any{"x"}},
		{"$.a.b[1].c", "", []any{true}},
		{"$.items[*].ok", "", []any{int64(1), int64(2)}},
		{"$.a.b[2]", "$.a.b[2]", nil},
		{"$.a.x", "$.a.x", nil},
		{"$.items[*].no", "$.items[0].no", nil},
		{"$.a[*]", "$.a[*]", nil},
		{"$", "$", nil},
		{"", "", nil},
		{"a.b", "a.b", nil},
		{"$.a.", "$.a.", nil},
		{"$.a[", "$.a[", nil},
		{"$.a.b[x]", "$.a.b[x]", nil},
		{"$.a.b[-1]", "$.a.b[-1]", nil},
	}
	for _, tc := range tests {
		vals, missing := pickPath(root, tc.path)
		var got []any
		for _, v := range vals {
			got = append(got, v.v)
		}
		assert.Equal(t, tc.want, got, tc.path)
		if tc.path != "" {
			assert.Equal(t, tc.missing, missing, tc.path)
		}
	}
	assert.Equal(t, "verdict", topKey("$.verdict.ok"))
	assert.Equal(t, "items", topKey("$.items[*].ok"))
}

func TestCustomRegistry(t *testing.T) {
	r := testRegistry(t)
	n := len(r.Evaluators())
	text := spec("tone", `"Tone of {{ answer }} for {{ question }}"`, `{"kind": "yes-no", "pass": "yes"}`)
	e, err := r.Define(decodeObject(t, text))
	require.NoError(t, err)
	assert.True(t, e.Custom)
	list := r.Evaluators()
	require.Len(t, list, n+1)
	assert.Equal(t, "tone", list[n].ID, "after the built-ins")
	assert.Greater(t, list[n].Order, list[n-1].Order)
	for _, b := range list[:n] {
		assert.False(t, b.Custom, b.ID)
	}

	rendered, err := r.Render("tone", inputsQA)
	require.NoError(t, err)
	assert.Equal(t, "Tone of A. for Q?", rendered.Prompt)
	assert.Equal(t, []Message{{Role: "user", Content: "Tone of A. for Q?"}}, rendered.Messages)

	// Defining the id again replaces it, in its place.
	_, err = r.Define(decodeObject(t, spec("other", `"{{ question }}{{ answer }}"`, `{"kind": "yes-no", "pass": "yes"}`)))
	require.NoError(t, err)
	_, err = r.Define(decodeObject(t, strings.Replace(text, "Tone of", "Politeness of", 1)))
	require.NoError(t, err)
	list = r.Evaluators()
	assert.Equal(t, []string{"tone", "other"}, []string{list[n].ID, list[n+1].ID})
	rendered, err = r.Render("tone", inputsQA)
	require.NoError(t, err)
	assert.Equal(t, "Politeness of A. for Q?", rendered.Prompt)

	assert.True(t, r.Undefine("tone"))
	assert.False(t, r.Undefine("tone"))
	assert.False(t, r.Undefine("answer-grounding"), "a built-in stays")
	_, err = r.Render("tone", inputsQA)
	assert.Equal(t, diag.InputUnknownEvaluator, err.(*diag.Error).Code)
	assert.Len(t, r.Evaluators(), n+1)
}

func TestCustomInputs(t *testing.T) {
	r := defineSpec(t, `{"id": "ctx", "title": "C", "description": "", "dialect": "jinja",
		"prompt": "{{ question }}|{% for c in contexts %}[{{ c }}]{% endfor %}|{{ note }}|{{ tags|length }}",
		"inputs": [{"name": "question", "label": "Q", "kind": "text", "required": true},
		           {"name": "contexts", "label": "C", "kind": "list", "required": true},
		           {"name": "note", "label": "N", "kind": "text", "required": false},
		           {"name": "tags", "label": "T", "kind": "list", "required": false}],
		"output": {"kind": "yes-no", "pass": "yes"}}`)
	rendered, err := r.Render("ctx", value.NewObject("question", "Q", "contexts", []any{"a", "b"}))
	require.NoError(t, err)
	assert.Equal(t, "Q|[a][b]||0", rendered.Prompt, "optional inputs not given are empty")
	rendered, err = r.Render("ctx", value.NewObject("question", "Q", "contexts", "one text", "tags", []any{"x"}))
	require.NoError(t, err)
	assert.Equal(t, "Q|[one text]||1", rendered.Prompt, "a text for a list is a list of one")

	for _, tc := range []struct {
		name   string
		inputs *value.Object
		code   diag.Code
	}{
		{"missing text", value.NewObject("contexts", []any{"a"}), diag.InputMissing},
		{"blank text", value.NewObject("question", " ", "contexts", []any{"a"}), diag.InputBlank},
		{"number for text", value.NewObject("question", int64(3), "contexts", []any{"a"}), diag.InputWrongType},
		{"object for list", value.NewObject("question", "Q", "contexts", value.NewObject()), diag.InputWrongType},
		{"number in list", value.NewObject("question", "Q", "contexts", []any{"a", int64(1)}), diag.InputBadItem},
		{"empty list", value.NewObject("question", "Q", "contexts", []any{}), diag.InputEmptyList},
	} {
		_, err := r.Render("ctx", tc.inputs)
		require.Error(t, err, tc.name)
		assert.Equal(t, tc.code, err.(*diag.Error).Code, tc.name)
	}
	// An empty required list: the answer is still read, but the verdict is undetermined.
	v, err := r.Parse("ctx", value.NewObject("question", "Q", "contexts", []any{}), "yes")
	require.NoError(t, err)
	assert.Nil(t, v.Passed)
	assert.Equal(t, diag.InputEmptyList, v.Checks[0].Code)
}

func TestCustomMessages(t *testing.T) {
	r := defineSpec(t, `{"id": "chat", "title": "C", "description": "", "dialect": "format",
		"messages": [{"role": "system", "content": "You grade {question}."}, {"role": "user", "content": "Answer: {answer}"}, {"role": "assistant", "content": "Noted."}],
		"inputs": [{"name": "question", "label": "Q", "kind": "text", "required": true}, {"name": "answer", "label": "A", "kind": "text", "required": true}],
		"output": {"kind": "yes-no", "pass": "yes"}}`)
	rendered, err := r.Render("chat", inputsQA)
	require.NoError(t, err)
	assert.Equal(t, []Message{{Role: "system", Content: "You grade Q?."}, {Role: "user", Content: "Answer: A."}, {Role: "assistant", Content: "Noted."}}, rendered.Messages)
	assert.Equal(t, "Answer: A.", rendered.Prompt, "the prompt is the last user message")
	require.Len(t, rendered.Spans, 1)
	assert.Equal(t, "A.", rendered.Prompt[rendered.Spans[0].Start:rendered.Spans[0].End])

	// A template error at render names the message.
	r = defineSpec(t, `{"id": "bad", "title": "B", "description": "", "dialect": "jinja",
		"messages": [{"role": "user", "content": "ok"}, {"role": "user", "content": "{{ answer|nosuchfilter }}"}],
		"inputs": [{"name": "answer", "label": "A", "kind": "text", "required": true}],
		"output": {"kind": "yes-no", "pass": "yes"}}`)
	_, err = r.Render("bad", inputsQA)
	require.Error(t, err)
	assert.Equal(t, "messages[1].content", err.(*diag.Error).Path)
	assert.Contains(t, err.Error(), "template: bad: messages[1].content:1:")
}

func TestCustomBudget(t *testing.T) {
	// A template that would loop for ever ends at the work budget, an error with its position.
	r := defineSpec(t, spec("loop", `"{% for i in range(100000) %}{% for j in range(100000) %}{{ answer }}{% endfor %}{% endfor %}{{ question }}"`,
		`{"kind": "yes-no", "pass": "yes"}`))
	_, err := r.Render("loop", inputsQA)
	require.Error(t, err)
	assert.Equal(t, "template", err.(*diag.Error).Kind)
	assert.Equal(t, "prompt", err.(*diag.Error).Path)
}

func TestCustomBuiltinReader(t *testing.T) {
	r := testRegistry(t)
	o, err := r.SpecOf("claim-groundedness")
	require.NoError(t, err)
	b, _ := r.Get("claim-groundedness")
	assert.Equal(t, value.NewObject("prompt", b.Prompt), o, "a built-in's prompt, for the JS API's rj.spec")
	// The definition rj.spec makes of it: the listing's inputs and the built-in's reader.
	enc, err := value.Marshal(value.NewObject("id", "claims-fr", "title", "T", "description", "", "dialect", b.Dialect, "prompt", b.Prompt,
		"inputs", b.Inputs, "output", value.NewObject("kind", "builtin", "evaluator", b.ID)))
	require.NoError(t, err)
	o = decodeObject(t, string(enc))
	// A translated prompt over the built-in's reader keeps its claims view and its reading.
	o.Set("prompt", "Traduit : "+b.Prompt)
	e, err := r.Define(o)
	require.NoError(t, err)
	assert.Equal(t, ViewClaims, e.View)
	assert.Equal(t, b.Score, e.Score)
	rendered, err := r.Render(e.ID, b.Example.Inputs)
	require.NoError(t, err)
	want, err := r.Render(b.ID, b.Example.Inputs)
	require.NoError(t, err)
	assert.Equal(t, "Traduit : "+want.Prompt, rendered.Prompt)
	v, err := r.Parse(e.ID, b.Example.Inputs, b.Example.Answer)
	require.NoError(t, err)
	w, err := r.Parse(b.ID, b.Example.Inputs, b.Example.Answer)
	require.NoError(t, err)
	assert.Equal(t, w, v)

	s, err := r.SpecOf(e.ID)
	require.NoError(t, err)
	assert.Same(t, o, s, "a custom evaluator's spec is its definition")
	_, err = r.SpecOf("nope")
	require.Error(t, err)
}

func TestDefineRefuses(t *testing.T) {
	r := testRegistry(t)
	_, err := r.Define(decodeObject(t, spec("fine", `"{{ answer }}{{ question }}"`, `{"kind": "yes-no", "pass": "yes"}`)))
	require.NoError(t, err)
	tests := []struct {
		name, text, path string
		code             diag.Code
	}{
		{"not an object", `[1]`, "", diag.EvaluatorBadSpec},
		{"no output", `{"id": "x", "dialect": "jinja", "prompt": "", "inputs": []}`, "", diag.EvaluatorBadSpec},
		{"no inputs", `{"id": "x", "dialect": "jinja", "prompt": "", "output": {"kind": "yes-no"}}`, "", diag.EvaluatorBadSpec},
		{"unknown reader", `{"id": "x", "dialect": "jinja", "prompt": "", "inputs": [], "output": {"kind": "vote"}}`, "", diag.EvaluatorBadSpec},
		{"bad dialect", `{"id": "x", "dialect": "mustache", "prompt": "", "inputs": [], "output": {"kind": "yes-no"}}`, "", diag.EvaluatorBadSpec},
		{"bad id", spec("Not_An_Id", `"x"`, `{"kind": "yes-no", "pass": "yes"}`), "id", diag.EvaluatorBadID},
		{"built-in id", spec("answer-grounding", `"x"`, `{"kind": "yes-no", "pass": "yes"}`), "id", diag.EvaluatorBuiltinID},
		{"unknown built-in", spec("x", `"x"`, `{"kind": "builtin", "evaluator": "nope"}`), "output.evaluator", diag.EvaluatorUnknownBuiltin},
		{"a custom one is no built-in reader", spec("x", `"x"`, `{"kind": "builtin", "evaluator": "fine"}`), "output.evaluator", diag.EvaluatorUnknownBuiltin},
	}
	n := len(r.Evaluators())
	for _, tc := range tests {
		v, err := value.Decode([]byte(tc.text))
		require.NoError(t, err)
		_, err = r.Define(v)
		require.Error(t, err, tc.name)
		de := err.(*diag.Error)
		assert.Equal(t, "evaluator", de.Kind, tc.name)
		assert.Equal(t, tc.code, de.Code, tc.name)
		assert.Equal(t, tc.path, de.Path, tc.name)
	}
	assert.Len(t, r.Evaluators(), n, "nothing defined")
	// A nil and a definition of the wrong types never panic.
	for _, v := range []any{nil, "x", int64(1), decodeObject(t, `{"id": "ok", "dialect": "jinja", "inputs": [1, {"name": 2, "choices": [3]}], "output": {"kind": "score", "min": "1", "labels": 2}, "prompt": 3, "messages": [4, {"role": 5}]}`)} {
		assert.NotPanics(t, func() { _, _ = r.Define(v) })
	}
	// A definition removed then another defined: the new one lists last.
	_, err = r.Define(decodeObject(t, spec("second", `"{{ answer }}{{ question }}"`, `{"kind": "yes-no", "pass": "yes"}`)))
	require.NoError(t, err)
	require.True(t, r.Undefine("fine"))
	_, err = r.Define(decodeObject(t, spec("fine", `"{{ answer }}{{ question }}"`, `{"kind": "yes-no", "pass": "yes"}`)))
	require.NoError(t, err)
	list := r.Evaluators()
	assert.Equal(t, []string{"second", "fine"}, []string{list[len(list)-2].ID, list[len(list)-1].ID})
	assert.Less(t, list[len(list)-2].Order, list[len(list)-1].Order)
}

// TestStarters defines each evaluator of web/starters (the page's "new from…" menu) and reads
// answers a judge really writes: with reasoning, fences, prose, and cut short.
func TestStarters(t *testing.T) {
	r := testRegistry(t)
	files, err := filepath.Glob("../../web/starters/*.json")
	require.NoError(t, err)
	require.Len(t, files, 3)
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		e, err := r.Define(decodeObject(t, string(text)))
		require.NoError(t, err, f)
		assert.Equal(t, strings.TrimSuffix(filepath.Base(f), ".json"), e.ID, "the file is named by its id")
		// Its worked example renders and reads to a verdict.
		_, err = r.Render(e.ID, e.Example.Inputs)
		require.NoError(t, err, f)
		v, err := r.Parse(e.ID, e.Example.Inputs, e.Example.Answer)
		require.NoError(t, err)
		for _, c := range v.Checks {
			assert.NotEqual(t, diag.SevError, c.Severity, "%s: %v", f, c)
		}
	}
	ctxIn := decodeObject(t, `{"question": "Q?", "contexts": ["a", "b"]}`)
	qa := decodeObject(t, `{"question": "Q?", "answer": "A."}`)
	cites := decodeObject(t, `{"contexts": ["a", "b"], "answer": "A [1]. B [2]."}`)
	cases := []struct {
		id, name, answer string
		passed           *bool
		score            *float64
		code             diag.Code
	}{
		{"context-relevance", "reasoning model", "<think>\nPassage 1 gives the date. Passage 2 is about another topic. Score: 3 at first, but passage 1 is enough.\n</think>\n[1] Needed.\n[2] Nothing useful.\n\nScore: 4", yes(), score(4), ""},
		{"context-relevance", "a draft score then the final one", "[1] Needed.\nDraft Score: 3\nOn reflection passage 1 is enough.\nScore: 4", yes(), score(4), diag.AnswerSeveralScores},
		{"context-relevance", "markdown", "## Assessment\n- [1] on the topic only\n- [2] unrelated\n\n**Score:** 2/5", no(), score(2), ""},
		{"context-relevance", "cut before the score", "[1] Needed: the launch date.\n[2] On the topic", nil, nil, diag.AnswerNoVerdict},
		{"context-relevance", "over the scale", "Score: 9/10", nil, nil, diag.AnswerOtherScale},
		{"answer-relevance", "plain", "The answer responds to both parts.\nVerdict: relevant", yes(), score(1), ""},
		{"answer-relevance", "bold and capitalised", "It talks about shipping instead.\n\n**Verdict: Irrelevant**", no(), score(0), ""},
		{"answer-relevance", "partially", "Verdict: partially relevant", nil, nil, ""},
		{"answer-relevance", "label only in prose", "I think this is relevant to the question.", nil, nil, diag.AnswerNoVerdict},
		{"answer-relevance", "reasoning then label", "<think>Both parts? Only the first.</think>\nPartially relevant.", nil, nil, ""},
		{"citation-faithfulness", "fenced", "```json\n{\"citations\": [{\"sentence\": \"A\", \"source\": 1, \"supported\": true, \"why\": \"p1\"}, {\"sentence\": \"B\", \"source\": 2, \"supported\": true, \"why\": \"p2\"}], \"summary\": \"All supported.\"}\n```", yes(), score(1), ""},
		{"citation-faithfulness", "prose and a trailing comma", "Checked both.\n{\"citations\": [{\"sentence\": \"A\", \"source\": 1, \"supported\": true}, {\"sentence\": \"B\", \"source\": 3, \"supported\": false, \"why\": \"no passage 3\"},], \"summary\": \"One bad marker.\"}", no(), score(0.5), diag.AnswerRepaired},
		{"citation-faithfulness", "supported as text is not a score", "{\"citations\": [{\"sentence\": \"A\", \"source\": 1, \"supported\": \"true\"}], \"summary\": \"ok\"}", nil, nil, diag.AnswerBadField},
		{"citation-faithfulness", "truncated", "{\"citations\": [{\"sentence\": \"A\", \"source\": 1, \"supported\": true}, {\"sentence\": \"B\", \"sou", nil, nil, diag.AnswerTruncated},
		{"citation-faithfulness", "no citation in the answer", "{\"citations\": [], \"summary\": \"The answer cites nothing.\"}", nil, nil, diag.AnswerMissingField},
	}
	for _, tc := range cases {
		in := map[string]*value.Object{"context-relevance": ctxIn, "answer-relevance": qa, "citation-faithfulness": cites}[tc.id]
		v, err := r.Parse(tc.id, in, tc.answer)
		require.NoError(t, err)
		assert.Equal(t, tc.passed, v.Passed, "%s %s: %v", tc.id, tc.name, v.Checks)
		assert.Equal(t, tc.score, v.Score, "%s %s", tc.id, tc.name)
		if tc.code != "" {
			var got []diag.Code
			for _, c := range v.Checks {
				got = append(got, c.Code)
			}
			assert.Contains(t, got, tc.code, "%s %s", tc.id, tc.name)
		}
	}
}

// TestNeutralLabelPointsAtTheLabel: a label its evaluator maps to null leaves the verdict
// undetermined by design, with a warning that names the label and points at it, so the page can
// say what the judge answered rather than that it said nothing.
func TestNeutralLabelPointsAtTheLabel(t *testing.T) {
	r := defineSpec(t, spec("tone", `"{{ question }} {{ answer }}"`, `{"kind": "label", "labels": {"correct": true, "partially correct": null, "incorrect": false}}`))
	v, err := r.Parse("tone", inputsQA, "Reasons.\nVerdict: partially correct")
	require.NoError(t, err)
	assert.Nil(t, v.Passed)
	require.Len(t, v.Checks, 1)
	c := v.Checks[0]
	assert.Equal(t, diag.AnswerNeutralLabel, c.Code)
	assert.Equal(t, diag.SevWarning, c.Severity)
	assert.Equal(t, []int{2, 10, 17}, []int{c.Line, c.Col, c.Len})
	assert.Contains(t, c.Message, `"partially correct"`)
}

// builtinCopy is built-in b as rj.spec makes it a definition to edit (its prompt, its inputs,
// its reader), under id, with the given inputs' kinds changed.
func builtinCopy(t *testing.T, b *Evaluator, id string, kinds map[string]string) *value.Object {
	t.Helper()
	inputs := append([]Input(nil), b.Inputs...)
	for k := range inputs {
		if kind, ok := kinds[inputs[k].Name]; ok {
			inputs[k].Kind = kind
		}
	}
	enc, err := value.Marshal(value.NewObject("id", id, "title", "T", "description", "", "dialect", b.Dialect, "prompt", b.Prompt,
		"inputs", inputs, "output", value.NewObject("kind", "builtin", "evaluator", b.ID)))
	require.NoError(t, err)
	return decodeObject(t, string(enc))
}

// TestBuiltinCopiesAreTheBuiltins: each built-in duplicated renders its example into the
// built-in's prompt and reads its answer into the built-in's verdict; its list inputs may be
// plain lists of texts, which render as the built-in renders the same texts.
func TestBuiltinCopiesAreTheBuiltins(t *testing.T) {
	r := testRegistry(t)
	for _, b := range r.Evaluators() {
		t.Run(b.ID, func(t *testing.T) {
			e, err := r.Define(builtinCopy(t, b, b.ID+"-copy", nil))
			require.NoError(t, err)
			assert.Equal(t, b.Inputs, e.Inputs, "the form")
			assert.Equal(t, []any{b.View, b.Score, b.Words}, []any{e.View, e.Score, e.Words})
			want, err := r.Render(b.ID, b.Example.Inputs)
			require.NoError(t, err)
			got, err := r.Render(e.ID, b.Example.Inputs)
			require.NoError(t, err)
			assert.Equal(t, want.Prompt, got.Prompt)
			assert.Equal(t, want.Checks, got.Checks)
			wv, err := r.Parse(b.ID, b.Example.Inputs, b.Example.Answer)
			require.NoError(t, err)
			gv, err := r.Parse(e.ID, b.Example.Inputs, b.Example.Answer)
			require.NoError(t, err)
			assert.Equal(t, wv, gv)
		})
	}

	// Claims and evidence declared as plain lists: the texts are the built-in's strings.
	b, err := r.Get("claim-groundedness")
	require.NoError(t, err)
	e, err := r.Define(builtinCopy(t, b, "claims-as-lists", map[string]string{"claims": "list", "evidence": "list"}))
	require.NoError(t, err)
	assert.Equal(t, "list", e.Inputs[1].Kind)
	in := value.NewObject("question", "Q?", "claims", []any{"The sky is blue.", "Grass is red."}, "evidence", []any{"The sky is blue on clear days."})
	want, err := r.Render(b.ID, in)
	require.NoError(t, err)
	got, err := r.Render(e.ID, in)
	require.NoError(t, err)
	assert.Equal(t, want.Prompt, got.Prompt)
	assert.Contains(t, got.Prompt, "Claim c2: Grass is red.")
}

// TestUnreadInputsAreOptional: an input no template reads (Define's unread) never holds up a
// render or a form, whatever its definition says; a built-in reader's own inputs stay required.
func TestUnreadInputsAreOptional(t *testing.T) {
	r := testRegistry(t)
	o := decodeObject(t, `{"id": "kept", "title": "K", "description": "", "dialect": "jinja", "prompt": "{{ answer }}",
		"inputs": [{"name": "answer", "label": "A", "kind": "text", "required": true, "judged": true},
		           {"name": "notes", "label": "N", "kind": "text", "required": true},
		           {"name": "sources", "label": "S", "kind": "list", "required": true}],
		"output": {"kind": "yes-no", "pass": "yes"}}`)
	e, err := r.Define(o, "notes", "sources")
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, false}, []bool{e.Inputs[0].Required, e.Inputs[1].Required, e.Inputs[2].Required})
	rendered, err := r.Render("kept", value.NewObject("answer", "A."))
	require.NoError(t, err)
	assert.Equal(t, "A.", rendered.Prompt)
	v, err := r.Parse("kept", value.NewObject("answer", "A.", "sources", []any{}), "yes")
	require.NoError(t, err)
	assert.Equal(t, yes(), v.Passed, "an empty unread list is no error: %v", v.Checks)
	// Defined again without unread: required as declared.
	_, err = r.Define(o)
	require.NoError(t, err)
	_, err = r.Render("kept", value.NewObject("answer", "A."))
	require.Error(t, err)
	assert.Equal(t, diag.InputMissing, err.(*diag.Error).Code)

	// A built-in reader reads its inputs whatever the prompt does.
	b, err := r.Get("answer-grounding")
	require.NoError(t, err)
	c := builtinCopy(t, b, "grounding-short", nil)
	c.Set("dialect", "jinja")
	c.Set("prompt", "Is this grounded? {{ answer }}")
	e, err = r.Define(c, "facts")
	require.NoError(t, err)
	assert.True(t, e.Inputs[1].Required, "facts: the reader needs it")
}

// TestBuiltinReaderInputsAreVariables: a custom prompt over a built-in's reader may read that
// built-in's inputs its reader makes no variable of (claims, threshold), as given.
func TestBuiltinReaderInputsAreVariables(t *testing.T) {
	r := testRegistry(t)
	b, err := r.Get("claim-groundedness")
	require.NoError(t, err)
	c := builtinCopy(t, b, "claims-loop", nil)
	c.Set("prompt", "{% for c in claims %}- {{ c.text if c is mapping else c }}\n{% endfor %}{{ reports }}")
	_, err = r.Define(c)
	require.NoError(t, err)
	got, err := r.Render("claims-loop", value.NewObject("question", "Q?", "claims", []any{"A.", value.NewObject("id", "x", "text", "B.")}, "evidence", []any{"E."}))
	require.NoError(t, err)
	assert.Equal(t, "- A.\n- B.\nClaim c1: A.\nClaim x: B.", got.Prompt)

	rr, err := r.Get("rag-recall")
	require.NoError(t, err)
	c = builtinCopy(t, rr, "recall-threshold", nil)
	c.Set("dialect", "jinja")
	c.Set("prompt", "{{ passage_llm }} at least {{ threshold }}")
	_, err = r.Define(c)
	require.NoError(t, err)
	in := value.NewObject("passage_gt", "[ESSENTIAL PASSAGE]\nA.", "passage_llm", "A.")
	got, err = r.Render("recall-threshold", in)
	require.NoError(t, err)
	assert.Equal(t, "A. at least None", got.Prompt, "an optional input not given is None, as Jinja prints null")
	in.Set("threshold", 3.5)
	got, err = r.Render("recall-threshold", in)
	require.NoError(t, err)
	assert.Equal(t, "A. at least 3.5", got.Prompt)
}

// TestScoreReaderWorkIsLinear: an answer of thousands of labels costs one pass. Each score that
// differed from the one before was worded as a warning at once (a position is a pass over the
// answer: quadratic), and each label looked for a ")" to the end of the answer. Counted in
// allocations, not time: the warnings allocated about five each, 45,000 for this answer.
func TestScoreReaderWorkIsLinear(t *testing.T) {
	answer := strings.Repeat("Score: 1\nScore: 2\n", 1<<12)
	allocs := testing.AllocsPerRun(3, func() {
		_, c := findScore(answer, 0, "Score", 5)
		require.NotNil(t, c)
		require.Equal(t, diag.AnswerSeveralVerdicts, c.Code)
	})
	assert.Less(t, allocs, 100.0)
	same := strings.Repeat("Score: 2\nClarity Score: 1\n", 1<<12)
	allocs = testing.AllocsPerRun(3, func() {
		s, c := findScore(same, 0, "Score", 5)
		require.Nil(t, c)
		require.Equal(t, 2.0, s.value)
		require.Len(t, s.checks, 1)
	})
	assert.Less(t, allocs, 100.0)
	for _, hostile := range []string{strings.Repeat("Score: ", 1<<16), strings.Repeat("Score (", 1<<16), strings.Repeat("<score>", 1<<16)} {
		_, c := findScore(hostile, 0, "Score", 5)
		require.NotNil(t, c)
		assert.Equal(t, diag.AnswerNoVerdict, c.Code)
	}
}

// TestDescribeValueCutsWholeCharacters: a long value in a message is cut to 60 characters, never
// inside one (its bytes cut at 60 reached the page as invalid UTF-8).
func TestDescribeValueCutsWholeCharacters(t *testing.T) {
	got := describeValue(strings.Repeat("é", 100))
	assert.True(t, utf8.ValidString(got), "%q", got)
	assert.Equal(t, `"`+strings.Repeat("é", 59)+"…", got)
	assert.Equal(t, `{"a":1}`, describeValue(value.NewObject("a", int64(1))))
}
