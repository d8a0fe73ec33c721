package value

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// byValue writes itself with a value receiver, byPointer with a pointer receiver.
type byValue struct{ N int }

func (b byValue) MarshalJSON() ([]byte, error) { return []byte(`{"by":"value"}`), nil }

type byPointer struct{ N int }

func (b *byPointer) MarshalJSON() ([]byte, error) { return []byte(`{"by":"pointer"}`), nil }

type holder struct {
	P   *inner `json:"p"`
	Any any    `json:"any"`
}

// TestPointerInterface: pointerInterface gives what v.Interface() gives, for pointers reached in
// every way the encoder reaches them (from an interface, a field, an element, a pointer).
func TestPointerInterface(t *testing.T) {
	n := 3
	pn := &n
	h := &holder{P: &inner{1}, Any: &byPointer{2}}
	var zero struct{}
	values := []reflect.Value{
		reflect.ValueOf(&n),
		reflect.ValueOf(&pn),
		reflect.ValueOf(&pn).Elem(),
		reflect.ValueOf(NewObject("a", 1)),
		reflect.ValueOf(&zero),
		reflect.ValueOf(&[0]int{}),
		reflect.ValueOf(&sample{Name: "s"}),
		reflect.ValueOf(h).Elem().Field(0),        // a field of an addressable struct
		reflect.ValueOf(*h).Field(0),              // a field of a copy
		reflect.ValueOf(h).Elem().Field(1).Elem(), // out of an interface
		reflect.ValueOf([]*byPointer{{1}}).Index(0),
		reflect.ValueOf([1]*inner{{5}}).Index(0),
		reflect.ValueOf(any(&byValue{4})),
	}
	for _, v := range values {
		require.Equal(t, reflect.Pointer, v.Kind())
		got := pointerInterface(v, v.Type())
		want := v.Interface()
		assert.True(t, got == want, "%v: got %#v, want %#v", v.Type(), got, want)
		assert.Equal(t, v.Type(), reflect.TypeOf(got))
	}
}

// TestMarshalers: a Marshaler held as a pointer writes itself, as with encoding/json; a struct
// held by value is written field by field (encoding/json calls a pointer method on an addressable
// one) unless its own MarshalJSON has a value receiver, which is an error (encoding/json would
// call it, Marshal does not: see pointerInterface).
func TestMarshalers(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{&byValue{1}, `{"by":"value"}`},
		{&byPointer{1}, `{"by":"pointer"}`},
		{[]*byPointer{{1}, nil}, `[{"by":"pointer"},null]`},
		{&holder{Any: &byValue{2}}, `{"p":null,"any":{"by":"value"}}`},
		{byPointer{1}, `{"N":1}`},
		{[]byPointer{{1}}, `[{"N":1}]`},
		{&struct{ B byPointer }{}, `{"B":{"N":0}}`},
	} {
		got, err := Marshal(c.v)
		require.NoError(t, err, "%#v", c.v)
		assert.Equal(t, c.want, string(got), "%#v", c.v)
	}
	for _, v := range []any{byValue{1}, []byValue{{1}}, holder{Any: byValue{1}}} {
		_, err := Marshal(v)
		assert.ErrorContains(t, err, "unsupported type: value.byValue (a Marshaler held by value", "%#v", v)
	}
}

// TestJSONTagIsStructTagGet: jsonTag reads a tag as reflect.StructTag.Get("json") does, for every
// tag whose values have no escapes, malformed ones included; one whose json value has an
// escape is refused, and Marshal then says so.
func TestJSONTagIsStructTagGet(t *testing.T) {
	for _, tag := range []string{
		``, `json:"a"`, `json:"a,omitempty"`, `json:"-"`, `json:"-,"`, `json:""`, `json:",omitempty"`,
		`yaml:"y" json:"j"`, `json:"j" yaml:"y"`, `  json:"j"  `, `xjson:"x" json:"j"`, `jsonx:"x"`,
		`json:"a" json:"b"`, `json:a`, `json:"a`, `json"a"`, `:"a" json:"b"`, `json :"a"`,
		`yaml:"a\"b" json:"j"`, `yaml:"a\\" json:"j"`, "json:\"\x01\"", "a\x7fb:\"x\" json:\"j\"", "json:\"a\nb\"", "json:\"\xff\"",
		`json:"é,omitempty"`, `a:"" json:"j"`, `json:"a b"`, `json:"a":"b"`,
	} {
		want := reflect.StructTag(tag).Get("json")
		got, ok := jsonTag(tag)
		assert.True(t, ok, "%q", tag)
		assert.Equal(t, want, got, "%q", tag)
	}
	for _, tag := range []string{`json:"a\"b"`, `json:"\u00e9"`, `yaml:"y" json:"a\\"`} {
		_, ok := jsonTag(tag)
		assert.False(t, ok, "%q has an escape in its json value", tag)
	}
	type escaped struct {
		A int `json:"a\u0062"`
	}
	_, err := Marshal(escaped{A: 1})
	var me *MarshalError
	require.ErrorAs(t, err, &me)
	assert.Contains(t, me.Msg, "escape")
}

// FuzzJSONTag: jsonTag agrees with reflect.StructTag.Get whenever it accepts a tag, and refuses
// only tags whose json value has a backslash.
func FuzzJSONTag(f *testing.F) {
	for _, s := range []string{`json:"a,omitempty"`, `yaml:"y" json:"j"`, `json:"a\"b"`, `json:a`, ` json:"x" `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		got, ok := jsonTag(tag)
		want, found := reflect.StructTag(tag).Lookup("json")
		if !ok {
			if !strings.Contains(tag, `\`) {
				t.Fatalf("jsonTag(%q) refused a tag Lookup reads as %q, %v", tag, want, found)
			}
			return
		}
		if got != want {
			t.Fatalf("jsonTag(%q) = %q, StructTag.Get = %q", tag, got, want)
		}
	})
}

// TestQuoteChar: quoteChar is encoding/json's quoteChar, for every byte: strconv.Quote of the
// byte's rune in single quotes, but for the two quotes.
func TestQuoteChar(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := strconv.Quote(string(rune(c)))
		want = "'" + want[1:len(want)-1] + "'"
		switch c {
		case '"':
			want = `'"'`
		case '\'':
			want = `'\''`
		}
		assert.Equal(t, want, quoteChar(byte(c)), "byte %#x", c)
	}
}
