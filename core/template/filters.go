package template

// The supported filters, each as jinja2/filters.py defines it with autoescape off.

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"ragjudge/core/value"
)

type filterFunc func(v any, args []any) (any, error)

// filterDef is a filter (or a test) as bind.go calls it: its Python signature and its function,
// which gets the value and the bound arguments.
type filterDef struct {
	sig signature
	fn  func(c *callCtx, v any, b *bound) (any, error)
}

// plain adapts a filter that needs only its value and its parameters' values.
func plain(fn filterFunc) func(*callCtx, any, *bound) (any, error) {
	return func(_ *callCtx, v any, b *bound) (any, error) { return fn(v, b.args) }
}

func def(fn string, lead int, params []string, defaults []any, f filterFunc) (filterDef, bool) {
	return filterDef{sig: signature{fn: fn, lead: lead, params: params, defaults: defaults}, fn: plain(f)}, true
}

// filterOf returns the definition of a supported filter.
func filterOf(name string) (filterDef, bool) {
	switch name {
	case "upper":
		return def("do_upper", 1, []string{"s"}, nil, func(v any, _ []any) (any, error) { return mapStr(v, pyUpper) })
	case "lower":
		return def("do_lower", 1, []string{"s"}, nil, func(v any, _ []any) (any, error) { return mapStr(v, pyLower) })
	case "length", "count":
		d, _ := def("len", 1, []string{"obj"}, nil, func(v any, _ []any) (any, error) { return pyLen(v) })
		d.sig.builtin = true
		return d, true
	case "trim":
		return def("do_trim", 1, []string{"value", "chars"}, []any{nil}, filterTrim)
	case "join":
		return def("sync_do_join", 2, []string{"eval_ctx", "value", "d", "attribute"}, []any{"", nil}, filterJoin)
	case "replace":
		return def("do_replace", 2, []string{"eval_ctx", "s", "old", "new", "count"}, []any{nil}, filterReplace)
	case "default", "d":
		return def("do_default", 1, []string{"value", "default_value", "boolean"}, []any{"", false}, filterDefault)
	case "first":
		return def("sync_do_first", 2, []string{"environment", "seq"}, nil, filterFirst)
	case "last":
		return def("do_last", 2, []string{"environment", "seq"}, nil, filterLast)
	case "tojson":
		return def("do_tojson", 2, []string{"eval_ctx", "value", "indent"}, []any{nil}, filterToJSON)
	}
	return libFilterOf(name)
}

// libFilterOf returns the definition of the other supported filters.
func libFilterOf(name string) (filterDef, bool) {
	str := func(fn string, keep bool, f func(string) string) (filterDef, bool) {
		return def(fn, 1, []string{"s"}, nil, func(v any, _ []any) (any, error) {
			return strFilter(v, keep, func(s string) (string, error) { return f(s), nil })
		})
	}
	switch name {
	case "abs":
		return builtinOne("abs", func(v any) (any, error) { return filterAbs(v, nil) })
	case "attr":
		return def("do_attr", 2, []string{"environment", "obj", "name"}, nil, filterAttr)
	case "batch":
		return ctxDef("do_batch", 1, []string{"value", "linecount", "fill_with"}, []any{nil}, filterBatch)
	case "capitalize":
		return str("do_capitalize", true, pyCapitalize)
	case "center":
		return def("do_center", 1, []string{"value", "width"}, []any{int64(80)}, filterCenter)
	case "dictsort":
		return ctxDef("do_dictsort", 1, []string{"value", "case_sensitive", "by", "reverse"}, []any{false, "key", false}, filterDictsort)
	case "escape", "e":
		return builtinOne("markupsafe._speedups.escape", func(v any) (any, error) { return escapeValue(v) })
	case "filesizeformat":
		return def("do_filesizeformat", 1, []string{"value", "binary"}, []any{false}, filterFilesizeformat)
	case "float":
		return def("do_float", 1, []string{"value", "default"}, []any{0.0}, filterFloat)
	case "forceescape":
		return def("do_forceescape", 1, []string{"value"}, nil, filterForceescape)
	case "format":
		d, _ := ctxDef("do_format", 1, []string{"value"}, nil, func(_ *callCtx, v any, b *bound) (any, error) { return filterFormat(v, b) })
		d.sig.varargs, d.sig.varkw = true, true
		return d, true
	case "groupby":
		return ctxDef("sync_do_groupby", 2, []string{"environment", "value", "attribute", "default", "case_sensitive"}, []any{nil, false}, filterGroupby)
	case "indent":
		return ctxDef("do_indent", 1, []string{"s", "width", "first", "blank"}, []any{int64(4), false, false}, filterIndent)
	case "int":
		return def("do_int", 1, []string{"value", "default", "base"}, []any{int64(0), int64(10)}, filterInt)
	case "items":
		return ctxDef("do_items", 1, []string{"value"}, nil, filterItems)
	case "list":
		return ctxDef("sync_do_list", 1, []string{"value"}, nil, filterList)
	case "map", "select", "reject", "selectattr", "rejectattr":
		fns := map[string]func(*callCtx, any, *bound) (any, error){
			"map": filterMap, "select": selectOrReject(true, false), "reject": selectOrReject(false, false),
			"selectattr": selectOrReject(true, true), "rejectattr": selectOrReject(false, true),
		}
		d, _ := ctxDef("sync_do_"+name, 2, []string{"context", "value"}, nil, fns[name])
		d.sig.varargs, d.sig.varkw = true, true
		return d, true
	case "max", "min":
		return ctxDef("do_"+name, 2, []string{"environment", "value", "case_sensitive", "attribute"}, []any{false, nil}, minOrMax(name == "max"))
	case "pprint":
		return def("do_pprint", 1, []string{"value"}, nil, pprintRepr)
	case "reverse":
		return ctxDef("do_reverse", 1, []string{"value"}, nil, filterReverse)
	case "round":
		return def("do_round", 1, []string{"value", "precision", "method"}, []any{int64(0), "common"}, filterRound)
	case "safe":
		return def("do_mark_safe", 1, []string{"value"}, nil, filterSafe)
	case "slice":
		return ctxDef("sync_do_slice", 1, []string{"value", "slices", "fill_with"}, []any{nil}, filterSlice)
	case "sort":
		return ctxDef("do_sort", 2, []string{"environment", "value", "reverse", "case_sensitive", "attribute"}, []any{false, false, nil}, filterSort)
	case "string":
		return def("soft_str", 1, []string{"s"}, nil, func(v any, _ []any) (any, error) {
			if m, ok := v.(markup); ok {
				return m, nil
			}
			return pyStr(v)
		})
	case "striptags":
		return def("do_striptags", 1, []string{"value"}, nil, filterStriptags)
	case "sum":
		return ctxDef("sync_do_sum", 2, []string{"environment", "iterable", "attribute", "start"}, []any{nil, int64(0)}, filterSum)
	case "title":
		return str("do_title", false, jinjaTitle)
	case "truncate":
		return def("do_truncate", 2, []string{"env", "s", "length", "killwords", "end", "leeway"}, []any{int64(255), false, "...", nil}, filterTruncate)
	case "unique":
		return ctxDef("do_unique", 2, []string{"environment", "value", "case_sensitive", "attribute"}, []any{false, nil}, filterUnique)
	case "urlencode":
		return def("do_urlencode", 1, []string{"value"}, nil, filterUrlencode)
	case "wordcount":
		return def("do_wordcount", 1, []string{"s"}, nil, filterWordcount)
	case "wordwrap":
		return ctxDef("do_wordwrap", 2, []string{"environment", "s", "width", "break_long_words", "wrapstring", "break_on_hyphens"}, []any{int64(79), true, nil, true}, filterWordwrap)
	case "xmlattr":
		return def("do_xmlattr", 2, []string{"eval_ctx", "d", "autospace"}, []any{true}, filterXmlattr)
	}
	return filterDef{}, false
}

// jinjaFilters and jinjaTests are Jinja's other built-ins: using one is "not supported" rather
// than "unknown".
const (
	jinjaFilters = " random urlize "
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
			c = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", `"`, "&#34;").Replace(c)
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
			if n, err := strconv.ParseInt(part, 10, 64); err == nil && isAllDigits(part) {
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
	r := strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "'", `\u0027`)
	return markup(r.Replace(b.String())), nil
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
		return &pyError{msg: "tojson output is over the limit of " + itoa(maxOutput) + " bytes"}
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
	case int64, *big.Int:
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
		keys := append([]string(nil), t.Keys()...)
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
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
			writeHexEscape(b, 'u', uint32(r1), 4)
			writeHexEscape(b, 'u', uint32(r2), 4)
		default:
			writeHexEscape(b, 'u', uint32(r), 4)
		}
	}
	b.WriteByte('"')
}
