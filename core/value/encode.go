package value

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshaler is a type that writes its own JSON, as encoding/json's Marshaler.
type Marshaler interface {
	MarshalJSON() ([]byte, error)
}

// MarshalError is Marshal's error for a value JSON cannot hold (NaN, an infinity, a channel).
type MarshalError struct{ Msg string }

func (e *MarshalError) Error() string { return "json: " + e.Msg }

// maxMarshalDepth stops Marshal on a cyclic value rather than overflowing the stack.
const maxMarshalDepth = 1000

// Marshal writes v as compact JSON exactly as encoding/json's Marshal does for the kinds of
// data the core hands out: nil, booleans, numbers of every Go kind, strings (escaped as
// encoding/json escapes them, <, > and & included), slices and arrays, maps (keys sorted),
// pointers, interfaces, structs with `json:"name,omitempty"` and `json:"-"` tags, and
// Marshalers (this package's *Object among them), whose output is checked and inserted as is.
// NaN and infinities are an error, as in encoding/json.
func Marshal(v any) ([]byte, error) {
	e := encoder{}
	if err := e.value(reflect.ValueOf(v), 0); err != nil {
		return nil, err
	}
	return e.b, nil
}

type encoder struct {
	b []byte
}

var marshalerType = reflect.TypeFor[Marshaler]()

func (e *encoder) value(v reflect.Value, depth int) error {
	if !v.IsValid() {
		e.b = append(e.b, "null"...)
		return nil
	}
	if depth > maxMarshalDepth {
		return &MarshalError{Msg: "unsupported value: encountered a cycle via " + v.Type().String()}
	}
	t := v.Type()
	if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(marshalerType) {
		return e.marshaler(v.Addr())
	}
	if t.Implements(marshalerType) {
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.marshaler(v)
	}
	switch t.Kind() {
	case reflect.Bool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case reflect.Float32:
		return e.float(v.Float(), 32)
	case reflect.Float64:
		return e.float(v.Float(), 64)
	case reflect.String:
		e.b = AppendString(e.b, v.String())
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.value(v.Elem(), depth+1)
	case reflect.Slice:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(marshalerType) {
			return &MarshalError{Msg: "unsupported type: " + t.String() + " (value.Marshal does not write []byte)"}
		}
		return e.list(v, depth)
	case reflect.Array:
		return e.list(v, depth)
	case reflect.Map:
		return e.mapping(v, depth)
	case reflect.Struct:
		return e.structure(v, depth)
	default:
		return &MarshalError{Msg: "unsupported type: " + t.String()}
	}
	return nil
}

func (e *encoder) marshaler(v reflect.Value) error {
	m, ok := v.Interface().(Marshaler)
	if !ok {
		e.b = append(e.b, "null"...)
		return nil
	}
	b, err := m.MarshalJSON()
	if err == nil && !Valid(b) {
		err = &SyntaxError{Msg: "invalid JSON"}
	}
	if err != nil {
		return &MarshalError{Msg: "error calling MarshalJSON for type " + v.Type().String() + ": " + err.Error()}
	}
	// The Marshalers in this module write compact, escaped JSON with this package, which
	// is what encoding/json's compacting would make of it.
	e.b = append(e.b, b...)
	return nil
}

// float writes f as encoding/json does: like ES6's Number.prototype.toString.
func (e *encoder) float(f float64, bits int) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &MarshalError{Msg: "unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits)}
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(e.b, f, format, -1, bits)
	if format == 'e' {
		// e-09 becomes e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.b = b
	return nil
}

func (e *encoder) list(v reflect.Value, depth int) error {
	e.b = append(e.b, '[')
	for i := range v.Len() {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := e.value(v.Index(i), depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	return nil
}

func (e *encoder) mapping(v reflect.Value, depth int) error {
	if v.IsNil() {
		e.b = append(e.b, "null"...)
		return nil
	}
	type entry struct {
		key string
		v   reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		var ks string
		switch k.Kind() {
		case reflect.String:
			ks = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			ks = strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ks = strconv.FormatUint(k.Uint(), 10)
		default:
			return &MarshalError{Msg: "unsupported type: " + v.Type().String()}
		}
		entries = append(entries, entry{ks, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	e.b = append(e.b, '{')
	for i, en := range entries {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = AppendString(e.b, en.key)
		e.b = append(e.b, ':')
		if err := e.value(en.v, depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

func (e *encoder) structure(v reflect.Value, depth int) error {
	e.b = append(e.b, '{')
	first := true
	if err := e.fields(v, depth, &first); err != nil {
		return err
	}
	e.b = append(e.b, '}')
	return nil
}

// fields writes v's fields, those of untagged embedded structs in place. (encoding/json's
// rules for names that clash between embedded structs are not followed: no result type has
// such a clash.)
func (e *encoder) fields(v reflect.Value, depth int, first *bool) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
				if ft.Kind() == reflect.Struct {
					if fv.IsNil() {
						continue
					}
					fv = fv.Elem()
				}
			}
			if ft.Kind() == reflect.Struct {
				if err := e.fields(fv, depth, first); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && isEmpty(fv) {
			continue
		}
		if !*first {
			e.b = append(e.b, ',')
		}
		*first = false
		e.b = AppendString(e.b, name)
		e.b = append(e.b, ':')
		if err := e.value(fv, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string escaped as encoding/json escapes it: ", \ and
// control characters, <, > and & (as \u003c, \u003e, \u0026), U+2028 and U+2029, and each
// byte that is not UTF-8 as \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
