package template

// The tests, each as jinja2/tests.py defines it (eq, lt and friends are Python's operator
// functions, callable the builtin).

import (
	"unicode"

	"ragjudge/core/value"
)

// testOf returns the definition of a supported test; its function returns a bool.
func testOf(name string) (filterDef, bool) {
	return lookupBuiltin(specTables[1], name)
}

var testSpecs = [...]builtinSpec{
	{"defined", "test_defined 1 value", nil, func(v any, _ []any) (any, error) { _, u := v.(*undefined); return !u, nil }},
	{"undefined", "test_undefined 1 value", nil, func(v any, _ []any) (any, error) { _, u := v.(*undefined); return u, nil }},
	{"odd", "test_odd 1 value", nil, func(v any, _ []any) (any, error) { return modEquals(v, int64(2), 1) }},
	{"even", "test_even 1 value", nil, func(v any, _ []any) (any, error) { return modEquals(v, int64(2), 0) }},
	{"divisibleby", "test_divisibleby 1 value num", nil, func(v any, a []any) (any, error) { return modEquals(v, a[0], 0) }},
	{"filter", "test_filter 1 value", nil, func(v any, _ []any) (any, error) { return isBuiltinName(0, v) }},
	{"test", "test_test 1 value", nil, func(v any, _ []any) (any, error) { return isBuiltinName(1, v) }},
	{"none", "test_none 1 value", nil, func(v any, _ []any) (any, error) { return v == nil, nil }},
	{"boolean", "test_boolean 1 value", nil, func(v any, _ []any) (any, error) { _, ok := v.(bool); return ok, nil }},
	{"false", "test_false 1 value", nil, func(v any, _ []any) (any, error) { return v == false, nil }},
	{"true", "test_true 1 value", nil, func(v any, _ []any) (any, error) { return v == true, nil }},
	{"integer", "test_integer 1 value", nil, func(v any, _ []any) (any, error) { return numKind(v) == 1 && v != true && v != false, nil }},
	{"float", "test_float 1 value", nil, func(v any, _ []any) (any, error) { _, ok := v.(float64); return ok, nil }},
	{"lower", "test_lower 1 value", nil, func(v any, _ []any) (any, error) { return strIsCase(v, false) }},
	{"upper", "test_upper 1 value", nil, func(v any, _ []any) (any, error) { return strIsCase(v, true) }},
	{"string", "test_string 1 value", nil, testString},
	{"mapping", "test_mapping 1 value", nil, func(v any, _ []any) (any, error) { _, ok := v.(*value.Object); return ok, nil }},
	{"number", "test_number 1 value", nil, func(v any, _ []any) (any, error) { return numKind(v) != 0, nil }},
	{"sequence", "test_sequence 1 value", nil, testSequence},
	{"iterable", "test_iterable 1 value", nil, testIterable},
	{"callable", "!callable 1 obj", nil, testCallable},
	{"sameas", "test_sameas 1 value other", nil, func(v any, a []any) (any, error) { return sameAs(v, a[0]) }},
	{"escaped", "test_escaped 1 value", nil, func(v any, _ []any) (any, error) { _, ok := v.(markup); return ok, nil }},
	{"in", "test_in 1 value seq", nil, func(v any, a []any) (any, error) { return contains(a[0], v) }},
	{"eq equalto ==", "@eq 1 a b", nil, func(v any, a []any) (any, error) { return compareOp("==", v, a[0]) }},
	{"ne !=", "@ne 1 a b", nil, func(v any, a []any) (any, error) { return compareOp("!=", v, a[0]) }},
	{"lt lessthan <", "@lt 1 a b", nil, func(v any, a []any) (any, error) { return compareOp("<", v, a[0]) }},
	{"le <=", "@le 1 a b", nil, func(v any, a []any) (any, error) { return compareOp("<=", v, a[0]) }},
	{"gt greaterthan >", "@gt 1 a b", nil, func(v any, a []any) (any, error) { return compareOp(">", v, a[0]) }},
	{"ge >=", "@ge 1 a b", nil, func(v any, a []any) (any, error) { return compareOp(">=", v, a[0]) }},
}

// isBuiltinName is `value in environment.filters` (table 0) or `.tests` (table 1).
func isBuiltinName(table int, v any) (any, error) {
	switch t := v.(type) {
	case string, markup:
		s := strOf(t)
		_, ok := lookupBuiltin(specTables[table], s)
		return ok || inList([2]string{jinjaFilters, jinjaTests}[table], s), nil
	case *undefined:
		return nil, undefErr(t)
	case []any, *value.Object, *dictView:
		return nil, typeErr("unhashable type: '%s'", pyTypeName(v))
	}
	return false, nil
}

func strIsCase(v any, upper bool) (any, error) {
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	return pyIsCase(s, upper), nil
}

func testString(v any, _ []any) (any, error) {
	switch v.(type) {
	case string, markup:
		return true, nil
	}
	return false, nil
}

// testSequence is len(value) and value.__getitem__, any exception meaning no: an undefined is none.
func testSequence(v any, _ []any) (any, error) {
	switch v.(type) {
	case string, markup, []any, tuple, *value.Object:
		return true, nil
	}
	return false, nil
}

func testIterable(v any, _ []any) (any, error) {
	switch t := v.(type) {
	case string, markup, []any, tuple, *value.Object, *dictView, *generator:
		return true, nil
	case *undefined:
		return nil, undefErr(t)
	}
	return false, nil
}

func testCallable(v any, _ []any) (any, error) {
	switch v.(type) {
	case *undefined, *loopCtx:
		return true, nil
	}
	return false, nil
}

// modEquals is value % num == want, with Python's % (str % x is printf formatting).
func modEquals(v, num any, want int64) (any, error) {
	switch t := v.(type) {
	case markup:
		return nil, notSupported("printf-style formatting with % (a Markup value in odd, even or divisibleby)")
	case string:
		// str % num is printf-style formatting: a str result, never equal to an int.
		var err error
		switch a := num.(type) {
		case tuple:
			_, err = pyPrintf(t, a, nil)
		case *value.Object:
			_, err = pyPrintf(t, nil, a)
		case *undefined:
			return false, nil
		default:
			_, err = pyPrintf(t, []any{num}, nil)
		}
		return false, err
	}
	m, err := binaryOp("%", v, num)
	if err != nil {
		return nil, err
	}
	return pyEqual(m, want)
}

// sameAs is `value is other` for the values whose identity Python fixes: None, True and False
// are singletons. Anything else depends on which objects CPython happens to share.
func sameAs(a, b any) (any, error) {
	single := func(v any) bool {
		switch v.(type) {
		case nil, bool:
			return true
		}
		return false
	}
	if single(a) || single(b) {
		return single(a) && single(b) && a == b, nil
	}
	return nil, notSupported("sameas between values other than none, true and false (Python's object identity)")
}

// pyIsCase is str.islower() (upper false) or str.isupper(): at least one cased character, and
// none of the other case (nor titlecase).
func pyIsCase(s string, upper bool) bool {
	cased := false
	for _, r := range s {
		isU := unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
		isL := unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
		isT := unicode.IsTitle(r)
		if upper {
			if isL || isT {
				return false
			}
			if isU {
				cased = true
			}
		} else {
			if isU || isT {
				return false
			}
			if isL {
				cased = true
			}
		}
	}
	return cased
}
