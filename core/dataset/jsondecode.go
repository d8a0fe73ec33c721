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

// errTooDeep is decodeValid's error for JSON nested deeper than maxJSONDepth.
var errTooDeep = errors.New("JSON nested deeper than " + strconv.Itoa(maxJSONDepth))

// decodeValid reads JSON that json.Valid has accepted into the values of package value, as
// value.Decode does (objects keep key order, integers are int64), several times faster:
// value.Decode goes token by token through json.Decoder, which costs most of a JSONL read.
// Because the syntax is known to be right, the scanner only tells values apart; on text that
// is not valid JSON it returns an error or a wrong value, never panics or loops.
func decodeValid(data []byte) (any, error) {
	d := &validDecoder{s: data}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.space(); d.pos < len(d.s) {
		return nil, errNotValid
	}
	return v, nil
}

var errNotValid = errors.New("not valid JSON")

type validDecoder struct {
	s   []byte
	pos int
}

// value reads one value at d.pos:
//
//	value := object | array | string | number | "true" | "false" | "null"
func (d *validDecoder) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, errTooDeep
	}
	d.space()
	switch d.peek() {
	case '{':
		return d.object(depth)
	case '[':
		return d.array(depth)
	case '"':
		return d.str()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	default:
		start := d.pos
		for d.pos < len(d.s) && isNumberByte(d.s[d.pos]) {
			d.pos++
		}
		if d.pos == start {
			return nil, errNotValid
		}
		return value.Number(string(d.s[start:d.pos])), nil
	}
}

// object := '{' [ string ':' value { ',' string ':' value } ] '}'
func (d *validDecoder) object(depth int) (any, error) {
	o := &value.Object{}
	d.pos++ // '{'
	for first := true; ; first = false {
		d.space()
		switch d.peek() {
		case '}':
			d.pos++
			return o, nil
		case ',':
			if first {
				return nil, errNotValid
			}
			d.pos++
			d.space()
		}
		if d.peek() != '"' {
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
	}
}

// array := '[' [ value { ',' value } ] ']'
func (d *validDecoder) array(depth int) (any, error) {
	list := []any{}
	d.pos++ // '['
	for first := true; ; first = false {
		d.space()
		switch d.peek() {
		case ']':
			d.pos++
			return list, nil
		case ',':
			if first {
				return nil, errNotValid
			}
			d.pos++
		case 0:
			return nil, errNotValid
		}
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
}

// str reads a string; one with escapes or bytes that are not UTF-8 goes through encoding/json,
// which unescapes and replaces exactly as value.Decode would.
func (d *validDecoder) str() (string, error) {
	start := d.pos
	d.pos++ // '"'
	plain := true
	for d.pos < len(d.s) {
		switch c := d.s[d.pos]; {
		case c == '"':
			d.pos++
			raw := d.s[start+1 : d.pos-1]
			if plain && utf8.Valid(raw) {
				return string(raw), nil
			}
			var s string
			err := json.Unmarshal(d.s[start:d.pos], &s)
			return s, err
		case c == '\\':
			plain = false
			d.pos += 2
		default:
			d.pos++
		}
	}
	return "", errNotValid
}

// peek returns the byte at d.pos, or 0 at the end.
func (d *validDecoder) peek() byte {
	if d.pos < len(d.s) {
		return d.s[d.pos]
	}
	return 0
}

func (d *validDecoder) literal(word string) error {
	if len(d.s)-d.pos < len(word) || string(d.s[d.pos:d.pos+len(word)]) != word {
		return errNotValid
	}
	d.pos += len(word)
	return nil
}

func (d *validDecoder) space() {
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
