package diag

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote is strconv.Quote(s): s in double quotes, with Go's escapes for the quote, the backslash,
// the control characters, bytes that are not UTF-8 and runes unicode.IsPrint calls not
// printable. Messages quote with it rather than strconv.Quote, whose own tables of printable
// runes (beside unicode's, which the wasm links anyway) and escaping code cost 2 KB of brotli.
func Quote(s string) string { return string(AppendQuote(nil, s)) }

// AppendQuote is strconv.AppendQuote(b, s): b with Quote(s) appended.
func AppendQuote(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for width := 0; len(s) > 0; s = s[width:] {
		r, c := rune(s[0]), s[0]
		width = 1
		if c >= utf8.RuneSelf {
			r, width = utf8.DecodeRuneInString(s)
		}
		switch {
		case width == 1 && r == utf8.RuneError:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
		case r == '"' || r == '\\':
			b = append(b, '\\', c)
		case unicode.IsPrint(r):
			b = append(b, s[:width]...)
		case r < ' ' || r == 0x7f:
			if i := strings.IndexByte("\a\b\f\n\r\t\v", c); i >= 0 {
				b = append(b, '\\', "abfnrtv"[i])
			} else {
				b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
			}
		case r < 0x10000:
			b = append(b, '\\', 'u')
			for shift := 12; shift >= 0; shift -= 4 {
				b = append(b, hex[r>>shift&0xf])
			}
		default:
			b = append(b, '\\', 'U')
			for shift := 28; shift >= 0; shift -= 4 {
				b = append(b, hex[r>>shift&0xf])
			}
		}
	}
	return append(b, '"')
}
