// Package judge holds ragjudge's built-in evaluators: for each, the inputs it takes, how its seed
// prompt is rendered from them, and how the judge's answer is read into a three-way verdict.
//
// Every evaluator renders its prompt into one user message. Parse never fails on a bad judge
// answer: that is a verdict with Passed == nil and an error check. It fails only when the
// evaluator id or the inputs are wrong, with a *diag.Error.
package judge

import (
	"io/fs"
	"sort"

	"ragjudge/core/diag"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// Input describes one input of an evaluator, enough for a page to build a form from it.
type Input struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"` // "text", "list" (of strings), "claims", "evidence", "choice", "number"
	Required bool     `json:"required"`
	Choices  []string `json:"choices,omitempty"` // for kind "choice"; the first is the default
	Help     string   `json:"help,omitempty"`
}

// Evaluator is one built-in judge.
type Evaluator struct {
	ID          string           `json:"id"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Dialect     template.Dialect `json:"dialect"`
	Inputs      []Input          `json:"inputs"`
	Output      string           `json:"output"` // what the judge writes, in words
	Prompt      string           `json:"-"`      // the seed prompt, from prompts/<id>.md

	// vars turns validated inputs into the template's variables and any render warnings.
	vars func(in *value.Object) (*value.Object, []string, error)
	// parse reads the judge's answer.
	parse func(in *value.Object, answer string) *Verdict
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Rendered is a rendered prompt.
type Rendered struct {
	Prompt   string          `json:"prompt"`
	Messages []Message       `json:"messages"`
	Warnings []string        `json:"warnings"`
	Spans    []template.Span `json:"spans"` // where each substitution landed in Prompt (byte offsets)
}

// Verdict is what a judge's answer says. Passed and Score are nil when undetermined, and then
// Checks holds at least one error saying why.
type Verdict struct {
	Passed  *bool        `json:"passed"`
	Score   *float64     `json:"score"`
	Verdict any          `json:"verdict"` // evaluator-specific detail, JSON-marshalable
	Checks  []diag.Check `json:"checks"`
}

// Registry holds the built-in evaluators with their prompts.
type Registry struct {
	byID  map[string]*Evaluator
	order []*Evaluator
}

// builtins lists the evaluators in the order pages show them; each file of this package adds its
// own in an init function.
var builtins []*Evaluator

// Load reads each built-in evaluator's prompt from fsys (file "<id>.md") and returns the registry.
func Load(fsys fs.FS) (*Registry, error) {
	r := &Registry{byID: map[string]*Evaluator{}}
	list := append([]*Evaluator(nil), builtins...)
	sort.SliceStable(list, func(i, j int) bool { return rank(list[i].ID) < rank(list[j].ID) })
	for _, b := range list {
		src, err := fs.ReadFile(fsys, b.ID+".md")
		if err != nil {
			return nil, &diag.Error{Kind: "input", Name: b.ID, Msg: "no prompt: " + err.Error()}
		}
		e := *b
		e.Prompt = string(src)
		r.byID[e.ID] = &e
		r.order = append(r.order, &e)
	}
	return r, nil
}

func rank(id string) int {
	for i, s := range []string{"claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall"} {
		if s == id {
			return i
		}
	}
	return 100
}

// Evaluators returns the evaluators in display order.
func (r *Registry) Evaluators() []*Evaluator { return r.order }

// Get returns the evaluator with the given id.
func (r *Registry) Get(id string) (*Evaluator, error) {
	e, ok := r.byID[id]
	if !ok {
		return nil, &diag.Error{Kind: "input", Name: id, Msg: "unknown evaluator " + quote(id)}
	}
	return e, nil
}

// Render renders evaluator id's prompt from inputs.
func (r *Registry) Render(id string, inputs *value.Object) (*Rendered, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	vars, warnings, err := e.vars(inputs)
	if err != nil {
		return nil, err
	}
	prompt, spans, err := template.RenderSpans(e.ID, e.Prompt, e.Dialect, vars)
	if err != nil {
		return nil, err
	}
	if warnings == nil {
		warnings = []string{}
	}
	if spans == nil {
		spans = []template.Span{}
	}
	return &Rendered{
		Prompt:   prompt,
		Messages: []Message{{Role: "user", Content: prompt}},
		Warnings: warnings,
		Spans:    spans,
	}, nil
}

// Parse reads the judge's answer to evaluator id's prompt rendered from inputs.
func (r *Registry) Parse(id string, inputs *value.Object, answer string) (*Verdict, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	// The inputs must be the same that render accepts: a verdict on inputs that cannot be
	// rendered would be a verdict on nothing.
	if _, _, err := e.vars(inputs); err != nil {
		return nil, err
	}
	v := e.parse(inputs, answer)
	if v.Checks == nil {
		v.Checks = []diag.Check{}
	}
	return v, nil
}

func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
