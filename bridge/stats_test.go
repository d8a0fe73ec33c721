package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
)

// TestStatsCalls: the trust statistics cross the wire with null for what is undefined.
func TestStatsCalls(t *testing.T) {
	tests := []struct {
		fn   string
		args []any
		want string // a part of the result's JSON
	}{
		{"agreement", []any{[]any{true, false, nil, true}, []any{true, true, false, nil}},
			`{"pairs":4,"compared":2,"no_label":1,"undetermined":1,"agree":1,"accuracy":0.5,"kappa":0,`},
		{"agreement", []any{[]any{true, false, nil, true}, []any{true, true, false, nil}},
			`"matrix":{"tt":1,"tf":0,"ft":1,"ff":0,"nt":0,"nf":1}`},
		{"agreement", []any{[]any{true}, []any{true}},
			`"kappa":null,"kappa_ci":null,"kappa_se":null,"kappa_reason":"the judge and the labels say passed for every compared row`},
		{"agreement", []any{[]any{}, []any{}}, `"accuracy":null,"kappa":null`},
		{"correlation", []any{[]any{int64(1), 2.5, nil, int64(4)}, []any{int64(2), int64(3), int64(9), 4.5}},
			`{"n":3,"pearson":`},
		{"correlation", []any{[]any{int64(1)}, []any{int64(1)}},
			`{"n":1,"pearson":null,"pearson_reason":"1 pairs of scores: a correlation needs at least 2","spearman":null,`},
		{"consistency", []any{[]any{[]any{true, true, false}, []any{false, false, false}}},
			`{"rows":2,"unanimous":1,"split":1,"fleiss_kappa":0.25,"fleiss_rows":2,"fleiss_repeats":3,"per_row":[{"majority":true,"unanimous":false,"n":3,"passed":2,"failed":1,"undetermined":0},`},
		{"consistency", []any{[]any{}}, `{"rows":0,"unanimous":0,"split":0,"fleiss_kappa":null,"fleiss_reason":"no row has two verdicts or more to compare","fleiss_rows":0,"fleiss_repeats":0,"per_row":[]}`},
		{"calibration", []any{[]any{0.75, int64(0), nil, 0.25}, []any{true, false, true, nil}},
			`{"n":2,"skipped":2,"brier":0.03125,"ece":0.125,"bins":[{"lo":0,"hi":0.1,"n":1,"mean_p":0,"rate":0},{"lo":0.1,"hi":0.2,"n":0,"mean_p":null,"rate":null},`},
		{"calibration", []any{[]any{}, []any{}},
			`{"n":0,"skipped":0,"brier":null,"brier_reason":"no pair has both a probability and a label","ece":null,"ece_reason":"no pair has both a probability and a label","bins":[`},
		{"jury", []any{[]any{true, obj("passed", true, "score", 1.0, "checks", []any{}), false}},
			`{"passed":true,"score":1,"rule":"majority","members":3,"votes":{"passed":2,"failed":1,"undetermined":0},"scored":1,"checks":[]}`},
		{"jury", []any{[]any{true, false}, obj("rule", "majority")},
			`{"passed":null,"score":null,"rule":"majority","members":2,"votes":{"passed":1,"failed":1,"undetermined":0},"scored":0,"checks":[{"severity":"error","code":"jury.tie","message":"the jury is split evenly (1 passed, 1 failed, 0 undetermined): no majority"}]}`},
		{"jury", []any{[]any{int64(4), obj("passed", nil, "score", int64(5)), nil}, obj("rule", "mean", "pass_at", 4.5)},
			`{"passed":true,"score":4.5,"rule":"mean","members":3,"votes":{"passed":0,"failed":0,"undetermined":3},"scored":2,"checks":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			w := decodeWire(t, b.Call(tt.fn, tt.args))
			require.Nil(t, w.Error, "%v", w.Error)
			assert.Contains(t, string(w.OK), tt.want)
		})
	}
}

func TestStatsErrors(t *testing.T) {
	tests := []struct {
		fn   string
		args []any
		msg  string
	}{
		{"agreement", []any{[]any{true}}, "human must be a list of true, false or null, got null"},
		{"agreement", []any{[]any{"yes"}, []any{true}}, `judge[0] must be true, false or null, got a string`},
		{"agreement", []any{[]any{true}, []any{true, false}}, "the judge has 1 verdicts and the human 2 labels"},
		{"correlation", []any{[]any{"1"}, []any{int64(1)}}, "xs[0] must be a number or null, got a string"},
		{"correlation", []any{[]any{int64(1)}, []any{}}, "there are 1 judge scores and 0 human scores"},
		{"consistency", []any{[]any{true}}, "rows[0] must be a list of true, false or null, got a boolean"},
		{"consistency", nil, "rows must be a list of lists of verdicts, got null"},
		{"calibration", []any{[]any{0.5, 1.5}, []any{true, false}}, "probability 2 is 1.5, not a number from 0 to 1"},
		{"calibration", []any{[]any{"0.5"}, []any{true}}, "p[0] must be a number or null, got a string"},
		{"calibration", []any{[]any{0.5}, []any{}}, "there are 1 probabilities and 0 labels"},
		{"jury", []any{obj()}, "verdicts must be a list of verdicts (true, false, null, a score, or {passed, score}), got an object"},
		{"jury", []any{[]any{}}, "a jury needs at least one member's verdict"},
		{"jury", []any{[]any{true}, obj("rule", "vote")}, `unknown rule "vote"`},
		{"jury", []any{[]any{true}, obj("rules", "all")}, `opts has an unknown key "rules"`},
		{"jury", []any{[]any{true}, obj("rule", "all", "pass_at", int64(3))}, `pass_at is for the rule "mean"`},
		{"jury", []any{[]any{int64(3)}}, `verdicts[0] is a score without a verdict: the rule "majority" takes verdicts`},
		{"jury", []any{[]any{true}, obj("rule", "mean")}, `verdicts[0] is a verdict without a score: the rule "mean" takes scores`},
		{"jury", []any{[]any{obj("passed", "yes")}}, "verdicts[0].passed must be true, false or null, got a string"},
		{"jury", []any{[]any{obj("score", "4")}, obj("rule", "mean")}, "verdicts[0].score must be a number or null, got a string"},
		{"jury", []any{[]any{"pass"}}, "verdicts[0] must be true, false, null, a score or {passed, score}, got a string"},
		{"jury", []any{[]any{true}, obj("pass_at", "3")}, "opts.pass_at must be a number, got a string"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			w := decodeWire(t, b.Call(tt.fn, tt.args))
			require.NotNil(t, w.Error, "%s", w.OK)
			assert.Equal(t, "input", w.Error.Kind)
			assert.Equal(t, tt.fn, w.Error.Name)
			assert.Contains(t, w.Error.Msg, tt.msg)
			assert.IsType(t, diag.Error{}, *w.Error)
		})
	}
}
