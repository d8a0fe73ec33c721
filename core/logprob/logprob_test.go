package logprob

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

func decode(t *testing.T, text string) any {
	t.Helper()
	v, err := value.Decode([]byte(text))
	require.NoError(t, err, text)
	return v
}

// openAIYes is what gpt-4o-mini answered "Yes" with, in OpenAI's shape (choices[0].logprobs):
// bytes on every token and alternative, the chosen token first among its top_logprobs.
const openAIYes = `{"content": [
 {"token": "Yes", "logprob": -0.00055, "bytes": [89, 101, 115], "top_logprobs": [
  {"token": "Yes", "logprob": -0.00055, "bytes": [89, 101, 115]},
  {"token": "No", "logprob": -7.625, "bytes": [78, 111]},
  {"token": "yes", "logprob": -10.5, "bytes": [121, 101, 115]},
  {"token": "**", "logprob": -11.25, "bytes": [42, 42]},
  {"token": "YES", "logprob": -13.0, "bytes": [89, 69, 83]}]}],
 "refusal": null}`

func TestRead(t *testing.T) {
	tokens, p := Read(decode(t, openAIYes))
	require.Nil(t, p)
	require.Len(t, tokens, 1)
	assert.Equal(t, "Yes", tokens[0].Text)
	assert.Equal(t, -0.00055, tokens[0].Logprob)
	require.Len(t, tokens[0].Top, 5)
	assert.Equal(t, Alt{Text: "No", Logprob: -7.625}, tokens[0].Top[1])

	for _, none := range []string{`null`, `[]`, `{"content": null, "refusal": null}`} {
		tokens, p := Read(decode(t, none))
		assert.Nil(t, p, none)
		assert.Empty(t, tokens, none)
	}

	// bytes win over the token's text: a character split across tokens is whole only in them
	// (OpenAI writes such a token as "\xe2\x80"; vLLM as U+FFFD).
	tokens, p = Read(decode(t, `[{"token": "bytes:\\xe2\\x80", "logprob": -0.2, "bytes": [226, 128]},
		{"token": "\\ufffd", "logprob": -0.01, "bytes": [156]}, {"token": "x", "logprob": -9999.0, "bytes": null, "top_logprobs": null, "id": 87}]`))
	require.Nil(t, p)
	assert.Equal(t, "\u201c", tokens[0].Text+tokens[1].Text)
	assert.Equal(t, "x", tokens[2].Text)
	assert.Equal(t, 0.0, math.Exp(tokens[2].Logprob), "vLLM's -9999 is a probability of 0")
}

func TestReadRefuses(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`"Yes"`, "logprobs must be choices[0].logprobs.content, a list of tokens, got a string"},
		{`{"tokens": ["Yes"], "token_logprobs": [-0.1]}`, `logprobs is an object without "content"`},
		{`[1]`, "logprobs[0] must be a token, {token, logprob, bytes, top_logprobs}, got a number"},
		{`[{"logprob": -1}]`, "logprobs[0].token must be a text, got null"},
		{`[{"token": "a", "logprob": "-1"}]`, "logprobs[0].logprob must be a number, got a string"},
		{`[{"token": "a"}]`, "logprobs[0].logprob must be a number, got null"},
		{`[{"token": "a", "logprob": 0.5}]`, "logprobs[0].logprob is 0.5: a log probability is at most 0"},
		{`[{"token": "a", "logprob": 1}]`, "logprobs[0].logprob is 1: a log probability is at most 0"},
		{`[{"token": "a", "logprob": -1, "bytes": [97, 256]}]`, "logprobs[0].bytes[1] must be a byte value, 0 to 255, got 256"},
		{`[{"token": "a", "logprob": -1, "bytes": [97.5]}]`, "logprobs[0].bytes[0] must be a byte value, 0 to 255, got 97.5"},
		{`[{"token": "a", "logprob": -1, "bytes": "a"}]`, "logprobs[0].bytes must be a list of byte values (0 to 255) or null, got a string"},
		{`[{"token": "a", "logprob": -1, "top_logprobs": {"a": -1}}]`, "logprobs[0].top_logprobs must be a list, got an object"},
		{`[{"token": "a", "logprob": -1}, {"token": "b", "logprob": -1, "top_logprobs": [{"token": "b", "logprob": 0.1}]}]`,
			"logprobs[1].top_logprobs[0].logprob is 0.1: a log probability is at most 0"},
		{`[{"token": "a", "logprob": -1, "top_logprobs": [null]}]`, "logprobs[0].top_logprobs[0] must be {token, logprob, bytes}, got null"},
		{`[{"token": "a", "logprob": -0.1, "top_logprobs": [{"token": "a", "logprob": -0.1}, {"token": "b", "logprob": -0.2}]}]`,
			"logprobs[0].top_logprobs (and the token itself, when they leave it out) add up to a probability of 1.724, more than 1"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			tokens, p := Read(decode(t, tt.in))
			require.NotNil(t, p)
			assert.Nil(t, tokens)
			assert.Equal(t, diag.ConfidenceBadLogprobs, p.Code)
			assert.Contains(t, p.Msg, tt.msg)
		})
	}
	// What JSON cannot carry, a Go caller can: NaN and infinities are refused too.
	for _, x := range []float64{math.NaN(), math.Inf(-1), math.Inf(1)} {
		_, p := Read([]any{value.NewObject("token", "a", "logprob", x)})
		require.NotNil(t, p)
		assert.Contains(t, p.Msg, "not a finite number")
	}
}

// tok is a token for the tables: its text, log probability and alternatives ("text=-logprob").
func tok(text string, lp float64, top ...string) Token {
	t := Token{Text: text, Logprob: lp}
	for _, a := range top {
		i := strings.LastIndexByte(a, '=')
		x, err := strconv.ParseFloat(a[i+1:], 64)
		if err != nil {
			panic(a)
		}
		t.Top = append(t.Top, Alt{Text: a[:i], Logprob: -x})
	}
	return t
}

var yesNo = Words{Pass: []string{"yes"}, Fail: []string{"no"}}

func p(x float64) float64 { return math.Exp(x) }

func TestWeighWords(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		tokens []Token
		off    int
		pass   bool
		words  Words
		pPass  float64
		mass   float64
		index  int
	}{
		{"the whole answer", "Yes", []Token{tok("Yes", -0.1, "Yes=0.1", "No=2.5")}, 0, true, yesNo,
			p(-0.1) / (p(-0.1) + p(-2.5)), p(-0.1) + p(-2.5), 0},
		{"case and leading-space variants count together", "Answer: yes",
			[]Token{tok("Answer", -0.01), tok(":", 0), tok(" yes", -0.7, " yes=0.7", " Yes=1.2", " YES=3", " no=2.3", "yes=4", " No=5", " maybe=6")},
			8, true, yesNo, (p(-0.7) + p(-1.2) + p(-3) + p(-4)) / (p(-0.7) + p(-1.2) + p(-3) + p(-4) + p(-2.3) + p(-5)),
			p(-0.7) + p(-1.2) + p(-3) + p(-4) + p(-2.3) + p(-5), 2},
		{"a word split across tokens: the first token's alternatives", "Verdict: No",
			[]Token{tok("Verdict", -0.01), tok(":", 0), tok(" N", -0.5, " N=0.5", " Y=1.6", " No=2.2", " Yes=3.1"), tok("o", -0.0001)},
			9, false, yesNo, (p(-1.6) + p(-3.1)) / (p(-0.5) + p(-1.6) + p(-2.2) + p(-3.1)), p(-0.5) + p(-1.6) + p(-2.2) + p(-3.1), 2},
		{"the chosen word absent from the top list: added", "No",
			[]Token{tok("No", -3.5, "Yes=0.05", "**=3.2")}, 0, false, yesNo,
			p(-0.05) / (p(-0.05) + p(-3.5)), p(-0.05) + p(-3.5), 0},
		{"one token listed, near certain: what is left out cannot move it", "Yes",
			[]Token{tok("Yes", -0.005, "Yes=0.005")}, 0, true, yesNo, 1, p(-0.005), 0},
		{"the other word absent from the top list: all on one side", "Yes",
			[]Token{tok("Yes", -0.01, "Yes=0.01", "**=5", "The=6")}, 0, true, yesNo, 1, p(-0.01), 0},
		{"a word followed by punctuation in its token", "yes.",
			[]Token{tok("yes.", -0.2, "yes.=0.2", "no.=1.8", "none=3")}, 0, true, yesNo,
			p(-0.2) / (p(-0.2) + p(-1.8)), p(-0.2) + p(-1.8), 0},
		{"emphasis before the word in its token", "**Yes**",
			[]Token{tok("**Yes", -0.2, "**Yes=0.2", "**No=1.8"), tok("**", 0)}, 2, true, yesNo,
			p(-0.2) / (p(-0.2) + p(-1.8)), p(-0.2) + p(-1.8), 0},
		{"a label of two words, and a neutral one", "LABEL: not grounded",
			[]Token{tok("LABEL", 0), tok(":", 0), tok(" not", -0.3, " not=0.3", " grounded=1.5", " partially=2.5"), tok(" grounded", 0)},
			7, false, Words{Pass: []string{"grounded"}, Fail: []string{"not grounded"}, Neutral: []string{"partially grounded"}},
			p(-1.5) / (p(-0.3) + p(-1.5)), p(-0.3) + p(-1.5), 2},
		{"a token that begins words of two classes counts for none", "no",
			[]Token{tok("no", -0.5, "no=0.5", "n=1", "yes=1.5")}, 0, false,
			Words{Pass: []string{"yes"}, Fail: []string{"no"}, Neutral: []string{"null"}},
			p(-1.5) / (p(-0.5) + p(-1.5)), p(-0.5) + p(-1.5), 0},
		{"a JSON value token", `{"faithfulness": false}`,
			[]Token{tok(`{"`, 0), tok("faith", 0), tok("fulness", 0), tok(`":`, 0), tok(" false", -0.3, " false=0.3", " true=1.4", " null=4"), tok("}", 0)},
			16, false, Words{Pass: []string{"true"}, Fail: []string{"false"}, Neutral: []string{"null"}},
			p(-1.4) / (p(-0.3) + p(-1.4)), p(-0.3) + p(-1.4), 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, prob := Align(tt.answer, tt.tokens).WeighWords(tt.off, tt.words, tt.pass)
			require.Nil(t, prob, "%+v", prob)
			assert.InDelta(t, tt.pPass, w.PPass, 1e-12, "p_pass")
			assert.InDelta(t, 1-tt.pPass, w.PFail, 1e-12, "p_fail")
			assert.InDelta(t, tt.mass, w.Mass, 1e-12, "mass")
			assert.Equal(t, tt.index, w.At.Index)
		})
	}
}

func TestWeighWordsRefuses(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		tokens []Token
		off    int
		pass   bool
		words  Words
		code   diag.Code
		msg    string
	}{
		{"no tokens", "Yes", nil, 0, true, yesNo, diag.ConfidenceNone, "no logprobs"},
		{"no alternatives listed", "Yes", []Token{tok("Yes", -0.1)}, 0, true, yesNo, diag.ConfidenceNoAlternatives,
			`no top_logprobs at the verdict's token "Yes" (logprobs[0])`},
		{"too little probability on the words", "Yes",
			[]Token{tok("Yes", -1.6, "The=0.5", "Yes=1.6", "No=2.4", "**=3", "A=3.2")}, 0, true, yesNo, diag.ConfidenceLowMass,
			`hold only 0.293 of the probability at the verdict's token "Yes" (logprobs[0]), less than 0.5`},
		{"a list too short to weigh against (top_logprobs: 1)", "Yes", []Token{tok("Yes", -0.5, "Yes=0.5")}, 0, true, yesNo, diag.ConfidenceNoAlternatives,
			"listed too few alternatives at the verdict's token \"Yes\" (logprobs[0]): 0.39 of its probability is on tokens not listed, which could be verdict words and move the shares by up to 0.39"},
		{"a list of 3 leaving out a tenth", "Yes", []Token{tok("Yes", -0.6, "Yes=0.6", "No=1.6", "**=3.5")}, 0, true, yesNo, diag.ConfidenceNoAlternatives,
			"0.22 of its probability is on tokens not listed, which could be verdict words and move the shares by up to 0.23"},
		{"tokens of another answer", "Yes", []Token{tok("No", -0.1, "No=0.1")}, 0, true, yesNo, diag.ConfidenceMismatch,
			"do not write this answer"},
		{"tokens that end before the verdict", "Thinking done.\nYes", []Token{tok("Thinking", 0), tok(" done", 0)}, 15, true, yesNo,
			diag.ConfidenceMismatch, "end at 1:14, before the verdict at 2:1"},
		{"the verdict where the texts differ", "Answer: Yes", []Token{tok("Answer", 0), tok(":", 0), tok(" Yeah", 0)}, 8, true, yesNo,
			diag.ConfidenceMismatch, "from 1:11 on, and the verdict at 1:9"},
		{"a verdict inside a token", "Answer: Yes", []Token{tok("Answ", 0), tok("er: Yes", -0.1, "er: Yes=0.1")}, 8, true, yesNo,
			diag.ConfidenceNoToken, `begins inside the token "er: Yes" (logprobs[1])`},
		{"a first token shared by a passing and a failing label", "partially correct",
			[]Token{tok("partially", -0.1, "partially=0.1", "correct=3"), tok(" correct", 0)}, 0, true,
			Words{Pass: []string{"correct", "partially correct"}, Fail: []string{"incorrect", "partially incorrect"}},
			diag.ConfidenceAmbiguous, `first token "partially" (logprobs[0]) begins both`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, prob := Align(tt.answer, tt.tokens).WeighWords(tt.off, tt.words, tt.pass)
			assert.Nil(t, w)
			refused(t, prob, tt.code, tt.msg)
		})
	}
}

// refused asserts that prob is a problem of code whose message holds msg.
func refused(t *testing.T, prob *Problem, code diag.Code, msg string) {
	t.Helper()
	require.NotNil(t, prob)
	assert.Equal(t, code, prob.Code)
	assert.Contains(t, prob.Msg, msg)
}

func TestAlignEnds(t *testing.T) {
	// Reasoning sent apart (reasoning_content) and put before the answer by the caller: the
	// tokens match the answer's end.
	answer := "<think>It says yes.</think>\nNo"
	a := Align(answer, []Token{tok("\n", 0), tok("No", -0.2, "No=0.2", "Yes=1.8")})
	w, prob := a.WeighWords(len(answer)-2, yesNo, false)
	require.Nil(t, prob)
	assert.Equal(t, 1, w.At.Index)
	// White space the caller trimmed off the answer's end.
	a = Align("Yes", []Token{tok("Yes", -0.2, "Yes=0.2", "No=1.8"), tok("\n\n", 0)})
	_, prob = a.WeighWords(0, yesNo, true)
	assert.Nil(t, prob)
	// A character vLLM printed as U+FFFD before the verdict, and the verdict after it.
	answer = "It is “fine”.\nVerdict: yes"
	tokens := []Token{tok("It", 0), tok(" is", 0), tok(" \ufffd", 0), tok("\ufffd", 0), tok("fine", 0), tok("”.\n", 0), tok("Verdict", 0), tok(":", 0), tok(" yes", -0.1, " yes=0.1", " no=2.5")}
	w, prob = Align(answer, tokens).WeighWords(strings.LastIndex(answer, "yes"), yesNo, true)
	require.Nil(t, prob, "%+v", prob)
	assert.Equal(t, 8, w.At.Index)
}

func TestWeighScore(t *testing.T) {
	likert := Scale{Lo: 1, Hi: 5, PassAt: 4, HasAt: true}
	// G-Eval's weighing of "Score: 4" on 1-5: 0.6, 0.3, 0.1 over 4, 3, 5, and "The" left out.
	tokens := []Token{tok("Score", 0), tok(":", 0), tok(" ", 0), tok("4", math.Log(0.54), "4=0.616186", "3=1.309333", "The=2.302585", "5=2.995732", "0=4")}
	w, prob := Align("Score: 4", tokens).WeighScore(7, "4", likert)
	require.Nil(t, prob, "%+v", prob)
	mass := p(-0.616186) + p(-1.309333) + p(-2.995732)
	assert.InDelta(t, mass, w.Mass, 1e-9)
	require.Len(t, w.Dist, 3)
	assert.Equal(t, []int{3, 4, 5}, []int{w.Dist[0].Score, w.Dist[1].Score, w.Dist[2].Score})
	assert.InDelta(t, p(-1.309333)/mass, w.Dist[0].P, 1e-12)
	assert.InDelta(t, (3*p(-1.309333)+4*p(-0.616186)+5*p(-2.995732))/mass, w.Expected, 1e-12)
	assert.InDelta(t, (p(-0.616186)+p(-2.995732))/mass, w.PPass, 1e-12)
	assert.InDelta(t, 1-w.PPass, w.PFail, 1e-12)

	// A scale to 10 with a tokenizer that writes "10" as one token (it is among the alternatives).
	tokens = []Token{tok("Score", 0), tok(":", 0), tok(" 8", -0.3, " 8=0.3", " 9=1.5", " 10=2.5", " 7=3")}
	w, prob = Align("Score: 8", tokens).WeighScore(7, "8", Scale{Lo: 1, Hi: 10})
	require.Nil(t, prob, "%+v", prob)
	assert.Equal(t, 10, w.Dist[len(w.Dist)-1].Score)
	assert.Zero(t, w.PPass, "no passing score: p_pass stays 0 (the judge package writes null)")

	rejected := []struct {
		name, answer string
		tokens       []Token
		off          int
		number       string
		sc           Scale
		code         diag.Code
		msg          string
	}{
		{"a decimal", "Score: 4.5", []Token{tok("Score: ", 0), tok("4", -0.1, "4=0.1"), tok(".", 0), tok("5", 0)}, 7, "4.5", likert,
			diag.ConfidenceNoToken, `the score "4.5" is not a whole number`},
		{"a number split into digits", "Score: 10", []Token{tok("Score: ", 0), tok("1", -0.1, "1=0.1"), tok("0", 0)}, 7, "10", Scale{Lo: 1, Hi: 10},
			diag.ConfidenceNoToken, `the score 10 is written over several tokens (the first is "1", logprobs[1])`},
		{"one digit a token on a scale past 9", "Score: 7", []Token{tok("Score: ", 0), tok("7", -0.1, "7=0.1", "1=2.5", "8=3")}, 7, "7", Scale{Lo: 1, Hi: 10},
			diag.ConfidenceAmbiguous, "may be the first digit of a longer number"},
		{"the numbers off the scale", "Score: 4", []Token{tok("Score: ", 0), tok("4", -1.2, "0=0.4", "4=1.2")}, 7, "4", likert,
			diag.ConfidenceLowMass, "the scale's numbers hold only 0.301"},
		{"a scale below 0", "Score: 1", []Token{tok("Score: ", 0), tok("1", 0, "1=0")}, 7, "1", Scale{Lo: -2, Hi: 2},
			diag.ConfidenceUnsupported, "goes below 0"},
	}
	for _, tt := range rejected {
		t.Run(tt.name, func(t *testing.T) {
			w, prob := Align(tt.answer, tt.tokens).WeighScore(tt.off, tt.number, tt.sc)
			assert.Nil(t, w)
			refused(t, prob, tt.code, tt.msg)
		})
	}
}

func TestScoreKey(t *testing.T) {
	for in, want := range map[string]string{"4": "4", " 4": "4", "**4": "4", `"4"`: "4", "04": "4", "0": "0", "4.": "4", "4/": "4", " 10": "10", "4,": "4"} {
		got, ok := scoreKey(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", " ", "4th", "4.5", "-4", "four", "x4", "4,5"} {
		_, ok := scoreKey(in)
		assert.False(t, ok, in)
	}
}
