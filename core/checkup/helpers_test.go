package checkup

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"ragjudge/core/judge"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

var (
	regOnce sync.Once
	reg     *judge.Registry
	regErr  error
)

// registry is a registry of the built-ins (shared: tests that define custom evaluators use ids
// of their own).
func registry(t testing.TB) *judge.Registry {
	regOnce.Do(func() { reg, regErr = judge.Load(prompts.FS) })
	require.NoError(t, regErr)
	return reg
}

// obj decodes a JSON object.
func obj(t testing.TB, text string) *value.Object {
	t.Helper()
	v, err := value.Decode([]byte(text))
	require.NoError(t, err, text)
	o, ok := v.(*value.Object)
	require.True(t, ok, text)
	return o
}

// asJSON is x as JS sees it: marshalled and decoded again (a Case, a Verdict).
func asJSON(t testing.TB, x any) *value.Object {
	t.Helper()
	b, err := value.Marshal(x)
	require.NoError(t, err)
	return obj(t, string(b))
}

// verdict parses answer for evaluator id on inputs, as JSON.
func verdict(t testing.TB, id string, inputs *value.Object, answer string) *value.Object {
	t.Helper()
	v, err := registry(t).Parse(id, inputs, answer)
	require.NoError(t, err)
	return asJSON(t, v)
}

// grade grades case c by the judge's answer to its inputs.
func grade(t testing.TB, id string, c Case, answer string) Grading {
	t.Helper()
	g, err := Grade(asJSON(t, c), verdict(t, id, c.Inputs, answer), nil)
	require.NoError(t, err)
	return g
}

// byTransform finds the case of transformation tr, or nil.
func byTransform(res *Result, tr string) *Case {
	for k := range res.Cases {
		if res.Cases[k].Transform == tr {
			return &res.Cases[k]
		}
	}
	return nil
}

// skipped is the reason transformation tr was skipped, or "".
func skipped(res *Result, tr string) string {
	for _, s := range res.Skipped {
		if s.Transform == tr {
			return s.Reason
		}
	}
	return ""
}

// transforms lists the transformations of the cases made, in order.
func transforms(res *Result) string {
	var out []string
	for _, c := range res.Cases {
		out = append(out, c.Transform)
	}
	return strings.Join(out, " ")
}

// pool is rows about other subjects than the test rows, as a dataset would give them.
func pool(t testing.TB) []*value.Object {
	return []*value.Object{
		obj(t, `{"question": "Why did Krakatoa matter?", "claims": ["Krakatoa erupted."], "evidence": ["Volcanic eruptions release sulfur dioxide into the stratosphere. The Krakatoa eruption of 1883 cooled global temperatures."]}`),
		obj(t, `{"answer": "Honeybees communicate using a waggle dance.", "facts": ["Honeybees communicate flower locations using a waggle dance."]}`),
	}
}
