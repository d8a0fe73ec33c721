package template

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

func testVars() *value.Object {
	return value.NewObject("name", "Ada", "xs", []any{int64(1), int64(2)}, "d", value.NewObject("a", int64(1)))
}

// TestUnclosedSaysWhereItWasOpened: an error at a "{{" or "{%" left open, or at a block never
// ended, keeps Jinja's line and column (where Jinja stopped) and says where the tag or block was
// opened; errors in a closed tag say nothing of the kind.
func TestUnclosedSaysWhereItWasOpened(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"print at the end", "Hello {{ name", 1, 10, `unexpected end of template, expected "end of print statement"; the "{{" opened at line 1, column 7 is not closed`},
		{"print runs on", "Question: {{ name\n\nAnswer: {{ n }}", 3, 1, `expected "end of print statement", got "Answer"; the "{{" opened at line 1, column 11 is not closed`},
		{"print, an expression cut", "a\n  é {{ foo(", 2, 11, `unexpected "end of template"; the "{{" opened at line 2, column 5 is not closed`},
		{"print on its own line", "{{ name }}\n{{ xs|join(', ')\n", 2, 16, `unexpected end of template, expected "end of print statement"; the "{{" opened at line 2, column 1 is not closed`},
		{"statement runs on", "a\n{% if n\nb", 3, 1, `expected "end of statement block", got "b"; the "{%" opened at line 2, column 1 is not closed`},
		{"statement at the end", "{{ name }}\n{% if", 2, 4, `unexpected "end of template"; the "{%" opened at line 2, column 1 is not closed`},
		{"block never ended", "x\n  {% if n %}\nyes", 2, 13, `unexpected end of template; expected "elif" or "else" or "endif" to close "if" (opened at line 2, column 6)`},
		{"inner block never ended", "{% for x in xs %}\n{% if x %}\n{{ x }}\n{% endfor %}", 4, 4, `unknown tag "endfor"; expected "elif" or "else" or "endif" to close "if" (opened at line 2, column 4)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render("tpl", tt.src, Jinja, testVars())
			var de *diag.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{de.Line, de.Col}, "%v", err)
			assert.Equal(t, tt.msg, de.Msg)
		})
	}
	for _, src := range []string{"{{ name + }}", "{% if %}x{% endif %}", "{{ (1 }}", "{% for %}", "{{ name|frob }}"} {
		_, err := Render("tpl", src, Jinja, testVars())
		require.Error(t, err, src)
		assert.NotContains(t, err.Error(), "opened at", src)
	}
}

func TestErrorsHaveLineAndColumn(t *testing.T) {
	tests := []struct {
		name, src string
		dialect   Dialect
		line, col int
		msg       string
	}{
		{"undefined name", "Hi {{ who }}", Jinja, 1, 7, "'who' is undefined"},
		{"undefined name after unicode", "é😀 {{ who }}", Jinja, 1, 7, "'who' is undefined"},
		{"undefined attribute", "a\n  {{ d.zz.y }}", Jinja, 2, 8, "'dict object' has no attribute 'zz'"},
		{"unexpected end of print", "{{ name + }}", Jinja, 1, 11, `unexpected "end of print statement"`},
		{"unclosed print", "x\n{{ name", Jinja, 2, 4, "unexpected end of template"},
		{"unclosed if", "{% if 1 %}\nyes", Jinja, 1, 11, `expected "elif" or "else" or "endif" to close "if"`},
		{"unknown tag", "\n\n  {% frobnicate %}", Jinja, 3, 6, `unknown tag "frobnicate"`},
		{"unknown filter", "{{ name|frob }}", Jinja, 1, 9, `unknown filter "frob"`},
		{"unsupported filter", "{{ name|random }}", Jinja, 1, 9, "not supported"},
		{"unsupported test", "{{ 1 is sameas 1 }}", Jinja, 1, 9, "not supported"},
		{"unsupported tag", "{% include 'x' %}", Jinja, 1, 4, "not supported"},
		{"type error", "{{ 'a' + 1 }}", Jinja, 1, 8, "can only concatenate str"},
		{"division by zero", "{{ 1 // 0 }}", Jinja, 1, 6, "ZeroDivisionError"},
		{"bad char", "{{ a ? b }}", Jinja, 1, 6, "unexpected char '?'"},
		{"unbalanced", "{{ (1 }}", Jinja, 1, 7, "unexpected '}', expected ')'"},
		{"comment unclosed", "ok {# x", Jinja, 1, 4, "Missing end of comment tag"},
		{"raw unclosed", "{% raw %}\nx", Jinja, 1, 10, "Missing end of raw directive"},
		{"truncated escape", `{{ '\x4' }}`, Jinja, 1, 4, `truncated \xXX escape`},
		{"too deep", "{{ " + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100) + " }}", Jinja, 1, 0, "nesting deeper than 64"},
		{"format missing name", "a\n b {who}", Format, 2, 4, "'who' is undefined"},
		{"format single close", "a } b", Format, 1, 3, "single '}'"},
		{"format unclosed", "é {name", Format, 1, 3, "expected '}' before end of string"},
		{"format open at end", "abc {", Format, 1, 5, "single '{'"},
		{"format positional", "{}", Format, 1, 1, "positional fields"},
		{"format spec", "{name:>5}", Format, 1, 1, "not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render("tpl", tt.src, tt.dialect, testVars())
			require.Error(t, err)
			var de *diag.Error
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, "template", de.Kind)
			assert.Equal(t, "tpl", de.Name)
			assert.Equal(t, tt.line, de.Line, "%v", err)
			if tt.col > 0 {
				assert.Equal(t, tt.col, de.Col, "%v", err)
			}
			assert.Contains(t, de.Msg, tt.msg)
		})
	}
}

func TestErrorPrintsAsDesigned(t *testing.T) {
	_, err := Render("claim-groundedness", "a\nb\n  {{ x }}}}", Jinja, nil)
	require.Error(t, err)
	assert.Equal(t, `template: claim-groundedness:3:6: 'x' is undefined`, err.Error())
}

func TestSpans(t *testing.T) {
	out, spans, err := RenderSpans("t", "é {{ name }}{% for x in xs %}[{{- x -}}]{% endfor %}{{ d.a is defined }}", Jinja, testVars())
	require.NoError(t, err)
	assert.Equal(t, "é Ada[1][2]True", out)
	require.Len(t, spans, 4)
	assert.Equal(t, Span{Expr: "name", Input: "name", Start: 3, End: 6}, spans[0])
	assert.Equal(t, Span{Expr: "x", Input: "xs", Start: 7, End: 8}, spans[1])
	assert.Equal(t, Span{Expr: "x", Input: "xs", Start: 10, End: 11}, spans[2])
	assert.Equal(t, "d.a is defined", spans[3].Expr)
	for _, s := range spans[:3] {
		assert.Contains(t, []string{"Ada", "1", "2"}, out[s.Start:s.End])
	}

	out, spans, err = RenderSpans("t", "{{x}} {name} {{ {name:}", Format, testVars())
	require.NoError(t, err)
	assert.Equal(t, "{x} Ada { Ada", out)
	assert.Equal(t, []Span{{Expr: "name", Input: "name", Start: 4, End: 7}, {Expr: "name:", Input: "name", Start: 10, End: 13}}, spans)
}

// TestAppendRender: the output goes after dst's bytes, which stay; spans count from the
// output's start; on an error dst comes back as it was.
func TestAppendRender(t *testing.T) {
	head := []byte("head:")
	out, err := AppendRender(head, "t", "{% macro m(x) %}<{{ x }}>{% endmacro %}{{ name }} {{ m(name) }}{% for x in xs %}{{ x }}{% endfor %}", Jinja, testVars())
	require.NoError(t, err)
	assert.Equal(t, "head:Ada <Ada>12", string(out))
	out, err = AppendRender(head, "t", "{name}!", Format, testVars())
	require.NoError(t, err)
	assert.Equal(t, "head:Ada!", string(out))
	out, err = AppendRender(head, "t", "{{ name }}{{ nope }}", Jinja, testVars())
	require.Error(t, err)
	assert.Equal(t, "head:", string(out))
}

// TestCaptureHasItsOwnCap: what a block captures (set, filter, macro) shares the output's
// buffer but is capped on its own, as a string computed on the way, and the output as a whole.
func TestCaptureHasItsOwnCap(t *testing.T) {
	big := strings.Repeat("x", 9<<20)
	vars := value.NewObject("big", big)
	out, err := Render("t", "{{ big }}{% set c %}{{ big }}{% endset %}{{ c|length }}", Jinja, vars)
	require.NoError(t, err)
	assert.Equal(t, big+"9437184", out)
	_, err = Render("t", "{% set c %}{{ big }}{{ big }}{% endset %}", Jinja, vars)
	assert.ErrorContains(t, err, "over the limit")
	_, err = Render("t", "{{ big }}{% set c %}{{ big }}{% endset %}{{ c }}", Jinja, vars)
	assert.ErrorContains(t, err, "over the limit")
}

// TestSpanInputs: a span's input is the variable its text comes from, through the names the
// template binds; loop.index, literals and names bound to no input are no input's text, so a page
// neither lists them among the inputs nor marks them as one.
func TestSpanInputs(t *testing.T) {
	vars := value.NewObject("name", "Ada", "xs", []any{"p", "q"}, "d", value.NewObject("a", int64(1)), "pairs", []any{[]any{"k", "v"}})
	tests := []struct {
		name, src string
		want      []string // each span as expr=input
	}{
		{"a name and its filters", "{{ name }} {{ name|upper }} {{ d.a }} {{ name.lower() }} {{ xs[0] }}",
			[]string{"name=name", "name|upper=name", "d.a=d", "name.lower()=name", "xs[0]=xs"}},
		{"a loop over an input", "{% for p in xs %}[{{ loop.index }}] {{ p }}{% endfor %}",
			[]string{"loop.index=", "p=xs", "loop.index=", "p=xs"}},
		{"nested loops and unpacking", "{% for k, v in pairs %}{% for c in k %}{{ c }}{{ v }}{% endfor %}{% endfor %}", []string{"c=pairs", "v=pairs"}},
		{"a loop over a literal", "{% for n in [1] %}{{ n }}{{ name }}{% endfor %}", []string{"n=", "name=name"}},
		{"set from an input, set to a literal", "{% set j = xs|join(', ') %}{% set name = 'x' %}{{ j }} {{ name }}", []string{"j=xs", "name="}},
		{"a loop variable does not outlive its loop", "{% for name in xs %}{% endfor %}{{ name }}", []string{"name=name"}},
		{"globals and literals are no input", "{{ range(2)|list }} {{ 'x' }} {{ 1 + 2 }} {{ missing is defined }}", []string{"range(2)|list=", "'x'=", "1 + 2=", "missing is defined="}},
		{"macro parameters and with", "{% macro m(x) %}{{ x }}{% endmacro %}{{ m(name) }}{% with y = name %}{{ y }}{% endwith %}", []string{"m(name)=", "y=name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, spans, err := RenderSpans("t", tt.src, Jinja, vars)
			require.NoError(t, err)
			got := make([]string, len(spans))
			for k, s := range spans {
				got[k] = s.Expr + "=" + s.Input
			}
			assert.Equal(t, tt.want, got)
		})
	}
	_, spans, err := RenderSpans("t", "{name} {{x}}", Format, vars)
	require.NoError(t, err)
	assert.Equal(t, []Span{{Expr: "name", Input: "name", Start: 0, End: 3}}, spans)
}

func TestInputsAreNeverEvaluated(t *testing.T) {
	evil := "{{ 7*7 }} {% for x in y %} {name} {# c #} {% raw %}"
	vars := value.NewObject("q", evil, "name", "N")
	out, err := Render("t", "Q: {{ q }}|{{ q|upper }}", Jinja, vars)
	require.NoError(t, err)
	assert.Equal(t, "Q: "+evil+"|"+strings.ToUpper(evil), out)
	out, err = Render("t", "Q: {q}", Format, vars)
	require.NoError(t, err)
	assert.Equal(t, "Q: "+evil, out)
}

func TestCaps(t *testing.T) {
	tests := []struct{ name, src, msg string }{
		{"source size", strings.Repeat("x", maxSource+1), "larger than"},
		{"loop iterations", "{% set r = 'x' * 1000001 %}{% for c in r %}{% endfor %}", "loop iterations"},
		{"work", "{% set r = 'x' * 2000 %}{% for i in r %}{% for j in r %}{% endfor %}{% endfor %}", "too much work"},
		{"string size", "{{ 'x' * 100000000 }}", "over the limit"},
		{"integer size", "{{ 10 ** 100000 }}", "over the limit"},
		{"integer digits", "{{ 10 ** 5000 }}", "4300 digits"},
		{"list size", "{{ [1] * 100000000 }}", "over the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render("t", tt.src, Jinja, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
			var de *diag.Error
			require.True(t, errors.As(err, &de))
			assert.Positive(t, de.Line)
		})
	}
}

func TestFloatRepr(t *testing.T) {
	tests := map[float64]string{
		1: "1.0", 0.1: "0.1", 1e16: "1e+16", 1e15: "1000000000000000.0", 1e-4: "0.0001", 1e-5: "1e-05",
		-2.5: "-2.5", 123456789.125: "123456789.125", 1.5e300: "1.5e+300", 5e-324: "5e-324",
	}
	for f, want := range tests {
		assert.Equal(t, want, floatRepr(f), "%v", f)
	}
}

func TestUnknownDialect(t *testing.T) {
	_, err := Render("t", "x", Dialect("mustache"), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown dialect")
}

// TestIsDictMethod: the switch names exactly the methods dictMethods lists.
func TestIsDictMethod(t *testing.T) {
	names := strings.Fields(dictMethods)
	for _, n := range names {
		assert.True(t, isDictMethod(n), n)
	}
	for _, n := range []string{"", "title", "item", "key", "value", "getx", " get "} {
		assert.False(t, isDictMethod(n), n)
	}
	assert.Len(t, names, 11)
}

// TestSignaturesFitBind: bind keeps the parameters it has set in a 64-bit mask.
func TestSignaturesFitBind(t *testing.T) {
	for table := range specTables {
		for _, sp := range specTables[table] {
			d, ok := lookupBuiltin(table, strings.Fields(sp.names)[0])
			require.True(t, ok, sp.names)
			assert.Less(t, len(d.sig.params), 64, sp.names)
		}
	}
}
