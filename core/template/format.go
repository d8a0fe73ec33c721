package template

// Python's str.format(**vars), following CPython's Objects/stringlib/unicode_format.h: the
// markup iterator that splits literal text from fields, parse_field, and the field-name
// iterator for .attr and [key]. Format specs beyond the empty one are "not supported".

import (
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

type formatError struct {
	pos int
	msg string
}

func renderFormat(name, src string, vars *value.Object) (string, []Span, error) {
	var out strings.Builder
	var spans []Span
	fail := func(pos int, msg string) (string, []Span, error) {
		line, col := diag.Position(src, pos)
		return "", nil, &diag.Error{Kind: "template", Name: name, Line: line, Col: col, Msg: msg}
	}
	i := 0
	for i < len(src) {
		// Literal text up to the first brace; doubled braces are one literal brace.
		j := strings.IndexAny(src[i:], "{}")
		if j < 0 {
			out.WriteString(src[i:])
			break
		}
		at := i + j
		c := src[at]
		out.WriteString(src[i:at])
		atEnd := at+1 >= len(src)
		if c == '}' && (atEnd || src[at+1] != '}') {
			return fail(at, "single '}' encountered in format string (write '}}' for a literal brace)")
		}
		if atEnd && c == '{' {
			return fail(at, "single '{' encountered in format string (write '{{' for a literal brace)")
		}
		if src[at+1] == c {
			out.WriteByte(c)
			i = at + 2
			continue
		}
		f, next, ferr := parseField(src, at+1)
		if ferr != nil {
			return fail(ferr.pos, ferr.msg)
		}
		s, ferr := renderField(src, at, f, vars)
		if ferr != nil {
			return fail(ferr.pos, ferr.msg)
		}
		if out.Len()+len(s) > maxOutput {
			return fail(at, "output is over the limit of "+itoa(maxOutput)+" bytes")
		}
		start := out.Len()
		out.WriteString(s)
		spans = append(spans, Span{Expr: pyStrip(src[at+1:next-1], nil, true, true), Start: start, End: out.Len()})
		i = next
	}
	return out.String(), spans, nil
}

// field is one replacement field: name (with .attr and [key] parts), conversion, spec.
type field struct {
	name, nameStart int // byte range of the field name
	nameEnd         int
	conversion      rune // 0 if none
	spec            string
	specNested      bool
}

// parseField is CPython's parse_field, starting after the "{"; it returns the offset after the
// field's closing "}".
func parseField(src string, p int) (field, int, *formatError) {
	open := p - 1
	f := field{nameStart: p}
	var c byte
	for p < len(src) {
		c = src[p]
		p++
		if c == '{' {
			return f, 0, &formatError{open, "unexpected '{' in field name"}
		}
		if c == '[' {
			for p < len(src) && src[p] != ']' {
				p++
			}
			c = 0
			continue
		}
		if c == '}' || c == ':' || c == '!' {
			break
		}
		c = 0
	}
	if c == 0 {
		f.nameEnd = p
		return f, 0, &formatError{open, "expected '}' before end of string"}
	}
	f.nameEnd = p - 1
	if c == '}' {
		return f, p, nil
	}
	if c == '!' {
		if p >= len(src) {
			return f, 0, &formatError{open, "end of string while looking for conversion specifier"}
		}
		r, w := utf8.DecodeRuneInString(src[p:])
		f.conversion = r
		p += w
		if p < len(src) {
			c = src[p]
			p++
			if c == '}' {
				return f, p, nil
			}
			if c != ':' {
				return f, 0, &formatError{open, "expected ':' after conversion specifier"}
			}
		}
	}
	specStart := p
	count := 1
	for p < len(src) {
		c = src[p]
		p++
		switch c {
		case '{':
			f.specNested = true
			count++
		case '}':
			count--
			if count == 0 {
				f.spec = src[specStart : p-1]
				return f, p, nil
			}
		}
	}
	return f, 0, &formatError{open, "unmatched '{' in format spec"}
}

// renderField looks up and formats one field as str.format(**vars) would.
func renderField(src string, open int, f field, vars *value.Object) (string, *formatError) {
	ferr := func(msg string) *formatError { return &formatError{open, msg} }
	name := src[f.nameStart:f.nameEnd]
	k := strings.IndexAny(name, ".[")
	first, rest := name, ""
	if k >= 0 {
		first, rest = name[:k], name[k:]
	}
	if first == "" || isDecimal(first) {
		idx := "0"
		if first != "" {
			idx = first
		}
		return "", ferr("IndexError: Replacement index " + idx + " out of range for positional args tuple (positional fields like {} and {0} are not supported: name the variable)")
	}
	raw, ok := vars.Get(first)
	if !ok {
		return "", ferr("KeyError: '" + first + "' is undefined")
	}
	v := normalize(raw)
	for rest != "" {
		if rest[0] == '.' {
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			attr := rest[1 : 1+end]
			rest = rest[1+end:]
			if attr == "" {
				return "", ferr("ValueError: Empty attribute in format string")
			}
			var err *formatError
			v, err = formatGetattr(v, attr, ferr)
			if err != nil {
				return "", err
			}
			continue
		}
		// rest[0] == '['
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", ferr("ValueError: Missing ']' in format string")
		}
		key := rest[1:end]
		rest = rest[end+1:]
		if key == "" {
			return "", ferr("ValueError: Empty attribute in format string")
		}
		if rest != "" && rest[0] != '.' && rest[0] != '[' {
			return "", ferr("ValueError: Only '.' or '[' may follow ']' in format field specifier")
		}
		var err *formatError
		v, err = formatGetitem(v, key, ferr)
		if err != nil {
			return "", err
		}
	}
	var s string
	var err error
	switch f.conversion {
	case 0, 's':
		s, err = pyStr(v)
	case 'r':
		s, err = pyRepr(v)
	case 'a':
		var b strings.Builder
		err = writeRepr(&b, v, true)
		s = b.String()
	default:
		return "", ferr("ValueError: Unknown conversion specifier " + string(f.conversion))
	}
	if err != nil {
		return "", ferr(err.Error())
	}
	if f.specNested || f.spec != "" {
		return "", ferr("not supported: the format spec ':" + f.spec + "' (only {name}, {name!r}, {name!s}, {name!a}, .attr and [key] are)")
	}
	return s, nil
}

func isDecimal(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Nd, r) {
			return false
		}
	}
	return s != ""
}

func formatGetattr(v any, attr string, ferr func(string) *formatError) (any, *formatError) {
	switch t := v.(type) {
	case *value.Object:
		if !inList(dictMethods, attr) {
			return nil, ferr("AttributeError: 'dict' object has no attribute '" + attr + "'")
		}
	case []any:
		if !inList(listMethods, attr) {
			return nil, ferr("AttributeError: 'list' object has no attribute '" + attr + "'")
		}
	case string:
		if !inList(strMethods, attr) {
			return nil, ferr("AttributeError: 'str' object has no attribute '" + attr + "'")
		}
	case nil:
		return nil, ferr("AttributeError: 'NoneType' object has no attribute '" + attr + "'")
	case bool, int64, *big.Int, float64:
		if !inList(intAttrs, attr) {
			return nil, ferr("AttributeError: '" + pyTypeName(t) + "' object has no attribute '" + attr + "'")
		}
	}
	return nil, ferr("not supported: the attribute ." + attr + " of a " + pyTypeName(v))
}

func formatGetitem(v any, key string, ferr func(string) *formatError) (any, *formatError) {
	var idx any = key
	if isDecimal(key) && isAllDigits(key) {
		n, ok := parseIntLiteral(strings.TrimLeft(key, "0"))
		if strings.Trim(key, "0") == "" {
			n, ok = int64(0), true
		}
		if !ok {
			return nil, ferr("not supported: index " + key)
		}
		idx = n
	}
	switch t := v.(type) {
	case *value.Object:
		if s, ok := idx.(string); ok {
			if x, ok := t.Get(s); ok {
				return normalize(x), nil
			}
		}
		r, _ := pyRepr(idx)
		return nil, ferr("KeyError: " + r)
	case []any, string:
		n, ok := idx.(int64)
		if !ok {
			if _, isStr := t.(string); isStr {
				return nil, ferr("TypeError: string indices must be integers, not 'str'")
			}
			return nil, ferr("TypeError: list indices must be integers or slices, not str")
		}
		items, _ := iterate(t)
		if n >= int64(len(items)) {
			if _, isStr := t.(string); isStr {
				return nil, ferr("IndexError: string index out of range")
			}
			return nil, ferr("IndexError: list index out of range")
		}
		return normalize(items[n]), nil
	}
	return nil, ferr("TypeError: '" + pyTypeName(v) + "' object is not subscriptable")
}
