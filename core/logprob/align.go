package logprob

import (
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
)

// Aligned is a list of tokens laid over the answer they wrote, so that a byte offset in the
// answer (where a reader found the verdict) names a token.
//
// The tokens' texts, one after the other, are meant to be the answer. They may differ from it
// where the caller or the endpoint changed something: white space trimmed at either end,
// reasoning the endpoint sent apart put before the answer, a character split across tokens
// that an endpoint printed as U+FFFD (vLLM without bytes). So the two are matched from the start
// and from the end: a token inside the common prefix, or inside the common suffix, is the
// answer's text at the same place; a verdict in the part where the two differ has no token.
type Aligned struct {
	tokens []Token
	starts []int  // starts[k] is token k's byte offset in text; starts[len(tokens)] = len(text)
	text   string // the tokens' texts joined
	answer string
	prefix int // bytes the two have in common from the start
	suffix int // bytes they have in common from the end, not overlapping the prefix
}

// Align lays tokens over answer.
func Align(answer string, tokens []Token) *Aligned {
	a := &Aligned{tokens: tokens, starts: make([]int, len(tokens)+1), answer: answer}
	n := 0
	for _, t := range tokens {
		n += len(t.Text)
	}
	b := make([]byte, 0, n)
	for k, t := range tokens {
		a.starts[k] = len(b)
		b = append(b, t.Text...)
	}
	a.starts[len(tokens)] = len(b)
	a.text = string(b)
	m := min(len(a.text), len(answer))
	for a.prefix < m && a.text[a.prefix] == answer[a.prefix] {
		a.prefix++
	}
	for a.suffix < m-a.prefix && a.text[len(a.text)-1-a.suffix] == answer[len(answer)-1-a.suffix] {
		a.suffix++
	}
	return a
}

// Located is the token where a verdict begins.
type Located struct {
	Index int    // its index in the tokens
	Lead  string // the token's bytes before the verdict's first byte (a space, a quote, "**")
	Token Token
}

// At finds the token that holds the answer's byte off, which must be where a word or number
// begins, with nothing but punctuation and white space before it in its token (" Yes", "\"yes",
// "**4"): a word that begins inside a token ("xYes") has no token of its own to weigh.
func (a *Aligned) At(off int) (*Located, *Problem) {
	if len(a.tokens) == 0 {
		return nil, problem(diag.ConfidenceNone, "there are no logprobs: the endpoint gave none (ask with logprobs: true and top_logprobs: 20; reasoning models refuse them)")
	}
	var t int // off in the tokens' text
	inPrefix := off < a.prefix
	switch {
	case inPrefix:
		t = off
	case off >= len(a.answer)-a.suffix && off < len(a.answer):
		t = off + len(a.text) - len(a.answer)
	default:
		return nil, a.mismatch(off)
	}
	// The token holding byte t: the last whose start is at most t.
	lo, hi := 0, len(a.tokens)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if a.starts[mid] <= t {
			lo = mid
		} else {
			hi = mid
		}
	}
	s, e := a.starts[lo], a.starts[lo+1]
	if inPrefix && e > a.prefix || !inPrefix && s < len(a.text)-a.suffix {
		return nil, a.mismatch(off)
	}
	lead := a.text[s:t]
	for _, r := range lead {
		if isWordRune(r) {
			return nil, problem(diag.ConfidenceNoToken, "the verdict at %s begins inside the token %s (logprobs[%d]), not at its start: that token's alternatives are not alternatives to the verdict",
				diag.LineCol(a.answer, off), quoteToken(a.tokens[lo].Text), lo)
		}
	}
	return &Located{Index: lo, Lead: lead, Token: a.tokens[lo]}, nil
}

// mismatch is the problem of a verdict at off where the tokens' text is not the answer's.
func (a *Aligned) mismatch(off int) *Problem {
	if len(a.text) > 0 && a.prefix == 0 && a.suffix == 0 {
		return problem(diag.ConfidenceMismatch, "the logprobs' tokens do not write this answer (they differ from its first and its last byte): they belong to another answer")
	}
	if a.prefix == len(a.text) {
		return problem(diag.ConfidenceMismatch, "the logprobs' tokens end at %s, before the verdict at %s: the last part of the answer came without logprobs",
			diag.LineCol(a.answer, a.prefix), diag.LineCol(a.answer, off))
	}
	at := a.prefix
	return problem(diag.ConfidenceMismatch, "the logprobs' tokens write another text than the answer from %s on, and the verdict at %s is in the part where the two differ",
		diag.LineCol(a.answer, at), diag.LineCol(a.answer, off))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// firstWordRune returns the offset of the first letter or digit of s, or len(s).
func firstWordRune(s string) int {
	for i, r := range s {
		if isWordRune(r) {
			return i
		}
	}
	return len(s)
}

// runeAt is the rune at s[i:], or utf8.RuneError past the end.
func runeAt(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}
