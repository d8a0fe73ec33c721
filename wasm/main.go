//go:build js && wasm

// Command wasm is ragjudge's WebAssembly bridge. It exposes the core to JavaScript as
// globalThis.__ragjudge, an object of synchronous functions that web/ragjudge.js wraps into the
// public JS API; nothing else should call it directly.
//
// Each function takes its arguments as one JSON text (a list, one item per parameter of
// bridge.Functions) and returns one JSON text, {"ok": result} or {"error": {...}}; package
// bridge does everything between, so that this file only moves strings across. Go never calls
// back into async JS or the network.
package main

import (
	"syscall/js"

	"ragjudge/bridge"
	"ragjudge/core/judge"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

func main() {
	b := bridge.New(prompts.FS)
	api := js.Global().Get("Object").New()
	api.Set("version", judge.Version)
	// ragjudge.js refuses arguments nested deeper before it encodes them, naming the place.
	api.Set("maxDepth", value.MaxDepth)
	for _, name := range bridge.Names() {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) != 1 || args[0].Type() != js.TypeString {
				return b.CallJSON(name, "") // an internal error: ragjudge.js always sends one string
			}
			return b.CallJSON(name, args[0].String())
		}))
	}
	js.Global().Set("__ragjudge", api)
	select {} // keep the functions callable
}
