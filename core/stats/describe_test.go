package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func described(vs ...any) []Score {
	out := make([]Score, len(vs))
	for i, v := range vs {
		if f, ok := v.(float64); ok {
			out[i] = Score{Value: f, Given: true}
		}
	}
	return out
}

func TestDescribe(t *testing.T) {
	// Values worked by hand; the last also by Python's statistics.stdev (sqrt(32/7)).
	tests := []struct {
		name     string
		xs       []Score
		n        int
		mean, sd *float64
		reason   string
	}{
		{"none", nil, 0, nil, nil, "no scores"},
		{"only nulls", described(nil, nil), 0, nil, nil, "no scores"},
		{"one", described(0.5, nil), 1, num(0.5), nil, "one score has no spread"},
		{"same", described(1.0, 1.0, 1.0), 3, num(1), num(0), ""},
		{"flip", described(1.0, 0.0, 1.0), 3, num(2.0 / 3), num(math.Sqrt(1.0 / 3)), ""},
		{"textbook", described(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0), 8, num(5), num(math.Sqrt(32.0 / 7)), ""},
		{"far from zero", described(1e9+1, 1e9+2, 1e9+3), 3, num(1e9 + 2), num(1), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Describe(tc.xs)
			assert.Equal(t, tc.n, d.N)
			if tc.mean == nil {
				assert.Nil(t, d.Mean)
				assert.Equal(t, "no scores", d.MeanReason)
			} else {
				require.NotNil(t, d.Mean)
				assert.InDelta(t, *tc.mean, *d.Mean, 1e-12)
			}
			if tc.sd == nil {
				assert.Nil(t, d.SD)
				assert.Equal(t, tc.reason, d.SDReason)
			} else {
				require.NotNil(t, d.SD)
				assert.InDelta(t, *tc.sd, *d.SD, 1e-12)
				assert.Empty(t, d.SDReason)
			}
		})
	}
}
