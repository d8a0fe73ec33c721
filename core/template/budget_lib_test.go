package template

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// TestBudgetFilters: the filters whose work grows faster than their input and output (a list of
// a string's characters, textwrap's list of words, a case mapping per word, a sort) are charged
// for it before doing it, so that over large text they stop at once with the budget's error.
func TestBudgetFilters(t *testing.T) {
	// maxMB bounds what the render may allocate: (big * 2) alone is 2.4 MB, and a filter that did
	// its work before being charged for it would allocate tens of megabytes (a list of 2.4
	// million characters) before failing.
	tests := []struct {
		name, src string
		maxMB     uint64
	}{
		{"wordwrap of many words", "{{ (big * 2)|wordwrap(80)|length }}", 8},
		{"title of many words", "{{ (big * 2)|title|length }}", 8},
		{"max over a string's characters", "{{ (big * 2)|max }}", 8},
		{"list of a string's characters", "{{ (big * 2)|list|length }}", 8},
		{"slice of a string's characters", "{{ (big * 2)|slice(3)|list|length }}", 8},
		{"select over a string's characters", "{{ (big * 2)|select|list|length }}", 8},
		{"map over a string's characters", "{{ (big * 2)|map('upper')|join|length }}", 8},
		{"join of a string's characters", "{{ (big * 2)|join(',')|length }}", 8},
		{"sorting a string's characters", "{{ (big * 2)|sort|length }}", 8},
		{"indent of many lines", "{{ (big|replace(' ', '\n') * 2)|indent|length }}", 96},
		{"format of many fields", "{{ ('%s' * 1000000)|format(*xs)|length }}", 8},
		{"sorting in a loop", "{% for i in xs %}{{ xs|sort|length }}{% endfor %}", 32},
		{"unique in a loop", "{% for i in xs %}{{ xs|unique|list|length }}{% endfor %}", 48},
		{"groupby in a loop", "{% for i in xs %}{{ xs|batch(2)|groupby(1)|length }}{% endfor %}", 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allocated, err := renderHostile(t, tt.src)
			require.Error(t, err)
			d, ok := err.(*diag.Error)
			require.True(t, ok, "%T", err)
			assert.Contains(t, d.Msg, "too much work: more than 2,000,000 steps")
			assertAllocatedUnder(t, allocated, tt.maxMB)
		})
	}
}

// TestBudgetDeepValues: writing out a nested value (tojson, string; pprint too) is charged for every
// item it holds, so that doing it in a loop stops at the budget.
func TestBudgetDeepValues(t *testing.T) {
	for _, f := range []string{"tojson", "string"} {
		t.Run(f, func(t *testing.T) {
			allocated, err := renderHostile(t, "{% set d = {'a': xs} %}{% for i in xs %}{{ d|"+f+"|length }}{% endfor %}")
			require.Error(t, err)
			assert.Contains(t, err.Error(), "too much work")
			assertAllocatedUnder(t, allocated, 64)
		})
	}
}

// TestUrlizeLongPunctuation: urlize strips a word's lead and trail punctuation by index; cutting
// one character at a time made 2 MB of "(" quadratic and ran the wasm out of memory.
func TestUrlizeLongPunctuation(t *testing.T) {
	render := func(word string) string {
		out, err := Render("urlize", "{{ w|urlize }}", Jinja, value.NewObject("w", word))
		require.NoError(t, err)
		return out
	}
	for _, word := range []string{strings.Repeat("(", 300000), strings.Repeat(")", 300000)} {
		assert.Equal(t, word, render(word))
	}
	brackets := strings.Repeat("(", 100000)
	out := render(brackets + "example.com" + strings.Repeat(")", 100000))
	assert.True(t, strings.HasPrefix(out, brackets+`<a href="https://example.com"`), out[:120])
}
