package checkup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMatrix(t *testing.T) {
	var cases []Graded
	add := func(tr, outcome string, n int) {
		for ; n > 0; n-- {
			cases = append(cases, Graded{tr, outcome})
		}
	}
	add(Foreign, Caught, 9)
	add(Foreign, Missed, 1)
	add(NumberChanged, Missed, 4)
	add(Foreign, Undetermined, 2)
	add(NoDocument, Undetermined, 3)
	m, err := Matrix(cases)
	require.NoError(t, err)
	require.Len(t, m.Rows, 3)
	f, n, d := m.Rows[0], m.Rows[1], m.Rows[2]
	assert.Equal(t, []any{Foreign, 9, 1, 2, 12}, []any{f.Transform, f.Caught, f.Missed, f.Undetermined, f.Total})
	assert.Equal(t, 0.9, *f.Catch.Rate, "undetermined cases are not counted as missed")
	assert.InDelta(t, 0.5958, f.Catch.CI[0], 1e-4)
	assert.InDelta(t, 0.9821, f.Catch.CI[1], 1e-4)
	assert.Equal(t, 0.0, *n.Catch.Rate)
	assert.Equal(t, [2]float64{0, n.Catch.CI[1]}, *n.Catch.CI, "exactly 0 at the bottom")
	assert.Nil(t, d.Catch.Rate)
	assert.Equal(t, "no case was decided", d.Catch.Reason)
	o := m.Overall
	assert.Equal(t, []int{9, 5, 5, 19}, []int{o.Caught, o.Missed, o.Undetermined, o.Total})
	assert.Equal(t, 9.0/14, *o.Catch.Rate)

	m, err = Matrix(nil)
	require.NoError(t, err)
	assert.Empty(t, m.Rows)
	assert.Equal(t, "no cases", m.Overall.Catch.Reason)
	_, err = Matrix([]Graded{{Foreign, Caught}, {Foreign, "maybe"}})
	assert.ErrorContains(t, err, `case 2: outcome "maybe" is none of caught, missed, undetermined`)
}
