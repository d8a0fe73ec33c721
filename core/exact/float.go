package exact

import "math"

// CmpFloat compares the integer x with f exactly; f must not be NaN.
func CmpFloat(x *Int, f float64) int {
	switch {
	case math.IsInf(f, 1):
		return -1
	case math.IsInf(f, -1):
		return 1
	}
	return new(Rat).SetInt(x).Cmp(new(Rat).SetFloat64(f))
}

// bin is a binary floating-point magnitude m·2^e rounded to powPrec bits.
type bin struct {
	m nat
	e int
}

const powPrec = 320

// round rounds b to powPrec bits, half to even (sticky: nonzero bits were already cut below m).
func (b bin) round(sticky bool) bin {
	n := b.m.bitLen()
	if n <= powPrec {
		return b
	}
	drop := n - powPrec
	t := natShr(b.m, drop)
	if b.m.bit(drop-1) == 1 && (sticky || !b.m.lowBitsZero(drop-1) || t.bit(0) == 1) {
		t = natAdd(t, nat{1})
	}
	return bin{t, b.e + drop}
}

// PowFloat returns |x|**n (1/|x|**n when recip), then its square root taken roots times,
// computed in 320-bit binary arithmetic and rounded once more to a float64: exact powers of
// moderate size come out correctly rounded, as C's pow does, where math.Pow can be an ulp off.
// x must be finite and not 0; the caller applies the sign.
func PowFloat(x float64, n int64, recip bool, roots int) float64 {
	fr, e := math.Frexp(math.Abs(x))
	base := bin{natOf(uint64(fr * (1 << 53))), e - 53}
	r := bin{nat{1}, 0}
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r = bin{natMul(r.m, base.m), r.e + base.e}.round(false)
		}
		if n > 1 {
			base = bin{natMul(base.m, base.m), 2 * base.e}.round(false)
		}
	}
	if recip {
		s := powPrec + r.m.bitLen() + 2
		q, rem := natQuoRem(natShl(nat{1}, s), r.m)
		r = bin{q, -s - r.e}.round(len(rem) > 0)
	}
	for i := 0; i < roots; i++ {
		s := 2*powPrec + 2 - r.m.bitLen()
		if s < 0 {
			s = 0
		}
		if (r.e-s)%2 != 0 {
			s++
		}
		m := natShl(r.m, s)
		q := natSqrt(m)
		r = bin{q, (r.e - s) / 2}.round(natMul(q, q).cmp(m) != 0)
	}
	return roundFloat(false, r.m, r.e, false)
}
