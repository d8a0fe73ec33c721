package template

import (
	"errors"
	"testing"

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
