package template

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

// TestParseCacheInvisible: a source rendered again (from the cache) renders as the first time,
// with other variables, with state its first render set ({% set %}, loops), and with the same
// error; sources pushed out of the cache still render.
func TestParseCacheInvisible(t *testing.T) {
	src := "{% set n = 0 %}{% for x in xs %}{% set n = n + x %}{{ loop.index }}:{{ x }} {% endfor %}{{ n }} {{ name|upper }}"
	for range 3 {
		out, err := Render("t", src, Jinja, value.NewObject("xs", []any{int64(1), int64(2)}, "name", "ann"))
		require.NoError(t, err)
		assert.Equal(t, "1:1 2:2 0 ANN", out)
		out, err = Render("t", src, Jinja, value.NewObject("xs", []any{}, "name", "bo"))
		require.NoError(t, err)
		assert.Equal(t, "0 BO", out)
	}
	for range 3 {
		_, err := Render("named", "a\n{{ x }", Jinja, nil)
		require.Error(t, err)
		assert.Equal(t, "template: named:2:6: unexpected '}'", err.Error())
		_, err = Render("other", "a\n{{ x }", Jinja, nil)
		assert.Equal(t, "template: other:2:6: unexpected '}'", err.Error())
	}
	for k := range 3 * parsedEntries {
		out, err := Render("t", "{{ "+strconv.Itoa(k)+" }}", Jinja, nil)
		require.NoError(t, err)
		assert.Equal(t, strconv.Itoa(k), out)
	}
	parsed.Lock()
	assert.LessOrEqual(t, len(parsed.order), parsedEntries)
	parsed.Unlock()
	out, err := Render("t", src, Jinja, value.NewObject("xs", []any{int64(5)}, "name", "cy"))
	require.NoError(t, err)
	assert.Equal(t, "1:5 0 CY", out)
	// A source met again is not parsed again (a copy of it, as each call from JS brings, included).
	first := parseJinja(src)
	assert.Same(t, first, parseJinja(string([]byte(src))))
}
