package judge

import (
	"strconv"
	"strings"
	"unicode"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// Custom evaluators: an evaluator defined by a page as a value (a JSON document, README "Custom
// evaluators"), checked whole when it is defined, then listed, rendered and parsed exactly as a
// built-in. Its templates run under the template package's work budget like the built-ins', and
// its readers are the built-ins' rules (the yes/no rule, output.FindJSON), so a custom judge's
// answer is read as the built-ins' are.
//
// CheckSpec reports every problem of a definition at once, each with the path of its field
// ("messages[1].content", "output.pass_at") and, inside a template, the line and column there;
// Define refuses a definition with an error and keeps it otherwise.

// The reader kinds of a custom evaluator's output.
const (
	ReaderYesNo   = "yes-no"
	ReaderScore   = "score"
	ReaderLabel   = "label"
	ReaderJSON    = "json"
	ReaderBuiltin = "builtin"
)

// ScoreNumber is the score kind of a custom JSON reader with no range: a plain number.
const ScoreNumber = "number"

// customOrder is where custom evaluators start in the display order, after every built-in.
const customOrder = 1000

// SpecCheck is what CheckSpec found: the definition (nil when it is not an object) and every
// error with its Path.
type SpecCheck struct {
	Spec   *value.Object
	Errors []diag.Check

	builtin *Evaluator // the built-in whose reader an output of kind builtin uses
}

func (c *SpecCheck) fail(path string, code diag.Code, msg string) {
	c.Errors = append(c.Errors, diag.Fail(code, msg).Under(path))
}

func index(path string, k int) string { return path + "[" + strconv.Itoa(k) + "]" }

// CheckSpec checks v, a custom evaluator's definition as the JS API checked and normalised it
// (web/evaluatorspec.js: its schema, the defaults, its templates and the names they read), for
// what the registry relies on: the fields it reads, an id that is not a built-in's, a known
// reader (and a built-in one's evaluator). It never panics on any value; what is not a checked
// definition at all is an evaluator.bad-spec error. The templates need no check here: one that
// does not parse fails at render, as any template does.
func (r *Registry) CheckSpec(v any) *SpecCheck {
	c := &SpecCheck{Errors: []diag.Check{}}
	s, _ := v.(*value.Object)
	c.Spec = s
	id, out := getS(s, "id"), getO(s, "output")
	kind := getS(out, "kind")
	e := r.byID[id]
	d := getS(s, "dialect")
	_, isList := get(s, "inputs").([]any)
	dialectOK := d == "jinja" || d == "format"
	switch {
	case s == nil || out == nil || !isList || !dialectOK || !inStrings([]string{ReaderYesNo, ReaderScore, ReaderLabel, ReaderJSON, ReaderBuiltin}, kind):
		c.fail("", diag.EvaluatorBadSpec, "not a checked definition: it needs id, dialect, inputs and output of a known kind (rj.checkEvaluator says what is wrong)")
	case !isID(id):
		c.fail("id", diag.EvaluatorBadID, "id "+quote(id)+" must be lower-case letters, digits and '-' only")
	case e != nil && !e.Custom:
		c.fail("id", diag.EvaluatorBuiltinID, "id "+quote(id)+" is a built-in evaluator's: choose another")
	}
	if kind == ReaderBuiltin {
		b := r.byID[getS(out, "evaluator")]
		if b == nil || b.Custom {
			c.fail("output.evaluator", diag.EvaluatorUnknownBuiltin, quote(getS(out, "evaluator"))+" is not a built-in evaluator")
		}
		c.builtin = b
	}
	return c
}

// isID reports whether s is a custom evaluator id: [a-z0-9-]+.
func isID(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return s != ""
}

// inputsOf is the inputs of a definition.
func inputsOf(s *value.Object) []*value.Object {
	list, _ := get(s, "inputs").([]any)
	out := make([]*value.Object, 0, len(list))
	for _, x := range list {
		if o, ok := x.(*value.Object); ok {
			out = append(out, o)
		}
	}
	return out
}

// fieldOf is the json reader's field key of out, or nil: a path, or {path, combine}.
func fieldOf(out *value.Object, key string) *Field {
	switch x := get(out, key).(type) {
	case string:
		return &Field{Path: x}
	case *value.Object:
		return &Field{Path: getS(x, "path"), Combine: getS(x, "combine")}
	}
	return nil
}

// normLabel is a label as the word rule matches it: lower case, single spaces.
func normLabel(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func hasInput(inputs []Input, name string) bool {
	for _, in := range inputs {
		if in.Name == name {
			return true
		}
	}
	return false
}
