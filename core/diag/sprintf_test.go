package diag

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSprintfMatchesFmt(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"100%% sure", nil},
		{"%s and %q", []any{"a\"b", "tab\there é \x01"}},
		{"%d of %d", []any{3, int64(-7)}},
		{"%v %v %v %v %v", []any{"s", 12, 1.5, true, errors.New("boom")}},
		{"%v %v %v", []any{1e21, 1000000.0, math.Inf(-1)}},
		{"%v", []any{nil}},
		{"%.4g|%.4g|%.4g", []any{3.14159265, 123456.0, 0.000012345}},
		{"%.1f MiB", []any{1.25}},
		{"%.1f MiB", []any{20.05}},
		{"%s", []any{CitationUncited}},
		{"%s", []any{errors.New("e")}},
		{"%q", []any{""}},
		{"%t or %t", []any{true, false}},
		{"%q and %s and %v", []any{namedString("jinja"), namedString("f"), namedString("v")}},
		{"%d %v %d %v", []any{namedInt(-4), namedInt(5), uint8(7), uint(9)}},
		{"%v %t", []any{namedBool(true), namedBool(false)}},
	} {
		assert.Equal(t, fmt.Sprintf(c.format, c.args...), Sprintf(c.format, c.args...), c.format)
	}
}

func TestSprintfShowsWhatItCannotFormat(t *testing.T) {
	assert.Contains(t, Sprintf("%d", "x"), "%!d(")
	assert.Contains(t, Sprintf("%x", 3), "%!x(")
	assert.Equal(t, "a %!d(MISSING)", Sprintf("a %d"))
}

// FuzzSprintf compares Sprintf with fmt.Sprintf on the verbs it supports.
func FuzzSprintf(f *testing.F) {
	f.Add("plain", int64(3), 1.5, true)
	f.Add("quote \" and \\ and \x00 and é and \u2028", int64(-1<<63), math.Inf(1), false)
	f.Add("\xff bad utf-8", int64(1e18), 1e-7, true)
	f.Fuzz(func(t *testing.T, s string, n int64, x float64, b bool) {
		const format = "%s|%q|%v|%d|%v|%v|%t|%.4g|%.1f|%v|%%"
		args := []any{s, s, s, n, n, x, b, x, x, b}
		if want, got := fmt.Sprintf(format, args...), Sprintf(format, args...); want != got {
			t.Fatalf("fmt %q, Sprintf %q", want, got)
		}
	})
}

type (
	namedString string
	namedInt    int
	namedBool   bool
)

func TestThousandsGroupsDigits(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 16777216: "16,777,216", 2_000_000: "2,000,000",
		-1234567: "-1,234,567", 100000: "100,000",
	} {
		assert.Equal(t, want, Thousands(n), "%d", n)
	}
}
