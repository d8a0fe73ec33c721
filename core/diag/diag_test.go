package diag

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorString(t *testing.T) {
	for _, tc := range []struct {
		err  Error
		want string
	}{
		{Error{Kind: "template", Name: "claim-groundedness", Line: 3, Col: 14, Msg: `unexpected "}}"`}, `template: claim-groundedness:3:14: unexpected "}}"`},
		{Error{Kind: "recall", Msg: "no essential passage"}, "recall: no essential passage"},
		{Error{Kind: "output", Line: 2, Msg: "x"}, "output: 2: x"},
		{Error{Kind: "input", Name: "claims", Msg: "want a list"}, "input: claims: want a list"},
	} {
		assert.Equal(t, tc.want, tc.err.Error())
	}
}

func TestPosition(t *testing.T) {
	src := "ab\nçd{{"
	l, c := Position(src, len("ab\nçd"))
	assert.Equal(t, 2, l)
	assert.Equal(t, 3, c)
	l, c = Position(src, 0)
	assert.Equal(t, [2]int{1, 1}, [2]int{l, c})
}
