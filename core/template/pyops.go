package template

// Python's operators on the value set of pyvalue.go: ints are exact (int64, promoted to exact.Int
// when they leave it), bool counts as an int, / is true division, // and % floor.

import (
	"math"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/value"
)

// numKind classifies a number operand: 0 not a number, 1 int (bool, int64, *exact.Int), 2 float.
func numKind(v any) int {
	switch v.(type) {
	case bool, int64, *exact.Int:
		return 1
	case float64:
		return 2
	}
	return 0
}

func toBig(v any) *exact.Int {
	switch t := v.(type) {
	case bool:
		if t {
			return exact.NewInt(1)
		}
		return exact.NewInt(0)
	case int64:
		return exact.NewInt(t)
	case *exact.Int:
		return t
	}
	return nil
}

// small returns v as int64 if it is an int that fits.
func small(v any) (int64, bool) {
	switch t := v.(type) {
	case bool:
		if t {
			return 1, true
		}
		return 0, true
	case int64:
		return t, true
	case *exact.Int:
		if t.IsInt64() {
			return t.Int64(), true
		}
	}
	return 0, false
}

// normInt returns b as int64 when it fits; it errors when b is over the size cap.
func normInt(b *exact.Int) (any, error) {
	if b.IsInt64() {
		return b.Int64(), nil
	}
	if b.BitLen() > maxIntBits {
		return nil, &pyError{msg: "integer result is over the limit of " + diag.Thousands(maxIntBits) + " bits"}
	}
	return b, nil
}

// toFloat converts an int or float operand to float64 as Python's float() does.
func toFloat(v any) (float64, error) {
	switch t := v.(type) {
	case float64:
		return t, nil
	case bool, int64:
		i, _ := small(t)
		return float64(i), nil
	case *exact.Int:
		f := t.Float64()
		if math.IsInf(f, 0) {
			return 0, &pyError{msg: "OverflowError: int too large to convert to float"}
		}
		return f, nil
	}
	return 0, typeErr("not a number")
}

func opUnsupported(op string, a, b any) error {
	return typeErr("unsupported operand type(s) for %s: '%s' and '%s'", op, pyTypeName(a), pyTypeName(b))
}

// binaryOp applies one of + - * / // % ** to a and b.
func binaryOp(op string, a, b any) (any, error) {
	// Before looking at b: str % undefined is no error in Jinja (str.__mod__ takes the
	// Undefined for a mapping and returns the string as it is), nor is Markup % undefined.
	if s, ok := a.(string); ok && op == "%" {
		return pyMod(s, b)
	}
	if err := noArithmetic(a); err != nil {
		return nil, err
	}
	if u, ok := a.(*undefined); ok {
		return nil, undefErr(u)
	}
	if u, ok := b.(*undefined); ok {
		return nil, undefErr(u)
	}
	ka, kb := numKind(a), numKind(b)
	if ka != 0 && kb != 0 {
		if ka == 1 && kb == 1 {
			return intOp(op, a, b)
		}
		x, err := toFloat(a)
		if err != nil {
			return nil, err
		}
		y, err := toFloat(b)
		if err != nil {
			return nil, err
		}
		return floatOp(op, x, y)
	}
	if err := noArithmetic(a); err != nil {
		return nil, err
	}
	if err := noArithmetic(b); err != nil {
		return nil, err
	}
	switch op {
	case "+":
		return addSeq(a, b)
	case "*":
		if ka == 1 {
			return repeatSeq(b, a)
		}
		if kb == 1 {
			return repeatSeq(a, b)
		}
		if _, ok := seqLike(a); ok && kb == 2 {
			return nil, typeErr("can't multiply sequence by non-int of type 'float'")
		}
		if _, ok := seqLike(b); ok && ka == 2 {
			return nil, typeErr("can't multiply sequence by non-int of type 'float'")
		}
	}
	pyop := op
	if op == "**" {
		pyop = "** or pow()"
	}
	return nil, opUnsupported(pyop, a, b)
}

// noArithmetic refuses the values whose arithmetic is outside the subset.
func noArithmetic(v any) error {
	switch v.(type) {
	case markup, tuple, *dictView:
		return notSupported("arithmetic on a " + pyTypeName(v) + " (tojson's result, d.items() and its pairs)")
	}
	return nil
}

func seqLike(v any) (int, bool) {
	switch v.(type) {
	case string, markup, []any, tuple:
		return 0, true
	}
	return 0, false
}

func addSeq(a, b any) (any, error) {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			if len(x)+len(y) > maxOutput {
				return nil, tooLong()
			}
			return x + y, nil
		}
		return nil, typeErr("can only concatenate str (not \"%s\") to str", pyTypeName(b))
	case []any:
		if y, ok := b.([]any); ok {
			if len(x)+len(y) > maxItems {
				return nil, tooMany()
			}
			out := make([]any, 0, len(x)+len(y))
			return append(append(out, x...), y...), nil
		}
		return nil, typeErr("can only concatenate list (not \"%s\") to list", pyTypeName(b))
	}
	return nil, opUnsupported("+", a, b)
}

func tooMany() error {
	return &pyError{msg: "a list of more than " + diag.Thousands(maxItems) + " items is over the limit"}
}

func tooLong() error {
	return &pyError{msg: "a string of more than " + diag.Thousands(maxOutput) + " bytes is over the limit"}
}

func repeatSeq(seq, count any) (any, error) {
	nb := toBig(count)
	n := int64(0)
	if nb.Sign() > 0 {
		n = -1
		if nb.IsInt64() {
			n = nb.Int64()
		}
	}
	switch s := seq.(type) {
	case string:
		if n < 0 || (len(s) > 0 && n > int64(maxOutput/len(s))) {
			return nil, tooLong()
		}
		return strings.Repeat(s, int(n)), nil
	case []any:
		if n < 0 || (len(s) > 0 && n > int64(maxItems/len(s))) {
			return nil, tooMany()
		}
		out := make([]any, 0, len(s)*int(n))
		for i := int64(0); i < n; i++ {
			out = append(out, s...)
		}
		return out, nil
	}
	return nil, opUnsupported("*", seq, count)
}

func zeroDiv(msg string) error {
	return &pyError{msg: "ZeroDivisionError: " + msg}
}

func intOp(op string, a, b any) (any, error) {
	x, xok := small(a)
	y, yok := small(b)
	if xok && yok {
		switch op {
		case "+":
			if s := x + y; (s > x) == (y > 0) {
				return s, nil
			}
		case "-":
			if s := x - y; (s < x) == (y > 0) {
				return s, nil
			}
		case "*":
			if x == 0 || y == 0 {
				return int64(0), nil
			}
			if p := x * y; p/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64) {
				return p, nil
			}
		case "//", "%":
			// Python floors the quotient, and the remainder takes the divisor's sign.
			if y != 0 && !(x == math.MinInt64 && y == -1) {
				q, r := x/y, x%y
				if r != 0 && (r < 0) != (y < 0) {
					q, r = q-1, r+y
				}
				if op == "//" {
					return q, nil
				}
				return r, nil
			}
		}
	}
	bx, by := toBig(a), toBig(b)
	switch op {
	case "+":
		return normInt(new(exact.Int).Add(bx, by))
	case "-":
		return normInt(new(exact.Int).Sub(bx, by))
	case "*":
		if bx.BitLen()+by.BitLen() > maxIntBits+1 {
			return nil, &pyError{msg: "integer result is over the limit of " + diag.Thousands(maxIntBits) + " bits"}
		}
		return normInt(new(exact.Int).Mul(bx, by))
	case "/":
		if by.Sign() == 0 {
			return nil, zeroDiv("division by zero")
		}
		f := new(exact.Rat).SetFrac(bx, by).Float64()
		if math.IsInf(f, 0) {
			return nil, &pyError{msg: "OverflowError: integer division result too large for a float"}
		}
		return f, nil
	case "//", "%":
		if by.Sign() == 0 {
			if op == "//" {
				return nil, zeroDiv("integer division or modulo by zero")
			}
			return nil, zeroDiv("integer modulo by zero")
		}
		q, m := new(exact.Int), new(exact.Int)
		q.DivMod(bx, by, m) // Euclidean: m >= 0
		if m.Sign() != 0 && by.Sign() < 0 {
			// Python floors toward -inf; the remainder takes the divisor's sign.
			q.Sub(q, exact.NewInt(1))
			m.Add(m, by)
		}
		if op == "//" {
			return normInt(q)
		}
		return normInt(m)
	case "**":
		if by.Sign() < 0 {
			fx, err := toFloat(a)
			if err != nil {
				return nil, err
			}
			fy, err := toFloat(b)
			if err != nil {
				return nil, err
			}
			return floatOp("**", fx, fy)
		}
		if bx.CmpAbs(exact.NewInt(1)) <= 0 {
			switch {
			case bx.Sign() == 0 && by.Sign() == 0:
				return int64(1), nil
			case bx.Sign() == 0:
				return int64(0), nil
			case bx.Sign() > 0:
				return int64(1), nil
			default:
				if by.Bit(0) == 0 {
					return int64(1), nil
				}
				return int64(-1), nil
			}
		}
		if !by.IsInt64() || int64(bx.BitLen()-1)*by.Int64() > maxIntBits {
			return nil, &pyError{msg: "integer result is over the limit of " + diag.Thousands(maxIntBits) + " bits"}
		}
		return normInt(new(exact.Int).Exp(bx, by, nil))
	}
	return nil, opUnsupported(op, a, b)
}

func floatOp(op string, x, y float64) (any, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		if y == 0 {
			return nil, zeroDiv("float division by zero")
		}
		return x / y, nil
	case "//", "%":
		if y == 0 {
			if op == "//" {
				return nil, zeroDiv("float floor division by zero")
			}
			return nil, zeroDiv("float modulo")
		}
		div, mod := floatDivmod(x, y)
		if op == "//" {
			return div, nil
		}
		return mod, nil
	case "**":
		return floatPow(x, y)
	}
	return nil, typeErr("bad operator")
}

// floatDivmod is CPython's float_divmod.
func floatDivmod(vx, wx float64) (float64, float64) {
	mod := math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1.0
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

// floatPow is CPython's float_pow for the cases that stay real.
func floatPow(x, y float64) (any, error) {
	if x == 0 && y < 0 {
		return nil, zeroDiv("0.0 cannot be raised to a negative power")
	}
	if x < 0 && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y) {
		return nil, notSupported("a negative number raised to a fractional power (Python returns a complex number)")
	}
	r := math.Pow(x, y)
	if exact, ok := exactPow(x, y); ok {
		r = exact
	}
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, &pyError{msg: "OverflowError: (34, 'Numerical result out of range')"}
	}
	return r, nil
}

// exactPow computes x**y correctly rounded when y is a multiple of 1/8 of moderate size, by
// exact powers and square roots in 320-bit arithmetic. CPython calls the C library's pow, which
// is correctly rounded in practice, while Go's math.Pow can be off by an ulp (0.1 ** -4); these
// exponents (squares, cubes, square roots, reciprocals) are the ones templates use.
func exactPow(x, y float64) (float64, bool) {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) {
		return 0, false
	}
	roots := 0
	for ; roots <= 3 && y != math.Trunc(y); roots++ {
		y *= 2
	}
	if y != math.Trunc(y) || math.Abs(y) > 1<<20 || (roots > 0 && x < 0) {
		return 0, false
	}
	n := int64(math.Abs(y))
	f := exact.PowFloat(x, n, y < 0, roots)
	if x < 0 && n&1 == 1 {
		f = -f
	}
	return f, true
}

// unaryOp applies unary - or +.
func unaryOp(op string, a any) (any, error) {
	switch t := a.(type) {
	case *undefined:
		return nil, undefErr(t)
	case float64:
		if op == "-" {
			return -t, nil
		}
		return t, nil
	case bool, int64, *exact.Int:
		b := toBig(t)
		if op == "-" {
			return normInt(new(exact.Int).Neg(b))
		}
		return normInt(new(exact.Int).Set(b))
	}
	return nil, typeErr("bad operand type for unary %s: '%s'", op, pyTypeName(a))
}

// pyEqual is Python's a == b.
func pyEqual(a, b any) (bool, error) {
	if u, ok := a.(*undefined); ok {
		if u.lenient {
			// Undefined.__eq__: the same type; it is called before a StrictUndefined's.
			v, same := b.(*undefined)
			return same && v.lenient, nil
		}
		return false, undefErr(u)
	}
	if u, ok := b.(*undefined); ok {
		if u.lenient {
			return false, nil
		}
		return false, undefErr(u)
	}
	ka, kb := numKind(a), numKind(b)
	if ka != 0 || kb != 0 {
		if ka == 0 || kb == 0 {
			return false, nil
		}
		c, ok := numCompare(a, b)
		return ok && c == 0, nil
	}
	switch x := a.(type) {
	case nil:
		return b == nil, nil
	case string, markup:
		sx := strOf(x)
		switch y := b.(type) {
		case string, markup:
			return sx == strOf(y), nil
		}
		return false, nil
	case []any:
		y, ok := b.([]any)
		if !ok {
			return false, nil
		}
		return seqEqual(x, y)
	case tuple:
		y, ok := b.(tuple)
		if !ok {
			return false, nil
		}
		return seqEqual(x, y)
	case *value.Object:
		y, ok := b.(*value.Object)
		if !ok || x.Len() != y.Len() {
			return false, nil
		}
		for _, k := range x.Keys() {
			vy, ok := y.Get(k)
			if !ok {
				return false, nil
			}
			vx, _ := x.Get(k)
			eq, err := pyEqual(normalize(vx), normalize(vy))
			if err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	case *dictView:
		// keys() and items() compare as sets; values() only with itself.
		y, ok := b.(*dictView)
		if !ok || x.kind == "values" || y.kind != x.kind || x.obj.Len() != y.obj.Len() {
			return x == y, nil
		}
		for _, it := range viewItems(y) {
			in, err := contains(x, it)
			if err != nil || !in {
				return false, err
			}
		}
		return true, nil
	}
	return a == b, nil
}

func strOf(v any) string {
	if m, ok := v.(markup); ok {
		return string(m)
	}
	s, _ := v.(string)
	return s
}

func seqEqual(x, y []any) (bool, error) {
	if len(x) != len(y) {
		return false, nil
	}
	for i := range x {
		eq, err := pyEqual(normalize(x[i]), normalize(y[i]))
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// numCompare compares two numbers exactly; ok is false when either is NaN.
func numCompare(a, b any) (int, bool) {
	if x, ok := small(a); ok {
		if y, ok := small(b); ok {
			return cmpInt(x, y), true
		}
	}
	if numKind(a) == 1 && numKind(b) == 1 {
		return toBig(a).Cmp(toBig(b)), true
	}
	fa, fb := a, b
	if x, ok := fa.(float64); ok && math.IsNaN(x) {
		return 0, false
	}
	if y, ok := fb.(float64); ok && math.IsNaN(y) {
		return 0, false
	}
	fx, okx := a.(float64)
	fy, oky := b.(float64)
	switch {
	case okx && oky:
		return cmpFloat(fx, fy), true
	case okx:
		return -exact.CmpFloat(toBig(b), fx), true
	case oky:
		return exact.CmpFloat(toBig(a), fy), true
	}
	return toBig(a).Cmp(toBig(b)), true
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// compareOp applies one of == != < <= > >= as Python does.
func compareOp(op string, a, b any) (bool, error) {
	switch op {
	case "==":
		return pyEqual(a, b)
	case "!=":
		eq, err := pyEqual(a, b)
		return !eq, err
	}
	c, err := order(op, a, b)
	if err != nil {
		return false, err
	}
	switch op {
	case "<":
		return c == -1, nil
	case "<=":
		return c == -1 || c == 0, nil
	case ">":
		return c == 1, nil
	default:
		return c == 1 || c == 0, nil
	}
}

// order returns -1, 0, 1, or 2 for "unordered" (NaN), for an ordering comparison.
func order(op string, a, b any) (int, error) {
	if u, ok := a.(*undefined); ok {
		return 0, undefErr(u)
	}
	if u, ok := b.(*undefined); ok {
		return 0, undefErr(u)
	}
	if numKind(a) != 0 && numKind(b) != 0 {
		c, ok := numCompare(a, b)
		if !ok {
			return 2, nil
		}
		return c, nil
	}
	switch x := a.(type) {
	case string, markup:
		switch y := b.(type) {
		case string, markup:
			return strings.Compare(strOf(x), strOf(y)), nil
		}
	case []any:
		if y, ok := b.([]any); ok {
			return seqOrder(op, x, y)
		}
	case tuple:
		if y, ok := b.(tuple); ok {
			return seqOrder(op, x, y)
		}
	}
	return 0, typeErr("'%s' not supported between instances of '%s' and '%s'", op, pyTypeName(a), pyTypeName(b))
}

func seqOrder(op string, x, y []any) (int, error) {
	for i := 0; i < len(x) && i < len(y); i++ {
		eq, err := pyEqual(normalize(x[i]), normalize(y[i]))
		if err != nil {
			return 0, err
		}
		if !eq {
			return order(op, normalize(x[i]), normalize(y[i]))
		}
	}
	switch {
	case len(x) < len(y):
		return -1, nil
	case len(x) > len(y):
		return 1, nil
	}
	return 0, nil
}

// contains is Python's item in container.
func contains(container, item any) (bool, error) {
	if u, ok := item.(*undefined); ok && !u.lenient {
		// Python only compares the item with what a list holds (an empty one: nothing), and
		// dict_items holds pairs only, so neither touches an Undefined that is not one.
		switch c := container.(type) {
		case []any:
			if len(c) == 0 {
				return false, nil
			}
		case tuple:
			if len(c) == 0 {
				return false, nil
			}
		case *dictView:
			return false, nil
		}
		return false, undefErr(u)
	}
	switch c := container.(type) {
	case *undefined:
		return false, undefErr(c)
	case *generator:
		return c.contains(item)
	case string, markup:
		switch it := item.(type) {
		case string, markup:
			return strings.Contains(strOf(c), strOf(it)), nil
		}
		return false, typeErr("'in <string>' requires string as left operand, not %s", pyTypeName(item))
	case []any, tuple, rangeVal:
		items, err := iterate(c)
		if err != nil {
			return false, err
		}
		for _, x := range items {
			eq, err := pyEqual(normalize(item), normalize(x))
			if err != nil {
				return false, err
			}
			if eq {
				return true, nil
			}
		}
		return false, nil
	case *value.Object:
		switch it := item.(type) {
		case []any, *value.Object:
			return false, typeErr("unhashable type: '%s'", pyTypeName(it))
		case string, markup:
			_, ok := c.Get(strOf(it))
			return ok, nil
		}
		return false, nil
	case *dictView:
		for _, x := range viewItems(c) {
			eq, err := pyEqual(item, x)
			if err != nil {
				return false, err
			}
			if eq {
				return true, nil
			}
		}
		return false, nil
	}
	return false, typeErr("argument of type '%s' is not iterable", pyTypeName(container))
}
