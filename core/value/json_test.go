package value

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plain converts a decoded value to what encoding/json's Unmarshal (with UseNumber, converted
// by Number) gives, so the two can be compared.
func plain(v any) any {
	switch t := v.(type) {
	case *Object:
		m := map[string]any{}
		for _, k := range t.Keys() {
			x, _ := t.Get(k)
			m[k] = plain(x)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = plain(x)
		}
		return out
	case json.Number:
		return Number(string(t))
	case map[string]any:
		m := map[string]any{}
		for k, x := range t {
			m[k] = plain(x)
		}
		return m
	}
	return v
}

// oracleDecode is encoding/json's reading of data, as Decode should read it.
func oracleDecode(data []byte) (any, error) {
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return plain(v), nil
}

func nestingDepth(data []byte) int {
	depth, deepest := 0, 0
	inStr, esc := false, false
	for _, c := range data {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '[' || c == '{'):
			depth++
			deepest = max(deepest, depth)
		case !inStr && (c == ']' || c == '}'):
			depth--
		}
	}
	return deepest
}

// checkDecode holds Decode and Valid to encoding/json on data.
func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	got, err := Decode(data)
	want, werr := oracleDecode(data)
	assert.Equal(t, json.Valid(data), Valid(data), "Valid(%q)", data)
	if errors.Is(err, ErrTooDeep) {
		assert.Greater(t, nestingDepth(data), MaxDepth, "%q", data)
		return
	}
	if werr != nil {
		var se *SyntaxError
		var wse *json.SyntaxError
		require.ErrorAs(t, err, &se, "Decode(%q): encoding/json says %v", data, werr)
		require.ErrorAs(t, werr, &wse)
		assert.Equal(t, wse.Error(), se.Error(), "%q", data)
		assert.Equal(t, wse.Offset, se.Offset, "%q", data)
		return
	}
	require.NoError(t, err, "%q", data)
	assert.Equal(t, want, plain(got), "%q", data)
}

var decodeCases = []string{
	``, ` `, `null`, `true`, `false`, `0`, `-0`, `12`, `-12.5e3`, `1E+2`, `9223372036854775807`,
	`9223372036854775808`, `-9223372036854775808`, `1e400`, `"a"`, `"\u00e9\ud83d\ude00"`,
	`"\ud83d"`, `"\ud83dx"`, `"\udc00\ud800"`, `"\ud83d\u0041"`, "\"\xff\xfe\"", "\"\xed\xa0\x80\"",
	`"\b\f\n\r\t\"\\\/"`, `{"a":1,"b":[1,2,{"c":null}],"a":2}`, `[]`, `{}`, `[ 1 , 2 ]`,
	`[1,]`, `[,1]`, `{"a" 1}`, `{"a":1,}`, `{1:2}`, `{"a":1 "b":2}`, `[1 2]`, `01`, `-`, `-a`,
	`1.`, `1.e3`, `1e`, `1e+`, `.5`, `+1`, `tru`, `trux`, `nul`, `nulx`, `fals`, `falsy`,
	`"abc`, `"\`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\nb\"", `[1] x`, `[1] [2]`, ` {"a": [} `,
	`{"a":`, `[`, `{`, `{"a"`, `'x'`, "\xef\xbb\xbf[]", `"<>&` + "\u2028" + `"`, `[[[[]]]]`,
	`{"rows":[{"x":1}]}`, `1 2`, `nullx`, `[nan]`, `[Infinity]`, `[-Infinity]`,
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, c := range decodeCases {
		checkDecode(t, []byte(c))
	}
}

func TestDecodeKeepsOrderAndTypes(t *testing.T) {
	v, err := Decode([]byte(`{"b":1,"a":[2.5,"x",true,null],"c":{"z":1,"y":2},"b":3}`))
	require.NoError(t, err)
	o := v.(*Object)
	assert.Equal(t, []string{"b", "a", "c"}, o.Keys())
	b, _ := o.Get("b")
	assert.Equal(t, int64(3), b)
	a, _ := o.Get("a")
	assert.Equal(t, []any{2.5, "x", true, nil}, a)
	c, _ := o.Get("c")
	assert.Equal(t, []string{"z", "y"}, c.(*Object).Keys())
}

func TestDecodeDepth(t *testing.T) {
	nested := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":[`, n/2) + strings.Repeat("[", n%2) + "1" + strings.Repeat("]", n%2) + strings.Repeat("]}", n/2))
	}
	for _, n := range []int{MaxDepth - 1, MaxDepth} {
		assert.Equal(t, n, nestingDepth(nested(n)))
		v, err := Decode(nested(n))
		require.NoError(t, err, "depth %d", n)
		// What Decode builds, Marshal writes back.
		b, err := Marshal(v)
		require.NoError(t, err, "depth %d", n)
		assert.Equal(t, string(nested(n)), string(b))
	}
	// The error is at the bracket of level MaxDepth+1.
	for deep, at := range map[string]int64{string(nested(MaxDepth + 1)): int64(500 * len(`{"a":[`)), strings.Repeat("[", 50000): MaxDepth} {
		_, err := Decode([]byte(deep))
		require.ErrorIs(t, err, ErrTooDeep)
		var de *DepthError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, at, de.Offset)
	}
	assert.EqualError(t, ErrTooDeep, "value: JSON nested deeper than 1000 levels")

	// Valid and Skip keep encoding/json's own cap, without recursing.
	deep := strings.Repeat("[", maxScanDepth) + strings.Repeat("]", maxScanDepth)
	assert.True(t, Valid([]byte(deep)))
	assert.True(t, json.Valid([]byte(deep)))
	tooDeep := strings.Repeat("[", maxScanDepth+1) + strings.Repeat("]", maxScanDepth+1)
	assert.False(t, Valid([]byte(tooDeep)))
	d := NewDecoder([]byte(tooDeep))
	err := d.Skip()
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	werr := json.Unmarshal([]byte(tooDeep), new(json.RawMessage))
	assert.Equal(t, werr.Error(), se.Error())
	assert.Equal(t, werr.(*json.SyntaxError).Offset, se.Offset)
}

// TestMarshalCycle: a value that contains itself is an error, not a stack overflow.
func TestMarshalCycle(t *testing.T) {
	list := []any{nil}
	list[0] = list
	_, err := Marshal(list)
	var me *MarshalError
	require.ErrorAs(t, err, &me)
	o := &Object{}
	o.Set("self", o)
	_, err = Marshal(o)
	require.ErrorAs(t, err, &me)
}

func TestDecoderWalk(t *testing.T) {
	d := NewDecoder([]byte(` {"meta": {"n": [1,{}]}, "rows" : [ {"a":1} , 2 ]}`))
	d.SkipSpace()
	require.Equal(t, byte('{'), d.Peek())
	d.Next()
	k, err := d.Key()
	require.NoError(t, err)
	assert.Equal(t, "meta", k)
	d.SkipSpace()
	d.Next() // ':'
	require.NoError(t, d.Skip())
	d.SkipSpace()
	d.Next() // ','
	k, err = d.Key()
	require.NoError(t, err)
	assert.Equal(t, "rows", k)
	d.SkipSpace()
	d.Next() // ':'
	d.SkipSpace()
	d.Next() // '['
	v, err := d.Value()
	require.NoError(t, err)
	assert.Equal(t, NewObject("a", int64(1)), v)
	d.SkipSpace()
	d.Next() // ','
	v, err = d.Value()
	require.NoError(t, err)
	assert.Equal(t, int64(2), v)
	d.SkipSpace()
	assert.Equal(t, byte(']'), d.Peek())
}

type inner struct {
	X int `json:"x"`
}

type embedded struct {
	E string `json:"e,omitempty"`
}

type sample struct {
	Name    string   `json:"name"`
	Skip    string   `json:"-"`
	Omit    []string `json:"omit,omitempty"`
	Nil     []string `json:"nil"`
	Empty   []string `json:"empty"`
	Ptr     *inner   `json:"ptr"`
	PtrNil  *inner   `json:"ptr_nil,omitempty"`
	Untyped any      `json:"untyped"`
	F32     float32  `json:"f32"`
	F64     float64  `json:"f64"`
	U8      uint8    `json:"u8"`
	I       int      `json:"i"`
	Arr     [2]bool  `json:"arr"`
	Obj     *Object  `json:"obj"`
	ObjNil  *Object  `json:"obj_nil"`
	Inline  inner    `json:"inline"`
	NoTag   int      //
	Hidden  string   `json:"-"`
	hidden  int
}

var marshalCases = []any{
	nil, true, false, 0, -1, int8(-8), uint64(math.MaxUint64), 1.0, 0.1, 1e20, 1e21, 1e-6, 1e-7, -2.5e-9,
	float32(0.1), float32(1e21), float32(3.4e38), math.SmallestNonzeroFloat64, math.MaxFloat64,
	"", "a\"b\\c\n\t\r\b\f\x00\x1f\x7f", "<a href='x'>&amp;</a>", "\u2028\u2029é😀", "\xff\xc3(\xed\xa0\x80",
	[]any{1, "x", nil}, []int(nil), []string{}, [0]int{}, []*Object{nil, {}},
	NewObject("z", 1, "a", []any{NewObject("<", "&")}, "m", nil),
	&sample{Name: "n", Empty: []string{}, Ptr: &inner{3},
		Untyped: NewObject("q", 1), F32: 0.3, F64: 1e100, U8: 200, I: -4, Arr: [2]bool{true, false},
		Obj: NewObject("x", int64(1)), NoTag: 9, Hidden: "h", hidden: 1},
	sample{},
	[]*inner{nil, {1}},
	struct{ A, B int }{1, 2},
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	for _, c := range marshalCases {
		want, werr := json.Marshal(c)
		got, err := Marshal(c)
		require.NoError(t, werr)
		require.NoError(t, err, "%#v", c)
		assert.Equal(t, string(want), string(got), "%#v", c)
	}
}

// TestMarshalLeavesOut: what Marshal does not write (see its doc) is an error, never other JSON.
func TestMarshalLeavesOut(t *testing.T) {
	for _, c := range []any{map[string]int{"a": 1}, []byte("x"), struct{ embedded }{}, []any{map[string]any{}}} {
		_, err := Marshal(c)
		assert.ErrorContains(t, err, "unsupported type", "%#v", c)
	}
}

func TestMarshalRefuses(t *testing.T) {
	for _, c := range []any{math.NaN(), math.Inf(1), []any{math.Inf(-1)}, float32(math.Inf(1)), make(chan int), NewObject("x", math.NaN())} {
		_, werr := json.Marshal(c)
		_, err := Marshal(c)
		require.Error(t, werr)
		require.Error(t, err, "%#v", c)
	}
	_, err := Marshal(math.NaN())
	assert.EqualError(t, err, "json: unsupported value: NaN")
}

func TestObjectRoundTrip(t *testing.T) {
	src := `{"z":1,"a":[1.5,"<\u2028>",{"y":null,"b":false}],"m":{}}`
	v, err := Decode([]byte(src))
	require.NoError(t, err)
	b, err := Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, `{"z":1,"a":[1.5,"\u003c\u2028\u003e",{"y":null,"b":false}],"m":{}}`, string(b))
	var o Object
	require.NoError(t, json.Unmarshal([]byte(src), &o))
	assert.Equal(t, []string{"z", "a", "m"}, o.Keys())
}

// FuzzDecode holds Decode and Valid to encoding/json on any text.
func FuzzDecode(f *testing.F) {
	for _, c := range decodeCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecode(t, []byte(s))
	})
}

// FuzzMarshal holds Marshal to encoding/json on strings, numbers and the values Decode makes.
func FuzzMarshal(f *testing.F) {
	f.Add("a<b>&\u2028", 1.5, int64(-3), `{"a":[1,"x",null,{"b":true}]}`)
	f.Add("\xff\xfe", 1e21, int64(math.MinInt64), `[1e-7, 0.000001, 123456789012345678901234567890]`)
	f.Fuzz(func(t *testing.T, s string, x float64, i int64, doc string) {
		in := []any{s, x, float32(x), i, []any{s, x, i}, struct {
			S string  `json:"s,omitempty"`
			X float64 `json:"x"`
		}{s, x}}
		if v, err := Decode([]byte(doc)); err == nil {
			// An *Object keeps its order where encoding/json's maps sort theirs: compare
			// what both read back, written again by encoding/json.
			got, err := Marshal(v)
			if err != nil {
				// 1e1000 reads as +Inf (value.Number), which JSON cannot hold.
				_, werr := json.Marshal(v)
				require.Error(t, werr, "Marshal: %v", err)
				return
			}
			// Numbers as this package holds them ("-0" is the integer 0).
			back, err := oracleDecode(got)
			require.NoError(t, err, "%s", got)
			want, err := oracleDecode([]byte(doc))
			require.NoError(t, err)
			a, _ := json.Marshal(back)
			b, _ := json.Marshal(want)
			assert.Equal(t, string(b), string(a))
			ob, err := json.Marshal(v) // through MarshalJSON, compacted by encoding/json
			require.NoError(t, err)
			assert.Equal(t, string(ob), string(got))
		}
		for _, c := range in {
			want, werr := json.Marshal(c)
			got, err := Marshal(c)
			if werr != nil {
				require.Error(t, err, "%#v", c)
				continue
			}
			require.NoError(t, err, "%#v", c)
			assert.Equal(t, string(want), string(got), "%#v", c)
		}
	})
}
