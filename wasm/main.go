//go:build js && wasm

// Command wasm is ragjudge's WebAssembly bridge (STUB: being written).
package main

func main() { select {} }
