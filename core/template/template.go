// Package template renders judge prompts: a subset of Jinja2 (byte-identical to Jinja2 3.1 with a
// default Environment and StrictUndefined) and Python's str.format.
//
// STUB: the API below is the contract; the implementation is being written.
package template

import (
	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// Dialect names a template language.
type Dialect string

// The dialects.
const (
	Jinja  Dialect = "jinja"
	Format Dialect = "format"
)

// Span is where one substitution ({{ expr }} in Jinja, {name} in str.format) landed in the output:
// Expr is the expression's source text, trimmed ("question", "loop.index"); Start and End are byte
// offsets into the rendered output.
type Span struct {
	Expr       string `json:"expr"`
	Start, End int
}

// Render renders src, named name in errors, with vars. Errors are *diag.Error with Kind "template".
func Render(name, src string, dialect Dialect, vars *value.Object) (string, error) {
	out, _, err := RenderSpans(name, src, dialect, vars)
	return out, err
}

// RenderSpans is Render that also reports where each substitution landed.
func RenderSpans(name, src string, dialect Dialect, vars *value.Object) (string, []Span, error) {
	return "", nil, &diag.Error{Kind: "template", Name: name, Msg: "not implemented"}
}
