package bridge

import (
	"strconv"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/recall"
	"ragjudge/core/stats"
	"ragjudge/core/value"
)

// Args are the arguments of one call: the value package's representation (nil, bool, int64,
// float64, string, []any, *value.Object), one per parameter. nil, and an argument past the end,
// is "not given" (JS's undefined and null alike).
type Args struct {
	fn     string
	params []Param
	vals   []any
}

func (a *Args) errorf(format string, v ...any) error {
	return &diag.Error{Kind: "input", Name: a.fn, Msg: diag.Sprintf(format, v...)}
}

func (a *Args) at(i int) any {
	if i < len(a.vals) {
		return a.vals[i]
	}
	return nil
}

// str reads a required text argument.
func (a *Args) str(i int, name string) (string, error) {
	s, ok, err := a.text(i, name)
	if err == nil && !ok {
		err = a.errorf("%s is required (a string)", name)
	}
	return s, err
}

// optStr reads an optional text argument; not given is def.
func (a *Args) optStr(i int, name, def string) (string, error) {
	s, ok, err := a.text(i, name)
	if err != nil || !ok {
		return def, err
	}
	return s, nil
}

func (a *Args) text(i int, name string) (s string, ok bool, err error) {
	switch v := a.at(i).(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	default:
		return "", false, a.errorf("%s must be a string, got %s", name, value.TypeName(v))
	}
}

// obj reads an object argument; when optional, not given is an empty object.
func (a *Args) obj(i int, name string, optional bool) (*value.Object, error) {
	v := a.at(i)
	if v == nil {
		if optional {
			return &value.Object{}, nil
		}
		return nil, a.errorf("%s is required (an object)", name)
	}
	o, ok := v.(*value.Object)
	if !ok {
		return nil, a.errorf("%s must be an object, got %s", name, value.TypeName(v))
	}
	return o, nil
}

// strList reads a required list of strings.
func (a *Args) strList(i int, name string) ([]string, error) {
	v := a.at(i)
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("%s must be a list of strings, got %s", name, value.TypeName(v))
	}
	out := make([]string, len(list))
	for k, item := range list {
		s, ok := item.(string)
		if !ok {
			return nil, a.errorf("%s[%d] must be a string, got %s", name, k, value.TypeName(item))
		}
		out[k] = s
	}
	return out, nil
}

// scores reads the list of scores at key kind of in: numbers, or strings as judges write them
// ("3.5", "4/5"). A missing or null list is empty (recall.Compute says when that is wrong).
func (a *Args) scores(in *value.Object, kind string) ([]*exact.Rat, error) {
	v, _ := in.Get(kind)
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("%s must be a list of scores, got %s", kind, value.TypeName(v))
	}
	out := make([]*exact.Rat, len(list))
	for k, item := range list {
		var text string
		switch x := item.(type) {
		case int64:
			out[k] = new(exact.Rat).SetInt64(x)
			continue
		case float64:
			// The shortest decimal that reads back as x is what the caller wrote (0.1, not
			// 0.1000000000000000055…).
			text = strconv.FormatFloat(x, 'f', -1, 64)
		case string:
			text = x
		default:
			return nil, a.errorf("%s score %d must be a number or a numeric string, got %s", kind, k+1, value.TypeName(item))
		}
		r, err := recall.ParseScore(text)
		if err != nil {
			if d, ok := err.(*diag.Error); ok {
				e := *d
				e.Msg = diag.Sprintf("%s score %d: %s", kind, k+1, d.Msg)
				return nil, &e
			}
			return nil, err
		}
		out[k] = r
	}
	return out, nil
}

// verdictList reads a required list of verdicts: true (passed), false (failed), null
// (undetermined, or no label).
func (a *Args) verdictList(i int, name string) ([]stats.Verdict, error) {
	return a.verdicts(a.at(i), name)
}

func (a *Args) verdicts(v any, name string) ([]stats.Verdict, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("%s must be a list of true, false or null, got %s", name, value.TypeName(v))
	}
	out := make([]stats.Verdict, len(list))
	for k, item := range list {
		switch x := item.(type) {
		case nil:
		case bool:
			out[k] = stats.Fail
			if x {
				out[k] = stats.Pass
			}
		default:
			return nil, a.errorf("%s[%d] must be true, false or null, got %s", name, k, value.TypeName(item))
		}
	}
	return out, nil
}

// scoreList reads a required list of numbers or nulls (a null skips its pair).
func (a *Args) scoreList(i int, name string) ([]stats.Score, error) {
	v := a.at(i)
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("%s must be a list of numbers or null, got %s", name, value.TypeName(v))
	}
	out := make([]stats.Score, len(list))
	for k, item := range list {
		switch x := item.(type) {
		case nil:
		case int64:
			out[k] = stats.Score{Value: float64(x), Given: true}
		case float64:
			out[k] = stats.Score{Value: x, Given: true}
		default:
			return nil, a.errorf("%s[%d] must be a number or null, got %s", name, k, value.TypeName(item))
		}
	}
	return out, nil
}
