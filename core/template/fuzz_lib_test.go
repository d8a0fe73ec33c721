package template

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// FuzzPyNumbers feeds int(s, base) and float(s) as the int and float filters read them: no
// panic, and what they accept agrees with Go's own parsers on the plain forms both know.
func FuzzPyNumbers(f *testing.F) {
	for _, s := range []string{"42", " -0x1A ", "1_000", "0b101", "0o17", "00", "010", "1e3", "-2.5e-3", ".5", "5.",
		"inf", "-Infinity", "nan", "1__0", "_1", "1_", "0x_1f", "\u0663", "\u00a01\u00a0", "-", "+", "1e", "9" + strings.Repeat("9", 30)} {
		f.Add(s, 10)
		f.Add(s, 0)
		f.Add(s, 16)
	}
	f.Fuzz(func(t *testing.T, s string, base int) {
		if base < 0 {
			base = -base
		}
		base %= 37
		if base == 1 {
			base = 0
		}
		n, ok, err := pyIntText(s, base)
		if err == nil && ok && base == 10 {
			plain := strings.ReplaceAll(strings.TrimFunc(s, pystr.IsSpace), "_", "")
			want, good := new(big.Int).SetString(plain, 10)
			if !good || toBig(n).String() != want.String() {
				t.Fatalf("int(%q) = %v; Go reads %v", s, n, want)
			}
		}
		fl, ok, err := pyFloatText(s)
		if err == nil && ok && !math.IsNaN(fl) && !strings.ContainsAny(strings.ToLower(s), "in_") {
			want, perr := strconv.ParseFloat(strings.TrimFunc(s, pystr.IsSpace), 64)
			if perr != nil && !math.IsInf(want, 0) || want != fl {
				t.Fatalf("float(%q) = %v; Go reads %v (%v)", s, fl, want, perr)
			}
		}
	})
}

// FuzzPrintf feeds printf-style formats (the format filter, str % x in odd and even) with an
// int, a float and a str, positionally and by name: no panic, valid UTF-8 out of valid input.
func FuzzPrintf(f *testing.F) {
	for _, s := range []string{"%s-%d", "%(a)s and %(b)05.1f", "%05.2f|%-6s|%+d|% d|%x|%#X|%#o|%e|%g|%G|%.3g|%10.4e",
		"%c%c", "%%|%r|%.2s", "%*d|%-*d|%.*f", "%", "%(", "%(a", "%y", "%.0f|%#.0e|%#g", "%i|%u", "%-08.3f", "%a"} {
		f.Add(s, int64(42), 2.5, "hé")
	}
	f.Fuzz(func(t *testing.T, format string, i int64, fl float64, s string) {
		for _, args := range [][]any{{i, fl, s}, {s}, {fl}, {i}} {
			out, err := pyPrintf(format, args, nil)
			if err == nil && utf8.ValidString(format) && utf8.ValidString(s) && !utf8.ValidString(out) {
				t.Fatalf("%q %% %v: invalid UTF-8 %q", format, args, out)
			}
		}
		_, _ = pyPrintf(format, nil, value.NewObject("a", i, "b", fl, "s", s))
	})
}
