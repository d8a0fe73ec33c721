package logprob

import (
	"math"
	"testing"

	"ragjudge/core/value"
)

// FuzzRead reads any JSON text as logprobs: never a panic, and a list read has only finite log
// probabilities at most 0, whose alternatives add up to little more than 1; a list refused has a
// problem with a code and a message.
func FuzzRead(f *testing.F) {
	for _, s := range []string{openAIYes, `null`, `[]`, `{"content": null}`, `[{"token": "a", "logprob": 0.5}]`,
		`[{"token": "a", "logprob": -1, "bytes": [97, 300]}]`, `[{"token": "x", "logprob": -9999.0, "top_logprobs": [{"token": "x", "logprob": -9999.0}]}]`,
		`[{"token": " 4", "logprob": -0.2, "bytes": [32, 52], "top_logprobs": [{"token": " 4", "logprob": -0.2}, {"token": " 3", "logprob": -1.9}], "id": 19}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := value.Decode([]byte(text))
		if err != nil {
			return
		}
		tokens, p := Read(v)
		if p != nil {
			if p.Code == "" || p.Msg == "" || tokens != nil {
				t.Fatalf("a refusal without its code or message, or with tokens: %+v", p)
			}
			return
		}
		for _, tk := range tokens {
			sum := 0.0
			for _, a := range append([]Alt{{Text: tk.Text, Logprob: tk.Logprob}}, tk.Top...) {
				if !(a.Logprob <= 0) || math.IsInf(a.Logprob, 0) {
					t.Fatalf("logprob %v read", a.Logprob)
				}
			}
			for _, a := range tk.Top {
				sum += math.Exp(a.Logprob)
			}
			if sum > 1+sumSlack {
				t.Fatalf("alternatives adding up to %v read", sum)
			}
		}
	})
}

// fuzzVocab is what the alternatives of FuzzWeigh's tokens are made of: verdict words in their
// variants, pieces of words, numbers, markup.
var fuzzVocab = []string{"Yes", " yes", "YES", "Y", " N", "no", "No.", "not", "partially", " grounded", "4", " 10", "1", "0", "**", "\"", "\n", "", "\xe2\x80", "The"}

// FuzzWeigh cuts answer into tokens where cuts says, gives each token alternatives chosen and
// weighted by cuts, and weighs a verdict word and a score at byte off: never a panic; a weight has
// shares in [0, 1] that add up to 1, a mass from Floor to 1, an expected score on the scale and a
// token that holds off; no weight has a problem with a code and a message.
func FuzzWeigh(f *testing.F) {
	f.Add("Yes", []byte{3, 0x41, 0x22}, uint16(0))
	f.Add("Answer: Yes", []byte{6, 1, 4, 0x13, 0x80, 0x05}, uint16(8))
	f.Add("Score: 4", []byte{7, 1, 0x0a, 0x9b, 0x0c}, uint16(7))
	f.Add("<think>yes</think>\nNo", []byte{7, 3, 8, 1, 2, 0x66, 0x15}, uint16(19))
	f.Add("“fine” yes", []byte{1, 2, 1, 3, 4, 0x50}, uint16(9))
	f.Fuzz(func(t *testing.T, answer string, cuts []byte, off uint16) {
		var tokens []Token
		at := 0
		for k := 0; at < len(answer) && k < len(cuts); k++ {
			n := min(int(cuts[k]&0x0f), len(answer)-at)
			tk := Token{Text: answer[at : at+n], Logprob: -float64(cuts[k]>>4) / 4}
			at += n
			// The next byte, when there is one, chooses alternatives: its low bits how many,
			// its high bits from where in the vocabulary.
			if k+1 < len(cuts) {
				c := cuts[k+1]
				share := 1.0
				for j := 0; j < int(c&7); j++ {
					share /= 2
					tk.Top = append(tk.Top, Alt{Text: fuzzVocab[(int(c>>3)+j)%len(fuzzVocab)], Logprob: math.Log(share)})
				}
			}
			tokens = append(tokens, tk)
		}
		a := Align(answer, tokens)
		words := Words{Pass: []string{"yes", "grounded"}, Fail: []string{"no", "not grounded"}, Neutral: []string{"partially grounded"}}
		o := int(off)
		if w, p := a.WeighWords(o, words, off%2 == 0); p != nil {
			problemOK(t, p)
		} else {
			share(t, w.PPass, w.PFail, w.Mass)
			holds(t, a, w.At, o)
		}
		if w, p := a.WeighScore(o, "4", Scale{Lo: 1, Hi: 10, PassAt: 4, HasAt: true}); p != nil {
			problemOK(t, p)
		} else {
			share(t, w.PPass, w.PFail, w.Mass)
			holds(t, a, w.At, o)
			if !(w.Expected >= 1 && w.Expected <= 10) {
				t.Fatalf("expected score %v off the scale", w.Expected)
			}
			total := 0.0
			for _, d := range w.Dist {
				total += d.P
			}
			if math.Abs(total-1) > 1e-9 {
				t.Fatalf("a distribution adding up to %v", total)
			}
		}
	})
}

func problemOK(t *testing.T, p *Problem) {
	t.Helper()
	if p.Code == "" || p.Msg == "" {
		t.Fatalf("a problem without its code or message: %+v", p)
	}
}

func share(t *testing.T, pass, fail, mass float64) {
	t.Helper()
	if !(pass >= 0 && pass <= 1 && fail >= 0 && fail <= 1) || math.Abs(pass+fail-1) > 1e-9 || !(mass >= Floor && mass <= 1) {
		t.Fatalf("p_pass %v, p_fail %v, mass %v", pass, fail, mass)
	}
}

// holds checks that the token found holds the answer's byte off.
func holds(t *testing.T, a *Aligned, at *Located, off int) {
	t.Helper()
	if at == nil || at.Index < 0 || at.Index >= len(a.tokens) {
		t.Fatalf("no token found for %d", off)
	}
	if off >= len(a.answer) {
		t.Fatalf("a token found past the answer's end (%d of %d)", off, len(a.answer))
	}
}
