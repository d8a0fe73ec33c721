package exact

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

var intSamples = []string{"0", "1", "-1", "7", "-7", "4294967295", "4294967296", "-4294967296",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
	"18446744073709551616", "340282366920938463463374607431768211455", "-340282366920938463463374607431768211457",
	"9007199254740993", "9007199254740995", "-9007199254740993", "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
	"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
	"123456789012345678901234567890123456789012345678901234567890", "-98765432109876543210987654321"}

func bigOf(t *testing.T, s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	require.True(t, ok, s)
	return b
}

func exOf(t *testing.T, s string) *Int {
	b, ok := new(Int).SetString(s, 10)
	require.True(t, ok, s)
	return b
}

func checkIntPair(t *testing.T, xs, ys string) {
	bx, by, ex, ey := bigOf(t, xs), bigOf(t, ys), exOf(t, xs), exOf(t, ys)
	name := xs + " " + ys
	require.Equal(t, new(big.Int).Add(bx, by).String(), new(Int).Add(ex, ey).String(), name)
	require.Equal(t, new(big.Int).Sub(bx, by).String(), new(Int).Sub(ex, ey).String(), name)
	require.Equal(t, new(big.Int).Mul(bx, by).String(), new(Int).Mul(ex, ey).String(), name)
	require.Equal(t, bx.Cmp(by), ex.Cmp(ey), name)
	require.Equal(t, bx.CmpAbs(by), ex.CmpAbs(ey), name)
	if by.Sign() != 0 {
		q, r := new(big.Int).QuoRem(bx, by, new(big.Int))
		eq, er := new(Int).QuoRem(ex, ey, new(Int))
		require.Equal(t, q.String()+" "+r.String(), eq.String()+" "+er.String(), name)
		q, r = new(big.Int).DivMod(bx, by, new(big.Int))
		eq, er = new(Int).DivMod(ex, ey, new(Int))
		require.Equal(t, q.String()+" "+r.String(), eq.String()+" "+er.String(), name)
		br := new(big.Rat).SetFrac(bx, by)
		er2 := new(Rat).SetFrac(ex, ey)
		require.Equal(t, br.RatString(), er2.RatString(), name)
		bf, _ := br.Float64()
		require.Equal(t, bf, er2.Float64(), name)
		for _, p := range []int{0, 1, 2, 5} {
			require.Equal(t, br.FloatString(p), er2.FloatString(p), name)
		}
		n, ok := br.FloatPrec()
		en, eok := er2.FloatPrec()
		require.Equal(t, ok, eok, name)
		if ok {
			require.Equal(t, n, en, name)
		}
		if ey.Sign() != 0 {
			bs := new(big.Rat).SetFrac(by, big.NewInt(3))
			es := new(Rat).SetFrac(ey, NewInt(3))
			require.Equal(t, new(big.Rat).Add(br, bs).RatString(), new(Rat).Add(er2, es).RatString(), name)
			require.Equal(t, new(big.Rat).Sub(br, bs).RatString(), new(Rat).Sub(er2, es).RatString(), name)
			require.Equal(t, new(big.Rat).Mul(br, bs).RatString(), new(Rat).Mul(er2, es).RatString(), name)
			require.Equal(t, new(big.Rat).Quo(br, bs).RatString(), new(Rat).Quo(er2, es).RatString(), name)
			require.Equal(t, br.Cmp(bs), er2.Cmp(es), name)
		}
	}
}

func checkInt(t *testing.T, s string) {
	b, e := bigOf(t, s), exOf(t, s)
	require.Equal(t, b.IsInt64(), e.IsInt64(), s)
	require.Equal(t, b.Int64(), e.Int64(), s)
	require.Equal(t, b.BitLen(), e.BitLen(), s)
	require.Equal(t, b.Sign(), e.Sign(), s)
	require.Equal(t, b.Bit(0), e.Bit(0), s)
	for _, base := range []int{2, 8, 10, 16, 36} {
		require.Equal(t, b.Text(base), e.Text(base), s)
		back, ok := new(Int).SetString(b.Text(base), base)
		require.True(t, ok)
		require.Equal(t, s, back.String())
	}
	bf, _ := new(big.Float).SetInt(b).Float64()
	require.Equal(t, bf, e.Float64(), s)
	require.Equal(t, new(big.Int).Neg(b).String(), new(Int).Neg(e).String())
	require.Equal(t, new(big.Int).Abs(b).String(), new(Int).Abs(e).String())
	require.Equal(t, new(big.Int).Lsh(b, 37).String(), new(Int).Lsh(e, 37).String())
	for _, n := range []int64{0, 1, 2, 3, 7} {
		require.Equal(t, new(big.Int).Exp(b, big.NewInt(n), nil).String(), new(Int).Exp(e, NewInt(n), nil).String(), s)
	}
}

func TestIntMatchesBig(t *testing.T) {
	for _, x := range intSamples {
		checkInt(t, x)
		for _, y := range intSamples {
			checkIntPair(t, x, y)
		}
	}
}

func TestSetStringBases(t *testing.T) {
	for _, c := range []struct {
		s    string
		base int
	}{{"0x1F", 0}, {"0b101", 0}, {"0o17", 0}, {"-0XfF", 0}, {"zz", 36}, {"777", 8}, {"10", 3},
		{"vv", 32}, {"123", 10}, {"12a", 10}, {"", 10}, {"-", 10}, {"0", 0}, {"ffffffffffffffffffffffffff", 16}} {
		b, bok := new(big.Int).SetString(c.s, c.base)
		e, eok := new(Int).SetString(c.s, c.base)
		require.Equal(t, bok, eok, c.s)
		if bok {
			require.Equal(t, b.String(), e.String(), c.s)
		}
	}
}

func TestFloat64Conversions(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.1, 1e300, -2.5e-300, 5e-324, math.MaxFloat64, 3.999, -1e20, 123456.789, 2.2250738585072014e-308} {
		br := new(big.Rat).SetFloat64(f)
		er := new(Rat).SetFloat64(f)
		require.Equal(t, br.RatString(), er.RatString(), f)
		require.Equal(t, f, er.Float64())
		bi, _ := new(big.Float).SetFloat64(f).Int(nil)
		require.Equal(t, bi.String(), new(Int).SetFloat64(f).String(), f)
	}
	// Subnormal quotients round as math/big does.
	tiny := new(big.Int).Lsh(big.NewInt(1), 1080)
	for _, num := range []int64{1, 3, 5, 7, 1<<53 + 1, 1<<54 + 3} {
		br := new(big.Rat).SetFrac(big.NewInt(num), tiny)
		er := new(Rat).SetFrac(NewInt(num), new(Int).Lsh(NewInt(1), 1080))
		bf, _ := br.Float64()
		require.Equal(t, bf, er.Float64(), num)
		bf, _ = new(big.Rat).Inv(br).Float64()
		require.Equal(t, bf, new(Rat).Quo(NewRat(1, 1), er).Float64(), num)
	}
}

func TestRatSetString(t *testing.T) {
	for _, s := range []string{"3", "-0.50", "0.125", "+2", ".5", "5.", "7/2", "-6/4", "1/0", "", ".", "1.2.3", "abc", "00012.3400"} {
		b, bok := new(big.Rat).SetString(s)
		e, eok := new(Rat).SetString(s)
		require.Equal(t, bok, eok, s)
		if bok {
			require.Equal(t, b.RatString(), e.RatString(), s)
		}
	}
}

// FuzzAgainstBig compares the integer and fraction operations with math/big on random values.
func FuzzAgainstBig(f *testing.F) {
	f.Add("12345678901234567890", "-987654321")
	f.Add("0", "1")
	f.Add("340282366920938463463374607431768211456", "18446744073709551617")
	f.Fuzz(func(t *testing.T, x, y string) {
		if len(x) > 400 || len(y) > 400 {
			return
		}
		bx, ok := new(big.Int).SetString(x, 10)
		if !ok {
			return
		}
		by, ok := new(big.Int).SetString(y, 10)
		if !ok {
			return
		}
		x, y = bx.String(), by.String()
		checkIntPair(t, x, y)
		checkInt(t, x)
	})
}

// bigPow is the 320-bit big.Float computation PowFloat replaces.
func bigPow(x float64, n int64, recip bool, roots int) float64 {
	const prec = 320
	base := new(big.Float).SetPrec(prec).SetFloat64(math.Abs(x))
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r.Mul(r, base)
		}
		base.Mul(base, base)
	}
	if recip {
		r.Quo(new(big.Float).SetPrec(prec).SetInt64(1), r)
	}
	for i := 0; i < roots; i++ {
		r.Sqrt(r)
	}
	f, _ := r.Float64()
	return f
}

func TestPowFloatMatchesBigFloat(t *testing.T) {
	xs := []float64{0.1, 1.1, 2, 3, 10, 1e-5, 0.5, 7.25, 1.0000001, 123456.789, 1e150, 1e-150, 5e-324, math.MaxFloat64, 2.5, 0.3, 9.99}
	for _, x := range xs {
		for _, n := range []int64{0, 1, 2, 3, 4, 5, 7, 10, 17, 100, 1000, 1 << 20} {
			for roots := 0; roots <= 3; roots++ {
				for _, recip := range []bool{false, true} {
					want := bigPow(x, n, recip, roots)
					require.Equal(t, want, PowFloat(x, n, recip, roots), "%v ** %d recip=%v roots=%d", x, n, recip, roots)
				}
			}
		}
	}
}

func TestCmpFloatMatchesBigFloat(t *testing.T) {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1e300, -1e300, math.Inf(1), math.Inf(-1), 9007199254740992, 9007199254740994, 1.8446744073709552e19, 5e-324}
	for _, s := range intSamples {
		x := exOf(t, s)
		bx := new(big.Float).SetInt(bigOf(t, s))
		for _, f := range fs {
			require.Equal(t, bx.Cmp(new(big.Float).SetFloat64(f)), CmpFloat(x, f), "%s vs %v", s, f)
		}
	}
	huge := new(Int).Lsh(NewInt(1), 2000)
	require.Equal(t, -1, CmpFloat(huge, math.Inf(1)))
	require.Equal(t, 1, CmpFloat(huge, math.MaxFloat64))
}

func TestQuotientOverflowIsInf(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(3), 1100)
	bf, _ := new(big.Rat).SetFrac(huge, big.NewInt(7)).Float64()
	require.True(t, math.IsInf(bf, 1))
	require.Equal(t, bf, new(Rat).SetFrac(new(Int).Lsh(NewInt(3), 1100), NewInt(7)).Float64())
	require.True(t, math.IsInf(new(Int).Lsh(NewInt(-1), 1024).Float64(), -1))
}
