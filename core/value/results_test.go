package value_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/dataset"
	"ragjudge/core/exact"
	"ragjudge/core/judge"
	"ragjudge/core/recall"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

// TestMarshalResultTypes holds Marshal to encoding/json on the values the wasm hands to JS:
// the evaluators, rendered prompts, verdicts, dataset tables and recall results.
func TestMarshalResultTypes(t *testing.T) {
	var results []any
	reg, err := judge.Load(prompts.FS)
	require.NoError(t, err)
	results = append(results, reg.Evaluators())

	src, err := os.ReadFile("../judge/testdata/render/cases.json")
	require.NoError(t, err)
	cases, err := value.Decode(src)
	require.NoError(t, err)
	for _, c := range cases.([]any) {
		o := c.(*value.Object)
		id, _ := o.Get("evaluator")
		inputs, _ := o.Get("inputs")
		in, _ := inputs.(*value.Object)
		r, err := reg.Render(id.(string), in)
		if err == nil {
			results = append(results, r)
		} else {
			results = append(results, err)
		}
		for _, answer := range []string{`{"verdicts": [{"claim": 1, "grounded": true, "reason": "<ok> & \u2028"}]}`, `{"score": 0.5, "reasoning": "x"}`, "not json"} {
			if v, err := reg.Parse(id.(string), in, answer); err == nil {
				results = append(results, v)
			} else {
				results = append(results, err)
			}
		}
	}
	for _, text := range []string{`[{"a":1,"b":[1,2]},{"a":"<x>"}]`, "a,b\n1,\"x\"\n", `{"data":[{"q":1}, 2]`, "{\"q\":1}\n{bad\n"} {
		if tab, err := dataset.Read(text, ""); err == nil {
			results = append(results, tab)
		} else {
			results = append(results, err)
		}
	}
	r, err := recall.Compute([]*exact.Rat{exact.NewRat(7, 2), exact.NewRat(5, 1)}, []*exact.Rat{exact.NewRat(3, 1)})
	require.NoError(t, err)
	results = append(results, r, r.Summary(), []*recall.Result{r, nil})

	t.Logf("%d results", len(results))
	for i, res := range results {
		want, werr := json.Marshal(res)
		got, err := value.Marshal(res)
		require.NoError(t, werr, "result %d: %#v", i, res)
		require.NoError(t, err, "result %d: %#v", i, res)
		assert.Equal(t, string(want), string(got), "result %d", i)
	}
}
