package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
)

func probs(v ...float64) []Prob {
	out := make([]Prob, len(v))
	for i, x := range v {
		out[i] = Prob{x, true}
	}
	return out
}

// TestCalibrateByHand: four pairs worked out by hand.
//
//	p     0.9  0.8  0.3  0.05      human  pass fail pass fail
//	Brier = (0.01 + 0.64 + 0.49 + 0.0025) / 4 = 0.285625
//	bins: [0.0, 0.1) holds 0.05 (rate 0), [0.3, 0.4) 0.3 (rate 1), [0.8, 0.9) 0.8 (rate 0),
//	[0.9, 1] 0.9 (rate 1); ECE = (0.05 + 0.7 + 0.8 + 0.1) / 4 = 0.4125
func TestCalibrateByHand(t *testing.T) {
	c, err := Calibrate(probs(0.9, 0.8, 0.3, 0.05), []Verdict{Pass, Fail, Pass, Fail})
	require.NoError(t, err)
	assert.Equal(t, 4, c.N)
	assert.InDelta(t, 0.285625, *c.Brier, 1e-15)
	assert.InDelta(t, 0.4125, *c.ECE, 1e-15)
	require.Len(t, c.Bins, 10)
	var counts []int
	for _, b := range c.Bins {
		counts = append(counts, b.N)
		assert.Equal(t, b.N == 0, b.MeanP == nil && b.Rate == nil, "an empty bin has nulls")
	}
	assert.Equal(t, []int{1, 0, 0, 1, 0, 0, 0, 0, 1, 1}, counts)
	assert.Equal(t, 0.9, c.Bins[9].Lo)
	assert.Equal(t, 1.0, c.Bins[9].Hi)
	assert.Equal(t, 0.0, *c.Bins[8].Rate)

	// 1 and 0 are the last and the first bin; a caller's 0.7 is in [0.7, 0.8).
	for p, k := range map[float64]int{0: 0, 1: 9, 0.7: 7, 0.1: 1, 0.3: 3, 0.6: 6, 0.9: 9, 0.29999999999999993: 2, 0.99: 9} {
		assert.Equal(t, k, binOf(p), "%v", p)
	}
}

func TestCalibrateRefuses(t *testing.T) {
	_, err := Calibrate(probs(0.5), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "there are 1 probabilities and 0 labels")
	for _, bad := range []float64{-0.1, 1.5, math.Inf(1)} {
		_, err := Calibrate([]Prob{{0.2, true}, {bad, true}}, []Verdict{Pass, Fail})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "probability 2 is")
		assert.Contains(t, err.Error(), "not a number from 0 to 1")
	}
	_, err = Calibrate([]Prob{{math.NaN(), true}}, []Verdict{Pass})
	assert.ErrorContains(t, err, "probability 1 is NaN")
}

func TestJuryRefuses(t *testing.T) {
	one := []Member{{Verdict: Pass}}
	for _, tt := range []struct {
		members []Member
		rule    string
		hasAt   bool
		msg     string
	}{
		{one, "vote", false, `unknown rule "vote": want "majority", "mean", "all" or "any"`},
		{nil, RuleMajority, false, "at least one member"},
		{one, RuleAll, true, `pass_at is for the rule "mean"`},
		{[]Member{{Score: Score{math.Inf(1), true}}}, RuleMean, false, "member 1's score is not a finite number"},
	} {
		_, err := Jury(tt.members, tt.rule, 0, tt.hasAt)
		assert.ErrorContains(t, err, tt.msg)
	}
}

// TestJuryCounts: how undetermined members count under each rule (the reference has the rest).
func TestJuryCounts(t *testing.T) {
	pass, fail, none := Member{Verdict: Pass}, Member{Verdict: Fail}, Member{}
	tests := []struct {
		rule    string
		members []Member
		passed  *bool
		code    diag.Code
	}{
		{RuleMajority, []Member{pass, pass, none}, boolPtr(true), ""},
		{RuleMajority, []Member{pass, none, none}, nil, diag.JuryUndetermined},
		{RuleMajority, []Member{pass, fail}, nil, diag.JuryTie},
		{RuleMajority, []Member{pass, fail, none, none}, nil, diag.JuryUndetermined},
		{RuleAll, []Member{pass, none}, nil, diag.JuryUndetermined},
		{RuleAll, []Member{fail, none}, boolPtr(false), ""},
		{RuleAny, []Member{pass, none}, boolPtr(true), ""},
		{RuleAny, []Member{fail, none}, nil, diag.JuryUndetermined},
		{RuleMean, []Member{none}, nil, diag.JuryUndetermined},
	}
	for _, tt := range tests {
		j, err := Jury(tt.members, tt.rule, 0, false)
		require.NoError(t, err)
		assert.Equal(t, tt.passed, j.Passed, "%s %v", tt.rule, tt.members)
		if tt.code == "" {
			assert.Empty(t, j.Checks)
			continue
		}
		require.Len(t, j.Checks, 1)
		assert.Equal(t, tt.code, j.Checks[0].Code)
		assert.Nil(t, j.Score, "an undetermined jury has no score")
	}
	// A mean without a passing score: a score, no verdict, and nothing wrong.
	j, err := Jury([]Member{{Score: Score{4, true}}, {Score: Score{5, true}}}, RuleMean, 0, false)
	require.NoError(t, err)
	assert.Nil(t, j.Passed)
	assert.Equal(t, 4.5, *j.Score)
	assert.Empty(t, j.Checks)
}
