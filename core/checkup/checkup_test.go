package checkup

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

const claimRow = `{
	"question": "When was the Eiffel Tower built?",
	"claims": ["The tower was finished in 1889.", "It is made of iron."],
	"evidence": [
		{"title": "History", "text": "The Eiffel Tower was completed in 1889 for the World's Fair. It is 330 metres tall."},
		"Gustave Eiffel's company designed and built the tower."
	]
}`

// claimIDs returns the claim ids of inputs in order, with their texts, as claim-groundedness
// reads them (the cards of a verdict on an answer that grades nothing).
func claimIDs(t testing.TB, inputs *value.Object) (ids, texts []string) {
	v := verdict(t, "claim-groundedness", inputs, `{"claims": []}`)
	list, _ := get(object(v, "verdict"), "claims").([]any)
	for _, x := range list {
		id, _ := getS(asObject(x), "id")
		text, _ := getS(asObject(x), "text")
		ids, texts = append(ids, id), append(texts, text)
	}
	return ids, texts
}

// claimAnswer is a judge's answer grading every claim of inputs grounded, but those in
// ungrounded, and leaving out skip.
func claimAnswer(t testing.TB, inputs *value.Object, ungrounded map[string]bool, skip string) string {
	ids, _ := claimIDs(t, inputs)
	var parts []string
	for _, id := range ids {
		if id == skip {
			continue
		}
		if ungrounded[id] {
			parts = append(parts, `{"claim_id": "`+id+`", "grounded": false, "ungrounded_assertions": [{"assertion": "x", "reason": "not in the evidence"}]}`)
		} else {
			parts = append(parts, `{"claim_id": "`+id+`", "grounded": true, "ungrounded_assertions": []}`)
		}
	}
	return `{"claims": [` + strings.Join(parts, ", ") + `]}`
}

func TestClaimCases(t *testing.T) {
	row := obj(t, claimRow)
	res, err := Cases(registry(t), "claim-groundedness", row, Options{Seed: 7, Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "verbatim foreign number-changed", transforms(res))
	assert.Empty(t, res.Skipped)

	// added is the text of the claim a case expects a grade of, which is among its claims once.
	added := func(c *Case) string {
		id, _ := getS(object(c.Expect, "claim"), "id")
		ids, texts := claimIDs(t, c.Inputs)
		require.Len(t, ids, 3)
		k := indexOf(ids, id)
		require.GreaterOrEqual(t, k, 0, "the expected claim %s is among the case's claims %v", id, ids)
		return texts[k]
	}
	assert.Contains(t, []string{"The Eiffel Tower was completed in 1889 for the World's Fair.",
		"Gustave Eiffel's company designed and built the tower."}, added(byTransform(res, Verbatim)), "not \"It is 330 metres tall.\": it points back")
	assert.Equal(t, true, get(object(byTransform(res, Verbatim).Expect, "claim"), "grounded"))
	foreign := added(byTransform(res, Foreign))
	assert.Contains(t, []string{"Volcanic eruptions release sulfur dioxide into the stratosphere.", "The Krakatoa eruption of 1883 cooled global temperatures.",
		"Honeybees communicate flower locations using a waggle dance.", "Honeybees communicate using a waggle dance."}, foreign)
	assert.False(t, stemsOf(textsOf(row, nil)).shares(foreign))
	assert.Contains(t, []string{"The Eiffel Tower was completed in 1885 for the World's Fair.", "The Eiffel Tower was completed in 1893 for the World's Fair.",
		"It is 530 metres tall.", "It is 130 metres tall."}, added(byTransform(res, NumberChanged)))

	// The row itself is never changed: the bridge may hold it for later calls.
	assert.True(t, jsonEqual(t, obj(t, claimRow), row))
}

func TestClaimGrades(t *testing.T) {
	res, err := Cases(registry(t), "claim-groundedness", obj(t, claimRow), Options{Seed: 3, Pool: pool(t)})
	require.NoError(t, err)
	for _, c := range res.Cases {
		id, _ := getS(object(c.Expect, "claim"), "id")
		grounded := get(object(c.Expect, "claim"), "grounded").(bool)
		// A judge that grades the added claim as expected catches it, one that grades it the
		// other way misses it, one that skips it or cannot be read leaves it undetermined.
		right := claimAnswer(t, c.Inputs, map[string]bool{id: !grounded}, "")
		wrong := claimAnswer(t, c.Inputs, map[string]bool{id: grounded}, "")
		g := grade(t, "claim-groundedness", c, right)
		assert.Equal(t, Caught, g.Outcome, "%s: %s", c.Transform, g.Detail)
		g = grade(t, "claim-groundedness", c, wrong)
		assert.Equal(t, Missed, g.Outcome, "%s: %s", c.Transform, g.Detail)
		assert.Contains(t, g.Detail, "claim "+id)
		g = grade(t, "claim-groundedness", c, claimAnswer(t, c.Inputs, nil, id))
		assert.Equal(t, Undetermined, g.Outcome, c.Transform)
		assert.Equal(t, diag.ClaimsMissing, g.Code, "the verdict's own error")
		ids, _ := claimIDs(t, c.Inputs)
		other := ids[0]
		if other == id {
			other = ids[1]
		}
		g = grade(t, "claim-groundedness", c, claimAnswer(t, c.Inputs, map[string]bool{other: true}, id))
		assert.Equal(t, Undetermined, g.Outcome, "a verdict that fails on another claim says nothing of this one")
		assert.Equal(t, diag.ClaimsSkipped, g.Code)
		assert.Contains(t, g.Detail, "no grade (missing)")
		g = grade(t, "claim-groundedness", c, `{"claims": [`)
		assert.Equal(t, Undetermined, g.Outcome)
		assert.Equal(t, diag.AnswerTruncated, g.Code)
		// The other claims' grades say nothing of the case.
		others := map[string]bool{}
		for _, x := range ids {
			others[x] = x != id
		}
		others[id] = !grounded
		g = grade(t, "claim-groundedness", c, claimAnswer(t, c.Inputs, others, ""))
		assert.Equal(t, Caught, g.Outcome, c.Transform)
	}
}

func TestClaimSkips(t *testing.T) {
	// Evidence with no sentence that is one checkable claim, no number, and no pool.
	row := obj(t, `{"question": "Q?", "claims": ["A claim."], "evidence": ["Yes", "What is it?"]}`)
	res, err := Cases(registry(t), "claim-groundedness", row, Options{})
	require.NoError(t, err)
	assert.Empty(t, res.Cases)
	assert.Contains(t, skipped(res, Verbatim), "no evidence chunk has a sentence")
	assert.Contains(t, skipped(res, Foreign), "no other rows were given")
	assert.Contains(t, skipped(res, NumberChanged), "no evidence sentence states a number")

	// A pool about the same subject has no sentence that shares nothing with the row.
	res, err = Cases(registry(t), "claim-groundedness", obj(t, claimRow), Options{Pool: []*value.Object{
		obj(t, `{"evidence": ["The Eiffel Tower is in Paris. Tourists visit the tower every day."]}`)}})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, Foreign), "no other row has a sentence that shares no content word with this row (1 rows looked at)")

	// A row the evaluator cannot judge yields no case but the render's error.
	_, err = Cases(registry(t), "claim-groundedness", obj(t, `{"question": "Q?", "claims": [], "evidence": ["E."]}`), Options{})
	require.Error(t, err)
	assert.Equal(t, diag.InputEmptyList, err.(*diag.Error).Code)
	_, err = Cases(registry(t), "nope", obj(t, `{}`), Options{})
	assert.Equal(t, diag.InputUnknownEvaluator, err.(*diag.Error).Code)
}

func TestClaimIDs(t *testing.T) {
	// Claims as objects with ids: the added one gets an id none has, even ones like the ids
	// positions would give.
	row := obj(t, `{"question": "Q?", "claims": [{"id": "checkup-1", "text": "A."}, {"text": "B."}, "C."], "evidence": ["The Eiffel Tower was completed in 1889 for the World's Fair."]}`)
	for seed := int64(0); seed < 8; seed++ {
		res, err := Cases(registry(t), "claim-groundedness", row, Options{Seed: seed})
		require.NoError(t, err)
		c := byTransform(res, Verbatim)
		require.NotNil(t, c)
		id, _ := getS(object(c.Expect, "claim"), "id")
		assert.Equal(t, "checkup-2", id)
		ids, texts := claimIDs(t, c.Inputs)
		assert.Equal(t, "The Eiffel Tower was completed in 1889 for the World's Fair.", texts[indexOf(ids, id)])
	}
	// Plain texts: the added claim is a text too, with the id its place gives it.
	row = obj(t, `{"question": "Q?", "claims": ["A.", "B.", "C."], "evidence": ["The Eiffel Tower was completed in 1889 for the World's Fair."]}`)
	places := map[string]bool{}
	for seed := int64(0); seed < 40; seed++ {
		res, err := Cases(registry(t), "claim-groundedness", row, Options{Seed: seed})
		require.NoError(t, err)
		c := byTransform(res, Verbatim)
		id, _ := getS(object(c.Expect, "claim"), "id")
		ids, texts := claimIDs(t, c.Inputs)
		require.Equal(t, "The Eiffel Tower was completed in 1889 for the World's Fair.", texts[indexOf(ids, id)])
		places[id] = true
	}
	assert.Len(t, places, 4, "the added claim goes at any of the four places")
}

func TestDeterministic(t *testing.T) {
	row := obj(t, claimRow)
	a, err := Cases(registry(t), "claim-groundedness", row, Options{Seed: 11, Pool: pool(t)})
	require.NoError(t, err)
	b, err := Cases(registry(t), "claim-groundedness", obj(t, claimRow), Options{Seed: 11, Pool: pool(t)})
	require.NoError(t, err)
	assert.True(t, jsonEqual(t, asJSON(t, a), asJSON(t, b)))
	differ := false
	for seed := int64(0); seed < 20 && !differ; seed++ {
		c, err := Cases(registry(t), "claim-groundedness", row, Options{Seed: seed, Pool: pool(t)})
		require.NoError(t, err)
		differ = !jsonEqual(t, asJSON(t, a), asJSON(t, c))
	}
	assert.True(t, differ, "another seed makes other choices")
}

const groundingRow = `{
	"answer": "The tower was finished in 1889.",
	"facts": ["The Eiffel Tower was completed in 1889.", "The Eiffel Tower is located in Paris."],
	"mode": "strict"
}`

func TestGroundingCases(t *testing.T) {
	for _, mode := range []string{"strict", "lenient"} {
		row := obj(t, groundingRow)
		row.Set("mode", mode)
		res, err := Cases(registry(t), "answer-grounding", row, Options{Seed: 5, Pool: pool(t)})
		require.NoError(t, err)
		assert.Equal(t, "verbatim foreign number-changed verbatim-plus-foreign", transforms(res))
		answer := func(tr string) string { s, _ := getS(byTransform(res, tr).Inputs, "answer"); return s }
		facts := []string{"The Eiffel Tower was completed in 1889.", "The Eiffel Tower is located in Paris."}
		assert.Contains(t, facts, answer(Verbatim))
		assert.Contains(t, []string{"The Eiffel Tower was completed in 1893.", "The Eiffel Tower was completed in 1885."}, answer(NumberChanged))
		assert.False(t, stemsOf(textsOf(row, nil)).shares(answer(Foreign)))
		plus := answer(VerbatimForeign)
		assert.True(t, strings.HasPrefix(plus, answer(Verbatim)+" ") && strings.HasSuffix(plus, " "+answer(Foreign)), plus)
		for _, c := range res.Cases {
			m, _ := getS(c.Inputs, "mode")
			assert.Equal(t, mode, m, "the row's mode is kept")
			want := c.Transform == Verbatim
			right, wrong := map[bool]string{true: "Yes.", false: "**No**"}[want], map[bool]string{true: "Yes.", false: "**No**"}[!want]
			assert.Equal(t, Caught, grade(t, "answer-grounding", c, right).Outcome, c.Transform)
			g := grade(t, "answer-grounding", c, wrong)
			assert.Equal(t, Missed, g.Outcome, c.Transform)
			assert.Contains(t, g.Detail, `the judge said "`)
			g = grade(t, "answer-grounding", c, "It depends on how you read it.")
			assert.Equal(t, Undetermined, g.Outcome, c.Transform)
			assert.Equal(t, diag.AnswerNoVerdict, g.Code)
		}
	}
}

func TestGroundingSkips(t *testing.T) {
	// A fact as one text with no sentence, no number to change.
	res, err := Cases(registry(t), "answer-grounding", obj(t, `{"answer": "x", "facts": "paris, capital of france"}`), Options{Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "foreign", transforms(res))
	assert.Contains(t, skipped(res, Verbatim), "no fact has a sentence")
	assert.Contains(t, skipped(res, NumberChanged), "no fact states a number")
	assert.Contains(t, skipped(res, VerbatimForeign), "no fact has a sentence")
}

func TestNumberChange(t *testing.T) {
	used := map[string]bool{}
	for _, tc := range []struct {
		in   string
		want []string // the sentences it may become; none: no change
	}{
		{"The tower was completed in 1889.", []string{"The tower was completed in 1893."}},
		{"The dose is 500 mg twice a day.", []string{"The dose is 700 mg twice a day."}},
		{"It costs $1,200 in total.", []string{"It costs $3,200 in total."}},
		{"Growth was 3.5% last year.", []string{"Growth was 5.5% last year."}},
		{"The treaty was signed on 12 March in Paris.", []string{"The treaty was signed on 17 March in Paris."}},
		{"The treaty was signed on March 30 in Paris.", []string{"The treaty was signed on March 25 in Paris."}},
		{"Nine patients had 0 complications.", []string{"Nine patients had 2 complications."}},
		{"GPT-4 was released by OpenAI.", nil},
		{"Water is H2O in chemistry.", nil},
		{"She finished 3rd in the race.", nil},
		{"More than 500 people attended the event.", nil},
		{"Up to 30 guests can be seated there.", nil},
		{"Between 10 and 20 samples were lost.", nil},
		{"It takes 10-20 minutes to boil.", nil},
		{"It takes 10 – 20 minutes to boil.", nil},
		{"See Figure 3 for the full results.", nil},
		{"Section 2 describes the method used.", nil},
		{"The meeting starts at 10:30 every day.", nil},
		{"Version 1.2.3 fixed the crash bug.", nil},
		{"Roughly 40 people came to the event.", nil},
		{"He scored 5 and then 5 again later.", nil},
		{"About 5+ volunteers helped with it.", nil},
		{"Cited in [2] as the main source.", nil},
	} {
		got, ok := changeNumber(tc.in, used, 0)
		if tc.want == nil {
			assert.False(t, ok, "%q became %q", tc.in, got.text)
			continue
		}
		if assert.True(t, ok, tc.in) {
			assert.Contains(t, tc.want, got.text)
		}
	}
	// A value that some text of the row holds is never the new one.
	got, ok := changeNumber("The dose is 500 mg twice a day.", numberSet([]string{"700 or 300 mg"}), 0)
	require.True(t, ok)
	assert.Equal(t, "The dose is 800 mg twice a day.", got.text)
	_, ok = changeNumber("The dose is 5 mg.", numberSet([]string{"7 3 8 2 9 1"}), 0)
	assert.False(t, ok, "no free value")
	assert.True(t, taken(numberSet([]string{"3.0"}), "3"), "by value")
	assert.True(t, taken(numberSet([]string{"1200"}), "1,200"))
}

func TestSentences(t *testing.T) {
	assert.Equal(t, []string{"Dr. Smith found 3.5% growth in the U.S. market.", "It rose again.", "Line two"},
		sentences("Dr. Smith found 3.5% growth in the U.S. market. It rose again.\nLine two"))
	assert.Equal(t, []string{`He said "stop."`, "Then he left."}, sentences(`He said "stop." Then he left.`))
	assert.Equal(t, []string{"The count fell to 0.", "Then it rose."}, sentences("The count fell to 0. Then it rose."), "a digit is no initial")
	assert.Equal(t, []string{"J. K. Rowling wrote it."}, sentences("J. K. Rowling wrote it."), "a letter is")
	assert.True(t, isAssertion("The Eiffel Tower was completed in 1889."))
	for _, s := range []string{"Was it completed in 1889?", "Too short here.", "the tower was completed in 1889.", "It is described in [2] above.", "See https://example.com for the details.", "No period at the end of this"} {
		assert.False(t, isAssertion(s), s)
	}
	assert.False(t, stemsOf([]string{"Plants make food."}).shares("The eruption cooled the planet."))
	assert.True(t, stemsOf([]string{"Plants make food."}).shares("A plant grows."), "plural and singular are one stem")
	assert.False(t, stemsOf([]string{"The cat and the dog."}).shares("The one of them."), "function words are no content")
	assert.True(t, stemsOf([]string{"In 1889."}).shares("1889 was a year."), "numbers are content")
	assert.True(t, standsAlone("The tower is 330 metres tall."))
	assert.False(t, standsAlone("It is 330 metres tall."))
	assert.False(t, standsAlone("These were built in 1889."))
}

func jsonEqual(t testing.TB, a, b any) bool {
	x, err := value.Marshal(a)
	require.NoError(t, err)
	y, err := value.Marshal(b)
	require.NoError(t, err)
	return string(x) == string(y)
}

func indexOf(list []string, s string) int {
	for k, x := range list {
		if x == s {
			return k
		}
	}
	return -1
}

// TestListsSorted: inList searches by halves, so a word out of order would never be found.
func TestListsSorted(t *testing.T) {
	for name, list := range map[string][]string{"stopWords": stopWords, "abbreviations": abbreviations, "boundsAndLabels": boundsAndLabels, "months": months, "anaphors": anaphors} {
		assert.True(t, sort.StringsAreSorted(list), name)
		for _, w := range list {
			assert.True(t, inList(list, w), "%s: %s", name, w)
		}
		assert.False(t, inList(list, "zzzz-not-a-word"))
		assert.False(t, inList(list, ""))
	}
}
