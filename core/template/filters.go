package template

// The supported filters, each as jinja2/filters.py defines it with autoescape off.

import (
	"math"
	"strings"
	"unicode/utf16"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/stable"
	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// filterDef is a filter (or a test) as bind.go calls it: its Python signature and its function,
// which gets the value and the bound arguments.
type filterDef struct {
	sig signature
	fn  func(c *callCtx, v any, b *bound) (any, error)
}

// jinjaFilters and jinjaTests are Jinja's other built-ins: using one is "not supported" rather
// than "unknown".
const (
	jinjaFilters = " random "
	jinjaTests   = " "
)

// mapStr applies f to str(v), keeping Markup as Markup (soft_str).
func mapStr(v any, f func(string) string) (any, error) {
	if m, ok := v.(markup); ok {
		return markup(f(string(m))), nil
	}
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	return f(s), nil
}

func filterTrim(v any, args []any) (any, error) {
	var chars *string
	switch c := args[0].(type) {
	case nil:
	case string:
		if _, ok := v.(markup); ok {
			// Markup.strip escapes a str argument (markupsafe's escaping wrapper).
			c = htmlEscape(c)
		}
		chars = &c
	case markup:
		s := string(c)
		chars = &s
	case *undefined:
		return nil, undefErr(c)
	default:
		return nil, typeErr("strip arg must be None or str")
	}
	return mapStr(v, func(s string) string { return pyStrip(s, chars, true, true) })
}

func filterJoin(v any, args []any) (any, error) {
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	sep, err := pyStr(args[0])
	if err != nil {
		return nil, err
	}
	var path []string
	if args[1] != nil {
		a, err := pyStr(args[1])
		if err != nil {
			return nil, err
		}
		path = strings.Split(a, ".")
	}
	var b strings.Builder
	for i, it := range items {
		it = normalize(it)
		for _, part := range path {
			var key any = part
			if n, err := exact.ParseInt(part, 10, 64); err == nil && isAllDigits(part) {
				key = n
			}
			it, err = getitem(it, key, -1)
			if err != nil {
				return nil, err
			}
		}
		s, err := pyStr(it)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(sep)
		}
		if b.Len()+len(s) > maxOutput {
			return nil, tooLong()
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

func isAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func filterReplace(v any, args []any) (any, error) {
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	old, err := pyStr(args[0])
	if err != nil {
		return nil, err
	}
	nw, err := pyStr(args[1])
	if err != nil {
		return nil, err
	}
	n := -1
	if args[2] != nil {
		if numKind(args[2]) != 1 {
			return nil, typeErr("'%s' object cannot be interpreted as an integer", pyTypeName(args[2]))
		}
		b := toBig(args[2])
		switch {
		case b.Sign() < 0:
			n = -1
		case !b.IsInt64() || b.Int64() > math.MaxInt32:
			n = math.MaxInt32
		default:
			n = int(b.Int64())
		}
	}
	if len(nw) > len(old) {
		count := strings.Count(s, old)
		if old == "" {
			count = len([]rune(s)) + 1
		}
		if n >= 0 && n < count {
			count = n
		}
		if len(s)+count*(len(nw)-len(old)) > maxOutput {
			return nil, tooLong()
		}
	}
	return strings.Replace(s, old, nw, n), nil
}

func filterDefault(v any, args []any) (any, error) {
	if _, ok := v.(*undefined); ok {
		return args[0], nil
	}
	b, err := truthy(args[1])
	if err != nil {
		return nil, err
	}
	if b {
		t, err := truthy(v)
		if err != nil {
			return nil, err
		}
		if !t {
			return args[0], nil
		}
	}
	return v, nil
}

func filterFirst(v any, _ []any) (any, error) {
	if c, ok := firstOrLastRune(v, 0); ok {
		return c, nil
	}
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{msg: "No first item, sequence was empty.", pos: -1}, nil
	}
	return normalize(items[0]), nil
}

func filterLast(v any, _ []any) (any, error) {
	switch v.(type) {
	case []any, tuple, string, markup, *value.Object, *dictView, *undefined, rangeVal:
	default:
		return nil, typeErr("'%s' object is not reversible", pyTypeName(v))
	}
	if c, ok := firstOrLastRune(v, -1); ok {
		return c, nil
	}
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{msg: "No last item, sequence was empty.", pos: -1}, nil
	}
	return normalize(items[len(items)-1]), nil
}

// firstOrLastRune is the code point at i (0 or -1) of a non-empty str or Markup v, without
// making the list of all of them; ok is false for anything else.
func firstOrLastRune(v any, i int64) (any, bool) {
	switch t := v.(type) {
	case string:
		return runeAt(t, i)
	case markup:
		c, ok := runeAt(string(t), i)
		return markup(c), ok
	}
	return nil, false
}

// filterToJSON is Jinja's htmlsafe_json_dumps with its default policy (sort_keys=True).
func filterToJSON(v any, args []any) (any, error) {
	indent := ""
	pretty := false
	switch t := args[0].(type) {
	case nil:
	case int64:
		pretty = true
		if t > 0 {
			if t > 1000 {
				return nil, notSupported("an indent over 1000")
			}
			indent = strings.Repeat(" ", int(t))
		}
	case string:
		pretty, indent = true, t
	default:
		return nil, notSupported("tojson indent of type " + pyTypeName(t))
	}
	var b strings.Builder
	if err := writeJSON(&b, v, pretty, indent, 0); err != nil {
		return nil, err
	}
	return markup(replaceBytes(b.String(), &jsonEscapes)), nil
}

// writeJSONSep writes what json.dumps puts before item i of a container at level.
func writeJSONSep(b *strings.Builder, i int, pretty bool, indent string, level int) {
	if i > 0 {
		b.WriteByte(',')
		if !pretty {
			b.WriteByte(' ')
		}
	}
	if pretty {
		writeJSONIndent(b, indent, level+1)
	}
}

func writeJSONIndent(b *strings.Builder, indent string, level int) {
	b.WriteByte('\n')
	for i := 0; i < level; i++ {
		b.WriteString(indent)
	}
}

// writeJSON is json.dumps(v, sort_keys=True[, indent]) with ensure_ascii.
func writeJSON(b *strings.Builder, v any, pretty bool, indent string, level int) error {
	if level > maxDepth*16 {
		return valueErr("Circular reference detected")
	}
	if b.Len() > maxOutput {
		return &pyError{msg: "tojson output is over the limit of " + diag.Thousands(maxOutput) + " bytes"}
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int64, *exact.Int:
		s, err := pyStr(t)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case float64:
		switch {
		case math.IsNaN(t):
			b.WriteString("NaN")
		case math.IsInf(t, 1):
			b.WriteString("Infinity")
		case math.IsInf(t, -1):
			b.WriteString("-Infinity")
		default:
			b.WriteString(floatRepr(t))
		}
	case string, markup:
		writeJSONString(b, strOf(t))
	case []any, tuple:
		var items []any
		if l, ok := t.([]any); ok {
			items = l
		} else {
			items = t.(tuple)
		}
		if len(items) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, x := range items {
			writeJSONSep(b, i, pretty, indent, level)
			if err := writeJSON(b, normalize(x), pretty, indent, level+1); err != nil {
				return err
			}
		}
		if pretty {
			writeJSONIndent(b, indent, level)
		}
		b.WriteByte(']')
	case *value.Object:
		if t.Len() == 0 {
			b.WriteString("{}")
			return nil
		}
		keys := t.Keys()
		b.WriteByte('{')
		for i, at := range stable.Order(len(keys), func(i, j int) bool { return keys[i] < keys[j] }) {
			k := keys[at]
			writeJSONSep(b, i, pretty, indent, level)
			writeJSONString(b, k)
			b.WriteString(": ")
			x, _ := t.Get(k)
			if err := writeJSON(b, normalize(x), pretty, indent, level+1); err != nil {
				return err
			}
		}
		if pretty {
			writeJSONIndent(b, indent, level)
		}
		b.WriteByte('}')
	case *undefined:
		return undefErr(t)
	default:
		return typeErr("Object of type %s is not JSON serializable", pyTypeName(v))
	}
	return nil
}

// writeJSONString writes s as json.dumps does with ensure_ascii=True.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= ' ' && r <= '~':
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			pystr.WriteHexEscape(b, 'u', uint32(r1), 4)
			pystr.WriteHexEscape(b, 'u', uint32(r2), 4)
		default:
			pystr.WriteHexEscape(b, 'u', uint32(r), 4)
		}
	}
	b.WriteByte('"')
}
