package template

// The number filters (abs, int, float, round, filesizeformat's float()) and Python's parsing of
// numbers from text: int(s, base) and float(s).

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"ragjudge/core/exact"
	"ragjudge/core/template/pystr"
)

func filterAbs(v any, _ []any) (any, error) {
	switch t := v.(type) {
	case float64:
		return math.Abs(t), nil
	case bool, int64, *exact.Int:
		return normInt(new(exact.Int).Abs(toBig(t)))
	}
	return nil, typeErr("bad operand type for abs(): '%s'", pyTypeName(v))
}

// pyFloatText is float(s) for a str: surrounding whitespace, a sign, digits with single
// underscores between them, a decimal point, an exponent, or inf, infinity and nan in any case.
// ok is false where Python raises ValueError; Unicode digits (which Python reads) are refused.
func pyFloatText(s string) (float64, bool, error) {
	t := strings.TrimFunc(s, pystr.IsSpace)
	for _, r := range t {
		if r > 0x7f {
			if unicode.IsNumber(r) || pystr.IsSpace(r) {
				return 0, false, notSupported("float() of text with non-ASCII digits or spaces")
			}
			return 0, false, nil
		}
	}
	body := t
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		f := math.Inf(1)
		if t[0] == '-' {
			f = -f
		}
		return f, true, nil
	case "nan":
		return math.NaN(), true, nil
	}
	// digits: [0-9] with single underscores between digits.
	i := 0
	digits := func() int {
		n := 0
		for i < len(body) {
			if isDigit(body[i]) {
				n++
				i++
				continue
			}
			if body[i] == '_' && n > 0 && i+1 < len(body) && isDigit(body[i+1]) {
				i++
				continue
			}
			break
		}
		return n
	}
	intDigits := digits()
	fracDigits := 0
	if i < len(body) && body[i] == '.' {
		i++
		fracDigits = digits()
	}
	if intDigits+fracDigits == 0 {
		return 0, false, nil
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false, nil
		}
	}
	if i != len(body) {
		return 0, false, nil
	}
	f, err := exact.ParseFloat(strings.ReplaceAll(t, "_", ""))
	if err != nil && !math.IsInf(f, 0) {
		return 0, false, nil
	}
	return f, true, nil
}

// pyFloat is float(v), raising what Python raises.
func pyFloat(v any) (float64, error) {
	switch t := v.(type) {
	case string, markup:
		f, ok, err := pyFloatText(strOf(t))
		if err != nil {
			return 0, err
		}
		if !ok {
			var r strings.Builder
			pystr.WriteRepr(&r, strOf(t))
			return 0, valueErr("could not convert string to float: %s", r.String())
		}
		return f, nil
	case bool, int64, *exact.Int, float64:
		return toFloat(t)
	case *undefined:
		return 0, undefErr(t)
	}
	return 0, typeErr("float() argument must be a string or a real number, not '%s'", pyTypeName(v))
}

// isTypeOrValueError reports whether err is a Python TypeError or ValueError (what int and
// float catch), as opposed to an undefined, an overflow or a refusal.
func isTypeOrValueError(err error) bool {
	pe, ok := err.(*pyError)
	return ok && (strings.HasPrefix(pe.msg, "TypeError: ") || strings.HasPrefix(pe.msg, "ValueError: "))
}

func filterFloat(v any, a []any) (any, error) {
	f, err := pyFloat(v)
	if err != nil {
		if isTypeOrValueError(err) {
			return a[0], nil
		}
		return nil, err
	}
	return f, nil
}

// floatToInt is int(f) for a float: truncation toward zero.
func floatToInt(f float64) (any, error) {
	if math.IsInf(f, 0) {
		return nil, &pyError{msg: "OverflowError: cannot convert float infinity to integer"}
	}
	if math.IsNaN(f) {
		return nil, valueErr("cannot convert float NaN to integer")
	}
	b := new(exact.Int).SetFloat64(f)
	return normInt(b)
}

// pyIntText is int(s, base) for a str: ok is false where Python raises ValueError.
func pyIntText(s string, base int) (any, bool, error) {
	t := strings.TrimFunc(s, pystr.IsSpace)
	for _, r := range t {
		if r > 0x7f {
			if unicode.IsNumber(r) || pystr.IsSpace(r) {
				return nil, false, notSupported("int() of text with non-ASCII digits or spaces")
			}
			return nil, false, nil
		}
	}
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	prefixed := false
	if len(t) >= 2 && t[0] == '0' {
		p := t[1] | 0x20
		if (p == 'x' && (base == 16 || base == 0)) || (p == 'o' && (base == 8 || base == 0)) || (p == 'b' && (base == 2 || base == 0)) {
			switch p {
			case 'x':
				base = 16
			case 'o':
				base = 8
			default:
				base = 2
			}
			t = t[2:]
			prefixed = true
		}
	}
	if base == 0 {
		base = 10
		// Without a prefix, base 0 is decimal without leading zeros ("0", "00" and "0_0" are zero).
		if len(t) > 1 && t[0] == '0' && strings.Trim(t, "0_") != "" {
			return nil, false, nil
		}
	}
	if prefixed && strings.HasPrefix(t, "_") {
		t = t[1:]
	}
	if t == "" || t[0] == '_' || t[len(t)-1] == '_' || strings.Contains(t, "__") {
		return nil, false, nil
	}
	digits := strings.ReplaceAll(t, "_", "")
	for i := 0; i < len(digits); i++ {
		c := digits[i] | 0x20
		d := 99
		switch {
		case isDigit(digits[i]):
			d = int(digits[i] - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		}
		if d >= base {
			return nil, false, nil
		}
	}
	if base&(base-1) != 0 && len(digits) > maxIntDigits {
		return nil, false, notSupported("int() of more than 4300 digits")
	}
	b, ok := new(exact.Int).SetString(digits, base)
	if !ok {
		return nil, false, nil
	}
	if neg {
		b.Neg(b)
	}
	v, err := normInt(b)
	return v, err == nil, err
}

// filterInt is do_int: int(value, base) for a str, int(value) otherwise, then int(float(value)),
// then the default.
func filterInt(v any, a []any) (any, error) {
	dflt, baseArg := a[0], a[1]
	first := func() (any, error) {
		switch t := v.(type) {
		case string, markup:
			base, err := asIndex(baseArg)
			if err != nil {
				return nil, err
			}
			if base != 0 && (base < 2 || base > 36) {
				return nil, valueErr("int() base must be >= 2 and <= 36, or 0")
			}
			n, ok, err := pyIntText(strOf(t), base)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, valueErr("invalid literal for int()")
			}
			return n, nil
		case bool, int64, *exact.Int:
			return normInt(toBig(t))
		case float64:
			return floatToInt(t)
		case *undefined:
			return nil, undefErr(t)
		}
		return nil, typeErr("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyTypeName(v))
	}
	n, err := first()
	if err == nil || !isTypeOrValueError(err) {
		return n, err
	}
	f, err := pyFloat(v)
	if err == nil {
		n, err = floatToInt(f)
	}
	if err != nil {
		if isTypeOrValueError(err) {
			return dflt, nil
		}
		return nil, err
	}
	return n, nil
}

// filterRound is do_round: round(value, precision) for "common", else math.ceil or math.floor
// of value * 10**precision, divided by 10**precision.
func filterRound(v any, a []any) (any, error) {
	precision, method := a[0], a[1]
	m, _ := method.(string)
	if mk, ok := method.(markup); ok {
		m = string(mk)
	}
	if m != "common" && m != "ceil" && m != "floor" {
		return nil, &pyError{msg: "FilterArgumentError: method must be common, ceil or floor"}
	}
	if m == "common" {
		return pyRound(v, precision)
	}
	p, err := binaryOp("**", int64(10), precision)
	if err != nil {
		return nil, err
	}
	x, err := binaryOp("*", v, p)
	if err != nil {
		return nil, err
	}
	var r any
	switch t := x.(type) {
	case float64:
		f := math.Floor(t)
		if m == "ceil" {
			f = math.Ceil(t)
		}
		if r, err = floatToInt(f); err != nil {
			return nil, err
		}
	case bool, int64, *exact.Int:
		r = t
	default:
		return nil, typeErr("must be real number, not %s", pyTypeName(x))
	}
	return binaryOp("/", r, p)
}

// pyRound is Python's round(x, ndigits): an int stays an int (rounded half to even at a
// negative ndigits); a float is rounded correctly, half to even, on its exact binary value.
func pyRound(v, nd any) (any, error) {
	if u, ok := v.(*undefined); ok {
		_ = u
		return nil, typeErr("type StrictUndefined doesn't define __round__ method")
	}
	if numKind(v) == 0 {
		return nil, typeErr("type %s doesn't define __round__ method", pyTypeName(v))
	}
	if numKind(nd) != 1 {
		return nil, typeErr("'%s' object cannot be interpreted as an integer", pyTypeName(nd))
	}
	nb := toBig(nd)
	if numKind(v) == 1 {
		x := toBig(v)
		if nb.Sign() >= 0 {
			return normInt(new(exact.Int).Set(x))
		}
		if !nb.IsInt64() || -nb.Int64() > maxIntDigits {
			return int64(0), nil
		}
		return normInt(roundToPow10(x, exact.NewInt(1), -nb.Int64()))
	}
	f := v.(float64)
	if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 {
		return f, nil
	}
	n := int64(400)
	if nb.IsInt64() {
		n = nb.Int64()
	} else if nb.Sign() < 0 {
		n = -400
	}
	switch {
	case n > 323:
		return f, nil
	case n < -308:
		return 0.0 * f, nil
	case n >= 0:
		r, _ := exact.ParseFloat(strconv.FormatFloat(f, 'f', int(n), 64))
		return r, nil
	}
	// Negative ndigits: f is m * 2**e exactly; round it to a multiple of 10**-n, half to even.
	frac, exp := math.Frexp(f)
	m := exact.NewInt(int64(frac * (1 << 53)))
	e := exp - 53
	den := exact.NewInt(1)
	if e >= 0 {
		m.Lsh(m, uint(e))
	} else {
		den.Lsh(den, uint(-e))
	}
	res := roundToPow10(m, den, -n).Float64()
	if res == 0 {
		res = math.Copysign(0, f)
	}
	if math.IsInf(res, 0) {
		return nil, &pyError{msg: "OverflowError: rounded value too large to represent"}
	}
	return res, nil
}

// roundToPow10 rounds num/den to a multiple of 10**k, half to even.
func roundToPow10(num, den *exact.Int, k int64) *exact.Int {
	pow := new(exact.Int).Exp(exact.NewInt(10), exact.NewInt(k), nil)
	d := new(exact.Int).Mul(den, pow)
	q, r := new(exact.Int).DivMod(num, d, new(exact.Int)) // floor, r >= 0
	if c := new(exact.Int).Lsh(r, 1).Cmp(d); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, exact.NewInt(1))
	}
	return q.Mul(q, pow)
}
