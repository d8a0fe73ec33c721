package diag

import (
	"strings"
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

// TestPositionCountsAsRunes: Position counts with the byte functions what a walk over the
// runes counts, invalid UTF-8, an offset inside a character and past the end included.
func TestPositionCountsAsRunes(t *testing.T) {
	byRunes := func(src string, off int) (int, int) {
		line, col := 1, 1
		for _, r := range src[:min(off, len(src))] {
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return line, col
	}
	for _, src := range []string{"", "\n", "a\nb\n\nc", "ç\n😀x\n", "\xff\xfe\na\xc3", "ab\r\ncd", "日本\n語"} {
		for off := 0; off <= len(src)+1; off++ {
			l, c := Position(src, off)
			wl, wc := byRunes(src, off)
			assert.Equal(t, [2]int{wl, wc}, [2]int{l, c}, "%q at %d", src, off)
		}
	}
}

func TestNewlines(t *testing.T) {
	for _, s := range []string{"", "\n", "abc", "a\nb\n\nc", strings.Repeat("\n", 17), strings.Repeat("x\n\x8a\x0b\xff\t", 13), "\n\n\n\n\n\n\n\nz"} {
		for i := 0; i <= len(s); i++ {
			assert.Equal(t, strings.Count(s[i:], "\n"), Newlines(s[i:]), "%q", s[i:])
		}
	}
}

func TestLineCol(t *testing.T) {
	assert.Equal(t, "2:3", LineCol("ab\nçd{{", len("ab\nçd")))
	assert.Equal(t, "1:1", LineCol("", 0))
	assert.Equal(t, "1:3", LineCol("ab", 9), "past the end: the end")
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"çà😀x", 3, "çà😀…"},
		{"çà😀", 3, "çà😀"},
		{"a\xffb\xfec", 3, "a\xffb…"},
		{"abc", 0, "…"},
	} {
		assert.Equal(t, tc.want, Clip(tc.s, tc.n), "%q to %d", tc.s, tc.n)
	}
}
