package logprob

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
)

// Floor is the least probability the verdict words (or the scale's numbers) must hold together at
// the verdict's token for their shares to be a confidence. Below it the model was mostly about to
// write something else there (another word, markup, a longer phrase), and the share between the
// few verdict words it might also have written describes a minority of what it would do: a
// ratio of two small numbers, not how sure it was (docs/ARCHITECTURE.md, "Confidence").
const Floor = 0.5

// unlistedVariants is how many tokens of the verdict words an endpoint may have left out of a
// top-N list: the case, spacing and prefix variants of a word ("no", " no", "No", " No", "NO",
// " NO", "N", " N"). Each has at most the probability of the least likely token listed.
const unlistedVariants = 8

// maxUnlisted is how far the shares may be moved by what the list leaves out before they are no
// confidence: a tenth.
const maxUnlisted = 0.1

// Words are the words a verdict may be, in lower case with single spaces: those that pass, those
// that fail, and those that say neither (a neutral label, a null grade). A first token that
// begins words of two of the three says nothing about which, and counts for none.
type Words struct {
	Pass, Fail, Neutral []string
}

// The classes of a token at the verdict's position.
const (
	other = iota
	classPass
	classFail
	classNeutral
	ambiguous
)

// WordWeight is a pass or fail verdict weighed: the probabilities of the passing and failing
// words' first tokens at the verdict's token, renormalised over the two (PPass + PFail = 1), and
// Mass, the probability they held before (at least Floor).
type WordWeight struct {
	PPass, PFail, Mass float64
	At                 *Located
	_                  [0]func() // not comparable: no equality function in the wasm
}

// WeighWords weighs the verdict that begins at the answer's byte off, a word of w.Pass when pass
// is true, else of w.Fail. Each token listed at that position (its top_logprobs, and the token
// itself when they leave it out) counts for the words it begins, compared in lower case past
// leading white space and punctuation: " Yes", "yes", "YES" and "Y" all begin "yes" (tokenizers
// split words differently: "Y"+"es"); a token that is a whole word followed by punctuation
// ("no.") counts too.
func (a *Aligned) WeighWords(off int, w Words, pass bool) (*WordWeight, *Problem) {
	loc, p := a.At(off)
	if p != nil {
		return nil, p
	}
	alts, p := candidates(loc)
	if p != nil {
		return nil, p
	}
	want := classFail
	if pass {
		want = classPass
	}
	switch c := classify(wordKey(loc.Token.Text), w); {
	case c == ambiguous:
		return nil, problem(diag.ConfidenceAmbiguous, "the verdict's first token %s (logprobs[%d]) begins both a passing and a failing word (or a neutral one): its probability cannot be told apart",
			quoteToken(loc.Token.Text), loc.Index)
	case c != want:
		return nil, problem(diag.ConfidenceNoToken, "the token %s (logprobs[%d]) at the verdict does not begin the verdict's word", quoteToken(loc.Token.Text), loc.Index)
	}
	var pp, pf float64
	for _, alt := range alts {
		switch classify(wordKey(alt.Text), w) {
		case classPass:
			pp += math.Exp(alt.Logprob)
		case classFail:
			pf += math.Exp(alt.Logprob)
		}
	}
	mass := pp + pf
	if p := unlisted(loc, alts, mass); p != nil {
		return nil, p
	}
	if p := lowMass(mass, "the passing and failing words", loc); p != nil {
		return nil, p
	}
	return &WordWeight{PPass: pp / mass, PFail: pf / mass, Mass: min(mass, 1), At: loc}, nil
}

// Scale is a score reader's scale: whole numbers from Lo to Hi, and the score that passes.
type Scale struct {
	Lo, Hi int
	PassAt float64
	HasAt  bool
	_      [0]func() // not comparable: no equality function in the wasm
}

// ScoreP is one score and its probability.
type ScoreP struct {
	Score int       `json:"score"`
	P     float64   `json:"p"`
	_     [0]func() // not comparable: no equality function in the wasm
}

// ScoreWeight is a score weighed, as G-Eval weighs it: the probabilities of the scale's numbers
// at the score's token, renormalised over them (Dist, by ascending score, the scores listed only);
// Expected = Σ p·s; with a passing score, PPass = Σ p over the scores that pass. Mass is the
// probability the scale's numbers held before (at least Floor).
type ScoreWeight struct {
	Expected     float64
	Dist         []ScoreP
	PPass, PFail float64
	Mass         float64
	At           *Located
}

// maxScoreDigits bounds the numbers read as scores.
const maxScoreDigits = 6

// WeighScore weighs the score written number (as the reader read it: "4") at the answer's byte
// off, on scale sc. A token counts for a score of the scale when it is that whole number, past
// leading white space, quotes and emphasis, and followed by nothing or by punctuation that is not
// a decimal point before a digit. The score must be one token: a decimal ("4.5") or a number a
// tokenizer split ("1"+"0") has no token whose alternatives are the other scores. On a scale past
// 9, a single digit may be the first of two ("1" of "10") with tokenizers that write one digit a
// token (Qwen's, Llama 2's): the weighing needs to see a number of two digits or more in one token
// (the score itself, an alternative, or any token of the answer), else it is ambiguous.
func (a *Aligned) WeighScore(off int, number string, sc Scale) (*ScoreWeight, *Problem) {
	if sc.Lo < 0 {
		return nil, problem(diag.ConfidenceUnsupported, "the scale %d to %d goes below 0: only scales of whole numbers from 0 up are weighed", sc.Lo, sc.Hi)
	}
	loc, p := a.At(off)
	if p != nil {
		return nil, p
	}
	if !allDigits(number) {
		return nil, problem(diag.ConfidenceNoToken, "the score %s is not a whole number: its first token is not the score, and no alternatives to it can be weighed", quoteToken(number))
	}
	if chosen, _ := scoreKey(loc.Token.Text); chosen != canon(number) {
		return nil, problem(diag.ConfidenceNoToken, "the score %s is written over several tokens (the first is %s, logprobs[%d]): no token holds it whole",
			number, quoteToken(loc.Token.Text), loc.Index)
	}
	alts, p := candidates(loc)
	if p != nil {
		return nil, p
	}
	if sc.Hi >= 10 && !a.digitPairs(alts) {
		return nil, problem(diag.ConfidenceAmbiguous, "on a scale to %d, the token %s may be the first digit of a longer number, and nothing shows this tokenizer writes two digits in one token", sc.Hi, quoteToken(loc.Token.Text))
	}
	var byScore []ScoreP
	mass := 0.0
	for _, alt := range alts {
		d, ok := scoreKey(alt.Text)
		if !ok || len(d) > maxScoreDigits {
			continue
		}
		s, _ := exact.Atoi(d)
		if s < sc.Lo || s > sc.Hi {
			continue
		}
		pr := math.Exp(alt.Logprob)
		mass += pr
		byScore = addScore(byScore, s, pr)
	}
	if p := unlisted(loc, alts, mass); p != nil {
		return nil, p
	}
	if p := lowMass(mass, "the scale's numbers", loc); p != nil {
		return nil, p
	}
	w := &ScoreWeight{Dist: byScore, Mass: min(mass, 1), At: loc}
	for k := range byScore {
		byScore[k].P /= mass
		w.Expected += byScore[k].P * float64(byScore[k].Score)
		if sc.HasAt && float64(byScore[k].Score) >= sc.PassAt {
			w.PPass += byScore[k].P
		}
	}
	w.PFail = 1 - w.PPass
	return w, nil
}

// addScore adds probability p to score s in list, kept in ascending order of score.
func addScore(list []ScoreP, s int, p float64) []ScoreP {
	k := 0
	for k < len(list) && list[k].Score < s {
		k++
	}
	if k < len(list) && list[k].Score == s {
		list[k].P += p
		return list
	}
	list = append(list, ScoreP{})
	copy(list[k+1:], list[k:])
	list[k] = ScoreP{Score: s, P: p}
	return list
}

// candidates are the tokens listed at loc's position: its top_logprobs, and the token itself when
// they leave it out (OpenAI lists the most likely N; a token sampled outside them is only itself).
// Without top_logprobs there is nothing to weigh the token against: its own probability alone
// would be the silent top-token certainty this package refuses.
func candidates(loc *Located) ([]Alt, *Problem) {
	t := loc.Token
	if len(t.Top) == 0 {
		return nil, problem(diag.ConfidenceNoAlternatives, "the endpoint listed no top_logprobs at the verdict's token %s (logprobs[%d]): ask with top_logprobs (20) to weigh it against the other words",
			quoteToken(t.Text), loc.Index)
	}
	for _, alt := range t.Top {
		if alt.Text == t.Text {
			return t.Top, nil
		}
	}
	return append(t.Top[:len(t.Top):len(t.Top)], Alt{Text: t.Text, Logprob: t.Logprob}), nil
}

// unlisted is the problem of a list of alternatives too short to weigh mass against, or nil. What
// the list leaves out, 1 − Σ listed, may hold more verdict words, each no likelier than the least
// likely token listed (the list is the most likely N): at most b = min(1 − Σ, unlistedVariants ×
// that token's probability). Were all of b on one side, the shares would move by up to
// b / (mass + b); more than maxUnlisted is no confidence. A list of 20 leaves a few thousandths
// out; a list of one token at 0.6 leaves 0.4, which could all be the other word.
func unlisted(loc *Located, alts []Alt, mass float64) *Problem {
	sum, least := 0.0, 1.0
	for _, a := range alts {
		p := math.Exp(a.Logprob)
		sum += p
		least = min(least, p)
	}
	b := min(max(0, 1-sum), unlistedVariants*least)
	if b <= maxUnlisted*(mass+b) {
		return nil
	}
	return problem(diag.ConfidenceNoAlternatives, "the endpoint listed too few alternatives at the verdict's token %s (logprobs[%d]): %s of its probability is on tokens not listed, which could be verdict words and move the shares by up to %s; ask with top_logprobs (20)",
		quoteToken(loc.Token.Text), loc.Index, strconv.FormatFloat(1-min(sum, 1), 'g', 2, 64), strconv.FormatFloat(b/(mass+b), 'g', 2, 64))
}

// lowMass is the problem of a mass below Floor, or nil.
func lowMass(mass float64, what string, loc *Located) *Problem {
	if mass >= Floor {
		return nil
	}
	return problem(diag.ConfidenceLowMass, "%s hold only %s of the probability at the verdict's token %s (logprobs[%d]), less than %s: the model was mostly about to write something else there, so their shares are no confidence",
		what, strconv.FormatFloat(mass, 'g', 3, 64), quoteToken(loc.Token.Text), loc.Index, strconv.FormatFloat(Floor, 'g', -1, 64))
}

// wordKey is a token's text as words are compared: past leading white space and punctuation, in
// lower case.
func wordKey(s string) string {
	return strings.ToLower(s[firstWordRune(s):])
}

// classify is the class of the words key begins: one of the three, other when none, ambiguous
// when it begins words of two classes.
func classify(key string, w Words) int {
	if key == "" {
		return other
	}
	c := other
	for k, words := range [3][]string{w.Pass, w.Fail, w.Neutral} {
		for _, word := range words {
			if begins(key, word) {
				if c != other && c != k+1 {
					return ambiguous
				}
				c = k + 1
			}
		}
	}
	return c
}

// begins reports whether a token whose key is key begins word: key is a start of word ("y" of
// "yes"), or word followed by something that is not a letter or digit ("no.").
func begins(key, word string) bool {
	if len(key) <= len(word) {
		return strings.HasPrefix(word, key)
	}
	return strings.HasPrefix(key, word) && !isWordRune(runeAt(key, len(word)))
}

// scoreKey is the whole number a token's text is, past leading white space, quotes and
// emphasis, without leading zeros ("0" for zero); ok is false when the text is not one.
func scoreKey(s string) (string, bool) {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) && !strings.ContainsRune("\"'`*_#>:=([{“”‘’«", r) {
			break
		}
		i += size
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return "", false
	}
	if j < len(s) {
		r := runeAt(s, j)
		if isWordRune(r) || (r == '.' || r == ',') && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' {
			return "", false
		}
	}
	return canon(s[i:j]), true
}

// canon is a run of digits without its leading zeros, "0" for zero.
func canon(d string) string {
	if t := strings.TrimLeft(d, "0"); t != "" {
		return t
	}
	return "0"
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// digitPairs reports whether anything shows the tokenizer writes two digits in one token: an
// alternative at the score's position, or any token of the answer.
func (a *Aligned) digitPairs(alts []Alt) bool {
	for _, alt := range alts {
		if hasDigitPair(alt.Text) {
			return true
		}
	}
	for _, t := range a.tokens {
		if hasDigitPair(t.Text) {
			return true
		}
	}
	return false
}

func hasDigitPair(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' && s[i+1] >= '0' && s[i+1] <= '9' {
			return true
		}
	}
	return false
}
