package checkup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/judge"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

// customRegistry is a registry of its own with the custom evaluator spec defined.
func customRegistry(t *testing.T, spec string) *judge.Registry {
	t.Helper()
	r, err := judge.Load(prompts.FS)
	require.NoError(t, err)
	_, err = r.Define(obj(t, spec))
	require.NoError(t, err)
	return r
}

const relevanceSpec = `{
	"id": "relevance", "title": "Relevance", "description": "", "dialect": "jinja",
	"prompt": "Question: {{ question }}\nAnswer: {{ answer }}\nVerdict: relevant, partly relevant or irrelevant?",
	"inputs": [
		{"name": "question", "label": "Question", "kind": "text", "required": true},
		{"name": "answer", "label": "Answer", "kind": "text", "required": true, "judged": true}
	],
	"output": {"kind": "label", "labels": {"relevant": true, "partly relevant": null, "irrelevant": false}},
	"words": {"passed": "Relevant", "failed": "Irrelevant"},
	"checkup": {"replaced": false, "emptied": false, "halved": null}
}`

const relevanceRow = `{"question": "When was the Eiffel Tower built?", "answer": "The Eiffel Tower was built between 1887 and 1889 for the World's Fair in Paris."}`

func customPool(t *testing.T) []*value.Object {
	return []*value.Object{
		obj(t, `{"question": "When was the tower painted?", "answer": "The tower is painted every seven years."}`),
		obj(t, `{"question": "How do bees talk?", "answer": "Honeybees communicate using a waggle dance."}`),
	}
}

func TestCustomCases(t *testing.T) {
	r := customRegistry(t, relevanceSpec)
	res, err := Cases(r, "relevance", obj(t, relevanceRow), Options{Seed: 4, Pool: customPool(t)})
	require.NoError(t, err)
	assert.Equal(t, "replaced halved", transforms(res))
	assert.Contains(t, skipped(res, Emptied), "answer is required")

	replaced := byTransform(res, Replaced)
	a, _ := getS(replaced.Inputs, "answer")
	assert.Equal(t, "Honeybees communicate using a waggle dance.", a, "the other row shares \"tower\" with the question")
	assert.Equal(t, "Answer replaced by another row's", replaced.Name)
	halved := byTransform(res, Halved)
	a, _ = getS(halved.Inputs, "answer")
	assert.Equal(t, "The Eiffel Tower was built between 1887", a)

	grade := func(c *Case, answer string) Grading {
		v, err := r.Parse("relevance", c.Inputs, answer)
		require.NoError(t, err)
		g, err := Grade(asJSON(t, *c), asJSON(t, v), nil)
		require.NoError(t, err)
		return g
	}
	assert.Equal(t, Caught, grade(replaced, "Verdict: irrelevant").Outcome)
	g := grade(replaced, "Verdict: relevant")
	assert.Equal(t, Missed, g.Outcome)
	assert.Equal(t, `expected "Irrelevant"; the judge said "Relevant"`, g.Detail)
	assert.Equal(t, Missed, grade(replaced, "Verdict: partly relevant").Outcome, "declining where a verdict is expected")
	assert.Equal(t, Caught, grade(halved, "Verdict: partly relevant").Outcome)
	assert.Equal(t, Missed, grade(halved, "Verdict: irrelevant").Outcome)
	g = grade(halved, "I would rather not say.")
	assert.Equal(t, Undetermined, g.Outcome)
	assert.Equal(t, "answer.no-verdict", string(g.Code))
}

func TestCustomSkips(t *testing.T) {
	// An optional judged input is emptied; a list is halved by its items.
	r := customRegistry(t, `{"id": "opt", "dialect": "jinja", "prompt": "{{ question }} {{ sources }}",
		"inputs": [{"name": "question", "kind": "text", "required": true}, {"name": "sources", "kind": "list", "required": false, "judged": true}],
		"output": {"kind": "yes-no", "pass": "yes"}, "checkup": {"emptied": true, "halved": false}}`)
	res, err := Cases(r, "opt", obj(t, `{"question": "Q?", "sources": ["a", "b", "c"]}`), Options{})
	require.NoError(t, err)
	assert.Equal(t, "emptied halved", transforms(res))
	assert.Contains(t, skipped(res, Replaced), "set checkup.replaced")
	assert.Equal(t, []any{}, get(byTransform(res, Emptied).Inputs, "sources"))
	assert.Equal(t, []any{"a"}, get(byTransform(res, Halved).Inputs, "sources"))
	res, err = Cases(r, "opt", obj(t, `{"question": "Q?", "sources": ["a"]}`), Options{})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, Halved), "fewer than two items")

	// A reader whose verdicts never pass or fail: nothing to expect.
	r = customRegistry(t, `{"id": "score", "dialect": "jinja", "prompt": "{{ answer }}",
		"inputs": [{"name": "answer", "kind": "text", "required": true, "judged": true}],
		"output": {"kind": "score", "label": "Score", "min": 1, "max": 5}, "checkup": {"replaced": false, "halved": null}}`)
	res, err = Cases(r, "score", obj(t, `{"answer": "one two three four five"}`), Options{Pool: customPool(t)})
	require.NoError(t, err)
	assert.Empty(t, res.Cases)
	assert.Contains(t, skipped(res, Replaced), "never pass or fail")
	assert.Contains(t, skipped(res, Halved), "never pass or fail")

	// No checkup field: every generic transformation skipped, saying how to offer it.
	r = customRegistry(t, `{"id": "plain", "dialect": "jinja", "prompt": "{{ answer }}",
		"inputs": [{"name": "answer", "kind": "text", "required": true, "judged": true}], "output": {"kind": "yes-no", "pass": "yes"}}`)
	res, err = Cases(r, "plain", obj(t, `{"answer": "one two three four five"}`), Options{Pool: customPool(t)})
	require.NoError(t, err)
	assert.Empty(t, res.Cases)
	assert.Len(t, res.Skipped, 3)
	for _, s := range res.Skipped {
		assert.Contains(t, s.Reason, "no expected verdict is chosen for it: set checkup."+s.Transform)
	}
	// A value of the wrong type is skipped, not guessed.
	r = customRegistry(t, `{"id": "bad", "dialect": "jinja", "prompt": "{{ answer }}",
		"inputs": [{"name": "answer", "kind": "text", "required": true, "judged": true}], "output": {"kind": "yes-no", "pass": "yes"},
		"checkup": {"halved": "fail"}}`)
	res, err = Cases(r, "bad", obj(t, `{"answer": "one two three four five"}`), Options{})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, Halved), "neither true, false nor null")
	// A pool whose answers all share words with the question.
	r = customRegistry(t, relevanceSpec)
	res, err = Cases(r, "relevance", obj(t, relevanceRow), Options{Pool: customPool(t)[:1]})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, Replaced), "no other row's answer shares no content word with this row's other inputs")
}

func TestCustomBuiltinReader(t *testing.T) {
	// A custom prompt with claim-groundedness's reader gets claim-groundedness's cases; the
	// generic ones only when its checkup field names them.
	spec := `{"id": "my-claims", "dialect": "jinja", "prompt": "{{ question }} {{ reports }} {{ evidence }}",
		"inputs": [{"name": "question", "kind": "text", "required": true}, {"name": "claims", "kind": "claims", "required": true, "judged": true},
			{"name": "evidence", "kind": "evidence", "required": true}],
		"output": {"kind": "builtin", "evaluator": "claim-groundedness"}}`
	r := customRegistry(t, spec)
	res, err := Cases(r, "my-claims", obj(t, claimRow), Options{Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "verbatim foreign number-changed", transforms(res))
	assert.Empty(t, res.Skipped)

	withCheckup := obj(t, spec)
	withCheckup.Set("checkup", obj(t, `{"halved": false}`))
	b, _ := value.Marshal(withCheckup)
	r = customRegistry(t, string(b))
	res, err = Cases(r, "my-claims", obj(t, claimRow), Options{Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "verbatim foreign number-changed halved", transforms(res))
	assert.Equal(t, []any{"The tower was finished in 1889."}, get(byTransform(res, Halved).Inputs, "claims"))
}

// TestCustomRecallReader: with rag-recall's reader a verdict passes or fails only by a threshold;
// a row without one has no verdict to expect (its null is no judge declining).
func TestCustomRecallReader(t *testing.T) {
	r := customRegistry(t, `{"id": "my-recall", "dialect": "format", "prompt": "{passage_gt} {passage_llm}",
		"inputs": [{"name": "passage_gt", "kind": "text", "required": true}, {"name": "passage_llm", "kind": "text", "required": true, "judged": true},
			{"name": "threshold", "kind": "number", "required": false}],
		"output": {"kind": "builtin", "evaluator": "rag-recall"}, "checkup": {"halved": false}}`)
	row := obj(t, recallRow)
	row.Set("passage_llm", "The tower opened in 1889 for the fair in Paris.")
	res, err := Cases(r, "my-recall", row, Options{})
	require.NoError(t, err)
	assert.NotNil(t, byTransform(res, Halved), "the row has a threshold")
	row.Set("threshold", nil)
	res, err = Cases(r, "my-recall", row, Options{})
	require.NoError(t, err)
	assert.Nil(t, byTransform(res, Halved))
	assert.Contains(t, skipped(res, Halved), "only by a threshold")
	assert.NotNil(t, byTransform(res, Complete), "its own transformations stay")
}
