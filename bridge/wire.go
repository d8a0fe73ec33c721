package bridge

import (
	"math"
	"unsafe"

	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// The argument wire: ragjudge.js checks a call's arguments (by JSON's rules, with the path of a
// bad value in the message) and flattens them into one byte buffer that crosses into Go with a
// single copy; DecodeArgs reads it back into the value package's representation.
//
// Why not a JSON text: Go compiled to wasm unescapes JSON at 5 to 15 ns a byte, while these
// strings are already UTF-8 bytes of known length and need no unescaping at all: they become Go
// strings that share the buffer. Why not reading the JS values property by property: each
// property costs several calls between Go and JS and a finalizer (measured: about 75 µs for the
// pairwise prompt's 13 strings, 3 to 30 ms per MB of inputs, against a few µs here).
//
// Layout, little-endian:
//
//	u32 nTape, u32 nStrs
//	f64 tape[nTape]    the values, depth first, as tags and their operands
//	u32 lens[nStrs]    the byte length of each string, in the order the tape reads them
//	bytes              the strings' UTF-8 bytes, one after the other
//
// Tags (the value is the tape's next f64; operands follow it):
//
//	WireNull                                  nil: null, or undefined ("not given")
//	WireFalse, WireTrue
//	WireNumber, x                             int64 when x is integral and fits, else float64
//	WireString                                the next string
//	WireList, n, n values
//	WireObject, n, n pairs of (the next string as the key, a value)
//	WireHeld, id                              the value stored under id by an earlier call
//	WireHold, id, value                       value, also stored under id for later calls
//
// The call's arguments are a WireList.
const (
	WireNull = iota
	WireFalse
	WireTrue
	WireNumber
	WireString
	WireList
	WireObject
	WireHeld
	WireHold
)

// le32 and le64 read little-endian numbers (encoding/binary would add to the wasm for two lines).
func le32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func le64(b []byte) uint64 { return uint64(le32(b)) | uint64(le32(b[4:]))<<32 }

// errMiss is DecodeArgs' error for a WireHeld id that is not held (any more).
type errMiss struct{}

func (errMiss) Error() string { return "held value not found" }

// errWire is a buffer that does not follow the layout: a bug in ragjudge.js, never bad input.
type errWire string

func (e errWire) Error() string { return "malformed argument wire: " + string(e) }

type wireReader struct {
	tape    []byte // nTape f64s
	lens    []byte // nStrs u32s
	strs    []byte
	t, s, b int // next tape entry, string, byte
	held    *held
}

func (r *wireReader) next() (float64, error) {
	if r.t+8 > len(r.tape) {
		return 0, errWire("tape ends early")
	}
	x := math.Float64frombits(le64(r.tape[r.t:]))
	r.t += 8
	return x, nil
}

func (r *wireReader) count() (int, error) {
	x, err := r.next()
	if err != nil {
		return 0, err
	}
	if x < 0 || x != math.Trunc(x) || x > float64(len(r.tape)) {
		return 0, errWire("bad count")
	}
	return int(x), nil
}

func (r *wireReader) str() (string, error) {
	if r.s+4 > len(r.lens) {
		return "", errWire("strings end early")
	}
	n := int(le32(r.lens[r.s:]))
	r.s += 4
	if n > len(r.strs)-r.b {
		return "", errWire("string bytes end early")
	}
	b := r.strs[r.b : r.b+n]
	r.b += n
	if n == 0 {
		return "", nil
	}
	// The buffer is never written again: strings can share its bytes (a text can be megabytes).
	return unsafe.String(&b[0], n), nil
}

func (r *wireReader) value(depth int) (any, error) {
	// ragjudge.js refuses deeper data with a clear message; the call list and a WireHold add two.
	if depth > value.MaxDepth+3 {
		return nil, errWire("nested too deep")
	}
	tag, err := r.next()
	if err != nil {
		return nil, err
	}
	switch tag {
	case WireNull:
		return nil, nil
	case WireFalse:
		return false, nil
	case WireTrue:
		return true, nil
	case WireNumber:
		f, err := r.next()
		if err != nil {
			return nil, err
		}
		// As fromJS did and as JSON.stringify then value.Decode would: an integral number is an
		// integer (JS cannot tell 3 from 3.0).
		if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return int64(f), nil
		}
		return f, nil
	case WireString:
		return r.str()
	case WireList:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		list := make([]any, n)
		for k := range list {
			if list[k], err = r.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return list, nil
	case WireObject:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		o := &value.Object{}
		for range n {
			key, err := r.str()
			if err != nil {
				return nil, err
			}
			v, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.Set(key, v)
		}
		return o, nil
	case WireHeld:
		id, err := r.next()
		if err != nil {
			return nil, err
		}
		v, ok := r.held.get(id)
		if !ok {
			return nil, errMiss{}
		}
		return v, nil
	case WireHold:
		id, err := r.next()
		if err != nil {
			return nil, err
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		r.held.put(id, v, len(r.strs))
		return v, nil
	}
	return nil, errWire("unknown tag")
}

// DecodeArgs reads a call's arguments from buf (see the layout above), which the caller must
// not write again: strings share its bytes. miss is true when the buffer names a held value
// that is no longer held; ragjudge.js then sends the call again with the values themselves.
func (b *Bridge) DecodeArgs(buf []byte) (args []any, miss bool, err error) {
	if len(buf) < 8 {
		return nil, false, errWire("no header")
	}
	nTape := int(le32(buf))
	nStrs := int(le32(buf[4:]))
	if nTape > (len(buf)-8)/8 || nStrs > (len(buf)-8-8*nTape)/4 {
		return nil, false, errWire("header larger than the buffer")
	}
	lensAt := 8 + 8*nTape
	r := &wireReader{tape: buf[8:lensAt], lens: buf[lensAt : lensAt+4*nStrs], strs: buf[lensAt+4*nStrs:], held: &b.held}
	v, err := r.value(1)
	if _, ok := err.(errMiss); ok {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false, errWire("the arguments are not a list")
	}
	if r.t != len(r.tape) || r.s != len(r.lens) || r.b != len(r.strs) {
		return nil, false, errWire("values left over after the arguments")
	}
	return list, false, nil
}

// held is the values ragjudge.js asked Go to keep (WireHold) so that a later call with the same
// inputs (parse after render, render again after a keystroke) does not send them again. JS knows
// which values it sent under which id and checks, before it names one, that the arguments are
// still equal to it; Go only bounds what it keeps: the least recently used values go first once
// there are more than heldEntries or their buffers add up to more than heldBytes.
type held struct {
	m     map[float64]*heldEntry
	byObj map[*value.Object]*heldEntry // the entries of objects, for prepare
	order []*heldEntry                 // least recently used first
	bytes int
}

type heldEntry struct {
	id       float64
	v        any
	bytes    int                 // the size of the buffer its strings share
	prepared map[string]prepared // by evaluator id: the inputs read once for render and parse
}

type prepared struct {
	p   *judge.Prepared
	err error
	_   [0]func() // not comparable: no equality function in the wasm
}

const (
	heldEntries = 64
	heldBytes   = 32 << 20
)

func (h *held) get(id float64) (any, bool) {
	e, ok := h.m[id]
	if !ok {
		return nil, false
	}
	h.touch(e)
	return e.v, true
}

func (h *held) touch(e *heldEntry) {
	for k, x := range h.order {
		if x == e {
			copy(h.order[k:], h.order[k+1:])
			h.order[len(h.order)-1] = e
			return
		}
	}
}

func (h *held) put(id float64, v any, bytes int) {
	if h.m == nil {
		h.m = make(map[float64]*heldEntry)
		h.byObj = make(map[*value.Object]*heldEntry)
	}
	if old, ok := h.m[id]; ok {
		h.forget(old)
	}
	e := &heldEntry{id: id, v: v, bytes: bytes}
	h.m[id] = e
	if o, ok := v.(*value.Object); ok {
		h.byObj[o] = e
	}
	h.order = append(h.order, e)
	h.bytes += bytes
	// Keep at least the newest: the call that holds it is running.
	for len(h.order) > 1 && (len(h.order) > heldEntries || h.bytes > heldBytes) {
		h.forget(h.order[0])
	}
}

func (h *held) forget(e *heldEntry) {
	for k, x := range h.order {
		if x == e {
			h.order = append(h.order[:k:k], h.order[k+1:]...)
			break
		}
	}
	delete(h.m, e.id)
	if o, ok := e.v.(*value.Object); ok && h.byObj[o] == e {
		delete(h.byObj, o)
	}
	h.bytes -= e.bytes
}

// prepare is b.registry.Prepare, once for each evaluator and held inputs: parse after render of
// the same inputs does not read them again (held values are never changed; JS sends changed
// inputs under a new id).
func (b *Bridge) prepare(id string, inputs *value.Object) (*judge.Prepared, error) {
	e := b.held.byObj[inputs]
	if e == nil {
		return b.registry.Prepare(id, inputs)
	}
	if p, ok := e.prepared[id]; ok {
		return p.p, p.err
	}
	p, err := b.registry.Prepare(id, inputs)
	if e.prepared == nil {
		e.prepared = make(map[string]prepared)
	}
	e.prepared[id] = prepared{p: p, err: err}
	return p, err
}

// Held reports how many values are held and the bytes of the buffers they keep (for tests).
func (b *Bridge) Held() (n, bytes int) { return len(b.held.order), b.held.bytes }
