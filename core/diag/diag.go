// Package diag defines the error and check values every part of the core reports, so that a
// template error, an unreadable judge answer and a recall mistake reach JS as the same fields
// (kind, name, line, col, message) and print the same way.
package diag

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Error is a positioned error. Line and Col are 1-based, Col counts Unicode code points; both are
// 0 when no position applies. It prints as "kind: name:line:col: message", leaving out the parts
// that are empty, e.g. `template: claim-groundedness:3:14: unexpected "}}"`.
type Error struct {
	Kind string `json:"kind"`           // "template", "output", "recall", "input", "dataset"
	Code Code   `json:"code,omitempty"` // the check code when the error becomes a check
	Name string `json:"name,omitempty"` // template name, evaluator id or input name
	// Path is where in a custom evaluator's definition the error is ("messages[1].content",
	// "output.pass_at"); Line and Col are then relative to that field's text.
	Path string    `json:"path,omitempty"`
	Line int       `json:"line,omitempty"`
	Col  int       `json:"col,omitempty"`
	Msg  string    `json:"message"`
	_    [0]func() // not comparable: no equality function in the wasm
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Kind != "" {
		b.WriteString(e.Kind)
		b.WriteString(": ")
	}
	loc := e.Name
	if e.Path != "" {
		if loc != "" {
			loc += ": "
		}
		loc += e.Path
	}
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

// Check is one finding about a judge answer, a render or a dataset row: an error makes the
// verdict undetermined (or the row unusable), a warning says what was repaired or doubted without
// changing it. Code is stable and listed in the README's check codes; callers decide from it,
// never from Message. Line, Col (1-based, code points) and Len (code points) point at the span
// the check is about, in the judge's answer or, when Input is set, in that input; they are 0
// when no span applies.
type Check struct {
	Severity string `json:"severity"`
	Code     Code   `json:"code"`
	Message  string `json:"message"`
	Input    string `json:"input,omitempty"`
	// Path is where in a custom evaluator's definition the check is ("inputs[2]",
	// "messages[1].content"); Line, Col and Len are then relative to that field's text.
	Path string    `json:"path,omitempty"`
	Line int       `json:"line,omitempty"`
	Col  int       `json:"col,omitempty"`
	Len  int       `json:"len,omitempty"`
	_    [0]func() // not comparable: no equality function in the wasm
}

// Fail builds an error check.
func Fail(code Code, msg string) Check { return Check{Severity: SevError, Code: code, Message: msg} }

// Warn builds a warning check.
func Warn(code Code, msg string) Check { return Check{Severity: SevWarning, Code: code, Message: msg} }

// At returns c pointing at the span of n code points that starts at line:col.
func (c Check) At(line, col, n int) Check {
	c.Line, c.Col, c.Len = line, col, n
	return c
}

// AtOffset returns c pointing at the bytes src[off:off+n], converted to line, column and length
// in code points.
func (c Check) AtOffset(src string, off, n int) Check {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	end := off + n
	if end > len(src) {
		end = len(src)
	}
	if end < off {
		end = off
	}
	c.Line, c.Col = Position(src, off)
	c.Len = utf8.RuneCountInString(src[off:end])
	return c
}

// In returns c about the named input rather than the judge's answer.
func (c Check) In(input string) Check {
	c.Input = input
	return c
}

// Under returns c about the field at path of a custom evaluator's definition.
func (c Check) Under(path string) Check {
	c.Path = path
	return c
}

// Position returns the 1-based line and column (in code points) of byte offset off in src.
func Position(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	// Counting with the byte functions rather than rune by rune: the evaluator editor asks for
	// the position of every name a template reads, on each keystroke.
	before := src[:off]
	start := strings.LastIndexByte(before, '\n') + 1
	return 1 + Newlines(before[:start]), 1 + utf8.RuneCountInString(before[start:])
}

// LineCol is where byte offset off of src is, as messages write it: "line:col" (see Position).
func LineCol(src string, off int) string {
	line, col := Position(src, off)
	return strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// Clip is s cut to its first n code points, with "…" after them when it was longer: how a message
// quotes a text that may be long (an answer, a value, a word). Invalid UTF-8 counts a code point a
// byte and is kept as it is.
func Clip(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// Newlines is strings.Count(s, "\n"), eight bytes at a time: in the wasm, strings.Count is a
// loop over the bytes, and the template lexer counts lines as it goes.
func Newlines(s string) int {
	const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	n, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		// The byte order does not matter to a count; the wasm and amd64 load unaligned words.
		w := *(*uint64)(unsafe.Pointer(unsafe.StringData(s[i:])))
		x := w ^ ('\n' * ones) // a zero byte where w has a newline
		// The high bit of each byte of x that is zero, exactly (no borrow between bytes).
		n += bits.OnesCount64(^((x&lows + lows) | x | lows) & highs)
	}
	for ; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}
