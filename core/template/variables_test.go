package template

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
)

func TestVariables(t *testing.T) {
	tests := []struct {
		name, src string
		dialect   Dialect
		want      []string
	}{
		{"plain", "{{ question }} {{ contexts|join }} {{ question }}", Jinja, []string{"question", "contexts"}},
		{"attributes read the base", "{{ user.name }} {{ d['k'] }}", Jinja, []string{"user", "d"}},
		{"loop target is not an input", "{% for c in contexts %}{{ c }}{{ loop.index }}{{ sep }}{% endfor %}", Jinja, []string{"contexts", "sep"}},
		{"set before read", "{% set x = 1 %}{{ x }}{{ y }}", Jinja, []string{"y"}},
		{"read before set", "{{ x }}{% set x = 1 %}", Jinja, []string{"x"}},
		{"set in one branch only", "{% if c %}{% set x = 1 %}{% endif %}{{ x }}", Jinja, []string{"c", "x"}},
		// Jinja resolves x from the inputs here too (jinja2.meta.find_undeclared_variables agrees).
		{"set in every branch", "{% if c %}{% set x = 1 %}{% else %}{% set x = 2 %}{% endif %}{{ x }}", Jinja, []string{"c", "x"}},
		{"set in a branch, never read", "{% if c %}{% set x = 1 %}{% endif %}", Jinja, []string{"c"}},
		{"macro parameters", "{% macro m(a, b=dflt) %}{{ a }}{{ b }}{{ g }}{{ caller() }}{{ kwargs }}{% endmacro %}{% call m(1) %}{{ inner }}{% endcall %}", Jinja, []string{"dflt", "g", "inner"}},
		{"with names", "{% with a = src %}{{ a }}{{ b }}{% endwith %}", Jinja, []string{"src", "b"}},
		{"globals", "{{ range(3)|join }}{% set ns = namespace(a=1) %}{% set ns.a = 2 %}{{ dict(a=1) }}{{ cycler }}{{ joiner }}{{ lipsum }}{{ loop }}", Jinja, []string{}},
		{"tuple unpacking", "{% for k, (a, b) in items %}{{ k }}{{ a }}{{ z }}{% endfor %}", Jinja, []string{"items", "z"}},
		{"loop filter", "{% for x in xs if x > lim %}{{ x }}{% endfor %}", Jinja, []string{"xs", "lim"}},
		{"set block", "{% set s | upper %}{{ a }}{% endset %}{{ s }}", Jinja, []string{"a"}},
		{"filter arguments", "{{ a|default(b, boolean=c) is defined }}{{ x|join(d=y) }}", Jinja, []string{"a", "b", "c", "x", "y"}},
		{"inline if and slices", "{{ a if b else c[1:n] }}", Jinja, []string{"a", "b", "c", "n"}},
		{"format", "{question} {{x}} {ctx[0]} {d.k} {question} {}", Format, []string{"question", "ctx", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Variables("t", tt.src, tt.dialect)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestVariablesErrors(t *testing.T) {
	for _, tt := range []struct {
		src     string
		dialect Dialect
		line    int
	}{{"a\n{{ x }", Jinja, 2}, {"{% for %}", Jinja, 1}, {"a {x", Format, 1}} {
		_, err := Variables("t", tt.src, tt.dialect)
		var de *diag.Error
		require.True(t, errors.As(err, &de), "%q: %v", tt.src, err)
		assert.Equal(t, tt.line, de.Line, "%q: %v", tt.src, err)
	}
	_, err := Variables("t", "x", "liquid")
	require.Error(t, err)
}

// TestReadsManyNames reads a template of thousands of names, over lines of several widths and
// with multi-byte text between them: the names' lines and columns are diag.Position's, and the
// whole read is quick (counting each position from the start of the template took seconds).
func TestReadsManyNames(t *testing.T) {
	for _, dialect := range []Dialect{Jinja, Format} {
		var b strings.Builder
		n := 20000
		for i := 0; i < n; i++ {
			open, shut := "{{ ", " }}"
			if dialect == Format {
				open, shut = "{", "}"
			}
			b.WriteString(open + "v" + strconv.Itoa(i) + shut + " é ")
			if i%7 == 0 {
				b.WriteString("\nline ")
			}
		}
		src := b.String()
		start := time.Now()
		got, err := Reads("t", src, dialect)
		took := time.Since(start)
		require.NoError(t, err)
		require.Len(t, got, n)
		off := 0
		for i, r := range got {
			// A read is at its name.
			var k int
			if dialect == Format {
				k = strings.Index(src[off:], "{v"+strconv.Itoa(i)+"}") + 1
			} else {
				k = strings.Index(src[off:], "{ v"+strconv.Itoa(i)+" }") + 2
			}
			require.Greater(t, k, 0)
			off += k
			if i%1999 == 0 || i == n-1 { // diag.Position counts from the start: a sample keeps the test quick
				line, col := diag.Position(src, off)
				require.Equal(t, [2]int{line, col}, [2]int{r.Line, r.Col}, "%s %d", r.Name, i)
			}
			off += 2
		}
		t.Logf("%s: %v", dialect, took)
		// Counted from the start each time, this read took 12 s natively and a minute in the
		// wasm; counted on, 64 ms and under 1 s (on a loaded machine).
		bound := 2 * time.Second
		if runtime.GOOS == "js" {
			bound = 10 * time.Second
		}
		assert.Less(t, took, bound, "%s: %v", dialect, took)
	}
}
