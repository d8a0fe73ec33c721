package judge

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// openAIGrounding is gpt-4o-mini's answer "Yes" to answer-grounding's prompt, as the chat
// completion gives it: choices[0].logprobs, each token and alternative with its UTF-8 bytes.
const openAIGrounding = `{"content": [{"token": "Yes", "logprob": -0.0019, "bytes": [89, 101, 115], "top_logprobs": [
	{"token": "Yes", "logprob": -0.0019, "bytes": [89, 101, 115]},
	{"token": "No", "logprob": -6.4, "bytes": [78, 111]},
	{"token": "yes", "logprob": -10.1, "bytes": [121, 101, 115]},
	{"token": "**", "logprob": -12.6, "bytes": [42, 42]},
	{"token": "YES", "logprob": -13.2, "bytes": [89, 69, 83]}]}], "refusal": null}`

// vLLMThinking is a Qwen3 answer served by vLLM (choices[0].logprobs.content): reasoning first,
// which says "yes" in passing, then the verdict "No". vLLM lists the sampled token first among its
// top_logprobs, writes bytes with Python's encode(errors="replace") and -9999.0 for a probability
// too small to print; Qwen writes one digit a token.
const vLLMThinking = `[
	{"token": "<think>", "logprob": 0.0, "bytes": [60, 116, 104, 105, 110, 107, 62], "top_logprobs": [{"token": "<think>", "logprob": 0.0, "bytes": [60, 116, 104, 105, 110, 107, 62]}]},
	{"token": "\n", "logprob": -0.0001, "bytes": [10], "top_logprobs": [{"token": "\n", "logprob": -0.0001, "bytes": [10]}]},
	{"token": "Fact", "logprob": -0.9, "bytes": [70, 97, 99, 116], "top_logprobs": [{"token": "Fact", "logprob": -0.9, "bytes": [70, 97, 99, 116]}]},
	{"token": " ", "logprob": -0.02, "bytes": [32], "top_logprobs": [{"token": " ", "logprob": -0.02, "bytes": [32]}]},
	{"token": "2", "logprob": -0.01, "bytes": [50], "top_logprobs": [{"token": "2", "logprob": -0.01, "bytes": [50]}]},
	{"token": " says", "logprob": -0.3, "bytes": [32, 115, 97, 121, 115], "top_logprobs": [{"token": " says", "logprob": -0.3, "bytes": [32, 115, 97, 121, 115]}]},
	{"token": " yes", "logprob": -1.2, "bytes": [32, 121, 101, 115], "top_logprobs": [{"token": " yes", "logprob": -1.2, "bytes": [32, 121, 101, 115]}, {"token": " no", "logprob": -1.5, "bytes": [32, 110, 111]}]},
	{"token": " to", "logprob": -0.4, "bytes": [32, 116, 111], "top_logprobs": [{"token": " to", "logprob": -0.4, "bytes": [32, 116, 111]}]},
	{"token": " ", "logprob": -0.1, "bytes": [32], "top_logprobs": [{"token": " ", "logprob": -0.1, "bytes": [32]}]},
	{"token": "1", "logprob": -0.01, "bytes": [49], "top_logprobs": [{"token": "1", "logprob": -0.01, "bytes": [49]}]},
	{"token": "8", "logprob": -0.01, "bytes": [56], "top_logprobs": [{"token": "8", "logprob": -0.01, "bytes": [56]}]},
	{"token": "8", "logprob": -0.01, "bytes": [56], "top_logprobs": [{"token": "8", "logprob": -0.01, "bytes": [56]}]},
	{"token": "9", "logprob": -0.01, "bytes": [57], "top_logprobs": [{"token": "9", "logprob": -0.01, "bytes": [57]}]},
	{"token": ", but", "logprob": -0.6, "bytes": [44, 32, 98, 117, 116], "top_logprobs": [{"token": ", but", "logprob": -0.6, "bytes": [44, 32, 98, 117, 116]}]},
	{"token": " \ufffd", "logprob": -2.1, "bytes": [32, 239, 191, 189], "top_logprobs": [{"token": " \ufffd", "logprob": -2.1, "bytes": [32, 239, 191, 189]}]},
	{"token": "\ufffd", "logprob": -0.0, "bytes": [239, 191, 189], "top_logprobs": [{"token": "\ufffd", "logprob": -0.0, "bytes": [239, 191, 189]}]},
	{"token": "Paris", "logprob": -0.2, "bytes": [80, 97, 114, 105, 115], "top_logprobs": [{"token": "Paris", "logprob": -0.2, "bytes": [80, 97, 114, 105, 115]}]},
	{"token": "\u201d is not.\n", "logprob": -0.5, "bytes": [226, 128, 157, 32, 105, 115, 32, 110, 111, 116, 46, 10], "top_logprobs": [{"token": "\u201d is not.\n", "logprob": -0.5, "bytes": [226, 128, 157, 32, 105, 115, 32, 110, 111, 116, 46, 10]}]},
	{"token": "</think>", "logprob": 0.0, "bytes": [60, 47, 116, 104, 105, 110, 107, 62], "top_logprobs": [{"token": "</think>", "logprob": 0.0, "bytes": [60, 47, 116, 104, 105, 110, 107, 62]}]},
	{"token": "\n\n", "logprob": 0.0, "bytes": [10, 10], "top_logprobs": [{"token": "\n\n", "logprob": 0.0, "bytes": [10, 10]}]},
	{"token": "No", "logprob": -0.22, "bytes": [78, 111], "top_logprobs": [
		{"token": "No", "logprob": -0.22, "bytes": [78, 111]},
		{"token": "Yes", "logprob": -1.64, "bytes": [89, 101, 115]},
		{"token": "**", "logprob": -5.3, "bytes": [42, 42]},
		{"token": "NO", "logprob": -7.9, "bytes": [78, 79]},
		{"token": "no", "logprob": -9999.0, "bytes": [110, 111]}]}]`

// lt is a token of the tables' logprobs: its text and, at the tokens that matter, the
// alternatives as "text=logprob" (the token itself is given its first alternative's logprob).
type lt struct {
	text string
	top  []string
}

// chatLogprobs writes tokens as OpenAI's choices[0].logprobs.content, each token with its bytes
// and top_logprobs (a token without alternatives listed gets itself, at probability 1).
func chatLogprobs(t testing.TB, tokens ...lt) any {
	t.Helper()
	list := make([]any, len(tokens))
	for k, tk := range tokens {
		alts := tk.top
		if len(alts) == 0 {
			alts = []string{tk.text + "=0"}
		}
		top := make([]any, len(alts))
		for j, a := range alts {
			i := strings.LastIndexByte(a, '=')
			lp, err := strconv.ParseFloat(a[i+1:], 64)
			require.NoError(t, err, a)
			top[j] = value.NewObject("token", a[:i], "logprob", lp, "bytes", bytesOf(a[:i]))
		}
		first, _ := top[0].(*value.Object).Get("logprob")
		list[k] = value.NewObject("token", tk.text, "logprob", first, "bytes", bytesOf(tk.text), "top_logprobs", top)
	}
	return list
}

func bytesOf(s string) []any {
	out := make([]any, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = int64(s[i])
	}
	return out
}

// words splits text as a BPE tokenizer roughly does: a word with the spaces before it, a run of
// other characters one at a time, a newline alone.
func words(text string) []lt {
	var out []lt
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] == ' ' {
			j++
		}
		r, size := utf8.DecodeRuneInString(text[j:])
		switch {
		case j == len(text):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			for j < len(text) {
				r, size := utf8.DecodeRuneInString(text[j:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
					break
				}
				j += size
			}
		default:
			j += size
		}
		out = append(out, lt{text: text[i:j]})
		i = j
	}
	return out
}

// withTop sets the alternatives of the token at index k of tokens (counted from the end when
// negative) and returns tokens.
func withTop(tokens []lt, k int, top ...string) []lt {
	if k < 0 {
		k += len(tokens)
	}
	tokens[k].top = top
	return tokens
}

// indexOf is the index of the n-th token (from 1) whose text is text.
func indexOf(tokens []lt, text string, n int) int {
	for k, tk := range tokens {
		if tk.text == text {
			if n--; n == 0 {
				return k
			}
		}
	}
	panic("no token " + text)
}

func ep(x float64) float64 { return math.Exp(x) }

func TestConfidenceBuiltins(t *testing.T) {
	r := testRegistry(t)
	grounding := value.NewObject("answer", "Paris is in France.", "facts", []any{"Paris is the capital of France."})
	g, _ := r.Get(pairwiseID)
	pairwise := g.Example.Inputs
	pairwiseAnswer := g.Example.Answer
	pw := words(pairwiseAnswer)
	second := indexOf(pw, "faithfulness", 2) + 3 // answer_2's grade: `faithfulness`, `"`, `:`, ` false`
	require.Equal(t, " false", pw[second].text)
	pw = withTop(pw, second, " false=-0.41", " true=-1.25", " null=-4.2", ` "=-6`)

	stringGrade := `{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": "true"}}`
	sg := words(stringGrade)
	sg = withTop(sg, len(sg)-4, "true=-0.3", "false=-1.6", "null=-3")
	require.Equal(t, "true", sg[len(sg)-4].text)

	split := "The answer's claim is in fact 1.\nAnswer: Yes"
	st := words(split)
	st = append(st[:len(st)-1], lt{" Y", []string{" Y=-0.5", " N=-1.4", " Yes=-2.3", " No=-3.2"}}, lt{"es", nil})

	tests := []struct {
		name, id string
		inputs   *value.Object
		answer   string
		logprobs any
		passed   bool
		pPass    float64
		mass     float64
		index    int
	}{
		{"answer-grounding, OpenAI's shape", groundingID, grounding, "Yes", decodeObject(t, openAIGrounding), true,
			(ep(-0.0019) + ep(-10.1) + ep(-13.2)) / (ep(-0.0019) + ep(-10.1) + ep(-13.2) + ep(-6.4)),
			ep(-0.0019) + ep(-10.1) + ep(-13.2) + ep(-6.4), 0},
		{"answer-grounding, vLLM's shape, reasoning first", groundingID, grounding,
			"<think>\nFact 2 says yes to 1889, but \u201cParis\u201d is not.\n</think>\n\nNo", mustDecode(t, vLLMThinking), false,
			ep(-1.64) / (ep(-0.22) + ep(-1.64) + ep(-7.9)), ep(-0.22) + ep(-1.64) + ep(-7.9), 20},
		{"answer-grounding, a verdict line after prose, split Y+es", groundingID, grounding, split, chatLogprobs(t, st...), true,
			(ep(-0.5) + ep(-2.3)) / (ep(-0.5) + ep(-1.4) + ep(-2.3) + ep(-3.2)), ep(-0.5) + ep(-1.4) + ep(-2.3) + ep(-3.2), len(st) - 2},
		{"pairwise, answer_2's faithfulness", pairwiseID, pairwise, pairwiseAnswer, chatLogprobs(t, pw...), false,
			ep(-1.25) / (ep(-0.41) + ep(-1.25)), ep(-0.41) + ep(-1.25), second},
		{"pairwise, a grade in a string", pairwiseID, pairwise, stringGrade, chatLogprobs(t, sg...), true,
			ep(-0.3) / (ep(-0.3) + ep(-1.6)), ep(-0.3) + ep(-1.6), len(sg) - 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := r.Prepare(tt.id, tt.inputs)
			require.NoError(t, err)
			v := p.ParseWeighed(tt.answer, tt.logprobs)
			require.NotNil(t, v.Passed, "%+v", v.Checks)
			assert.Equal(t, tt.passed, *v.Passed)
			require.NotNil(t, v.Confidence, v.ConfidenceReason)
			c := v.Confidence
			assert.Equal(t, ConfidenceVerdict, c.Kind)
			assert.InDelta(t, tt.pPass, *c.PPass, 1e-12)
			assert.InDelta(t, 1-tt.pPass, *c.PFail, 1e-12)
			assert.InDelta(t, tt.mass, c.Mass, 1e-12)
			assert.Equal(t, tt.index, c.Token.Index)
			assert.Empty(t, v.ConfidenceReason)
			for _, ch := range v.Checks {
				assert.NotContains(t, string(ch.Code), "confidence.")
			}
			// The verdict itself is Parse's.
			w := p.Parse(tt.answer)
			assert.Equal(t, w.Passed, v.Passed)
			assert.Equal(t, w.Checks, v.Checks)
		})
	}
}

func mustDecode(t testing.TB, text string) any {
	t.Helper()
	v, err := value.Decode([]byte(text))
	require.NoError(t, err)
	return v
}

func TestConfidenceNone(t *testing.T) {
	r := testRegistry(t)
	grounding := value.NewObject("answer", "Paris is in France.", "facts", []any{"Paris is the capital of France."})
	claims, _ := r.Get(claimID)
	recall, _ := r.Get(ragRecallID)
	tests := []struct {
		name, id string
		inputs   *value.Object
		answer   string
		logprobs any
		code     diag.Code
		msg      string
		line     int
	}{
		{"no logprobs", groundingID, grounding, "Yes", nil, diag.ConfidenceNone, "the endpoint gave no logprobs", 0},
		{"an empty list", groundingID, grounding, "Yes", []any{}, diag.ConfidenceNone, "the endpoint gave no logprobs", 0},
		{"a null content", groundingID, grounding, "Yes", decodeObject(t, `{"content": null, "refusal": null}`), diag.ConfidenceNone, "no logprobs", 0},
		{"a bad shape", groundingID, grounding, "Yes", mustDecode(t, `[{"token": "Yes", "logprob": 0.3}]`), diag.ConfidenceBadLogprobs,
			"logprobs[0].logprob is 0.3: a log probability is at most 0", 0},
		{"only the chosen token, no alternatives", groundingID, grounding, "Yes", mustDecode(t, `[{"token": "Yes", "logprob": -0.01, "bytes": [89, 101, 115], "top_logprobs": []}]`),
			diag.ConfidenceNoAlternatives, "ask with top_logprobs", 1},
		{"an undetermined verdict", groundingID, grounding, "There is no relevant statement.", chatLogprobs(t, words("There is no relevant statement.")...),
			diag.ConfidenceNoVerdict, "the verdict is undetermined", 0},
		{"another answer's tokens", groundingID, grounding, "No", decodeObject(t, openAIGrounding), diag.ConfidenceMismatch, "do not write this answer", 1},
		{"the verdict words hold little", groundingID, grounding, "yes",
			chatLogprobs(t, lt{"yes", []string{"yes=-1.9", "The=-0.4", "no=-2.5", "**=-3", "A=-3.5"}}), diag.ConfidenceLowMass, "hold only 0.232", 1},
		{"claim-groundedness", claimID, claims.Example.Inputs, claims.Example.Answer, chatLogprobs(t, words(claims.Example.Answer)...),
			diag.ConfidenceUnsupported, "one grade per claim", 0},
		{"rag-recall", ragRecallID, recall.Example.Inputs, recall.Example.Answer, chatLogprobs(t, words(recall.Example.Answer)...),
			diag.ConfidenceUnsupported, "one score per passage", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := r.Prepare(tt.id, tt.inputs)
			require.NoError(t, err)
			v := p.ParseWeighed(tt.answer, tt.logprobs)
			assert.Nil(t, v.Confidence)
			assert.Contains(t, v.ConfidenceReason, tt.msg)
			want := p.Parse(tt.answer)
			assert.Equal(t, want.Passed, v.Passed, "the verdict stands")
			assert.Equal(t, want.Score, v.Score)
			require.Len(t, v.Checks, len(want.Checks)+1)
			c := v.Checks[len(v.Checks)-1]
			assert.Equal(t, diag.Check{Severity: diag.SevWarning, Code: tt.code, Message: "no confidence: " + v.ConfidenceReason, Line: tt.line, Col: c.Col, Len: c.Len}, c)
		})
	}
}

func TestConfidenceCustom(t *testing.T) {
	label := spec("relevance", `"Q: {{ question }} A: {{ answer }}"`, `{"kind": "label", "labels": {"relevant": true, "partially relevant": null, "irrelevant": false}}`)
	jsonLabel := "{\n  \"reasoning\": \"It answers the question.\",\n  \"label\": \"relevant\"\n}"
	jl := words(jsonLabel)
	jl = withTop(jl, indexOf(jl, "relevant", 1), "relevant=-0.25", "irrelevant=-2.1", "partially=-2.6", "not=-4")

	likert := spec("likert", `"Q: {{ question }} A: {{ answer }}"`, `{"kind": "score", "label": "Score", "min": 1, "max": 5, "pass_at": 4}`)
	scoreAnswer := "The answer is relevant but thin.\nScore: 4"
	sa := withTop(words(scoreAnswer), -1, " 4=-0.6", " 3=-1.2", " 5=-2.4", " The=-4")

	jsonPass := spec("json-pass", `"Q: {{ question }} A: {{ answer }}"`, `{"kind": "json", "pass": "$.result.verdict", "pass_values": ["pass"], "fail_values": ["fail"]}`)
	jpAnswer := "```json\n{\"result\": {\"verdict\": \"fail\", \"why\": \"off topic\"}}\n```"
	jp := words(jpAnswer)
	jp = withTop(jp, indexOf(jp, "fail", 1), "fail=-0.1", "pass=-2.5", "unsure=-4")

	jsonBool := spec("json-bool", `"Q: {{ question }} A: {{ answer }}"`, `{"kind": "json", "pass": "$.ok", "pass_values": [true]}`)
	jbAnswer := `{"ok": true}`
	jb := withTop(words(jbAnswer), -2, " true=-0.05", " false=-3.1")

	jsonOpen := spec("json-open", `"Q: {{ question }} A: {{ answer }}"`, `{"kind": "json", "pass": "$.verdict", "pass_values": ["yes"]}`)
	joAnswer := `{"verdict": "yes"}`

	builtin := `{"id": "grounding-fr", "title": "T", "description": "", "dialect": "format", "prompt": "{answer} {facts} {mode}",
		"inputs": [{"name": "answer", "label": "A", "kind": "text", "required": true, "judged": true},
		           {"name": "facts", "label": "F", "kind": "list", "required": true},
		           {"name": "mode", "label": "M", "kind": "text", "required": false}],
		"output": {"kind": "builtin", "evaluator": "answer-grounding"}}`
	grounding := value.NewObject("answer", "Paris is in France.", "facts", []any{"Paris is the capital of France."})

	type want struct {
		kind     string
		pPass    *float64
		expected *float64
		index    int
		code     diag.Code
		msg      string
	}
	tests := []struct {
		name, spec, id string
		inputs         *value.Object
		answer         string
		logprobs       any
		want           want
	}{
		{"a label inside a JSON answer", label, "relevance", inputsQA, jsonLabel, chatLogprobs(t, jl...),
			want{kind: ConfidenceVerdict, pPass: score(ep(-0.25) / (ep(-0.25) + ep(-2.1))), index: indexOf(jl, "relevant", 1)}},
		{"a score, G-Eval's weighing", likert, "likert", inputsQA, scoreAnswer, chatLogprobs(t, sa...),
			want{kind: ConfidenceScore, pPass: score((ep(-0.6) + ep(-2.4)) / (ep(-0.6) + ep(-1.2) + ep(-2.4))),
				expected: score((4*ep(-0.6) + 3*ep(-1.2) + 5*ep(-2.4)) / (ep(-0.6) + ep(-1.2) + ep(-2.4))), index: len(sa) - 1}},
		{"a json pass field in a fence", jsonPass, "json-pass", inputsQA, jpAnswer, chatLogprobs(t, jp...),
			want{kind: ConfidenceVerdict, pPass: score(ep(-2.5) / (ep(-0.1) + ep(-2.5))), index: indexOf(jp, "fail", 1)}},
		{"a json boolean: false fails", jsonBool, "json-bool", inputsQA, jbAnswer, chatLogprobs(t, jb...),
			want{kind: ConfidenceVerdict, pPass: score(ep(-0.05) / (ep(-0.05) + ep(-3.1))), index: len(jb) - 2}},
		{"a json text without fail values", jsonOpen, "json-open", inputsQA, joAnswer, chatLogprobs(t, words(joAnswer)...),
			want{code: diag.ConfidenceUnsupported, msg: "no fail_values"}},
		{"a built-in's reader", builtin, "grounding-fr", grounding, "Yes", decodeObject(t, openAIGrounding),
			want{kind: ConfidenceVerdict, pPass: score((ep(-0.0019) + ep(-10.1) + ep(-13.2)) / (ep(-0.0019) + ep(-10.1) + ep(-13.2) + ep(-6.4)))}},
		{"a neutral label: no verdict", label, "relevance", inputsQA, "Verdict: partially relevant", chatLogprobs(t, words("Verdict: partially relevant")...),
			want{code: diag.ConfidenceNoVerdict, msg: "undetermined"}},
		{"a decimal score", likert, "likert", inputsQA, "Score: 4.5", chatLogprobs(t, words("Score: 4.5")...),
			want{code: diag.ConfidenceNoToken, msg: `the score "4.5" is not a whole number`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := defineSpec(t, tt.spec)
			p, err := r.Prepare(tt.id, tt.inputs)
			require.NoError(t, err)
			v := p.ParseWeighed(tt.answer, tt.logprobs)
			if tt.want.code != "" {
				assert.Nil(t, v.Confidence)
				assert.Contains(t, v.ConfidenceReason, tt.want.msg)
				require.NotEmpty(t, v.Checks)
				assert.Equal(t, tt.want.code, v.Checks[len(v.Checks)-1].Code)
				return
			}
			require.NotNil(t, v.Confidence, v.ConfidenceReason)
			c := v.Confidence
			assert.Equal(t, tt.want.kind, c.Kind)
			assert.InDelta(t, *tt.want.pPass, *c.PPass, 1e-12)
			assert.InDelta(t, 1-*tt.want.pPass, *c.PFail, 1e-12)
			if tt.want.expected != nil {
				assert.InDelta(t, *tt.want.expected, *c.ExpectedScore, 1e-12)
				assert.NotEmpty(t, c.Distribution)
			} else {
				assert.Nil(t, c.ExpectedScore)
			}
			assert.Equal(t, tt.want.index, c.Token.Index)
		})
	}
}

// TestConfidenceCheckPoints: the warning of a verdict without confidence points at the verdict.
func TestConfidenceCheckPoints(t *testing.T) {
	r := testRegistry(t)
	p, err := r.Prepare(groundingID, value.NewObject("answer", "a", "facts", "b"))
	require.NoError(t, err)
	answer := "All claims hold.\nFinal answer: **Yes**"
	lp := chatLogprobs(t, words(answer)...).([]any)
	for _, x := range lp {
		x.(*value.Object).Set("top_logprobs", nil) // asked with logprobs: true only
	}
	v := p.ParseWeighed(answer, lp)
	require.Nil(t, v.Confidence)
	c := v.Checks[len(v.Checks)-1]
	assert.Equal(t, diag.ConfidenceNoAlternatives, c.Code)
	assert.Equal(t, []int{2, 17, 3}, []int{c.Line, c.Col, c.Len})
}

// FuzzConfidence weighs arbitrary answers to the built-ins and to custom label and score readers
// by logprobs cut from the answer itself (words), each token given alternatives from a small
// vocabulary of verdict words, numbers and markup: the verdict is always Parse's; a confidence
// has shares in [0, 1] that add up to 1, a mass from 0.5 to 1, an expected score on the scale, and
// names a token of the logprobs; no confidence has a reason and, last among the checks, a
// confidence.* warning that points inside the answer.
func FuzzConfidence(f *testing.F) {
	for i, s := range []string{"Yes", "<think>no</think>\nAnswer: **No**", "Verdict: partially relevant", "Score: 4", "Score: 10\nScore: 7",
		`{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": "false"}}`, "LABEL: irrelevant.", "yes\nno"} {
		f.Add(uint8(i), s, uint8(i*37))
	}
	r := testRegistry(f)
	for _, s := range []string{
		spec("label", `"{{ question }} {{ answer }}"`, `{"kind": "label", "labels": {"relevant": true, "partially relevant": null, "irrelevant": false, "partially irrelevant": false}}`),
		spec("score", `"{{ question }} {{ answer }}"`, `{"kind": "score", "label": "Score", "min": 1, "max": 10, "pass_at": 6}`),
	} {
		_, err := r.Define(decodeObject(f, s))
		if err != nil {
			f.Fatal(err)
		}
	}
	ids := []string{groundingID, pairwiseID, claimID, "label", "score"}
	grounding := value.NewObject("answer", "a", "facts", "f")
	pairwise := value.NewObject("contexts", []any{"one"}, "expected_output", "x [1].", "actual_output", "y [1].")
	claims := object(f, claimInputs)
	vocab := []string{"Yes", " yes", "no", " No", "N", "true", " false", "null", "relevant", " irrelevant", "partially", "4", " 7", " 10", "1", "**", "\n", "The"}
	f.Fuzz(func(t *testing.T, evaluator uint8, answer string, seed uint8) {
		id := ids[int(evaluator)%len(ids)]
		in := map[string]*value.Object{groundingID: grounding, pairwiseID: pairwise, claimID: claims}[id]
		if in == nil {
			in = inputsQA
		}
		tokens := words(answer)
		for k := range tokens {
			x := int(seed) + 7*k
			n := x % 5
			share := 0.6
			tokens[k].top = append(tokens[k].top, tokens[k].text+"="+strconv.FormatFloat(math.Log(share), 'g', -1, 64))
			for j := 0; j < n; j++ {
				share /= 3
				tokens[k].top = append(tokens[k].top, vocab[(x+j)%len(vocab)]+"="+strconv.FormatFloat(math.Log(share), 'g', -1, 64))
			}
		}
		p, err := r.Prepare(id, in)
		if err != nil {
			t.Fatal(err)
		}
		plain := p.Parse(answer)
		v := p.ParseWeighed(answer, chatLogprobs(t, tokens...))
		if (plain.Passed == nil) != (v.Passed == nil) || plain.Passed != nil && *plain.Passed != *v.Passed || len(v.Checks) < len(plain.Checks) {
			t.Fatalf("the verdict changed: %+v / %+v", plain, v)
		}
		if c := v.Confidence; c != nil {
			if v.ConfidenceReason != "" || len(v.Checks) != len(plain.Checks) || !(c.Mass >= 0.5 && c.Mass <= 1) || c.Token.Index < 0 || c.Token.Index >= len(tokens) {
				t.Fatalf("confidence %+v with reason %q", c, v.ConfidenceReason)
			}
			if c.PPass != nil && (!(*c.PPass >= 0 && *c.PPass <= 1) || math.Abs(*c.PPass+*c.PFail-1) > 1e-9) {
				t.Fatalf("shares %v %v", *c.PPass, *c.PFail)
			}
			if c.ExpectedScore != nil && !(*c.ExpectedScore >= 1 && *c.ExpectedScore <= 10) {
				t.Fatalf("expected score %v", *c.ExpectedScore)
			}
			return
		}
		last := v.Checks[len(v.Checks)-1]
		if v.ConfidenceReason == "" || len(v.Checks) != len(plain.Checks)+1 || last.Severity != diag.SevWarning || !strings.HasPrefix(string(last.Code), "confidence.") {
			t.Fatalf("no confidence, reason %q, checks %+v", v.ConfidenceReason, v.Checks)
		}
		if last.Len > 0 && len([]rune(spanText(answer, last))) != last.Len {
			t.Fatalf("check %+v points outside the answer", last)
		}
	})
}

// BenchmarkParseWeighed: pairwise's worked example (375 tokens) with 20 alternatives at every
// token, as top_logprobs 20 gives them: Parse, and ParseWeighed with the logprobs as the value
// package holds them (what the wasm decodes from the argument wire is not in it).
func BenchmarkParseWeighed(b *testing.B) {
	r := testRegistry(b)
	e, _ := r.Get(pairwiseID)
	tokens := words(e.Example.Answer)
	for k := range tokens {
		tokens[k].top = []string{tokens[k].text + "=-0.05"}
		for j := 1; j < 20; j++ {
			tokens[k].top = append(tokens[k].top, " alt"+strconv.Itoa(j)+"="+strconv.Itoa(-3-j))
		}
	}
	lp := chatLogprobs(b, tokens...)
	p, err := r.Prepare(pairwiseID, e.Example.Inputs)
	require.NoError(b, err)
	b.Run("parse", func(b *testing.B) {
		for range b.N {
			p.Parse(e.Example.Answer)
		}
	})
	b.Run("weighed", func(b *testing.B) {
		for range b.N {
			if v := p.ParseWeighed(e.Example.Answer, lp); v.Confidence == nil {
				b.Fatal(v.ConfidenceReason)
			}
		}
	})
}
