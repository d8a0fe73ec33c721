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

// named puts the function's name on the core's error, as the argument errors carry it.
func (a *Args) named(err error) error {
	if d, ok := err.(*diag.Error); ok {
		e := *d
		e.Name = a.fn
		return &e
	}
	return err
}
