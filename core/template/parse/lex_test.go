package parse

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLexerItems(t *testing.T) {
	type tok struct {
		typ  itemType
		val  string
		line int
	}
	tests := []struct {
		name string
		src  string
		want []tok
	}{
		{"data only", "hi", []tok{{itemData, "hi", 1}}},
		{"print", "a{{ x }}", []tok{{itemData, "a", 1}, {itemVarBegin, "{{", 1}, {itemName, "x", 1}, {itemVarEnd, "}}", 1}}},
		{"strip both sides", "a \n{{- x -}}\n b", []tok{{itemData, "a", 1}, {itemVarBegin, "{{", 2}, {itemName, "x", 2}, {itemVarEnd, "}}", 2}, {itemData, "b", 3}}},
		{"plus is eaten", "{{+1}}", []tok{{itemVarBegin, "{{", 1}, {itemInt, "1", 1}, {itemVarEnd, "}}", 1}}},
		{"minus is eaten", "{{-1}}", []tok{{itemVarBegin, "{{", 1}, {itemInt, "1", 1}, {itemVarEnd, "}}", 1}}},
		{"numbers", "{{ 1_000 0x1f 1.5e3 2e-1 0 }}", []tok{{itemVarBegin, "{{", 1}, {itemInt, "1000", 1}, {itemInt, "0x1f", 1}, {itemFloat, "1.5e3", 1}, {itemFloat, "2e-1", 1}, {itemInt, "0", 1}, {itemVarEnd, "}}", 1}}},
		{"dot then int is not a float", "{{ x.1.2 }}", []tok{{itemVarBegin, "{{", 1}, {itemName, "x", 1}, {itemOp, ".", 1}, {itemInt, "1", 1}, {itemOp, ".", 1}, {itemInt, "2", 1}, {itemVarEnd, "}}", 1}}},
		{"operators longest first", "{{ a//b**c<=d }}", []tok{{itemVarBegin, "{{", 1}, {itemName, "a", 1}, {itemOp, "//", 1}, {itemName, "b", 1}, {itemOp, "**", 1}, {itemName, "c", 1}, {itemOp, "<=", 1}, {itemName, "d", 1}, {itemVarEnd, "}}", 1}}},
		{"string decoded", `{{ 'a\n\u00e9' }}`, []tok{{itemVarBegin, "{{", 1}, {itemString, "a\né", 1}, {itemVarEnd, "}}", 1}}},
		{"dict braces before end", "{{ {'a': {}}}}", []tok{{itemVarBegin, "{{", 1}, {itemOp, "{", 1}, {itemString, "a", 1}, {itemOp, ":", 1}, {itemOp, "{", 1}, {itemOp, "}", 1}, {itemOp, "}", 1}, {itemVarEnd, "}}", 1}}},
		{"comment skipped", "a{# x\ny #}b", []tok{{itemData, "a", 1}, {itemData, "b", 2}}},
		{"raw", "{% raw %}{{ x }}{% endraw %}", []tok{{itemData, "{{ x }}", 1}}},
		{"block", "{%- if x +%}", []tok{{itemBlockBegin, "{%", 1}, {itemName, "if", 1}, {itemName, "x", 1}, {itemBlockEnd, "%}", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLexer(tt.src)
			var got []tok
			for {
				it := l.next()
				if it.typ == itemEOF {
					break
				}
				got = append(got, tok{it.typ, it.val, it.line})
			}
			require.Nil(t, l.err)
			assert.Equal(t, tt.want, got)
		})
	}
}
