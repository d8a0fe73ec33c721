package dataset

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"ragjudge/core/value"
)

// maxJSONDepth matches value.Decode's cap on nesting.
const maxJSONDepth = 1000

// errTooDeep is decodeJSON's error for JSON nested deeper than maxJSONDepth.
var errTooDeep = errors.New("JSON nested deeper than " + strconv.Itoa(maxJSONDepth))

// errNotValid marks a syntax error found by jsonDecoder; decodeJSON words it through
// encoding/json.
var errNotValid = errors.New("not valid JSON")

// decodeJSON reads one strict JSON value into the values of package value, as value.Decode
// does (objects keep key order, integers are int64), several times faster: value.Decode goes
// token by token through json.Decoder, and checking with json.Valid first would read every
// line twice; together they were most of a JSONL read. A syntax error is the
// *json.SyntaxError encoding/json reports for the same text, so messages and offsets are
// encoding/json's.
func decodeJSON(data []byte) (any, error) {
	d := &jsonDecoder{s: data}
	v, err := d.value(0)
	if err == nil {
		if d.space(); d.pos < len(d.s) {
			err = errNotValid
		}
	}
	if err == errNotValid {
		if jerr := json.Unmarshal(data, new(json.RawMessage)); jerr != nil {
			return nil, jerr
		}
		// encoding/json reads it: trust it over this scanner.
		return value.Decode(data)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// jsonDecoder is a recursive-descent reader of the JSON grammar (RFC 8259).
type jsonDecoder struct {
	s   []byte
	pos int
}

// value reads one value at d.pos:
//
//	value := object | array | string | number | "true" | "false" | "null"
func (d *jsonDecoder) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, errTooDeep
	}
	d.space()
	switch c := d.peek(); {
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
		return d.number()
	}
	return nil, errNotValid
}

// object := '{' ws [ member { ',' member } ] '}'
// member := ws string ws ':' value ws
func (d *jsonDecoder) object(depth int) (any, error) {
	o := &value.Object{}
	d.pos++ // '{'
	if d.space(); d.peek() == '}' {
		d.pos++
		return o, nil
	}
	for {
		if d.space(); d.peek() != '"' {
			return nil, errNotValid
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		if d.space(); d.peek() != ':' {
			return nil, errNotValid
		}
		d.pos++
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		o.Set(key, v)
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return o, nil
		default:
			return nil, errNotValid
		}
	}
}

// array := '[' ws [ value ws { ',' value ws } ] ']'
func (d *jsonDecoder) array(depth int) (any, error) {
	list := []any{}
	d.pos++ // '['
	if d.space(); d.peek() == ']' {
		d.pos++
		return list, nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return list, nil
		default:
			return nil, errNotValid
		}
	}
}

// str reads a string:
//
//	string := '"' { any byte from 0x20 but '"' and '\' | escape } '"'
//	escape := '\' ( '"' | '\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' | 'u' hex hex hex hex )
//
// One with escapes or bytes that are not UTF-8 is converted by encoding/json, which unescapes
// and replaces exactly as value.Decode would.
func (d *jsonDecoder) str() (string, error) {
	start := d.pos
	d.pos++ // '"'
	plain := true
	for d.pos < len(d.s) {
		c := d.s[d.pos]
		switch {
		case c == '"':
			d.pos++
			raw := d.s[start+1 : d.pos-1]
			if plain && utf8.Valid(raw) {
				return string(raw), nil
			}
			var s string
			if err := json.Unmarshal(d.s[start:d.pos], &s); err != nil {
				return "", errNotValid
			}
			return s, nil
		case c < 0x20:
			return "", errNotValid
		case c == '\\':
			plain = false
			if d.pos+1 >= len(d.s) {
				return "", errNotValid
			}
			switch d.s[d.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.pos += 2
			case 'u':
				if d.pos+6 > len(d.s) {
					return "", errNotValid
				}
				for _, h := range d.s[d.pos+2 : d.pos+6] {
					if !isHex(h) {
						return "", errNotValid
					}
				}
				d.pos += 6
			default:
				return "", errNotValid
			}
		default:
			d.pos++
		}
	}
	return "", errNotValid
}

// number := [ '-' ] ( '0' | digit1-9 { digit } ) [ '.' digit { digit } ] [ ( 'e' | 'E' ) [ '+' | '-' ] digit { digit } ]
func (d *jsonDecoder) number() (any, error) {
	start := d.pos
	if d.peek() == '-' {
		d.pos++
	}
	switch c := d.peek(); {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, errNotValid
	}
	if d.peek() == '.' {
		d.pos++
		if !d.digits() {
			return nil, errNotValid
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.peek(); c == '+' || c == '-' {
			d.pos++
		}
		if !d.digits() {
			return nil, errNotValid
		}
	}
	return value.Number(string(d.s[start:d.pos])), nil
}

// digits reads one or more decimal digits and reports whether there was one.
func (d *jsonDecoder) digits() bool {
	start := d.pos
	for d.pos < len(d.s) && d.s[d.pos] >= '0' && d.s[d.pos] <= '9' {
		d.pos++
	}
	return d.pos > start
}

// peek returns the byte at d.pos, or 0 at the end.
func (d *jsonDecoder) peek() byte {
	if d.pos < len(d.s) {
		return d.s[d.pos]
	}
	return 0
}

func (d *jsonDecoder) literal(word string) error {
	if len(d.s)-d.pos < len(word) || string(d.s[d.pos:d.pos+len(word)]) != word {
		return errNotValid
	}
	d.pos += len(word)
	return nil
}

func (d *jsonDecoder) space() {
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
