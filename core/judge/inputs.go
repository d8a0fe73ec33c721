package judge

import (
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// Reading an evaluator's inputs: the helpers every built-in evaluator's Vars uses, so that a
// missing, mistyped or empty input is the same error with the same code whichever evaluator it is
// given to.

// emptyList is the check that list input name is empty: an input error that Render refuses
// before paying and that makes a verdict undetermined.
func emptyList(name, msg string) diag.Check {
	return diag.Fail(diag.InputEmptyList, name+" is empty: "+msg).In(name)
}

// badInput is a *diag.Error about input name.
func badInput(name string, code diag.Code, format string, a ...any) error {
	return &diag.Error{Kind: "input", Code: code, Name: name, Msg: diag.Sprintf(format, a...)}
}

// argText returns the required text input name; it must be a non-blank string.
func argText(in *value.Object, name string) (string, error) {
	v, ok := in.Get(name)
	if !ok || v == nil {
		return "", badInput(name, diag.InputMissing, "is required: give a text")
	}
	s, isText := v.(string)
	if !isText {
		return "", badInput(name, diag.InputWrongType, "want a text, got %s", value.TypeName(v))
	}
	if strings.TrimSpace(s) == "" {
		return "", badInput(name, diag.InputBlank, "is empty: give a text")
	}
	return s, nil
}

// argList returns the required list input name.
func argList(in *value.Object, name string) ([]any, error) {
	v, ok := in.Get(name)
	if !ok || v == nil {
		return nil, badInput(name, diag.InputMissing, "is required: give a list")
	}
	list, isList := v.([]any)
	if !isList {
		return nil, badInput(name, diag.InputWrongType, "want a list, got %s", value.TypeName(v))
	}
	return list, nil
}

// argStrings returns the required list input name whose items must be texts.
func argStrings(in *value.Object, name string) ([]string, error) {
	list, err := argList(in, name)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(list))
	for i, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, badInput(name, diag.InputBadItem, "item %d: want a text, got %s", i+1, value.TypeName(item))
		}
		out[i] = s
	}
	return out, nil
}
