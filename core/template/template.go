// Package template renders judge prompts: a subset of Jinja2 (byte-identical to Jinja2 3.1 with a
// default Environment and StrictUndefined) and Python's str.format.
//
// Both are interpreted by hand-written code that models Python's values, so that what a prompt
// prints is what the Python judge libraries these prompts come from would send: for Jinja, the
// state-function lexer and recursive-descent parser of package template/parse and the evaluator
// here; for str.format, a scanner (format.go).
// Inputs are inserted as values and never re-evaluated as template code. Anything outside the
// subset is an error with a line and column, never a silently different prompt.
package template

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"ragjudge/core/diag"
	"ragjudge/core/template/parse"
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
// offsets into the rendered output. Input is the variable of those rendered with (an input) the
// value comes from: "contexts" for {{ passage }} in a loop over contexts, "question" for
// {{ question|upper }}; "" for what comes from none (loop.index, a literal, a name set in the
// template), which is no input's text.
type Span struct {
	Expr       string `json:"expr"`
	Input      string `json:"input,omitempty"`
	Start, End int
	_          [0]func() // not comparable: no equality function in the wasm
}

// The caps. Each keeps a hostile template or input from taking unbounded time or memory; hitting
// one is an error at the position where it happened.
//
// maxSteps and maxOutput are the work budget of one render, so that a template looping over large
// text (`{% for x in xs %}{{ big|upper }}{% endfor %}`) ends in an error in well under a second
// rather than holding the page. A step is a unit of work of about the same cost in the wasm (about
// 0.1 µs there, where Go runs without inlining): one for each expression or statement evaluated,
// stepsPerIteration for each loop iteration, stepsPerCall for each macro call, stepsPerItem for each item of a list or dict that an
// operation reads or writes, and one for each bytesPerStep bytes of text. Rendering the built-in
// prompts over 5 MB of evidence takes about a tenth of the budget.
const (
	maxSource         = 1 << 20        // bytes of template source
	maxDepth          = parse.MaxDepth // nesting of the parser's recursion, and of values written out
	maxOutput         = 16 << 20       // bytes of output, and of any one string computed on the way
	maxSteps          = 2_000_000      // steps of work in one render (see evaluator.step)
	stepsPerIteration = 40
	stepsPerCall      = 320 // a macro call: a new frame and its arguments bound, measured at 8 iterations in the wasm
	stepsPerItem      = 4
	bytesPerStep      = 16
	maxIterations     = 1000000            // loop iterations in one render
	maxItems          = 1000000            // items in one computed list
	maxIntDigits      = parse.MaxIntDigits // Python's own limit for int <-> str conversion
	maxIntBits        = 1 << 16            // bits in a computed integer
)

// Render renders src, named name in errors, with vars. Errors are *diag.Error with Kind "template".
func Render(name, src string, dialect Dialect, vars *value.Object) (string, error) {
	out, _, err := render(nil, name, src, dialect, vars, false)
	return bytesString(out), err
}

// RenderSpans is Render that also reports where each substitution landed.
func RenderSpans(name, src string, dialect Dialect, vars *value.Object) (string, []Span, error) {
	out, spans, err := render(nil, name, src, dialect, vars, true)
	return bytesString(out), spans, err
}

// AppendRender is Render appending the output to dst, for a caller that sends it on after
// bytes of its own (package bridge): the output is written once, where it goes. On an error dst
// is returned as it was.
func AppendRender(dst []byte, name, src string, dialect Dialect, vars *value.Object) ([]byte, error) {
	out, _, err := render(dst, name, src, dialect, vars, false)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// bytesString is b as a string that shares its bytes: b is the output of a render, not written
// again.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func render(dst []byte, name, src string, dialect Dialect, vars *value.Object, spans bool) ([]byte, []Span, error) {
	if len(src) > maxSource {
		line, col := diag.Position(src, maxSource)
		return nil, nil, &diag.Error{Kind: "template", Name: name, Line: line, Col: col,
			Msg: "template is larger than " + diag.Thousands(maxSource) + " bytes"}
	}
	if vars == nil {
		vars = &value.Object{}
	}
	switch dialect {
	case Jinja:
		return renderJinja(dst, name, src, vars, spans)
	case Format:
		out, sp, err := renderFormat(name, validUTF8(src), vars)
		if err != nil {
			return nil, nil, err
		}
		if dst == nil {
			return []byte(out), sp, nil
		}
		return append(dst, out...), sp, nil
	}
	return nil, nil, &diag.Error{Kind: "template", Name: name, Msg: "unknown dialect " + quote(string(dialect)) + `: want "jinja" or "format"`}
}

// validUTF8 is src with each invalid byte sequence replaced by U+FFFD.
func validUTF8(src string) string {
	if utf8.ValidString(src) {
		return src
	}
	return strings.ToValidUTF8(src, "\uFFFD")
}

// jinjaSource is src as Jinja reads it: valid UTF-8, "\r\n" and "\r" made "\n", and one final
// newline dropped (keep_trailing_newline=False).
func jinjaSource(src string) string {
	src = validUTF8(src)
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r\n", "\n")
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	return strings.TrimSuffix(src, "\n")
}

// renderJinja renders src after dst. Spans (when spans is set) count from the start of the output,
// not of dst.
func renderJinja(dst []byte, name, src string, vars *value.Object, spans bool) ([]byte, []Span, error) {
	pj := parseJinja(src)
	src = pj.src
	if perr := pj.err; perr != nil {
		return nil, nil, posError(name, src, perr.Pos, perr.Line, perr.Msg)
	}
	// The output is made as large as this template's last one at once, rather than grown by
	// doubling to it (a copy of everything so far each time, and the garbage of every step).
	if hint := int(pj.outSize.Load()); cap(dst)-len(dst) < hint {
		dst = append(make([]byte, 0, len(dst)+hint), dst...)
	}
	// stmtLine starts at 1: where Jinja marks no line (a with statement's assignments first
	// thing in the template), it reports line 1.
	ev := &evaluator{stmtLine: 1, src: src, vars: vars, scopes: []*scope{frame(pj.tree.Missing)},
		out: dst, outBase: len(dst), wantSpans: spans}
	err := ev.render(pj.tree.Root)
	if err == nil {
		err = ev.joinErr
	}
	if err != nil {
		ee, ok := err.(*evalError)
		if !ok {
			ee = &evalError{pos: -1, msg: err.Error()}
		}
		return nil, nil, posError(name, src, ee.pos, ev.stmtLine, ee.msg)
	}
	for k := range ev.spans {
		if in := ev.spans[k].Input; in != "" && !given(vars, in) {
			ev.spans[k].Input = "" // a global (range, namespace) or a name not given
		}
	}
	n := len(ev.out) - len(dst)
	pj.outSize.Store(int64(n + n/8))
	return ev.out, ev.spans, nil
}

// given says whether vars holds name.
func given(vars *value.Object, name string) bool {
	if vars == nil {
		return false
	}
	_, ok := vars.Get(name)
	return ok
}

// posError builds the error for Jinja's line number line (0 if none) with the column of byte
// offset pos when pos is on that line, else of the line's start.
func posError(name, src string, pos, line int, msg string) *diag.Error {
	if pos < 0 && line == 0 {
		return &diag.Error{Kind: "template", Name: name, Msg: msg}
	}
	if pos >= 0 {
		l, c := diag.Position(src, pos)
		if line == 0 || l == line {
			return &diag.Error{Kind: "template", Name: name, Line: l, Col: c, Msg: msg}
		}
	}
	return &diag.Error{Kind: "template", Name: name, Line: line, Col: 1, Msg: msg}
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return `"` + s + `"` }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lineAt is the 1-based line of byte offset pos of src.
func lineAt(src string, pos int) int {
	line, _ := diag.Position(src, pos)
	return line
}
