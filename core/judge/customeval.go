package judge

import (
	"math"
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// readerKinds are the kinds of a custom evaluator's output.
var readerKinds = []string{ReaderYesNo, ReaderScore, ReaderLabel, ReaderJSON, ReaderBuiltin}

// Define adds v, a custom evaluator's definition as the JS API checked and normalised it (web/
// evaluatorspec.js checks it against its schema and fills in the defaults; the core's
// template.Reads checks its templates), to r, replacing one of the same id (which keeps its
// place in the list). It checks what the registry relies on: the fields it reads, an id that is
// not a built-in's, a known reader (and a built-in one's evaluator); it never panics on any
// value. The error is a *diag.Error of Kind "evaluator" with a code and the path of the field.
// A template that does not parse fails at render, as any template does.
//
// unread names the inputs no template reads (the JS API's check finds them): each is taken as
// optional whatever the definition says, so that an input kept for a later edit of the prompt
// never holds up a render, a form or a dataset's mapping with a value nothing uses. A built-in
// reader's own inputs stay as declared: its reader reads them.
func (r *Registry) Define(v any, unread ...string) (*Evaluator, error) {
	s, _ := v.(*value.Object)
	id, out, d := getS(s, "id"), getO(s, "output"), getS(s, "dialect")
	kind := getS(out, "kind")
	_, isList := get(s, "inputs").([]any)
	old, b := r.byID[id], r.byID[getS(out, "evaluator")]
	var code diag.Code
	path, msg := "id", ""
	switch {
	case out == nil || !isList || d != "jinja" && d != "format" || !inStrings(readerKinds, kind):
		code, path, msg = diag.EvaluatorBadSpec, "", "not a checked definition: it needs id, dialect, inputs and output of a known kind (rj.checkEvaluator says what is wrong)"
	case !isID(id):
		code, msg = diag.EvaluatorBadID, "id "+quote(id)+" must be lower-case letters, digits and '-' only"
	case old != nil && !old.Custom:
		code, msg = diag.EvaluatorBuiltinID, "id "+quote(id)+" is a built-in evaluator's: choose another"
	case kind == ReaderBuiltin && (b == nil || b.Custom):
		code, path, msg = diag.EvaluatorUnknownBuiltin, "output.evaluator", quote(getS(out, "evaluator"))+" is not a built-in evaluator"
	}
	if code != "" {
		return nil, &diag.Error{Kind: "evaluator", Code: code, Name: id, Path: path, Msg: msg}
	}
	if kind != ReaderBuiltin {
		b = nil
	}
	e := build(s, b, unread)
	r.byID[id] = e
	for k, x := range r.custom {
		if x == old {
			e.Order, r.custom[k] = x.Order, e
			return e, nil
		}
	}
	r.defined++
	e.Order = customOrder + r.defined
	r.custom = append(r.custom, e)
	return e, nil
}

// Undefine removes the custom evaluator id; false when there is none (a built-in stays).
func (r *Registry) Undefine(id string) bool {
	for k, e := range r.custom {
		if e.ID == id {
			delete(r.byID, id)
			r.custom = append(r.custom[:k:k], r.custom[k+1:]...)
			return true
		}
	}
	return false
}

// SpecOf returns a custom evaluator's definition, or {prompt} for a built-in: its seed prompt,
// which the JS API puts together with the built-in's listing into a definition to edit (rj.spec).
func (r *Registry) SpecOf(id string) (*value.Object, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	if e.Custom {
		return e.Spec, nil
	}
	return value.NewObject("prompt", e.Prompt), nil
}

// build makes the evaluator of a definition Define accepted; b is the built-in whose reader
// it uses, or nil; unread are the inputs no template reads, made optional (Define).
//
// e and rd are filled on the stack and copied to the heap whole: in the wasm, each pointer field
// set on the heap costs a write barrier's code, and this function sets many.
func build(s *value.Object, b *Evaluator, unread []string) *Evaluator {
	var e Evaluator
	e.ID, e.Title, e.Description = getS(s, "id"), getS(s, "title"), getS(s, "description")
	e.Dialect, e.Prompt, e.Custom, e.Spec = template.Dialect(getS(s, "dialect")), getS(s, "prompt"), true, s
	e.Words, e.Example.Inputs = Words{Passed: "Pass", Failed: "Fail"}, &value.Object{}
	for _, in := range inputsOf(s) {
		x := Input{Name: getS(in, "name"), Label: getS(in, "label"), Kind: getS(in, "kind"), Required: getB(in, "required"),
			Help: getS(in, "help"), Judged: getB(in, "judged")}
		if inStrings(unread, x.Name) && (b == nil || !hasInput(b.Inputs, x.Name)) {
			x.Required = false
		}
		if b != nil {
			// The built-in reader's input is read as the built-in's prompt reads it (claims as reports).
			for _, bi := range b.Inputs {
				if bi.Name == x.Name {
					x.Variable = bi.Variable
				}
			}
		}
		list, _ := get(in, "choices").([]any)
		for _, ch := range list {
			cs, _ := ch.(string)
			x.Choices = append(x.Choices, cs)
		}
		e.Inputs = append(e.Inputs, x)
	}
	list, _ := get(s, "messages").([]any)
	for _, m := range list {
		mo, _ := m.(*value.Object)
		e.messages = append(e.messages, Message{Role: getS(mo, "role"), Content: getS(mo, "content")})
	}
	if x := getO(s, "example"); x != nil {
		e.Example.Answer = getS(x, "answer")
		if in := getO(x, "inputs"); in != nil {
			e.Example.Inputs = in
		}
	}
	out := getO(s, "output")
	var rd reader
	rd.id, rd.kind, rd.label, rd.labels = e.ID, getS(out, "kind"), strings.TrimSpace(getS(out, "label")), getO(out, "labels")
	rd.pass, rd.score, rd.why = fieldOf(out, "pass"), fieldOf(out, "score"), fieldOf(out, "reason")
	rd.lo, _ = getN(out, "min")
	rd.hi, rd.hasRange = getN(out, "max")
	rd.passAt, rd.hasAt = getN(out, "pass_at")
	rd.passValues, _ = get(out, "pass_values").([]any)
	rd.failValues, _ = get(out, "fail_values").([]any)
	e.View, e.Score = rd.kind, Score{Kind: ScoreBinary}
	switch rd.kind {
	case ReaderYesNo:
		yes := getS(out, "pass") == "yes"
		rd.words, rd.labels = yesNoRule, value.NewObject("yes", yes, "no", !yes)
		rd.classes = labelWords(rd.labels)
		e.Output = `"yes" or "no"`
	case ReaderScore:
		if rd.label == "" {
			rd.label = "Score" // the schema's default, for a definition the JS API did not normalise
		}
		e.Output = rd.label + ": <n>"
	case ReaderLabel:
		rd.words = newWordRule(rd.labels.Keys())
		rd.classes = labelWords(rd.labels)
		e.Output = rd.words.any
	case ReaderJSON:
		for _, f := range []*Field{rd.pass, rd.score, rd.why} {
			if f != nil && !inStrings(rd.keys, topKey(f.Path)) {
				rd.keys = append(rd.keys, topKey(f.Path))
			}
		}
		if rd.pass != nil {
			rd.classes, rd.classless = jsonWords(rd.passValues, rd.failValues)
			if rd.failValues == nil {
				rd.failValues = otherBoolean(rd.passValues)
			}
		}
		e.Output = "a JSON object"
		e.Score = Score{Kind: ScoreNumber, Decimals: 2}
	}
	if rd.hasRange {
		e.Score = Score{Kind: ScoreScale, Max: rd.hi, Decimals: 2}
	}
	heap := new(reader)
	*heap = rd
	e.parse = heap.parse
	if b != nil {
		e.Output, e.View, e.Score, e.Words, e.parse, e.noConfidence = b.Output, b.View, b.Score, b.Words, b.parse, b.noConfidence
	}
	if w := getO(s, "words"); w != nil {
		e.Words = Words{Passed: getS(w, "passed"), Failed: getS(w, "failed")}
	}
	e.vars = customVars(e.Inputs, b)
	ep := new(Evaluator)
	*ep = e
	return ep
}

func inStrings(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// customVars turns a custom evaluator's inputs into its template's variables: a text input is
// a string, a list input a list of strings (a text given for it is a list of that one text).
// A required input missing is an error, a required list empty an error check (Render refuses
// it, as the built-ins refuse theirs); an optional input not given is "" or an empty list. With
// a built-in's reader, the built-in reads its own inputs into its own variables first, and those
// of its inputs it makes no variable of are variables as given.
func customVars(inputs []Input, b *Evaluator) func(in *value.Object) (*value.Object, []diag.Check, error) {
	return func(in *value.Object) (*value.Object, []diag.Check, error) {
		vars := &value.Object{}
		var checks []diag.Check
		if b != nil {
			bv, bc, err := b.vars(in)
			if err != nil {
				return nil, nil, err
			}
			vars, checks = bv, bc
			// The built-in's inputs its reader does not make a variable of (claims, of which it
			// makes reports; rag-recall's threshold) are variables too, as given (null when an
			// optional one is not): a template the check passed never fails on one at render.
			for _, decl := range inputs {
				if _, made := vars.Get(decl.Name); !made && hasInput(b.Inputs, decl.Name) {
					v, _ := in.Get(decl.Name)
					vars.Set(decl.Name, v)
				}
			}
		}
		for _, decl := range inputs {
			if b != nil && hasInput(b.Inputs, decl.Name) {
				continue
			}
			v, _ := in.Get(decl.Name)
			list, isList := v.([]any)
			text, isText := v.(string)
			var code diag.Code
			msg := "want a text, got " + value.TypeName(v)
			switch {
			case v == nil && decl.Required:
				code, msg = diag.InputMissing, "is required"
			case decl.Kind == "text" && v == nil:
			case decl.Kind == "text" && !isText:
				code = diag.InputWrongType
			case decl.Kind == "text" && decl.Required && strings.TrimSpace(text) == "":
				code, msg = diag.InputBlank, "is empty: give a text"
			case decl.Kind == "text":
			case isText:
				list = []any{text}
			case v != nil && !isList:
				code, msg = diag.InputWrongType, "want a list of texts, got "+value.TypeName(v)
			default:
				for k, item := range list {
					if !isString(item) && code == "" {
						code, msg = diag.InputBadItem, "item "+strconv.Itoa(k+1)+": "+msg[:len("want a text, got ")]+value.TypeName(item)
					}
				}
				if len(list) == 0 && decl.Required {
					checks = append(checks, emptyList(decl.Name, "give at least one item"))
				}
			}
			if code != "" {
				return nil, nil, &diag.Error{Kind: "input", Code: code, Name: decl.Name, Msg: msg}
			}
			if decl.Kind == "text" {
				vars.Set(decl.Name, text)
			} else {
				vars.Set(decl.Name, append([]any{}, list...))
			}
		}
		return vars, checks, nil
	}
}

// renderMessages renders each of a custom evaluator's message templates. The Rendered's Prompt
// (and its Spans) is the last user message, the one a judge answers.
func (e *Evaluator) renderMessages(vars *value.Object) (*Rendered, error) {
	out := &Rendered{Messages: make([]Message, len(e.messages)), Warnings: []string{}, Checks: []diag.Check{}, Spans: []template.Span{}}
	main := len(e.messages) - 1
	for k, m := range e.messages {
		if m.Role == "user" {
			main = k
		}
	}
	for k, m := range e.messages {
		text, spans, err := template.RenderSpans(e.ID, m.Content, e.Dialect, vars)
		if err != nil {
			if de, ok := err.(*diag.Error); ok {
				de.Path = "messages[" + strconv.Itoa(k) + "].content"
			}
			return nil, err
		}
		out.Messages[k] = Message{Role: m.Role, Content: text}
		if k == main {
			out.Prompt = text
			if spans != nil {
				out.Spans = spans
			}
		}
	}
	return out, nil
}

// formatNumber prints f as a person writes it: 5, 4.5.
func formatNumber(f float64) string {
	switch {
	case math.IsInf(f, 0):
		return "infinity" // a score of more digits than a float holds ("Score: 999…9")
	case math.Abs(f) >= 1e21:
		return strconv.FormatFloat(f, 'g', -1, 64) // 1e+308, not 309 digits
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
