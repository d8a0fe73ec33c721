// Package logprob reads the token log probabilities an OpenAI-compatible chat completion gives
// with `logprobs: true, top_logprobs: N` (choices[0].logprobs.content), finds the token where a
// judge's verdict word or score begins, and weighs the verdict by the probabilities of the words
// (or numbers) the model could have written there: how sure the judge was.
//
// The rule (docs/ARCHITECTURE.md, "Confidence") is never to pass the top token off as certainty:
// wherever the weighing cannot be done honestly (no logprobs, no alternatives at the verdict's
// token, tokens that are not the answer's text, a first token that begins both a passing and a
// failing word, too little probability on the verdict words) there is no confidence, and a
// Problem with a stable code says why.
package logprob

import (
	"math"
	"strconv"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// Token is one token the model wrote, with the alternatives the endpoint listed at its position.
type Token struct {
	// Text is the token's bytes: its "bytes" when the endpoint gave them (a character split
	// across tokens is whole only in the bytes), else its "token" text.
	Text    string
	Logprob float64
	Top     []Alt
}

// Alt is one of the most likely tokens at a position (top_logprobs).
type Alt struct {
	Text    string
	Logprob float64
	_       [0]func() // not comparable: no equality function in the wasm
}

// Problem is why there is no confidence: a check code and the reason in words.
type Problem struct {
	Code diag.Code
	Msg  string
	_    [0]func() // not comparable: no equality function in the wasm
}

func problem(code diag.Code, format string, args ...any) *Problem {
	return &Problem{Code: code, Msg: diag.Sprintf(format, args...)}
}

// maxTokens bounds the tokens read: far more than any judge's answer (output.MaxAnswer is
// 16 MiB), so that a hostile list is refused rather than walked.
const maxTokens = 1 << 22

// sumSlack is how far above 1 the probabilities listed at one position may add up before they
// are refused as not one distribution: endpoints round log probabilities (to float32, or to a
// few decimals), which can lift a sum of 20 of them a little past 1, never by a hundredth.
const sumSlack = 0.01

// Read reads the logprobs of a chat completion's first choice, as the value package represents
// JSON: the list choices[0].logprobs.content, or the object choices[0].logprobs holding it (its
// other keys, such as "refusal", are left alone). null, an empty list and a null content are no
// tokens (nil, nil). Every token is {token, logprob, bytes?, top_logprobs?}, each alternative
// {token, logprob, bytes?}; other keys (llama.cpp's "id") are ignored.
//
// Anything else is refused whole, with the path of the first bad value: a token or alternative
// that is not an object, a token that is not a text, a logprob that is not a finite number ≤ 0
// (vLLM and OpenAI write −9999 for a probability too small to print, which is read as 0),
// bytes that are not a list of integers 0..255, alternatives whose probabilities add up to more
// than 1. Nothing of a refused list is used.
func Read(v any) ([]Token, *Problem) {
	if o, ok := v.(*value.Object); ok {
		c, has := o.Get("content")
		if !has {
			return nil, problem(diag.ConfidenceBadLogprobs, "logprobs is an object without \"content\": give choices[0].logprobs.content (or choices[0].logprobs)")
		}
		v = c
	}
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, problem(diag.ConfidenceBadLogprobs, "logprobs must be choices[0].logprobs.content, a list of tokens, got %s", value.TypeName(v))
	}
	if len(list) > maxTokens {
		return nil, problem(diag.ConfidenceBadLogprobs, "logprobs has %s tokens, more than the %s read", diag.Thousands(len(list)), diag.Thousands(maxTokens))
	}
	tokens := make([]Token, len(list))
	for k, item := range list {
		o, ok := item.(*value.Object)
		if !ok {
			return nil, problem(diag.ConfidenceBadLogprobs, "%s must be a token, {token, logprob, bytes, top_logprobs}, got %s", path(k, -1), value.TypeName(item))
		}
		t := &tokens[k]
		var p *Problem
		if t.Text, t.Logprob, p = entry(o, k, -1); p != nil {
			return nil, p
		}
		top, _ := o.Get("top_logprobs")
		if top == nil {
			continue
		}
		alts, ok := top.([]any)
		if !ok {
			return nil, problem(diag.ConfidenceBadLogprobs, "%s.top_logprobs must be a list, got %s", path(k, -1), value.TypeName(top))
		}
		t.Top = make([]Alt, len(alts))
		sum := 0.0
		for j, a := range alts {
			ao, ok := a.(*value.Object)
			if !ok {
				return nil, problem(diag.ConfidenceBadLogprobs, "%s must be {token, logprob, bytes}, got %s", path(k, j), value.TypeName(a))
			}
			if t.Top[j].Text, t.Top[j].Logprob, p = entry(ao, k, j); p != nil {
				return nil, p
			}
			sum += math.Exp(t.Top[j].Logprob)
		}
		listed := false
		for _, a := range t.Top {
			listed = listed || a.Text == t.Text
		}
		if !listed && len(t.Top) > 0 {
			sum += math.Exp(t.Logprob) // the chosen token, which the weighing adds
		}
		if sum > 1+sumSlack {
			return nil, problem(diag.ConfidenceBadLogprobs, "%s.top_logprobs (and the token itself, when they leave it out) add up to a probability of %s, more than 1: they are not the log probabilities of one position", path(k, -1), strconv.FormatFloat(sum, 'g', 4, 64))
		}
	}
	return tokens, nil
}

// path is where a token (j < 0) or its alternative j is, for a message; made only for one.
func path(k, j int) string {
	at := "logprobs[" + strconv.Itoa(k) + "]"
	if j >= 0 {
		at += ".top_logprobs[" + strconv.Itoa(j) + "]"
	}
	return at
}

// entry reads the token text and log probability of token k, or of its alternative j (j ≥ 0).
func entry(o *value.Object, k, j int) (string, float64, *Problem) {
	tv, _ := o.Get("token")
	text, ok := tv.(string)
	if !ok {
		return "", 0, problem(diag.ConfidenceBadLogprobs, "%s.token must be a text, got %s", path(k, j), value.TypeName(tv))
	}
	lv, _ := o.Get("logprob")
	var lp float64
	switch x := lv.(type) {
	case int64:
		lp = float64(x)
	case float64:
		lp = x
	default:
		return "", 0, problem(diag.ConfidenceBadLogprobs, "%s.logprob must be a number, got %s", path(k, j), value.TypeName(lv))
	}
	switch {
	case math.IsNaN(lp) || math.IsInf(lp, 0):
		return "", 0, problem(diag.ConfidenceBadLogprobs, "%s.logprob is %s, not a finite number", path(k, j), strconv.FormatFloat(lp, 'g', -1, 64))
	case lp > 0:
		return "", 0, problem(diag.ConfidenceBadLogprobs, "%s.logprob is %s: a log probability is at most 0", path(k, j), strconv.FormatFloat(lp, 'g', -1, 64))
	}
	bv, _ := o.Get("bytes")
	if bv == nil {
		return text, lp, nil
	}
	list, ok := bv.([]any)
	if !ok {
		return "", 0, problem(diag.ConfidenceBadLogprobs, "%s.bytes must be a list of byte values (0 to 255) or null, got %s", path(k, j), value.TypeName(bv))
	}
	b := make([]byte, len(list))
	for i, x := range list {
		n, ok := x.(int64)
		if !ok || n < 0 || n > 255 {
			return "", 0, problem(diag.ConfidenceBadLogprobs, "%s.bytes[%d] must be a byte value, 0 to 255, got %s", path(k, j), i, show(x))
		}
		b[i] = byte(n)
	}
	return string(b), lp, nil
}

// show is a bad value as a message quotes it.
func show(x any) string {
	switch v := x.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return value.TypeName(x)
}

// quoteToken quotes a token's text for a message: Go's quoting, which shows a split character's
// bytes as \x escapes and white space as \n, cut to 40 characters.
func quoteToken(s string) string { return diag.Quote(diag.Clip(s, 40)) }
