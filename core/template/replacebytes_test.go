package template

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestReplaceBytes holds replaceBytes to the strings.Replacer it stands for, for both tables.
func TestReplaceBytes(t *testing.T) {
	replacers := []struct {
		table *[256]string
		r     *strings.Replacer
	}{
		{&htmlEscapes, strings.NewReplacer("&", "&amp;", ">", "&gt;", "<", "&lt;", "'", "&#39;", `"`, "&#34;")},
		{&jsonEscapes, strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "'", `\u0027`)},
	}
	inputs := []string{"", "plain", "&", "<>", `a&b<c>d'e"f`, "&&&&", "x<", ">x", "é<😀>\xff&\x00",
		strings.Repeat(`<a href="x">&amp;</a>'`, 50), "\"'", "no specials at all, but long " + strings.Repeat("z", 300)}
	for _, rp := range replacers {
		for _, s := range inputs {
			assert.Equal(t, rp.r.Replace(s), replaceBytes(s, rp.table), "%q", s)
		}
	}
	s := "nothing to escape"
	assert.Same(t, unsafe.StringData(s), unsafe.StringData(replaceBytes(s, &htmlEscapes)), "a string without specials comes back as it is")
}
