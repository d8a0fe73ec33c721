package stats

import "math"

// Description is the mean and the spread of a list of scores, such as one row's scores over the
// repeats of a run.
type Description struct {
	// N counts the scores given (nulls are skipped).
	N    int      `json:"n"`
	Mean *float64 `json:"mean"`
	// SD is the sample standard deviation (divided by n − 1: the repeats are a sample of what the
	// judge could answer); nil for fewer than two scores, with SDReason.
	SD         *float64  `json:"sd"`
	MeanReason string    `json:"mean_reason,omitempty"`
	SDReason   string    `json:"sd_reason,omitempty"`
	_          [0]func() // not comparable: no equality function in the wasm
}

// Describe gives the mean and the sample standard deviation of the scores given in xs. The mean
// is taken first and the deviations from it summed after (two passes), so that scores close
// together far from 0 keep their spread.
func Describe(xs []Score) Description {
	var d Description
	var sum float64
	for _, x := range xs {
		if x.Given {
			d.N++
			sum += x.Value
		}
	}
	if d.N == 0 {
		d.MeanReason = "no scores"
		d.SDReason = "no scores"
		return d
	}
	mean := sum / float64(d.N)
	d.Mean = num(mean)
	if d.N < 2 {
		d.SDReason = "one score has no spread"
		return d
	}
	var ss float64
	for _, x := range xs {
		if x.Given {
			ss += (x.Value - mean) * (x.Value - mean)
		}
	}
	d.SD = num(math.Sqrt(ss / float64(d.N-1)))
	return d
}
