package template

// This file models the Python values a Jinja2 template computes with, so that printing,
// comparing and arithmetic come out as CPython's would. The value set is core/value's (nil, bool,
// int64, float64, string, []any, *value.Object) plus the types below; integers that leave int64
// become *exact.Int, as Python ints are unbounded.

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"ragjudge/core/exact"
	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// tuple is a Python tuple: printed with parentheses, never equal to a list.
type tuple []any

// markup is markupsafe.Markup, what tojson returns: a str that escapes what is added to it.
type markup string

// dictView is what dict.items(), keys() or values() returns (kind "items", "keys", "values").
type dictView struct {
	obj  *value.Object
	kind string
	_    [0]func() // not comparable: no equality function in the wasm
}

// undefined is Jinja's StrictUndefined: any use other than `is defined` and `default` fails with msg.
type undefined struct {
	// lenient marks the plain Undefined of an inline if without else, which Jinja always makes
	// lenient: it prints as "", iterates as empty and is false.
	lenient bool
	msg     string
	pos     int       // where it was made, for the error's column; -1 if unknown
	_       [0]func() // not comparable: no equality function in the wasm
}

// pyError is a Python exception raised while evaluating: the message says what Python would.
type pyError struct {
	msg string
	pos int       // the offending source offset when the raiser knows it better than the caller; 0 = none
	_   [0]func() // not comparable: no equality function in the wasm
}

func (e *pyError) Error() string { return e.msg }

func typeErr(format string, args ...any) error {
	return &pyError{msg: "TypeError: " + sprintf(format, args...)}
}

func valueErr(format string, args ...any) error {
	return &pyError{msg: "ValueError: " + sprintf(format, args...)}
}

// sprintf is a tiny %s/%d/%q-free formatter so that messages need no fmt verbs beyond %s.
func sprintf(format string, args ...any) string {
	var b strings.Builder
	ai := 0
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) && format[i+1] == 's' && ai < len(args) {
			switch a := args[ai].(type) {
			case string:
				b.WriteString(a)
			case int:
				b.WriteString(strconv.Itoa(a))
			case int64:
				b.WriteString(strconv.FormatInt(a, 10))
			default:
				b.WriteString("?")
			}
			ai++
			i++
			continue
		}
		b.WriteByte(format[i])
	}
	return b.String()
}

// normalize maps Go values a caller may put in vars onto the value set this package handles.
func normalize(v any) any {
	switch t := v.(type) {
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case float32:
		return float64(t)
	case []string:
		l := make([]any, len(t))
		for i, s := range t {
			l[i] = s
		}
		return l
	case value.Object:
		return &t
	}
	return v
}

// pyTypeName is type(v).__name__.
func pyTypeName(v any) string {
	switch t := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64, *exact.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case markup:
		return "Markup"
	case []any:
		return "list"
	case tuple:
		return "tuple"
	case *value.Object:
		return "dict"
	case *dictView:
		return "dict_" + t.kindName()
	case rangeVal:
		return "range"
	case *macro:
		return "Macro"
	case *namespace:
		return "Namespace"
	case builtinFunc:
		return "function"

	case *undefined:
		return "StrictUndefined"
	case *loopCtx:
		return "LoopContext"
	case *generator:
		return v.(*generator).typ
	}
	return "object"
}

// objectTypeRepr is jinja2.utils.object_type_repr, used in undefined messages.
func objectTypeRepr(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case *macro, *loopCtx:
		return "jinja2.runtime." + pyTypeName(v) + " object"
	case *namespace:
		return "jinja2.utils." + pyTypeName(v) + " object"
	}
	return pyTypeName(v) + " object"
}

// pyStrip is str.strip / rstrip / lstrip with chars == nil meaning whitespace.
func pyStrip(s string, chars *string, left, right bool) string {
	in := pystr.IsSpace
	if chars != nil {
		set := *chars
		in = func(r rune) bool { return strings.ContainsRune(set, r) }
	}
	if left {
		s = strings.TrimLeftFunc(s, in)
	}
	if right {
		s = strings.TrimRightFunc(s, in)
	}
	return s
}

// truthy is Python's bool(v).
func truthy(v any) (bool, error) {
	switch t := v.(type) {
	case nil:
		return false, nil
	case bool:
		return t, nil
	case int64:
		return t != 0, nil
	case *exact.Int:
		return t.Sign() != 0, nil
	case float64:
		return t != 0, nil
	case string:
		return t != "", nil
	case markup:
		return t != "", nil
	case []any:
		return len(t) > 0, nil
	case tuple:
		return len(t) > 0, nil
	case *value.Object:
		return t.Len() > 0, nil
	case *dictView:
		return t.obj.Len() > 0, nil
	case rangeVal:
		return t.len() > 0, nil
	case *undefined:
		if t.lenient {
			return false, nil
		}
		return false, undefErr(t)
	}
	return true, nil
}

func undefErr(u *undefined) error {
	return &pyError{msg: u.msg, pos: u.pos + 1}
}

// pyStr is Python's str(v).
func pyStr(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case markup:
		return string(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil // loop.index: below 100, no allocation
	case *undefined:
		if t.lenient {
			return "", nil
		}
		return "", undefErr(t)
	}
	var b strings.Builder
	if err := writeRepr(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

// pyRepr is Python's repr(v).
func pyRepr(v any) (string, error) {
	var b strings.Builder
	err := writeRepr(&b, v)
	return b.String(), err
}

// writeRepr writes repr(v).
func writeRepr(b *strings.Builder, v any) error {
	switch t := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if t {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case *exact.Int:
		s := t.String()
		if len(strings.TrimPrefix(s, "-")) > maxIntDigits {
			return valueErr("Exceeds the limit (4300 digits) for integer string conversion")
		}
		b.WriteString(s)
	case float64:
		b.WriteString(floatRepr(t))
	case string:
		pystr.WriteRepr(b, t)
	case markup:
		b.WriteString("Markup(")
		pystr.WriteRepr(b, string(t))
		b.WriteString(")")
	case []any:
		return writeSeq(b, "[", "]", t)
	case tuple:
		if len(t) == 1 {
			b.WriteString("(")
			if err := writeRepr(b, t[0]); err != nil {
				return err
			}
			b.WriteString(",)")
			return nil
		}
		return writeSeq(b, "(", ")", t)
	case *value.Object:
		b.WriteString("{")
		for i, k := range t.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			pystr.WriteRepr(b, k)
			b.WriteString(": ")
			x, _ := t.Get(k)
			if err := writeRepr(b, normalize(x)); err != nil {
				return err
			}
		}
		b.WriteString("}")
	case rangeVal:
		b.WriteString("range(" + strconv.FormatInt(t.start, 10) + ", " + strconv.FormatInt(t.stop, 10))
		if t.step != 1 {
			b.WriteString(", " + strconv.FormatInt(t.step, 10))
		}
		b.WriteString(")")
	case builtinFunc:
		// The globals are classes, printed as such; lipsum is a function (an address).
		switch t {
		case "range", "dict":
			b.WriteString("<class '" + string(t) + "'>")
		case "lipsum":
			return notSupported("printing a function (Python prints its memory address)")
		default:
			b.WriteString("<class 'jinja2.utils." + strings.ToUpper(string(t[:1])) + string(t[1:]) + "'>")
		}
	case *macro:
		b.WriteString("<Macro ")
		pystr.WriteRepr(b, t.def.Name)
		b.WriteString(">")
	case *namespace:
		b.WriteString("<Namespace ")
		if err := writeRepr(b, t.attrs); err != nil {
			return err
		}
		b.WriteString(">")
	case *dictView:
		b.WriteString("dict_" + t.kindName() + "(")
		if err := writeSeq(b, "[", "]", viewItems(t)); err != nil {
			return err
		}
		b.WriteString(")")
	case *loopCtx:
		b.WriteString(t.repr())
	case *undefined:
		// Only str() of an Undefined raises; its repr, as an item of a printed list, is this.
		b.WriteString("Undefined")
	default:
		return notSupported("printing a " + pyTypeName(v) + " (Python prints its memory address)")
	}
	return nil
}

func writeSeq(b *strings.Builder, open, close string, items []any) error {
	b.WriteString(open)
	for i, x := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := writeRepr(b, normalize(x)); err != nil {
			return err
		}
	}
	b.WriteString(close)
	return nil
}

func notSupported(what string) error {
	return &pyError{msg: "not supported: " + what}
}

// floatRepr is Python's repr(float): the shortest round-tripping digits, positional when the
// decimal exponent is in [-4, 16), else scientific with a sign and at least two exponent digits.
func floatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	neg := ""
	if s[0] == '-' {
		neg, s = "-", s[1:]
	}
	epos := strings.IndexByte(s, 'e')
	mant, exp := s[:epos], s[epos+1:]
	e, _ := exact.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := e + 1
	if decpt > -4 && decpt <= 16 {
		var out string
		switch {
		case decpt <= 0:
			out = "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			out = digits[:decpt] + "." + digits[decpt:]
		}
		return neg + out
	}
	out := digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	sign := "+"
	if e < 0 {
		sign, e = "-", -e
	}
	es := strconv.Itoa(e)
	if len(es) < 2 {
		es = "0" + es
	}
	return neg + out + "e" + sign + es
}

func viewItems(v *dictView) []any {
	out := make([]any, 0, v.obj.Len())
	for _, k := range v.obj.Keys() {
		x, _ := v.obj.Get(k)
		switch v.kind {
		case "keys":
			out = append(out, k)
		case "values":
			out = append(out, normalize(x))
		default:
			out = append(out, tuple{k, normalize(x)})
		}
	}
	return out
}

func (v *dictView) kindName() string {
	if v.kind == "" {
		return "items"
	}
	return v.kind
}

// iterate returns the items iter(v) yields; strings yield their code points.
func iterate(v any) ([]any, error) {
	switch t := v.(type) {
	case []any:
		return t, nil
	case tuple:
		return t, nil
	case string:
		return runesOf(t), nil
	case markup:
		return runesOf(string(t)), nil
	case *value.Object:
		out := make([]any, 0, t.Len())
		for _, k := range t.Keys() {
			out = append(out, k)
		}
		return out, nil
	case *dictView:
		return viewItems(t), nil
	case rangeVal:
		if t.len() > maxItems {
			return nil, tooMany()
		}
		return t.items(), nil
	case *generator:
		return t.drain()
	case *undefined:
		if t.lenient {
			return nil, nil
		}
		return nil, undefErr(t)
	}
	return nil, typeErr("'%s' object is not iterable", pyTypeName(v))
}

func runesOf(s string) []any {
	out := make([]any, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// pyLen is len(v).
func pyLen(v any) (int64, error) {
	switch t := v.(type) {
	case string:
		return int64(utf8.RuneCountInString(t)), nil
	case markup:
		return int64(utf8.RuneCountInString(string(t))), nil
	case []any:
		return int64(len(t)), nil
	case tuple:
		return int64(len(t)), nil
	case *value.Object:
		return int64(t.Len()), nil
	case *dictView:
		return int64(t.obj.Len()), nil
	case rangeVal:
		return t.len(), nil
	case *undefined:
		if t.lenient {
			return 0, nil
		}
		return 0, undefErr(t)
	}
	return 0, typeErr("object of type '%s' has no len()", pyTypeName(v))
}

func (l *loopCtx) repr() string {
	return "<LoopContext " + itoa(l.index0+1) + "/" + itoa(len(l.items)) + ">"
}
