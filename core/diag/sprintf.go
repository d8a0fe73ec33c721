package diag

import (
	"errors"
	"reflect"
	"strconv"
)

// Sprintf formats the way fmt.Sprintf does for the verbs the core's messages use: %s, %d, %q,
// %t, %v, %g with a precision (%.4g), %f with a precision (%.1f) and %%, on strings, errors,
// Stringers, ints, floats and bools (named types of these kinds included). It stands in for fmt,
// which the wasm does not link (fmt and the os it imports cost about 100 KB of brotli). Anything
// else prints as fmt would print a bad verb, "%!x(…)", so a test sees it.
func Sprintf(format string, args ...any) string {
	b := make([]byte, 0, len(format)+16*len(args))
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b = append(b, c)
			continue
		}
		i++
		prec := -1
		if format[i] == '.' {
			j := i + 1
			for j < len(format) && '0' <= format[j] && format[j] <= '9' {
				j++
			}
			prec = 0
			for _, c := range format[i+1 : j] {
				prec = min(prec*10+int(c-'0'), 1<<20) // no message asks for more digits
			}
			i = j
			if i == len(format) {
				return string(append(b, "%!(NOVERB)"...))
			}
		}
		verb := format[i]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if n >= len(args) {
			b = append(b, '%', '!', verb)
			b = append(b, "(MISSING)"...)
			continue
		}
		b = appendArg(b, verb, prec, args[n])
		n++
	}
	return string(b)
}

type stringer interface{ String() string }

func appendArg(b []byte, verb byte, prec int, arg any) []byte {
	if prec >= 0 && verb != 'g' && verb != 'f' {
		return append(b, "%!(BADPREC)"...)
	}
	switch verb {
	case 's', 'v', 'q':
		s, ok := textOf(arg, verb == 'v')
		if !ok {
			break
		}
		if verb == 'q' {
			return AppendQuote(b, s)
		}
		return append(b, s...)
	case 't':
		if r := reflect.ValueOf(arg); r.Kind() == reflect.Bool {
			return strconv.AppendBool(b, r.Bool())
		}
	case 'd':
		if i, ok := intOf(arg); ok {
			return strconv.AppendInt(b, i, 10)
		}
	case 'g', 'f':
		if r := reflect.ValueOf(arg); r.Kind() == reflect.Float64 {
			return strconv.AppendFloat(b, r.Float(), verb, prec, 64)
		}
	}
	return append(append(b, '%', '!', verb, '('), "?)"...)
}

// textOf returns the text %s prints for arg, and for %v also numbers and bools.
func textOf(arg any, v bool) (string, bool) {
	switch t := arg.(type) {
	case string:
		return t, true
	case error:
		return t.Error(), true
	case stringer:
		return t.String(), true
	}
	if r := reflect.ValueOf(arg); r.Kind() == reflect.String { // a named string type
		return r.String(), true
	}
	if !v {
		return "", false
	}
	switch t := arg.(type) {
	case nil:
		return "<nil>", true
	case bool:
		return strconv.FormatBool(t), true
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64), true
	}
	if i, ok := intOf(arg); ok {
		return strconv.FormatInt(i, 10), true
	}
	if r := reflect.ValueOf(arg); r.Kind() == reflect.Bool {
		return strconv.FormatBool(r.Bool()), true
	}
	return "", false
}

func intOf(arg any) (int64, bool) {
	switch t := arg.(type) {
	case int:
		return int64(t), true
	case int64:
		return t, true
	case int32:
		return int64(t), true
	}
	switch r := reflect.ValueOf(arg); r.Kind() { // a named integer type
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if u := r.Uint(); u <= 1<<63-1 {
			return int64(u), true
		}
	}
	return 0, false
}

// Errorf is errors.New(Sprintf(format, args...)).
func Errorf(format string, args ...any) error { return errors.New(Sprintf(format, args...)) }

// Thousands writes n with a comma between groups of three digits ("2,000,000"), the way the
// limits in messages people read are written, so that a budget is read at a glance.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return sign + string(b)
}
