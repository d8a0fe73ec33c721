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
