package judge

import (
	"strings"
	"unicode"

	"ragjudge/core/value"
)

// Custom evaluators: an evaluator defined by a page as a value (a JSON document, README "Custom
// evaluators"), checked whole by the JS API when it is defined (web/evaluatorspec.js, with the
// core's template.Reads for its templates), then listed, rendered and parsed exactly as a
// built-in (Registry.Define). Its templates run under the template package's work budget like
// the built-ins', and its readers are the built-ins' rules (the yes/no rule, output.FindJSON),
// so a custom judge's answer is read as the built-ins' are.

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
