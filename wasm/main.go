//go:build js && wasm

// Command wasm is ragjudge's WebAssembly bridge. It exposes the core to JavaScript as
// globalThis.__ragjudge, an object of synchronous functions that web/ragjudge.js wraps into the
// public JS API; nothing else should call it directly.
//
// Wire format: every function takes its arguments as plain JS values (converted by fromJS with
// JSON's rules); text arguments (ids, judge answers, template sources, datasets) must be
// strings. It returns one JSON text, {"ok": result} or {"error": {kind, name, line, col,
// message}}, except that the results that are mostly text (template, render) come back as a JS
// object {ok: result} built directly (see jsResult). Objects keep their key order and integers stay integers both ways, and this
// file stays a list of thin adapters: check the arguments, call one
// core function, return plain data. Go never calls back into async JS or the network.
package main

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"syscall/js"
	"unicode/utf8"

	"ragjudge/core/dataset"
	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/recall"
	"ragjudge/core/template"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

// registry is loaded once at start; loadErr is returned by every call that needs it when the
// embedded prompts could not be read (a broken build, not bad input).
var (
	registry *judge.Registry
	loadErr  error
)

// adapters are the exported functions, by JS name.
var adapters = map[string]func(a *args) (any, error){
	"evaluators":  evaluators,
	"render":      render,
	"parse":       parse,
	"template":    renderTemplate,
	"readDataset": readDataset,
	"recall":      computeRecall,
	"passages":    passages,
	"mapColumns":  mapColumns,
	"rowInputs":   rowInputs,
}

func main() {
	registry, loadErr = judge.Load(prompts.FS)
	api := js.Global().Get("Object").New()
	api.Set("version", judge.Version)
	for name, fn := range adapters {
		api.Set(name, js.FuncOf(export(name, fn)))
	}
	js.Global().Set("__ragjudge", api)
	select {} // keep the functions callable
}

// export wraps an adapter into a js.Func body that speaks the wire format.
func export(name string, fn func(a *args) (any, error)) func(js.Value, []js.Value) any {
	return func(_ js.Value, raw []js.Value) (out any) {
		// A panic would end the Go program and leave every later call failing with "Go program
		// has already exited"; the page must survive a core bug long enough to say so.
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(os.Stderr, "ragjudge: %s panicked: %v\n%s", name, p, debug.Stack()) // the console
				out = wireError(&diag.Error{Kind: "internal", Name: name,
					Msg: fmt.Sprintf("internal error (please report it with the browser console's output): %v", p)})
			}
		}()
		res, err := fn(&args{fn: name, raw: raw})
		if err != nil {
			return wireError(err)
		}
		if r, ok := res.(jsResult); ok {
			return jsObj("ok", r.toJS())
		}
		b, err := value.Marshal(res)
		if err != nil {
			return wireError(&diag.Error{Kind: "internal", Name: name, Msg: "cannot encode the result: " + err.Error()})
		}
		return `{"ok":` + string(b) + "}"
	}
}

// text is a result that is one string, handed to JS as a string rather than as JSON.
type text string

func (t text) toJS() js.Value { return js.ValueOf(string(t)) }

// jsResult is a result that builds its JS value itself rather than going through JSON: one
// that holds megabytes of text (a rendered prompt), where encoding, copying and parsing the JSON
// would cost more than the work that made it.
type jsResult interface{ toJS() js.Value }

var jsObject = js.Global().Get("Object")

// wireError encodes err as {"error": {...}}; errors that are not *diag.Error carry no position.
func wireError(err error) string {
	d, ok := err.(*diag.Error)
	if !ok {
		d = &diag.Error{Kind: "internal", Msg: err.Error()}
	}
	b, _ := value.Marshal(d)
	return `{"error":` + string(b) + "}"
}

// args reads the JSON-encoded arguments of one call.
type args struct {
	fn  string
	raw []js.Value
}

// get converts argument i; ok is false when it was omitted (undefined).
func (a *args) get(i int, name string) (v any, ok bool, err error) {
	if i >= len(a.raw) || a.raw[i].IsUndefined() {
		return nil, false, nil
	}
	v, err = a.fromJS(a.raw[i], name, 0)
	return v, err == nil, err
}

// maxDepth caps the nesting of a data argument, as value.Decode caps JSON's; a deeper value is
// most likely one that contains itself.
const maxDepth = 1000

var (
	jsIsArray    = js.Global().Get("Array").Get("isArray")
	jsObjectKeys = js.Global().Get("Object").Get("keys")
)

// fromJS converts a JS value into the value package's representation by JSON.stringify's rules
// (own enumerable keys in their order, toJSON honoured, undefined properties left out, integral
// numbers as int64), but without a JSON text in between: decoding megabytes of JSON in the wasm
// cost ten times more than reading the strings themselves. Unlike JSON.stringify it refuses what
// JSON would silently change: NaN, infinities, functions, symbols and BigInts. path names the
// value in errors ("inputs.evidence[2].text").
func (a *args) fromJS(v js.Value, path string, depth int) (any, error) {
	if depth > maxDepth {
		return nil, a.errorf("%s is circular or nested deeper than %d levels", path, maxDepth)
	}
	t, ok := jsType(v)
	if !ok {
		return nil, a.errorf("%s holds a bigint, which is not JSON data", path)
	}
	switch t {
	case js.TypeUndefined, js.TypeNull:
		return nil, nil
	case js.TypeBoolean:
		return v.Bool(), nil
	case js.TypeNumber:
		f := v.Float()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return nil, a.errorf("%s holds %s, which is not a finite number", path, js.Global().Call("String", v).String())
		case f == math.Trunc(f) && math.Abs(f) < 1<<63:
			return int64(f), nil
		}
		return f, nil
	case js.TypeString:
		return v.String(), nil
	case js.TypeObject:
		if toJSON := v.Get("toJSON"); toJSON.Type() == js.TypeFunction {
			return a.fromJS(v.Call("toJSON"), path, depth+1)
		}
		if jsIsArray.Invoke(v).Bool() {
			n := v.Length()
			list := make([]any, n)
			for k := 0; k < n; k++ {
				x, err := a.fromJS(v.Index(k), path+"["+strconv.Itoa(k)+"]", depth+1)
				if err != nil {
					return nil, err
				}
				list[k] = x
			}
			return list, nil
		}
		keys := jsObjectKeys.Invoke(v)
		n := keys.Length()
		o := &value.Object{}
		for k := 0; k < n; k++ {
			key := keys.Index(k).String()
			x := v.Get(key)
			if x.IsUndefined() {
				continue
			}
			val, err := a.fromJS(x, path+"."+key, depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(key, val)
		}
		return o, nil
	}
	return nil, a.errorf("%s holds a %s, which is not JSON data", path, t)
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

func (a *args) errorf(format string, v ...any) error {
	return &diag.Error{Kind: "input", Name: a.fn, Msg: fmt.Sprintf(format, v...)}
}

// str reads a required text argument. Text arguments arrive as plain JS strings, not JSON:
// a judge answer or a dataset can be megabytes, and decoding them as JSON would cost several
// times more than the string itself (ragjudge.js checks their type before the call).
func (a *args) str(i int, name string) (string, error) {
	s, ok, err := a.text(i, name)
	if err == nil && !ok {
		err = a.errorf("%s is required (a string)", name)
	}
	return s, err
}

// optStr reads an optional text argument; null and undefined give def.
func (a *args) optStr(i int, name, def string) (string, error) {
	s, ok, err := a.text(i, name)
	if err != nil || !ok {
		return def, err
	}
	return s, nil
}

func (a *args) text(i int, name string) (s string, ok bool, err error) {
	if i >= len(a.raw) {
		return "", false, nil
	}
	switch a.raw[i].Type() {
	case js.TypeString:
		return a.raw[i].String(), true, nil
	case js.TypeUndefined, js.TypeNull:
		return "", false, nil
	}
	return "", false, a.errorf("%s must be a string, got %s", name, a.raw[i].Type())
}

// obj reads an object argument; when optional, null and undefined give an empty object.
func (a *args) obj(i int, name string, optional bool) (*value.Object, error) {
	v, ok, err := a.get(i, name)
	if err != nil {
		return nil, err
	}
	if optional && (!ok || v == nil) {
		return &value.Object{}, nil
	}
	if !ok {
		return nil, a.errorf("%s is required (an object)", name)
	}
	o, isObj := v.(*value.Object)
	if !isObj {
		return nil, a.errorf("%s must be an object, got %s", name, value.TypeName(v))
	}
	return o, nil
}

// strList reads a required list of strings.
func (a *args) strList(i int, name string) ([]string, error) {
	v, ok, err := a.get(i, name)
	if err != nil {
		return nil, err
	}
	list, isList := v.([]any)
	if !ok || !isList {
		return nil, a.errorf("%s must be a list of strings, got %s", name, value.TypeName(v))
	}
	out := make([]string, len(list))
	for k, item := range list {
		s, isStr := item.(string)
		if !isStr {
			return nil, a.errorf("%s[%d] must be a string, got %s", name, k, value.TypeName(item))
		}
		out[k] = s
	}
	return out, nil
}

func evaluators(a *args) (any, error) {
	if loadErr != nil {
		return nil, loadErr
	}
	return nonNil(registry.Evaluators()), nil
}

// renderedJS is judge.Rendered with span offsets in UTF-16 code units, so that JS can slice the
// prompt with them directly.
type renderedJS struct {
	Prompt   string          `json:"prompt"`
	Messages []judge.Message `json:"messages"`
	Warnings []string        `json:"warnings"`
	Checks   []diag.Check    `json:"checks"`
	Spans    []spanJS        `json:"spans"`
}

// toJS builds the result in JS directly, with the prompt copied once: the user message that
// holds the prompt shares its JS string.
func (r renderedJS) toJS() js.Value {
	prompt := js.ValueOf(r.Prompt)
	messages := make([]any, len(r.Messages))
	for k, m := range r.Messages {
		content := prompt
		if m.Content != r.Prompt {
			content = js.ValueOf(m.Content)
		}
		messages[k] = jsObj("role", m.Role, "content", content)
	}
	warnings := make([]any, len(r.Warnings))
	for k, w := range r.Warnings {
		warnings[k] = w
	}
	checks := make([]any, len(r.Checks))
	for k, c := range r.Checks {
		checks[k] = checkJS(c)
	}
	spans := make([]any, len(r.Spans))
	for k, sp := range r.Spans {
		spans[k] = jsObj("expr", sp.Expr, "start", sp.Start, "end", sp.End)
	}
	return jsObj("prompt", prompt, "messages", messages, "warnings", warnings, "checks", checks, "spans", spans)
}

// checkJS builds a check as its JSON encoding reads: the empty optional fields left out.
func checkJS(c diag.Check) js.Value {
	o := jsObj("severity", c.Severity, "code", string(c.Code), "message", c.Message)
	if c.Input != "" {
		o.Set("input", c.Input)
	}
	if c.Line != 0 {
		o.Set("line", c.Line)
	}
	if c.Col != 0 {
		o.Set("col", c.Col)
	}
	if c.Len != 0 {
		o.Set("len", c.Len)
	}
	return o
}

// jsObj builds a JS object from key, value pairs in order (js.ValueOf of a Go map would not
// keep any order).
func jsObj(kv ...any) js.Value {
	o := jsObject.New()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

type spanJS struct {
	Expr  string `json:"expr"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

func render(a *args) (any, error) {
	if loadErr != nil {
		return nil, loadErr
	}
	id, err := a.str(0, "id")
	if err != nil {
		return nil, err
	}
	inputs, err := a.obj(1, "inputs", false)
	if err != nil {
		return nil, err
	}
	r, err := registry.Render(id, inputs)
	if err != nil {
		return nil, err
	}
	offs := make([]int, 0, 2*len(r.Spans))
	for _, s := range r.Spans {
		offs = append(offs, s.Start, s.End)
	}
	units := utf16Offsets(r.Prompt, offs)
	spans := make([]spanJS, len(r.Spans))
	for k, s := range r.Spans {
		spans[k] = spanJS{Expr: s.Expr, Start: units[2*k], End: units[2*k+1]}
	}
	return renderedJS{Prompt: r.Prompt, Messages: r.Messages, Warnings: nonNil(r.Warnings), Checks: nonNil(r.Checks), Spans: spans}, nil
}

// utf16Offsets converts byte offsets into s to UTF-16 code unit offsets, in one pass over s.
func utf16Offsets(s string, offs []int) []int {
	order := make([]int, len(offs))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(x, y int) bool { return offs[order[x]] < offs[order[y]] })
	out := make([]int, len(offs))
	b, u := 0, 0
	for _, k := range order {
		target := min(max(offs[k], 0), len(s))
		for b < target {
			r, size := utf8.DecodeRuneInString(s[b:])
			if r >= 0x10000 {
				u += 2
			} else {
				u++
			}
			b += size
		}
		out[k] = u
	}
	return out
}

func parse(a *args) (any, error) {
	if loadErr != nil {
		return nil, loadErr
	}
	id, err := a.str(0, "id")
	if err != nil {
		return nil, err
	}
	inputs, err := a.obj(1, "inputs", false)
	if err != nil {
		return nil, err
	}
	output, err := a.str(2, "output")
	if err != nil {
		return nil, err
	}
	return registry.Parse(id, inputs, output)
}

func renderTemplate(a *args) (any, error) {
	src, err := a.str(0, "source")
	if err != nil {
		return nil, err
	}
	dialect, err := a.str(1, "dialect")
	if err != nil {
		return nil, err
	}
	if d := template.Dialect(dialect); d != template.Jinja && d != template.Format {
		return nil, a.errorf("unknown dialect %q: want %q or %q", dialect, template.Jinja, template.Format)
	}
	vars, err := a.obj(2, "vars", true)
	if err != nil {
		return nil, err
	}
	out, err := template.Render("<template>", src, template.Dialect(dialect), vars)
	if err != nil {
		return nil, err
	}
	return text(out), nil
}

func computeRecall(a *args) (any, error) {
	in, err := a.obj(0, "scores", false)
	if err != nil {
		return nil, err
	}
	for _, k := range in.Keys() {
		if k != recall.Essential && k != recall.Bonus {
			return nil, a.errorf("scores has an unknown key %q: want %q and %q", k, recall.Essential, recall.Bonus)
		}
	}
	essential, err := a.scores(in, recall.Essential)
	if err != nil {
		return nil, err
	}
	bonus, err := a.scores(in, recall.Bonus)
	if err != nil {
		return nil, err
	}
	r, err := recall.Compute(essential, bonus)
	if err != nil {
		return nil, err
	}
	return r.Summary(), nil
}

// scores reads the list of scores at key kind of in: numbers, or strings as judges write them
// ("3.5", "4/5"). A missing or null list is empty (Compute says when that is wrong).
func (a *args) scores(in *value.Object, kind string) ([]*big.Rat, error) {
	v, _ := in.Get(kind)
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("%s must be a list of scores, got %s", kind, value.TypeName(v))
	}
	out := make([]*big.Rat, len(list))
	for k, item := range list {
		var text string
		switch x := item.(type) {
		case int64:
			out[k] = new(big.Rat).SetInt64(x)
			continue
		case float64:
			// The shortest decimal that reads back as x is what the caller wrote (0.1, not
			// 0.1000000000000000055…).
			text = strconv.FormatFloat(x, 'f', -1, 64)
		case string:
			text = x
		default:
			return nil, a.errorf("%s score %d must be a number or a numeric string, got %s", kind, k+1, value.TypeName(item))
		}
		r, err := recall.ParseScore(text)
		if err != nil {
			if d, ok := err.(*diag.Error); ok {
				e := *d
				e.Msg = fmt.Sprintf("%s score %d: %s", kind, k+1, d.Msg)
				return nil, &e
			}
			return nil, err
		}
		out[k] = r
	}
	return out, nil
}

func passages(a *args) (any, error) {
	gt, err := a.str(0, "passage_gt")
	if err != nil {
		return nil, err
	}
	essential, bonus := recall.Passages(gt)
	return struct {
		Essential []string `json:"essential"`
		Bonus     []string `json:"bonus"`
	}{nonNil(essential), nonNil(bonus)}, nil
}

// tableJS is a dataset.Table with empty lists rather than null, and with Paths: the columns
// and the dotted paths into object columns ("vars.question") that a mapping may name.
type tableJS struct {
	Format    string             `json:"format"`
	Delimiter string             `json:"delimiter,omitempty"`
	Columns   []string           `json:"columns"`
	Paths     []string           `json:"paths"`
	Rows      []*value.Object    `json:"rows"`
	Errors    []dataset.RowError `json:"errors"`
	Warnings  []dataset.RowError `json:"warnings"`
}

func readDataset(a *args) (any, error) {
	text, err := a.str(0, "text")
	if err != nil {
		return nil, err
	}
	format, err := a.optStr(1, "format", "")
	if err != nil {
		return nil, err
	}
	t, err := dataset.Read(text, format)
	if err != nil {
		return nil, err
	}
	return tableJS{Format: t.Format, Delimiter: t.Delimiter, Columns: nonNil(t.Columns), Paths: nonNil(t.Paths()), Rows: nonNil(t.Rows),
		Errors: nonNil(t.Errors), Warnings: nonNil(t.Warnings)}, nil
}

func mapColumns(a *args) (any, error) {
	e, err := a.evaluator(0)
	if err != nil {
		return nil, err
	}
	columns, err := a.strList(1, "columns")
	if err != nil {
		return nil, err
	}
	matches := dataset.DetectMatches(columns, e.Inputs)
	// In the evaluator's input order, not Go's sorted map order, so a page lists it as the form.
	mapping := &value.Object{}
	for _, mt := range matches {
		mapping.Set(mt.Input, mt.Column)
	}
	return struct {
		Mapping *value.Object   `json:"mapping"`
		Matches []dataset.Match `json:"matches"`
	}{mapping, matches}, nil
}

func rowInputs(a *args) (any, error) {
	e, err := a.evaluator(0)
	if err != nil {
		return nil, err
	}
	row, err := a.obj(1, "row", false)
	if err != nil {
		return nil, err
	}
	mo, err := a.obj(2, "mapping", false)
	if err != nil {
		return nil, err
	}
	m := dataset.Mapping{}
	for _, k := range mo.Keys() {
		v, _ := mo.Get(k)
		c, ok := v.(string)
		if !ok && v != nil {
			return nil, a.errorf("mapping[%q] must be a column name (a string), got %s", k, value.TypeName(v))
		}
		m[k] = c
	}
	inputs, checks := dataset.RowInputs(row, m, e.Inputs)
	messages := make([]string, len(checks))
	for i, c := range checks {
		messages[i] = c.Message
	}
	return struct {
		Inputs   *value.Object `json:"inputs"`
		Checks   []diag.Check  `json:"checks"`
		Messages []string      `json:"messages"`
	}{inputs, nonNil(checks), messages}, nil
}

// evaluator reads argument i as an evaluator id.
func (a *args) evaluator(i int) (*judge.Evaluator, error) {
	if loadErr != nil {
		return nil, loadErr
	}
	id, err := a.str(i, "id")
	if err != nil {
		return nil, err
	}
	return registry.Get(id)
}

// nonNil makes a nil slice an empty one, so JS sees [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
