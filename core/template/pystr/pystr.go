// Package pystr holds the rules of Python's str that the Jinja lexer, the evaluator and the
// evaluators' readers (package judge) follow alike: what str.isspace counts as white space, and
// how repr writes a str (its quotes and escapes), so that a message or a printed value reads as
// CPython's would.
package pystr

import (
	"strings"
	"unicode"
)

// IsSpace is str.isspace for one code point: Go's unicode.IsSpace plus the four ASCII
// information separators Python counts as whitespace.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// WriteRepr writes a Python string literal for s, choosing quotes as CPython does.
func WriteRepr(b *strings.Builder, s string) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < ' ' || r == 0x7f:
			WriteHexEscape(b, 'x', uint32(r), 2)
		case r < 0x7f:
			b.WriteRune(r)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			WriteHexEscape(b, 'x', uint32(r), 2)
		case r <= 0xffff:
			WriteHexEscape(b, 'u', uint32(r), 4)
		default:
			WriteHexEscape(b, 'U', uint32(r), 8)
		}
	}
	b.WriteByte(quote)
}

// WriteHexEscape writes code point r as a backslash escape of kind 'x', 'u' or 'U' with width
// lower-case hex digits: \x0a, \u00e9, \U0001f600.
func WriteHexEscape(b *strings.Builder, kind byte, r uint32, width int) {
	const hex = "0123456789abcdef"
	b.WriteByte('\\')
	b.WriteByte(kind)
	for i := width - 1; i >= 0; i-- {
		b.WriteByte(hex[(r>>(4*uint(i)))&0xf])
	}
}
