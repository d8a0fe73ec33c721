package parse

import (
	"strings"
	"unicode/utf8"

	"ragjudge/core/exact"
	"ragjudge/core/template/pystr"
)

// decodeStringLiteral turns the body of a Jinja string literal into its value the way Jinja does:
// value.encode("ascii", "backslashreplace").decode("unicode-escape"). Doing the first step
// literally matters: a backslash before a non-ASCII character escapes the backslash that
// backslashreplace wrote, so '\é' becomes the four characters \xe9, as in Jinja.
// It returns the decoding error's message, or "".
func decodeStringLiteral(body string) (string, string) {
	if strings.IndexByte(body, '\\') < 0 {
		return body, ""
	}
	var ascii strings.Builder
	for _, r := range body {
		switch {
		case r < 0x80:
			ascii.WriteByte(byte(r))
		case r <= 0xff:
			pystr.WriteHexEscape(&ascii, 'x', uint32(r), 2)
		case r <= 0xffff:
			pystr.WriteHexEscape(&ascii, 'u', uint32(r), 4)
		default:
			pystr.WriteHexEscape(&ascii, 'U', uint32(r), 8)
		}
	}
	return unicodeEscape(ascii.String())
}

// unicodeEscape is Python's "unicode-escape" codec on an ASCII string.
func unicodeEscape(s string) (string, string) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", `\ at end of string`
		}
		c = s[i]
		switch c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(c - '0')
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				v = v*8 + rune(s[i]-'0')
			}
			b.WriteRune(v)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if i+n >= len(s) {
				return "", truncated(c)
			}
			hex := s[i+1 : i+1+n]
			v, err := exact.ParseUint(hex, 16, 32)
			if err != nil || strings.ContainsAny(hex, "+-_") {
				return "", truncated(c)
			}
			if v > utf8.MaxRune {
				return "", "illegal Unicode character"
			}
			b.WriteRune(rune(v))
			i += n
		case 'N':
			return "", `not supported: \N{...} escapes`
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

func truncated(c byte) string {
	switch c {
	case 'x':
		return `truncated \xXX escape`
	case 'u':
		return `truncated \uXXXX escape`
	}
	return `truncated \UXXXXXXXX escape`
}
