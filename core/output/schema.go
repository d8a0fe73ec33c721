package output

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/value"
)

// Field returns o's value at key, matching the key case-insensitively ("Grounded" for
// "grounded"), as judges do not always keep the case the prompt asked for; failing that, also
// ignoring the separators ' ', '_' and '-' ("claimId" and "Claim ID" for "claim_id"), as
// FindJSON matches the payload's top-level keys.
func Field(o *value.Object, key string) (any, bool) {
	_, v, ok := FieldKey(o, key)
	return v, ok
}

// FieldKey is Field that also returns the key as o holds it.
func FieldKey(o *value.Object, key string) (string, any, bool) {
	if v, k, ok := o.GetFold(key); ok {
		return k, v, true
	}
	want := looseKey(key)
	for _, k := range o.Keys() {
		if looseKey(k) == want {
			v, _ := o.Get(k)
			return k, v, true
		}
	}
	return "", nil, false
}

// Bool reads v as a boolean the way judges write one: true/false; the numbers 1 and 0; the
// strings "true", "false", "1", "0", "yes", "no" in any case and with surrounding spaces.
// coerced reports that v was not already a JSON boolean (the caller may note it); ok is false for
// anything else, including null.
func Bool(v any) (b, coerced, ok bool) {
	switch t := v.(type) {
	case bool:
		return t, false, true
	case int64:
		if t == 0 || t == 1 {
			return t == 1, true, true
		}
	case float64:
		if t == 0 || t == 1 {
			return t == 1, true, true
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "true", "1", "yes":
			return true, true, true
		case "false", "0", "no":
			return false, true, true
		}
	}
	return false, false, false
}

// Number reads v as a finite number: a JSON number, or a string holding one ("4", " 4.5 ").
// coerced reports that v was a string.
func Number(v any) (f float64, coerced, ok bool) {
	switch t := v.(type) {
	case int64:
		return float64(t), false, true
	case float64:
		return t, false, !math.IsNaN(t) && !math.IsInf(t, 0)
	case string:
		s := strings.TrimSpace(t)
		if s == "" || !isDecimal(s) {
			return 0, false, false
		}
		f, err := exact.ParseFloat(s)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false, false
		}
		return f, true, true
	}
	return 0, false, false
}

// isDecimal reports whether s is a plain decimal number (no "NaN", "Inf", hex or underscores,
// which strconv would also accept).
func isDecimal(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.' || c == 'e' || c == 'E':
		case (c == '-' || c == '+') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		default:
			return false
		}
	}
	return digits > 0
}

// Text reads v as a string; numbers and booleans are written as JSON writes them (a judge may
// answer "claim_id": 1), and null is "".
func Text(v any) (string, bool) {
	switch t := v.(type) {
	case nil:
		return "", true
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64), true
	}
	return "", false
}

// Show renders v briefly for a message: JSON, cut to about 40 characters.
func Show(v any) string {
	b, err := value.Marshal(v)
	if err != nil {
		return value.TypeName(v)
	}
	s := string(b)
	if utf8.RuneCountInString(s) > 40 {
		return diag.Clip(s, 39) // 40 characters with the "…"
	}
	return s
}
