package stats

import (
	"math"
	"strconv"

	"ragjudge/core/diag"
)

// Calibration is how far a judge's confidence can be trusted against human labels: when it says
// p = 0.8 that a row passes, do about 8 rows in 10 pass for the humans? (docs/ARCHITECTURE.md,
// "Trust statistics").
type Calibration struct {
	// N is the pairs with both a probability and a label; Skipped those without one or the other.
	N       int `json:"n"`
	Skipped int `json:"skipped"`
	// Brier is the mean of (p − y)², y = 1 for a human pass and 0 for a fail (Brier 1950): 0 is
	// perfect, 0.25 is what always saying 0.5 scores.
	Brier       *float64 `json:"brier"`
	BrierReason string   `json:"brier_reason,omitempty"`
	// ECE, the expected calibration error, is Σ_b (n_b / N)·|mean_p_b − rate_b| over the bins.
	ECE       *float64 `json:"ece"`
	ECEReason string   `json:"ece_reason,omitempty"`
	// Bins are the ten equal-width bins of p, [0, 0.1), [0.1, 0.2), … [0.9, 1], empty ones kept.
	Bins []Bin `json:"bins"`
}

// Bin is one bin of a reliability diagram: the pairs whose p is in [Lo, Hi) ([0.9, 1] for the
// last), their mean p and the share of them the humans passed (both null for an empty bin).
type Bin struct {
	Lo    float64   `json:"lo"`
	Hi    float64   `json:"hi"`
	N     int       `json:"n"`
	MeanP *float64  `json:"mean_p"`
	Rate  *float64  `json:"rate"`
	_     [0]func() // not comparable: no equality function in the wasm
}

// Prob is a probability, or none (a null: the pair is skipped).
type Prob = Score

// calibrationBins is the number of bins: ten, as reliability diagrams usually have.
const calibrationBins = 10

// binOf is the bin of p: the last k whose lower edge k/10 (the float64 nearest to it, as a caller
// writes 0.7) is at most p, so that 0.7 is in [0.7, 0.8) though the float64 0.7 is a little less
// than seven tenths.
func binOf(p float64) int {
	k := min(int(p*calibrationBins), calibrationBins-1)
	for k+1 < calibrationBins && p >= float64(k+1)/calibrationBins {
		k++
	}
	for k > 0 && p < float64(k)/calibrationBins {
		k--
	}
	return k
}

// Calibrate compares the judge's probabilities of a pass (p, from 0 to 1, or none) with the human
// labels, pair by pair. Pairs where either is missing are skipped and counted. It fails when the
// lists differ in length or a probability is not a number from 0 to 1.
func Calibrate(p []Prob, human []Verdict) (Calibration, error) {
	if len(p) != len(human) {
		return Calibration{}, &diag.Error{Kind: "input", Msg: diag.Sprintf(
			"there are %d probabilities and %d labels: they must pair one to one", len(p), len(human))}
	}
	c := Calibration{Bins: make([]Bin, calibrationBins)}
	var sum, hits [calibrationBins]float64
	brier := 0.0
	for i, x := range p {
		if x.Given && !(x.Value >= 0 && x.Value <= 1) {
			return Calibration{}, &diag.Error{Kind: "input", Msg: diag.Sprintf(
				"probability %d is %s, not a number from 0 to 1", i+1, strconv.FormatFloat(x.Value, 'g', -1, 64))}
		}
		if !x.Given || human[i] == Undetermined {
			c.Skipped++
			continue
		}
		y := 0.0
		if human[i] == Pass {
			y = 1
		}
		c.N++
		brier += (x.Value - y) * (x.Value - y)
		k := binOf(x.Value)
		c.Bins[k].N++
		sum[k] += x.Value
		hits[k] += y
	}
	for k := range c.Bins {
		b := &c.Bins[k]
		b.Lo, b.Hi = float64(k)/calibrationBins, float64(k+1)/calibrationBins
		if b.N > 0 {
			b.MeanP = num(sum[k] / float64(b.N))
			b.Rate = num(hits[k] / float64(b.N))
		}
	}
	if c.N == 0 {
		c.BrierReason = "no pair has both a probability and a label"
		c.ECEReason = c.BrierReason
		return c, nil
	}
	c.Brier = num(brier / float64(c.N))
	ece := 0.0
	for _, b := range c.Bins {
		if b.N > 0 {
			ece += float64(b.N) / float64(c.N) * math.Abs(*b.MeanP-*b.Rate)
		}
	}
	c.ECE = num(ece)
	return c, nil
}
