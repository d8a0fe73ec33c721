package bridge

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

// packWire lays out tape and strs as ragjudge.js's pack does.
func packWire(tape []float64, strs ...string) []byte {
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(tape)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(strs)))
	for _, x := range tape {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
	}
	for _, s := range strs {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
	}
	for _, s := range strs {
		buf = append(buf, s...)
	}
	return buf
}

func TestDecodeArgs(t *testing.T) {
	br := New(promptsFS)
	// ["render", {"a": [1, 2.5, -3, true, false, null, ""], "é": {}}, "😀"]
	buf := packWire([]float64{WireList, 3, WireString,
		WireObject, 2, WireList, 7, WireNumber, 1, WireNumber, 2.5, WireNumber, -3, WireTrue, WireFalse, WireNull, WireString,
		WireObject, 0,
		WireString},
		"render", "a", "", "é", "😀")
	args, miss, err := br.DecodeArgs(buf)
	require.NoError(t, err)
	require.False(t, miss)
	want := []any{"render", obj("a", []any{int64(1), 2.5, int64(-3), true, false, nil, ""}, "é", &value.Object{}), "😀"}
	assert.Equal(t, want, args)
}

func TestDecodeArgsMalformed(t *testing.T) {
	br := New(promptsFS)
	for name, buf := range map[string][]byte{
		"empty":           nil,
		"header only":     packWire(nil)[:4],
		"tape ends early": packWire([]float64{WireList, 2, WireString}, "x"),
		"no string":       packWire([]float64{WireList, 1, WireString}),
		"string too long": packWire([]float64{WireList, 1, WireString}, "abc")[:8+24+4+2],
		"bad count":       packWire([]float64{WireList, -1}),
		"huge count":      packWire([]float64{WireList, 1e12}),
		"unknown tag":     packWire([]float64{WireList, 1, 42}),
		"not a list":      packWire([]float64{WireString}, "x"),
		"tape left over":  packWire([]float64{WireList, 1, WireString, WireString}, "x", "y"),
		"string left":     packWire([]float64{WireList, 1, WireString}, "x", "y"),
		"bytes left":      append(packWire([]float64{WireList, 1, WireString}, "x"), 'z'),
		"header too big":  append(binary.LittleEndian.AppendUint32(nil, 1<<30), 1, 0, 0, 0),
	} {
		_, miss, err := br.DecodeArgs(buf)
		assert.False(t, miss, name)
		assert.Error(t, err, name)
		// Through CallWire it is an internal error, never a panic.
		w := decodeWire(t, br.CallWire(buf))
		require.NotNil(t, w.Error, name)
		assert.Equal(t, "internal", w.Error.Kind, name)
	}
}

// TestHeld: a held value is used by id, a changed value comes under a new id, and an id Go let go
// of is a miss, never an error or another value.
func TestHeld(t *testing.T) {
	br := New(promptsFS)
	hold := func(id float64, s string) []byte {
		return packWire([]float64{WireList, 4, WireString, WireString, WireString, WireHold, id, WireObject, 1, WireString}, "template", "{{ x }}", "jinja", "x", s)
	}
	named := func(id float64) []byte {
		return packWire([]float64{WireList, 4, WireString, WireString, WireString, WireHeld, id}, "template", "{{ x }}", "jinja")
	}
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nfirst", br.CallWire(hold(1, "first")))
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nfirst", br.CallWire(named(1)))
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nsecond", br.CallWire(hold(2, "second")))
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nfirst", br.CallWire(named(1)))
	assert.Equal(t, MissWire, br.CallWire(named(3)))

	// Past heldEntries values, the least recently used go first.
	for id := 10.0; id < 10+heldEntries; id++ {
		br.CallWire(hold(id, "v"))
	}
	n, _ := br.Held()
	assert.Equal(t, heldEntries, n)
	assert.Equal(t, MissWire, br.CallWire(named(1)))
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\nv", br.CallWire(named(10+heldEntries-1)))

	// Past heldBytes, too; the newest is always kept.
	big := make([]byte, heldBytes/2+1)
	for k := range big {
		big[k] = 'b'
	}
	br.CallWire(hold(100, string(big)))
	br.CallWire(hold(101, string(big)))
	n, bytes := br.Held()
	assert.LessOrEqual(t, bytes, heldBytes)
	assert.GreaterOrEqual(t, n, 1)
	assert.Equal(t, MissWire, br.CallWire(named(100)))
	br.CallWire(hold(102, string(big)+string(big)))
	n, _ = br.Held()
	assert.Equal(t, 1, n)
	assert.NotEqual(t, MissWire, br.CallWire(named(102)))
}

// TestPrepareHeld: render and parse of held inputs share one reading per evaluator, and give what
// the same inputs give when not held.
func TestPrepareHeld(t *testing.T) {
	br := New(promptsFS)
	inputs := []float64{WireObject, 2, WireString, WireList, 1, WireString}
	strs := []string{"answer", "Paris", "facts", "Paris is in France."}
	render := packWire(append([]float64{WireList, 3, WireString, WireString, WireHold, 1}, inputs...), append([]string{"render", "answer-grounding"}, strs...)...)
	parse := packWire([]float64{WireList, 4, WireString, WireString, WireHeld, 1, WireString}, "parse", "answer-grounding", "Yes.")
	assert.Equal(t, b.Call("render", []any{"answer-grounding", groundingInputs}), br.CallWire(render))
	assert.Equal(t, b.Call("parse", []any{"answer-grounding", groundingInputs, "Yes."}), br.CallWire(parse))
	assert.Equal(t, b.Call("parse", []any{"answer-grounding", groundingInputs, "Yes."}), br.CallWire(parse))
	e := br.held.m[1]
	require.NotNil(t, e)
	assert.Len(t, e.prepared, 1)
	// Another evaluator on the same held inputs reads them for itself (here: an error).
	other := packWire([]float64{WireList, 3, WireString, WireString, WireHeld, 1}, "render", "rag-recall")
	w := decodeWire(t, br.CallWire(other))
	require.NotNil(t, w.Error)
	assert.Len(t, e.prepared, 2)
}

// TestAppendCallWire: a call's result, its error and MissWire go after dst's bytes, into dst's
// array when it has room (the wasm keeps one buffer for its results), and the template's output
// is written there once.
func TestAppendCallWire(t *testing.T) {
	br := New(promptsFS)
	call := func(src string) []byte {
		return packWire([]float64{WireList, 4, WireString, WireString, WireString, WireHold, 1, WireObject, 1, WireString}, "template", src, "jinja", "x", "X")
	}
	dst := make([]byte, 0, 4096)
	out := br.AppendCallWire(dst, call("a{{ x }}b"))
	assert.Equal(t, "R{\"ok\":null,\"raw\":\"\"}\naXb", string(out))
	assert.Same(t, &dst[:1][0], &out[0], "written into dst's array")
	out = br.AppendCallWire(append(dst, "kept:"...), call("{{ nope }}"))
	assert.Contains(t, string(out), `kept:{"error":{"kind":"template"`)
	out = br.AppendCallWire(append(dst, "kept:"...), packWire([]float64{WireList, 4, WireString, WireString, WireString, WireHeld, 9}, "template", "x", "jinja"))
	assert.Equal(t, "kept:"+MissWire, string(out))

	// In a warm buffer, rendering a template already parsed allocates what it reads from the
	// call (the function's name and its arguments), not its output.
	wire := call("{% for i in range(100) %}{{ x }}{{ i }} {% endfor %}")
	dst = br.AppendCallWire(dst, wire)
	allocs := testing.AllocsPerRun(20, func() { dst = br.AppendCallWire(dst[:0], wire) })
	assert.LessOrEqual(t, allocs, 30.0)
}
