package template

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

func fuzzVars() *value.Object {
	return value.NewObject(
		"name", "Ada", "n", int64(3), "f", 2.5, "xs", []any{int64(1), "two", nil},
		"d", value.NewObject("a", int64(1), "b", []any{true, 1.5}), "s", "h\u00e9llo {{ x }} {name}",
	)
}

// checkRender renders src and checks the invariants every input must keep: no panic, either
// output or a positioned template error, spans inside the output; rendering again (the parse
// cached, the output's buffer sized from the last) and after other bytes gives the same.
func checkRender(t *testing.T, src string, d Dialect) {
	out, spans, err := RenderSpans("fuzz", src, d, fuzzVars())
	again, err2 := AppendRender([]byte("head"), "fuzz", src, d, fuzzVars())
	if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || err == nil && string(again) != "head"+out {
		t.Fatalf("%q: a second render gives %q, %v; the first %q, %v", src, again, err2, out, err)
	}
	if err != nil {
		var de *diag.Error
		if !errors.As(err, &de) || de.Kind != "template" || de.Msg == "" {
			t.Fatalf("%q: not a template error: %#v", src, err)
		}
		if de.Line < 1 || de.Col < 1 {
			t.Fatalf("%q: error without a position: %v", src, err)
		}
		return
	}
	if utf8.ValidString(src) && !utf8.ValidString(out) {
		t.Fatalf("%q: invalid UTF-8 output %q", src, out)
	}
	for _, s := range spans {
		if s.Start < 0 || s.Start > s.End || s.End > len(out) {
			t.Fatalf("%q: span %+v outside output of %d bytes", src, s, len(out))
		}
	}
}

func FuzzJinja(f *testing.F) {
	for _, s := range []string{
		"Hello {{ name }}!", "{% for x in xs %}{{ loop.index }}:{{ x }}{% else %}-{% endfor %}",
		"{% if n > 2 %}a{% elif n %}b{% else %}c{% endif %}", "{{ d|tojson }} {{ xs|join(', ') }}",
		"{% set a, b = 1, 2 %}{{ a ~ b }}", "{%- raw -%} {{ x }} {%- endraw %}", "{# c #}{{- s|upper -}}",
		"{{ 2 ** 100 // 3 }} {{ 1e16 }} {{ -7 % 3 }}", "{{ 'a\\x41\\u00e9' }}", "{{ d.items() }}",
		"{{ (1, [2], {'a': none}) }}", "{{ xs[::-1] }} {{ s[1:3] }}", "{% set b %}x{% endset %}{{ b }}",
		"{{ name if n else 'x' }}", "{{", "{% for %}", "{{ 'a' + 1 }}", "{{ x|nope }}",
		"{% macro m(a, b=2) %}{{ a }}{{ b }}{{ varargs }}{{ kwargs }}{{ caller() }}{% endmacro %}{% call(x) m(1, b=3, c=4) %}{{ x }}{% endcall %}",
		"{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}", "{{ m.name }}{% macro m() %}{% endmacro %}{{ m.arguments }}",
		"{% for x in xs if x recursive %}{{ loop.depth }}{{ loop(x) }}{{ loop.previtem }}{{ loop.cycle(1, 2) }}{{ loop.changed(x) }}{% endfor %}",
		"{% set ns = namespace(a=1) %}{% set ns.a = ns.a + 1 %}{{ ns }}", "{% with a = 1, b = a %}{{ b }}{% endwith %}",
		"{% filter upper|replace('A', 'b') %}a{% endfilter %}", "{% set x | trim %} y {% endset %}{{ x }}",
		"{% for (a, (b, c)) in [(1, (2, 3))] %}{{ a ~ b ~ c }}{% endfor %}", "{{ range(1, 10, 3)|list }} {{ dict(a=1, **d) }}",
		"{{ xs|join(d='-') }}{{ n is divisibleby(3) }}{{ n is eq 3 }}", "{{ d.get('a') }}{{ d.keys() }}{{ s.upper() }}",
		"{% print name, n %}", "{{ ('x' if false) ~ 'y' }}", "{{ f(*xs) }}", "{% call m() %}{% endcall %}", "{% macro m(a=1, b) %}{% endmacro %}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkRender(t, src, Jinja)
	})
}

func FuzzFormat(f *testing.F) {
	for _, s := range []string{
		"Hello {name}!", "{{ literal }} {n}", "{xs[0]} {d[a]} {s!r} {name!a}", "{", "}", "{name", "{0}", "{}",
		"{name:>5}", "{d.a}", "{xs[0}", "{na{me}", "{name!}", "{name!r:x}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkRender(t, src, Format)
	})
}

// TestFuzzSeedsRender runs the invariant check over nasty inputs without the fuzzing engine, so
// that wasm runs cover it too.
func TestFuzzSeedsRender(t *testing.T) {
	for _, s := range []string{
		"{{ " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + " }}",
		"{{ " + strings.Repeat("-", 500) + "1 }}", "{{ " + strings.Repeat("not ", 500) + "1 }}",
		strings.Repeat("{% if 1 %}", 100) + strings.Repeat("{% endif %}", 100),
		"{{ 10 ** 100000 }}", "{{ 'x' * 100000000 }}", "{% for i in range(10000000) %}{% endfor %}",
		"{{ [1] * 100000000 }}", "{{ '\xff\xfe' }}\xff", "{{ 1_000_ }}", "{{ 0x }}", "{{ 1e }}",
		"{{ 9" + strings.Repeat("9", 5000) + " }}",
		strings.Repeat("{% macro m() %}", 100) + strings.Repeat("{% endmacro %}", 100),
		strings.Repeat("{% with a = 1 %}", 70) + strings.Repeat("{% endwith %}", 70),
		"{{ " + strings.Repeat("(", 60) + strings.Repeat("1, ", 3) + strings.Repeat(")", 60) + " }}",
		"{{ " + strings.Repeat("{'a': ", 40) + "1" + strings.Repeat("}", 40) + " }}",
		"{{ " + strings.Repeat("1 if ", 200) + "1 }}", "{{ x[" + strings.Repeat(":", 100) + "] }}",
	} {
		checkRender(t, s, Jinja)
	}
}
