package judge

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

const pairwiseInputs = `{
	"contexts": ["The Treaty of Westphalia was signed in 1648.", "It was negotiated in Osnabrück and Münster.", "It established state sovereignty."],
	"expected_output": "The war ended in 1648 [1]. It was negotiated in Osnabrück and Münster [2].",
	"actual_output": "The war ended in 1648 [1]. It was negotiated in Münster [2]."
}`

// pairJSON builds a judge answer with the given JSON values for each answer's
// answer_only_asserts_no_document_answers and faithfulness.
func pairJSON(only1, f1, only2, f2 string) string {
	return fmt.Sprintf(`{
    "answer_1": {
        "answer_only_asserts_no_document_answers": %s,
        "content_analysis_sentence_by_sentence": [
            {"sentence": "The war ended in 1648 [1].", "criterion_1": "yes", "criterion_2": "yes", "criterion_3": "yes"}
        ],
        "faithfulness_justification": "Every sentence cites a correct reference.",
        "faithfulness": %s
    },
    "answer_2": {
        "answer_only_asserts_no_document_answers": %s,
        "content_analysis_sentence_by_sentence": [
            {"sentence": "It was negotiated in Münster [2].", "criterion_1": "yes", "criterion_2": "yes", "criterion_3": "partly"}
        ],
        "faithfulness_justification": "Cites its sources.",
        "faithfulness": %s
    }
}`, only1, f1, only2, f2)
}

func TestPairwiseParse(t *testing.T) {
	tests := []struct {
		name, answer, passed, score string
		f1, f2                      string // the detail's faithfulness: "true", "false", "null", or "-" when the answer detail is null
		checks                      []string
	}{
		{name: "both faithful", answer: pairJSON("false", "true", "false", "true"), passed: "true", score: "1", f1: "true", f2: "true"},
		{name: "actual unfaithful", answer: pairJSON("false", "true", "false", "false"), passed: "false", score: "0", f1: "true", f2: "false"},
		{name: "verdict follows answer 2 only", answer: pairJSON("false", "false", "false", "true"), passed: "true", score: "1", f1: "false", f2: "true"},
		{name: "null because no document", answer: pairJSON("false", "true", "true", "null"), passed: "null", score: "null", f1: "true", f2: "null",
			checks: []string{"E: undetermined: the judge graded answer_2's faithfulness null, not measurable: it found the actual output only asserts that no document answers the question"}},
		{name: "null without reason", answer: pairJSON("false", "true", "false", "null"), passed: "null", score: "null", f1: "true", f2: "null",
			checks: []string{"W: answer_2: the judge graded faithfulness null (not measurable) but also says the answer does not only assert that no document answers",
				"E: undetermined: the judge graded answer_2's faithfulness null, though it says the actual output does more than assert that no document answers the question"}},
		// answer_2's grade given twice, differently: undetermined, not the last one.
		{name: "faithfulness twice, differently", answer: `{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": true, "faithfulness_justification": "x", "faithfulness": false}}`,
			passed: "null", score: "null", f1: "true", f2: "false",
			checks: []string{`W: judge answer: the key "faithfulness" appears twice, the last value is used at 1:108`,
				"E: the judge graded answer_2 twice, differently (at 1:67 and at 1:124), so it cannot be read"}},
		{name: "graded although no document", answer: pairJSON("false", "true", "true", "false"), passed: "false", score: "0", f1: "true", f2: "false",
			checks: []string{"W: answer_2: the judge says the answer only asserts that no document answers, which the prompt grades null, but graded it false"}},
		{name: "one and zero", answer: pairJSON("false", "1", "false", "0"), passed: "false", score: "0", f1: "true", f2: "false",
			checks: []string{"W: answer_1: read faithfulness 1 as true", "W: answer_2: read faithfulness 0 as false"}},
		{name: "strings", answer: pairJSON(`"false"`, `"true"`, `"no"`, `"True"`), passed: "true", score: "1", f1: "true", f2: "true",
			checks: []string{`W: answer_2: read faithfulness "True" as true`, `W: answer_2: read answer_only_asserts_no_document_answers "no" as false`}},
		{name: "null as a string", answer: pairJSON("false", "true", "true", `"null"`), passed: "null", score: "null", f1: "true", f2: "null",
			checks: []string{`W: answer_2: read faithfulness "null" as null`, "E: undetermined"}},
		{name: "python", answer: `{'answer_1': {'answer_only_asserts_no_document_answers': False, 'faithfulness': True}, 'answer_2': {'answer_only_asserts_no_document_answers': True, 'faithfulness': None}}`,
			passed: "null", score: "null", f1: "true", f2: "null", checks: []string{"W: judge answer: read Python None as null", "E: undetermined"}},
		{name: "missing answer_2", answer: `{"answer_1": {"faithfulness": true}}`, passed: "null", score: "null", f1: "true", f2: "-",
			checks: []string{"E: the judge gave no answer_2: the actual output, which the verdict follows, is not graded"}},
		{name: "missing answer_1", answer: `{"answer_2": {"faithfulness": false}}`, passed: "false", score: "0", f1: "-", f2: "false",
			checks: []string{"W: the judge gave no answer_1"}},
		{name: "answer_2 not an object", answer: `{"answer_1": {"faithfulness": true}, "answer_2": true}`, passed: "null", score: "null", f1: "true", f2: "-",
			checks: []string{"E: the judge's answer_2 is a boolean, not an object with a faithfulness grade"}},
		{name: "no faithfulness", answer: `{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness_justification": "fine"}}`, passed: "null", score: "null", f1: "true", f2: "null",
			checks: []string{"E: the judge gave answer_2 no faithfulness grade"}},
		{name: "unreadable grade", answer: `{"answer_1": {"faithfulness": "maybe"}, "answer_2": {"faithfulness": "partly"}}`, passed: "null", score: "null", f1: "null", f2: "null",
			checks: []string{`W: answer_1: faithfulness is "maybe", not true, false, 1, 0 or null`, `E: answer_2: faithfulness is "partly", not true, false, 1, 0 or null`}},
		{name: "fenced with prose", answer: "Let me analyse both answers.\n```json\n" + pairJSON("false", "true", "false", "true") + "\n```", passed: "true", score: "1", f1: "true", f2: "true",
			checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1"}},
		{name: "truncated", answer: pairJSON("false", "true", "false", "true")[:400], passed: "null", score: "null", f1: "true", f2: "-",
			checks: []string{"E: the answer ends inside the JSON that starts at 1:1: it looks truncated"}},
		{name: "think block", answer: "<think>Answer 2 says Münster only [2]; fine. {\"answer_2\": {\"faithfulness\": false}}</think>" + pairJSON("false", "true", "false", "true"),
			passed: "true", score: "1", f1: "true", f2: "true"},
		{name: "trailing commas and comments", answer: "{\n\"answer_1\": {\"faithfulness\": true,}, // expected\n\"answer_2\": {\"faithfulness\": false,},\n}", passed: "false", score: "0", f1: "true", f2: "false",
			checks: []string{"W: judge answer: repaired a trailing comma at 2:34 (and 2 more)", "W: judge answer: ignored a // comment at 2:38"}},
		{name: "unescaped quotes in justification", answer: `{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness_justification": "It says "Münster" only, which "[2]" supports.", "faithfulness": true}}`,
			passed: "true", score: "1", f1: "true", f2: "true", checks: []string{"W: judge answer: read an unescaped quote inside a string as part of the text"}},
		{name: "curly quotes", answer: `{“answer_1”: {“faithfulness”: true}, “answer_2”: {“faithfulness”: false}}`, passed: "false", score: "0", f1: "true", f2: "false",
			checks: []string{"W: judge answer: read curly quotes as quotes"}},
		{name: "spelled keys", answer: `{"Answer 1": {"Faithfulness": true}, "Answer 2": {"FAITHFULNESS": false}}`, passed: "false", score: "0", f1: "true", f2: "false"},
		{name: "nested result", answer: `{"evaluation": {"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": true}}}`, passed: "true", score: "1", f1: "true", f2: "true"},
		{name: "format example first", answer: "Required format: {\"answer_1\": {\"faithfulness\": Y}, \"answer_2\": {\"faithfulness\": Y}}\nMy grades:\n" + pairJSON("false", "true", "false", "false"),
			passed: "false", score: "0", f1: "true", f2: "false", checks: []string{"W: judge answer: ignored the text before the JSON"}},
		{name: "no json", answer: "Answer 2 is faithful.", passed: "null", score: "null", f1: "-", f2: "-",
			checks: []string{`E: the answer has no JSON object with "answer_1" or "answer_2"`}},
		// As real judges answer (GPT-4o/4.1, Claude, Llama 3, Mistral, Gemini, Qwen, DeepSeek-R1).
		{name: "gpt-4o: bare json fence", answer: "```json\n" + pairJSON("false", "true", "false", "false") + "\n```", passed: "false", score: "0", f1: "true", f2: "false"},
		{name: "gpt-4.1: here is my evaluation", answer: "Here is my evaluation:\n\n```json\n" + pairJSON("false", "true", "false", "true") + "\n```",
			passed: "true", score: "1", f1: "true", f2: "true", checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1"}},
		{name: "claude: analysis, fence, summary", answer: "I'll analyse each sentence of both answers against the references.\n\n**Answer 1** cites [1] and [2] correctly.\n**Answer 2** drops Osnabrück but cites [2] correctly.\n\n```json\n" +
			pairJSON("false", "true", "false", "true") + "\n```\n\nBoth answers are faithful to their references.",
			passed: "true", score: "1", f1: "true", f2: "true",
			checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1", "W: judge answer: ignored the text after the JSON, from 27:1"}},
		{name: "the seed's schema with X and Y quoted first", answer: "The required format is:\n{\n    \"answer_1\": {\n        \"answer_only_asserts_no_document_answers\": X,\n        \"content_analysis_sentence_by_sentence\": [...],\n        \"faithfulness\": Y\n    },\n    \"answer_2\": {\"faithfulness\": Y}\n}\n\nMy evaluation:\n" +
			pairJSON("false", "true", "false", "false"), passed: "false", score: "0", f1: "true", f2: "false", checks: []string{"W: judge answer: ignored the text before the JSON, from 1:1"}},
		{name: "llama: python dict", answer: "{'answer_1': {'answer_only_asserts_no_document_answers': False, 'faithfulness_justification': 'All cited.', 'faithfulness': True}, 'answer_2': {'answer_only_asserts_no_document_answers': False, 'faithfulness_justification': \"It's cited.\", 'faithfulness': False}}",
			passed: "false", score: "0", f1: "true", f2: "false", checks: []string{"W: judge answer: read a single-quoted string", "W: judge answer: read Python False as false", "W: judge answer: read Python True as true"}},
		{name: "mistral: trailing commas in the sentence list", answer: "{\n  \"answer_1\": {\"answer_only_asserts_no_document_answers\": false, \"content_analysis_sentence_by_sentence\": [{\"sentence\": \"The war ended in 1648 [1].\", \"criterion_1\": \"yes\",},], \"faithfulness\": true,},\n  \"answer_2\": {\"answer_only_asserts_no_document_answers\": false, \"faithfulness\": true,},\n}",
			passed: "true", score: "1", f1: "true", f2: "true", checks: []string{"W: judge answer: repaired a trailing comma at 2:171 (and 4 more)"}},
		{name: "smart quotes", answer: "{“answer_1”: {“answer_only_asserts_no_document_answers”: false, “faithfulness”: true}, “answer_2”: {“answer_only_asserts_no_document_answers”: false, “faithfulness_justification”: “Münster is cited.”, “faithfulness”: true}}",
			passed: "true", score: "1", f1: "true", f2: "true", checks: []string{"W: judge answer: read curly quotes as quotes"}},
		{name: "keys in other cases", answer: `{"Answer_1": {"Answer_Only_Asserts_No_Document_Answers": false, "Faithfulness": true}, "ANSWER_2": {"answerOnlyAssertsNoDocumentAnswers": false, "FAITHFULNESS": false}}`,
			passed: "false", score: "0", f1: "true", f2: "false"},
		{name: "grades as Yes and true", answer: pairJSON("false", `"Yes"`, `"False"`, `"true"`), passed: "true", score: "1", f1: "true", f2: "true",
			checks: []string{`W: answer_1: read faithfulness "Yes" as true`, `W: answer_2: read faithfulness "true" as true`, `W: answer_2: read answer_only_asserts_no_document_answers "False" as false`}},
		{name: "unescaped quotes in a sentence", answer: `{"answer_1": {"faithfulness": true}, "answer_2": {"content_analysis_sentence_by_sentence": [{"sentence": "It was negotiated in "Münster" [2].", "criterion_1": "yes", "criterion_2": "yes", "criterion_3": "yes"}], "faithfulness": true}}`,
			passed: "true", score: "1", f1: "true", f2: "true", checks: []string{"W: judge answer: read an unescaped quote inside a string as part of the text"}},
		{name: "cut off by max_tokens in answer_2's analysis", answer: "```json\n" + pairJSON("false", "true", "false", "true")[:560], passed: "null", score: "null", f1: "true", f2: "-",
			checks: []string{"E: the answer ends inside the JSON that starts at 2:1: it looks truncated (max_tokens too small?)"}},
		{name: "deepseek-r1: think with a draft, then a fence", answer: "<think>\nDraft: {\"answer_1\": {\"faithfulness\": false}, \"answer_2\": {\"faithfulness\": false}}. Wait, [2] does mention Münster.\n</think>\n\n```json\n" +
			pairJSON("false", "true", "false", "true") + "\n```", passed: "true", score: "1", f1: "true", f2: "true"},
		{name: "gemini: fence and a bold explanation", answer: "```json\n" + pairJSON("false", "true", "false", "false") + "\n```\n\n**Explanation:** Answer 2 omits Osnabrück.",
			passed: "false", score: "0", f1: "true", f2: "false", checks: []string{"W: judge answer: ignored the text after the JSON, from 22:1"}},
		{name: "answer_2 before answer_1", answer: `{"answer_2": {"answer_only_asserts_no_document_answers": false, "faithfulness": false}, "answer_1": {"answer_only_asserts_no_document_answers": false, "faithfulness": true}}`,
			passed: "false", score: "0", f1: "true", f2: "false"},
		{name: "bare Python literals in JSON", answer: `{"answer_1": {"answer_only_asserts_no_document_answers": False, "faithfulness": True}, "answer_2": {"answer_only_asserts_no_document_answers": False, "faithfulness": False}}`,
			passed: "false", score: "0", f1: "true", f2: "false", checks: []string{"W: judge answer: read Python False as false", "W: judge answer: read Python True as true"}},
		{name: "comments naming the placeholders", answer: "{\n  \"answer_1\": {\"answer_only_asserts_no_document_answers\": false, // X\n    \"faithfulness\": true // Y\n  },\n  \"answer_2\": {\"answer_only_asserts_no_document_answers\": false, // X\n    \"faithfulness\": true // Y\n  }\n}",
			passed: "true", score: "1", f1: "true", f2: "true", checks: []string{"W: judge answer: ignored a // comment at 2:66 (and 3 more)"}},
		{name: "qwen: null as a string, no document answers", answer: pairJSON("false", "true", "true", `"null"`), passed: "null", score: "null", f1: "true", f2: "null",
			checks: []string{`W: answer_2: read faithfulness "null" as null`, "E: undetermined: the judge graded answer_2's faithfulness null"}},
	}
	r := testRegistry(t)
	in := object(t, pairwiseInputs)
	grade := func(a *pairwiseAnswer) string {
		if a == nil {
			return "-"
		}
		if a.Faithfulness == nil {
			return "null"
		}
		return fmt.Sprint(*a.Faithfulness)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Parse(pairwiseID, in, tt.answer)
			require.NoError(t, err)
			assertVerdict(t, v, tt.passed, tt.score, tt.checks)
			d := v.Verdict.(*pairwiseDetail)
			assert.Equal(t, tt.f1, grade(d.Answer1), "answer_1")
			assert.Equal(t, tt.f2, grade(d.Answer2), "answer_2")
			if tt.checks == nil {
				assert.Empty(t, v.Checks, "an answer with nothing to repair or doubt has no checks")
			}
			assert.Equal(t, 2, d.Citations.Sentences)
			assert.Empty(t, d.Citations.Uncited)
		})
	}
}

func TestPairwiseDetail(t *testing.T) {
	r := testRegistry(t)
	in := object(t, `{"contexts": ["A.", "B."], "expected_output": "A [1].", "actual_output": "A is true [1]. B is false. C holds [3]."}`)
	v, err := r.Parse(pairwiseID, in, pairJSON("false", "true", "false", "false"))
	require.NoError(t, err)
	assertVerdict(t, v, "false", "0", []string{
		`W: citation check: sentence 2 of the actual output cites no reference: "B is false."`,
		`W: citation check: sentence 3 of the actual output cites [3], but the references are [1] to [2]: "C holds [3]."`,
	})
	b, err := json.Marshal(v.Verdict)
	require.NoError(t, err)
	assert.JSONEq(t, `{
	  "answer_1": {"answer_only_asserts_no_document_answers": false,
	    "content_analysis_sentence_by_sentence": [{"sentence": "The war ended in 1648 [1].", "criterion_1": "yes", "criterion_2": "yes", "criterion_3": "yes"}],
	    "faithfulness_justification": "Every sentence cites a correct reference.", "faithfulness": true, "graded": true},
	  "answer_2": {"answer_only_asserts_no_document_answers": false,
	    "content_analysis_sentence_by_sentence": [{"sentence": "It was negotiated in Münster [2].", "criterion_1": "yes", "criterion_2": "yes", "criterion_3": "partly"}],
	    "faithfulness_justification": "Cites its sources.", "faithfulness": false, "graded": true},
	  "citations": {"sentences": 3,
	    "uncited": [{"sentence_index": 2, "sentence": "B is false.", "line": 1, "col": 16, "len": 11}],
	    "out_of_range": [{"ref": 3, "sentence_index": 3, "sentence": "C holds [3].", "line": 1, "col": 36, "len": 3}]}
	}`, string(b))

	// The citation check stands even when the judge's answer cannot be read.
	v, err = r.Parse(pairwiseID, in, "no idea")
	require.NoError(t, err)
	assertVerdict(t, v, "null", "null", []string{"E: the answer has no JSON", "W: citation check: sentence 2"})
}

// TestPairwiseGraded: graded tells a null grade (not measurable) from no grade, for either answer.
func TestPairwiseGraded(t *testing.T) {
	r := testRegistry(t)
	in := object(t, `{"contexts": ["A."], "expected_output": "A [1].", "actual_output": "A [1]."}`)
	for _, tc := range []struct{ answer, a1, a2 string }{
		{`{"answer_1": {"faithfulness": null}, "answer_2": {"faithfulness": true}}`, "null true", "true true"},
		{`{"answer_1": {"justification": "?"}, "answer_2": {"faithfulness": null}}`, "null false", "null true"},
		{`{"answer_1": {"faithfulness": "maybe"}, "answer_2": {"faithfulness": 0}}`, "null false", "false true"},
	} {
		v, err := r.Parse(pairwiseID, in, tc.answer)
		require.NoError(t, err)
		d := v.Verdict.(*pairwiseDetail)
		show := func(a *pairwiseAnswer) string {
			f := "null"
			if a.Faithfulness != nil {
				f = strconv.FormatBool(*a.Faithfulness)
			}
			return f + " " + strconv.FormatBool(a.Graded)
		}
		assert.Equal(t, tc.a1, show(d.Answer1), tc.answer)
		assert.Equal(t, tc.a2, show(d.Answer2), tc.answer)
	}
}

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		text string
		want []string // each "text" or "text|refs"
	}{
		{"Paris is the capital [1]. It is large [2].", []string{"Paris is the capital [1].|1", "It is large [2].|2"}},
		{"Paris is the capital. [1] It is large.", []string{"Paris is the capital. [1]|1", "It is large."}},
		{"Dr. Smith found 3.5% growth [1]. See e.g. the U.S. data [2].", []string{"Dr. Smith found 3.5% growth [1].|1", "See e.g. the U.S. data [2].|2"}},
		{"Apples, pears, etc. are fruit [1]. J. K. Rowling wrote it [2].", []string{"Apples, pears, etc. are fruit [1].|1", "J. K. Rowling wrote it [2].|2"}},
		{"- Item one [1]\n- Item two\n\n1. Numbered [2]", []string{"- Item one [1]|1", "- Item two", "1. Numbered [2]|2"}},
		{"Ranges [1-3] and lists [1, 5; 7].", []string{"Ranges [1-3] and lists [1, 5; 7].|1,2,3,5,7"}},
		{`He said "stop." [2] Then he left [1]!`, []string{`He said "stop." [2]|2`, "Then he left [1]!|1"}},
		{"Is it? Yes [1]!? Sure…", []string{"Is it?", "Yes [1]!?|1", "Sure…"}},
		{"See example.com [1] and v1.2 [2].", []string{"See example.com [1] and v1.2 [2].|1,2"}},
		{"A claim.\n[3]\n---", []string{"A claim.|3"}},
		{"Not a citation [a] or [] or [1 2].", []string{"Not a citation [a] or [] or [1 2]."}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range splitSentences(tt.text) {
			assert.Equal(t, s.text, tt.text[s.start:s.start+len(s.text)], "the sentence's offset")
			for _, c := range s.cites {
				assert.Equal(t, byte('['), tt.text[c.off])
				assert.Equal(t, byte(']'), tt.text[c.off+c.n-1])
			}
			if len(s.refs) == 0 {
				got = append(got, s.text)
				continue
			}
			refs := make([]string, len(s.refs))
			for i, r := range s.refs {
				refs[i] = fmt.Sprint(r)
			}
			got = append(got, s.text+"|"+strings.Join(refs, ","))
		}
		assert.Equal(t, tt.want, got, tt.text)
	}
}

func TestCheckCitations(t *testing.T) {
	text := "No document seems to precisely answer your question. However, Paris is large [1]. Rome too [0]. Oslo [2]."
	c := checkCitations(text, 1)
	assert.Equal(t, 4, c.Sentences)
	assert.Equal(t, []uncitedRef{}, c.Uncited)
	assert.Equal(t, []outOfBounds{
		{Ref: 0, SentenceIndex: 3, Sentence: "Rome too [0].", Line: 1, Col: 92, Len: 3, off: 91, n: 3},
		{Ref: 2, SentenceIndex: 4, Sentence: "Oslo [2].", Line: 1, Col: 102, Len: 3, off: 101, n: 3},
	}, c.OutOfRange)
	w := c.checks(text, 1)
	require.Len(t, w, 2)
	assert.Contains(t, w[1].Message, "cites [2], but there is only reference [1]")
	assert.Equal(t, diag.Check{Severity: diag.SevWarning, Code: diag.CitationOutOfRange, Message: w[1].Message, Input: "actual_output", Line: 1, Col: 102, Len: 3}, w[1])
	assert.Contains(t, checkCitations("X [1].", 0).checks("X [1].", 0)[0].Message, "but there are no references")

	// Several lines, a citation after the period, characters beyond ASCII: positions are lines
	// and columns in code points.
	text = "Zürich is in Switzerland [1].\n\n  Its lake is Lake Zürich. [1, 4]\nIt has no airport."
	c = checkCitations(text, 2)
	require.Len(t, c.OutOfRange, 1)
	assert.Equal(t, [3]int{3, 28, 6}, [3]int{c.OutOfRange[0].Line, c.OutOfRange[0].Col, c.OutOfRange[0].Len}, "the [1, 4] on line 3")
	require.Len(t, c.Uncited, 1)
	assert.Equal(t, [3]int{4, 1, 18}, [3]int{c.Uncited[0].Line, c.Uncited[0].Col, c.Uncited[0].Len})
}

func BenchmarkRenderParsePairwiseFaithfulness(b *testing.B) {
	answer := "```json\n" + pairJSON("false", "true", "false", "false") + "\n```"
	b.Run("typical", func(b *testing.B) {
		benchRenderParse(b, pairwiseID, object(b, pairwiseInputs), answer, len(pairwiseInputs))
	})
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			contexts := benchChunks(size.bytes)
			var actual strings.Builder
			for i := range 50 {
				fmt.Fprintf(&actual, "Sentence %d about the dose of 20 mg, e.g. 3.5 mmol/L [%d]. ", i+1, i%len(contexts)+1)
			}
			in := value.NewObject("contexts", contexts, "expected_output", "The dose was 20 mg [1].", "actual_output", actual.String())
			benchRenderParse(b, pairwiseID, in, answer, size.bytes)
		})
	}
}

// TestPairwiseCheckPositions: a check about one graded answer points at the judge's object for
// it; one about the whole payload at the payload.
func TestPairwiseCheckPositions(t *testing.T) {
	r := testRegistry(t)
	in := object(t, pairwiseInputs)
	answer := "Here you go:\n{\n  \"answer_1\": {\"faithfulness\": \"true\"},\n  \"answer_2\": {\"faithfulness\": \"maybe\"}\n}"
	v, err := r.Parse(pairwiseID, in, answer)
	require.NoError(t, err)
	at := map[diag.Code][3]int{}
	for _, c := range v.Checks {
		if c.Input == "" {
			at[c.Code] = [3]int{c.Line, c.Col, c.Len}
		}
	}
	assert.Equal(t, map[diag.Code][3]int{
		diag.AnswerProseSkipped: {1, 1, 12},
		diag.AnswerCoerced:      {3, 15, 24},
		diag.PairwiseBadGrade:   {4, 15, 25},
	}, at)
	v, err = r.Parse(pairwiseID, in, `{"answer_1": {"faithfulness": true}}`)
	require.NoError(t, err)
	var c diag.Check
	for _, c = range v.Checks {
		if c.Code == diag.PairwiseNoAnswer2 {
			break
		}
	}
	assert.Equal(t, [3]int{1, 1, 36}, [3]int{c.Line, c.Col, c.Len})
}

// TestPairwiseCut reads answers cut short: a grade that arrived whole is shown, one the cut fell
// in is left out without blaming the judge, and the verdict is undetermined, answer.truncated
// first, even when answer_2's grade arrived before the cut.
func TestPairwiseCut(t *testing.T) {
	whole := pairJSON("false", "true", "false", "false")
	tests := []struct {
		name, answer string
		f1, f2       string
		codes        []diag.Code
	}{
		{"inside answer_1", upTo(t, whole, `"criterion_1": "y`), "-", "-", []diag.Code{diag.AnswerTruncated}},
		{"between the answers", upTo(t, whole, "    },\n"), "true", "-", []diag.Code{diag.AnswerTruncated}},
		{"inside answer_2's analysis", upTo(t, whole, `"sentence": "It was`), "true", "-", []diag.Code{diag.AnswerTruncated}},
		{"inside answer_2's grade", upTo(t, whole, `"faithfulness": fal`), "true", "-", []diag.Code{diag.AnswerTruncated}},
		{"after answer_2 closed", whole[:strings.LastIndex(whole, "}")] + `, "note": "done`, "true", "false", []diag.Code{diag.AnswerTruncated}},
		{"answer_1 not an object", `{"answer_1": "fine", "answer_2": {"faithful`, "-", "-", []diag.Code{diag.AnswerTruncated, diag.PairwiseBadAnswer}},
	}
	r := testRegistry(t)
	in := object(t, pairwiseInputs)
	grade := func(a *pairwiseAnswer) string {
		if a == nil {
			return "-"
		}
		if a.Faithfulness == nil {
			return "null"
		}
		return fmt.Sprint(*a.Faithfulness)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Parse(pairwiseID, in, tt.answer)
			require.NoError(t, err)
			assertVerdict(t, v, "null", "null", nil)
			var codes []diag.Code
			for _, c := range v.Checks {
				codes = append(codes, c.Code)
			}
			assert.Equal(t, tt.codes, codes)
			d := v.Verdict.(*pairwiseDetail)
			assert.Equal(t, tt.f1, grade(d.Answer1), "answer_1")
			assert.Equal(t, tt.f2, grade(d.Answer2), "answer_2")
		})
	}
	v, err := r.Parse(pairwiseID, in, upTo(t, whole, "    },\n"))
	require.NoError(t, err)
	d := v.Verdict.(*pairwiseDetail)
	require.NotNil(t, d.Answer1)
	assert.Equal(t, "Every sentence cites a correct reference.", d.Answer1.Justification)
	assert.Len(t, d.Answer1.Sentences, 1)
}
