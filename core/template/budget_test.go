package template

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// hostileVars are what the budget tests loop over: a list of many items and a large string.
func hostileVars() *value.Object {
	xs := make([]any, 100000)
	for i := range xs {
		xs[i] = int64(i)
	}
	return value.NewObject("xs", xs, "big", strings.Repeat("abcdefgh ", 1<<17)) // 1.1 MB
}

// TestBudget: a template that does unbounded work ends in an error at the construct that was
// running, within a bounded amount of work; the work budget is the same in the wasm, where these tests
// also run (so the bound is on bytes allocated, not on time).
func TestBudget(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"upper in a loop, no output", "{% for i in xs %}{% if big|upper %}{% endif %}{% endfor %}", 1, 28, "too much work"},
		{"upper in a loop, printed", "{% for i in xs %}\n{{ big|upper }}{% endfor %}", 2, 8, "too much work"},
		{"printing in a loop", "{% for i in xs %}\n{{ big }}{% endfor %}", 2, 4, "output is over the limit of 16,777,216 bytes"},
		{"replace growing text", "{% for i in xs %}{% set y = big|replace('a', 'aaaa') %}{% endfor %}", 1, 33, "too much work"},
		{"many small steps", "{% for i in xs %}{% for j in xs %}{{ '' }}{% endfor %}{% endfor %}", 1, 0, "too much work"},
		{"arithmetic", "{% for i in xs %}{% set y = i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i+i %}{% endfor %}", 1, 0, "too much work"},
		{"comparing large lists", "{% for i in xs %}{% if xs == xs %}{% endif %}{% endfor %}", 1, 27, "too much work"},
		{"searching a large string", "{% for i in xs %}{% if 'z' in big %}{% endif %}{% endfor %}", 1, 28, "too much work"},
		{"indexing a large string", "{% for i in xs %}{% if big[-1] %}{% endif %}{% endfor %}", 1, 27, "too much work"},
		{"concatenating", "{% for i in xs %}{% set y = big ~ big %}{% endfor %}", 1, 29, "too much work"},
		{"joining", "{% for i in xs %}{% set y = xs|join(',') %}{% endfor %}", 1, 32, "too much work"},
		{"looping over a large string", "{% for c in big %}{% endfor %}", 1, 4, "loop iterations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allocated, err := renderHostile(t, tt.src)
			require.Error(t, err)
			d, ok := err.(*diag.Error)
			require.True(t, ok, "%T", err)
			assert.Equal(t, "template", d.Kind)
			assert.Contains(t, d.Msg, tt.msg)
			assert.Equal(t, tt.line, d.Line)
			if tt.col > 0 {
				assert.Equal(t, tt.col, d.Col, d.Error())
			}
			// Running on to the end would allocate at least the 100,000 iterations' output or
			// values: gigabytes.
			assertAllocatedUnder(t, allocated, 256)
		})
	}
}

// TestBudgetLeavesRoomForLargePrompts: rendering megabytes of real input stays well inside the
// budget.
func TestBudgetLeavesRoomForLargePrompts(t *testing.T) {
	chunk := strings.Repeat("The patient received 100 mg of aspirin. ", 50) // 2 KB
	evidence := make([]any, 2500)                                           // 5 MB
	for i := range evidence {
		evidence[i] = value.NewObject("title", "Chunk", "text", chunk)
	}
	src := "{% for e in evidence %}[{{ loop.index }}] {{ e.title|upper }}: {{ e.text|trim|replace('\\n', ' ') }}\n{% endfor %}{{ evidence|length }}"
	out, err := Render("big", src, Jinja, value.NewObject("evidence", evidence))
	require.NoError(t, err)
	assert.Greater(t, len(out), 5_000_000)
}

// TestNestingLimit: the parser's recursion stops at maxDepth with a positioned error, at and
// one past the deepest template it accepts, for each kind of nesting.
func TestNestingLimit(t *testing.T) {
	tests := []struct {
		name string
		make func(n int) string
		max  int // the deepest nesting accepted
	}{
		{"parentheses", func(n int) string { return "{{ " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + " }}" }, 20},
		{"lists", func(n int) string { return "{{ " + strings.Repeat("[", n) + strings.Repeat("]", n) + "|length }}" }, 21},
		{"not", func(n int) string { return "{{ " + strings.Repeat("not ", n) + "1 }}" }, 61},
		{"minus", func(n int) string { return "{{ " + strings.Repeat("-", n) + "1 }}" }, 61},
		{"if blocks", func(n int) string { return strings.Repeat("{% if 1 %}", n) + "x" + strings.Repeat("{% endif %}", n) }, 61},
		{"for blocks", func(n int) string {
			return strings.Repeat("{% for x in [1] %}", n) + "x" + strings.Repeat("{% endfor %}", n)
		}, 58},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render("deep", tt.make(tt.max), Jinja, nil)
			require.NoError(t, err, "at the limit")
			_, err = Render("deep", tt.make(tt.max+1), Jinja, nil)
			require.Error(t, err, "one past the limit")
			d := err.(*diag.Error)
			assert.Equal(t, "nesting deeper than 64 levels", d.Msg)
			assert.Equal(t, 1, d.Line)
			assert.Greater(t, d.Col, 1)
			// Far past it too: the parser stops at the limit, not at the end of the input.
			_, err = Render("deep", tt.make(100000), Jinja, nil)
			require.Error(t, err)
		})
	}
}
