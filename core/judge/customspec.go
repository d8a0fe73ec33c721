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
// same verdict (sameVerdict). Judges write "pass": "true" and "verdict": "Yes" where a prompt
// showed true and "yes"; comparing strictly turned those into confident failures.
func containsValue(list []any, v any) bool {
	for _, x := range list {
		if jsonEqual(x, v) || sameVerdict(x, v) {
			return true
		}
	}
	return false
}

// sameVerdict reports whether a and b say the same: two texts alike in any case once trimmed
// (`"PASS"` is "pass"), or the same number, where a boolean is 1 or 0 and a text may spell a
// number or a boolean (`"true"` is true, `"1"` is 1, true is 1).
func sameVerdict(a, b any) bool {
	as, aText := a.(string)
	bs, bText := b.(string)
	if aText && bText && strings.EqualFold(strings.TrimSpace(as), strings.TrimSpace(bs)) {
		return true
	}
	x, okA := verdictNumber(a)
	y, okB := verdictNumber(b)
	return okA && okB && x == y
}

// verdictNumber is v as a number: a number, a boolean as 1 or 0, or a text spelling either
// ("yes" and "no" too, as the built-ins read a boolean field: output.Bool).
func verdictNumber(v any) (float64, bool) {
	if s, ok := v.(string); ok {
		t := strings.TrimSpace(s)
		switch {
		case strings.EqualFold(t, "true") || strings.EqualFold(t, "yes"):
			v = true
		case strings.EqualFold(t, "false") || strings.EqualFold(t, "no"):
			v = false
		default:
			v = t
		}
	}
	return scoreValue(v)
}

// otherBoolean returns the fail values a json reader without fail_values has when its pass values
// are one boolean (true, or 1, as RAGAS' verdicts are 1 or 0; or false): the other one. A judge
// asked for a boolean that writes neither (null, "unsure", 0.5, "PASS") has then not failed the
// answer: its verdict is undetermined, not a guessed failure. It returns nil (any other value
// fails) for pass values that are texts, other numbers, or both booleans.
func otherBoolean(passValues []any) []any {
	truth, falsity := false, false
	for _, x := range passValues {
		switch x.(type) {
		case bool, float64, int64:
		default:
			return nil
		}
		switch n, _ := verdictNumber(x); n {
		case 1:
			truth = true
		case 0:
			falsity = true
		default:
			return nil
		}
	}
	if truth == falsity {
		return nil
	}
	return []any{!truth}
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
