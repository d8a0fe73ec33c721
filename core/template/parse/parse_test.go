package parse

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testFuncs knows the filter upper and the test defined; Jinja's random filter is one it does not
// support.
var testFuncs = &Funcs{
	Filter: func(name string) (any, bool) {
		if name == "upper" {
			return "the upper filter", true
		}
		return nil, false
	},
	Test: func(name string) (any, bool) {
		if name == "defined" {
			return "the defined test", true
		}
		return nil, false
	},
	JinjaFilters: " random ",
	JinjaTests:   " ",
}

// TestParseResolvesFuncs: each filter and test keeps what Funcs resolved it to; a name Funcs does
// not know is Jinja's compile error, "not supported" for one of Jinja's own, except in an if
// statement, where Jinja fails only when it runs (the node then has no definition).
func TestParseResolvesFuncs(t *testing.T) {
	tree, err := Parse("{{ x|upper }}{{ x is defined }}", testFuncs)
	require.Nil(t, err)
	require.Len(t, tree.Root, 2)
	assert.Equal(t, "the upper filter", tree.Root[0].(*PrintNode).X.(*FilterExpr).Def)
	assert.Equal(t, "the defined test", tree.Root[1].(*PrintNode).X.(*TestExpr).Def)

	for src, msg := range map[string]string{
		"a\n{{ x|nope }}":    `unknown filter "nope"`,
		"a\n{{ x|random }}":  `not supported: the "random" filter`,
		"a\n{{ x is nope }}": `unknown test "nope"`,
	} {
		_, err := Parse(src, testFuncs)
		require.NotNil(t, err, src)
		assert.Equal(t, msg, err.Msg, src)
		assert.Equal(t, 2, err.Line, src)
		assert.Equal(t, strings.Index(src, "nope")+strings.Index(src, "random")+1, err.Pos, src)
	}

	tree, err = Parse("{% if x %}{{ x|nope }}{% endif %}", testFuncs)
	require.Nil(t, err)
	assert.Nil(t, tree.Root[0].(*IfNode).Branches[0].Body[0].(*PrintNode).X.(*FilterExpr).Def)
}

// TestTreeReads: the names read from the context, at their first read, in the order the symbol
// analysis meets them; a name set before it is read is not one, and a name only one branch of an
// if sets is, where it is first read.
func TestTreeReads(t *testing.T) {
	src := "{{ b }}{% set a = 1 %}{{ a }}{% if c %}{% set d = 2 %}{% endif %}{{ d }}{{ b }}{% for x in xs %}{{ x }}{{ loop.index }}{% endfor %}"
	tree, err := Parse(src, testFuncs)
	require.Nil(t, err)
	var got []string
	for _, r := range tree.Reads() {
		assert.True(t, strings.HasPrefix(src[r.Pos:], r.Name), "%s at %d", r.Name, r.Pos)
		got = append(got, r.Name)
	}
	assert.Equal(t, []string{"b", "c", "d", "xs"}, got)
	assert.Equal(t, []string{"a"}, tree.Missing)
}

// TestMarkInputs: each {{ }} names the input its value comes from, through loop variables and
// set names; "" when it comes from none.
func TestMarkInputs(t *testing.T) {
	tree, err := Parse("{% for c in contexts %}{{ c|upper }}{% set n = loop.index %}{{ n }}{% endfor %}{{ q }}", testFuncs)
	require.Nil(t, err)
	tree.MarkInputs()
	loop := tree.Root[0].(*ForNode)
	assert.Equal(t, "contexts", loop.Body[0].(*PrintNode).Input)
	assert.Equal(t, "", loop.Body[2].(*PrintNode).Input)
	assert.Equal(t, "q", tree.Root[1].(*PrintNode).Input)
}

// FuzzParse: whatever the source, Parse returns a tree or an error inside the source, at a line
// of it, and never panics; a tree's reads are at names of the source.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Hello {{ name }}!", "{% for x in xs if x recursive %}{{ loop(x) }}{% else %}-{% endfor %}",
		"{% if a %}{% set b = 1 %}{% elif c %}{% else %}{{ b }}{% endif %}{{ b }}", "{{ x|upper|nope }}",
		"{% macro m(a, b=2) %}{{ caller() }}{{ varargs }}{% endmacro %}{% call(x) m(1) %}{{ x }}{% endcall %}",
		"{% set ns = namespace(a=1) %}{% set ns.a = 2 %}", "{% with a = 1 %}{{ a }}{% endwith %}",
		"{% filter upper %}a{% endfilter %}{% set x | upper %}y{% endset %}", "{{ (1, [2], {'a': none})[0:1:2] }}",
		"{{ 'a\\x41\\u00e9' ~ 2 ** 100 // 3 }}", "{{ x is not defined and y is random }}", "{{", "{% for %}",
		"{% raw %}{{ x }}{% endraw %}{# c #}", "{{ f(*a, **k, x=1) }}", "{{ x if y }}{{ 1e400 }}{{ 0x }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) || strings.ContainsRune(src, '\r') {
			return // Parse takes a source as Jinja reads it (package template makes it so)
		}
		tree, err := Parse(src, testFuncs)
		if err != nil {
			if err.Pos < 0 || err.Pos > len(src) || err.Line < 1 || err.Line > 1+strings.Count(src, "\n") {
				t.Fatalf("%q: error %q at offset %d, line %d: outside the source", src, err.Msg, err.Pos, err.Line)
			}
			return
		}
		for _, r := range tree.Reads() {
			if r.Pos < 0 || !strings.HasPrefix(src[r.Pos:], r.Name) {
				t.Fatalf("%q: read of %q at offset %d, which is not there", src, r.Name, r.Pos)
			}
		}
		tree.MarkInputs()
	})
}
