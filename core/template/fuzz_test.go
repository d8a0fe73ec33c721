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
// output or a positioned template error, spans inside the output.
func checkRender(t *testing.T, src string, d Dialect) {
	out, spans, err := RenderSpans("fuzz", src, d, fuzzVars())
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
	} {
		checkRender(t, s, Jinja)
	}
}
