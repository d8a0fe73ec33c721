package stats

import (
	"math"
	"testing"
)

// FuzzStats reads each byte of data as a pair of verdicts (judge, human: its value mod 3 and
// mod 9 div 3) and as a pair of scores (its low and high nibble, 0xF meaning none), splits the
// bytes into rows of split+1 verdicts for Consistent, and checks that no statistic panics or is
// NaN or infinite, that the counts add up, and that every κ and correlation lies in [−1, 1]
// (Fleiss' κ's lower bound is above −1) with its reason set exactly when it is undefined. The same
// bytes read as probabilities (b/255, none when b is a multiple of 17) against the human labels
// calibrate with a Brier score and an ECE in [0, 1] and bins that count every pair; each row read
// as a jury (the judge's verdicts with their scores) has, by every rule, a verdict or exactly one
// error check saying why not.
func FuzzStats(f *testing.F) {
	for _, s := range []string{"", "\x00", "\x04\x04\x04", "\x04\x08\x04\x00\x05", "\x12\x34\x56\x78\x9a\xbc\xde\xf0", "\xff\xff", "abcdefghijklmnopqrstuvwxyz"} {
		f.Add([]byte(s), uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint8) {
		judge := make([]Verdict, len(data))
		human := make([]Verdict, len(data))
		xs := make([]Score, len(data))
		ys := make([]Score, len(data))
		for i, b := range data {
			judge[i] = Verdict(b % 3)
			human[i] = Verdict(b % 9 / 3)
			if lo := b & 0xF; lo != 0xF {
				xs[i] = Score{float64(lo) / 3, true}
			}
			if hi := b >> 4; hi != 0xF {
				ys[i] = Score{float64(hi) * 1e6, true}
			}
		}
		a, err := Agree(judge, human)
		if err != nil {
			t.Fatal(err)
		}
		if a.Compared+a.NoLabel+a.Undetermined != a.Pairs || a.Pairs != len(data) {
			t.Fatalf("counts do not add up: %+v", a)
		}
		unit(t, "κ", a.Kappa, a.KappaReason, -1)
		if (a.Kappa == nil) != (a.KappaCI == nil) || a.KappaCI != nil && !(a.KappaCI[0] <= *a.Kappa && *a.Kappa <= a.KappaCI[1]) {
			t.Fatalf("κ %v outside its interval %v", a.Kappa, a.KappaCI)
		}
		for _, v := range []*float64{a.Accuracy, a.JudgeFailPrecision, a.JudgeFailRecall, a.ExpectedAgreement} {
			if v != nil && !(*v >= 0 && *v <= 1) {
				t.Fatalf("a share out of [0, 1]: %+v", a)
			}
		}
		if a.KappaSE != nil && !(*a.KappaSE >= 0 && *a.KappaSE < math.Inf(1)) {
			t.Fatalf("κ's SE %v", *a.KappaSE)
		}

		// Share of any count out of any total: never NaN, bounds inside [0, 1] holding the rate.
		for _, k := range []int{int(split), len(data) - int(split), -int(split)} {
			p := Share(k, len(data))
			if (p.Rate == nil) != (p.N == 0) || (p.CI == nil) != (p.Rate == nil) || (p.Rate == nil) != (p.Reason != "") {
				t.Fatalf("share %d of %d: %+v", k, len(data), p)
			}
			if p.CI != nil && !(0 <= p.CI[0] && p.CI[0] <= *p.Rate && *p.Rate <= p.CI[1] && p.CI[1] <= 1) {
				t.Fatalf("share %d of %d: %v outside [0, 1] or around %v", k, len(data), *p.CI, *p.Rate)
			}
		}

		c, err := Correlate(xs, ys)
		if err != nil {
			t.Fatal(err)
		}
		unit(t, "pearson", c.Pearson, c.PearsonReason, -1)
		unit(t, "spearman", c.Spearman, c.SpearmanReason, -1)
		if c.MAE != nil && (math.IsNaN(*c.MAE) || *c.MAE < 0) || (c.MAE == nil) != (c.MAEReason != "") {
			t.Fatalf("mae %v %q", c.MAE, c.MAEReason)
		}

		var rows [][]Verdict
		for k := 0; k < len(judge); k += int(split) + 1 {
			rows = append(rows, judge[k:min(len(judge), k+int(split)+1)])
		}
		cs := Consistent(rows)
		unit(t, "Fleiss' κ", cs.FleissKappa, cs.FleissReason, -1)
		if cs.Unanimous+cs.Split > cs.Rows || len(cs.PerRow) != len(rows) {
			t.Fatalf("counts do not add up: %+v", cs)
		}

		ps := make([]Prob, len(data))
		for i, b := range data {
			if b%17 != 0 {
				ps[i] = Prob{float64(b) / 255, true}
			}
		}
		cal, err := Calibrate(ps, human)
		if err != nil {
			t.Fatal(err)
		}
		unit(t, "Brier", cal.Brier, cal.BrierReason, 0)
		unit(t, "ECE", cal.ECE, cal.ECEReason, 0)
		inBins := 0
		for _, b := range cal.Bins {
			inBins += b.N
			if (b.N == 0) != (b.MeanP == nil) || b.MeanP != nil && !(*b.MeanP >= b.Lo && *b.MeanP <= b.Hi) {
				t.Fatalf("bin %+v", b)
			}
		}
		if inBins != cal.N || cal.N+cal.Skipped != len(data) || len(cal.Bins) != 10 {
			t.Fatalf("calibration counts do not add up: %+v", cal)
		}

		for k, row := range rows {
			members := make([]Member, len(row))
			for i := range row {
				members[i] = Member{Verdict: row[i], Score: xs[k*(int(split)+1)+i]}
			}
			for _, rule := range []string{RuleMajority, RuleAll, RuleAny, RuleMean} {
				j, err := Jury(members, rule, 2, rule == RuleMean)
				if err != nil {
					t.Fatal(err)
				}
				if (j.Passed == nil) != (len(j.Checks) == 1) || len(j.Checks) > 1 || j.Score != nil && math.IsNaN(*j.Score) ||
					j.Votes.Passed+j.Votes.Failed+j.Votes.Undetermined != len(row) {
					t.Fatalf("jury %s of %v: %+v", rule, row, j)
				}
			}
		}
	})
}

// unit fails unless v is nil with a reason, or a number in [lo, 1] without one.
func unit(t *testing.T, what string, v *float64, reason string, lo float64) {
	t.Helper()
	if v == nil {
		if reason == "" {
			t.Fatalf("%s is null without a reason", what)
		}
		return
	}
	if reason != "" || math.IsNaN(*v) || *v < lo-1e-12 || *v > 1+1e-12 {
		t.Fatalf("%s = %v (reason %q)", what, *v, reason)
	}
}
