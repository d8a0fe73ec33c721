package bridge

import (
	"strconv"

	"ragjudge/core/diag"
	"ragjudge/core/stats"
	"ragjudge/core/value"
)

// The trust statistics (package stats): agreement with human labels, correlation of scores,
// consistency over repeats.

func agreement(_ *Bridge, a *Args) (any, error) {
	judge, err := a.verdictList(0, "judge")
	if err != nil {
		return nil, err
	}
	human, err := a.verdictList(1, "human")
	if err != nil {
		return nil, err
	}
	r, err := stats.Agree(judge, human)
	if err != nil {
		return nil, a.named(err)
	}
	return r, nil
}

func correlation(_ *Bridge, a *Args) (any, error) {
	xs, err := a.scoreList(0, "xs")
	if err != nil {
		return nil, err
	}
	ys, err := a.scoreList(1, "ys")
	if err != nil {
		return nil, err
	}
	r, err := stats.Correlate(xs, ys)
	if err != nil {
		return nil, a.named(err)
	}
	return r, nil
}

func consistency(_ *Bridge, a *Args) (any, error) {
	v := a.at(0)
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("rows must be a list of lists of verdicts, got %s", value.TypeName(v))
	}
	rows := make([][]stats.Verdict, len(list))
	for k, row := range list {
		r, err := a.verdicts(row, "rows["+strconv.Itoa(k)+"]")
		if err != nil {
			return nil, err
		}
		rows[k] = r
	}
	return stats.Consistent(rows), nil
}

func calibration(_ *Bridge, a *Args) (any, error) {
	p, err := a.scoreList(0, "p")
	if err != nil {
		return nil, err
	}
	human, err := a.verdictList(1, "human")
	if err != nil {
		return nil, err
	}
	r, err := stats.Calibrate(p, human)
	if err != nil {
		return nil, a.named(err)
	}
	return r, nil
}

// jury reads its members: each true, false or null (a verdict), a number (a score without a
// verdict) or an object {passed, score} (parse's result will do: its other keys are left alone);
// and its options {rule, pass_at}, rule "majority" when not given.
func jury(_ *Bridge, a *Args) (any, error) {
	v := a.at(0)
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("verdicts must be a list of verdicts (true, false, null, a score, or {passed, score}), got %s", value.TypeName(v))
	}
	opts, err := a.obj(1, "opts", true)
	if err != nil {
		return nil, err
	}
	rule, passAt, hasAt := stats.RuleMajority, 0.0, false
	for _, k := range opts.Keys() {
		x, _ := opts.Get(k)
		switch k {
		case "rule":
			if x == nil {
				continue
			}
			s, ok := x.(string)
			if !ok {
				return nil, a.errorf("opts.rule must be a string, got %s", value.TypeName(x))
			}
			rule = s
		case "pass_at":
			if x == nil {
				continue
			}
			f, ok := number(x)
			if !ok {
				return nil, a.errorf("opts.pass_at must be a number, got %s", value.TypeName(x))
			}
			passAt, hasAt = f, true
		default:
			return nil, a.errorf("opts has an unknown key %q: want \"rule\" and \"pass_at\"", k)
		}
	}
	members := make([]stats.Member, len(list))
	for k, item := range list {
		m := &members[k]
		at := "verdicts[" + strconv.Itoa(k) + "]"
		switch x := item.(type) {
		case nil:
		case bool:
			if rule == stats.RuleMean {
				return nil, a.errorf("%s is a verdict without a score: the rule \"mean\" takes scores (a number, or {passed, score})", at)
			}
			m.Verdict = verdictOf(x)
		case int64, float64:
			if rule != stats.RuleMean {
				return nil, a.errorf("%s is a score without a verdict: the rule %q takes verdicts (true, false, null, or {passed, score})", at, rule)
			}
			m.Score.Value, m.Score.Given = number(x)
		case *value.Object:
			p, _ := x.Get("passed")
			switch pv := p.(type) {
			case nil:
			case bool:
				m.Verdict = verdictOf(pv)
			default:
				return nil, a.errorf("%s.passed must be true, false or null, got %s", at, value.TypeName(p))
			}
			s, _ := x.Get("score")
			if s != nil {
				if m.Score.Value, m.Score.Given = number(s); !m.Score.Given {
					return nil, a.errorf("%s.score must be a number or null, got %s", at, value.TypeName(s))
				}
			}
		default:
			return nil, a.errorf("%s must be true, false, null, a score or {passed, score}, got %s", at, value.TypeName(item))
		}
	}
	r, err := stats.Jury(members, rule, passAt, hasAt)
	if err != nil {
		return nil, a.named(err)
	}
	return r, nil
}

func verdictOf(passed bool) stats.Verdict {
	if passed {
		return stats.Pass
	}
	return stats.Fail
}

// number reads a JSON number.
func number(x any) (float64, bool) {
	switch n := x.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// named puts the function's name on the core's error, as the argument errors carry it.
func (a *Args) named(err error) error {
	if d, ok := err.(*diag.Error); ok {
		e := *d
		e.Name = a.fn
		return &e
	}
	return err
}
