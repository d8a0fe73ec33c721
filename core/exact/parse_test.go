package exact

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sameFloat reports whether ParseFloat(s) gives what strconv.ParseFloat(s, 64) gives: the same
// bits (NaN as NaN), and an error exactly when strconv has one, ErrRange for its range errors.
func sameFloat(t *testing.T, s string) {
	t.Helper()
	want, wantErr := strconv.ParseFloat(s, 64)
	got, err := ParseFloat(s)
	if math.IsNaN(want) {
		assert.True(t, math.IsNaN(got) && err == nil, "%q: got %v, %v", s, got, err)
		return
	}
	if math.Float64bits(got) != math.Float64bits(want) || (err == nil) != (wantErr == nil) {
		t.Errorf("ParseFloat(%q) = %v (%#x), %v; strconv: %v (%#x), %v", s, got, math.Float64bits(got), err, want, math.Float64bits(want), wantErr)
		return
	}
	if wantErr != nil {
		isRange := wantErr.(*strconv.NumError).Err == strconv.ErrRange
		assert.Equal(t, isRange, err == ErrRange, "%q: %v", s, err)
	}
}

// floatCases: syntax (signs, points, exponents, hexadecimal, underscores, the special words),
// the fast path's edges, halfway cases, subnormals, overflow and underflow, long mantissas.
var floatCases = []string{
	"", "0", "-0", "+0", "0.0", "-0.0e5", "-0x0p0", "1", "-1", "+1", "1.", ".5", ".", "-.", "e1", ".e1", "1e", "1e+", "1e-5",
	"1E5", "1.e5", "01.50", "00", "1.5.5", "1e5.5", "1e1e1", " 1", "1 ", "1x", "0x", "0x1", "0x1p", "0x1p0", "0X1P-2",
	"0x.8p1", "0x1.8p+1", "0xABCp-3", "0x1g", "0b101", "0o7", "1_000", "1_0.5", "1__0", "_1", "1_", "1_.5", "1._5",
	"0x1_0p0", "0x_1p0", "0x1_p0", "1e1_0", "1e_1", "inf", "+inf", "-inf", "Inf", "INF", "infinity", "-Infinity", "infin",
	"infinityx", "infx", "nan", "NaN", "+nan", "-nan", "nanx", "in", "n",
	"4503599627370495", "4503599627370496", "9007199254740993", "1e22", "1e23", "1e-22", "1e-23", "123456789e-22",
	"0.1", "0.2", "0.30000000000000004", "3.141592653589793", "2.718281828459045", "1.7976931348623157e308",
	"1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "-1e400", "1e99999", "1e-99999", "0e99999",
	"2.2250738585072014e-308", "2.2250738585072011e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
	"2.4703282292062328e-324", "1e-323", "1e-400", "-1e-400", "0x1p-1074", "0x1p-1075", "0x1.8p-1075", "0x1p-1080",
	"0x1p1023", "0x1p1024", "0x1.fffffffffffff8p1023", "0x1.fffffffffffff7ffp1023", "0x123456789abcdef123p0",
	"9007199254740993.000000000000000000000000001", "12345678901234567890123", "1234567890123456789012345678901234567890e-40",
	"0.000000000000000000000000000000000000000000001", strings.Repeat("9", 400), "0." + strings.Repeat("0", 400) + "1",
	"1" + strings.Repeat("0", 308), "1" + strings.Repeat("0", 309),
	"4.9406564584124654417656879286822137236505980e-324", "0." + strings.Repeat("0", 100000) + "9e100000",
}

func TestParseFloatIsStrconv(t *testing.T) {
	for _, s := range floatCases {
		sameFloat(t, s)
	}
	// Exactly halfway between two float64s, to 767 and more digits: each way of rounding.
	for _, f := range []float64{1, 0.1, 1e300, 5e-324, 2.2250738585072014e-308, math.MaxFloat64 / 2} {
		lo, hi := new(Rat).SetFloat64(f), new(Rat).SetFloat64(math.Nextafter(f, math.Inf(1)))
		mid := new(Rat).Add(lo, hi)
		mid = mid.Quo(mid, NewRat(2, 1))
		n, _ := mid.FloatPrec()
		half := mid.FloatString(n)
		sameFloat(t, half)
		sameFloat(t, half+"1")
		sameFloat(t, strings.TrimRight(half, "0")[:len(half)-2])
	}
}

// TestParseFloatPastStrconv: where strconv.ParseFloat is wrong, ParseFloat is not: with more than
// 800 digits before the point, strconv's slow path (the decimal type) puts the point after the
// 800th digit (golang/go#42436 is a neighbour). The expected values are Python's float().
func TestParseFloatPastStrconv(t *testing.T) {
	for s, want := range map[string]float64{
		"9007199254740993" + strings.Repeat("0", 900) + "e-900":  9007199254740992,
		"9007199254740993" + strings.Repeat("0", 900) + "1e-901": 9007199254740994,
	} {
		got, err := ParseFloat(s)
		assert.NoError(t, err)
		assert.Equal(t, want, got, "%.30s…", s)
		wrong, _ := strconv.ParseFloat(s, 64)
		assert.NotEqual(t, want, wrong, "strconv still wrong on %.30s…: this test can compare with it again", s)
	}
}

func TestParseIntIsStrconv(t *testing.T) {
	for _, s := range []string{"", "0", "-0", "+", "-", "+5", "-5", "12a", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "99999999999999999999x", "18446744073709551616", "1_0", "0x10",
		"7fffffff", "80000000", "-80000000", "-80000001", "ffffffff", "FF", "zz", " 1"} {
		for _, c := range []struct{ base, bits int }{{10, 64}, {16, 32}, {16, 64}, {8, 32}, {36, 64}, {10, 8}} {
			want, wantErr := strconv.ParseInt(s, c.base, c.bits)
			got, err := ParseInt(s, c.base, c.bits)
			assert.Equal(t, want, got, "ParseInt(%q, %d, %d)", s, c.base, c.bits)
			assert.Equal(t, errOf(wantErr), err, "ParseInt(%q, %d, %d)", s, c.base, c.bits)
			wantU, wantErr := strconv.ParseUint(s, c.base, c.bits)
			gotU, err := ParseUint(s, c.base, c.bits)
			assert.Equal(t, wantU, gotU, "ParseUint(%q, %d, %d)", s, c.base, c.bits)
			assert.Equal(t, errOf(wantErr), err, "ParseUint(%q, %d, %d)", s, c.base, c.bits)
		}
		wantA, wantErr := strconv.Atoi(s)
		gotA, err := Atoi(s)
		assert.Equal(t, wantA, gotA, "Atoi(%q)", s)
		assert.Equal(t, errOf(wantErr), err, "Atoi(%q)", s)
	}
}

// errOf is strconv's error as ParseInt and the others return it.
func errOf(err error) error {
	if err == nil {
		return nil
	}
	return map[error]error{strconv.ErrSyntax: ErrSyntax, strconv.ErrRange: ErrRange}[err.(*strconv.NumError).Err]
}

// FuzzParseFloat holds ParseFloat to strconv.ParseFloat on any text up to maxDigits long.
func FuzzParseFloat(f *testing.F) {
	for _, s := range floatCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxDigits {
			t.Skip("strconv is wrong on some numbers this long: see TestParseFloatPastStrconv")
		}
		sameFloat(t, s)
	})
}

// FuzzParseInt holds ParseInt to strconv.ParseInt on any text, base and bit size.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"0", "-9223372036854775809", "+12", "7fffffff", "1_0", "z"} {
		f.Add(s, uint8(10), uint8(64))
	}
	f.Fuzz(func(t *testing.T, s string, base, bits uint8) {
		b, n := 2+int(base)%35, 1+int(bits)%64
		want, wantErr := strconv.ParseInt(s, b, n)
		got, err := ParseInt(s, b, n)
		if got != want || err != errOf(wantErr) {
			t.Fatalf("ParseInt(%q, %d, %d) = %d, %v; strconv: %d, %v", s, b, n, got, err, want, wantErr)
		}
	})
}
