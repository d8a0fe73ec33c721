// Package stats is the arithmetic behind "how far to trust the judge": agreement of the judge's
// verdicts with human labels (Cohen's κ with its large-sample confidence interval), correlation
// of the judge's scores with human scores (Pearson, Spearman, mean absolute error), and the
// consistency of repeated verdicts on the same rows (Fleiss' κ).
//
// Every statistic that is undefined for its input (no rows, one class only, zero variance) is
// nil with a reason in words, never NaN or a silent 0: the page shows the reason instead of a
// number. The formulas and their references are in docs/ARCHITECTURE.md ("Trust statistics").
package stats

import (
	"math"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
)

// Verdict is one verdict, or a human label: passed, failed or undetermined (no verdict, no label).
type Verdict int8

// The three verdicts. Undetermined is the zero value: a missing label is undetermined.
const (
	Undetermined Verdict = iota
	Fail
	Pass
)

// z975 is the 0.975 quantile of the standard normal distribution, for two-sided 95% intervals.
const z975 = 1.959963984540054

func boolPtr(b bool) *bool { return &b }

// num boxes f for a result field that is null when undefined.
func num(f float64) *float64 { return &f }

// Matrix is the confusion matrix of the judge against the human labels. The first letter is the
// judge's verdict (t passed, f failed, n undetermined), the second the human label's (t, f);
// pairs without a human label are not in it.
type Matrix struct {
	TT int `json:"tt"`
	TF int `json:"tf"`
	FT int `json:"ft"`
	FF int `json:"ff"`
	NT int `json:"nt"`
	NF int `json:"nf"`
}

// Agreement is how the judge's verdicts agree with human labels, pair by pair.
type Agreement struct {
	// Pairs is the number of pairs given; Compared those where both the judge and the human
	// decided. The others are NoLabel (no human label, whatever the judge said) and Undetermined
	// (a label, but no verdict from the judge): Pairs = Compared + NoLabel + Undetermined.
	Pairs        int `json:"pairs"`
	Compared     int `json:"compared"`
	NoLabel      int `json:"no_label"`
	Undetermined int `json:"undetermined"`
	Agree        int `json:"agree"`
	// Accuracy is Agree / Compared; nil when nothing was compared.
	Accuracy *float64 `json:"accuracy"`
	// Kappa is Cohen's κ over the compared pairs, KappaCI its 95% confidence interval (see
	// KappaSE); both nil, with KappaReason, when κ is undefined.
	Kappa       *float64    `json:"kappa"`
	KappaCI     *[2]float64 `json:"kappa_ci"`
	KappaSE     *float64    `json:"kappa_se"`
	KappaReason string      `json:"kappa_reason,omitempty"`
	// ExpectedAgreement is the agreement expected by chance (κ's p_e); nil when nothing was compared.
	ExpectedAgreement *float64 `json:"expected_agreement"`
	Matrix            Matrix   `json:"matrix"`
	// JudgeFailPrecision is, of the compared pairs the judge failed, the share the human failed
	// too; JudgeFailRecall is, of the compared pairs the human failed, the share the judge failed.
	// A failure is what a judge is there to find, so these are about the "failed" class.
	JudgeFailPrecision       *float64  `json:"judge_fail_precision"`
	JudgeFailPrecisionReason string    `json:"judge_fail_precision_reason,omitempty"`
	JudgeFailRecall          *float64  `json:"judge_fail_recall"`
	JudgeFailRecallReason    string    `json:"judge_fail_recall_reason,omitempty"`
	_                        [0]func() // not comparable: no equality function in the wasm
}

// Agree compares the judge's verdicts with the human labels, pair by pair. It fails only when the
// two lists differ in length.
func Agree(judge, human []Verdict) (Agreement, error) {
	if len(judge) != len(human) {
		return Agreement{}, &diag.Error{Kind: "input", Msg: diag.Sprintf(
			"the judge has %d verdicts and the human %d labels: they must pair one to one", len(judge), len(human))}
	}
	a := Agreement{Pairs: len(judge)}
	m := &a.Matrix
	for i, h := range human {
		switch {
		case h == Undetermined:
			a.NoLabel++
		case judge[i] == Undetermined && h == Pass:
			m.NT++
		case judge[i] == Undetermined:
			m.NF++
		case judge[i] == Pass && h == Pass:
			m.TT++
		case judge[i] == Pass:
			m.TF++
		case h == Pass:
			m.FT++
		default:
			m.FF++
		}
	}
	a.Undetermined = m.NT + m.NF
	a.Compared = m.TT + m.TF + m.FT + m.FF
	a.Agree = m.TT + m.FF
	if a.Compared == 0 {
		a.KappaReason = "no pair has both a verdict and a label"
	} else {
		a.Accuracy = num(float64(a.Agree) / float64(a.Compared))
		cohen(&a)
	}
	if judgeFailed := m.FF + m.FT; judgeFailed == 0 {
		a.JudgeFailPrecisionReason = "the judge failed no labelled row"
	} else {
		a.JudgeFailPrecision = num(float64(m.FF) / float64(judgeFailed))
	}
	if humanFailed := m.FF + m.TF; humanFailed == 0 {
		a.JudgeFailRecallReason = "no row the judge decided is labelled failed"
	} else {
		a.JudgeFailRecall = num(float64(m.FF) / float64(humanFailed))
	}
	return a, nil
}

// cohen sets κ, its standard error and interval from the matrix's decided cells (Compared > 0).
//
// κ = (p_o − p_e) / (1 − p_e) with p_o the share of pairs that agree and p_e = Σ_i r_i·c_i / n²
// the agreement expected by chance (r_i, c_i: the judge's and the human's totals of class i). It
// is undefined when p_e = 1: both gave the same single class to every pair. κ and its variance
// are computed in exact fractions and rounded once, so equal inputs give equal bits everywhere.
//
// The standard error is the large-sample one of Fleiss, Cohen & Everitt (1969), which does not
// assume κ = 0 (Cohen's 1960 approximation √(p_o(1−p_o)/n)/(1−p_e) is cruder); the interval is
// κ ± 1.96·SE, clipped to [−1, 1].
func cohen(a *Agreement) {
	m := a.Matrix
	n := int64(a.Compared)
	// Rows of the 2×2 are the judge's classes (pass, fail), columns the human's.
	cell := [2][2]int64{{int64(m.TT), int64(m.TF)}, {int64(m.FT), int64(m.FF)}}
	var row, col [2]int64
	for i := range 2 {
		for j := range 2 {
			row[i] += cell[i][j]
			col[j] += cell[i][j]
		}
	}
	frac := func(k int64) *exact.Rat { return exact.NewRat(k, n) }
	po := frac(cell[0][0] + cell[1][1])
	pe := new(exact.Rat).Quo(frac(row[0]*col[0]+row[1]*col[1]), exact.NewRat(n, 1))
	a.ExpectedAgreement = num(pe.Float64())
	one := exact.NewRat(1, 1)
	q := new(exact.Rat).Sub(one, pe) // 1 − p_e
	if q.Sign() == 0 {
		cls := "passed"
		if row[1] > 0 {
			cls = "failed"
		}
		a.KappaReason = "the judge and the labels say " + cls + " for every compared row: agreement beyond chance is undefined"
		return
	}
	kappa := new(exact.Rat).Quo(new(exact.Rat).Sub(po, pe), q)
	a.Kappa = num(kappa.Float64())

	// Fleiss, Cohen & Everitt (1969): the variance of κ̂ when κ is not assumed 0,
	// [Σ_i p_ii((1−p_e) − (p_·i + p_i·)(1−p_o))² + (1−p_o)² Σ_{i≠j} p_ij(p_·i + p_j·)²
	//  − (p_o·p_e − 2p_e + p_o)²] / (n(1−p_e)⁴)
	// with p_i· the judge's share of class i and p_·i the human's.
	qo := new(exact.Rat).Sub(one, po) // 1 − p_o
	sum := new(exact.Rat)
	t := new(exact.Rat)
	for i := range 2 {
		t.Mul(frac(col[i]+row[i]), qo)
		t.Sub(q, t)
		t.Mul(t, t)
		sum.Add(sum, t.Mul(t, frac(cell[i][i])))
	}
	off := new(exact.Rat)
	for i := range 2 {
		for j := range 2 {
			if i != j {
				s := frac(col[i] + row[j])
				off.Add(off, s.Mul(s, s).Mul(s, frac(cell[i][j])))
			}
		}
	}
	sum.Add(sum, off.Mul(off, new(exact.Rat).Mul(qo, qo)))
	t.Mul(po, pe)
	t.Sub(t, new(exact.Rat).Add(pe, pe))
	t.Add(t, po)
	sum.Sub(sum, t.Mul(t, t))
	q2 := new(exact.Rat).Mul(q, q)
	denom := new(exact.Rat).Mul(q2, q2) // (1 − p_e)⁴
	variance := sum.Quo(sum, denom.Mul(denom, exact.NewRat(n, 1)))
	se := 0.0
	if variance.Sign() > 0 { // never negative in exact arithmetic; 0 for perfect agreement
		se = math.Sqrt(variance.Float64())
	}
	k := kappa.Float64()
	a.KappaSE = num(se)
	a.KappaCI = &[2]float64{clamp(k - z975*se), clamp(k + z975*se)}
}

// Correlation is how the judge's scores follow the human scores.
type Correlation struct {
	// N is the number of pairs where both scores are given (pairs with a null are skipped).
	N              int      `json:"n"`
	Pearson        *float64 `json:"pearson"`
	PearsonReason  string   `json:"pearson_reason,omitempty"`
	Spearman       *float64 `json:"spearman"`
	SpearmanReason string   `json:"spearman_reason,omitempty"`
	// MAE is the mean absolute error |x − y|, in the scores' own unit.
	MAE       *float64  `json:"mae"`
	MAEReason string    `json:"mae_reason,omitempty"`
	_         [0]func() // not comparable: no equality function in the wasm
}

// Score is one score, or none (a null: the pair is skipped).
type Score struct {
	Value float64
	Given bool
}

// Correlate compares xs (the judge's scores) with ys (the human's), pair by pair. It fails when
// the lists differ in length or a score is not finite.
func Correlate(xs, ys []Score) (Correlation, error) {
	if len(xs) != len(ys) {
		return Correlation{}, &diag.Error{Kind: "input", Msg: diag.Sprintf(
			"there are %d judge scores and %d human scores: they must pair one to one", len(xs), len(ys))}
	}
	var x, y []float64
	for i := range xs {
		if !finite(xs[i]) || !finite(ys[i]) {
			return Correlation{}, &diag.Error{Kind: "input", Msg: diag.Sprintf("score %d is not a finite number", i+1)}
		}
		if xs[i].Given && ys[i].Given {
			x = append(x, xs[i].Value)
			y = append(y, ys[i].Value)
		}
	}
	c := Correlation{N: len(x)}
	if c.N == 0 {
		c.MAEReason = "no pair has both scores"
	} else {
		var s float64
		for i := range x {
			s += math.Abs(x[i] - y[i])
		}
		c.MAE = num(s / float64(c.N))
	}
	c.Pearson, c.PearsonReason = pearson(x, y, "scores")
	if c.N >= 2 {
		c.Spearman, c.SpearmanReason = pearson(ranks(x), ranks(y), "scores")
	} else {
		c.SpearmanReason = c.PearsonReason
	}
	return c, nil
}

func finite(s Score) bool { return !s.Given || s.Value-s.Value == 0 } // NaN and ±Inf give NaN

// pearson is Pearson's r of x and y (two passes: the means, then the centred sums, which keeps
// large offsets from cancelling), clamped to [−1, 1] against rounding; nil with a reason when
// there are fewer than two pairs or one side does not vary.
func pearson(x, y []float64, what string) (*float64, string) {
	n := len(x)
	if n < 2 {
		return nil, diag.Sprintf("%d pairs of %s: a correlation needs at least 2", n, what)
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	switch {
	case sxx == 0 && syy == 0:
		return nil, "both the judge's and the human " + what + " are all the same: a correlation is undefined"
	case sxx == 0:
		return nil, "the judge's " + what + " are all the same: a correlation is undefined"
	case syy == 0:
		return nil, "the human " + what + " are all the same: a correlation is undefined"
	}
	r := sxy / math.Sqrt(sxx*syy) // as Python's statistics.correlation: exactly ±1 for a perfect line
	return num(clamp(r)), ""
}

// ranks gives each value its rank, 1-based, tied values the average of the ranks they span
// (the "fractional ranking" Spearman's ρ uses).
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sortIndexes(idx, v)
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		// Positions i..j-1 tie: ranks i+1..j, average (i+1+j)/2.
		avg := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}

// sortIndexes sorts idx by v[idx] ascending: a heap sort, n log n for the 10,000-row datasets
// the page takes, written out rather than taken from package sort or slices, whose generic and
// closure-based sorts cost the wasm several times its size.
func sortIndexes(idx []int, v []float64) {
	n := len(idx)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(idx, v, i, n)
	}
	for end := n - 1; end > 0; end-- {
		idx[0], idx[end] = idx[end], idx[0]
		siftDown(idx, v, 0, end)
	}
}

func siftDown(idx []int, v []float64, i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && v[idx[c]] < v[idx[c+1]] {
			c++
		}
		if v[idx[i]] >= v[idx[c]] {
			return
		}
		idx[i], idx[c] = idx[c], idx[i]
		i = c
	}
}

// clamp is x limited to [−1, 1] (the builtins min and max on floats handle NaN and −0, which
// cannot occur here, at a cost in the wasm).
func clamp(x float64) float64 {
	if x < -1 {
		return -1
	}
	if x > 1 {
		return 1
	}
	return x
}

// RowConsistency is one row's repeated verdicts summed up.
type RowConsistency struct {
	// Majority is the most frequent of passed, failed and undetermined; undetermined (nil) on a
	// tie for the most frequent, and for a row without verdicts.
	Majority     *bool     `json:"majority"`
	Unanimous    bool      `json:"unanimous"`
	N            int       `json:"n"`
	Passed       int       `json:"passed"`
	Failed       int       `json:"failed"`
	Undetermined int       `json:"undetermined"`
	_            [0]func() // not comparable: no equality function in the wasm
}

// Consistency is how the judge's verdicts agree with themselves over repeats of the same rows.
type Consistency struct {
	Rows int `json:"rows"`
	// Unanimous rows have at least one verdict, all the same (undetermined included: three
	// undetermined verdicts are unanimous); Split rows have at least two verdicts, not all the same.
	Unanimous int `json:"unanimous"`
	Split     int `json:"split"`
	// FleissKappa is Fleiss' κ over the FleissRows rows that have FleissRepeats verdicts each, with
	// passed, failed and undetermined as its three categories; nil with FleissReason when undefined.
	FleissKappa   *float64         `json:"fleiss_kappa"`
	FleissReason  string           `json:"fleiss_reason,omitempty"`
	FleissRows    int              `json:"fleiss_rows"`
	FleissRepeats int              `json:"fleiss_repeats"`
	PerRow        []RowConsistency `json:"per_row"`
}

// Consistent sums up repeated verdicts: rows[i] is every verdict given to row i.
//
// Fleiss' κ (Fleiss 1971) counts each verdict in one of three categories, passed, failed and
// undetermined: a judge that cannot decide on one repeat and decides on another is being
// inconsistent, so a repeat that failed should be passed as undetermined, not left out. The
// formula needs the same number m of verdicts on every row: κ is over the rows with the most
// common count of two or more (the larger count on a tie), the others are left out of it and
// FleissRows says how many are in. (Generalisations that mix counts, weighting rows equally while
// pooling the category shares, can fall below −1; a caller that wants every row in gives every
// row the same number of verdicts.)
//
// With R rows, n_ij the verdicts of row i in category j, S = Σ_ij n_ij(n_ij − 1) and
// Q = Σ_j (Σ_i n_ij)²: P̄ = S / (R·m(m−1)), P_e = Q / (Rm)², κ = (P̄ − P_e)/(1 − P_e)
// = (S·R·m − Q·(m−1)) / ((m−1)·((Rm)² − Q)), computed in integers and rounded once.
func Consistent(rows [][]Verdict) Consistency {
	c := Consistency{Rows: len(rows), PerRow: make([]RowConsistency, len(rows))}
	counts := make([]int, 0) // rows by their number of verdicts, two or more
	for i, row := range rows {
		var count [3]int // by Verdict: undetermined, failed, passed
		for _, v := range row {
			if v < Undetermined || v > Pass {
				v = Undetermined
			}
			count[v]++
		}
		r := RowConsistency{N: len(row), Undetermined: count[Undetermined], Failed: count[Fail], Passed: count[Pass]}
		top := max(count[0], count[1], count[2])
		r.Unanimous = r.N > 0 && top == r.N
		ties := 0
		for _, k := range count {
			if k == top {
				ties++
			}
		}
		if r.N > 0 && ties == 1 {
			switch top {
			case count[Pass]:
				r.Majority = boolPtr(true)
			case count[Fail]:
				r.Majority = boolPtr(false)
			}
		}
		switch {
		case r.Unanimous:
			c.Unanimous++
		case r.N >= 2:
			c.Split++
		}
		c.PerRow[i] = r
		if r.N >= 2 {
			for len(counts) <= r.N {
				counts = append(counts, 0)
			}
			counts[r.N]++
		}
	}
	m := 0
	for n, k := range counts {
		if k > 0 && k >= counts[m] {
			m = n
		}
	}
	if m == 0 {
		c.FleissReason = "no row has two verdicts or more to compare"
		return c
	}
	c.FleissRepeats = m
	var total [3]int64
	var same int64 // S
	for _, r := range c.PerRow {
		if r.N != m {
			continue
		}
		c.FleissRows++
		for j, k := range [3]int{r.Undetermined, r.Failed, r.Passed} {
			same += int64(k) * int64(k-1)
			total[j] += int64(k)
		}
	}
	rm := int64(c.FleissRows) * int64(m)
	squares := total[0]*total[0] + total[1]*total[1] + total[2]*total[2] // Q
	if squares == rm*rm {
		c.FleissReason = "every verdict is the same: agreement beyond chance is undefined"
		return c
	}
	m1 := int64(m - 1)
	c.FleissKappa = num(exact.NewRat(same*rm-squares*m1, m1*(rm*rm-squares)).Float64())
	return c
}
