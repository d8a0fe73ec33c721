package recall

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"ragjudge/core/exact"
)

// FuzzCompute parses "essential|bonus" lists of comma-separated scores and computes their recall:
// never a panic, and when there is a result it is in range with five lines ending in the final
// score as displayed.
func FuzzCompute(f *testing.F) {
	for _, s := range []string{"4,3|4,0", "4,4,3|0", "5,5|5", "1,2|", "|3", "3.5,4|2.5", "4/5|3 out of 5", "6|", "0|", "4|-1", "1e3|", "NaN|", ".5|"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, b, _ := strings.Cut(s, "|")
		essential, ok1 := parseList(e)
		bonus, ok2 := parseList(b)
		if !ok1 || !ok2 {
			return
		}
		r, err := Compute(essential, bonus)
		if err != nil {
			return
		}
		if r.Final.Cmp(ratFive) > 0 || r.Final.Cmp(ratOne) < 0 {
			t.Fatalf("final %s out of 1–5", r.Final.RatString())
		}
		for _, v := range []*exact.Rat{r.EssentialPart, r.BonusPart, r.Combined, r.Final} {
			if f := Float(v); math.IsNaN(f) || math.IsInf(f, 0) {
				t.Fatalf("Float(%s) = %v", v.RatString(), f)
			}
		}
		if want := "RECALL_Final_Score: " + Format(r.Stepped[LineFinal]); r.Lines[LineFinal] != want {
			t.Fatalf("last line %q, want %q", r.Lines[LineFinal], want)
		}
		// Rounding per step moves the chain by at most a hundredth, and the chain, like the
		// exact values, is right by Compare's rule.
		if d := new(exact.Rat).Sub(r.Stepped[LineFinal], r.Final); new(exact.Rat).Abs(d).Cmp(exact.NewRat(1, 100)) > 0 {
			t.Fatalf("stepped final %s is more than 0.01 from %s", Format(r.Stepped[LineFinal]), r.Final.RatString())
		}
		var exactLines [NumLines]*exact.Rat
		for i := range exactLines {
			exactLines[i] = r.Exact(i)
		}
		for _, stated := range [][NumLines]*exact.Rat{r.Stepped, exactLines} {
			for i, c := range r.Compare(stated) {
				if c != LineSame && c != LineRoundedPerStep {
					t.Fatalf("line %d of %v is %q", i, stated, c)
				}
			}
		}
	})
}

func parseList(s string) ([]*exact.Rat, bool) {
	if strings.TrimSpace(s) == "" {
		return nil, true
	}
	var out []*exact.Rat
	for _, x := range strings.Split(s, ",") {
		r, err := ParseScore(x)
		if err != nil {
			return nil, false
		}
		out = append(out, r)
	}
	return out, true
}

// FuzzReadAnswer reads any text as a judge's answer: never a panic, positions inside the text,
// and a resolution that either gives every passage a score in range or says why not.
func FuzzReadAnswer(f *testing.F) {
	for _, s := range []string{
		"• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: ... Score: 4 [BONUS PASSAGE] 1: ... Score: 0\n\n• RECALL_Final_Score: 4",
		"<think>Score: 1</think>**[ESSENTIAL PASSAGE] 1:**\n- **Score:** 4/5\nRECALL_Final_Score_Calculation: min(5, 4) = 4",
		"### Essential Passage 2\nScore = 3.5\n### Bonus passage #1\nScore (0-5): 6",
		"</think>Score: 3-4 Score: 3,5 Score: N/A Score:",
		"<think>", "[ESSENTIAL PASSAGE", "Score: 99999999999999999999999999999999999999999", "RECALL_Final_Score:\n(1",
		"é[Essential_Passage #3]ü Score：２",
	} {
		f.Add(s, 2, 1)
	}
	f.Fuzz(func(t *testing.T, s string, e, b int) {
		e, b = e%50, b%50
		if e < 0 {
			e = -e
		}
		if b < 0 {
			b = -b
		}
		a := ReadAnswer(s)
		lines := strings.Count(s, "\n") + 1
		check := func(line, col int) {
			if line < 1 || line > lines || col < 1 || col > utf8.RuneCountInString(s)+1 {
				t.Fatalf("position %d:%d outside the text", line, col)
			}
		}
		for _, sec := range a.Sections {
			check(sec.Line, sec.Col)
			for _, sc := range sec.Scores {
				check(sc.Line, sc.Col)
				if (sc.Value == nil) == (sc.Problem == "") {
					t.Fatalf("score %q: value %v, problem %q", sc.Text, sc.Value, sc.Problem)
				}
			}
		}
		es, bs, _, problems := a.Resolve(e, b)
		if len(problems) > 0 {
			if es != nil || bs != nil {
				t.Fatal("scores with problems")
			}
			return
		}
		if len(es) != e || len(bs) != b {
			t.Fatalf("got %d+%d scores, want %d+%d", len(es), len(bs), e, b)
		}
		if e > 0 {
			if _, err := Compute(values(es), values(bs)); err != nil {
				t.Fatalf("resolved scores do not compute: %v", err)
			}
		}
	})
}

// FuzzPassages splits any text: never a panic, one passage per marker, and each passage's text
// is a part of the input.
func FuzzPassages(f *testing.F) {
	for _, s := range []string{
		"Intro\n[ESSENTIAL PASSAGE]\nA\n\n[BONUS PASSAGE]\nB",
		"**[ESSENTIAL PASSAGE] 1:** a [BONUS PASSAGE #2] b",
		"[ESSENTIAL PASSAGE] 2023 was", "[essential_passage]", "[", "[ESSENTIAL PASSAGE 1234567]", "__[BONUS  PASSAGE]__",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, b := Passages(s)
		ne, nb := CountMarkers(s)
		if len(e) != ne || len(b) != nb {
			t.Fatalf("%d+%d passages, %d+%d markers", len(e), len(b), ne, nb)
		}
		for _, p := range append(e, b...) {
			if !strings.Contains(s, p) {
				t.Fatalf("passage %q is not in the text", p)
			}
		}
	})
}

// FuzzParseScore: never a panic, and a score it reads prints as a number.
func FuzzParseScore(f *testing.F) {
	for _, s := range []string{"4", "3.5", ".5", "4/5", "4 out of 5", "NaN", "-Inf", "1e3", "8/10", "4.", "+-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseScore(s)
		if err != nil {
			return
		}
		if _, ok := new(exact.Rat).SetString(Format(r)); !ok {
			t.Fatalf("%q read as %s, which prints as %q", s, r.RatString(), Format(r))
		}
	})
}
