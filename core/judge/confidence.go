package judge

import (
	"math"
	"strings"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/logprob"
	"ragjudge/core/output"
	"ragjudge/core/value"
)

// Confidence: how sure the judge was of a verdict, from the log probabilities of the token where
// its reader found the verdict (package logprob; docs/ARCHITECTURE.md, "Confidence"). Each reader
// records that place as the verdict's site; ParseWeighed weighs it.

// Confidence is a verdict weighed by its logprobs. Kind "verdict" (a pass or fail word): PPass and
// PFail are the shares of the passing and failing words' first tokens at the verdict's token.
// Kind "score": ExpectedScore is Σ p·s over the scale's numbers at the score's token, and
// Distribution their shares; PPass and PFail are the shares of the scores that pass and fail
// when the reader has a passing score, else null. Mass is the probability the words or numbers
// held before the shares were taken (at least logprob.Floor).
type Confidence struct {
	Kind          string           `json:"kind"`
	PPass         *float64         `json:"p_pass"`
	PFail         *float64         `json:"p_fail"`
	Mass          float64          `json:"mass"`
	ExpectedScore *float64         `json:"expected_score,omitempty"`
	Distribution  []logprob.ScoreP `json:"distribution,omitempty"`
	Token         ConfidenceToken  `json:"token"`
}

// ConfidenceToken is the token a confidence was read at: its index in the logprobs, its text and
// its own log probability.
type ConfidenceToken struct {
	Index   int       `json:"index"`
	Text    string    `json:"text"`
	Logprob float64   `json:"logprob"`
	_       [0]func() // not comparable: no equality function in the wasm
}

// The kinds of Confidence.
const (
	ConfidenceVerdict = "verdict"
	ConfidenceScore   = "score"
)

// verdictSite is where a reader found the verdict in the answer, and what could have been written
// there instead: the words that pass and fail, or a scale of scores.
type verdictSite struct {
	off, n int // the verdict's word or number: its bytes in the answer
	words  *logprob.Words
	pass   bool // the word read passes
	number string
	scale  *logprob.Scale
	// unsupported says why this verdict cannot be weighed (a JSON field read through a list).
	unsupported string
	_           [0]func() // not comparable: no equality function in the wasm
}

// yesNoWords are the words of a yes or no verdict.
var yesNoWords = &logprob.Words{Pass: []string{"yes"}, Fail: []string{"no"}}

// gradeWords are the words of a JSON grade read with output.Bool (pairwise's faithfulness): what
// it reads as true, as false, and as not measurable.
var gradeWords = &logprob.Words{Pass: []string{"true", "1", "yes"}, Fail: []string{"false", "0", "no"}, Neutral: []string{"null", "none", "n/a"}}

// ParseWeighed is Parse with the verdict weighed by the answer's logprobs: logprobs is
// choices[0].logprobs.content of the chat completion that wrote answer (or choices[0].logprobs),
// as the value package represents JSON; nil when the endpoint gave none. The verdict is the one
// Parse reads; Confidence is set, or nil with ConfidenceReason and a confidence.* warning saying
// why. Logprobs are part of what the endpoint answered, so like the answer they never make it
// fail: a list of a wrong shape is confidence.bad-logprobs, with the path of the first bad value.
func (p *Prepared) ParseWeighed(answer string, logprobs any) *Verdict {
	v := p.Parse(answer)
	c, prob := weigh(p.e, v, answer, logprobs)
	if prob != nil {
		v.ConfidenceReason = prob.Msg
		check := diag.Warn(prob.Code, "no confidence: "+prob.Msg)
		if s := v.site; s != nil && s.n > 0 && prob.Code != diag.ConfidenceBadLogprobs && prob.Code != diag.ConfidenceNone {
			check = check.AtOffset(answer, s.off, s.n)
		}
		v.Checks = append(v.Checks, check)
	}
	v.Confidence = c
	return v
}

// weigh is v's confidence, or why there is none.
func weigh(e *Evaluator, v *Verdict, answer string, logprobs any) (*Confidence, *logprob.Problem) {
	tokens, prob := logprob.Read(logprobs)
	if prob != nil {
		return nil, prob
	}
	if len(tokens) == 0 {
		return nil, &logprob.Problem{Code: diag.ConfidenceNone, Msg: "the endpoint gave no logprobs (ask with logprobs: true and top_logprobs: 20; OpenAI's reasoning models refuse them)"}
	}
	s := v.site
	switch {
	case e.noConfidence != "":
		return nil, &logprob.Problem{Code: diag.ConfidenceUnsupported, Msg: e.noConfidence}
	case s != nil && s.unsupported != "":
		return nil, &logprob.Problem{Code: diag.ConfidenceUnsupported, Msg: s.unsupported}
	case s == nil && (v.Passed != nil || v.Score != nil):
		return nil, &logprob.Problem{Code: diag.ConfidenceUnsupported, Msg: "the verdict was not read from one place of the answer"}
	case s == nil || s.words != nil && v.Passed == nil || s.scale != nil && v.Score == nil:
		return nil, &logprob.Problem{Code: diag.ConfidenceNoVerdict, Msg: "the verdict is undetermined: there is no verdict to weigh"}
	}
	a := logprob.Align(answer, tokens)
	if s.words != nil {
		w, prob := a.WeighWords(s.off, *s.words, s.pass)
		if prob != nil {
			return nil, prob
		}
		return &Confidence{Kind: ConfidenceVerdict, PPass: verdictScore(w.PPass), PFail: verdictScore(w.PFail), Mass: w.Mass, Token: tokenOf(w.At)}, nil
	}
	w, prob := a.WeighScore(s.off, s.number, *s.scale)
	if prob != nil {
		return nil, prob
	}
	c := &Confidence{Kind: ConfidenceScore, Mass: w.Mass, ExpectedScore: verdictScore(w.Expected), Distribution: w.Dist, Token: tokenOf(w.At)}
	if s.scale.HasAt {
		c.PPass, c.PFail = verdictScore(w.PPass), verdictScore(w.PFail)
	}
	return c, nil
}

func tokenOf(at *logprob.Located) ConfidenceToken {
	return ConfidenceToken{Index: at.Index, Text: at.Token.Text, Logprob: at.Token.Logprob}
}

// wordSite is the site of a verdict word read at answer[off:off+n].
func wordSite(off, n int, words *logprob.Words, pass bool) *verdictSite {
	return &verdictSite{off: off, n: n, words: words, pass: pass}
}

// scoreSite is the site of a score written number at off on a reader's scale lo..hi; a scale
// that is not of whole numbers cannot be weighed by its tokens.
func scoreSite(off int, number string, lo, hi, passAt float64, hasAt bool) *verdictSite {
	s := &verdictSite{off: off, n: len(number), number: number}
	if lo != math.Trunc(lo) || hi != math.Trunc(hi) || hi-lo > 1e6 {
		s.unsupported = "the scale " + formatNumber(lo) + " to " + formatNumber(hi) + " is not of whole numbers: a score's first token is not the score"
		return s
	}
	s.scale = &logprob.Scale{Lo: int(lo), Hi: int(hi), PassAt: passAt, HasAt: hasAt}
	return s
}

// labelWords are a label reader's words by what each label says of passed.
func labelWords(labels *value.Object) *logprob.Words {
	w := &logprob.Words{}
	for _, l := range labels.Keys() {
		switch passed, isBool := get(labels, l).(bool); {
		case !isBool:
			w.Neutral = append(w.Neutral, normLabel(l))
		case passed:
			w.Pass = append(w.Pass, normLabel(l))
		default:
			w.Fail = append(w.Fail, normLabel(l))
		}
	}
	return w
}

// jsonWords are a json reader's words: its pass values and its fail values as a judge writes
// them (the readings containsValue allows: true, 1, "true" and "1" are one), with null as
// neutral. Without fail_values, any other value fails, so only pass values that are all of one
// boolean have words that fail (the other boolean); for others it says why not.
func jsonWords(passValues, failValues []any) (*logprob.Words, string) {
	w := &logprob.Words{Neutral: []string{"null"}}
	for _, x := range passValues {
		w.Pass = append(w.Pass, valueWords(x)...)
	}
	if len(w.Pass) == 0 {
		return nil, "the reader has no pass value a judge writes as a word or number"
	}
	if failValues != nil {
		for _, x := range failValues {
			w.Fail = append(w.Fail, valueWords(x)...)
		}
		return w, ""
	}
	var truth, falsity bool
	for _, x := range w.Pass {
		switch x {
		case "true", "1":
			truth = true
		case "false", "0":
			falsity = true
		default:
			return nil, "the reader's pass values are not booleans and it has no fail_values: which first tokens would fail is not known"
		}
	}
	switch {
	case truth && !falsity:
		w.Fail = []string{"false", "0"}
	case falsity && !truth:
		w.Fail = []string{"true", "1"}
	default:
		return nil, "the reader passes both true and false"
	}
	return w, ""
}

// valueWords are the words a judge writes a JSON pass or fail value with.
func valueWords(x any) []string {
	var s string
	switch v := x.(type) {
	case bool:
		s = "false"
		if v {
			s = "true"
		}
	case string:
		s = normLabel(v)
	case nil:
		return nil
	default:
		if f, ok := jsonNumber(v); ok {
			s = formatNumber(f)
		}
	}
	switch s {
	case "true", "1":
		return []string{"true", "1"}
	case "false", "0":
		return []string{"false", "0"}
	case "":
		return nil
	}
	return []string{s}
}

// valueSite is the site of the JSON value at off in answer: for a text, its first character past
// the opening quote and white space, as a model writes the word after the quote's token.
func valueSite(answer string, off int) (start, n int) {
	if off >= len(answer) {
		return off, 0
	}
	end := off
	if r, size := utf8.DecodeRuneInString(answer[off:]); strings.ContainsRune("\"'“‘", r) {
		off += size
		for off < len(answer) && (answer[off] == ' ' || answer[off] == '\t') {
			off++
		}
		end = off
		for end < len(answer) && !strings.ContainsRune("\"'”’\n", rune(answer[end])) {
			end++
		}
	} else {
		for end < len(answer) && !strings.ContainsRune(",}] \t\r\n", rune(answer[end])) {
			end++
		}
	}
	return off, end - off
}

// fieldSite is the site of the value at path in a json reader's payload p, for a path of keys
// that picks one value; nil with a reason when the value is not one place of the answer.
func fieldSite(answer string, p *output.Payload, path string) (*verdictSite, string) {
	if strings.Contains(path, "[") {
		return nil, "the verdict is read through a list (" + path + "): it is not one token of the answer"
	}
	o := p.Object
	steps := strings.Split(strings.TrimPrefix(path, "$."), ".")
	for k, step := range steps {
		key, v, ok := output.FieldKey(o, step)
		if !ok {
			break
		}
		if k < len(steps)-1 {
			if o, ok = v.(*value.Object); ok {
				continue
			}
			break
		}
		if off, ok := p.ValueAt(o, key); ok {
			start, n := valueSite(answer, off)
			return &verdictSite{off: start, n: n}, ""
		}
	}
	return nil, "the verdict's value at " + path + " was not read from one place of the answer"
}
