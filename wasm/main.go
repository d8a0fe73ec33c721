//go:build js && wasm

// Command wasm is ragjudge's WebAssembly bridge. It exposes the core to JavaScript as
// globalThis.__ragjudge, an object of synchronous functions that web/ragjudge.js wraps into the
// public JS API; nothing else should call it directly.
//
// This file only converts js.Values into the value package's plain data and registers the
// functions; package bridge does everything else (the table of functions, arguments, errors,
// the JSON text of results). Each function takes its arguments as JS values read by JSON's rules
// (fromJS) and returns one JSON text, {"ok": result} or {"error": {kind, code, name, line, col,
// message}}. Go never calls back into async JS or the network.
//
// Why the arguments are not one JSON text too: Go compiled to wasm unescapes JSON at several
// nanoseconds a byte, while a JS string is copied in well under one; measured with
// bench/api.mjs, a 1 MB dataset or template variable crossed 2 to 10 times slower as JSON.
package main

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"ragjudge/bridge"
	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

var (
	jsObject     = js.Global().Get("Object")
	jsIsArray    = js.Global().Get("Array").Get("isArray")
	jsObjectKeys = jsObject.Get("keys")
)

func main() {
	b := bridge.New(prompts.FS)
	api := jsObject.New()
	api.Set("version", judge.Version)
	api.Set("maxDepth", value.MaxDepth) // ragjudge.js refuses deeper arguments before they cross
	for _, name := range bridge.Names() {
		params := bridge.Functions[name].Params
		api.Set(name, js.FuncOf(func(_ js.Value, raw []js.Value) (out any) {
			defer func() {
				// Reading an argument runs JS (getters, toJSON, proxies), which can throw: a
				// panic here would end the Go program and every later call with it.
				if p := recover(); p != nil {
					msg := "internal error reading the arguments"
					if e, ok := p.(js.Error); ok {
						msg = "reading the arguments threw " + e.Error()
					}
					out = b.Fail(inputError(name, msg))
				}
			}()
			args, err := fromJSArgs(name, params, raw)
			if err != nil {
				return b.Fail(err)
			}
			return b.Call(name, args)
		}))
	}
	js.Global().Set("__ragjudge", api)
	select {} // keep the functions callable
}

// fromJSArgs converts the arguments of one call. Text arguments must be JS strings (a judge
// answer or a dataset can be megabytes: they are copied once, not read as JSON); undefined and
// null are "not given".
func fromJSArgs(fn string, params []bridge.Param, raw []js.Value) ([]any, error) {
	args := make([]any, len(params))
	for i, p := range params {
		if i >= len(raw) {
			break
		}
		v := raw[i]
		if p.Kind == bridge.Text {
			switch v.Type() {
			case js.TypeString:
				args[i] = v.String()
			case js.TypeUndefined, js.TypeNull:
			default:
				return nil, inputError(fn, p.Name+" must be a string, got "+v.Type().String())
			}
			continue
		}
		x, msg := fromJS(v, &path{name: p.Name}, 0)
		if msg != "" {
			return nil, inputError(fn, msg)
		}
		args[i] = x
	}
	return args, nil
}

func inputError(fn, msg string) error {
	return &diag.Error{Kind: "input", Name: fn, Msg: msg}
}

// path is where a value is in an argument, built into text only for an error message: building
// it for every value would cost time quadratic in the nesting.
type path struct {
	parent *path
	name   string // an argument's or a key's name; or, when empty, index is a list index
	index  int
}

// String is the path as JS would write it; a path of more than a dozen steps keeps its first
// and last six ("vars.o[0][0][0][0][0]…[0][0][0][0][0][0]").
func (p *path) String() string {
	var steps []string // leaf first
	for q := p; q != nil; q = q.parent {
		switch {
		case q.parent == nil:
			steps = append(steps, q.name)
		case q.name != "":
			steps = append(steps, "."+q.name)
		default:
			steps = append(steps, "["+strconv.Itoa(q.index)+"]")
		}
	}
	slices.Reverse(steps)
	if len(steps) > 12 {
		steps = append(append(steps[:6:6], "…"), steps[len(steps)-6:]...)
	}
	return strings.Join(steps, "")
}

// fromJS converts a JS value into the value package's representation by JSON.stringify's rules
// (own enumerable keys in their order, toJSON honoured, undefined properties left out, integral
// numbers as int64), but refusing what JSON would silently change: NaN, infinities, functions,
// symbols and BigInts. The message names the value by its path ("inputs.evidence[2].text"); it
// is "" when the conversion worked.
func fromJS(v js.Value, at *path, depth int) (any, string) {
	t, ok := jsType(v)
	if !ok {
		return nil, at.String() + " holds a bigint, which is not JSON data"
	}
	switch t {
	case js.TypeUndefined, js.TypeNull:
		return nil, ""
	case js.TypeBoolean:
		return v.Bool(), ""
	case js.TypeNumber:
		f := v.Float()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return nil, at.String() + " holds " + js.Global().Call("String", v).String() + ", which is not a finite number"
		case f == math.Trunc(f) && math.Abs(f) < 1<<63:
			return int64(f), ""
		}
		return f, ""
	case js.TypeString:
		return v.String(), ""
	case js.TypeObject:
		// As deep as value.Decode reads (the argument itself is the first level).
		if depth >= value.MaxDepth {
			return nil, at.String() + " is circular or nested deeper than " + strconv.Itoa(value.MaxDepth) + " levels"
		}
		if toJSON := v.Get("toJSON"); toJSON.Type() == js.TypeFunction {
			return fromJS(v.Call("toJSON"), at, depth+1)
		}
		if jsIsArray.Invoke(v).Bool() {
			list := make([]any, v.Length())
			for k := range list {
				x, msg := fromJS(v.Index(k), &path{parent: at, index: k}, depth+1)
				if msg != "" {
					return nil, msg
				}
				list[k] = x
			}
			return list, ""
		}
		keys := jsObjectKeys.Invoke(v)
		o := &value.Object{}
		for k, n := 0, keys.Length(); k < n; k++ {
			key := keys.Index(k).String()
			x := v.Get(key)
			if x.IsUndefined() {
				continue
			}
			val, msg := fromJS(x, &path{parent: at, name: key}, depth+1)
			if msg != "" {
				return nil, msg
			}
			o.Set(key, val)
		}
		return o, ""
	}
	return nil, at.String() + " holds a " + t.String() + ", which is not JSON data"
}

// jsType is v.Type() that reports ok == false for a BigInt, which syscall/js has no Type for
// (Type panics on it).
func jsType(v js.Value) (t js.Type, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return v.Type(), true
}
