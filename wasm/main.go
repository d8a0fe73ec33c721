//go:build js && wasm

// Command wasm is ragjudge's WebAssembly bridge. It exposes the core to web/ragjudge.js, which
// wraps it into the public JS API; nothing else should call it directly.
//
// This file only moves bytes: package bridge does everything else (the table of functions,
// arguments, errors, the wire texts of results). A call is three wasm exports: rj_inbox(n)
// returns the address of a fresh n-byte buffer in Go's memory, into which ragjudge.js copies the
// call (the function's name and its arguments, flattened: see bridge.DecodeArgs); rj_call() runs
// it and returns the length of the result text (see package bridge), which rj_outbox() locates.
// A fourth, rj_info(), puts the version, the nesting limit and the functions' names in the outbox
// the same way, once, when ragjudge.js loads the wasm. Go never calls into JS: syscall/js (with
// the finalizers and event handling its values bring) would add 89 KB of code, 10 KB of brotli.
//
// Why exports and not js.FuncOf: a js.FuncOf call costs about 7 µs before any work (it wakes Go's
// scheduler on a new event, reads the event back from JS with a dozen calls between Go and JS
// and parks again), an export call about 30 ns. Why one buffer rather than JS values read property
// by property: each property cost several calls between Go and JS (a Get, a TextEncoder pass and
// a copy for each string) and a finalizer for each object and string; measured with
// bench/boundary.mjs, that was about 75 µs of the 330 µs rj.template took on the pairwise prompt
// with 10 contexts, and 3 to 30 ms per MB of inputs. Why not one JSON text: Go compiled to wasm
// unescapes JSON at 5 to 15 ns a byte, while the buffer's strings need no unescaping and are
// used where they lie.
package main

import (
	"strconv"
	"strings"
	"unsafe"

	"ragjudge/bridge"
	"ragjudge/core/judge"
	"ragjudge/core/value"
	"ragjudge/prompts/inline"
)

var (
	// b is made by the first call, not at start: loading the evaluators (their prompts, their
	// examples, the registry) runs code that Go's start would otherwise compile and run before
	// the exports can be called, and the page marks the engine ready only after that.
	b *bridge.Bridge
	// inbox is the buffer of the next call; the strings of its arguments share its bytes.
	inbox []byte
	// outbox is the result of the last call, kept alive until ragjudge.js has read it.
	outbox string
	// results is the buffer results are written into, reused from call to call once
	// ragjudge.js has read the last one (a new one for each result was most of what a call's
	// time went to, in Go's allocator and collector); one grown past keptResults goes.
	results []byte
)

const keptResults = 1 << 20

func main() {
	select {} // keep the exports callable
}

// rjInfo puts what ragjudge.js needs before any call in the outbox and returns its length in
// bytes: the version, the nesting limit of data arguments (ragjudge.js refuses deeper ones before
// they cross) and the functions' names joined by ",", one per line.
//
//go:wasmexport rj_info
func rjInfo() int32 {
	outbox = judge.Version + "\n" + strconv.Itoa(value.MaxDepth) + "\n" + strings.Join(bridge.Names(), ",")
	return int32(len(outbox))
}

// rjInbox allocates the next call's buffer of n bytes and returns its address.
//
//go:wasmexport rj_inbox
func rjInbox(n int32) int32 {
	inbox = make([]byte, max(n, 1))[:n]
	outbox = "" // the last result has been read: its buffer can be written again
	if cap(results) > keptResults {
		results = nil
	}
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(inbox))))
}

// rjCall runs the call in the inbox and returns the length in bytes of its result text.
//
//go:wasmexport rj_call
func rjCall() int32 {
	if b == nil {
		b = bridge.New(inline.Prompts)
	}
	buf := inbox
	inbox = nil
	results = b.AppendCallWire(results[:0], buf)
	outbox = unsafe.String(unsafe.SliceData(results), len(results))
	return int32(len(outbox))
}

// rjOutbox returns the address of the last result text.
//
//go:wasmexport rj_outbox
func rjOutbox() int32 {
	return int32(uintptr(unsafe.Pointer(unsafe.StringData(outbox))))
}
