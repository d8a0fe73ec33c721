package value

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDepth is how deeply lists and objects may nest in the data the core builds: in JSON that
// Decode reads, in judge answers, in datasets and in arguments from JS. Recursion over data is
// bounded by it, and the bound matters in the wasm, where running out of stack is not an error
// Go can recover from but the end of the engine: a browser's stack (about 1 MB in Chromium)
// holds about 5,000 levels of Decode, so MaxDepth leaves room for the callers' frames and for
// the code that walks the result again (encoding it, rendering it). Real data nests a few
// levels; deeper text is hostile or broken.
const MaxDepth = 1000

// maxScanDepth is encoding/json's own cap on nesting, which Valid and Skip keep so that they
// accept exactly the texts encoding/json accepts. They do not recurse, so the wasm holds it.
const maxScanDepth = 10000

// ErrTooDeep is Decode's error for JSON nested deeper than MaxDepth, as a *DepthError that says
// where: test for it with errors.Is.
var ErrTooDeep = errors.New("value: JSON nested deeper than " + strconv.Itoa(MaxDepth) + " levels")

// DepthError is ErrTooDeep at a place: Offset is the byte offset of the '[' or '{' one level
// deeper than MaxDepth.
type DepthError struct{ Offset int64 }

func (e *DepthError) Error() string { return ErrTooDeep.Error() }

// Is makes errors.Is(err, ErrTooDeep) hold.
func (e *DepthError) Is(target error) bool { return target == ErrTooDeep }

// SyntaxError is a place where a text stops being JSON. Msg and Offset are what encoding/json
// reports for the same text: Offset counts the bytes read up to and including the offending
// one (so the byte at Offset-1 is at fault), or is the text's length when it ends early.
type SyntaxError struct {
	Offset int64
	Msg    string
	_      [0]func() // not comparable: no equality function in the wasm
}

func (e *SyntaxError) Error() string { return e.Msg }

// Decode reads one strict JSON value (RFC 8259) into the representation described in the
// package doc. Strings are unescaped as encoding/json does, surrogate pairs joined and bytes
// that are not UTF-8 (and lone surrogates) replaced by U+FFFD. Errors are a *SyntaxError, or a
// *DepthError (ErrTooDeep) for lists and objects nested more than MaxDepth levels ("[[]]" is two).
func Decode(data []byte) (any, error) {
	d := Decoder{s: data}
	v, err := d.Value()
	if err != nil {
		return nil, err
	}
	if d.SkipSpace(); d.pos < len(d.s) {
		return nil, d.syntax("after top-level value", true)
	}
	return v, nil
}

// Valid reports whether data is one JSON value, as encoding/json's Valid does.
func Valid(data []byte) bool { return Check(data) == nil }

// Check returns nil when data is one JSON value, else the *SyntaxError encoding/json's
// Unmarshal reports for it: the first place, reading in order, where data stops being JSON.
func Check(data []byte) error {
	d := Decoder{s: data}
	if err := d.Skip(); err != nil {
		return err
	}
	if d.SkipSpace(); d.pos < len(d.s) {
		return d.syntax("after top-level value", true)
	}
	return nil
}

// Decoder reads JSON values one at a time from a text, for callers that walk into a large
// document (a dataset's list of rows) rather than building all of it at once. Its methods read
// from the current offset; on an error the offset is unspecified.
type Decoder struct {
	s   []byte
	pos int
}

// NewDecoder returns a Decoder at the start of data.
func NewDecoder(data []byte) *Decoder { return &Decoder{s: data} }

// Offset is the byte offset the decoder is at.
func (d *Decoder) Offset() int { return d.pos }

// SetOffset moves the decoder to byte offset off.
func (d *Decoder) SetOffset(off int) { d.pos = min(max(off, 0), len(d.s)) }

// SkipSpace moves past JSON white space.
func (d *Decoder) SkipSpace() {
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

// Peek returns the byte at the offset, or 0 at the end of the text.
func (d *Decoder) Peek() byte {
	if d.pos < len(d.s) {
		return d.s[d.pos]
	}
	return 0
}

// Next moves past one byte (a delimiter the caller has peeked at).
func (d *Decoder) Next() {
	if d.pos < len(d.s) {
		d.pos++
	}
}

// Value reads one value after optional white space.
func (d *Decoder) Value() (any, error) { return d.value(0) }

// Key reads one string, an object's key, after optional white space.
func (d *Decoder) Key() (string, error) {
	if d.SkipSpace(); d.Peek() != '"' {
		return "", d.syntax("looking for beginning of object key string", true)
	}
	return d.str()
}

// syntax is the *SyntaxError encoding/json reports for the byte at d.pos in the given context
// ("looking for beginning of value"). At the end of the text encoding/json feeds its scanner a
// space: spaceOK says whether the scanner accepts one here, making the error "unexpected end
// of JSON input" rather than "invalid character ' ' ...".
func (d *Decoder) syntax(context string, spaceOK bool) *SyntaxError {
	if d.pos >= len(d.s) {
		if spaceOK {
			return &SyntaxError{Offset: int64(len(d.s)), Msg: "unexpected end of JSON input"}
		}
		return &SyntaxError{Offset: int64(len(d.s)), Msg: "invalid character ' ' " + context}
	}
	return &SyntaxError{Offset: int64(d.pos + 1), Msg: "invalid character " + quoteChar(d.s[d.pos]) + " " + context}
}

// quoteChar formats c as encoding/json's errors do: strconv.Quote(string(rune(c))) in single
// quotes, without strconv.Quote (which package diag replaces in the wasm: see diag.Quote).
func quoteChar(c byte) string {
	const hex = "0123456789abcdef"
	r := rune(c)
	switch {
	case c == '\'':
		return `'\''`
	case c == '\\':
		return `'\\'`
	case c >= ' ' && c < 0x7f || c >= 0x80 && unicode.IsPrint(r):
		return "'" + string(r) + "'"
	case c >= 0x80:
		return `'\u00` + string([]byte{hex[c>>4], hex[c&0xf]}) + "'"
	}
	if i := strings.IndexByte("\a\b\f\n\r\t\v", c); i >= 0 {
		return `'\` + "abfnrtv"[i:i+1] + "'"
	}
	return `'\x` + string([]byte{hex[c>>4], hex[c&0xf]}) + "'"
}

// value := ws ( object | array | string | number | "true" | "false" | "null" )
//
// depth is the number of lists and objects around the value.
func (d *Decoder) value(depth int) (any, error) {
	d.SkipSpace()
	switch c := d.Peek(); {
	case (c == '{' || c == '[') && depth >= MaxDepth:
		return nil, &DepthError{Offset: int64(d.pos)}
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		start := d.pos
		if err := d.number(); err != nil {
			return nil, err
		}
		return Number(string(d.s[start:d.pos])), nil
	}
	return nil, d.syntax("looking for beginning of value", true)
}

// object := '{' ws [ member { ',' member } ] '}'
// member := ws string ws ':' value ws
func (d *Decoder) object(depth int) (any, error) {
	o := &Object{}
	d.pos++ // '{'
	if d.SkipSpace(); d.Peek() == '}' {
		d.pos++
		return o, nil
	}
	for {
		key, err := d.Key()
		if err != nil {
			return nil, err
		}
		if d.SkipSpace(); d.Peek() != ':' {
			return nil, d.syntax("after object key", true)
		}
		d.pos++
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		o.Set(key, v)
		d.SkipSpace()
		switch d.Peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return o, nil
		default:
			return nil, d.syntax("after object key:value pair", true)
		}
	}
}

// array := '[' ws [ value ws { ',' value ws } ] ']'
func (d *Decoder) array(depth int) (any, error) {
	list := []any{}
	d.pos++ // '['
	if d.SkipSpace(); d.Peek() == ']' {
		d.pos++
		return list, nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		d.SkipSpace()
		switch d.Peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return list, nil
		default:
			return nil, d.syntax("after array element", true)
		}
	}
}

// Skip reads past one value after optional white space without building it, checking it
// as encoding/json does (nesting up to 10,000 levels). It keeps its own stack of the lists and
// objects it is in rather than recursing, so that deep nesting costs no call stack.
func (d *Decoder) Skip() error {
	var open []byte // '[' or '{' for each list or object the value is in
	for {
		// A value.
		d.SkipSpace()
		switch c := d.Peek(); {
		case c == '{' || c == '[':
			if len(open) >= maxScanDepth {
				return d.syntax("exceeded max depth", true)
			}
			d.pos++
			d.SkipSpace()
			if c == '[' && d.Peek() == ']' || c == '{' && d.Peek() == '}' {
				d.pos++
				break
			}
			open = append(open, c)
			if c == '{' {
				if err := d.skipKey(); err != nil {
					return err
				}
			}
			continue
		case c == '"':
			if _, err := d.scanStr(); err != nil {
				return err
			}
		case c == 't':
			if err := d.literal("true"); err != nil {
				return err
			}
		case c == 'f':
			if err := d.literal("false"); err != nil {
				return err
			}
		case c == 'n':
			if err := d.literal("null"); err != nil {
				return err
			}
		case c == '-' || c >= '0' && c <= '9':
			if err := d.number(); err != nil {
				return err
			}
		default:
			return d.syntax("looking for beginning of value", true)
		}
		// After a value: close the lists and objects that end here, up to the next ','.
		for {
			if len(open) == 0 {
				return nil
			}
			d.SkipSpace()
			top := open[len(open)-1]
			c := d.Peek()
			if c == ',' {
				d.pos++
				if top == '{' {
					if err := d.skipKey(); err != nil {
						return err
					}
				}
				break
			}
			if top == '[' && c == ']' || top == '{' && c == '}' {
				d.pos++
				open = open[:len(open)-1]
				continue
			}
			if top == '[' {
				return d.syntax("after array element", true)
			}
			return d.syntax("after object key:value pair", true)
		}
	}
}

// skipKey reads past an object's key and its ':'.
func (d *Decoder) skipKey() error {
	if d.SkipSpace(); d.Peek() != '"' {
		return d.syntax("looking for beginning of object key string", true)
	}
	if _, err := d.scanStr(); err != nil {
		return err
	}
	if d.SkipSpace(); d.Peek() != ':' {
		return d.syntax("after object key", true)
	}
	d.pos++
	return nil
}

// str reads a string:
//
//	string := '"' { any byte from 0x20 but '"' and '\' | escape } '"'
//	escape := '\' ( '"' | '\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' | 'u' hex hex hex hex )
func (d *Decoder) str() (string, error) {
	start := d.pos
	plain, err := d.scanStr()
	if err != nil {
		return "", err
	}
	raw := d.s[start+1 : d.pos-1]
	if plain && utf8.Valid(raw) {
		return string(raw), nil
	}
	return unquote(raw), nil
}

// scanStr moves past the string at d.pos, checking it; plain reports that it has no escapes.
func (d *Decoder) scanStr() (plain bool, err error) {
	d.pos++ // '"'
	plain = true
	for d.pos < len(d.s) {
		c := d.s[d.pos]
		switch {
		case c == '"':
			d.pos++
			return plain, nil
		case c < 0x20:
			return false, d.syntax("in string literal", true)
		case c == '\\':
			plain = false
			d.pos++
			switch d.Peek() {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.pos++
			case 'u':
				d.pos++
				for i := 0; i < 4; i++ {
					if !isHex(d.Peek()) {
						return false, d.syntax("in \\u hexadecimal character escape", false)
					}
					d.pos++
				}
			default:
				return false, d.syntax("in string escape code", false)
			}
		default:
			d.pos++
		}
	}
	return false, d.syntax("in string literal", true)
}

// unquote converts the inside of a checked JSON string with escapes or bytes that are not
// UTF-8, as encoding/json's unquote does.
func unquote(raw []byte) string {
	b := make([]byte, 0, len(raw)+8)
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch e := raw[i+1]; e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(raw[i+2:])
				i += 6
				if isSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						r2 = hex4(raw[i+2:])
					}
					if r >= 0xD800 && r < 0xDC00 && r2 >= 0xDC00 && r2 < 0xE000 {
						r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default: // '"', '\\', '/'
				b = append(b, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

func isSurrogate(r rune) bool { return r >= 0xD800 && r < 0xE000 }

func hex4(h []byte) rune {
	var r rune
	for _, c := range h[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// number checks a number and moves past it:
//
//	number := [ '-' ] ( '0' | digit1-9 { digit } ) [ '.' digit { digit } ] [ ( 'e' | 'E' ) [ '+' | '-' ] digit { digit } ]
func (d *Decoder) number() error {
	if d.Peek() == '-' {
		d.pos++
	}
	switch c := d.Peek(); {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return d.syntax("in numeric literal", false)
	}
	if d.Peek() == '.' {
		d.pos++
		if !d.digits() {
			return d.syntax("after decimal point in numeric literal", false)
		}
	}
	if c := d.Peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.Peek(); c == '+' || c == '-' {
			d.pos++
		}
		if !d.digits() {
			return d.syntax("in exponent of numeric literal", false)
		}
	}
	return nil
}

// digits reads one or more decimal digits and reports whether there was one.
func (d *Decoder) digits() bool {
	start := d.pos
	for d.pos < len(d.s) && d.s[d.pos] >= '0' && d.s[d.pos] <= '9' {
		d.pos++
	}
	return d.pos > start
}

// literal moves past word (true, false or null), whose first byte is at d.pos.
func (d *Decoder) literal(word string) error {
	d.pos++
	for i := 1; i < len(word); i++ {
		if d.Peek() != word[i] {
			return d.syntax("in literal "+word+" (expecting "+quoteChar(word[i])+")", false)
		}
		d.pos++
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
