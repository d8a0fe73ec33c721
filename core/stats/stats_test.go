package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	T = Pass
	F = Fail
	N = Undetermined
)

func vs(v ...Verdict) []Verdict { return v }

func scores(v ...any) []Score {
	out := make([]Score, len(v))
	for i, x := range v {
		switch x := x.(type) {
		case nil:
		case int:
			out[i] = Score{float64(x), true}
		case float64:
			out[i] = Score{x, true}
		}
	}
	return out
}

// approx asserts that got is a number within 1e-12 of want.
func approx(t *testing.T, want float64, got *float64, what string) {
	t.Helper()
	if assert.NotNil(t, got, what) {
		assert.InDelta(t, want, *got, 1e-12, what)
	}
}

// TestAgreeByHand checks Agree against values worked out on paper (in the comments).
func TestAgreeByHand(t *testing.T) {
	t.Run("twenty rows", func(t *testing.T) {
		// tt 8, tf 3, ft 2, ff 7: p_o = 15/20, the judge passes 11, the human 10,
		// p_e = (11·10 + 9·10)/400 = 1/2, κ = (3/4 − 1/2)/(1/2) = 1/2.
		// FCE 1969: A = 0.4·(0.5 − 1.05·0.25)² + 0.35·(0.5 − 0.95·0.25)² = 0.0466796875,
		// B = 0.25²·(0.15·0.95² + 0.1·1.05²) = 0.0153515625, C = (3/8 − 1 + 3/4)² = 0.015625,
		// var = (A + B − C)/(20·(1/2)⁴) = 0.037125.
		judge := append(append(append(rep(T, 8), rep(F, 2)...), rep(T, 3)...), rep(F, 7)...)
		human := append(append(rep(T, 10), rep(F, 3)...), rep(F, 7)...)
		a, err := Agree(judge, human)
		require.NoError(t, err)
		assert.Equal(t, Matrix{TT: 8, TF: 3, FT: 2, FF: 7}, a.Matrix)
		assert.Equal(t, 20, a.Compared)
		assert.Equal(t, 15, a.Agree)
		approx(t, 0.75, a.Accuracy, "accuracy")
		approx(t, 0.5, a.ExpectedAgreement, "p_e")
		approx(t, 0.5, a.Kappa, "κ")
		approx(t, math.Sqrt(0.037125), a.KappaSE, "SE")
		require.NotNil(t, a.KappaCI)
		assert.InDelta(t, 0.5-1.959963984540054*math.Sqrt(0.037125), a.KappaCI[0], 1e-12)
		assert.InDelta(t, 0.5+1.959963984540054*math.Sqrt(0.037125), a.KappaCI[1], 1e-12)
		approx(t, 7.0/9, a.JudgeFailPrecision, "precision")
		approx(t, 7.0/10, a.JudgeFailRecall, "recall")
	})
	t.Run("judge passes everything", func(t *testing.T) {
		// p_o = 3/4 = p_e: κ is 0, defined (the labels vary), not null.
		a, err := Agree(vs(T, T, T, T), vs(T, F, T, T))
		require.NoError(t, err)
		approx(t, 0, a.Kappa, "κ")
		assert.Nil(t, a.JudgeFailPrecision)
		assert.Equal(t, "the judge failed no labelled row", a.JudgeFailPrecisionReason)
		approx(t, 0, a.JudgeFailRecall, "recall")
	})
	t.Run("one class only", func(t *testing.T) {
		a, err := Agree(vs(F, F, N), vs(F, F, F))
		require.NoError(t, err)
		assert.Nil(t, a.Kappa)
		assert.Nil(t, a.KappaCI)
		assert.Contains(t, a.KappaReason, "failed for every compared row")
		approx(t, 1, a.Accuracy, "accuracy")
		assert.Equal(t, 1, a.Undetermined)
		assert.Equal(t, Matrix{FF: 2, NF: 1}, a.Matrix)
	})
	t.Run("perfect agreement", func(t *testing.T) {
		a, err := Agree(vs(T, F, T, F), vs(T, F, T, F))
		require.NoError(t, err)
		approx(t, 1, a.Kappa, "κ")
		approx(t, 0, a.KappaSE, "SE")
		assert.Equal(t, &[2]float64{1, 1}, a.KappaCI)
	})
	t.Run("complete disagreement", func(t *testing.T) {
		// p_o = 0, p_e = 1/2: κ = −1; the interval is clipped at −1.
		a, err := Agree(vs(T, F, T, F), vs(F, T, F, T))
		require.NoError(t, err)
		approx(t, -1, a.Kappa, "κ")
		assert.Equal(t, -1.0, a.KappaCI[0])
	})
	t.Run("nothing compared", func(t *testing.T) {
		a, err := Agree(vs(N, T, F), vs(T, N, N))
		require.NoError(t, err)
		assert.Equal(t, Agreement{Pairs: 3, NoLabel: 2, Undetermined: 1, Matrix: Matrix{NT: 1},
			KappaReason:              "no pair has both a verdict and a label",
			JudgeFailPrecisionReason: "the judge failed no labelled row",
			JudgeFailRecallReason:    "no row the judge decided is labelled failed"}, a)
	})
	t.Run("lengths differ", func(t *testing.T) {
		_, err := Agree(vs(T), vs(T, F))
		require.EqualError(t, err, "input: the judge has 1 verdicts and the human 2 labels: they must pair one to one")
	})
}

func rep(v Verdict, n int) []Verdict {
	out := make([]Verdict, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestCorrelateByHand checks Correlate against values worked out on paper.
func TestCorrelateByHand(t *testing.T) {
	c, err := Correlate(scores(1, 2, 3, 4), scores(4, 3, 2, 1))
	require.NoError(t, err)
	assert.Equal(t, 4, c.N)
	approx(t, -1, c.Pearson, "pearson")
	approx(t, -1, c.Spearman, "spearman")
	approx(t, 2, c.MAE, "mae") // (3+1+1+3)/4

	// Ranks of x with a tie: 1, 2.5, 2.5, 4; centred sums 4.5, 4.5 and 5: ρ = 4.5/√22.5 = √0.9.
	c, err = Correlate(scores(1, 2, 2, 3), scores(1, 2, 3, 4))
	require.NoError(t, err)
	approx(t, math.Sqrt(0.9), c.Spearman, "spearman with ties")

	// Monotone but not linear: ρ is 1, r less.
	c, err = Correlate(scores(1, 2, 3, 4, 5), scores(1, 4, 9, 16, 125))
	require.NoError(t, err)
	approx(t, 1, c.Spearman, "spearman")
	assert.Less(t, *c.Pearson, 0.9)

	// Nulls skip their pair: (1,2), (4,3) remain.
	c, err = Correlate(scores(1, nil, 3, 4), scores(2, 7, nil, 3))
	require.NoError(t, err)
	assert.Equal(t, 2, c.N)
	approx(t, 1, c.MAE, "mae")
	approx(t, 1, c.Pearson, "pearson")
}

func TestCorrelateUndefined(t *testing.T) {
	tests := []struct {
		name             string
		x, y             []Score
		pearson, mae     string
		spearmanDefined  bool
		pearsonUndefined bool
	}{
		{name: "empty", pearson: "0 pairs of scores: a correlation needs at least 2", mae: "no pair has both scores"},
		{name: "one pair", x: scores(3), y: scores(4), pearson: "1 pairs of scores: a correlation needs at least 2"},
		{name: "all null", x: scores(nil, 1), y: scores(2, nil), pearson: "0 pairs of scores: a correlation needs at least 2", mae: "no pair has both scores"},
		{name: "judge constant", x: scores(2, 2, 2), y: scores(1, 2, 3), pearson: "the judge's scores are all the same: a correlation is undefined"},
		{name: "human constant", x: scores(1, 2, 3), y: scores(4, 4, 4), pearson: "the human scores are all the same: a correlation is undefined"},
		{name: "both constant", x: scores(5, 5), y: scores(5, 5), pearson: "both the judge's and the human scores are all the same: a correlation is undefined"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Correlate(tc.x, tc.y)
			require.NoError(t, err)
			assert.Nil(t, c.Pearson)
			assert.Nil(t, c.Spearman)
			assert.Equal(t, tc.pearson, c.PearsonReason)
			assert.Equal(t, tc.pearson, c.SpearmanReason)
			assert.Equal(t, tc.mae, c.MAEReason)
			assert.Equal(t, tc.mae == "", c.MAE != nil)
		})
	}
	_, err := Correlate(scores(1), scores(1, 2))
	require.EqualError(t, err, "input: there are 1 judge scores and 2 human scores: they must pair one to one")
	_, err = Correlate([]Score{{math.NaN(), true}}, scores(1))
	require.EqualError(t, err, "input: score 1 is not a finite number")
}

// TestConsistentByHand checks Consistent against values worked out on paper.
func TestConsistentByHand(t *testing.T) {
	// P_1 = 2/6, P_2 = 1, P̄ = 2/3; shares 2/6 passed, 4/6 failed: P_e = 5/9; κ = (1/9)/(4/9).
	c := Consistent([][]Verdict{{T, T, F}, {F, F, F}})
	approx(t, 0.25, c.FleissKappa, "κ")
	assert.Equal(t, 1, c.Unanimous)
	assert.Equal(t, 1, c.Split)
	assert.Equal(t, []RowConsistency{
		{Majority: boolPtr(true), N: 3, Passed: 2, Failed: 1},
		{Majority: boolPtr(false), Unanimous: true, N: 3, Failed: 3},
	}, c.PerRow)

	// Rows with another count than the most common are left out of κ: the same 0.25.
	c = Consistent([][]Verdict{{T, T, F}, {F}, {T, F}, {F, F, F}})
	approx(t, 0.25, c.FleissKappa, "κ")
	assert.Equal(t, 2, c.FleissRows)
	assert.Equal(t, 3, c.FleissRepeats)
	// On a tie of counts the larger count is kept.
	c = Consistent([][]Verdict{{T, F}, {T, T, F}})
	assert.Equal(t, []int{1, 3}, []int{c.FleissRows, c.FleissRepeats})

	// Never the same twice: P̄ = 0, P_e = 1/2, κ = −1.
	approx(t, -1, Consistent([][]Verdict{{T, F}, {F, T}, {T, F}}).FleissKappa, "κ")
	// Unanimous in all three categories: κ = 1.
	approx(t, 1, Consistent([][]Verdict{{T, T}, {F, F}, {N, N}}).FleissKappa, "κ")

	// Ties are undetermined; undetermined can be the majority.
	c = Consistent([][]Verdict{{T, F}, {T, N, N}, {T, T, F, N}, {}, {N}})
	assert.Nil(t, c.PerRow[0].Majority)
	assert.Nil(t, c.PerRow[1].Majority)
	assert.Equal(t, boolPtr(true), c.PerRow[2].Majority)
	assert.Equal(t, RowConsistency{}, c.PerRow[3])
	assert.Equal(t, RowConsistency{Unanimous: true, N: 1, Undetermined: 1}, c.PerRow[4])
	assert.Equal(t, 5, c.Rows)
	assert.Equal(t, 1, c.Unanimous)
	assert.Equal(t, 3, c.Split)

	for _, tc := range []struct {
		name   string
		rows   [][]Verdict
		reason string
	}{
		{"empty", nil, "no row has two verdicts or more to compare"},
		{"single verdicts", [][]Verdict{{T}, {F}, {}}, "no row has two verdicts or more to compare"},
		{"all the same", [][]Verdict{{T, T}, {T, T, T}, {F}}, "every verdict is the same: agreement beyond chance is undefined"},
		{"all undetermined", [][]Verdict{{N, N}, {N, N}}, "every verdict is the same: agreement beyond chance is undefined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Consistent(tc.rows)
			assert.Nil(t, c.FleissKappa)
			assert.Equal(t, tc.reason, c.FleissReason)
			assert.NotNil(t, c.PerRow)
		})
	}
}

// TestShareBounds: the interval's bounds are exactly 0 and 1 at the ends, hold the rate, and are
// never NaN, whatever the counts (a negative or too large k is clamped, n ≤ 0 has no rate).
func TestShareBounds(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 20, 99, 1000, 1 << 20} {
		for _, k := range []int{0, 1, n / 3, n / 2, n - 1, n} {
			if k < 0 || k > n {
				continue
			}
			p := Share(k, n)
			require.NotNil(t, p.Rate)
			require.NotNil(t, p.CI)
			lo, hi := p.CI[0], p.CI[1]
			assert.False(t, math.IsNaN(lo) || math.IsNaN(hi), "%d/%d", k, n)
			assert.True(t, 0 <= lo && lo <= *p.Rate && *p.Rate <= hi && hi <= 1, "%d/%d: %v %v", k, n, lo, hi)
			if k == 0 {
				assert.Equal(t, 0.0, lo, "%d/%d", k, n)
				assert.Equal(t, 0.0, *p.Rate)
			}
			if k == n {
				assert.Equal(t, 1.0, hi, "%d/%d", k, n)
				assert.Equal(t, 1.0, *p.Rate)
			}
		}
	}
	for _, n := range []int{0, -3} {
		p := Share(1, n)
		assert.Nil(t, p.Rate)
		assert.Nil(t, p.CI)
		assert.Equal(t, "no cases", p.Reason)
		assert.Equal(t, 0, p.N)
	}
	p := Share(9, 4)
	assert.Equal(t, 4, p.K)
	assert.Equal(t, 1.0, p.CI[1])
	p = Share(-2, 4)
	assert.Equal(t, 0, p.K)
	assert.Equal(t, 0.0, p.CI[0])
}
