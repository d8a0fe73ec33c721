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
	"strconv"
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
	for _, name := range bridge.Names() {
		params := bridge.Functions[name].Params
		api.Set(name, js.FuncOf(func(_ js.Value, raw []js.Value) any {
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
		x, msg := fromJS(v, p.Name, 0)
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

// fromJS converts a JS value into the value package's representation by JSON.stringify's rules
// (own enumerable keys in their order, toJSON honoured, undefined properties left out, integral
// numbers as int64), but refusing what JSON would silently change: NaN, infinities, functions,
// symbols and BigInts. path names the value in the message ("inputs.evidence[2].text"), which is
// "" when the conversion worked.
func fromJS(v js.Value, path string, depth int) (any, string) {
	t, ok := jsType(v)
	if !ok {
		return nil, path + " holds a bigint, which is not JSON data"
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
			return nil, path + " holds " + js.Global().Call("String", v).String() + ", which is not a finite number"
		case f == math.Trunc(f) && math.Abs(f) < 1<<63:
			return int64(f), ""
		}
		return f, ""
	case js.TypeString:
		return v.String(), ""
	case js.TypeObject:
		// As deep as value.Decode reads (the argument itself is the first level).
		if depth >= value.MaxDepth {
			return nil, path + " is circular or nested deeper than " + strconv.Itoa(value.MaxDepth) + " levels"
		}
		if toJSON := v.Get("toJSON"); toJSON.Type() == js.TypeFunction {
			return fromJS(v.Call("toJSON"), path, depth+1)
		}
		if jsIsArray.Invoke(v).Bool() {
			list := make([]any, v.Length())
			for k := range list {
				x, msg := fromJS(v.Index(k), path+"["+strconv.Itoa(k)+"]", depth+1)
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
			val, msg := fromJS(x, path+"."+key, depth+1)
			if msg != "" {
				return nil, msg
			}
			o.Set(key, val)
		}
		return o, ""
	}
	return nil, path + " holds a " + t.String() + ", which is not JSON data"
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
