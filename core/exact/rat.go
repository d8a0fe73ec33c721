package exact

import "math"

// Rat is an exact fraction a/b kept in lowest terms with b > 0. Methods follow math/big. The
// zero value is 0.
type Rat struct {
	a Int
	b nat // the denominator; empty means 1
}

// NewRat returns a/b; b must not be 0.
func NewRat(a, b int64) *Rat { return new(Rat).SetFrac(NewInt(a), NewInt(b)) }

func natGCD(x, y nat) nat {
	for len(y) > 0 {
		_, r := natQuoRem(x, y)
		x, y = y, r
	}
	return x
}

// setNorm sets z to (neg ? -1 : 1)·a/b reduced; b != 0.
func (z *Rat) setNorm(neg bool, a, b nat) *Rat {
	if len(a) == 0 {
		z.a.set(false, nil)
		z.b = nil
		return z
	}
	if g := natGCD(a, b); !(len(g) == 1 && g[0] == 1) {
		a, _ = natQuoRem(a, g)
		b, _ = natQuoRem(b, g)
	}
	z.a.set(neg, a)
	z.b = b
	if len(b) == 1 && b[0] == 1 {
		z.b = nil
	}
	return z
}

func (x *Rat) den() nat {
	if len(x.b) == 0 {
		return nat{1}
	}
	return x.b
}

// SetFrac sets z to a/b; b must not be 0.
func (z *Rat) SetFrac(a, b *Int) *Rat {
	if len(b.abs) == 0 {
		panic("exact: division by zero")
	}
	return z.setNorm(a.neg != b.neg, a.abs, b.abs)
}

// SetInt sets z to x.
func (z *Rat) SetInt(x *Int) *Rat { z.a.Set(x); z.b = nil; return z }

// SetInt64 sets z to x.
func (z *Rat) SetInt64(x int64) *Rat { z.a.SetInt64(x); z.b = nil; return z }

// Set sets z to x.
func (z *Rat) Set(x *Rat) *Rat { z.a.Set(&x.a); z.b = append(nat(nil), x.b...); return z }

// Num returns the numerator (with x's sign); it may be shared with x.
func (x *Rat) Num() *Int { return &x.a }

// Denom returns a new Int holding the denominator (> 0).
func (x *Rat) Denom() *Int { return new(Int).set(false, append(nat(nil), x.den()...)) }

// Sign returns -1, 0 or 1.
func (x *Rat) Sign() int { return x.a.Sign() }

// IsInt reports whether the denominator is 1.
func (x *Rat) IsInt() bool { return len(x.b) == 0 }

// Cmp compares x and y.
func (x *Rat) Cmp(y *Rat) int {
	l := new(Int).Mul(&x.a, &Int{abs: y.den()})
	r := new(Int).Mul(&y.a, &Int{abs: x.den()})
	return l.Cmp(r)
}

// Abs sets z to |x|.
func (z *Rat) Abs(x *Rat) *Rat { z.Set(x); z.a.neg = false; return z }

// Neg sets z to -x.
func (z *Rat) Neg(x *Rat) *Rat { z.Set(x); z.a.Neg(&z.a); return z }

func (z *Rat) addSub(x, y *Rat, sub bool) *Rat {
	l := new(Int).Mul(&x.a, &Int{abs: y.den()})
	r := new(Int).Mul(&y.a, &Int{abs: x.den()})
	if sub {
		l.Sub(l, r)
	} else {
		l.Add(l, r)
	}
	return z.setNorm(l.neg, l.abs, natMul(x.den(), y.den()))
}

// Add sets z to x + y.
func (z *Rat) Add(x, y *Rat) *Rat { return z.addSub(x, y, false) }

// Sub sets z to x - y.
func (z *Rat) Sub(x, y *Rat) *Rat { return z.addSub(x, y, true) }

// Mul sets z to x * y.
func (z *Rat) Mul(x, y *Rat) *Rat {
	return z.setNorm(x.a.neg != y.a.neg, natMul(x.a.abs, y.a.abs), natMul(x.den(), y.den()))
}

// Quo sets z to x / y; y must not be 0.
func (z *Rat) Quo(x, y *Rat) *Rat {
	if len(y.a.abs) == 0 {
		panic("exact: division by zero")
	}
	return z.setNorm(x.a.neg != y.a.neg, natMul(x.a.abs, y.den()), natMul(x.den(), y.a.abs))
}

// SetFloat64 sets z to f exactly; it returns nil when f is not finite.
func (z *Rat) SetFloat64(f float64) *Rat {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	fr, e := math.Frexp(math.Abs(f))
	m := natOf(uint64(fr * (1 << 53)))
	e -= 53
	if e >= 0 {
		return z.setNorm(f < 0, natShl(m, e), nat{1})
	}
	return z.setNorm(f < 0, m, natShl(nat{1}, -e))
}

// Float64 returns x correctly rounded (half to even) to a float64.
func (x *Rat) Float64() float64 {
	a, b := x.a.abs, x.den()
	if len(a) == 0 {
		return 0
	}
	// Scale so the quotient has at least 55 bits, then round it with the remainder as sticky.
	s := 55 - (a.bitLen() - b.bitLen()) + 1
	if s >= 0 {
		a = natShl(a, s)
	} else {
		b = natShl(b, -s)
	}
	q, r := natQuoRem(a, b)
	return roundFloat(x.a.neg, q, -s, len(r) > 0)
}

// roundFloat returns ±m·2^e (plus a little more when sticky: bits below m that are not zero)
// rounded half to even to a float64, with subnormals and overflow to ±Inf. When sticky, m must
// have more than 53 bits.
func roundFloat(neg bool, m nat, e int, sticky bool) float64 {
	n := m.bitLen()
	if n == 0 {
		return 0
	}
	keep := 53
	if top := e + n - 1; top < -1022 {
		keep = 53 - (-1022 - top)
	}
	var f float64
	if keep >= n {
		f = math.Ldexp(float64(m.low()), e)
	} else {
		drop := n - keep
		var t uint64
		if keep > 0 {
			t = natShr(m, drop).low()
		}
		half := m.bit(drop-1) == 1
		rest := sticky || !m.lowBitsZero(drop-1)
		if half && (rest || t&1 == 1) {
			t++
		}
		if drop > 1<<20 {
			drop = 1 << 20 // beyond any float64 exponent: Ldexp underflows or overflows either way
		}
		f = math.Ldexp(float64(t), e+drop)
	}
	if neg {
		return -f
	}
	return f
}

func (x nat) low() uint64 {
	var u uint64
	for i := 0; i < len(x) && i < 2; i++ {
		u |= uint64(x[i]) << (32 * i)
	}
	return u
}

// SetString sets z to a decimal ("-12", "3.50", ".5", "5.") or a fraction of integers ("7/2").
func (z *Rat) SetString(s string) (*Rat, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			a, ok1 := new(Int).SetString(s[:i], 10)
			b, ok2 := new(Int).SetString(s[i+1:], 10)
			if !ok1 || !ok2 || s[i+1] == '-' || s[i+1] == '+' || b.Sign() == 0 {
				return nil, false
			}
			return z.SetFrac(a, b), true
		}
	}
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	digits, scale := s, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			digits, scale = s[:i]+s[i+1:], len(s)-i-1
			break
		}
	}
	if digits == "" || !isDecimal(digits) {
		return nil, false
	}
	a, _ := natParse(digits, 10)
	return z.setNorm(neg, a, pow10(scale)), true
}

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func pow10(n int) nat {
	r := nat{1}
	for ; n > 0; n-- {
		r = mulAddWord(r, 10, 0)
	}
	return r
}

// RatString writes x as "a/b", or "a" when x is an integer.
func (x *Rat) RatString() string {
	if x.IsInt() {
		return x.a.String()
	}
	return x.a.String() + "/" + x.b.text(10)
}

// String writes x as "a/b" (always with the denominator, as math/big does).
func (x *Rat) String() string { return x.a.String() + "/" + x.den().text(10) }

// FloatString writes x in decimal with prec digits after the point, the last one rounded half
// away from zero (math/big's rule).
func (x *Rat) FloatString(prec int) string {
	b := x.den()
	q, r := natQuoRem(x.a.abs, b)
	p := pow10(prec)
	f, fr := natQuoRem(natMul(r, p), b)
	if natShl(fr, 1).cmp(b) >= 0 { // round half up in magnitude
		f = natAdd(f, nat{1})
		if f.cmp(p) >= 0 {
			f = natSub(f, p)
			q = natAdd(q, nat{1})
		}
	}
	s := q.text(10)
	if x.a.neg {
		s = "-" + s
	}
	if prec > 0 {
		fs := f.text(10)
		for len(fs) < prec {
			fs = "0" + fs
		}
		s += "." + fs
	}
	return s
}

// FloatPrec returns the number of decimals needed to write x exactly, and whether that is
// possible at all (the denominator has no prime factor but 2 and 5). When it is not, n is the
// number of non-repeating decimals, as in math/big.
func (x *Rat) FloatPrec() (n int, exact bool) {
	d := x.den()
	var p2, p5 int
	for d.bit(0) == 0 && len(d) > 0 {
		d = natShr(d, 1)
		p2++
	}
	for {
		q, r := divWord(d, 5)
		if r != 0 {
			break
		}
		d = q
		p5++
	}
	n = max(p2, p5)
	return n, len(d) == 1 && d[0] == 1
}
