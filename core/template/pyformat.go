package template

// Python's printf-style formatting, str % args, as the format filter uses it: %s %r %d %i %u
// %x %X %o %e %E %f %F %g %G %c and %%, with a (key), the flags #0- +, a width and a precision
// (either may be *), following CPython's Objects/unicodeobject.c. %a (ascii()) is refused.

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"ragjudge/core/exact"
	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// pyMod is str % x: a tuple gives the arguments; what Python takes for a mapping (anything with
// __getitem__ but a tuple or a str: a dict, a list, a range, an undefined) is the one argument
// of each field and what %(key) looks into, and no argument is left over; anything else is the
// one argument.
func pyMod(format string, x any) (any, error) {
	switch t := x.(type) {
	case tuple:
		return pyPrintf(format, t, nil)
	case *value.Object, []any, rangeVal, *undefined:
		return pyPrintf(format, []any{t}, t)
	case markup:
		return nil, notSupported("printf-style formatting with a Markup argument")
	}
	return pyPrintf(format, []any{x}, nil)
}

// pyPrintf is format % args: the fields take args in turn (a value that is not a tuple is the
// one argument); mapping, when not nil, is what %(key) looks into, and then an argument left
// over is no error.
func pyPrintf(format string, args []any, mapping any) (string, error) {
	var b strings.Builder
	argi := 0
	next := func() (any, error) {
		if argi >= len(args) {
			return nil, typeErr("not enough arguments for format string")
		}
		argi++
		return normalize(args[argi-1]), nil
	}
	i := 0
	for i < len(format) {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			b.WriteString(format[i:])
			break
		}
		b.WriteString(format[i : i+j])
		i += j + 1
		if i >= len(format) {
			return "", valueErr("incomplete format")
		}
		var arg any
		haveArg := false
		if format[i] == '(' {
			if mapping == nil {
				return "", typeErr("format requires a mapping")
			}
			depth, k := 1, i+1
			for k < len(format) && depth > 0 {
				switch format[k] {
				case '(':
					depth++
				case ')':
					depth--
				}
				k++
			}
			if depth > 0 {
				return "", valueErr("incomplete format key")
			}
			key := format[i+1 : k-1]
			var x any
			switch m := mapping.(type) {
			case *value.Object:
				v, ok := m.Get(key)
				if !ok {
					var r strings.Builder
					pystr.WriteRepr(&r, key)
					return "", &pyError{msg: "KeyError: " + r.String()}
				}
				x = v
			case *undefined:
				return "", undefErr(m)
			default:
				return "", typeErr("%s indices must be integers or slices, not str", pyTypeName(m))
			}
			arg, haveArg = normalize(x), true
			i = k
		}
		var flags string
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			flags += format[i : i+1]
			i++
		}
		num := func() (int, bool, error) {
			if i < len(format) && format[i] == '*' {
				i++
				x, err := next()
				if err != nil {
					return 0, false, err
				}
				if numKind(x) != 1 {
					return 0, false, typeErr("* wants int")
				}
				n, _ := asIndex(x)
				return n, true, nil
			}
			start := i
			for i < len(format) && isDigit(format[i]) {
				i++
			}
			if i == start {
				return 0, false, nil
			}
			n, err := exact.Atoi(format[start:i])
			if err != nil || n > maxOutput {
				return 0, false, valueErr("width too big")
			}
			return n, true, nil
		}
		width, _, err := num()
		if err != nil {
			return "", err
		}
		if width < 0 {
			flags += "-"
			width = -width
		}
		prec, hasPrec := 0, false
		if i < len(format) && format[i] == '.' {
			i++
			if prec, _, err = num(); err != nil {
				return "", err
			}
			hasPrec = true
			if prec < 0 {
				prec = 0
			}
		}
		for i < len(format) && strings.IndexByte("hlL", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			return "", valueErr("incomplete format")
		}
		conv, w := utf8.DecodeRuneInString(format[i:])
		i += w
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		if !haveArg {
			if arg, err = next(); err != nil {
				return "", err
			}
		}
		if width > maxOutput || prec > maxOutput {
			return "", tooLong()
		}
		s, err := formatOne(conv, flags, width, prec, hasPrec, arg, i-w)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
		if b.Len() > maxOutput {
			return "", tooLong()
		}
	}
	if mapping == nil && argi < len(args) {
		return "", typeErr("not all arguments converted during string formatting")
	}
	return b.String(), nil
}

func formatOne(conv rune, flags string, width, prec int, hasPrec bool, arg any, at int) (string, error) {
	left := strings.Contains(flags, "-")
	zero := strings.Contains(flags, "0") && !left
	alt := strings.Contains(flags, "#")
	sign := ""
	if strings.Contains(flags, "+") {
		sign = "+"
	} else if strings.Contains(flags, " ") {
		sign = " "
	}
	if _, ok := arg.(markup); ok {
		return "", notSupported("formatting a Markup value with %")
	}
	pad := func(body string, numeric bool, prefixLen int) string {
		n := utf8.RuneCountInString(body)
		if n >= width {
			return body
		}
		fill := strings.Repeat(" ", width-n)
		switch {
		case left:
			return body + fill
		case zero && numeric:
			return body[:prefixLen] + strings.Repeat("0", width-n) + body[prefixLen:]
		}
		return fill + body
	}
	switch conv {
	case 's', 'r':
		var s string
		var err error
		if conv == 's' {
			s, err = pyStr(arg)
		} else {
			s, err = pyRepr(arg)
		}
		if err != nil {
			return "", err
		}
		if hasPrec {
			s = runeSlice(s, prec)
		}
		return pad(s, false, 0), nil
	case 'd', 'i', 'u', 'x', 'X', 'o':
		var n *exact.Int
		switch t := arg.(type) {
		case bool, int64, *exact.Int:
			n = toBig(t)
		case float64:
			if conv == 'x' || conv == 'X' || conv == 'o' {
				return "", typeErr("%s format: an integer is required, not float", "%"+string(conv))
			}
			x, err := floatToInt(t)
			if err != nil {
				return "", err
			}
			n = toBig(x)
		case *undefined:
			return "", undefErr(t)
		default:
			what := "a real number"
			if conv == 'x' || conv == 'X' || conv == 'o' {
				what = "an integer"
			}
			return "", typeErr("%s format: %s is required, not %s", "%"+string(conv), what, pyTypeName(arg))
		}
		base, prefix := 10, ""
		switch conv {
		case 'x', 'X':
			base, prefix = 16, "0x"
		case 'o':
			base, prefix = 8, "0o"
		}
		digits := new(exact.Int).Abs(n).Text(base)
		if len(digits) > maxIntDigits && base == 10 {
			return "", valueErr("Exceeds the limit (4300 digits) for integer string conversion")
		}
		if conv == 'X' {
			digits, prefix = strings.ToUpper(digits), "0X"
		}
		if hasPrec && len(digits) < prec {
			digits = strings.Repeat("0", prec-len(digits)) + digits
		}
		head := sign
		if n.Sign() < 0 {
			head = "-"
		}
		if alt && base != 10 {
			head += prefix
		}
		return pad(head+digits, true, len(head)), nil
	case 'e', 'E', 'f', 'F', 'g', 'G':
		var f float64
		switch t := arg.(type) {
		case bool, int64, *exact.Int, float64:
			var err error
			if f, err = toFloat(t); err != nil {
				return "", err
			}
		case *undefined:
			return "", undefErr(t)
		default:
			return "", typeErr("must be real number, not %s", pyTypeName(arg))
		}
		if !hasPrec {
			prec = 6
		}
		if prec > 1000 {
			return "", notSupported("a float precision over 1000")
		}
		body := formatFloatC(math.Abs(f), conv, prec, alt)
		head := sign
		if math.Signbit(f) && !math.IsNaN(f) {
			head = "-"
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			if zero {
				return "", notSupported("zero-padding inf or nan")
			}
		}
		return pad(head+body, true, len(head)), nil
	case 'c':
		var s string
		switch t := arg.(type) {
		case string:
			if utf8.RuneCountInString(t) != 1 {
				return "", typeErr("%c requires int or char")
			}
			s = t
		case bool, int64, *exact.Int:
			b := toBig(t)
			if b.Sign() < 0 || b.Cmp(exact.NewInt(0x110000)) >= 0 {
				return "", &pyError{msg: "OverflowError: %c arg not in range(0x110000)"}
			}
			r := rune(b.Int64())
			if r >= 0xd800 && r < 0xe000 {
				return "", notSupported("%c of a surrogate")
			}
			s = string(r)
		default:
			return "", typeErr("%c requires int or char")
		}
		return pad(s, false, 0), nil
	case 'a':
		return "", notSupported("%a (ascii()) in format")
	}
	return "", valueErr("unsupported format character '%s' (0x%s) at index %s", string(conv), strconv.FormatInt(int64(conv), 16), at)
}

// formatFloatC formats f >= 0 as C's printf (and Python's %) does for e, f and g.
func formatFloatC(f float64, conv rune, prec int, alt bool) string {
	upper := conv == 'E' || conv == 'F' || conv == 'G'
	var s string
	switch {
	case math.IsInf(f, 0):
		s = "inf"
	case math.IsNaN(f):
		s = "nan"
	default:
		switch conv {
		case 'e', 'E':
			s = strconv.FormatFloat(f, 'e', prec, 64)
			if alt && prec == 0 {
				s = strings.Replace(s, "e", ".e", 1)
			}
		case 'f', 'F':
			s = strconv.FormatFloat(f, 'f', prec, 64)
			if alt && prec == 0 {
				s += "."
			}
		default:
			p := prec
			if p == 0 {
				p = 1
			}
			e := strconv.FormatFloat(f, 'e', p-1, 64)
			x, _ := exact.Atoi(e[strings.IndexByte(e, 'e')+1:])
			if x >= -4 && x < p {
				s = strconv.FormatFloat(f, 'f', p-1-x, 64)
			} else {
				s = e
			}
			if !alt {
				mant, exp := s, ""
				if k := strings.IndexByte(s, 'e'); k >= 0 {
					mant, exp = s[:k], s[k:]
				}
				if strings.Contains(mant, ".") {
					mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
				}
				s = mant + exp
			} else if !strings.Contains(s, ".") {
				if k := strings.IndexByte(s, 'e'); k >= 0 {
					s = s[:k] + "." + s[k:]
				} else {
					s += "."
				}
			}
		}
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// filterFormat is do_format: soft_str(value) % (kwargs or args).
func filterFormat(c *callCtx, v any, b *bound) (any, error) {
	if len(b.rest) > 0 && len(b.kw) > 0 {
		return nil, &pyError{msg: "FilterArgumentError: can't handle positional and keyword arguments at the same time"}
	}
	if _, ok := v.(markup); ok {
		return nil, notSupported("format of a Markup value (it escapes its arguments)")
	}
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	if err := c.ev.step(c.pos, strings.Count(s, "%")*stepsPerItem); err != nil {
		return nil, err
	}
	if len(b.kw) > 0 {
		m := &value.Object{}
		for _, k := range b.kw {
			m.Set(k.name, k.val)
		}
		return pyPrintf(s, []any{m}, m)
	}
	return pyPrintf(s, b.rest, nil)
}
