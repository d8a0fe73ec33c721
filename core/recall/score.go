package recall

import (
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
)

// maxScoreLen caps the text of one score: a longer "number" is garbage, and exact.Rat would
// otherwise happily build a thousand-digit fraction from it.
const maxScoreLen = 40

// ParseScore reads one passage score as judges write it:
//
//	score  = number [ ("/" | "out of") number ]
//	number = ["-" | "+"] digits ["." [digits]] | ["-" | "+"] "." digits
//
// with optional spaces around the parts, e.g. "4", "3.5", ".5", "4/5", "4 out of 5". A fraction
// must be out of 5 ("4/5" is 4, "8/10" is an error, not 4); there are no exponents, NaN or
// infinities. Range is not checked here (Compute and CheckScore do that), so "-1" and "6" parse.
// Errors are *diag.Error with Kind "recall".
func ParseScore(s string) (*exact.Rat, error) {
	t := strings.TrimSpace(s)
	if len(t) > maxScoreLen {
		return nil, &diag.Error{Kind: "recall", Msg: "cannot read score " + quote(diag.Clip(t, 20)) + ": too long for a score"}
	}
	num, rest, ok := cutNumber(t)
	if !ok {
		return nil, &diag.Error{Kind: "recall", Msg: "cannot read score " + quote(t) + ": not a number"}
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return num, nil
	}
	switch {
	case strings.HasPrefix(rest, "/"):
		rest = rest[1:]
	case hasFoldPrefix(rest, "out of"):
		rest = rest[len("out of"):]
	default:
		return nil, &diag.Error{Kind: "recall", Msg: "cannot read score " + quote(t) + ": unexpected " + quote(diag.Clip(rest, 10)) + " after the number"}
	}
	den, after, ok := cutNumber(strings.TrimSpace(rest))
	if !ok || strings.TrimSpace(after) != "" {
		return nil, &diag.Error{Kind: "recall", Msg: "cannot read score " + quote(t) + ": the part after the number is not \"/5\""}
	}
	if den.Cmp(ratFive) != 0 {
		return nil, &diag.Error{Kind: "recall", Msg: "score " + quote(t) + " is not out of 5"}
	}
	return num, nil
}

// cutNumber reads the number at the start of s (the grammar in ParseScore) and returns it and
// the text after it.
func cutNumber(s string) (*exact.Rat, string, bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intDigits := i - start
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		fracDigits = j - i - 1
		if intDigits > 0 || fracDigits > 0 {
			i = j
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return nil, s, false
	}
	// Spell the number out in full ("-0.50" for "-.5") so SetString sees one plain form.
	lit := "0" + s[start:start+intDigits]
	if fracDigits > 0 {
		lit += "." + s[start+intDigits+1:i]
	}
	if s[0] == '-' {
		lit = "-" + lit
	}
	r, ok := new(exact.Rat).SetString(lit)
	if !ok {
		return nil, s, false
	}
	return r, s[i:], true
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isWordByte reports whether c continues a word: an ASCII letter or digit, or any byte of a
// non-ASCII character (so "Scoreé" is one word).
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) || c >= 0x80 }

func hasFoldPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
