package dataset

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// The built-in evaluators' inputs, as the judge package describes them (names and kinds).
var (
	claimInputs = []judge.Input{
		{Name: "question", Kind: "text", Required: true},
		{Name: "claims", Kind: "claims", Required: true},
		{Name: "evidence", Kind: "evidence", Required: true},
	}
	answerInputs = []judge.Input{
		{Name: "answer", Kind: "text", Required: true},
		{Name: "facts", Kind: "list", Required: true},
		{Name: "mode", Kind: "choice", Choices: []string{"strict", "lenient"}},
	}
	pairwiseInputs = []judge.Input{
		{Name: "contexts", Kind: "list", Required: true},
		{Name: "expected_output", Kind: "text", Required: true},
		{Name: "actual_output", Kind: "text", Required: true},
	}
	recallInputs = []judge.Input{
		{Name: "passage_gt", Kind: "text", Required: true},
		{Name: "passage_llm", Kind: "text", Required: true},
		{Name: "threshold", Kind: "number"},
	}
)

func TestDetectMapping(t *testing.T) {
	ragas2 := []string{"user_input", "retrieved_contexts", "response", "reference"}
	ragas1 := []string{"question", "contexts", "answer", "ground_truths"}
	deepeval := []string{"input", "actualOutput", "expectedOutput", "retrievalContext", "context"}
	for _, tc := range []struct {
		name    string
		columns []string
		inputs  []judge.Input
		want    Mapping
	}{
		{"RAGAS v0.2, pairwise", ragas2, pairwiseInputs,
			Mapping{"contexts": "retrieved_contexts", "expected_output": "reference", "actual_output": "response"}},
		{"RAGAS v0.2, answer grounding", ragas2, answerInputs,
			Mapping{"answer": "response", "facts": "retrieved_contexts"}},
		{"RAGAS v0.2, claim groundedness", ragas2, claimInputs,
			Mapping{"question": "user_input", "evidence": "retrieved_contexts"}},
		{"RAGAS v0.2, recall", ragas2, recallInputs,
			Mapping{"passage_gt": "reference", "passage_llm": "response"}},
		{"RAGAS v0.1, pairwise", ragas1, pairwiseInputs,
			Mapping{"contexts": "contexts", "expected_output": "ground_truths", "actual_output": "answer"}},
		{"DeepEval in camelCase, pairwise", deepeval, pairwiseInputs,
			Mapping{"contexts": "retrievalContext", "expected_output": "expectedOutput", "actual_output": "actualOutput"}},
		{"DeepEval, claim groundedness", deepeval, claimInputs,
			Mapping{"question": "input", "evidence": "retrievalContext"}},
		{"this tool's own names, any case and spacing", []string{"Question", "CLAIMS", "evidence"}, claimInputs,
			Mapping{"question": "Question", "claims": "CLAIMS", "evidence": "evidence"}},
		{"own names win over synonyms", []string{"answer", "actual_output", "expected_output"}, pairwiseInputs,
			Mapping{"actual_output": "actual_output", "expected_output": "expected_output"}},
		{"a column feeds one input at most", []string{"contexts", "answer"}, answerInputs,
			Mapping{"answer": "answer", "facts": "contexts"}},
		{"spaces and hyphens", []string{"Ground Truth", "actual-output", "Retrieved Contexts"}, pairwiseInputs,
			Mapping{"contexts": "Retrieved Contexts", "expected_output": "Ground Truth", "actual_output": "actual-output"}},
		{"promptfoo vars with paths", []string{"vars", "vars.query", "vars.context", "response", "response.output"}, claimInputs,
			Mapping{"question": "vars.query", "evidence": "vars.context"}},
		{"promptfoo vars without paths: the input's own name is guessed", []string{"vars"}, recallInputs,
			Mapping{"passage_gt": "vars.passage_gt", "passage_llm": "vars.passage_llm", "threshold": "vars.threshold"}},
		{"MLflow inputs and outputs", []string{"inputs", "inputs.question", "outputs", "outputs.answer", "expectations", "expectations.expected_response"}, answerInputs,
			Mapping{"answer": "outputs.answer"}},
		{"nothing fits", []string{"id", "notes"}, pairwiseInputs, Mapping{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, DetectMapping(tc.columns, tc.inputs))
		})
	}
}

func TestPromptfooMapping(t *testing.T) {
	text := `{"results":{"results":[
{"vars":{"question":"Who?","context":"Ada wrote it."},"response":{"output":"Ada [1]."},"testCase":{"vars":{"question":"Who?"}}},
{"vars":{"question":"When?","context":["1843","London"]},"response":{"output":"1843."}}]}}`
	tab, err := Read(text, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"vars", "vars.question", "vars.context", "response", "response.output", "testCase", "testCase.vars", "testCase.vars.question"}, tab.Paths())
	m := tab.DetectMapping(answerInputs)
	assert.Equal(t, Mapping{"answer": "response.output", "facts": "vars.context"}, m)

	in, checks := RowInputs(tab.Rows[0], m, answerInputs)
	assert.JSONEq(t, `{"answer":"Ada [1].","facts":["Ada wrote it."]}`, mustJSON(t, in))
	assert.Equal(t, []string{`input "facts" (column "vars.context"): one text, not a list; taken as a list of one`}, messages(checks))

	in, msgs := RowInputs(tab.Rows[1], m, answerInputs)
	assert.JSONEq(t, `{"answer":"1843.","facts":["1843","London"]}`, mustJSON(t, in))
	assert.Empty(t, msgs)
}

func TestRAGASCSVMapping(t *testing.T) {
	// pandas writes list columns as Python reprs; a JSON list is as good.
	text := "user_input,retrieved_contexts,response,reference\r\n" +
		"Who wrote it?,\"['Ada wrote it.', \"\"It's from 1843.\"\"]\",Ada [1].,Ada Lovelace\r\n" +
		"When?,\"[\"\"1843\"\"]\",1843 [1].,1843\r\n"
	tab, err := Read(text, "")
	require.NoError(t, err)
	require.Empty(t, tab.Errors)
	m := tab.DetectMapping(pairwiseInputs)
	assert.Equal(t, Mapping{"contexts": "retrieved_contexts", "expected_output": "reference", "actual_output": "response"}, m)
	in, msgs := RowInputs(tab.Rows[0], m, pairwiseInputs)
	assert.JSONEq(t, `{"contexts":["Ada wrote it.","It's from 1843."],"expected_output":"Ada Lovelace","actual_output":"Ada [1]."}`, mustJSON(t, in))
	assert.Empty(t, msgs)
	in, msgs = RowInputs(tab.Rows[1], m, pairwiseInputs)
	assert.JSONEq(t, `{"contexts":["1843"],"expected_output":"1843","actual_output":"1843 [1]."}`, mustJSON(t, in))
	assert.Empty(t, msgs)
}

func TestRowInputs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		row    string
		m      Mapping
		inputs []judge.Input
		want   string
		msgs   []string
		codes  []diag.Code // when given, the checks' codes in order
		col    int         // when given, the first check's col
	}{
		{
			name:   "a JSON list in a text cell",
			row:    `{"a":"yes","f":"[\"x\", \"y\"]"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["x","y"]}`,
		},
		{
			name:   "a real list, numbers made text",
			row:    `{"a":"yes","f":["x", 2, 2.5, true]}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["x","2","2.5","true"]}`,
		},
		{
			name:   "a single text is a list of one, noted",
			row:    `{"a":"yes","f":"just one fact"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["just one fact"]}`,
			msgs:   []string{`input "facts" (column "f"): one text, not a list; taken as a list of one`},
		},
		{
			name:   "text that only looks like a list",
			row:    `{"a":"yes","f":"[1] is the source"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["[1] is the source"]}`,
			msgs:   []string{`input "facts" (column "f"): one text, not a list; taken as a list of one`},
		},
		{
			name:   "a broken list is one item, and the note says why",
			row:    `{"a":"yes","f":"[\"x\", y]"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["[\"x\", y]"]}`,
			msgs:   []string{`input "facts" (column "f"): looks like a list but is neither JSON nor a Python list (expected a quoted string, a number, None, True or False at col 7); taken as a list of one`},
			codes:  []diag.Code{diag.InputBadListCell},
			col:    7,
		},
		{
			name:   "nulls in a list are left out, noted",
			row:    `{"a":"yes","f":["x", null]}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["x"]}`,
			msgs:   []string{`input "facts" (column "f"): item 2 is null; left out`},
		},
		{
			name:   "an object in a list of texts is read as its text",
			row:    `{"a":"yes","f":["x", {"doc_id": "d1", "text": "y"}]}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["x","y"]}`,
			msgs:   []string{`input "facts" (column "f"): 1 of 2 items are objects like {doc_id, text}; each is read as its text`},
			codes:  []diag.Code{diag.InputItemText},
		},
		{
			name:   "an object with no text in a list is an error",
			row:    `{"a":"yes","f":["x", {"id": 3}]}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes"}`,
			msgs:   []string{`input "facts" (column "f"): item 2 is an object with no text in it (text, content, page_content, ...); want text`},
			codes:  []diag.Code{diag.InputBadItem},
		},
		{
			name:   "an empty list is an error",
			row:    `{"a":"yes","f":"[]"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes"}`,
			msgs:   []string{`input "facts" (column "f"): the list is empty`},
			codes:  []diag.Code{diag.InputEmptyList},
		},
		{
			name:   "a list of nulls is empty",
			row:    `{"a":"yes","f":[null]}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes"}`,
			msgs:   []string{`input "facts" (column "f"): item 1 is null; left out`, `input "facts" (column "f"): the list is empty`},
			codes:  []diag.Code{diag.InputNullItem, diag.InputEmptyList},
		},
		{
			name:   "a number for a list",
			row:    `{"a":"yes","f":{"x":1}}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes"}`,
			msgs:   []string{`input "facts" (column "f"): want a list, got an object`},
			codes:  []diag.Code{diag.InputNotAList},
		},
		{
			name:   "DeepEval's |-joined list",
			row:    `{"a":"yes","f":"Paris is in France.|Lyon too. | Nice as well"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["Paris is in France.","Lyon too.","Nice as well"]}`,
			msgs:   []string{`input "facts" (column "f"): one text with | in it, read as a list of 3 items split at | (as DeepEval writes lists); if it is one text, give it as a JSON list ["…"]`},
			codes:  []diag.Code{diag.InputListFromPipes},
		},
		{
			name:   "a Markdown table is one text, not a |-joined list",
			row:    `{"a":"yes","f":"| year | revenue |\n| 2023 | 5 |"}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["| year | revenue |\n| 2023 | 5 |"]}`,
			msgs:   []string{`input "facts" (column "f"): one text, not a list; taken as a list of one`},
			codes:  []diag.Code{diag.InputOneItem},
		},
		{
			name:   "a | in a text input is text",
			row:    `{"g":"a|b","l":"llm"}`,
			m:      Mapping{"passage_gt": "g", "passage_llm": "l"},
			inputs: recallInputs,
			want:   `{"passage_gt":"a|b","passage_llm":"llm"}`,
		},
		{
			name:   "evidence objects keep their titles; LangChain documents and {title, content}",
			row:    `{"q":"Q","c":["x"],"e":"[{'page_content': 'Ada wrote it.', 'metadata': {'title': 'Notes', 'page': 3}}, {'title': 'Wiki', 'content': 'In 1843.'}, {'doc_id': 7, 'text': 'Babbage.'}]"}`,
			m:      Mapping{"question": "q", "claims": "c", "evidence": "e"},
			inputs: claimInputs,
			want:   `{"question":"Q","claims":["x"],"evidence":[{"title":"Notes","text":"Ada wrote it."},{"title":"Wiki","text":"In 1843."},{"text":"Babbage."}]}`,
			msgs:   []string{`input "evidence" (column "e"): 3 of 3 items are objects like {page_content, metadata}; each is read as its text and title`},
			codes:  []diag.Code{diag.InputItemText},
		},
		{
			name:   "choice matched in any case",
			row:    `{"a":"yes","f":["x"],"m":" Lenient "}`,
			m:      Mapping{"answer": "a", "facts": "f", "mode": "m"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["x"],"mode":"lenient"}`,
		},
		{
			name:   "an unknown choice",
			row:    `{"a":"yes","f":["x"],"m":"loose"}`,
			m:      Mapping{"answer": "a", "facts": "f", "mode": "m"},
			inputs: answerInputs,
			want:   `{"answer":"yes","facts":["x"],"mode":"loose"}`,
			msgs:   []string{`input "mode" (column "m"): "loose" is not one of strict, lenient`},
		},
		{
			name:   "missing and empty values",
			row:    `{"a":"  ","m":""}`,
			m:      Mapping{"answer": "a", "facts": "f", "mode": "m"},
			inputs: answerInputs,
			want:   `{}`,
			msgs: []string{
				`input "answer" (column "a"): the value is empty in this row`,
				`input "facts" (column "f"): the value is missing in this row`,
			},
			codes: []diag.Code{diag.InputMissing, diag.InputMissing},
		},
		{
			name:   "no column mapped to a required input",
			row:    `{"x":"1"}`,
			m:      Mapping{},
			inputs: recallInputs,
			want:   `{}`,
			msgs: []string{
				`input "passage_gt": no column is mapped to it`,
				`input "passage_llm": no column is mapped to it`,
			},
			codes: []diag.Code{diag.InputUnmapped, diag.InputUnmapped},
		},
		{
			name:   "numbers in text cells",
			row:    `{"g":"gt","l":"llm","t":" 3.5 "}`,
			m:      Mapping{"passage_gt": "g", "passage_llm": "l", "threshold": "t"},
			inputs: recallInputs,
			want:   `{"passage_gt":"gt","passage_llm":"llm","threshold":3.5}`,
		},
		{
			name:   "an integer stays an integer",
			row:    `{"g":"gt","l":"llm","t":"4"}`,
			m:      Mapping{"passage_gt": "g", "passage_llm": "l", "threshold": "t"},
			inputs: recallInputs,
			want:   `{"passage_gt":"gt","passage_llm":"llm","threshold":4}`,
		},
		{
			name:   "not a number",
			row:    `{"g":"gt","l":"llm","t":"NaN"}`,
			m:      Mapping{"passage_gt": "g", "passage_llm": "l", "threshold": "t"},
			inputs: recallInputs,
			want:   `{"passage_gt":"gt","passage_llm":"llm"}`,
			msgs:   []string{`input "threshold" (column "t"): "NaN" is not a number`},
		},
		{
			name:   "a list of ground truths for a text input is joined, noted",
			row:    `{"g":["first","second"],"l":"llm"}`,
			m:      Mapping{"passage_gt": "g", "passage_llm": "l"},
			inputs: recallInputs,
			want:   `{"passage_gt":"first\nsecond","passage_llm":"llm"}`,
			msgs:   []string{`input "passage_gt" (column "g"): a list of 2 texts; joined one per line`},
		},
		{
			name:   "an object for a text input",
			row:    `{"g":{"text":"x"},"l":"llm"}`,
			m:      Mapping{"passage_gt": "g", "passage_llm": "l"},
			inputs: recallInputs,
			want:   `{"passage_llm":"llm"}`,
			msgs:   []string{`input "passage_gt" (column "g"): want text, got an object`},
		},
		{
			name:   "claims and evidence take objects",
			row:    `{"q":"Q","c":"[{\"id\":\"a\",\"text\":\"t\"}, \"plain\"]","e":[{"title":"T","text":"x"}]}`,
			m:      Mapping{"question": "q", "claims": "c", "evidence": "e"},
			inputs: claimInputs,
			want:   `{"question":"Q","claims":[{"id":"a","text":"t"},"plain"],"evidence":[{"title":"T","text":"x"}]}`,
		},
		{
			name:   "one evidence object is a list of one",
			row:    `{"q":"Q","c":["x"],"e":{"title":"T","text":"x"}}`,
			m:      Mapping{"question": "q", "claims": "c", "evidence": "e"},
			inputs: claimInputs,
			want:   `{"question":"Q","claims":["x"],"evidence":[{"title":"T","text":"x"}]}`,
			msgs:   []string{`input "evidence" (column "e"): one object, not a list; taken as a list of one`},
		},
		{
			// RAGChecker's claims are [subject, predicate, object] triplets; HotpotQA's context
			// entries [title, [sentences]].
			name: "claims as triplets, evidence as [title, [sentences]]",
			row: `{"q": "Longest river?", "claims": [["Nile", "is", "longest river in the world"], ["Nile", "flows through", "Egypt"]],
				"ctx": [["Nile", [" The Nile is a river in Africa.", " It flows north."]], "A plain passage."]}`,
			m:      Mapping{"question": "q", "claims": "claims", "evidence": "ctx"},
			inputs: claimInputs,
			want: `{"question": "Longest river?", "claims": ["Nile is longest river in the world", "Nile flows through Egypt"],
				"evidence": [{"title": "Nile", "text": "The Nile is a river in Africa. It flows north."}, "A plain passage."]}`,
			msgs: []string{
				`input "claims" (column "claims"): 2 of 2 items are lists of texts (as RAGChecker writes a claim [subject, predicate, object]); each is read as its texts joined by spaces`,
				`input "evidence" (column "ctx"): 1 of 2 items are [title, [sentences]] (as HotpotQA writes a passage); each is read as its sentences joined by spaces, under its title`,
			},
		},
		{
			name:   "a list item that is not texts",
			row:    `{"a": "x", "f": [["Nile", 3]]}`,
			m:      Mapping{"answer": "a", "facts": "f"},
			inputs: answerInputs,
			want:   `{"answer": "x"}`,
			msgs:   []string{`input "facts" (column "f"): item 1 is a list that is not texts (a claim triplet [subject, predicate, object], a [title, [sentences]] passage); want text`},
		},
		{
			name:   "dotted paths and keys with dots",
			row:    `{"vars":{"q":"Q"},"a.b":{"c":["x"]},"e":["y"]}`,
			m:      Mapping{"question": "vars.q", "claims": "a.b.c", "evidence": "e"},
			inputs: claimInputs,
			want:   `{"question":"Q","claims":["x"],"evidence":["y"]}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := value.Decode([]byte(tc.row))
			require.NoError(t, err)
			got, checks := RowInputs(v.(*value.Object), tc.m, tc.inputs)
			assert.JSONEq(t, tc.want, mustJSON(t, got))
			if tc.msgs == nil {
				tc.msgs = []string{}
			}
			assert.Equal(t, tc.msgs, messages(checks))
			for _, c := range checks {
				assert.NotEmpty(t, c.Code, c.Message)
				assert.NotEmpty(t, c.Input, c.Message)
			}
			if tc.codes != nil {
				assert.Equal(t, tc.codes, codes(checks))
			}
			if tc.col != 0 {
				assert.Equal(t, tc.col, checks[0].Col)
			}
		})
	}
}

func TestParseListCell(t *testing.T) {
	for _, tc := range []struct {
		cell string
		want string // JSON of the list; "" when not a list
		note string
	}{
		{`["a", "b"]`, `["a","b"]`, ""},
		{` [ ] `, `[]`, ""},
		{`['a', "it's", 'x\'y\n', u'\u00e9\x41']`, `["a","it's","x'y\n","éA"]`, ""},
		{`['trailing comma',]`, `["trailing comma"]`, ""},
		{`[1, -2.5, None, True, False]`, `[1,-2.5,null,true,false]`, ""},
		{"['a' 'b'\n 'c']", `["a","b","c"]`, "NumPy"},
		{`['unknown \d escape']`, `["unknown \\d escape"]`, ""},
		// Every escape Python's literals have; the expected list is Python's ast.literal_eval's.
		{"['\\\\ \\' \\\" \\a \\b \\f \\n \\r \\t \\v \\x41 \\u00e9 \\U0001F600 \\101 \\q', 'a\\\nb']",
			`["\\ ' \" \u0007 \b \f \n \r \t \u000b A \u00e9 \ud83d\ude00 A \\q", "ab"]`, ""},
		{`[a, b]`, "", "at col 2"},
		{`['open]`, "", "string not closed at col 2"},
		{`[['nested']]`, `[["nested"]]`, ""},
		{`[{'doc_id': 1, 'text': "it's"}, {}]`, `[{"doc_id":1,"text":"it's"},{}]`, ""},
		{`[{'a': 1 'b': 2}]`, "", "expected , or } at col 10"},
		{`[{['k']: 1}]`, "", "a dict key that is a list or a dict"},
		{strings.Repeat("[", 40) + "'a'" + strings.Repeat("]", 40), "", "lists nested deeper than 32"},
		{`[1 2]`, "", "expected , or ] at col 4"},
		{`[1] x`, "", ""},
		{`plain text`, "", ""},
		{`[1]`, `[1]`, ""},
	} {
		t.Run(tc.cell, func(t *testing.T) {
			list, note, ok := ParseListCell(tc.cell)
			if tc.want == "" {
				assert.False(t, ok)
			} else {
				require.True(t, ok, note)
				assert.JSONEq(t, tc.want, mustJSON(t, list))
			}
			if tc.note == "" {
				assert.Empty(t, note)
			} else {
				assert.Contains(t, note, tc.note)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	v, err := value.Decode([]byte(`{"a":{"b":{"c":1}},"a.b":{"d":2},"x.y":3,"n":null}`))
	require.NoError(t, err)
	row := v.(*value.Object)
	for _, tc := range []struct {
		path  string
		want  any
		found bool
	}{
		{"a.b.c", int64(1), true},
		{"a.b.d", int64(2), true},
		{"x.y", int64(3), true},
		{"n", nil, true},
		{"a.z", nil, false},
		{"n.z", nil, false},
		{"", nil, false},
		{".", nil, false},
	} {
		got, found := Lookup(row, tc.path)
		assert.Equal(t, tc.found, found, tc.path)
		assert.Equal(t, tc.want, got, tc.path)
	}
}

func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{
		"actualOutput":           "actual_output",
		"RAGAS":                  "ragas",
		"Ground Truth":           "ground_truth",
		"retrieval-context":      "retrieval_context",
		"testCase.vars.Question": "test_case.vars.question",
		" user_input ":           "user_input",
		"passage2Text":           "passage2_text",
	} {
		assert.Equal(t, want, normalise(in), in)
	}
}

func messages(checks []diag.Check) []string {
	out := make([]string, len(checks))
	for i, c := range checks {
		out[i] = c.Message
	}
	return out
}

func codes(checks []diag.Check) []diag.Code {
	out := make([]diag.Code, len(checks))
	for i, c := range checks {
		out[i] = c.Code
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
