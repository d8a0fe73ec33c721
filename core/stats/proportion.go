package stats

import "math"

// Proportion is a count out of a total, k of n, with its share and the share's 95% Wilson score
// interval: the catch rate of a check-up's transformation, the flip rate of a pairwise run judged
// in both orders. Rate and CI are nil, with Reason, when n is 0.
type Proportion struct {
	K      int         `json:"k"`
	N      int         `json:"n"`
	Rate   *float64    `json:"rate"`
	CI     *[2]float64 `json:"ci"`
	Reason string      `json:"reason,omitempty"`
}

// Share is k of n with Wilson's (1927) score interval at 95%:
//
//	(2k + z² ± z·√(z² + 4k(n−k)/n)) / (2(n + z²))
//
// chosen over the normal approximation p ± z·√(p(1−p)/n) because a check-up draws a few dozen
// cases and judges often catch all or none of a kind: there the normal interval collapses to a
// point (0 of 12 would read [0, 0]) where Wilson's says [0, 0.24]. The bounds are exact where
// they can be: 0 for k = 0 and 1 for k = n, never −1e-17 or 1.0000000000000002; they always hold
// the rate. k outside 0..n is clamped to it (a caller's counting bug shows as a bound, never NaN).
func Share(k, n int) Proportion {
	p := Proportion{K: k, N: n}
	if n <= 0 {
		p.N = 0
		p.Reason = "no cases"
		return p
	}
	k = min(max(k, 0), n)
	p.K = k
	rate := float64(k) / float64(n)
	p.Rate = num(rate)
	c := z975 * z975
	fk, fn := float64(k), float64(n)
	half := z975 * math.Sqrt(c+4*fk*(fn-fk)/fn)
	lo := (2*fk + c - half) / (2 * (fn + c))
	hi := (2*fk + c + half) / (2 * (fn + c))
	switch {
	case k == 0:
		lo = 0
	case k == n:
		hi = 1
	}
	p.CI = &[2]float64{min(max(lo, 0), rate), max(min(hi, 1), rate)}
	return p
}
