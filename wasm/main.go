//go:build js && wasm

// Command wasm is ragjudge's WebAssembly bridge. It exposes the core to JavaScript as
// globalThis.__ragjudge, an object of synchronous functions that web/ragjudge.js wraps into the
// public JS API; nothing else should call it directly.
//
// This file only registers the functions of package bridge, which does everything else (the
// table of functions, arguments, errors, the wire texts of results). Each function takes one
// Uint8Array, its arguments flattened by ragjudge.js (see bridge.DecodeArgs), copies it into Go
// memory in one go and returns one text (see package bridge). Go never calls back into async JS
// or the network.
//
// Why one buffer rather than JS values read property by property: each property cost several
// calls between Go and JS (a Get, a TextEncoder pass and a copy for each string) and a
// finalizer for each object or string; measured with bench/boundary.mjs, that was about 75 µs
// of the 330 µs rj.template took on the pairwise prompt with 10 contexts, and 3 to 30 ms per MB
// of inputs. Why not one JSON text: Go compiled to wasm unescapes JSON at 5 to 15 ns a byte,
// while the buffer's strings need no unescaping and are used where they lie.
package main

import (
	"syscall/js"

	"ragjudge/bridge"
	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

func main() {
	b := bridge.New(prompts.FS)
	api := js.Global().Get("Object").New()
	api.Set("version", judge.Version)
	api.Set("maxDepth", value.MaxDepth) // ragjudge.js refuses deeper arguments before they cross
	for _, name := range bridge.Names() {
		api.Set(name, js.FuncOf(func(_ js.Value, raw []js.Value) (out any) {
			defer func() {
				// Copying a buffer runs no user code, but a panic here would end the Go program
				// and every later call with it.
				if p := recover(); p != nil {
					out = b.Fail(&diag.Error{Kind: "internal", Name: name, Msg: "internal error reading the arguments"})
				}
			}()
			if len(raw) != 2 || raw[0].Type() != js.TypeObject || raw[1].Type() != js.TypeNumber {
				return b.Fail(&diag.Error{Kind: "internal", Name: name, Msg: "want (Uint8Array, its length): call it through ragjudge.js"})
			}
			// The length comes as a number: asking the array for it is one more call into JS.
			buf := make([]byte, raw[1].Int())
			js.CopyBytesToGo(buf, raw[0])
			return b.CallWire(name, buf)
		}))
	}
	js.Global().Set("__ragjudge", api)
	select {} // keep the functions callable
}
