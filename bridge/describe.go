package bridge

import "ragjudge/core/stats"

// describe is rj.describe(xs): the mean and sample standard deviation of scores, nulls skipped
// (a row's scores over the repeats of a run).
func describe(_ *Bridge, a *Args) (any, error) {
	xs, err := a.scoreList(0, "xs")
	if err != nil {
		return nil, err
	}
	return stats.Describe(xs), nil
}
