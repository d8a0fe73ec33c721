// Package bridge is everything between the JS API and the core that does not need syscall/js:
// the table of exported functions with their parameters, the coercion of arguments into the
// core's types, UTF-16 offsets for spans, the encoding of results and the wrapping of errors.
// ragjudge/wasm is left with converting js.Values and registering the table, so this package is
// tested natively with plain Go values.
//
// Wire format: Call returns one JSON text, {"ok": result} or {"error": {kind, code, name, line,
// col, message}}, for every function. One encoding, and JSON because it is the cheapest way
// across: building a JS object from Go sets each property through a syscall/js call (about a
// microsecond each), while one string and JSON.parse in JS cost about as much as copying the
// text (see the numbers in the package's README section of the JS API).
package bridge

import (
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"sort"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// Kind is what a parameter holds.
type Kind int

// The kinds of parameter. A Text parameter is a string (ids, judge answers, template sources,
// datasets); null or undefined means "not given". A Data parameter is any JSON value.
const (
	Text Kind = iota
	Data
)

// Param is one parameter of a function.
type Param struct {
	Name string
	Kind Kind
}

// Func is one exported function: its parameters, in order, and its body, which reads them
// from a and returns a result that value.Marshal can encode.
type Func struct {
	Params []Param
	Fn     func(b *Bridge, a *Args) (any, error)
}

// Functions are the exported functions, by JS name.
var Functions = map[string]Func{
	"evaluators":  {nil, evaluators},
	"render":      {[]Param{{"id", Text}, {"inputs", Data}}, render},
	"parse":       {[]Param{{"id", Text}, {"inputs", Data}, {"output", Text}}, parse},
	"template":    {[]Param{{"source", Text}, {"dialect", Text}, {"vars", Data}}, renderTemplate},
	"readDataset": {[]Param{{"text", Text}, {"format", Text}}, readDataset},
	"recall":      {[]Param{{"scores", Data}}, computeRecall},
	"passages":    {[]Param{{"passage_gt", Text}}, passages},
	"mapColumns":  {[]Param{{"id", Text}, {"columns", Data}}, mapColumns},
	"rowInputs":   {[]Param{{"id", Text}, {"row", Data}, {"mapping", Data}}, rowInputs},
}

// Names returns the names of Functions, sorted.
func Names() []string {
	names := make([]string, 0, len(Functions))
	for n := range Functions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Bridge holds what the functions share: the evaluators, loaded once.
type Bridge struct {
	registry *judge.Registry
	loadErr  error // returned by every call that needs the registry: a broken build, not bad input
}

// New loads the evaluators from fsys (prompts.FS).
func New(fsys fs.FS) *Bridge {
	r, err := judge.Load(fsys)
	return &Bridge{registry: r, loadErr: err}
}

// Call runs function name with args (one per parameter, as Args describes; missing trailing
// arguments are "not given") and returns the wire text. It never panics: a panic in the core
// becomes an "internal" error, so that later calls still work.
func (b *Bridge) Call(name string, args []any) (out string) {
	defer b.recover(name, &out)
	return b.call(name, args)
}

// CallJSON is Call with the arguments as one JSON list, the way they cross from JS.
func (b *Bridge) CallJSON(name, argsJSON string) (out string) {
	defer b.recover(name, &out)
	v, err := value.Decode([]byte(argsJSON))
	if err == value.ErrTooDeep {
		return wireError(&diag.Error{Kind: "input", Name: name,
			Msg: "an argument is nested deeper than " + itoa(value.MaxDepth-1) + " levels"})
	}
	list, ok := v.([]any)
	if err != nil || !ok {
		// ragjudge.js always sends a JSON list.
		return wireError(&diag.Error{Kind: "internal", Name: name, Msg: "the arguments are not a JSON list"})
	}
	for k := range list {
		list[k] = jsIntegers(list[k])
	}
	return b.call(name, list)
}

// jsIntegers corrects the integers beyond 2^53 in v, which came from JS's numbers: JS writes
// 2**60 as 1152921504606847000, the shortest text that reads back as the same double, and the
// integer the caller has is that double's, 1152921504606846976.
func jsIntegers(v any) any {
	switch t := v.(type) {
	case int64:
		if t > 1<<53 || t < -1<<53 {
			if f := float64(t); f < 1<<63 && f >= -1<<63 {
				return int64(f)
			}
		}
	case []any:
		for k := range t {
			t[k] = jsIntegers(t[k])
		}
	case *value.Object:
		for _, key := range t.Keys() {
			switch x, _ := t.Get(key); x.(type) {
			case int64:
				t.Set(key, jsIntegers(x))
			default:
				jsIntegers(x)
			}
		}
	}
	return v
}

// recover turns a panic into an internal error in *out. A panic would otherwise end the Go
// program and leave every later call failing; the page must survive a core bug to say so.
func (b *Bridge) recover(name string, out *string) {
	if p := recover(); p != nil {
		// The stack goes to the console (stderr in the wasm); the page shows the message.
		fmt.Fprintf(os.Stderr, "ragjudge: %s panicked: %v\n%s", name, p, debug.Stack())
		*out = wireError(&diag.Error{Kind: "internal", Name: name,
			Msg: fmt.Sprintf("internal error (please report it with the browser console's output): %v", p)})
	}
}

func (b *Bridge) call(name string, args []any) string {
	f, ok := Functions[name]
	if !ok {
		return wireError(&diag.Error{Kind: "internal", Name: name, Msg: "no such function"})
	}
	res, err := f.Fn(b, &Args{fn: name, params: f.Params, vals: args})
	if err != nil {
		return wireError(err)
	}
	enc, err := value.Marshal(res)
	if err != nil {
		return wireError(&diag.Error{Kind: "internal", Name: name, Msg: "cannot encode the result: " + err.Error()})
	}
	return `{"ok":` + string(enc) + "}"
}

// wireError encodes err as {"error": {...}}; errors that are not *diag.Error carry no position.
func wireError(err error) string {
	d, ok := err.(*diag.Error)
	if !ok {
		d = &diag.Error{Kind: "internal", Msg: err.Error()}
	}
	enc, _ := value.Marshal(d)
	return `{"error":` + string(enc) + "}"
}

// nonNil makes a nil slice an empty one, so JS sees [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
