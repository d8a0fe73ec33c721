package template

// Python's str.format(**vars), following CPython's Objects/stringlib/unicode_format.h: the
// markup iterator that splits literal text from fields, parse_field, and the field-name
// iterator. Only {name} and the empty spec {name:} are supported: .attr, [key], conversions and
// other format specs are "not supported".

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

type formatError struct {
	pos int
	msg string
	_   [0]func() // not comparable: no equality function in the wasm
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
			return fail(at, "output is over the limit of "+diag.Thousands(maxOutput)+" bytes")
		}
		start := out.Len()
		out.WriteString(s)
		sp := Span{Expr: pyStrip(src[at+1:next-1], nil, true, true), Start: start, End: out.Len()}
		if in := src[f.nameStart:f.nameEnd]; given(vars, in) {
			sp.Input = in
		}
		spans = append(spans, sp)
		i = next
	}
	return out.String(), spans, nil
}

// field is one replacement field: name (with .attr and [key] parts), conversion, spec.
type field struct {
	nameStart, nameEnd int  // byte range of the field name
	conversion         rune // 0 if none
	spec               string
	specNested         bool
	_                  [0]func() // not comparable: no equality function in the wasm
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
			return f, 0, &formatError{pos: open, msg: "unexpected '{' in field name"}
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
		return f, 0, &formatError{pos: open, msg: "expected '}' before end of string"}
	}
	f.nameEnd = p - 1
	if c == '}' {
		return f, p, nil
	}
	if c == '!' {
		if p >= len(src) {
			return f, 0, &formatError{pos: open, msg: "end of string while looking for conversion specifier"}
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
				return f, 0, &formatError{pos: open, msg: "expected ':' after conversion specifier"}
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
	return f, 0, &formatError{pos: open, msg: "unmatched '{' in format spec"}
}

// renderField looks up and formats one field as str.format(**vars) would.
func renderField(src string, open int, f field, vars *value.Object) (string, *formatError) {
	ferr := func(msg string) *formatError { return &formatError{pos: open, msg: msg} }
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
	if rest != "" {
		return "", ferr("not supported: " + rest[:1] + " in a field (only {name} is)")
	}
	if f.conversion != 0 {
		return "", ferr("not supported: the conversion !" + string(f.conversion) + " (only {name} is)")
	}
	if f.specNested || f.spec != "" {
		return "", ferr("not supported: the format spec ':" + f.spec + "' (only {name} is)")
	}
	s, err := pyStr(normalize(raw))
	if err != nil {
		return "", ferr(err.Error())
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
