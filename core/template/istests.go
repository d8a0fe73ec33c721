package template

// Jinja's tests, the names after "is" (x is defined, n is divisibleby 3), each as jinja2/tests.py
// defines it (eq, lt and friends are Python's operator functions, callable the builtin).

import (
	"unicode"

	"ragjudge/core/value"
)

var testSpecs = [...]builtinSpec{
	{names: "defined", sig: "test_defined 1 value", op: 1},
	{names: "undefined", sig: "test_undefined 1 value", op: 2},
	{names: "odd", sig: "test_odd 1 value", op: 3},
	{names: "even", sig: "test_even 1 value", op: 4},
	{names: "divisibleby", sig: "test_divisibleby 1 value num", op: 5},
	{names: "filter", sig: "test_filter 1 value", op: 6},
	{names: "test", sig: "test_test 1 value", op: 7},
	{names: "none", sig: "test_none 1 value", op: 8},
	{names: "boolean", sig: "test_boolean 1 value", op: 9},
	{names: "false", sig: "test_false 1 value", op: 10},
	{names: "true", sig: "test_true 1 value", op: 11},
	{names: "integer", sig: "test_integer 1 value", op: 12},
	{names: "float", sig: "test_float 1 value", op: 13},
	{names: "lower", sig: "test_lower 1 value", op: 14},
	{names: "upper", sig: "test_upper 1 value", op: 15},
	{names: "string", sig: "test_string 1 value", op: 16},
	{names: "mapping", sig: "test_mapping 1 value", op: 17},
	{names: "number", sig: "test_number 1 value", op: 18},
	{names: "sequence", sig: "test_sequence 1 value", op: 19},
	{names: "iterable", sig: "test_iterable 1 value", op: 20},
	{names: "callable", sig: "!callable 1 obj", op: 21},
	{names: "sameas", sig: "test_sameas 1 value other", op: 22},
	{names: "escaped", sig: "test_escaped 1 value", op: 23},
	{names: "in", sig: "test_in 1 value seq", op: 24},
	{names: "eq equalto ==", sig: "@eq 1 a b", op: 25},
	{names: "ne !=", sig: "@ne 1 a b", op: 26},
	{names: "lt lessthan <", sig: "@lt 1 a b", op: 27},
	{names: "le <=", sig: "@le 1 a b", op: 28},
	{names: "gt greaterthan >", sig: "@gt 1 a b", op: 29},
	{names: "ge >=", sig: "@ge 1 a b", op: 30},
}

// testOp runs the test numbered op in testSpecs on v with the bound arguments a: one function
// for all of them, which the wasm holds in less space than a function each.
func testOp(op uint8, v any, a []any) (any, error) {
	switch op {
	case 1: // defined
		_, u := v.(*undefined)
		return !u, nil
	case 2: // undefined
		_, u := v.(*undefined)
		return u, nil
	case 3: // odd
		return modEquals(v, int64(2), 1)
	case 4: // even
		return modEquals(v, int64(2), 0)
	case 5: // divisibleby
		return modEquals(v, a[0], 0)
	case 6: // filter
		return isBuiltinName(0, v)
	case 7: // test
		return isBuiltinName(1, v)
	case 8: // none
		return v == nil, nil
	case 9: // boolean
		_, ok := v.(bool)
		return ok, nil
	case 10: // false
		return v == false, nil
	case 11: // true
		return v == true, nil
	case 12: // integer
		return numKind(v) == 1 && v != true && v != false, nil
	case 13: // float
		_, ok := v.(float64)
		return ok, nil
	case 14: // lower
		return strIsCase(v, false)
	case 15: // upper
		return strIsCase(v, true)
	case 16: // string
		return testString(v, a)
	case 17: // mapping
		_, ok := v.(*value.Object)
		return ok, nil
	case 18: // number
		return numKind(v) != 0, nil
	case 19: // sequence
		return testSequence(v, a)
	case 20: // iterable
		return testIterable(v, a)
	case 21: // callable
		return testCallable(v, a)
	case 22: // sameas
		return sameAs(v, a[0])
	case 23: // escaped
		_, ok := v.(markup)
		return ok, nil
	case 24: // in
		return contains(a[0], v)
	case 25: // eq equalto ==
		return compareOp("==", v, a[0])
	case 26: // ne !=
		return compareOp("!=", v, a[0])
	case 27: // lt lessthan <
		return compareOp("<", v, a[0])
	case 28: // le <=
		return compareOp("<=", v, a[0])
	case 29: // gt greaterthan >
		return compareOp(">", v, a[0])
	case 30: // ge >=
		return compareOp(">=", v, a[0])
	}
	return nil, nil
}

// isBuiltinName is `value in environment.filters` (table 0) or `.tests` (table 1).
func isBuiltinName(table int, v any) (any, error) {
	switch t := v.(type) {
	case string, markup:
		s := strOf(t)
		_, ok := lookupBuiltin(table, s)
		return ok || inList([2]string{jinjaFilters, jinjaTests}[table], s), nil
	case *undefined:
		return nil, undefErr(t)
	case *dictView:
		if t.kind == "values" {
			return false, nil // hashable, by identity: never a name
		}
		return nil, typeErr("unhashable type: '%s'", pyTypeName(v))
	case []any, *value.Object:
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
	case string, markup, []any, tuple, *value.Object, rangeVal:
		return true, nil
	}
	return false, nil
}

func testIterable(v any, _ []any) (any, error) {
	switch t := v.(type) {
	case string, markup, []any, tuple, *value.Object, *dictView, *generator, rangeVal, *loopCtx:
		return true, nil
	case *undefined:
		if t.lenient {
			return true, nil
		}
		return nil, undefErr(t)
	}
	return false, nil
}

func testCallable(v any, _ []any) (any, error) {
	switch v.(type) {
	case *undefined, *loopCtx, *macro, builtinFunc:
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
		_, err := pyMod(t, num)
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
