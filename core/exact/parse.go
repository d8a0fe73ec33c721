package exact

import (
	"errors"
	"math"
)

// The errors of the parse functions, strconv's ErrSyntax and ErrRange. The functions return them
// as they are, not in a *strconv.NumError, whose Error method is what linked strconv.Quote and its
// tables of printable runes into the wasm.
var (
	ErrSyntax = errors.New("invalid syntax")
	ErrRange  = errors.New("value out of range")
)

// Atoi is strconv.Atoi: ParseInt(s, 10, 64).
func Atoi(s string) (int, error) {
	n, err := ParseInt(s, 10, 64)
	return int(n), err
}

// ParseInt is strconv.ParseInt for a base from 2 to 36 (not 0: no prefix, no underscore) and a bit
// size from 1 to 64: an optional sign, then digits; out of range, the nearest value and ErrRange.
func ParseInt(s string, base, bitSize int) (int64, error) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	un, err := ParseUint(s, base, bitSize)
	if err != nil && err != ErrRange {
		return 0, err
	}
	cutoff := uint64(1) << uint(bitSize-1)
	switch {
	case !neg && un >= cutoff:
		return int64(cutoff - 1), ErrRange
	case neg && un > cutoff:
		return -int64(cutoff), ErrRange
	case neg:
		return -int64(un), nil
	}
	return int64(un), nil
}

// ParseUint is strconv.ParseUint for a base from 2 to 36 (not 0) and a bit size from 1 to 64:
// digits only; out of range, the largest value and ErrRange.
func ParseUint(s string, base, bitSize int) (uint64, error) {
	if s == "" {
		return 0, ErrSyntax
	}
	maxVal := uint64(1)<<uint(bitSize) - 1
	cutoff := math.MaxUint64/uint64(base) + 1
	var n uint64
	for i := 0; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= base {
			return 0, ErrSyntax
		}
		if n >= cutoff {
			return maxVal, ErrRange
		}
		n *= uint64(base)
		n1 := n + uint64(d)
		if n1 < n || n1 > maxVal {
			return maxVal, ErrRange
		}
		n = n1
	}
	return n, nil
}

// digitValue is c's value as a digit of a base up to 36, or 99 when it is none.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'z':
		return int(c|0x20-'a') + 10
	}
	return 99
}

// ParseFloat is strconv.ParseFloat(s, 64): the float64 nearest the number s writes (half to even),
// for everything ParseFloat reads (a sign, decimal and hexadecimal mantissas and exponents,
// underscores between digits, "inf", "infinity" and "nan" in any case). Out of range, it returns
// ±Inf and ErrRange; a number too small is 0 (or a subnormal) with no error, as strconv has it.
//
// It stands in for strconv's parsers in the wasm (with ParseInt, ParseUint and Atoi), which came
// with strconv.NumError and strconv.Quote; what it needs beyond a float64's own arithmetic is this
// package's natural numbers, which the wasm has anyway.
func ParseFloat(s string) (float64, error) {
	if f, n, ok := special(s); ok {
		if n != len(s) {
			return 0, ErrSyntax
		}
		return f, nil
	}
	r, ok := readFloat(s)
	if !ok {
		return 0, ErrSyntax
	}
	var f float64
	switch {
	case r.mantissa == 0: // 0 whatever its exponent, with its sign
		f = 0
		if r.neg {
			f = math.Copysign(0, -1)
		}
	case r.hex:
		f = roundFloat(r.neg, natOf(r.mantissa), r.exp, r.trunc)
	case !r.trunc && r.mantissa < 1<<52 && r.exp >= -22 && r.exp <= 22:
		// Both the mantissa and the power of ten are exact float64s: one operation rounds once.
		f = float64(r.mantissa)
		if r.exp >= 0 {
			f *= float64Pow10[r.exp]
		} else {
			f /= float64Pow10[-r.exp]
		}
		if r.neg {
			f = -f
		}
	default:
		f = decimalFloat(r)
	}
	if math.IsInf(f, 0) {
		return f, ErrRange
	}
	return f, nil
}

var float64Pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// maxDigits is how many significant digits decimalFloat reads, those after them counting only as
// zero or not: a decimal halfway between two float64s has at most 767 of them (strconv keeps 800).
const maxDigits = 800

// readNumber is what readFloat reads from a number: strconv's readFloat, with the significant
// digits of a decimal besides.
type readNumber struct {
	neg, hex bool
	// mantissa holds the first 19 significant decimal digits or 16 hexadecimal ones, trunc whether
	// a digit after them is not 0; the number is mantissa·10^exp, or mantissa·2^exp when hex.
	mantissa uint64
	exp      int
	trunc    bool
	// dp is where a decimal's point is: the number is 0.d₁d₂…·10^dp, its significant digits
	// d₁d₂… being those of mantissa, where digits is the mantissa's text (read again only when
	// the float64 needs more than mantissa: no allocation otherwise).
	dp     int
	digits string
}

// readFloat reads all of s as strconv's readFloat reads a number, or returns false.
func readFloat(s string) (r readNumber, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		r.neg = s[i] == '-'
		i++
	}
	base, maxMant, expChar := uint64(10), 19, byte('e')
	if i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' {
		base, maxMant, expChar, r.hex = 16, 16, 'p', true
		i += 2
	}
	underscores, sawDot, sawDigits := false, false, false
	nd, ndMant, dp := 0, 0, 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			underscores = true
			continue
		}
		if c == '.' {
			if sawDot {
				break
			}
			sawDot, dp = true, nd
			continue
		}
		d := digitValue(c)
		if d >= int(base) {
			break
		}
		sawDigits = true
		if d == 0 && nd == 0 { // leading zeros
			dp--
			continue
		}
		nd++
		if ndMant < maxMant {
			r.mantissa = r.mantissa*base + uint64(d)
			ndMant++
		} else if d != 0 {
			r.trunc = true
		}
	}
	r.digits = s[:i]
	if !sawDigits {
		return r, false
	}
	if !sawDot {
		dp = nd
	}
	if r.hex {
		dp *= 4
		ndMant *= 4
	}
	r.dp = dp
	if i < len(s) && s[i]|0x20 == expChar {
		i++
		if i >= len(s) {
			return r, false
		}
		esign := 1
		if s[i] == '+' || s[i] == '-' {
			if s[i] == '-' {
				esign = -1
			}
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return r, false
		}
		e := 0
		for ; i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '_'); i++ {
			if s[i] == '_' {
				underscores = true
			} else if e < 10000 {
				e = e*10 + int(s[i]-'0')
			}
		}
		dp += e * esign
		r.dp += e * esign
	} else if r.hex {
		return r, false // a hexadecimal mantissa needs its exponent
	}
	if r.mantissa != 0 {
		r.exp = dp - ndMant
	}
	if underscores && !underscoreOK(s[:i]) {
		return r, false
	}
	return r, i == len(s)
}

// decimalFloat is the float64 nearest 0.digits·10^dp, with the sign, computed exactly.
func decimalFloat(r readNumber) float64 {
	neg := 1
	if r.neg {
		neg = -1
	}
	switch {
	case r.dp > 310: // at least 10^309
		return math.Inf(neg)
	case r.dp < -330: // below 10^-330, under half the smallest subnormal
		return math.Copysign(0, float64(neg))
	}
	// The significant digits, at most maxDigits of them, and whether one cut after them is not 0.
	digits := make([]byte, 0, min(len(r.digits), maxDigits))
	cut := false
	for i := 0; i < len(r.digits); i++ {
		c := r.digits[i]
		switch {
		case c < '0' || c > '9' || c == '0' && len(digits) == 0: // sign, point, _, leading zeros
		case len(digits) < maxDigits:
			digits = append(digits, c)
		case c != '0':
			cut = true
		}
	}
	m, _ := natParse(string(digits), 10)
	e := r.dp - len(digits)
	if e >= 0 {
		// With digits cut, m has maxDigits of them: far more than the 53 bits kept.
		return roundFloat(r.neg, natMul(m, pow10(e)), 0, cut)
	}
	// As Rat.Float64: a quotient of at least 55 bits, the remainder and the digits cut as sticky.
	b := pow10(-e)
	sh := 55 - (m.bitLen() - b.bitLen()) + 1
	if sh >= 0 {
		m = natShl(m, sh)
	} else {
		b = natShl(b, -sh)
	}
	q, rem := natQuoRem(m, b)
	return roundFloat(r.neg, q, -sh, len(rem) > 0 || cut)
}

// special reads the start of s as strconv's special does: ±inf, ±infinity or nan, in any case.
func special(s string) (f float64, n int, ok bool) {
	if s == "" {
		return 0, 0, false
	}
	sign, nsign := 1, 0
	switch s[0] {
	case '+', '-':
		if s[0] == '-' {
			sign = -1
		}
		nsign, s = 1, s[1:]
		fallthrough
	case 'i', 'I':
		n := prefixLenIgnoreCase(s, "infinity")
		if 3 < n && n < 8 { // more than "inf" but not "infinity": only "inf" is read
			n = 3
		}
		if n == 3 || n == 8 {
			return math.Inf(sign), nsign + n, true
		}
	case 'n', 'N':
		if prefixLenIgnoreCase(s, "nan") == 3 {
			return math.NaN(), 3, true
		}
	}
	return 0, 0, false
}

// prefixLenIgnoreCase is the length of the longest common prefix of s and the lower-case prefix,
// s in any case.
func prefixLenIgnoreCase(s, prefix string) int {
	n := min(len(s), len(prefix))
	for i := 0; i < n; i++ {
		if s[i]|0x20 != prefix[i] {
			return i
		}
	}
	return n
}

// underscoreOK is strconv's: underscores only between digits (a base prefix counts as one).
func underscoreOK(s string) bool {
	saw := byte('^') // ^ the start, 0 a digit or the base prefix, _ an underscore, ! anything else
	i := 0
	if len(s) >= 1 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	hex := false
	if len(s) >= 2 && s[0] == '0' && (s[1]|0x20 == 'b' || s[1]|0x20 == 'o' || s[1]|0x20 == 'x') {
		i, saw, hex = 2, '0', s[1]|0x20 == 'x'
	}
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9' || hex && 'a' <= c|0x20 && c|0x20 <= 'f':
			saw = '0'
		case c == '_':
			if saw != '0' {
				return false
			}
			saw = '_'
		case saw == '_':
			return false
		default:
			saw = '!'
		}
	}
	return saw != '_'
}
