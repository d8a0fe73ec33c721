package checkup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

const recallRow = `{
	"passage_gt": "[ESSENTIAL PASSAGE]\nThe Eiffel Tower was completed in 1889 for the World's Fair.\n\n[ESSENTIAL PASSAGE]\nIts wrought iron lattice weighs about 7,300 tonnes.\n\n[BONUS PASSAGE]\nGustave Eiffel's company designed it.",
	"passage_llm": "The tower opened in 1889.",
	"threshold": 3
}`

// scores is a rag-recall answer giving the essential and bonus passages these scores.
func scores(essential, bonus []string) string {
	var b strings.Builder
	b.WriteString("• RECALL_Reasoning:")
	for _, s := range essential {
		b.WriteString(" [ESSENTIAL PASSAGE] … Score: " + s)
	}
	for _, s := range bonus {
		b.WriteString(" [BONUS PASSAGE] … Score: " + s)
	}
	return b.String()
}

func TestRecallCases(t *testing.T) {
	res, err := Cases(registry(t), "rag-recall", obj(t, recallRow), Options{Seed: 1, Pool: pool(t)})
	require.NoError(t, err)
	assert.Equal(t, "complete passage-removed foreign-answer", transforms(res))
	llm := func(tr string) string { s, _ := getS(byTransform(res, tr).Inputs, "passage_llm"); return s }
	assert.Equal(t, "The Eiffel Tower was completed in 1889 for the World's Fair.\n\nIts wrought iron lattice weighs about 7,300 tonnes.\n\nGustave Eiffel's company designed it.", llm(Complete))
	removed := llm(PassageRemoved)
	k, _ := num(get(object(byTransform(res, PassageRemoved).Expect, "scores"), "passage"))
	gone := []string{"The Eiffel Tower was completed in 1889 for the World's Fair.", "Its wrought iron lattice weighs about 7,300 tonnes."}[int(k)-1]
	assert.NotContains(t, removed, gone)
	assert.False(t, stemsOf(textsOf(obj(t, recallRow), nil)).shares(llm(ForeignAnswer)))

	complete, cut, foreign := *byTransform(res, Complete), *byTransform(res, PassageRemoved), *byTransform(res, ForeignAnswer)
	g := grade(t, "rag-recall", complete, scores([]string{"5", "4"}, []string{"5"}))
	assert.Equal(t, Caught, g.Outcome, g.Detail)
	g = grade(t, "rag-recall", complete, scores([]string{"5", "3"}, []string{"5"}))
	assert.Equal(t, Missed, g.Outcome)
	assert.Contains(t, g.Detail, "the judge scored passage 2 (3)")
	g = grade(t, "rag-recall", complete, scores([]string{"5"}, nil))
	assert.Equal(t, Undetermined, g.Outcome)
	assert.Equal(t, diag.RecallBadScores, g.Code)

	// The removed passage scored low, and the recall below the complete answer's.
	other := []string{"5", "5"}
	other[int(k)-1] = "1"
	completeV := verdict(t, "rag-recall", complete.Inputs, scores([]string{"5", "4"}, []string{"5"}))
	cutV := verdict(t, "rag-recall", cut.Inputs, scores(other, []string{"5"}))
	g, err = Grade(asJSON(t, cut), cutV, obj(t, `{}`))
	require.NoError(t, err)
	assert.Equal(t, Undetermined, g.Outcome, "without the complete answer's verdict")
	assert.Contains(t, g.Detail, "whose verdict was not given")
	refs := obj(t, `{}`)
	refs.Set(Complete, completeV)
	g, err = Grade(asJSON(t, cut), cutV, refs)
	require.NoError(t, err)
	assert.Equal(t, Caught, g.Outcome, g.Detail)
	// A high score for the removed passage is a miss whatever the rest.
	other[int(k)-1] = "4"
	g, err = Grade(asJSON(t, cut), verdict(t, "rag-recall", cut.Inputs, scores(other, []string{"5"})), refs)
	require.NoError(t, err)
	assert.Equal(t, Missed, g.Outcome)
	assert.Contains(t, g.Detail, "(removed from the answer) scored at most 2; the judge gave it 4")
	// Low for the removed passage, but no lower a recall than the complete answer's.
	other = []string{"5", "5"}
	other[int(k)-1] = "2"
	lowComplete := verdict(t, "rag-recall", complete.Inputs, scores([]string{"4", "4"}, []string{"0"}))
	refs.Set(Complete, lowComplete)
	g, err = Grade(asJSON(t, cut), verdict(t, "rag-recall", cut.Inputs, scores(other, []string{"5"})), refs)
	require.NoError(t, err)
	assert.Equal(t, Missed, g.Outcome)
	assert.Contains(t, g.Detail, "expected a recall below the complete case's 4")

	g = grade(t, "rag-recall", foreign, scores([]string{"1", "2"}, []string{"0"}))
	assert.Equal(t, Caught, g.Outcome)
	g = grade(t, "rag-recall", foreign, scores([]string{"1", "3"}, []string{"0"}))
	assert.Equal(t, Missed, g.Outcome)
}

func TestRecallSkips(t *testing.T) {
	// One essential passage only, whose removal leaves nothing; the pool shares words.
	row := obj(t, `{"passage_gt": "[ESSENTIAL PASSAGE]\nThe Eiffel Tower was completed in 1889.", "passage_llm": "x"}`)
	res, err := Cases(registry(t), "rag-recall", row, Options{Pool: []*value.Object{obj(t, `{"passage_llm": "The Eiffel Tower is tall. It was completed long ago."}`)}})
	require.NoError(t, err)
	assert.Equal(t, "complete", transforms(res))
	assert.Contains(t, skipped(res, PassageRemoved), "no other passage")
	assert.Contains(t, skipped(res, ForeignAnswer), "no other row has a sentence")
	// Passages that repeat each other: none has words of its own.
	row = obj(t, `{"passage_gt": "[ESSENTIAL PASSAGE]\nThe Eiffel Tower was completed in 1889.\n[ESSENTIAL PASSAGE]\nIn 1889 the Eiffel Tower was completed.", "passage_llm": "x"}`)
	res, err = Cases(registry(t), "rag-recall", row, Options{})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, PassageRemoved), "no essential passage has words of its own")
	// An essential passage without text.
	row = obj(t, `{"passage_gt": "[ESSENTIAL PASSAGE]\n\n[ESSENTIAL PASSAGE]\nThe Eiffel Tower was completed in 1889.", "passage_llm": "x"}`)
	res, err = Cases(registry(t), "rag-recall", row, Options{})
	require.NoError(t, err)
	assert.Contains(t, skipped(res, Complete), "essential passage 1 has no text")
	c := byTransform(res, PassageRemoved)
	if c != nil {
		assert.NotContains(t, get(c.Expect, "scores").(*value.Object).Keys(), "final_below", "no complete case to compare with")
	}
}
