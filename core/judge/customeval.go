package judge

import (
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// Define checks the definition v (CheckSpec) and, when it has no error, adds it to r as a custom
// evaluator, replacing one of the same id (which keeps its place in the list). The error is a
// *diag.Error of Kind "evaluator" with the first error's code, path and line:col in its
// template; its message counts the others.
func (r *Registry) Define(v any) (e *Evaluator, err error) {
	c := r.CheckSpec(v)
	if n := len(c.Errors); n > 0 {
		first := c.Errors[0]
		msg := first.Message
		if n > 1 {
			msg += " (and " + strconv.Itoa(n-1) + " more)"
		}
		return nil, &diag.Error{Kind: "evaluator", Code: first.Code, Name: getS(c.Spec, "id"), Path: first.Path, Line: first.Line, Col: first.Col, Msg: msg}
	}
	e = r.build(c)
	e.Order = customOrder
	if n := len(r.custom); n > 0 {
		e.Order = r.custom[n-1].Order + 1
	}
	k := 0
	for k < len(r.custom) && r.custom[k].ID != e.ID {
		k++
	}
	if k < len(r.custom) {
		e.Order = r.custom[k].Order
		r.custom[k] = e
	} else {
		r.custom = append(r.custom, e)
	}
	r.byID[e.ID] = e
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

// SpecOf returns evaluator id as a definition: a custom one's own, or a built-in's prompt,
// dialect, inputs, words and example with its reader (output kind builtin), under the id
// "<id>-copy", for a page to edit into a custom evaluator (the JS API normalises it).
func (r *Registry) SpecOf(id string) (*value.Object, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	if e.Custom {
		return e.Spec, nil
	}
	// As the listing's JSON, read back as values.
	enc, _ := value.Marshal(value.NewObject("id", e.ID+"-copy", "title", e.Title+" (copy)", "description", e.Description,
		"dialect", e.Dialect, "prompt", e.Prompt, "inputs", e.Inputs, "output", value.NewObject("kind", ReaderBuiltin, "evaluator", e.ID),
		"words", e.Words, "example", e.Example))
	v, _ := value.Decode(enc)
	return v.(*value.Object), nil
}

// build makes the evaluator of a definition CheckSpec found no error in.
//
// e and rd are filled on the stack and copied to the heap whole: in the wasm, each pointer field
// set on the heap costs a write barrier's code, and this function sets many.
func (r *Registry) build(c *SpecCheck) *Evaluator {
	s := c.Spec
	var e Evaluator
	e.ID, e.Title, e.Description = getS(s, "id"), getS(s, "title"), getS(s, "description")
	e.Dialect, e.Prompt, e.Custom, e.Spec = template.Dialect(getS(s, "dialect")), getS(s, "prompt"), true, s
	e.Words, e.Example.Inputs = Words{Passed: "Pass", Failed: "Fail"}, &value.Object{}
	for _, in := range inputsOf(s) {
		x := Input{Name: getS(in, "name"), Label: getS(in, "label"), Kind: getS(in, "kind"), Required: getB(in, "required"),
			Help: getS(in, "help"), Judged: getB(in, "judged")}
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
	e.View, e.Score = rd.kind, Score{Kind: ScoreBinary}
	switch rd.kind {
	case ReaderYesNo:
		yes := getS(out, "pass") == "yes"
		rd.words, rd.labels = yesNoRule, value.NewObject("yes", yes, "no", !yes)
		e.Output = `"yes" or "no"`
	case ReaderScore:
		e.Output = rd.label + ": <n>"
	case ReaderLabel:
		rd.words = newWordRule(rd.labels.Keys())
		e.Output = rd.words.any
	case ReaderJSON:
		for _, f := range []*Field{rd.pass, rd.score, rd.why} {
			if f != nil && !inStrings(rd.keys, topKey(f.Path)) {
				rd.keys = append(rd.keys, topKey(f.Path))
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
	if b := c.builtin; b != nil {
		e.Output, e.View, e.Score, e.Words, e.parse = b.Output, b.View, b.Score, b.Words, b.parse
	}
	if w := getO(s, "words"); w != nil {
		e.Words = Words{Passed: getS(w, "passed"), Failed: getS(w, "failed")}
	}
	e.vars = customVars(e.Inputs, c.builtin)
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
// a built-in's reader, the built-in reads its own inputs into its own variables first.
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
				de.Path = index("messages", k) + ".content"
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
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
