// Package recall does the rag-recall evaluator's arithmetic exactly and reads what a judge writes
// for it: the passages of a ground truth (Passages), the per-passage scores and formula lines of a
// judge's answer (ReadAnswer), and the recall itself (Compute), shown in the seed prompt's own
// line format.
//
// The arithmetic is done with exact rationals so that 11/3 stays 11/3 until it is shown; only the
// display rounds (Format), half up to at most 2 decimals. The seed asks its judge to "only express
// decimals to a maximum of 2 decimal places (round up from 3)", so a judge rounds each line before
// it goes into the next: the seed-format lines (Result.Lines) are that chain, whose terms add up
// as written, and Compare tells a judge that rounded per step from one that erred. The score is
// the exact value.
package recall

import (
	"math"
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/value"
)

// The formula lines of the seed prompt, in the order it writes them. They index Result.Lines and
// Answer.Stated.
const (
	LineEssential = iota // RECALL_Essential_Formula
	LineBonus            // RECALL_Bonus_Formula
	LineCombined         // RECALL_Combined_Formula
	LineFinalCalc        // RECALL_Final_Score_Calculation
	LineFinal            // RECALL_Final_Score
	NumLines
)

// Labels are the seed's names of the formula lines, indexed by LineEssential … LineFinal.
var Labels = [NumLines]string{
	"RECALL_Essential_Formula",
	"RECALL_Bonus_Formula",
	"RECALL_Combined_Formula",
	"RECALL_Final_Score_Calculation",
	"RECALL_Final_Score",
}

// Result is a recall computed exactly from E essential and B bonus scores.
type Result struct {
	E, B      int
	Essential []*exact.Rat // the essential scores, as given
	Bonus     []*exact.Rat // the bonus scores, as given

	EssentialPart *exact.Rat // ΣE / E
	BonusPart     *exact.Rat // ΣB / (E·B·2), 0 when B = 0
	Combined      *exact.Rat // EssentialPart + BonusPart
	Final         *exact.Rat // min(5, Combined)

	// Stepped is the seed's chain with each line rounded half up to 2 decimals before it is used
	// in the next, as the seed asks its judge to write it, indexed by LineEssential … LineFinal:
	// for 11/3 and 1/6, 3.67 + 0.17 = 3.84 where the exact combined value is 23/6 (3.83).
	Stepped [NumLines]*exact.Rat

	// Lines are the five formula lines in the seed's format, indexed by LineEssential … LineFinal,
	// e.g. "RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5": the Stepped chain, whose terms add
	// up as written.
	Lines [NumLines]string
}

// Exact returns the exact value of formula line i (LineEssential … LineFinal).
func (r *Result) Exact(i int) *exact.Rat {
	return [NumLines]*exact.Rat{r.EssentialPart, r.BonusPart, r.Combined, r.Final, r.Final}[i]
}

var (
	ratZero = new(exact.Rat)
	ratOne  = exact.NewRat(1, 1)
	ratFive = exact.NewRat(5, 1)
)

// Compute computes the recall of the given scores: essential scores each in 1–5 (at least one),
// bonus scores each in 0–5 (possibly none). Errors are *diag.Error with Kind "recall" and say
// which score is wrong.
func Compute(essential, bonus []*exact.Rat) (*Result, error) {
	if len(essential) == 0 {
		return nil, &diag.Error{Kind: "recall", Msg: "no essential passage: the recall needs at least one essential score (E = 0)"}
	}
	for i, s := range essential {
		if err := CheckScore("essential", i+1, s); err != nil {
			return nil, err
		}
	}
	for i, s := range bonus {
		if err := CheckScore("bonus", i+1, s); err != nil {
			return nil, err
		}
	}
	r := &Result{
		E:         len(essential),
		B:         len(bonus),
		Essential: essential,
		Bonus:     bonus,
	}
	e := new(exact.Rat).SetInt64(int64(r.E))
	r.EssentialPart = new(exact.Rat).Quo(sum(essential), e)
	r.BonusPart = new(exact.Rat)
	if r.B > 0 {
		den := new(exact.Rat).SetInt64(int64(r.E) * int64(r.B) * 2)
		r.BonusPart.Quo(sum(bonus), den)
	}
	r.Combined = new(exact.Rat).Add(r.EssentialPart, r.BonusPart)
	r.Final = new(exact.Rat).Set(r.Combined)
	if r.Final.Cmp(ratFive) > 0 {
		r.Final.Set(ratFive)
	}

	st := &r.Stepped
	st[LineEssential] = Round2(r.EssentialPart)
	st[LineBonus] = Round2(r.BonusPart)
	st[LineCombined] = new(exact.Rat).Add(st[LineEssential], st[LineBonus]) // two 2-decimal terms: exact
	st[LineFinalCalc] = minFive(st[LineCombined])
	st[LineFinal] = st[LineFinalCalc]

	num := "0" // the seed writes an empty bonus sum as (0)
	if r.B > 0 {
		num = joinTerms(bonus)
	}
	r.Lines[LineEssential] = Labels[LineEssential] + ": (" + joinTerms(essential) + ") / " +
		strconv.Itoa(r.E) + " = " + Format(st[LineEssential])
	r.Lines[LineBonus] = Labels[LineBonus] + ": (" + num + ") / (" + strconv.Itoa(r.E) + " * " +
		strconv.Itoa(r.B) + " * 2) = " + Format(st[LineBonus])
	r.Lines[LineCombined] = Labels[LineCombined] + ": " + Format(st[LineEssential]) + " + " +
		Format(st[LineBonus]) + " = " + Format(st[LineCombined])
	r.Lines[LineFinalCalc] = Labels[LineFinalCalc] + ": min(5, " + Format(st[LineCombined]) + ") = " + Format(st[LineFinalCalc])
	r.Lines[LineFinal] = Labels[LineFinal] + ": " + Format(st[LineFinal])
	return r, nil
}

// minFive returns min(5, x), a new value.
func minFive(x *exact.Rat) *exact.Rat {
	if x.Cmp(ratFive) > 0 {
		return new(exact.Rat).Set(ratFive)
	}
	return new(exact.Rat).Set(x)
}

// LineCheck is how a judge's formula line compares with the recall (Compare).
type LineCheck string

// The results of Compare, one per formula line.
const (
	LineNotStated      LineCheck = ""                 // the judge wrote no readable value on that line
	LineSame           LineCheck = "same"             // equal to the exact value rounded to 2 decimals
	LineRoundedPerStep LineCheck = "rounded-per-step" // not the exact value, but right on the judge's own rounded terms
	LineDiffers        LineCheck = "differs"          // an arithmetic error
)

// Compare checks the judge's result on each formula line (stated, indexed by LineEssential …
// LineFinal; nil where the judge wrote none or it could not be read) against r.
//
// A line is LineSame when it equals the exact value at 2 decimals. Otherwise it is
// LineRoundedPerStep when it is what the seed's chain gives with each step rounded to 2
// decimals, on the judge's own terms: a division rounded (ΣE/E, ΣB/(E·B·2)); the sum of the
// judge's essential and bonus results (or, where the judge wrote none or a wrong one, of their
// rounded values); min(5, …) of the judge's combined result; the final score of its calculation
// line. "Rounded" is half up or up (the seed says "round up from 3", which reads either way):
// 1/3 may be written 0.33 or 0.34, never 0.3. Anything else is LineDiffers, and a line built on a
// wrong one differs too unless it happens to equal the exact value.
func (r *Result) Compare(stated [NumLines]*exact.Rat) [NumLines]LineCheck {
	var out [NumLines]LineCheck
	// carry[i] are the values a judge right so far carries from line i into the next: what it
	// wrote when that was right, else every value a right judge may have written there.
	var carry [NumLines][]*exact.Rat
	for i := range out {
		var want []*exact.Rat
		switch i {
		case LineEssential, LineBonus:
			want = rounded(r.Exact(i))
		case LineCombined:
			for _, e := range carry[LineEssential] {
				for _, b := range carry[LineBonus] {
					want = addRats(want, rounded(new(exact.Rat).Add(e, b))...)
				}
			}
		case LineFinalCalc:
			for _, c := range carry[LineCombined] {
				want = addRats(want, rounded(minFive(c))...)
			}
		case LineFinal:
			want = carry[LineFinalCalc]
		}
		st := stated[i]
		switch {
		case st == nil:
			out[i] = LineNotStated
		case Round2(st).Cmp(Round2(r.Exact(i))) == 0:
			out[i] = LineSame
		case containsRat(want, st) || containsRat(want, Round2(st)):
			out[i] = LineRoundedPerStep
		default:
			out[i] = LineDiffers
		}
		if out[i] == LineSame || out[i] == LineRoundedPerStep {
			carry[i] = []*exact.Rat{st}
		} else {
			carry[i] = addRats(want, Round2(r.Exact(i)))
		}
	}
	return out
}

// addRats adds to xs each of ys it does not hold yet.
func addRats(xs []*exact.Rat, ys ...*exact.Rat) []*exact.Rat {
	for _, y := range ys {
		if !containsRat(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}

// rounded returns x rounded to 2 decimals half up and up (one value when they agree).
func rounded(x *exact.Rat) []*exact.Rat {
	h, u := Round2(x), roundUp2(x)
	if h.Cmp(u) == 0 {
		return []*exact.Rat{h}
	}
	return []*exact.Rat{h, u}
}

func containsRat(xs []*exact.Rat, x *exact.Rat) bool {
	for _, y := range xs {
		if y.Cmp(x) == 0 {
			return true
		}
	}
	return false
}

// roundUp2 returns x rounded up (toward +∞) to 2 decimals.
func roundUp2(x *exact.Rat) *exact.Rat {
	h := Round2(x)
	if h.Cmp(x) >= 0 {
		return h
	}
	return new(exact.Rat).Add(h, exact.NewRat(1, 100))
}

// CheckScore reports whether score number n (1-based) of the given kind ("essential" or "bonus")
// is in range: essential scores are 1–5, bonus scores 0–5. The error is a *diag.Error with Kind
// "recall" and no position.
func CheckScore(kind string, n int, s *exact.Rat) error {
	what := kind + " score " + strconv.Itoa(n)
	lo, rng := ratOne, "1–5"
	if kind == "bonus" {
		lo, rng = ratZero, "0–5"
	}
	switch {
	case s == nil:
		return &diag.Error{Kind: "recall", Msg: what + " is missing"}
	case s.Sign() < 0:
		return &diag.Error{Kind: "recall", Msg: what + " is " + Format(s) + ": negative, out of " + rng}
	case s.Cmp(lo) < 0 || s.Cmp(ratFive) > 0:
		return &diag.Error{Kind: "recall", Msg: what + " is " + Format(s) + ", out of " + rng}
	}
	return nil
}

func sum(xs []*exact.Rat) *exact.Rat {
	t := new(exact.Rat)
	for _, x := range xs {
		t.Add(t, x)
	}
	return t
}

// joinTerms writes scores as the seed does, "4 + 3". A score is written exactly when it is a
// decimal of at most 4 places (a judge's 3.5 stays 3.5), else rounded like every other number.
func joinTerms(xs []*exact.Rat) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(formatTerm(x))
	}
	return b.String()
}

func formatTerm(x *exact.Rat) string {
	if s, exact := x.FloatPrec(); exact && s <= 4 {
		return trimZeros(x.FloatString(s))
	}
	return Format(x)
}

// Round2 returns x rounded half up (half away from zero for negatives) to 2 decimals.
func Round2(x *exact.Rat) *exact.Rat {
	n := round100(x)
	return new(exact.Rat).SetFrac(n, exact.NewInt(100))
}

// round100 returns x·100 rounded half away from zero, as an integer: floor((200·|n| + d) / 2d)
// for x = n/d.
func round100(x *exact.Rat) *exact.Int {
	n, d := x.Num(), x.Denom()
	if n.IsInt64() && d.IsInt64() {
		if a, q := abs64(n.Int64()), d.Int64(); a <= math.MaxInt64/256 && q <= math.MaxInt64/4 {
			r := (200*a + q) / (2 * q)
			if n.Sign() < 0 {
				r = -r
			}
			return exact.NewInt(r)
		}
	}
	a := new(exact.Int).Abs(n)
	a.Mul(a, exact.NewInt(200))
	a.Add(a, d)
	a.Quo(a, new(exact.Int).Lsh(d, 1))
	if n.Sign() < 0 {
		a.Neg(a)
	}
	return a
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v // v > MinInt64 here: the caller bounds it
	}
	return v
}

// Format writes x for display: rounded half up to at most 2 decimals, trailing zeros dropped
// (3.125 → "3.13", 11/3 → "3.67", 4 → "4", 7/2 → "3.5"). Negative values round half away from
// zero; a value that rounds to zero prints "0", never "-0". A nil x prints "".
func Format(x *exact.Rat) string {
	if x == nil {
		return ""
	}
	n := round100(x)
	neg := n.Sign() < 0
	n.Abs(n)
	digits := n.String()
	if len(digits) < 3 {
		digits = strings.Repeat("0", 3-len(digits)) + digits
	}
	s := trimZeros(digits[:len(digits)-2] + "." + digits[len(digits)-2:])
	if neg {
		s = "-" + s
	}
	return s
}

// Float returns x rounded as Format rounds it, as the float64 nearest to that decimal.
func Float(x *exact.Rat) float64 {
	f, err := exact.ParseFloat(Format(x))
	if err != nil {
		return 0 // unreachable: Format writes plain decimals; a nil x is the caller's bug
	}
	return f
}

func trimZeros(s string) string {
	if strings.IndexByte(s, '.') < 0 {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Summary is a Result as the JS API's recall() returns it: the four values rounded for display
// and as exact fractions ("7/2", "4"), the seed's chain rounded per step, and the seed-format
// lines (that chain).
type Summary struct {
	Essential float64        `json:"essential"`
	Bonus     float64        `json:"bonus"`
	Combined  float64        `json:"combined"`
	Final     float64        `json:"final"`
	Exact     ExactSummary   `json:"exact"`
	Stepped   SteppedSummary `json:"stepped"`
	Lines     []string       `json:"lines"`
}

// SteppedSummary is Result.Stepped: each line rounded before the next uses it. It differs from
// the rounded exact values only where rounding a step moved the next one (3.67 + 0.17 = 3.84
// against 23/6, 3.83).
type SteppedSummary struct {
	Essential float64 `json:"essential"`
	Bonus     float64 `json:"bonus"`
	Combined  float64 `json:"combined"`
	Final     float64 `json:"final"`
}

// ExactSummary holds the four values of a Result as exact fractions in lowest terms.
type ExactSummary struct {
	Essential string    `json:"essential"`
	Bonus     string    `json:"bonus"`
	Combined  string    `json:"combined"`
	Final     string    `json:"final"`
	_         [0]func() // not comparable: no equality function in the wasm
}

// Summary returns r as the JS API shows it.
func (r *Result) Summary() Summary {
	return Summary{
		Essential: Float(r.EssentialPart),
		Bonus:     Float(r.BonusPart),
		Combined:  Float(r.Combined),
		Final:     Float(r.Final),
		Exact: ExactSummary{
			Essential: r.EssentialPart.RatString(),
			Bonus:     r.BonusPart.RatString(),
			Combined:  r.Combined.RatString(),
			Final:     r.Final.RatString(),
		},
		Stepped: SteppedSummary{
			Essential: Float(r.Stepped[LineEssential]),
			Bonus:     Float(r.Stepped[LineBonus]),
			Combined:  Float(r.Stepped[LineCombined]),
			Final:     Float(r.Stepped[LineFinal]),
		},
		Lines: append([]string(nil), r.Lines[:]...),
	}
}

// MarshalJSON writes r as its Summary.
func (r *Result) MarshalJSON() ([]byte, error) { return value.Marshal(r.Summary()) }
