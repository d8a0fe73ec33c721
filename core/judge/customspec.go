package judge

import (
	"strings"

	"ragjudge/core/value"
)

// get is o's field k (nil when absent).
func get(o *value.Object, k string) any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(k)
	return v
}

// getS, getB and getO are o's field k as a string, boolean or object (zero when absent or of
// another type: walk has checked the types).
func getS(o *value.Object, k string) string { s, _ := get(o, k).(string); return s }

func getB(o *value.Object, k string) bool { b, _ := get(o, k).(bool); return b }

func getO(o *value.Object, k string) *value.Object {
	x, _ := get(o, k).(*value.Object)
	return x
}

// getN is o's field k as a number, and whether it is there.
func getN(o *value.Object, k string) (float64, bool) { return jsonNumber(get(o, k)) }

func isString(v any) bool { _, ok := v.(string); return ok }

// containsValue reports whether list holds v as a judge means it: the same JSON value, or the
// same once texts are read as a person reads them (see verdictValue): `"PASS"` is "pass", `"true"`
// is true, `"1"` is 1, and true is 1. Judges write "pass": "true" and "verdict": "Yes" where a
// prompt showed true and "yes"; comparing strictly turned those into confident failures.
func containsValue(list []any, v any) bool {
	got := verdictValue(v)
	for _, x := range list {
		if jsonEqual(x, v) || got != nil && verdictValue(x) == got {
			return true
		}
	}
	return false
}

// verdictValue is a scalar as a verdict means it, comparable with ==: a number or a boolean as a
// float64 (true 1, false 0), a text trimmed and in lower case, or the number or boolean it spells
// ("1.0", " True "); nil for anything else.
func verdictValue(v any) any {
	if s, ok := v.(string); ok {
		t := strings.ToLower(strings.TrimSpace(s))
		if t == "true" || t == "false" {
			v = t == "true"
		} else if f, isNum := scoreValue(t); isNum {
			return f
		} else {
			return t
		}
	}
	if f, ok := scoreValue(v); ok {
		return f
	}
	return nil
}

// jsonEqual reports whether a and b are the same JSON value: the same JSON text (numbers by
// value, as 1 and 1.0 print alike; objects with their keys in the same order).
func jsonEqual(a, b any) bool {
	x, err1 := value.Marshal(a)
	y, err2 := value.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// jsonNumber is a JSON number's value.
func jsonNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// oneOf lists words as `"a", "b" or "c"`.
func oneOf(words []string) string {
	var b strings.Builder
	for k, w := range words {
		if k > 0 {
			if k == len(words)-1 {
				b.WriteString(" or ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(quote(w))
	}
	return b.String()
}
