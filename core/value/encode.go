package value

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Marshaler is a type that writes its own JSON, as encoding/json's Marshaler.
type Marshaler interface {
	MarshalJSON() ([]byte, error)
}

// MarshalError is Marshal's error for a value JSON cannot hold (NaN, an infinity, a channel).
type MarshalError struct{ Msg string }

func (e *MarshalError) Error() string { return "json: " + e.Msg }

// maxMarshalDepth stops Marshal on a cyclic value rather than overflowing the stack. It counts
// lists, objects and structs, not the pointers and interfaces between them, so that data nested
// MaxDepth levels encodes inside the few structs of a result that hold it.
const maxMarshalDepth = MaxDepth + 16

// Marshal writes v as compact JSON exactly as encoding/json's Marshal does for the kinds of
// data the core hands out: nil, booleans, numbers of every Go kind, strings (escaped as
// encoding/json escapes them, <, > and & included), slices and arrays, pointers, interfaces,
// this package's *Object, structs with `json:"name,omitempty"` and `json:"-"` tags, and
// Marshalers held as pointers, whose output is checked and inserted as is. NaN and infinities are
// an error, as in encoding/json, and so is a struct held by value whose MarshalJSON has a value
// receiver (encoding/json would call it; see pointerInterface for why this does not).
//
// Every part of reflect and every call site Marshal has costs wasm size (a fuller encoder was
// 25 KB of gzip, enough to break the budget), so it leaves out what no result type needs and
// says so with an error: maps, []byte, and untagged embedded structs (encoding/json would
// flatten their fields).
func Marshal(v any) ([]byte, error) { return AppendMarshal(nil, v) }

// AppendMarshal appends what Marshal writes for v to dst, so that a caller wrapping the JSON in
// more (the wasm's {"ok": …}) copies a long result once rather than twice.
func AppendMarshal(dst []byte, v any) ([]byte, error) {
	e := encoder{b: dst}
	if err := e.value(reflect.ValueOf(v), 0); err != nil {
		return nil, err
	}
	return e.b, nil
}

var marshalerType = reflect.TypeFor[Marshaler]()

// pointerInterface returns what v.Interface() returns for v, a non-nil pointer of type t, without
// calling it: reflect.Value.Interface (and TypeAssert, Set, UnsafePointer) may meet a method
// value, and for those link reflect's method-value calls with their ABI tables and caches, about
// 130 KB of wasm code and 16 KB of its brotli size, for values the encoder never makes. An
// interface value is a type word and a data word; a pointer is its own data word, and a
// reflect.Type holds the *abi.Type that is the type word (TestPointerInterface checks both, so a
// Go release that changed either would fail there). Copying a struct into an interface needs
// the type's layout, which is why only pointers are read this way.
func pointerInterface(v reflect.Value, t reflect.Type) any {
	var x any
	w := (*[2]unsafe.Pointer)(unsafe.Pointer(&x))
	w[0] = (*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1]
	w[1] = unsafe.Pointer(v.Elem().UnsafeAddr())
	return x
}

type encoder struct {
	b []byte
}

func (e *encoder) value(v reflect.Value, depth int) error {
	if depth > maxMarshalDepth {
		return &MarshalError{Msg: "unsupported value: nested too deep (a cycle?)"}
	}
	if !v.IsValid() {
		e.b = append(e.b, "null"...)
		return nil
	}
	t := v.Type()
	k := t.Kind()
	if (k == reflect.Pointer || k == reflect.Interface || k == reflect.Slice) && v.IsNil() {
		e.b = append(e.b, "null"...)
		return nil
	}
	if k == reflect.Pointer && v.CanInterface() {
		switch m := pointerInterface(v, t).(type) {
		case *Object:
			return e.object(m, depth)
		case Marshaler:
			return e.marshaler(m, t)
		}
	}
	if k == reflect.Struct && v.CanInterface() && t.Implements(marshalerType) {
		return &MarshalError{Msg: "unsupported type: " + t.String() + " (a Marshaler held by value: value.Marshal calls MarshalJSON through pointers only)"}
	}
	switch k {
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
		return e.value(v.Elem(), depth)
	case reflect.Slice, reflect.Array:
		if k == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return &MarshalError{Msg: "unsupported type: " + t.String()}
		}
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
	case reflect.Struct:
		return e.structure(v, t, depth)
	default:
		return &MarshalError{Msg: "unsupported type: " + t.String()}
	}
	return nil
}

// object writes o with its keys in order.
func (e *encoder) object(o *Object, depth int) error {
	e.b = append(e.b, '{')
	for i, k := range o.keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = AppendString(e.b, k)
		e.b = append(e.b, ':')
		if err := e.value(reflect.ValueOf(o.vals[i]), depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

func (e *encoder) marshaler(m Marshaler, t reflect.Type) error {
	b, err := m.MarshalJSON()
	if err == nil {
		err = Check(b)
	}
	if err != nil {
		return &MarshalError{Msg: "error calling MarshalJSON for type " + t.String() + ": " + err.Error()}
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

func (e *encoder) structure(v reflect.Value, t reflect.Type, depth int) error {
	fields, err := fieldsOf(t)
	if err != nil {
		return err
	}
	e.b = append(e.b, '{')
	first := true
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if !first {
			e.b = append(e.b, ',')
		}
		first = false
		e.b = append(e.b, f.key...)
		if err := e.value(fv, depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

// jsonField is one field of a struct as Marshal writes it.
type jsonField struct {
	index     int
	key       string // the key as JSON, and its colon: `"name":`
	omitEmpty bool
	_         [0]func() // not comparable: no equality function in the wasm
}

type structInfo struct {
	fields []jsonField
	err    error
}

// structs caches the fields of each struct type Marshal has written: reading them with reflect
// (a copy of each StructField and a parse of its tag) was most of the cost of encoding a small
// result in the wasm, where every call of the JS API encodes one.
var structs struct {
	sync.Mutex
	m map[reflect.Type]structInfo
}

func fieldsOf(t reflect.Type) ([]jsonField, error) {
	structs.Lock()
	info, ok := structs.m[t]
	structs.Unlock()
	if ok {
		return info.fields, info.err
	}
	info.fields, info.err = readFields(t)
	structs.Lock()
	if structs.m == nil {
		structs.m = make(map[reflect.Type]structInfo)
	}
	structs.m[t] = info
	structs.Unlock()
	return info.fields, info.err
}

func readFields(t reflect.Type) ([]jsonField, error) {
	var fields []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag, ok := jsonTag(string(f.Tag))
		if !ok {
			return nil, &MarshalError{Msg: "unsupported struct tag on " + t.String() + "." + f.Name + ": its json value has an escape"}
		}
		if tag == "-" || f.PkgPath != "" && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			return nil, &MarshalError{Msg: "unsupported type: " + t.String() + " (value.Marshal does not flatten embedded " + f.Type.String() + ")"}
		}
		if f.PkgPath != "" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		key := string(append(AppendString(nil, name), ':'))
		fields = append(fields, jsonField{index: i, key: key, omitEmpty: opts == "omitempty"})
	}
	return fields, nil
}

// jsonTag is reflect.StructTag(tag).Get("json") for the tags Go code writes, whose values have
// no escapes (ok is false for one that does). StructTag.Get unquotes the value with
// strconv.Unquote, which was the only thing linking Unquote into the wasm (1.9 KB of brotli).
func jsonTag(tag string) (value string, ok bool) {
	// The scan of StructTag.Lookup: key:"value" pairs separated by spaces.
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			break
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		name := tag[:i]
		tag = tag[i+1:]
		i = 1
		escaped := false
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
				escaped = true
			}
			i++
		}
		if i >= len(tag) {
			break
		}
		quoted := tag[:i+1]
		tag = tag[i+1:]
		if name == "json" {
			value = quoted[1 : len(quoted)-1]
			if strings.IndexByte(value, '\n') >= 0 {
				return "", true // what strconv.Unquote refuses, and Get then gives
			}
			if !utf8.ValidString(value) {
				value = string([]rune(value)) // each byte that is not UTF-8 a U+FFFD, as Unquote has it
			}
			return value, !escaped
		}
	}
	return "", true
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

const hexDigits = "0123456789abcdef"

// plainByte is true for the ASCII bytes AppendString copies as they are.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendString appends s as a JSON string escaped as encoding/json escapes it: ", \ and
// control characters, <, > and & (as \u003c, \u003e, \u0026), U+2028 and U+2029, and each
// byte that is not UTF-8 as \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// The loop over plain bytes is the whole cost of a long string; Go compiled to wasm
		// runs it faster with one table lookup than with the six comparisons below.
		for i < len(s) && plainByte[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
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
