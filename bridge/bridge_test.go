package bridge

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

var (
	promptsFS = prompts.FS
	b         = New(prompts.FS)
)

// wire is what Call returns, decoded.
type wire struct {
	OK    json.RawMessage `json:"ok"`
	Error *diag.Error     `json:"error"`
}

func decodeWire(t *testing.T, out string) wire {
	t.Helper()
	out = joinTail(t, out)
	var w wire
	require.NoError(t, json.Unmarshal([]byte(out), &w), "%s", out)
	require.True(t, (w.OK == nil) != (w.Error == nil), "exactly one of ok and error: %s", out)
	return w
}

// joinTail turns a wire text with a raw tail ("R" + head + "\n" + text) into the one JSON text
// it stands for, as ragjudge.js reads it; other texts are returned as they are.
func joinTail(t *testing.T, out string) string {
	t.Helper()
	if !strings.HasPrefix(out, "R") {
		return out
	}
	head, raw, ok := strings.Cut(out[1:], "\n")
	require.True(t, ok, "a raw tail after a newline: %q", out)
	var h struct {
		OK  json.RawMessage `json:"ok"`
		Raw *string         `json:"raw"`
	}
	require.NoError(t, json.Unmarshal([]byte(head), &h), "%s", head)
	require.NotNil(t, h.Raw, "the head says where the text goes: %s", head)
	text, err := json.Marshal(raw)
	require.NoError(t, err)
	if *h.Raw == "" {
		return `{"ok":` + string(text) + "}"
	}
	var rest map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(h.OK, &rest))
	rest[*h.Raw] = text
	whole, err := json.Marshal(rest)
	require.NoError(t, err)
	return `{"ok":` + string(whole) + "}"
}

func obj(kv ...any) *value.Object { return value.NewObject(kv...) }

var groundingInputs = obj("answer", "Paris", "facts", []any{"Paris is in France."})

func TestCallResults(t *testing.T) {
	tests := []struct {
		fn   string
		args []any
		want string // the JSON of the result, or a part of it
	}{
		{"passages", []any{"[ESSENTIAL PASSAGE] a [BONUS PASSAGE] b"}, `{"essential":["a"],"bonus":["b"]}`},
		{"passages", []any{"no markers"}, `{"essential":[],"bonus":[]}`},
		{"template", []any{"Hi {{ name }}", "jinja", obj("name", "Ann")}, `"Hi Ann"`},
		{"template", []any{"Hi {name}", "format", obj("name", "Ann")}, `"Hi Ann"`},
		{"template", []any{"plain", "jinja"}, `"plain"`}, // vars are optional
		{"template", []any{"{{ n }}", "jinja", obj("n", int64(3))}, `"3"`},
		{"variables", []any{"{% for c in ctx %}{{ c }}{{ q }}{% endfor %}", "jinja"}, `["ctx","q"]`},
		{"variables", []any{"{a} {{b}}", "format"}, `["a"]`},
		{"variables", []any{"plain", "jinja"}, `[]`},
		{"recall", []any{obj("essential", []any{int64(4), 3.0}, "bonus", []any{"4", "0/5"})}, `"final":4`},
		{"recall", []any{obj("essential", []any{2.5})}, `"essential":2.5`},
		{"readDataset", []any{"{\"q\": 1}\n{\"q\": 2, \"r\": {\"s\": 3}}\n", "jsonl"},
			`{"format":"jsonl","columns":["q","r"],"paths":["q","r","r.s"],"rows":[{"q":1},{"q":2,"r":{"s":3}}],"errors":[],"warnings":[]}`},
		{"readDataset", []any{"a,b\n1,2\n"}, `"format":"csv"`},
		{"readDataset", []any{"{\"q\": 1}\n{\"q\": 2}\n", nil, "halueval.json"}, `{"format":"jsonl","named":"json",`},
		{"readDataset", []any{"{\"q\": 1}\n{\"q\": 2}\n", "jsonl", "halueval.json"}, `{"format":"jsonl","columns"`},
		{"mapColumns", []any{"answer-grounding", []any{"facts", "response"}}, `{"mapping":{"answer":"response","facts":"facts"},"matches":[`},
		{"rowInputs", []any{"answer-grounding", obj("a", "x", "f", `["y"]`), obj("answer", "a", "facts", "f")},
			`{"inputs":{"answer":"x","facts":["y"]},"checks":[],"messages":[]}`},
		{"parse", []any{"answer-grounding", groundingInputs, "**Yes.**"}, `"passed":true`},
		{"render", []any{"answer-grounding", groundingInputs}, `"messages":[{"role":"user"}]`}, // the content is the prompt: ragjudge.js puts it back
		{"evaluators", nil, `"id":"claim-groundedness"`},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			w := decodeWire(t, b.Call(tt.fn, tt.args))
			require.Nil(t, w.Error, "%v", w.Error)
			assert.Contains(t, string(w.OK), tt.want)
		})
	}
}

func TestCallErrors(t *testing.T) {
	tests := []struct {
		fn   string
		args []any
		want diag.Error // Msg is a part of the message
	}{
		{"render", nil, diag.Error{Kind: "input", Name: "render", Msg: "id is required (a string)"}},
		{"render", []any{"answer-grounding"}, diag.Error{Kind: "input", Name: "render", Msg: "inputs is required (an object)"}},
		{"render", []any{"answer-grounding", []any{}}, diag.Error{Kind: "input", Name: "render", Msg: "inputs must be an object, got a list"}},
		{"render", []any{int64(1), obj()}, diag.Error{Kind: "input", Name: "render", Msg: "id must be a string, got a number"}},
		{"render", []any{"nope", obj()}, diag.Error{Kind: "input", Code: diag.InputUnknownEvaluator, Name: "nope", Msg: `unknown evaluator "nope"`}},
		{"parse", []any{"answer-grounding", groundingInputs}, diag.Error{Kind: "input", Name: "parse", Msg: "output is required"}},
		{"template", []any{"x", "mustache"}, diag.Error{Kind: "input", Name: "template", Msg: `unknown dialect "mustache": want "jinja" or "format"`}},
		{"variables", []any{"x", "mustache"}, diag.Error{Kind: "input", Name: "variables", Msg: `unknown dialect "mustache": want "jinja" or "format"`}},
		{"variables", []any{"a\n{{ x }", "jinja"}, diag.Error{Kind: "template", Name: "<template>", Line: 2, Col: 6, Msg: "unexpected '}'"}},
		{"template", []any{"x", "jinja", []any{}}, diag.Error{Kind: "input", Name: "template", Msg: "vars must be an object, got a list"}},
		{"template", []any{"a\n{{ x }", "jinja"}, diag.Error{Kind: "template", Name: "<template>", Line: 2, Col: 6, Msg: "unexpected '}'"}},
		{"template", []any{"{{ missing }}", "jinja"}, diag.Error{Kind: "template", Name: "<template>", Line: 1, Col: 4, Msg: "'missing' is undefined"}},
		{"recall", []any{obj("essential", []any{true})}, diag.Error{Kind: "input", Name: "recall", Msg: "essential score 1 must be a number or a numeric string, got a boolean"}},
		{"recall", []any{obj("extra", []any{})}, diag.Error{Kind: "input", Name: "recall", Msg: `unknown key "extra"`}},
		{"recall", []any{obj("essential", "4")}, diag.Error{Kind: "input", Name: "recall", Msg: "essential must be a list of scores, got a string"}},
		{"recall", []any{obj("essential", []any{"four"})}, diag.Error{Kind: "recall", Msg: `essential score 1: cannot read score "four"`}},
		{"readDataset", []any{"x", int64(2)}, diag.Error{Kind: "input", Name: "readDataset", Msg: "format must be a string, got a number"}},
		{"mapColumns", []any{"answer-grounding", []any{"a", int64(1)}}, diag.Error{Kind: "input", Name: "mapColumns", Msg: "columns[1] must be a string, got a number"}},
		{"mapColumns", []any{"answer-grounding", "a"}, diag.Error{Kind: "input", Name: "mapColumns", Msg: "columns must be a list of strings, got a string"}},
		{"rowInputs", []any{"answer-grounding", obj(), obj("answer", int64(1))}, diag.Error{Kind: "input", Name: "rowInputs", Msg: `mapping["answer"] must be a column name (a string), got a number`}},
		{"nope", nil, diag.Error{Kind: "internal", Name: "nope", Msg: "no such function"}},
	}
	for _, tt := range tests {
		t.Run(tt.fn+" "+tt.want.Msg, func(t *testing.T) {
			w := decodeWire(t, b.Call(tt.fn, tt.args))
			require.NotNil(t, w.Error, "%s", w.OK)
			got := *w.Error
			assert.Contains(t, got.Msg, tt.want.Msg)
			got.Msg, tt.want.Msg = "", ""
			if tt.want.Name == "" {
				got.Name = ""
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestErrorCode: an error's code reaches the wire.
func TestErrorCode(t *testing.T) {
	out := wireError(&diag.Error{Kind: "input", Code: diag.InputNoMarkers, Name: "rag-recall", Line: 2, Col: 3, Msg: "m"})
	assert.Equal(t, `{"error":{"kind":"input","code":"input.no-markers","name":"rag-recall","line":2,"col":3,"message":"m"}}`, out)
	assert.Equal(t, `{"error":{"kind":"internal","message":"plain"}}`, wireError(errString("plain")))
}

type errString string

func (e errString) Error() string { return string(e) }

// TestChecksReachTheWire: a verdict's checks carry their code and span.
func TestChecksReachTheWire(t *testing.T) {
	w := decodeWire(t, b.Call("parse", []any{"answer-grounding", groundingInputs, ""}))
	require.Nil(t, w.Error)
	var v struct {
		Passed *bool        `json:"passed"`
		Checks []diag.Check `json:"checks"`
	}
	require.NoError(t, json.Unmarshal(w.OK, &v))
	assert.Nil(t, v.Passed)
	require.NotEmpty(t, v.Checks)
	assert.NotEmpty(t, v.Checks[0].Code)
}

// TestDatasetDepth: a dataset row nested past value.MaxDepth is a row error, not the end of the
// engine; at the limit it is read (and refused as a row that is not an object).
func TestDatasetDepth(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	w := decodeWire(t, b.Call("readDataset", []any{"[" + nested(value.MaxDepth+1) + "]", "json"}))
	require.Nil(t, w.Error)
	assert.Contains(t, string(w.OK), "row 1: invalid JSON: JSON nested deeper than 1000 levels")
	w = decodeWire(t, b.Call("readDataset", []any{"[" + nested(value.MaxDepth) + "]", "json"}))
	require.Nil(t, w.Error)
	assert.Contains(t, string(w.OK), "row 1 is a list, not a JSON object")
	// A row at the limit comes back whole.
	deepRow := `{"a":` + nested(value.MaxDepth-1) + "}"
	w = decodeWire(t, b.Call("readDataset", []any{deepRow + "\n", "jsonl"}))
	require.Nil(t, w.Error)
	assert.Contains(t, string(w.OK), `"rows":[`+deepRow+`]`)
}

// TestPanicRecovered: a panic in a function is an internal error, and later calls still work.
func TestPanicRecovered(t *testing.T) {
	Functions["boom"] = Func{Fn: func(*Bridge, *Args) (any, error) { panic("boom") }}
	defer delete(Functions, "boom")
	w := decodeWire(t, b.Call("boom", nil))
	require.NotNil(t, w.Error)
	assert.Equal(t, "internal", w.Error.Kind)
	assert.Contains(t, w.Error.Msg, "internal error (please report it with the browser console's output): boom")
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nok", b.Call("template", []any{"ok", "jinja"}))
}

// TestUnencodable: a result JSON cannot hold is an internal error, not a panic.
func TestUnencodable(t *testing.T) {
	Functions["nan"] = Func{Fn: func(*Bridge, *Args) (any, error) { return math.NaN(), nil }}
	defer delete(Functions, "nan")
	w := decodeWire(t, b.Call("nan", nil))
	require.NotNil(t, w.Error)
	assert.Contains(t, w.Error.Msg, "cannot encode the result")
}

func TestLoadError(t *testing.T) {
	broken := &Bridge{loadErr: &diag.Error{Kind: "load", Msg: "no prompts"}}
	for _, fn := range []string{"evaluators", "render", "parse", "mapColumns", "rowInputs"} {
		w := decodeWire(t, broken.Call(fn, []any{"answer-grounding", obj(), "x"}))
		require.NotNil(t, w.Error, fn)
		assert.Equal(t, "no prompts", w.Error.Msg, fn)
	}
	// What does not need the evaluators still works.
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nx", broken.Call("template", []any{"x", "jinja"}))
}

func TestNames(t *testing.T) {
	assert.Equal(t, []string{"agreement", "calibration", "checkupCases", "checkupGrade", "checkupMatrix", "combineOrders", "consistency", "correlation", "define", "describe", "evaluators", "jury", "mapColumns", "parse", "passages", "positionStats", "readDataset", "recall", "render", "rowInputs", "spec", "swapOrders", "template", "undefine", "variables"}, Names())
	for name, f := range Functions {
		for _, p := range f.Params {
			assert.NotEmpty(t, p.Name, name)
		}
	}
}

func TestUTF16Offsets(t *testing.T) {
	tests := []struct {
		s    string
		offs []int
		want []int
	}{
		{"", []int{0, 5, -1}, []int{0, 0, 0}},
		{"abc", []int{3, 0, 1}, []int{3, 0, 1}},
		{"é!", []int{0, 2, 3}, []int{0, 1, 2}},         // é is 2 bytes, 1 unit
		{"€!", []int{3, 4}, []int{1, 2}},               // € is 3 bytes, 1 unit
		{"😀!", []int{4, 5, 4}, []int{2, 3, 2}},         // 😀 is 4 bytes, 2 units (a surrogate pair)
		{"a\xffb", []int{1, 2, 3}, []int{1, 2, 3}},     // a byte that is not UTF-8 is one U+FFFD
		{"x😀y😀", []int{9, 1, 5, 6}, []int{6, 1, 3, 4}}, // unsorted offsets
		// Long ASCII runs (read eight bytes at a time) around multibyte runes and bad bytes.
		{"abcdefghijk😀lmnopqrstuvw€xyz0123456789\xff!", []int{0, 7, 8, 11, 15, 16, 26, 30, 40, 41, 42, 43, 44, 45},
			[]int{0, 7, 8, 11, 13, 14, 24, 26, 36, 37, 38, 39, 40, 41}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, UTF16Offsets(tt.s, tt.offs), "%q %v", tt.s, tt.offs)
	}
}

// TestRenderSpansUTF16: span offsets slice the prompt as JS strings do.
func TestRenderSpansUTF16(t *testing.T) {
	w := decodeWire(t, b.Call("render", []any{"answer-grounding", obj("answer", "😀 Paris", "facts", []any{"é"})}))
	require.Nil(t, w.Error)
	var r struct {
		Prompt string `json:"prompt"`
		Spans  []span `json:"spans"`
	}
	require.NoError(t, json.Unmarshal(w.OK, &r))
	units := utf16Units(r.Prompt)
	found := false
	for _, sp := range r.Spans {
		if sp.Expr == "answer" {
			found = true
			assert.Equal(t, "😀 Paris", string(decodeUnits(units[sp.Start:sp.End])))
		}
	}
	assert.True(t, found, "a span for answer in %v", r.Spans)
}

func utf16Units(s string) []uint16 {
	var u []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
		} else {
			u = append(u, uint16(r))
		}
	}
	return u
}

func decodeUnits(u []uint16) []rune {
	var out []rune
	for i := 0; i < len(u); i++ {
		if u[i] >= 0xD800 && u[i] < 0xDC00 && i+1 < len(u) {
			out = append(out, 0x10000+(rune(u[i])-0xD800)<<10+(rune(u[i+1])-0xDC00))
			i++
		} else {
			out = append(out, rune(u[i]))
		}
	}
	return out
}
