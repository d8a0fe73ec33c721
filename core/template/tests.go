package template

// The tests, each as jinja2/tests.py defines it (eq, lt and friends are Python's operator
// functions, callable the builtin).

import (
	"math/big"
	"unicode"

	"ragjudge/core/value"
)

// testOf returns the definition of a supported test; its function returns a bool.
func testOf(name string) (filterDef, bool) {
	one := func(fn string, f func(v any) (any, error)) (filterDef, bool) {
		return def(fn, 1, []string{"value"}, nil, func(v any, _ []any) (any, error) { return f(v) })
	}
	switch name {
	case "defined":
		return one("test_defined", func(v any) (any, error) {
			_, undef := v.(*undefined)
			return !undef, nil
		})
	case "undefined":
		return one("test_undefined", func(v any) (any, error) {
			_, undef := v.(*undefined)
			return undef, nil
		})
	case "odd", "even":
		want := int64(1)
		if name == "even" {
			want = 0
		}
		return one("test_"+name, func(v any) (any, error) { return modEquals(v, int64(2), want) })
	case "divisibleby":
		return def("test_divisibleby", 1, []string{"value", "num"}, nil, func(v any, a []any) (any, error) {
			return modEquals(v, a[0], 0)
		})
	case "filter", "test":
		return one("test_"+name, func(v any) (any, error) {
			switch t := v.(type) {
			case string, markup:
				s := strOf(t)
				if name == "filter" {
					_, ok := filterOf(s)
					return ok || inList(jinjaFilters, s), nil
				}
				_, ok := testOf(s)
				return ok || inList(jinjaTests, s), nil
			case *undefined:
				return nil, undefErr(t)
			case []any, *value.Object, *dictView:
				if d, ok := v.(*dictView); ok && d.kind == "values" {
					return false, nil // dict_values hashes by identity: never a name
				}
				return nil, typeErr("unhashable type: '%s'", pyTypeName(v))
			}
			return false, nil
		})
	case "none":
		return one("test_none", func(v any) (any, error) { return v == nil, nil })
	case "boolean":
		return one("test_boolean", func(v any) (any, error) { _, ok := v.(bool); return ok, nil })
	case "false", "true":
		return one("test_"+name, func(v any) (any, error) { b, ok := v.(bool); return ok && b == (name == "true"), nil })
	case "integer":
		return one("test_integer", func(v any) (any, error) {
			switch v.(type) {
			case int64, *big.Int:
				return true, nil
			}
			return false, nil
		})
	case "float":
		return one("test_float", func(v any) (any, error) { _, ok := v.(float64); return ok, nil })
	case "lower", "upper":
		return one("test_"+name, func(v any) (any, error) {
			s, err := pyStr(v)
			if err != nil {
				return nil, err
			}
			return pyIsCase(s, name == "upper"), nil
		})
	case "string":
		return one("test_string", func(v any) (any, error) {
			switch v.(type) {
			case string, markup:
				return true, nil
			}
			return false, nil
		})
	case "mapping":
		return one("test_mapping", func(v any) (any, error) { _, ok := v.(*value.Object); return ok, nil })
	case "number":
		return one("test_number", func(v any) (any, error) { return numKind(v) != 0, nil })
	case "sequence":
		// len(value) and value.__getitem__, any exception meaning no: an undefined is none.
		return one("test_sequence", func(v any) (any, error) {
			switch v.(type) {
			case string, markup, []any, tuple, *value.Object, rangeVal:
				return true, nil
			}
			return false, nil
		})
	case "iterable":
		return one("test_iterable", func(v any) (any, error) {
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
		})
	case "callable":
		return builtinOne("callable", func(v any) (any, error) {
			switch v.(type) {
			case *undefined, *loopCtx, *macro, builtinFunc:
				return true, nil
			}
			return false, nil
		})
	case "sameas":
		return def("test_sameas", 1, []string{"value", "other"}, nil, func(v any, a []any) (any, error) {
			return sameAs(v, a[0])
		})
	case "escaped":
		return one("test_escaped", func(v any) (any, error) { _, ok := v.(markup); return ok, nil })
	case "in":
		return def("test_in", 1, []string{"value", "seq"}, nil, func(v any, a []any) (any, error) {
			return contains(a[0], v)
		})
	}
	if op, fn := compareTest(name); op != "" {
		d, _ := def(fn, 1, []string{"a", "b"}, nil, func(v any, a []any) (any, error) {
			return compareOp(op, v, a[0])
		})
		d.sig.builtin = true
		return d, true
	}
	return filterDef{}, false
}

// compareTest maps a comparison test to its operator and the name of Python's function.
func compareTest(name string) (op, fn string) {
	switch name {
	case "eq", "equalto", "==":
		return "==", "eq"
	case "ne", "!=":
		return "!=", "ne"
	case "lt", "lessthan", "<":
		return "<", "lt"
	case "le", "<=":
		return "<=", "le"
	case "gt", "greaterthan", ">":
		return ">", "gt"
	case "ge", ">=":
		return ">=", "ge"
	}
	return "", ""
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

// builtinOne is a C function of one argument (callable, abs, markupsafe's escape), whose
// argument errors CPython words its own way.
func builtinOne(fn string, f func(v any) (any, error)) (filterDef, bool) {
	d := filterDef{sig: signature{fn: fn, lead: 1, params: []string{"obj"}, varargs: true, varkw: true}}
	d.fn = func(_ *callCtx, v any, b *bound) (any, error) {
		if len(b.kw) > 0 {
			return nil, typeErr("%s() takes no keyword arguments", fn)
		}
		if len(b.rest) > 0 {
			return nil, typeErr("%s() takes exactly one argument (%s given)", fn, len(b.rest)+1)
		}
		return f(v)
	}
	return d, true
}
