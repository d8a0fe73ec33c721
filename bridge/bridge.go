// Package bridge is everything between the JS API and the core that does not need syscall/js:
// the table of exported functions with their parameters, the coercion of arguments into the
// core's types, UTF-16 offsets for spans, the encoding of results and the wrapping of errors.
// ragjudge/wasm is left with converting js.Values and registering the table, so this package is
// tested natively with plain Go values.
//
// Wire format: Call returns one text for every function, which ragjudge.js reads with
// JSON.parse: {"ok": result} or {"error": {kind, code, name, line, col, message}}; or, for a
// result that is or holds one long text (template's output, render's prompt), "R" + the JSON
// text {"ok": the rest, "raw": where the text goes} + "\n" + the text itself, unescaped (see
// Tail). Measured with bench/api.mjs against the alternative of building every result as JS
// objects from Go (one syscall/js call per property): that made readDataset and evaluators()
// about 3 times slower; JSON costs only the escaping of long strings, in Go, and their reading in
// JS (together about 5 ms per MB of prompt), which the raw text avoids.
//
// Arguments come the other way in one byte buffer (see DecodeArgs and CallWire).
package bridge

import (
	"runtime"
	"unsafe"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/stable"
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

// Functions are the exported functions, by JS name. The table is written as a list, which Go
// lays out as data: the same table written as a map literal was 10 KB of code that filled the
// map at start (0.9 KB of brotli).
var Functions = func() map[string]Func {
	m := make(map[string]Func, len(functionList))
	for _, f := range functionList {
		m[f.name] = f.Func
	}
	return m
}()

var functionList = [...]struct {
	name string
	Func
}{
	{"evaluators", Func{nil, evaluators}},
	{"render", Func{[]Param{{"id", Text}, {"inputs", Data}}, render}},
	{"parse", Func{[]Param{{"id", Text}, {"inputs", Data}, {"output", Text}, {"opts", Data}}, parse}},
	{"template", Func{[]Param{{"source", Text}, {"dialect", Text}, {"vars", Data}}, renderTemplate}},
	{"variables", Func{[]Param{{"source", Text}, {"dialect", Text}, {"where", Data}}, templateVariables}},
	{"readDataset", Func{[]Param{{"text", Text}, {"format", Text}, {"name", Text}}, readDataset}},
	{"recall", Func{[]Param{{"scores", Data}}, computeRecall}},
	{"passages", Func{[]Param{{"passage_gt", Text}}, passages}},
	{"mapColumns", Func{[]Param{{"id", Text}, {"columns", Data}}, mapColumns}},
	{"rowInputs", Func{[]Param{{"id", Text}, {"row", Data}, {"mapping", Data}}, rowInputs}},
	{"agreement", Func{[]Param{{"judge", Data}, {"human", Data}}, agreement}},
	{"correlation", Func{[]Param{{"xs", Data}, {"ys", Data}}, correlation}},
	{"consistency", Func{[]Param{{"rows", Data}}, consistency}},
	{"describe", Func{[]Param{{"xs", Data}}, describe}},
	{"calibration", Func{[]Param{{"p", Data}, {"human", Data}}, calibration}},
	{"jury", Func{[]Param{{"verdicts", Data}, {"opts", Data}}, jury}},

	{"checkupCases", Func{[]Param{{"id", Text}, {"inputs", Data}, {"seed", Data}, {"pool", Data}}, checkupCases}},
	{"checkupGrade", Func{[]Param{{"case", Data}, {"verdict", Data}, {"refs", Data}}, checkupGrade}},
	{"checkupMatrix", Func{[]Param{{"graded", Data}}, checkupMatrix}},
	{"swapOrders", Func{[]Param{{"id", Text}, {"inputs", Data}}, swapOrders}},
	{"combineOrders", Func{[]Param{{"first", Data}, {"second", Data}}, combineOrders}},
	{"positionStats", Func{[]Param{{"verdicts", Data}}, positionStats}},

	{"define", Func{[]Param{{"spec", Data}, {"unread", Data}}, define}},
	{"undefine", Func{[]Param{{"id", Text}}, undefine}},
	{"spec", Func{[]Param{{"id", Text}}, spec}},
}

// Names returns the names of Functions, sorted.
func Names() []string {
	names := make([]string, 0, len(Functions))
	for n := range Functions {
		names = append(names, n)
	}
	sorted := make([]string, 0, len(names))
	for _, k := range stable.Order(len(names), func(i, j int) bool { return names[i] < names[j] }) {
		sorted = append(sorted, names[k])
	}
	return sorted
}

// Bridge holds what the functions share: the evaluators, loaded once, and the values held for
// later calls (see held).
type Bridge struct {
	registry *judge.Registry
	loadErr  error // returned by every call that needs the registry: a broken build, not bad input
	held     held
}

// New loads the evaluators from fsys (prompts.FS).
func New(fsys judge.PromptFiles) *Bridge {
	r, err := judge.Load(fsys)
	return &Bridge{registry: r, loadErr: err}
}

// Call runs function name with args (one per parameter, as Args describes; missing trailing
// arguments are "not given") and returns the wire text. It never panics: a panic in the core
// becomes an "internal" error, so that later calls still work.
func (b *Bridge) Call(name string, args []any) (out string) {
	defer b.recover(&name, &out)
	enc, err := b.call(nil, name, args)
	if err != nil {
		return wireError(err)
	}
	return bytesString(enc)
}

// MissWire is what CallWire returns when the arguments name a held value that is no longer held:
// not a result, but a request to send the call again with the values themselves.
const MissWire = `{"miss":true}`

// CallWire runs the call in buf (see DecodeArgs: the function's name, then its arguments), which
// the caller must not write again, and returns the wire text, or MissWire.
func (b *Bridge) CallWire(buf []byte) string {
	return bytesString(b.AppendCallWire(nil, buf))
}

// AppendCallWire is CallWire appending the wire text to dst: the wasm keeps one buffer for
// its results, so that a call's result (a prompt of kilobytes) is not a new allocation each
// time, in a runtime whose allocator and collector are what a call's time went to.
func (b *Bridge) AppendCallWire(dst, buf []byte) []byte {
	enc, text := b.callWire(dst, buf)
	if text != "" {
		return append(dst, text...)
	}
	return enc
}

// callWire is AppendCallWire's call: its result appended to dst, or a text that is the result
// instead (an error, MissWire).
func (b *Bridge) callWire(dst, buf []byte) (enc []byte, text string) {
	name := ""
	defer b.recover(&name, &text)
	args, miss, err := b.DecodeArgs(buf)
	if miss {
		return nil, MissWire
	}
	if err == nil && (len(args) == 0 || args[0] == nil) {
		err = errWire("no function name")
	}
	if err != nil {
		return nil, wireError(&diag.Error{Kind: "internal", Msg: err.Error()})
	}
	name, _ = args[0].(string)
	if enc, err = b.call(dst, name, args[1:]); err != nil {
		return nil, wireError(err)
	}
	return enc, ""
}

// bytesString is b as a string that shares its bytes: b is a result, not written again.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Tail is a result whose long text crosses unescaped after the JSON of the rest: Raw is the
// text; Field is the key it goes under in Head (an object without it), or "" when the text is
// the whole result (Head is then nil). When Append is set, the text is what it appends instead
// of Raw: written where it goes, once (rj.template's output), and an error it returns is the
// call's.
type Tail struct {
	Head   any
	Field  string
	Raw    string
	Append func(dst []byte) ([]byte, error)
}

// recover turns a panic into an internal error in *out. A panic would otherwise end the Go
// program and leave every later call failing; the page must survive a core bug to say so.
func (b *Bridge) recover(fn *string, out *string) {
	if p := recover(); p != nil {
		name := *fn
		// The stack goes to the console (stderr, which the wasm writes to the browser console,
		// through the runtime's own print: os and fmt are not linked); the page shows the message.
		stack := make([]byte, 64<<10)
		stack = stack[:runtime.Stack(stack, false)]
		print("ragjudge: " + name + " panicked: " + diag.Sprintf("%v", p) + "\n" + string(stack))
		*out = wireError(&diag.Error{Kind: "internal", Name: name,
			Msg: diag.Sprintf("internal error (please report it with the browser console's output): %v", p)})
	}
}

// call runs function name and appends its wire text to dst, or returns the error to send.
func (b *Bridge) call(dst []byte, name string, args []any) ([]byte, error) {
	f, ok := Functions[name]
	if !ok {
		return nil, &diag.Error{Kind: "internal", Name: name, Msg: "no such function"}
	}
	res, err := f.Fn(b, &Args{fn: name, params: f.Params, vals: args})
	if err != nil {
		return nil, err
	}
	t, isTail := res.(Tail)
	enc := dst
	if isTail {
		res = t.Head
		if cap(enc)-len(enc) < 256+len(t.Raw) {
			enc = append(make([]byte, 0, len(enc)+256+len(t.Raw)), enc...)
		}
		enc = append(enc, 'R')
	}
	enc, err = value.AppendMarshal(append(enc, `{"ok":`...), res)
	if err != nil {
		return nil, &diag.Error{Kind: "internal", Name: name, Msg: "cannot encode the result: " + err.Error()}
	}
	if !isTail {
		return append(enc, '}'), nil
	}
	// The JSON before the newline has none of its own: Marshal writes no whitespace and
	// escapes newlines in strings.
	enc = value.AppendString(append(enc, `,"raw":`...), t.Field)
	enc = append(append(enc, "}\n"...), t.Raw...)
	if t.Append != nil {
		return t.Append(enc)
	}
	return enc, nil
}

// Fail is the wire text of err, for an error found before Call (in converting the arguments).
func (b *Bridge) Fail(err error) string { return wireError(err) }

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
