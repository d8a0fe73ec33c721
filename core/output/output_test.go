package output

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// js renders a value as compact JSON, keys in order, for comparisons.
func js(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestFindReasoning covers what reasoning models really send (see FindReasoning's rule).
func TestFindReasoning(t *testing.T) {
	tests := []struct {
		name, in, rest string
		open           int // -1: every block is closed
	}{
		{"none", `{"a":1}`, `{"a":1}`, -1},
		{"block (DeepSeek-R1, QwQ)", "<think>\nhmm {\"claims\": []}\n</think>\n\n{\"a\":1}", "\n\n{\"a\":1}", -1},
		{"leading space and case", "  <THINK>x</Think>yes", "yes", -1},
		{"thinking tag", "<thinking>x</thinking>no", "no", -1},
		{"thought tag (Gemini)", "<thought>x</thought>\nno", "\nno", -1},
		{"empty block (Qwen3, thinking off)", "<think>\n\n</think>\n\nyes", "\n\nyes", -1},
		{"consecutive blocks", "<think>a</think>\n\n<think>b</think>\n<thinking>c</thinking> yes", " yes", -1},
		{"lone close (opening tag stripped)", "reasoning here\n</think>\n\nyes", "\n\nyes", -1},
		{"lone close then a block", "reasoning</think>\n<think>more</think>yes", "yes", -1},
		{"the first lone close ends the reasoning", "I must not write </think> early</think>yes", " early</think>yes", -1},
		{"unclosed (max_tokens)", "<think>still going", "", 0},
		{"second block unclosed", "<think>a</think>\n<think>b", "", 17},
		{"lone close then unclosed", "a</think> <think>b", "", 10},
		{"tag later is kept", "yes <think>x</think> no", "yes <think>x</think> no", -1},
		{"unclosed tag later is kept", "yes\n<think>x", "yes\n<think>x", -1},
		{"block after the answer is kept", "<think>a</think>yes <think>b</think>", "yes <think>b</think>", -1},
		{"not a reasoning tag", "<thinker>x</thinker>yes", "<thinker>x</thinker>yes", -1},
		{"mismatched close ends the block", "<thinking>x</think>yes", "yes", -1},
		// gpt-oss's Harmony channels as servers that do not parse them send them (llama.cpp
		// #15181 with reasoning_format none; mlx-lm #1867; oobabooga textgen #7374 and llamafarm
		// #753 with the special tokens dropped).
		{"harmony channels", "<|channel|>analysis<|message|>The facts give 1889.<|end|><|start|>assistant<|channel|>final<|message|>Yes", "Yes", -1},
		{"harmony, start marker first", "<|start|>assistant<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>{\"a\":1}", "{\"a\":1}", -1},
		{"harmony, commentary between", "<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>commentary<|message|>b<|end|><|start|>assistant<|channel|>final<|message|>No", "No", -1},
		{"harmony, final json channel", "<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>final json<|message|>{}", "{}", -1},
		{"harmony, constrained final", "<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>final <|constrain|>json<|message|>{}", "{}", -1},
		{"harmony, final only", "<|channel|>final<|message|>Yes", "Yes", -1},
		{"harmony cut in the analysis", "<|channel|>analysis<|message|>The facts give", "", 0},
		{"harmony cut before a message", "<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>fin", "", 0},
		{"harmony analysis ended, no final", "<|channel|>analysis<|message|>a<|end|>", "", -1},
		{"harmony tokens dropped", "analysisWe need to check the date. It matches.assistantfinalYes", "Yes", -1},
		{"harmony tokens dropped, cut in the analysis", "analysisWe need to check", "", 0},
		{"the word analysis is no channel", "analysis: the answer is right.\nYes", "analysis: the answer is right.\nYes", -1},
		{"a channel marker later is text", "Yes <|channel|>final<|message|>No", "Yes <|channel|>final<|message|>No", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			end, open := FindReasoning(tt.in)
			assert.Equal(t, tt.rest, tt.in[end:])
			assert.Equal(t, tt.open, open)
			if open >= 0 {
				assert.Equal(t, len(tt.in), end, "an unclosed block leaves no answer")
			}
		})
	}
}

func TestFindJSON(t *testing.T) {
	tests := []struct {
		name    string
		answer  string
		want    string   // the payload object as JSON
		repairs []string // each must be one of the notes, in order
		err     string   // substring of the error
		line    int      // of the error, when err is set
		col     int
	}{
		{name: "strict", answer: `{"claims": [{"claim_id": "c1", "grounded": true}]}`,
			want: `{"claims":[{"claim_id":"c1","grounded":true}]}`},
		{name: "strict with surrounding space", answer: "\n  {\"claims\": []}\n",
			want: `{"claims":[]}`},
		{name: "fence only", answer: "```json\n{\"claims\": []}\n```",
			want: `{"claims":[]}`},
		{name: "fence with prose", answer: "Here is my evaluation:\n\n```json\n{\"claims\": []}\n```\nLet me know!",
			want: `{"claims":[]}`, repairs: []string{"ignored the text before the JSON, from 1:1", "ignored the text after the JSON, from 6:1"}},
		{name: "plain fence", answer: "```\n{\"claims\": []}\n```",
			want: `{"claims":[]}`},
		{name: "inline fence", answer: "```json {\"claims\": []} ```",
			want: `{"claims":[]}`},
		{name: "prose around", answer: "Sure. {\"claims\": []} Hope this helps.",
			want: `{"claims":[]}`, repairs: []string{"ignored the text before the JSON, from 1:1", "ignored the text after the JSON, from 1:22"}},
		{name: "trailing comma", answer: "{\n  \"claims\": [\n    {\"claim_id\": \"c1\"},\n  ],\n}",
			want:    `{"claims":[{"claim_id":"c1"}]}`,
			repairs: []string{"repaired a trailing comma at 3:23 (and 1 more)"}},
		{name: "comments", answer: "{\n  // the claims\n  \"claims\": [] /* none */\n}",
			want: `{"claims":[]}`, repairs: []string{"ignored a // comment at 2:3", "ignored a /* */ comment at 3:16"}},
		{name: "python dict", answer: "{'claims': [{'claim_id': 'c1', 'grounded': True, 'note': None}]}",
			want:    `{"claims":[{"claim_id":"c1","grounded":true,"note":null}]}`,
			repairs: []string{"read a single-quoted string at 1:2 (and 4 more)", "read Python True as true at 1:44", "read Python None as null at 1:58"}},
		{name: "unquoted keys", answer: `{claims: [{claim_id: "c1", grounded: false}]}`,
			want: `{"claims":[{"claim_id":"c1","grounded":false}]}`, repairs: []string{"read an unquoted key at 1:2 (and 2 more)"}},
		{name: "curly quotes", answer: `{“claims”: [{“claim_id”: “c1”, “grounded”: true}]}`,
			want: `{"claims":[{"claim_id":"c1","grounded":true}]}`, repairs: []string{"read curly quotes as quotes at 1:2 (and 3 more)"}},
		{name: "raw newline and tab", answer: "{\"claims\": [{\"reason\": \"line one\nline\ttwo\"}]}",
			want:    `{"claims":[{"reason":"line one\nline\ttwo"}]}`,
			repairs: []string{"read a raw line break inside a string at 1:33", "read a raw tab inside a string at 2:5"}},
		{name: "invalid escapes", answer: `{"claims": [{"reason": "the patient\'s \d dose"}]}`,
			want:    `{"claims":[{"reason":"the patient's \\d dose"}]}`,
			repairs: []string{`read the invalid escape \' as ' at 1:36`, `kept an invalid escape such as \d as written at 1:40`}},
		{name: "markdown escapes", answer: `{"claims": [{"claim\_id": "c1"}]}`,
			want: `{"claims":[{"claim_id":"c1"}]}`, repairs: []string{`read the Markdown escape \_ as _ at 1:20`}},
		{name: "unescaped inner quotes", answer: `{"claims": [{"claim_id": "c1", "reason": "it says "follow-up" only", "grounded": false}]}`,
			want:    `{"claims":[{"claim_id":"c1","reason":"it says \"follow-up\" only","grounded":false}]}`,
			repairs: []string{"read an unescaped quote inside a string as part of the text at 1:51 (and 1 more)"}},
		{name: "inner quote before a comma", answer: `{"claims": ["he said "yes", then left"]}`,
			want: `{"claims":["he said \"yes\", then left"]}`, repairs: []string{"read an unescaped quote inside a string as part of the text at 1:22 (and 1 more)"}},
		{name: "nested result", answer: `{"result": {"claims": []}, "model": "x"}`,
			want: `{"claims":[]}`},
		{name: "key case", answer: `{"Claims": []}`, want: `{"Claims":[]}`},
		{name: "example in reasoning", answer: "The format is {\"claims\": [{\"claim_id\": \"c1\"}]}. My answer:\n{\"claims\": [{\"claim_id\": \"c9\"}]}",
			want: `{"claims":[{"claim_id":"c9"}]}`,
			repairs: []string{"ignored an earlier JSON object at 1:15 (an example in the reasoning?); the last one is the answer",
				"ignored the text before the JSON, from 1:1"}},
		{name: "think block keeps positions", answer: "<think>the format {\"claims\": []} is easy</think>\n{\"claims\": [1,]}",
			want: `{"claims":[1]}`, repairs: []string{"repaired a trailing comma at 2:14"}},
		{name: "lone think close", answer: "reasoning {\"claims\": [9]}</think>{\"claims\": []}",
			want: `{"claims":[]}`},
		{name: "missing comma between objects", answer: "{\"claims\": [\n {\"claim_id\": \"c1\"}\n {\"claim_id\": \"c2\"}\n]}",
			want: `{"claims":[{"claim_id":"c1"},{"claim_id":"c2"}]}`, repairs: []string{"inserted a missing comma at 3:2"}},
		{name: "missing comma between members", answer: "{\"claims\": []\n\"x\": 1}",
			want: `{"claims":[],"x":1}`, repairs: []string{"inserted a missing comma at 2:1"}},
		{name: "duplicate key", answer: `{"claims": [1], "claims": [2]}`,
			want: `{"claims":[2]}`, repairs: []string{`the key "claims" appears twice, the last value is used at 1:17`}},
		{name: "other-case literal", answer: `{"claims": [TRUE, Null]}`,
			want: `{"claims":[true,null]}`, repairs: []string{"read TRUE as true at 1:13", "read Null as null at 1:19"}},
		{name: "unicode escapes", answer: `{"claims": ["\u00e9\ud83d\ude00\ud800"]}`, want: `{"claims":["é😀�"]}`},
		{name: "two keys", answer: `{"answer_2": {"faithfulness": true}}`, want: `{"answer_2":{"faithfulness":true}}`},

		{name: "fence inside a string", answer: "```json\n{\"claims\": [{\"reason\": \"it quotes ```code```\"}]}\n```",
			want: `{"claims":[{"reason":"it quotes ` + "```code```" + `"}]}`, repairs: []string{"ignored the text before the JSON, from 1:1", "ignored the text after the JSON, from 3:1"}},
		{name: "truncated", answer: "```json\n{\"claims\": [{\"claim_id\": \"c1\", \"grounded\": tr",
			err: "the answer ends inside the JSON that starts at 2:1: it looks truncated", line: 2, col: 46},
		{name: "truncated in a string", answer: `Answer: {"claims": [{"claim_id": "c1", "reason": "the evid`,
			err: "looks truncated", line: 1, col: 59},
		{name: "truncated after example", answer: "Format: {\"claims\": []}\n{\"claims\": [{\"claim_id\":",
			err: "looks truncated", line: 2, col: 25},
		{name: "missing quote", answer: "{\"claims\": [{\"claim_id\": \"c1, \"grounded\": true}]}",
			err: "the JSON that starts at 1:1 never closes (expected the end of the string that starts at 1:26), though the answer ends with a closing bracket: a quote or bracket is probably missing", line: 1, col: 50},
		{name: "missing bracket", answer: "```json\n{\"claims\": [{\"claim_id\": \"c1\", \"grounded\": true}\n```",
			err: "the code fence closes before the JSON is complete", line: 3, col: 1},
		{name: "unclosed think", answer: "<think>Let me check claim c1 against",
			err: "ends inside the model's <think> reasoning", line: 1, col: 37},
		{name: "fence closes early", answer: "```json\n{\"claims\": [\n```\nthat's all",
			err: "the code fence closes before the JSON is complete", line: 3, col: 1},
		{name: "unreadable", answer: "{\n  \"claims\": [\n    {\"claim_id\": \"c1\", \"grounded\": maybe}\n  ]\n}",
			err: `unexpected word "maybe" (text values must be in quotes); reading stopped at "maybe}\n  ]\n}"`, line: 3, col: 36},
		{name: "broken answer after example", answer: "e.g. {\"claims\": []}\nmine: {\"claims\": [} ]}",
			err: "cannot read the JSON", line: 2, col: 19},
		{name: "no json", answer: "Both claims are grounded.", err: `the answer has no JSON object with "claims"`},
		{name: "json without key", answer: `{"verdict": "grounded"}`, err: `the JSON at 1:1 has no "claims" or "answer_1" or "answer_2" key (nor one level down)`, line: 1, col: 1},
		{name: "empty", answer: "  \n", err: "the answer is empty"},
		{name: "only reasoning", answer: "<think>done</think>  ", err: "nothing after the model's reasoning"},
		{name: "NaN", answer: `{"claims": [NaN]}`, err: "NaN is not a JSON value", line: 1, col: 13},
		{name: "huge number", answer: `{"claims": [1e999]}`, err: "the number 1e999 is too large", line: 1, col: 13},
		{name: "deep", answer: `{"claims": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}", err: "nested deeper than 128"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FindJSON("claim-groundedness", tt.answer, "claims", "answer_1", "answer_2")
			if tt.err != "" {
				require.Error(t, err)
				var de *diag.Error
				require.True(t, errors.As(err, &de))
				assert.Equal(t, "output", de.Kind)
				assert.Equal(t, "claim-groundedness", de.Name)
				assert.Contains(t, de.Msg, tt.err)
				if tt.line > 0 {
					assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{de.Line, de.Col}, "position")
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, js(t, p.Object))
			if tt.repairs == nil {
				tt.repairs = []string{}
			}
			assert.Equal(t, tt.repairs, repairMessages(p.Repairs))
			assert.Equal(t, byte('{'), tt.answer[p.Start])
			assert.Equal(t, byte('}'), tt.answer[p.End-1])
		})
	}
}

// TestStrictReadsAsEncodingJSON checks that valid JSON reads exactly as encoding/json reads it,
// with no repair noted.
func TestStrictReadsAsEncodingJSON(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `"x"`, `0`, `-0.5e-3`, `true`, `null`,
		`{"a": [1, 2.5, -3e2, "s\"q\\u00e9\n", {"b": null}], "c": {"d": false}}`,
		`{"k": "quote \" inside", "e": "\/\b\f\r\t", "u": "\u2028"}`,
		`{"a": "x", "a": "y"}`,
		`["a" , "b" ,"c"]`,
		`{"url": "http://example.com/*x*/"}`,
		`9007199254740993`, `12345678901234567890`,
	} {
		want, err := value.Decode([]byte(src))
		require.NoError(t, err, src)
		got, notes, err := Lenient("t", src)
		require.NoError(t, err, src)
		assert.Equal(t, js(t, want), js(t, got), src)
		if !strings.Contains(src, `"a", "a"`) && !strings.Contains(src, `"a": "x", "a"`) {
			assert.Empty(t, notes, src)
		}
	}
}

func TestLenientErrors(t *testing.T) {
	tests := []struct{ in, err string }{
		{`{"a": 1} x`, `unexpected "x" after the JSON value`},
		{`{"a" 1}`, `expected ":" after the key "a", found "1"`},
		{`{"a": 1 "b"}`, `expected "," or "}" after the value of "a"`},
		{`[1 x]`, `expected "," or "]" after element 1 of a list`},
		{`{"a": -}`, `expected a digit, found "}"`},
		{`{"a": 4/5}`, `expected "," or "}" after the value of "a", found "/"`},
		{`{"a": 12abc}`, `unexpected "a" after the number 12`},
		{`{"a": Infinity}`, `Infinity is not a JSON value`},
		{`{"a": yes}`, `unexpected word "yes"`},
		{`{,}`, `expected a key in quotes, found ","`},
		{`{"a": 1`, `looks truncated`},
		{`["a`, `looks truncated`},
		{`{"a": "\u12`, `looks truncated`},
		{`{"a": fals`, `looks truncated`},
		{`{"a": /* x`, `looks truncated`},
		{"\xff", `a byte that is not UTF-8`},
	}
	for _, tt := range tests {
		_, _, err := Lenient("t", tt.in)
		require.Error(t, err, tt.in)
		assert.Contains(t, err.Error(), tt.err, tt.in)
	}
}

func TestLenientRepairs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{a-b: +1, c: 007}`, `{"a-b":1,"c":7}`},
		{`['it's', 'x']`, `["it's","x"]`},
		{`{"a": ‘single curly’}`, `{"a":"single curly"}`},
		{`{"a": “he said “hi” there”}`, `{"a":"he said “hi” there"}`},
		{`{"a": "x"  // trailing
}`, `{"a":"x"}`},
		{"\u00a0{\"a\":\u00a01}", `{"a":1}`},
		{`{"a": "bad \u12G4"}`, `{"a":"bad \\u12G4"}`},
		{"{\"a\": \"a\\\nb\"}", "{\"a\":\"a\\\\\\nb\"}"},
	}
	for _, tt := range tests {
		v, notes, err := Lenient("t", tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, js(t, v), tt.in)
		assert.NotEmpty(t, notes, tt.in)
	}
}

func TestBool(t *testing.T) {
	tests := []struct {
		in             any
		b, coerced, ok bool
	}{
		{true, true, false, true}, {false, false, false, true},
		{int64(1), true, true, true}, {int64(0), false, true, true}, {float64(1), true, true, true},
		{"true", true, true, true}, {" FALSE ", false, true, true}, {"Yes", true, true, true},
		{"no", false, true, true}, {"1", true, true, true}, {"0", false, true, true},
		{int64(2), false, false, false}, {"maybe", false, false, false}, {nil, false, false, false},
		{[]any{}, false, false, false},
	}
	for _, tt := range tests {
		b, coerced, ok := Bool(tt.in)
		assert.Equal(t, [3]bool{tt.b, tt.coerced, tt.ok}, [3]bool{b, coerced, ok}, "%#v", tt.in)
	}
}

func TestNumber(t *testing.T) {
	tests := []struct {
		in          any
		f           float64
		coerced, ok bool
	}{
		{int64(4), 4, false, true}, {3.5, 3.5, false, true}, {"4", 4, true, true}, {" 4.5 ", 4.5, true, true},
		{"-1e2", -100, true, true}, {"NaN", 0, false, false}, {"Inf", 0, false, false}, {"0x10", 0, false, false},
		{"", 0, false, false}, {"four", 0, false, false}, {true, 0, false, false}, {nil, 0, false, false},
	}
	for _, tt := range tests {
		f, coerced, ok := Number(tt.in)
		assert.Equal(t, tt.f, f, "%#v", tt.in)
		assert.Equal(t, [2]bool{tt.coerced, tt.ok}, [2]bool{coerced, ok}, "%#v", tt.in)
	}
}

func TestTextFieldShow(t *testing.T) {
	o := value.NewObject("Claim_ID", int64(3))
	v, ok := Field(o, "claim_id")
	require.True(t, ok)
	s, ok := Text(v)
	assert.True(t, ok)
	assert.Equal(t, "3", s)
	_, ok = Text([]any{})
	assert.False(t, ok)
	assert.Equal(t, `"yes"`, Show("yes"))
	assert.Equal(t, `"`+strings.Repeat("a", 38)+"…", Show(strings.Repeat("a", 60)))
}

// TestScanIsLinear guards the scan budget: text full of '{' that never completes must not take
// quadratic time.
func TestScanIsLinear(t *testing.T) {
	answer := strings.Repeat(`{"a": [`, 5000) + "x"
	_, err := FindJSON("t", answer, "claims")
	require.Error(t, err)
	answer = strings.Repeat(`{"claims" `, 10000)
	_, err = FindJSON("t", answer, "claims")
	require.Error(t, err)
	answer = strings.Repeat("{'a': 1} ```\n", 10000) + `{"claims": []}`
	p, err := FindJSON("t", answer, "claims")
	require.NoError(t, err)
	assert.Equal(t, "ignored the text before the JSON, from 1:1", p.Repairs[0].Msg)
}

// repairMessages lists the repairs' messages, in order.
func repairMessages(rs []Repair) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Msg
	}
	return out
}

// TestBracesCostNoAttempts: a '{' that another '{' or '[' follows cannot start an object, so a
// megabyte of braces (a hostile answer, or a template echoed with doubled braces) costs one pass
// and no parser attempt each. Counted in allocations, not time: each attempt allocated a parser
// and worded an error (about six allocations a brace: 400,000 for these 64 KiB).
func TestBracesCostNoAttempts(t *testing.T) {
	for _, answer := range []string{strings.Repeat("{", 1<<16), strings.Repeat("{[", 1<<15), strings.Repeat("{ {", 1<<14)} {
		allocs := testing.AllocsPerRun(3, func() {
			_, err := FindJSON("t", answer, "claims")
			require.Error(t, err)
		})
		assert.Less(t, allocs, 100.0, "%.10q…", answer)
	}
	// What can be read is still read: doubled braces around an object, and a '{' that ends
	// the answer is a cut.
	p, err := FindJSON("t", `{{"claims": [1]}}`, "claims")
	require.NoError(t, err)
	assert.Equal(t, `{"claims":[1]}`, js(t, p.Object))
	_, err = FindJSON("t", "{{", "claims")
	require.Error(t, err)
	assert.Equal(t, diag.AnswerTruncated, err.(*diag.Error).Code)
}

// TestConflict: a key written twice with values that differ, or in two spellings Field takes for
// one, is a conflict with where both values are; the same value twice is not.
func TestConflict(t *testing.T) {
	for _, tc := range []struct {
		answer, key string
		first, last int // byte offsets of the values; -1 for no conflict
	}{
		{`{"pass": true, "pass": false}`, "pass", 9, 23},
		{`{"pass": true, "Pass": false}`, "pass", 9, 23},
		{`{"pass": true, "PASS": true}`, "pass", -1, -1},
		{`{"pass": [1, 2], "pass": [1, 2]}`, "pass", -1, -1},
		{`{"pass": 1, "pass": 1.0}`, "pass", -1, -1},
		{`{"pass": {"a": 1}, "pass": {"a": 2}}`, "pass", 9, 27},
		{`{"reason": "a", "reason": "b", "pass": true}`, "pass", -1, -1},
	} {
		p, err := FindJSON("t", tc.answer, tc.key)
		require.NoError(t, err, tc.answer)
		first, last, ok := p.Conflict(p.Object, tc.key)
		if tc.first < 0 {
			assert.False(t, ok, tc.answer)
			continue
		}
		require.True(t, ok, tc.answer)
		assert.Equal(t, [2]int{tc.first, tc.last}, [2]int{first, last}, tc.answer)
	}
}

// TestRepairPositions checks that each repair says where it was made: the span of its first
// occurrence in the original answer, and a warning check pointing there.
func TestRepairPositions(t *testing.T) {
	answer := "Here is my grading.\n```json\n{\"claims\": [{'claim_id': 'c1', grounded: True,},\n  {\"claim_id\": \"c2\", \"grounded\": false}, ]} // done\n```\nThanks!"
	p, err := FindJSON("t", answer, "claims")
	require.NoError(t, err)
	type got struct {
		Code diag.Code
		Text string
		Line int
		Col  int
		Len  int
		N    int
	}
	var list []got
	for _, r := range p.Repairs {
		c := r.Check(answer)
		assert.Equal(t, diag.SevWarning, c.Severity)
		assert.Equal(t, "judge answer: "+r.Msg, c.Message)
		list = append(list, got{r.Code, answer[r.Offset : r.Offset+r.Len], c.Line, c.Col, c.Len, r.Count})
	}
	assert.Equal(t, []got{
		{diag.AnswerRepaired, "'", 3, 14, 1, 2},
		{diag.AnswerRepaired, "grounded", 3, 32, 8, 1},
		{diag.AnswerRepaired, "True", 3, 42, 4, 1},
		{diag.AnswerRepaired, ",", 3, 46, 1, 2},
		{diag.AnswerProseSkipped, "Here is my grading.\n```json", 1, 1, 27, 1},
		{diag.AnswerProseSkipped, "// done\n```\nThanks!", 4, 45, 19, 1},
	}, list)
	start, end, ok := p.Span(p.Object)
	require.True(t, ok)
	assert.Equal(t, p.Start, start)
	assert.Equal(t, p.End, end)
	entries, _ := p.Object.Get("claims")
	second := entries.([]any)[1].(*value.Object)
	start, end, ok = p.Span(second)
	require.True(t, ok)
	assert.Equal(t, `{"claim_id": "c2", "grounded": false}`, answer[start:end])
}

// TestNestingLimit reads answers nested exactly MaxDepth deep and one level more: the first is
// read, the second is answer.unreadable at the bracket past the cap, never a stack overflow. It
// runs under GOOS=js GOARCH=wasm too, where the stack is the wasm's.
func TestNestingLimit(t *testing.T) {
	nested := func(depth int) string { // an object holding depth-1 nested lists
		return `{"claims": ` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + "}"
	}
	p, err := FindJSON("t", nested(MaxDepth), "claims")
	require.NoError(t, err)
	assert.Empty(t, p.Repairs)
	_, _, err = Lenient("t", nested(MaxDepth))
	require.NoError(t, err)

	for name, answer := range map[string]string{
		"one past":             nested(MaxDepth + 1),
		"one past, on line 2":  "The grades:\n" + nested(MaxDepth+1),
		"hostile, unclosed":    `{"claims": ` + strings.Repeat("[", 5000),
		"hostile, objects":     strings.Repeat(`{"claims": `, 5000),
		"hostile, after think": "<think>x</think>" + strings.Repeat(`{"a":`, 100000),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := FindJSON("t", answer, "claims")
			var de *diag.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, diag.AnswerUnreadable, de.Code)
			assert.Contains(t, de.Msg, "nested deeper than 128 levels")
			require.Positive(t, de.Line)
			off := strings.Index(answer, "{") // the cap is reached MaxDepth brackets in
			depth := 0
			for ; off < len(answer); off++ {
				if answer[off] == '{' || answer[off] == '[' {
					depth++
					if depth > MaxDepth {
						break
					}
				}
			}
			l, c := diag.Position(answer, off)
			assert.Equal(t, [2]int{l, c}, [2]int{de.Line, de.Col})
		})
	}
	_, _, err = Lenient("t", nested(MaxDepth+1))
	var de *diag.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, diag.AnswerUnreadable, de.Code)
	assert.Equal(t, [2]int{1, 12 + MaxDepth - 1}, [2]int{de.Line, de.Col})
}

// cutAnswer is a claim-groundedness answer that tests cut at several points.
const cutAnswer = `{"claims": [
  {"claim_id": "c1", "grounded": true, "ungrounded_assertions": []},
  {"claim_id": "c2", "grounded": false, "ungrounded_assertions": [{"assertion": "x", "reason": "ID: 1 says y"}]},
  {"claim_id": "c3", "grounded": true, "ungrounded_assertions": []}
]}`

// cutAt is cutAnswer up to and including the first occurrence of mark.
func cutAt(t *testing.T, mark string) string {
	i := strings.Index(cutAnswer, mark)
	require.GreaterOrEqual(t, i, 0, mark)
	return cutAnswer[:i+len(mark)]
}

// TestFindJSONCut reads answers cut short: the error is answer.truncated, and the payload holds
// what arrived whole before the cut, with the entries that closed told from the one cut.
func TestFindJSONCut(t *testing.T) {
	c1 := `{"claim_id":"c1","grounded":true,"ungrounded_assertions":[]}`
	tests := []struct {
		name, answer string
		claims       string // the payload's "claims" as JSON; "" for no payload
		closed       []bool // whether each entry of claims closed
		notes        []string
	}{
		{"inside c2's object", cutAt(t, `"grounded": false,`),
			`[` + c1 + `,{"claim_id":"c2","grounded":false}]`, []bool{true, false}, nil},
		{"between objects", cutAt(t, "},\n  "),
			`[` + c1 + `]`, []bool{true}, nil},
		{"inside a string", cutAt(t, `{"claim_id": "c`+"2")[:len(cutAt(t, `{"claim_id": "c`+"2"))-1],
			`[` + c1 + `,{}]`, []bool{true, false}, nil},
		{"inside ungrounded_assertions", cutAt(t, `"reason": "ID: 1`),
			`[` + c1 + `,{"claim_id":"c2","grounded":false,"ungrounded_assertions":[{"assertion":"x"}]}]`, []bool{true, false}, nil},
		{"after a value, before its comma", cutAt(t, `"grounded": true`),
			`[{"claim_id":"c1"}]`, []bool{false}, nil},
		{"inside a word", cutAt(t, `"grounded": tr`),
			`[{"claim_id":"c1"}]`, []bool{false}, nil},
		{"inside a number", `{"claims": [{"claim_id": 1`,
			`[{}]`, []bool{false}, nil},
		{"right after the list opens", `{"claims": [`, `[]`, nil, nil},
		{"inside the key", `{"cla`, "", nil, nil},
		{"in a fence, after prose", "My grades:\n```json\n" + cutAt(t, "},\n  "),
			`[` + c1 + `]`, []bool{true}, []string{"ignored the text before the JSON, from 1:1"}},
		{"after an example in the reasoning", `Format: {"claims": []}` + "\n" + cutAt(t, "},\n  "),
			`[` + c1 + `]`, []bool{true}, []string{"ignored an earlier JSON object at 1:9 (an example in the reasoning?); the last one is the answer", "ignored the text before the JSON, from 1:1"}},
		{"wrapped one level down", `{"result": ` + cutAt(t, "},\n  "),
			`[` + c1 + `]`, []bool{true}, nil},
		{"repairs in what arrived", `{"claims": [{'claim_id': 'c1', "grounded": True,}, {"claim_id"`,
			`[{"claim_id":"c1","grounded":true},{}]`, []bool{true, false}, []string{"read a single-quoted string at 1:14 (and 1 more)", "read Python True as true at 1:44", "repaired a trailing comma at 1:48"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FindJSON("t", tt.answer, "claims")
			var de *diag.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, diag.AnswerTruncated, de.Code)
			if tt.claims == "" {
				assert.Nil(t, p)
				return
			}
			require.NotNil(t, p)
			assert.True(t, p.Cut)
			assert.Equal(t, len(tt.answer), p.End)
			assert.Equal(t, byte('{'), tt.answer[p.Start])
			assert.False(t, p.Closed(p.Object), "the payload itself was cut")
			list, _ := p.Object.Get("claims")
			assert.Equal(t, tt.claims, js(t, list))
			var closed []bool
			for _, e := range list.([]any) {
				o := e.(*value.Object)
				closed = append(closed, p.Closed(o))
				start, end, ok := p.Span(o)
				require.True(t, ok)
				assert.Equal(t, byte('{'), tt.answer[start])
				if p.Closed(o) {
					assert.Equal(t, byte('}'), tt.answer[end-1])
				} else {
					assert.Equal(t, len(tt.answer), end)
				}
			}
			assert.Equal(t, tt.closed, closed)
			if tt.notes == nil {
				tt.notes = []string{}
			}
			assert.Equal(t, tt.notes, repairMessages(p.Repairs))
		})
	}
}

// TestFindJSONCutEndsClosed: JSON left open by an answer that ends with a closing bracket is more
// likely missing one than cut, so it is unreadable and nothing is read from it.
func TestFindJSONCutEndsClosed(t *testing.T) {
	p, err := FindJSON("t", cutAt(t, `"ungrounded_assertions": []}`), "claims")
	var de *diag.Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, diag.AnswerUnreadable, de.Code)
	assert.Nil(t, p)
}

// TestTooLongSaysSizesWithSeparators: the sizes in the too-long message are written the way
// people read them ("16,777,217 bytes"), not as one run of digits.
func TestTooLongSaysSizesWithSeparators(t *testing.T) {
	long := strings.Repeat(" ", MaxAnswer+1)
	_, _, err := Lenient("t", long)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the text is 16,777,217 bytes, more than the 16,777,216 this reads")
}

// TestValueAt: where each member's value starts, in the original answer, whatever was repaired
// around it, and the later of two members of one key.
func TestValueAt(t *testing.T) {
	answer := "Reasoning first.\n```json\n{'answer_2': {faithfulness: /* sure */ False,\n \"why\": \"x\",}, \"n\": -4, \"n\": 5}\n```"
	p, err := FindJSON("t", answer, "answer_2")
	require.NoError(t, err)
	inner, _ := p.Object.Get("answer_2")
	o := inner.(*value.Object)
	for _, tt := range []struct {
		obj  *value.Object
		key  string
		want string
	}{{p.Object, "answer_2", "{faithfulness"}, {o, "faithfulness", "False,"}, {o, "why", `"x"`}, {p.Object, "n", "5}"}} {
		off, ok := p.ValueAt(tt.obj, tt.key)
		require.True(t, ok, tt.key)
		assert.True(t, strings.HasPrefix(answer[off:], tt.want), "%s: %q", tt.key, answer[off:])
	}
	_, ok := p.ValueAt(o, "Faithfulness")
	assert.False(t, ok, "the key as the object holds it")
	k, v, ok := FieldKey(o, "Faithfulness")
	assert.Equal(t, []any{"faithfulness", false, true}, []any{k, v, ok})
}
