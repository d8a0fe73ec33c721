// Package exact is the small arbitrary-precision arithmetic the core needs: integers (Int) and
// rationals (Rat) with the subset of math/big's API that Python ints in templates and the exact
// recall scores use. It exists to keep math/big, which links fmt and os, out of the wasm; its
// algorithms are the plain schoolbook ones, fine for the sizes the core allows (65,536 bits).
package exact

import "math/bits"

// nat is a natural number: little-endian 32-bit words, no high zero words (zero is empty).
type nat []uint32

func (x nat) norm() nat {
	i := len(x)
	for i > 0 && x[i-1] == 0 {
		i--
	}
	return x[:i]
}

func natOf(v uint64) nat {
	return nat{uint32(v), uint32(v >> 32)}.norm()
}

func (x nat) cmp(y nat) int {
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func natAdd(x, y nat) nat {
	if len(x) < len(y) {
		x, y = y, x
	}
	z := make(nat, len(x)+1)
	var c uint64
	for i := range x {
		s := uint64(x[i]) + c
		if i < len(y) {
			s += uint64(y[i])
		}
		z[i] = uint32(s)
		c = s >> 32
	}
	z[len(x)] = uint32(c)
	return z.norm()
}

// natSub returns x - y for x >= y.
func natSub(x, y nat) nat {
	z := make(nat, len(x))
	var b int64
	for i := range x {
		d := int64(x[i]) - b
		if i < len(y) {
			d -= int64(y[i])
		}
		b = 0
		if d < 0 {
			d += 1 << 32
			b = 1
		}
		z[i] = uint32(d)
	}
	return z.norm()
}

func natMul(x, y nat) nat {
	if len(x) == 0 || len(y) == 0 {
		return nil
	}
	z := make(nat, len(x)+len(y))
	for i, xi := range x {
		var c uint64
		for j, yj := range y {
			t := uint64(xi)*uint64(yj) + uint64(z[i+j]) + c
			z[i+j] = uint32(t)
			c = t >> 32
		}
		z[i+len(y)] = uint32(c)
	}
	return z.norm()
}

// mulAddWord returns x*m + a.
func mulAddWord(x nat, m, a uint32) nat {
	z := make(nat, len(x)+1)
	c := uint64(a)
	for i, xi := range x {
		t := uint64(xi)*uint64(m) + c
		z[i] = uint32(t)
		c = t >> 32
	}
	z[len(x)] = uint32(c)
	return z.norm()
}

// divWord returns x / d and x % d.
func divWord(x nat, d uint32) (nat, uint32) {
	q := make(nat, len(x))
	var r uint64
	for i := len(x) - 1; i >= 0; i-- {
		t := r<<32 | uint64(x[i])
		q[i] = uint32(t / uint64(d))
		r = t % uint64(d)
	}
	return q.norm(), uint32(r)
}

func (x nat) bitLen() int {
	if len(x) == 0 {
		return 0
	}
	return (len(x)-1)*32 + bits.Len32(x[len(x)-1])
}

func (x nat) bit(i int) uint {
	if i < 0 || i/32 >= len(x) {
		return 0
	}
	return uint(x[i/32]>>(i%32)) & 1
}

// lowBitsZero reports whether bits 0..n-1 of x are all zero.
func (x nat) lowBitsZero(n int) bool {
	for i := 0; i < len(x) && n > 0; i++ {
		w := x[i]
		if n < 32 {
			w &= 1<<n - 1
		}
		if w != 0 {
			return false
		}
		n -= 32
	}
	return true
}

func natShl(x nat, s int) nat {
	if len(x) == 0 {
		return nil
	}
	w, b := s/32, uint(s%32)
	z := make(nat, len(x)+w+1)
	for i := len(x) - 1; i >= 0; i-- {
		z[i+w+1] |= uint32(uint64(x[i]) >> (32 - b))
		z[i+w] = x[i] << b
	}
	return z.norm()
}

func natShr(x nat, s int) nat {
	w, b := s/32, uint(s%32)
	if w >= len(x) {
		return nil
	}
	z := make(nat, len(x)-w)
	for i := range z {
		z[i] = x[i+w] >> b
		if b > 0 && i+w+1 < len(x) {
			z[i] |= x[i+w+1] << (32 - b)
		}
	}
	return z.norm()
}

// natQuoRem returns x / y and x % y for y != 0 (Knuth's algorithm D on 32-bit digits).
func natQuoRem(x, y nat) (nat, nat) {
	if x.cmp(y) < 0 {
		return nil, append(nat(nil), x...)
	}
	if len(y) == 1 {
		q, r := divWord(x, y[0])
		return q, natOf(uint64(r))
	}
	s := bits.LeadingZeros32(y[len(y)-1])
	v := natShl(y, s)
	u := natShl(x, s)
	u = append(u, 0)
	if len(u) < len(x)+1 {
		u = append(u, make(nat, len(x)+1-len(u))...)
	}
	n := len(v)
	m := len(u) - n - 1
	q := make(nat, m+1)
	vTop, vNext := uint64(v[n-1]), uint64(v[n-2])
	for j := m; j >= 0; j-- {
		num := uint64(u[j+n])<<32 | uint64(u[j+n-1])
		qhat := num / vTop
		rhat := num % vTop
		for qhat > 0xffffffff || qhat*vNext > (rhat<<32|uint64(u[j+n-2])) {
			qhat--
			rhat += vTop
			if rhat > 0xffffffff {
				break
			}
		}
		// u[j..j+n] -= qhat * v
		var borrow, carry uint64
		for i := 0; i < n; i++ {
			p := qhat*uint64(v[i]) + carry
			carry = p >> 32
			t := uint64(u[i+j]) - (p & 0xffffffff) - borrow
			u[i+j] = uint32(t)
			borrow = (t >> 32) & 1
		}
		t := uint64(u[j+n]) - carry - borrow
		u[j+n] = uint32(t)
		if t>>63 != 0 { // went negative: add v back once
			qhat--
			var c uint64
			for i := 0; i < n; i++ {
				s := uint64(u[i+j]) + uint64(v[i]) + c
				u[i+j] = uint32(s)
				c = s >> 32
			}
			u[j+n] += uint32(c)
		}
		q[j] = uint32(qhat)
	}
	return q.norm(), natShr(u[:n].norm(), s)
}

// natSqrt returns floor(sqrt(x)) by Newton's method.
func natSqrt(x nat) nat {
	if len(x) == 0 {
		return nil
	}
	r := natShl(nat{1}, (x.bitLen()+1)/2) // >= sqrt(x)
	for {
		q, _ := natQuoRem(x, r)
		next := natShr(natAdd(r, q), 1)
		if next.cmp(r) >= 0 {
			return r
		}
		r = next
	}
}

const digitsLower = "0123456789abcdefghijklmnopqrstuvwxyz"

// text writes x in base 2..36, lower-case digits.
func (x nat) text(base int) string {
	if len(x) == 0 {
		return "0"
	}
	// Peel off the largest power of base that fits a word, then write its digits.
	bb, n := uint32(base), 1
	for uint64(bb)*uint64(base) <= 0xffffffff {
		bb *= uint32(base)
		n++
	}
	buf := make([]byte, 0, x.bitLen()/2+n)
	for len(x) > 0 {
		var r uint32
		x, r = divWord(x, bb)
		for i := 0; i < n && (len(x) > 0 || r > 0); i++ {
			buf = append(buf, digitsLower[r%uint32(base)])
			r /= uint32(base)
		}
	}
	for i, j := 0, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	return string(buf)
}

// natParse reads digits in base 2..36 (either case, no sign, prefix or underscore).
func natParse(s string, base int) (nat, bool) {
	if s == "" {
		return nil, false
	}
	var z nat
	var chunk, chunkMul uint32 = 0, 1 // digits not yet folded into z, and base**their count
	shift := 0
	if base&(base-1) == 0 {
		shift = bits.TrailingZeros(uint(base))
		z = make(nat, (len(s)*shift+31)/32)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		d := 99
		switch {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			d = int(c|0x20-'a') + 10
		}
		if d >= base {
			return nil, false
		}
		if shift > 0 {
			// Place the digit directly: the i-th digit from the right sits at bit p.
			p := (len(s) - 1 - i) * shift
			v := uint64(d) << (p % 32)
			z[p/32] |= uint32(v)
			if p/32+1 < len(z) {
				z[p/32+1] |= uint32(v >> 32)
			}
			continue
		}
		chunk, chunkMul = chunk*uint32(base)+uint32(d), chunkMul*uint32(base)
		if uint64(chunkMul)*uint64(base) > 0xffffffff {
			z, chunk, chunkMul = mulAddWord(z, chunkMul, chunk), 0, 1
		}
	}
	if chunkMul > 1 {
		z = mulAddWord(z, chunkMul, chunk)
	}
	return z.norm(), true
}
