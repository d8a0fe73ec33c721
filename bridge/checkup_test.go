package bridge

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

func decode(t *testing.T, text string) any {
	t.Helper()
	v, err := value.Decode([]byte(text))
	require.NoError(t, err, text)
	return v
}

// TestCheckupCalls: a row's cases cross the wire, are graded by a verdict that crossed it too,
// and counted; a pairwise row's two orders are combined; bad arguments say which and where.
func TestCheckupCalls(t *testing.T) {
	row := decode(t, `{"answer": "x", "facts": ["The Eiffel Tower was completed in 1889.", "The Eiffel Tower is in Paris."]}`)
	pool := decode(t, `[{"answer": "Honeybees communicate using a waggle dance.", "facts": ["Bees dance."]}]`)
	w := decodeWire(t, b.Call("checkupCases", []any{"answer-grounding", row, int64(3), pool}))
	require.Nil(t, w.Error, "%v", w.Error)
	// The cases as JS has them, back: the first (a verbatim fact) graded by "yes" and "no".
	var list []json.RawMessage
	require.NoError(t, json.Unmarshal(w.OK, &struct {
		Cases *[]json.RawMessage `json:"cases"`
	}{&list}))
	require.Len(t, list, 4)
	first := decode(t, string(list[0])).(*value.Object)
	inputs, _ := first.Get("inputs")
	for answer, want := range map[string]string{"Yes": `{"outcome":"caught"`, "No": `{"outcome":"missed"`, "perhaps": `"outcome":"undetermined"`} {
		v := decodeWire(t, b.Call("parse", []any{"answer-grounding", inputs, answer}))
		require.Nil(t, v.Error)
		g := decodeWire(t, b.Call("checkupGrade", []any{first, decode(t, string(v.OK)), nil}))
		require.Nil(t, g.Error, "%v", g.Error)
		assert.Contains(t, string(g.OK), want, answer)
	}
	m := decodeWire(t, b.Call("checkupMatrix", []any{decode(t, `[{"transform": "verbatim", "outcome": "caught"}, {"transform": "verbatim", "outcome": "missed"}]`)}))
	require.Nil(t, m.Error)
	assert.Contains(t, string(m.OK), `{"rows":[{"transform":"verbatim","caught":1,"missed":1,"undetermined":0,"total":2,"catch":{"k":1,"n":2,"rate":0.5,"ci":[`)

	pair := decode(t, `{"contexts": ["A is true."], "expected_output": "A [1].", "actual_output": "B [1]."}`)
	s := decodeWire(t, b.Call("swapOrders", []any{"pairwise-faithfulness", pair}))
	require.Nil(t, s.Error)
	assert.JSONEq(t, `{"contexts": ["A is true."], "expected_output": "B [1].", "actual_output": "A [1]."}`, string(s.OK))
	v1 := decodeWire(t, b.Call("parse", []any{"pairwise-faithfulness", pair, `{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": false}}`}))
	v2 := decodeWire(t, b.Call("parse", []any{"pairwise-faithfulness", decode(t, string(s.OK)), `{"answer_1": {"faithfulness": true}, "answer_2": {"faithfulness": false}}`}))
	c := decodeWire(t, b.Call("combineOrders", []any{decode(t, string(v1.OK)), decode(t, string(v2.OK))}))
	require.Nil(t, c.Error)
	assert.Contains(t, string(c.OK), `"code":"position.flip"`)
	p := decodeWire(t, b.Call("positionStats", []any{[]any{decode(t, string(c.OK)), nil}}))
	require.Nil(t, p.Error)
	assert.Contains(t, string(p.OK), `{"rows":2,"compared":1,"flips":1,"flip":{"k":1,"n":1,"rate":1,"ci":[`)

	for _, tc := range []struct {
		fn   string
		args []any
		want string
	}{
		{"checkupCases", []any{"answer-grounding", row, 1.5}, "options.seed must be a whole number, got 1.5"},
		{"checkupCases", []any{"answer-grounding", row, "x"}, "options.seed must be a whole number, got a string"},
		{"checkupCases", []any{"answer-grounding", row, nil, decode(t, `[{}, 3]`)}, "options.pool[1] must be a row's inputs (an object), got a number"},
		{"checkupCases", []any{"answer-grounding", row, nil, "x"}, "options.pool must be a list"},
		{"checkupCases", []any{"nope", row}, `unknown evaluator "nope"`},
		{"checkupCases", []any{"answer-grounding", decode(t, `{"answer": "x", "facts": []}`)}, "is empty: there is no fact"},
		{"checkupGrade", []any{decode(t, `{}`), decode(t, `{}`)}, "the case has no expect object"},
		{"checkupGrade", []any{first}, "verdict is required"},
		{"checkupMatrix", []any{decode(t, `[{"transform": "x"}]`)}, "graded[0] must be {transform, outcome}"},
		{"checkupMatrix", []any{decode(t, `[{"transform": "x", "outcome": "won"}]`)}, `outcome "won" is none of`},
		{"swapOrders", []any{"answer-grounding", row}, "compares no two answers"},
		{"combineOrders", []any{decode(t, `{}`), decode(t, `{}`)}, "both verdicts must be pairwise-faithfulness verdicts"},
		{"positionStats", []any{"x"}, "verdicts must be a list"},
	} {
		w := decodeWire(t, b.Call(tc.fn, tc.args))
		if assert.NotNil(t, w.Error, tc.want) {
			assert.Contains(t, w.Error.Msg, tc.want)
		}
	}
}
