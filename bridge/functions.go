package bridge

import (
	"ragjudge/core/dataset"
	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/recall"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// The functions: each checks its arguments, calls the core and returns plain data.

func evaluators(b *Bridge, _ *Args) (any, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
	}
	return nonNil(b.registry.Evaluators()), nil
}

// rendered is judge.Rendered with span offsets in UTF-16 code units, so that JS can slice the
// prompt with them directly, and without the prompt: it crosses after the JSON, unescaped (a
// Tail), and ragjudge.js puts it back, also as the content of a message that is the prompt
// itself (left out here: escaping the prompt as JSON was a third of render's time in the wasm,
// and a prompt is often megabytes).
type rendered struct {
	Messages []message    `json:"messages"`
	Warnings []string     `json:"warnings"`
	Checks   []diag.Check `json:"checks"`
	Spans    []span       `json:"spans"`
}

// message is a judge.Message whose content, when it is the prompt, is left out (nil).
type message struct {
	Role    string    `json:"role"`
	Content *string   `json:"content,omitempty"`
	_       [0]func() // not comparable: no equality function in the wasm
}

type span struct {
	Expr  string    `json:"expr"`
	Input string    `json:"input"` // the input the text comes from, "" for none (loop.index)
	Start int       `json:"start"`
	End   int       `json:"end"`
	_     [0]func() // not comparable: no equality function in the wasm
}

func render(b *Bridge, a *Args) (any, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
	}
	id, err := a.str(0, "id")
	if err != nil {
		return nil, err
	}
	inputs, err := a.obj(1, "inputs", false)
	if err != nil {
		return nil, err
	}
	p, err := b.prepare(id, inputs)
	if err != nil {
		return nil, err
	}
	r, err := p.Render()
	if err != nil {
		return nil, err
	}
	offs := make([]int, 0, 2*len(r.Spans))
	for _, s := range r.Spans {
		offs = append(offs, s.Start, s.End)
	}
	units := UTF16Offsets(r.Prompt, offs)
	spans := make([]span, len(r.Spans))
	for k, s := range r.Spans {
		spans[k] = span{Expr: s.Expr, Input: s.Input, Start: units[2*k], End: units[2*k+1]}
	}
	messages := make([]message, len(r.Messages))
	for k, m := range r.Messages {
		messages[k] = message{Role: m.Role}
		if m.Content != r.Prompt {
			messages[k].Content = &r.Messages[k].Content
		}
	}
	head := rendered{Messages: messages, Warnings: nonNil(r.Warnings), Checks: nonNil(r.Checks), Spans: spans}
	return Tail{Head: head, Field: "prompt", Raw: r.Prompt}, nil
}

func parse(b *Bridge, a *Args) (any, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
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
	logprobs, weighed, err := a.parseOpts(3)
	if err != nil {
		return nil, err
	}
	p, err := b.prepare(id, inputs)
	if err != nil {
		return nil, err
	}
	if !weighed {
		return p.Parse(output), nil
	}
	v := p.ParseWeighed(output, logprobs)
	return weighedVerdict{v.Passed, v.Score, v.Verdict, v.Checks, v.Confidence, v.ConfidenceReason}, nil
}

// weighedVerdict is a verdict with its confidence, as parse returns it when asked for one: the
// confidence, or null with the reason.
type weighedVerdict struct {
	Passed           *bool             `json:"passed"`
	Score            *float64          `json:"score"`
	Verdict          any               `json:"verdict"`
	Checks           []diag.Check      `json:"checks"`
	Confidence       *judge.Confidence `json:"confidence"`
	ConfidenceReason string            `json:"confidence_reason,omitempty"`
}

// parseOpts reads parse's options at argument i: {logprobs}, where logprobs is a chat
// completion's choices[0].logprobs.content (or choices[0].logprobs), given even as null to ask for
// a confidence. weighed is false when no options, or none asking for it, are given.
func (a *Args) parseOpts(i int) (logprobs any, weighed bool, err error) {
	v := a.at(i)
	if v == nil {
		return nil, false, nil
	}
	o, ok := v.(*value.Object)
	if !ok {
		return nil, false, a.errorf("opts must be an object, {logprobs}, got %s", value.TypeName(v))
	}
	for _, k := range o.Keys() {
		if k != "logprobs" {
			return nil, false, a.errorf("opts has an unknown key %q: want \"logprobs\"", k)
		}
	}
	logprobs, weighed = o.Get("logprobs")
	return logprobs, weighed, nil
}

func renderTemplate(_ *Bridge, a *Args) (any, error) {
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
	return Tail{Append: func(dst []byte) ([]byte, error) {
		return template.AppendRender(dst, "<template>", src, template.Dialect(dialect), vars)
	}}, nil
}

// templateVariables is the names a template reads from its inputs; with where true, each with
// the line and column of its first read, the template checked whole as Render would (a custom
// evaluator's check: template.Reads).
func templateVariables(_ *Bridge, a *Args) (any, error) {
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
	if where, _ := a.at(2).(bool); where {
		return template.Reads("<template>", src, template.Dialect(dialect))
	}
	return template.Variables("<template>", src, template.Dialect(dialect))
}

func computeRecall(_ *Bridge, a *Args) (any, error) {
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

func passages(_ *Bridge, a *Args) (any, error) {
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

// table is a dataset.Table with empty lists rather than null, and with Paths: the columns and
// the dotted paths into object columns ("vars.question") that a mapping may name.
type table struct {
	Format    string             `json:"format"`
	Named     string             `json:"named,omitempty"`
	Delimiter string             `json:"delimiter,omitempty"`
	Columns   []string           `json:"columns"`
	Paths     []string           `json:"paths"`
	Rows      []*value.Object    `json:"rows"`
	Errors    []dataset.RowError `json:"errors"`
	Warnings  []dataset.RowError `json:"warnings"`
}

func readDataset(_ *Bridge, a *Args) (any, error) {
	text, err := a.str(0, "text")
	if err != nil {
		return nil, err
	}
	format, err := a.optStr(1, "format", "")
	if err != nil {
		return nil, err
	}
	name, err := a.optStr(2, "name", "")
	if err != nil {
		return nil, err
	}
	// A format given is the caller's word; without one, the content decides and a file's name is
	// only a hint (dataset.ReadNamed).
	var t *dataset.Table
	if format == "" && name != "" {
		t, err = dataset.ReadNamed(text, name)
	} else {
		t, err = dataset.Read(text, format)
	}
	if err != nil {
		return nil, err
	}
	return table{Format: t.Format, Named: t.Named, Delimiter: t.Delimiter, Columns: nonNil(t.Columns), Paths: nonNil(t.Paths()), Rows: nonNil(t.Rows),
		Errors: nonNil(t.Errors), Warnings: nonNil(t.Warnings)}, nil
}

func mapColumns(b *Bridge, a *Args) (any, error) {
	e, err := b.evaluator(a, 0)
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
	}{mapping, nonNil(matches)}, nil
}

func rowInputs(b *Bridge, a *Args) (any, error) {
	e, err := b.evaluator(a, 0)
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
func (b *Bridge) evaluator(a *Args, i int) (*judge.Evaluator, error) {
	if b.loadErr != nil {
		return nil, b.loadErr
	}
	id, err := a.str(i, "id")
	if err != nil {
		return nil, err
	}
	return b.registry.Get(id)
}
