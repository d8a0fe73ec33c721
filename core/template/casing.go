package template

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pyUpper is str.upper(): full case mapping, so "ß" becomes "SS" (specialUpper, generated from
// CPython), other code points by Go's simple mapping.
func pyUpper(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < 0x80 {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteByte(byte(r))
			continue
		}
		if m, ok := upperSpecial(r); ok {
			b.WriteString(m)
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// upperSpecial returns str.upper() of r when it is more than one code point.
func upperSpecial(r rune) (string, bool) {
	if r >= 0x2000 && r < 0xFB00 {
		return "", false
	}
	i := strings.Index(specialUpper, "\x00"+string(r)+"\x01")
	if i < 0 {
		return "", false
	}
	m := specialUpper[i+2+utf8.RuneLen(r):]
	if j := strings.IndexByte(m, 0); j >= 0 {
		m = m[:j]
	}
	return m, true
}

// pyLower is str.lower(): full case mapping ("İ" becomes "i̇") and the final-sigma rule, which
// turns "Σ" into "ς" at the end of a word.
func pyLower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
		case 0x3a3:
			if finalSigma(s, i) {
				b.WriteRune(0x3c2)
			} else {
				b.WriteRune(0x3c3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is CPython's handle_capital_sigma: a cased letter before (skipping case-ignorable
// code points) and none after.
func finalSigma(s string, i int) bool {
	j := i
	found := false
	for j > 0 {
		r, w := utf8.DecodeLastRuneInString(s[:j])
		j -= w
		if caseIgnorable(r) {
			continue
		}
		found = cased(r)
		break
	}
	if !found {
		return false
	}
	j = i + utf8.RuneLen(0x3a3)
	for j < len(s) {
		r, w := utf8.DecodeRuneInString(s[j:])
		j += w
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) || unicode.In(r, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xad, 0xb7, 0x2019, 0x2018, 0x2024, 0xfe52, 0xff07, 0xff0e, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
