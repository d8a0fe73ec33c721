package bridge

import (
	"math"
	"strconv"

	"ragjudge/core/checkup"
	"ragjudge/core/value"
)

// The check-up (package checkup): known-answer cases from a row, their grading, the matrix,
// and a pairwise row judged in both orders.

// rowOf reads arguments 0 and 1 as an evaluator id and a row's inputs.
func (b *Bridge) rowOf(a *Args) (string, *value.Object, error) {
	e, err := b.evaluator(a, 0)
	if err != nil {
		return "", nil, err
	}
	inputs, err := a.obj(1, "inputs", false)
	return e.ID, inputs, err
}

func checkupCases(b *Bridge, a *Args) (any, error) {
	id, inputs, err := b.rowOf(a)
	if err != nil {
		return nil, err
	}
	var opt checkup.Options
	switch s := a.at(2).(type) {
	case nil:
	case int64:
		opt.Seed = s
	case float64:
		if s != math.Trunc(s) || math.Abs(s) > 1<<53 {
			return nil, a.errorf("options.seed must be a whole number, got %s", strconv.FormatFloat(s, 'g', -1, 64))
		}
		opt.Seed = int64(s)
	default:
		return nil, a.errorf("options.seed must be a whole number, got %s", value.TypeName(s))
	}
	if v := a.at(3); v != nil {
		list, ok := v.([]any)
		if !ok {
			return nil, a.errorf("options.pool must be a list of rows' inputs (objects), got %s", value.TypeName(v))
		}
		opt.Pool = make([]*value.Object, len(list))
		for k, x := range list {
			o, ok := x.(*value.Object)
			if !ok {
				return nil, a.errorf("options.pool[%d] must be a row's inputs (an object), got %s", k, value.TypeName(x))
			}
			opt.Pool[k] = o
		}
	}
	return checkup.Cases(b.registry, id, inputs, opt)
}

func checkupGrade(_ *Bridge, a *Args) (any, error) {
	c, err := a.obj(0, "case", false)
	if err != nil {
		return nil, err
	}
	v, err := a.obj(1, "verdict", false)
	if err != nil {
		return nil, err
	}
	refs, err := a.obj(2, "refs", true)
	if err != nil {
		return nil, err
	}
	g, err := checkup.Grade(c, v, refs)
	if err != nil {
		return nil, a.named(err)
	}
	return g, nil
}

func checkupMatrix(_ *Bridge, a *Args) (any, error) {
	v := a.at(0)
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("graded must be a list of {transform, outcome}, got %s", value.TypeName(v))
	}
	cases := make([]checkup.Graded, len(list))
	for k, x := range list {
		o, ok := x.(*value.Object)
		t, okT := getString(o, "transform")
		out, okO := getString(o, "outcome")
		if !ok || !okT || !okO {
			return nil, a.errorf("graded[%d] must be {transform, outcome} with two strings, got %s", k, value.TypeName(x))
		}
		cases[k] = checkup.Graded{Transform: t, Outcome: out}
	}
	m, err := checkup.Matrix(cases)
	if err != nil {
		return nil, a.named(err)
	}
	return m, nil
}

func swapOrders(b *Bridge, a *Args) (any, error) {
	id, inputs, err := b.rowOf(a)
	if err != nil {
		return nil, err
	}
	return checkup.SwapInputs(b.registry, id, inputs)
}

func combineOrders(_ *Bridge, a *Args) (any, error) {
	first, err := a.obj(0, "first", false)
	if err != nil {
		return nil, err
	}
	second, err := a.obj(1, "second", false)
	if err != nil {
		return nil, err
	}
	v, err := checkup.CombineOrders(first, second)
	if err != nil {
		return nil, a.named(err)
	}
	return v, nil
}

func positionStats(_ *Bridge, a *Args) (any, error) {
	v := a.at(0)
	list, ok := v.([]any)
	if !ok {
		return nil, a.errorf("verdicts must be a list of combined verdicts (or null), got %s", value.TypeName(v))
	}
	return checkup.PositionStats(list), nil
}

// getString is o's field k as a string.
func getString(o *value.Object, k string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, _ := o.Get(k)
	s, ok := v.(string)
	return s, ok
}
