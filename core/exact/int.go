package exact

import (
	"math"
	"strings"
)

// Int is a signed integer of any size. Methods follow math/big: z.Op(x, y) sets z and returns
// it, and operands may alias z. The zero value is 0.
type Int struct {
	neg bool
	abs nat
}

// NewInt returns x as an Int.
func NewInt(x int64) *Int { return new(Int).SetInt64(x) }

func (z *Int) set(neg bool, abs nat) *Int {
	z.abs = abs.norm()
	z.neg = neg && len(z.abs) > 0
	return z
}

// SetInt64 sets z to x.
func (z *Int) SetInt64(x int64) *Int {
	u := uint64(x)
	if x < 0 {
		u = -u
	}
	return z.set(x < 0, natOf(u))
}

// Set sets z to x.
func (z *Int) Set(x *Int) *Int { return z.set(x.neg, append(nat(nil), x.abs...)) }

// Sign returns -1, 0 or 1.
func (x *Int) Sign() int {
	switch {
	case len(x.abs) == 0:
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// Cmp compares x and y.
func (x *Int) Cmp(y *Int) int {
	switch {
	case x.neg != y.neg:
		if x.neg {
			return -1
		}
		return 1
	case x.neg:
		return -x.abs.cmp(y.abs)
	}
	return x.abs.cmp(y.abs)
}

// CmpAbs compares |x| and |y|.
func (x *Int) CmpAbs(y *Int) int { return x.abs.cmp(y.abs) }

// Abs sets z to |x|.
func (z *Int) Abs(x *Int) *Int { return z.set(false, x.abs) }

// Neg sets z to -x.
func (z *Int) Neg(x *Int) *Int { return z.set(!x.neg, x.abs) }

// Add sets z to x + y.
func (z *Int) Add(x, y *Int) *Int {
	if x.neg == y.neg {
		return z.set(x.neg, natAdd(x.abs, y.abs))
	}
	if x.abs.cmp(y.abs) >= 0 {
		return z.set(x.neg, natSub(x.abs, y.abs))
	}
	return z.set(y.neg, natSub(y.abs, x.abs))
}

// Sub sets z to x - y.
func (z *Int) Sub(x, y *Int) *Int {
	ny := Int{!y.neg, y.abs}
	return z.Add(x, &ny)
}

// Mul sets z to x * y.
func (z *Int) Mul(x, y *Int) *Int { return z.set(x.neg != y.neg, natMul(x.abs, y.abs)) }

// QuoRem sets z to x / y truncated toward zero and r to x - y*z. It panics when y is 0.
func (z *Int) QuoRem(x, y, r *Int) (*Int, *Int) {
	if len(y.abs) == 0 {
		panic("exact: division by zero")
	}
	q, m := natQuoRem(x.abs, y.abs)
	xneg := x.neg
	z.set(x.neg != y.neg, q)
	r.set(xneg, m)
	return z, r
}

// Quo sets z to x / y truncated toward zero.
func (z *Int) Quo(x, y *Int) *Int {
	z.QuoRem(x, y, new(Int))
	return z
}

// Rem sets z to x % y, with the sign of x.
func (z *Int) Rem(x, y *Int) *Int {
	new(Int).QuoRem(x, y, z)
	return z
}

// DivMod sets z to the Euclidean quotient and m to the modulus (0 <= m < |y|).
func (z *Int) DivMod(x, y, m *Int) (*Int, *Int) {
	yneg := y.neg
	ya := new(Int).Abs(y)
	z.QuoRem(x, y, m)
	if m.neg {
		m.Add(m, ya)
		if yneg {
			z.Add(z, NewInt(1))
		} else {
			z.Sub(z, NewInt(1))
		}
	}
	return z, m
}

// Exp sets z to x**y for y >= 0 (m must be nil: there is no modular form).
func (z *Int) Exp(x, y, m *Int) *Int {
	if m != nil || y.neg {
		panic("exact: Exp with a modulus or a negative exponent")
	}
	r := nat{1}
	base := append(nat(nil), x.abs...)
	for i := 0; i < y.abs.bitLen(); i++ {
		if y.abs.bit(i) == 1 {
			r = natMul(r, base)
		}
		if i+1 < y.abs.bitLen() {
			base = natMul(base, base)
		}
	}
	return z.set(x.neg && y.abs.bit(0) == 1, r)
}

// Lsh sets z to x << n.
func (z *Int) Lsh(x *Int, n uint) *Int { return z.set(x.neg, natShl(x.abs, int(n))) }

// BitLen returns the length of |x| in bits.
func (x *Int) BitLen() int { return x.abs.bitLen() }

// Bit returns bit i of |x| (math/big uses two's complement for negative x; the two agree for
// bit 0, the only one the core asks for).
func (x *Int) Bit(i int) uint { return x.abs.bit(i) }

// IsInt64 reports whether x fits an int64.
func (x *Int) IsInt64() bool {
	if len(x.abs) > 2 {
		return false
	}
	u := x.low64()
	return u <= math.MaxInt64 || x.neg && u == 1<<63
}

func (x *Int) low64() uint64 {
	var u uint64
	if len(x.abs) > 0 {
		u = uint64(x.abs[0])
	}
	if len(x.abs) > 1 {
		u |= uint64(x.abs[1]) << 32
	}
	return u
}

// Int64 returns x as an int64 (the low 64 bits when it does not fit).
func (x *Int) Int64() int64 {
	u := x.low64()
	if x.neg {
		u = -u
	}
	return int64(u)
}

// Float64 returns x correctly rounded (half to even) to a float64, ±Inf when it is too large.
func (x *Int) Float64() float64 { return roundFloat(x.neg, x.abs, 0, false) }

// SetFloat64 sets z to the integer part of f (truncated toward zero); f must be finite.
func (z *Int) SetFloat64(f float64) *Int {
	f = math.Trunc(f)
	fr, e := math.Frexp(math.Abs(f))
	m := nat(natOf(uint64(fr * (1 << 53))))
	e -= 53
	if e >= 0 {
		m = natShl(m, e)
	} else {
		m = natShr(m, -e)
	}
	return z.set(f < 0, m)
}

// Text writes x in base 2..36 with lower-case digits.
func (x *Int) Text(base int) string {
	s := x.abs.text(base)
	if x.neg {
		return "-" + s
	}
	return s
}

// String writes x in decimal.
func (x *Int) String() string { return x.Text(10) }

// SetString sets z to s in the given base (2..36; 0 means 10 or the prefix 0b, 0o or 0x), with
// an optional sign. No underscores.
func (z *Int) SetString(s string, base int) (*Int, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if base == 0 {
		base = 10
		if len(s) > 1 && s[0] == '0' {
			switch s[1] | 0x20 {
			case 'b':
				base, s = 2, s[2:]
			case 'o':
				base, s = 8, s[2:]
			case 'x':
				base, s = 16, s[2:]
			default:
				if strings.Trim(s, "0") != "" {
					return nil, false // a leading 0 means octal to math/big; no caller wants it
				}
			}
		}
	}
	abs, ok := natParse(s, base)
	if !ok {
		return nil, false
	}
	return z.set(neg, abs), true
}
