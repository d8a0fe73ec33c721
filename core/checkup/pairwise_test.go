package checkup

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

const pairRow = `{
	"contexts": [
		"The Eiffel Tower was completed in 1889 for the World's Fair.",
		"Honey never spoils when it is stored in sealed containers.",
		"The Amazon river carries more water than any other river."
	],
	"expected_output": "The tower was completed in 1889 [1].",
	"actual_output": "The Eiffel Tower opened in 1889 [1]. Sealed honey keeps for years [2]."
}`

// pairAnswer is a judge's answer grading answer 1 and answer 2 (true, false, null, or "" for
// no grade).
func pairAnswer(a1, a2 string) string {
	part := func(g string) string {
		if g == "" {
			return `{"faithfulness_justification": "…"}`
		}
		return `{"answer_only_asserts_no_document_answers": ` + strconv.FormatBool(g == "null") + `, "faithfulness": ` + g + `}`
	}
	return `{"answer_1": ` + part(a1) + `, "answer_2": ` + part(a2) + `}`
}

func TestPairwiseCases(t *testing.T) {
	row := obj(t, pairRow)
	res, err := Cases(registry(t), "pairwise-faithfulness", row, Options{Seed: 2, Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "citations-removed citations-moved foreign-appended no-document cited-context position-swap", transforms(res))
	assert.Empty(t, res.Skipped)
	actual := func(tr string) string { s, _ := getS(byTransform(res, tr).Inputs, "actual_output"); return s }

	assert.Equal(t, "The Eiffel Tower opened in 1889. Sealed honey keeps for years.", actual(CitationsRemoved))
	moved := actual(CitationsMoved)
	assert.Contains(t, []string{"The Eiffel Tower opened in 1889 [2]. Sealed honey keeps for years [3].",
		"The Eiffel Tower opened in 1889 [3]. Sealed honey keeps for years [1]."}, moved)
	assert.Contains(t, byTransform(res, CitationsMoved).Note, "now cites only references that share no content word with it")
	appended := actual(ForeignAppended)
	require.True(t, strings.HasPrefix(appended, "The Eiffel Tower opened in 1889 [1]. Sealed honey keeps for years [2]. "), appended)
	last := judge.Sentences(appended)
	assert.Empty(t, last[len(last)-1].Refs)
	assert.False(t, stemsOf(textsOf(row, nil)).shares(last[len(last)-1].Text))
	assert.Equal(t, "No document seems to precisely answer your question.", actual(NoDocument))
	assert.Contains(t, []string{"The Eiffel Tower was completed in 1889 for the World's Fair [1].",
		"Honey never spoils when it is stored in sealed containers [2].", "The Amazon river carries more water than any other river [3]."}, actual(CitedContext))
	swap := byTransform(res, PositionSwap)
	assert.True(t, swap.BothOrders)
	assert.True(t, jsonEqual(t, row, swap.Inputs), "the row as it is")

	for _, c := range res.Cases {
		if c.BothOrders {
			continue
		}
		want, _ := c.Expect.Get("passed")
		right, wrong, declined := "false", "true", "null"
		switch want {
		case true:
			right, wrong = "true", "false"
		case nil:
			right, wrong, declined = "null", "false", ""
		}
		g := grade(t, "pairwise-faithfulness", c, pairAnswer("true", right))
		assert.Equal(t, Caught, g.Outcome, "%s: %s", c.Transform, g.Detail)
		g = grade(t, "pairwise-faithfulness", c, pairAnswer("true", wrong))
		assert.Equal(t, Missed, g.Outcome, "%s: %s", c.Transform, g.Detail)
		if declined != "" {
			g = grade(t, "pairwise-faithfulness", c, pairAnswer("true", declined))
			assert.Equal(t, Missed, g.Outcome, "%s: declining where the rubric decides is a miss", c.Transform)
			assert.Contains(t, g.Detail, "declined")
		}
		g = grade(t, "pairwise-faithfulness", c, pairAnswer("true", ""))
		assert.Equal(t, Undetermined, g.Outcome, c.Transform)
		assert.Equal(t, diag.PairwiseNoGrade, g.Code)
		g = grade(t, "pairwise-faithfulness", c, "I cannot grade this.")
		assert.Equal(t, Undetermined, g.Outcome, c.Transform)
		assert.Equal(t, diag.AnswerNoVerdict, g.Code)
	}
}

func TestPairwiseSkips(t *testing.T) {
	// One reference, no citation, an answer that only says no document answers.
	row := obj(t, `{"contexts": ["Short."], "expected_output": "x", "actual_output": "No document seems to precisely answer your question."}`)
	res, err := Cases(registry(t), "pairwise-faithfulness", row, Options{Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "no-document position-swap", transforms(res))
	assert.Contains(t, skipped(res, CitationsRemoved), "cites no reference")
	assert.Contains(t, skipped(res, CitationsMoved), "one reference only")
	assert.Contains(t, skipped(res, ForeignAppended), "only says no document answers")
	assert.Contains(t, skipped(res, CitedContext), "no reference has a sentence")

	// Every reference about the cited sentences' subject: no move certainly lands wrong.
	row = obj(t, `{"contexts": ["The Eiffel Tower is in Paris.", "The Eiffel Tower is made of iron."], "expected_output": "x", "actual_output": "The Eiffel Tower stands in Paris [1]."}`)
	res, err = Cases(registry(t), "pairwise-faithfulness", row, Options{Pool: pool(t)})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, CitationsMoved), "every sentence citing one shares words with its new reference")
	// A citation of a reference that does not exist is no witness of a move.
	row = obj(t, `{"contexts": ["Honey never spoils in sealed jars.", "The Amazon is a river."], "expected_output": "x", "actual_output": "The Eiffel Tower stands in Paris [7]."}`)
	res, err = Cases(registry(t), "pairwise-faithfulness", row, Options{Pool: pool(t)})
	require.NoError(t, err)
	assert.NotEmpty(t, skipped(res, CitationsMoved))
}

// orders judges a pairwise case in both orders with a judge that answers answer(a1Text, a2Text)
// for each, and combines the two verdicts.
func orders(t *testing.T, inputs *value.Object, answer func(first, second string) string) *value.Object {
	t.Helper()
	swapped, err := SwapInputs(registry(t), "pairwise-faithfulness", inputs)
	require.NoError(t, err)
	e1, _ := getS(inputs, "expected_output")
	a1, _ := getS(inputs, "actual_output")
	v1 := verdict(t, "pairwise-faithfulness", inputs, answer(e1, a1))
	v2 := verdict(t, "pairwise-faithfulness", swapped, answer(a1, e1))
	out, err := CombineOrders(v1, v2)
	require.NoError(t, err)
	return out
}

func TestPositionSwap(t *testing.T) {
	row := obj(t, pairRow)
	res, err := Cases(registry(t), "pairwise-faithfulness", row, Options{})
	require.NoError(t, err)
	c := asJSON(t, *byTransform(res, PositionSwap))
	expected, _ := getS(row, "expected_output")
	// grades is a judge that grades each answer by its text, wherever it stands.
	grades := func(of map[string]string) func(a, b string) string {
		return func(a, b string) string { return pairAnswer(of[a], of[b]) }
	}
	fair := grades(map[string]string{expected: "true", "The Eiffel Tower opened in 1889 [1]. Sealed honey keeps for years [2].": "false"})
	v := orders(t, row, fair)
	g, err := Grade(c, v, nil)
	require.NoError(t, err)
	assert.Equal(t, Caught, g.Outcome, g.Detail)
	assert.Equal(t, false, get(v, "passed"), "the combined verdict is the actual output's grade")
	o := object(object(v, "verdict"), "orders")
	assert.Equal(t, []any{"first", "second"}, get(o, "first_slot"))

	// A judge that favours the first slot.
	first := func(a, b string) string { return pairAnswer("true", "false") }
	v = orders(t, row, first)
	g, err = Grade(c, v, nil)
	require.NoError(t, err)
	assert.Equal(t, Missed, g.Outcome)
	assert.Equal(t, "the grade of actual_output and expected_output changed when the answers' places were exchanged", g.Detail)
	assert.Nil(t, get(v, "passed"))
	code, msg := firstError(v)
	assert.Equal(t, diag.PositionFlip, code)
	assert.Equal(t, "the grades changed with the answers' places: the actual output got 0 as answer 2 and 1 as answer 1; the expected output got 1 as answer 1 and 0 as answer 2", msg)

	// A judge that leaves answer 1 ungraded in the exchanged order cannot be compared.
	n := 0
	partial := func(a, b string) string {
		n++
		if n == 2 {
			return pairAnswer("", "true")
		}
		return pairAnswer("true", "false")
	}
	v = orders(t, row, partial)
	g, err = Grade(c, v, nil)
	require.NoError(t, err)
	assert.Equal(t, Undetermined, g.Outcome)
	assert.Equal(t, diag.PositionUngraded, g.Code)

	// One order's verdict is not what a both-orders case is graded by.
	g, err = Grade(c, verdict(t, "pairwise-faithfulness", row, pairAnswer("true", "false")), nil)
	require.NoError(t, err)
	assert.Equal(t, Undetermined, g.Outcome)
	assert.Contains(t, g.Detail, "combineOrders")
}

func TestCombineOrders(t *testing.T) {
	row := obj(t, pairRow)
	// Agreeing orders: the first's verdict with the orders, the second's checks as warnings
	// (but its citation check, which is about the expected output), nothing changed.
	v := orders(t, row, func(a, b string) string { return pairAnswer("true", "true") })
	assert.Equal(t, true, get(v, "passed"))
	assert.Equal(t, int64(1), get(v, "score"))
	o := object(object(v, "verdict"), "orders")
	assert.Equal(t, true, get(o, "agree"))
	assert.Equal(t, []any{}, get(o, "changed"))
	assert.Equal(t, []any{"tie", "tie"}, get(o, "first_slot"))
	assert.NotNil(t, object(object(o, "exchanged"), "answer_1"))
	for _, x := range get(v, "checks").([]any) {
		code, _ := getS(asObject(x), "code")
		msg, _ := getS(asObject(x), "message")
		assert.False(t, strings.HasPrefix(msg, "in the exchanged order: citation"), msg)
		assert.NotEqual(t, diag.SevError, get(asObject(x), "severity"), code)
	}
	// Not measurable in both orders: agreed, and undetermined by the judge's choice.
	v = orders(t, row, func(a, b string) string { return pairAnswer("null", "null") })
	assert.Equal(t, true, get(object(object(v, "verdict"), "orders"), "agree"))
	assert.Nil(t, get(v, "passed"))
	code, _ := firstError(v)
	assert.Equal(t, diag.PairwiseNotMeasurable, code)
	// null in one order and 0 in the other is a flip.
	n := 0
	v = orders(t, row, func(a, b string) string {
		n++
		if n == 1 {
			return pairAnswer("true", "null")
		}
		return pairAnswer("false", "true")
	})
	assert.Equal(t, false, get(object(object(v, "verdict"), "orders"), "agree"))
	_, err := CombineOrders(obj(t, `{"passed": true, "verdict": {"answer": "yes"}}`), obj(t, `{}`))
	assert.Error(t, err)
	_, err = SwapInputs(registry(t), "answer-grounding", obj(t, groundingRow))
	assert.ErrorContains(t, err, "compares no two answers")
	swapped, err := SwapInputs(registry(t), "pairwise-faithfulness", row)
	require.NoError(t, err)
	a, _ := getS(swapped, "actual_output")
	assert.Equal(t, "The tower was completed in 1889 [1].", a)
	assert.Equal(t, []string{"contexts", "expected_output", "actual_output"}, swapped.Keys())
}

func TestPositionStats(t *testing.T) {
	row := obj(t, pairRow)
	fair := orders(t, row, func(a, b string) string {
		if strings.HasPrefix(a, "The tower") {
			return pairAnswer("true", "false")
		}
		return pairAnswer("false", "true")
	})
	biased := orders(t, row, func(a, b string) string { return pairAnswer("true", "false") })
	single := verdict(t, "pairwise-faithfulness", row, pairAnswer("true", "false"))
	p := PositionStats([]any{fair, biased, biased, single, nil})
	assert.Equal(t, 5, p.Rows)
	assert.Equal(t, 3, p.Compared)
	assert.Equal(t, 2, p.Flips)
	assert.Equal(t, 2, p.NotBoth)
	assert.Equal(t, 2.0/3, *p.Flip.Rate)
	// fair: slot 1 wins once and slot 2 once; biased: slot 1 wins both orders, twice.
	assert.Equal(t, 6, p.Decided)
	assert.Equal(t, 5, p.FirstWon)
	require.NotNil(t, p.First.CI)
	p = PositionStats(nil)
	assert.Nil(t, p.Flip.Rate)
	assert.Equal(t, "no row was graded in both orders", p.Flip.Reason)
	assert.Equal(t, "no order gave one answer 1 and the other 0", p.First.Reason)
}
