// Package diag defines the error and check values every part of the core reports, so that a
// template error, an unreadable judge answer and a recall mistake reach JS as the same fields
// (kind, name, line, col, message) and print the same way.
package diag

import (
	"strconv"
	"strings"
)

// Error is a positioned error. Line and Col are 1-based, Col counts Unicode code points; both are
// 0 when no position applies. It prints as "kind: name:line:col: message", leaving out the parts
// that are empty, e.g. `template: claim-groundedness:3:14: unexpected "}}"`.
type Error struct {
	Kind string `json:"kind"`           // "template", "output", "recall", "input", "dataset"
	Name string `json:"name,omitempty"` // template name, evaluator id or input name
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	Msg  string `json:"message"`
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Kind != "" {
		b.WriteString(e.Kind)
		b.WriteString(": ")
	}
	loc := e.Name
	if e.Line > 0 {
		if loc != "" {
			loc += ":"
		}
		loc += strconv.Itoa(e.Line)
		if e.Col > 0 {
			loc += ":" + strconv.Itoa(e.Col)
		}
	}
	if loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Severity of a Check.
const (
	SevError   = "error"
	SevWarning = "warning"
)

// Check is one finding about a judge answer: an error makes the verdict undetermined, a warning
// says what was repaired or doubted without changing it.
type Check struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// Fail builds an error check.
func Fail(msg string) Check { return Check{Severity: SevError, Message: msg} }

// Warn builds a warning check.
func Warn(msg string) Check { return Check{Severity: SevWarning, Message: msg} }

// Position returns the 1-based line and column (in code points) of byte offset off in src.
func Position(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	line, col = 1, 1
	for _, r := range src[:off] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
