package template

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// TestRecursionEnds: a recursion that does not end (a macro calling itself, a recursive loop
// over itself, a call block's caller calling its macro) ends in an error at a line, within a bounded
// amount of work and without exhausting the stack; these tests also run in the wasm.
func TestRecursionEnds(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"macro calls itself", "{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}\n{{ m(0) }}", 1, "macro calls nested deeper than 100"},
		{"macros call each other", "{% macro a() %}{{ b() }}{% endmacro %}{% macro b() %}{{ a() }}{% endmacro %}{{ a() }}", 1, "nested deeper"},
		{"default calls the macro", "{% macro m(x=m()) %}{% endmacro %}{{ m() }}", 1, "nested deeper"},
		{"caller calls the macro", "{% macro m() %}{{ caller() }}{% endmacro %}{% macro c() %}{% call m() %}{{ c() }}{% endcall %}{% endmacro %}{{ c() }}", 1, "nested deeper"},
		{"recursive loop over itself", "{% for x in ['a'] recursive %}\n{{ loop(['a']) }}{% endfor %}", 2, "recursive loop calls nested deeper than 100"},
		{"recursive loop over a string", "{% for x in 'ab' recursive %}{{ loop(x) }}{% endfor %}", 1, "nested deeper"},
		{"wide recursion hits the work budget", "{% macro m(n) %}{% for i in range(100) %}{{ m(n + 1) if n < 5 else '' }}{% endfor %}{% endmacro %}{{ m(0) }}", 1, "too much work"},
		{"blocks nested by recursion", "{% macro m(n) %}" + strings.Repeat("{% if 1 %}", 30) + "{{ m(n + 1) }}" + strings.Repeat("{% endif %}", 30) + "{% endmacro %}{{ m(0) }}", 1, "blocks nested deeper than 400"},
		{"listing a huge range", "{{ range(10 ** 8)|list|length }}", 1, "more than"},
		{"looping over a huge range", "{% for i in range(10 ** 8) %}{% endfor %}", 1, "loop iterations"},
		{"a long loop in a macro hits the output cap", "{% macro m() %}{% for i in range(20) %}{{ big }}{% endfor %}{% endmacro %}{{ m() }}", 1, "over the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allocated, err := renderHostile(t, tt.src)
			assertAllocatedUnder(t, allocated, 256)
			var de *diag.Error
			require.ErrorAs(t, err, &de)
			assert.Contains(t, de.Msg, tt.msg)
			assert.Equal(t, tt.line, de.Line, de.Error())
			assert.Positive(t, de.Col)
		})
	}
}

// TestRecursionWithinTheCap: recursion that ends renders, as deep as the cap allows.
func TestRecursionWithinTheCap(t *testing.T) {
	out, err := Render("r", "{% macro m(n) %}{{ n }}{% if n < 99 %},{{ m(n + 1) }}{% endif %}{% endmacro %}{{ m(0) }}", Jinja, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(out, ",98,99"), out)
	tree := "{% for x in t recursive %}[{{ x.n }}:{{ loop.depth }}{{ loop(x.c) }}]{% endfor %}"
	var node any = []any{}
	for i := 59; i >= 0; i-- {
		node = []any{value.NewObject("n", int64(i), "c", node)}
	}
	out, err = Render("r", tree, Jinja, value.NewObject("t", node))
	require.NoError(t, err)
	assert.Contains(t, out, "[59:60]")
}

// TestPythonCompileErrors: what Jinja turns into Python that Python's compiler rejects (its
// line is one of the generated code, so the corpus cannot hold these) is an error here too.
func TestPythonCompileErrors(t *testing.T) {
	for _, src := range []string{
		"{% macro m(a, a) %}{% endmacro %}",
		"{{ x|join(d=1, d=2) }}",
		"{% macro m() %}{% endmacro %}{% call m(caller=1) %}{% endcall %}",
	} {
		_, err := Render("c", src, Jinja, nil)
		var de *diag.Error
		require.ErrorAs(t, err, &de, src)
		assert.Contains(t, de.Msg, "Jinja fails to compile it", src)
		assert.Equal(t, 1, de.Line)
	}
}

// TestErrorWording: for the argument-binding and macro errors of the conformance corpus, the
// message is Python's and Jinja's, word for word (the corpus test compares lines only).
func TestErrorWording(t *testing.T) {
	cases := readJSONLines[conformanceCase](t, "testdata/conformance/cases.jsonl")
	goldens := readJSONLines[conformanceGolden](t, "testdata/conformance/expected.jsonl")[1:]
	checked := 0
	for i, c := range cases {
		g := goldens[i]
		if g.Error == "" || g.Error == "TemplateSyntaxError" || g.Name == "kwargs-length-args" ||
			!strings.HasPrefix(c.Name, "kwargs-") && !strings.HasPrefix(c.Name, "macro-") && !strings.HasPrefix(c.Name, "loop-store") {
			continue
		}
		v, err := value.Decode(c.Vars)
		require.NoError(t, err)
		vars, _ := v.(*value.Object)
		_, err = Render(c.Name, c.Template, Jinja, vars)
		var de *diag.Error
		require.ErrorAs(t, err, &de, c.Name)
		want := g.Message
		if g.Error == "TypeError" {
			want = "TypeError: " + want
		}
		assert.Equal(t, want, de.Msg, c.Name)
		checked++
	}
	assert.GreaterOrEqual(t, checked, 8)
}
