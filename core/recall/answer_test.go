package recall

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadAnswer(t *testing.T) {
	tests := []struct {
		name             string
		answer           string
		e, b             int
		essential, bonus []string // exact values, in passage order
		problems         []string // diag.Error strings
		warnings         []string
		final            string // the stated final score, "" when absent
	}{
		{
			name:   "seed one-line format",
			answer: "• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: ok Score: 4 [ESSENTIAL PASSAGE] 2: meh Score: 3 [BONUS PASSAGE] 1: x Score: 4\n\n• RECALL_Final_Score: 3.75",
			e:      2, b: 1,
			essential: []string{"4", "3"}, bonus: []string{"4"}, final: "15/4",
		},
		{
			name: "markdown headings and bold scores",
			answer: "## RECALL_Reasoning\n\n### **[ESSENTIAL PASSAGE] 1:**\n- covers it\n- **Score:** 5\n\n" +
				"### Essential Passage 2\n**Score: 4/5**\n\n### Bonus passage #1\nScore = 2.5\n\n**RECALL_Final_Score:** **5**\n",
			e: 2, b: 1,
			essential: []string{"5", "4"}, bonus: []string{"5/2"}, final: "5",
		},
		{
			// A compact list: the number followed by "Score" is the passage's, so the order the
			// judge lists them in and a passage listed twice are read as written (they were
			// numbered by order: passage 2's score went to passage 1, and a repeat was a third
			// passage the ground truth does not have).
			name:   "number followed by Score, out of order and repeated",
			answer: "[ESSENTIAL PASSAGE] 2 Score: 1\n[ESSENTIAL PASSAGE] 1 Score: 5\n[BONUS PASSAGE] 1 score: 2\n\nSummary: [ESSENTIAL PASSAGE] 1 Score: 5",
			e:      2, b: 1,
			essential: []string{"5", "1"}, bonus: []string{"2"},
		},
		{
			name:      "think block dropped",
			answer:    "<think>[ESSENTIAL PASSAGE] 1 Score: 1</think>\n[ESSENTIAL PASSAGE] 1: Score: 5\nRECALL_Final_Score: 5",
			e:         1,
			essential: []string{"5"}, bonus: []string{}, final: "5",
		},
		{
			name:      "lone closing think tag",
			answer:    "Let me think. [ESSENTIAL PASSAGE] 1 Score: 1\n</THINK>\n[ESSENTIAL PASSAGE] 1: Score: 2",
			e:         1,
			essential: []string{"2"}, bonus: []string{},
		},
		{
			name:     "unclosed think",
			answer:   "<think>\n[ESSENTIAL PASSAGE] 1: Score: 2\nand then [ESSENTIAL PASSAGE] 2: Score: 3",
			e:        2,
			problems: []string{"output: no score for essential passage 1", "output: no score for essential passage 2"},
		},
		{
			name:      "underscore emphasis opens a word, an identifier does not",
			answer:    "[ESSENTIAL PASSAGE] 1: __Score__: 4 _Score_: 4\nRECALL_Final_Score_Calculation: min(5, 4) = 4\nmy_score: 1 Score_Calculation: 2",
			e:         1,
			essential: []string{"4"}, bonus: []string{},
		},
		{
			name:      "a percentage final score is not read",
			answer:    "[ESSENTIAL PASSAGE] 1: Score: 4\nRECALL_Final_Score: 80%",
			e:         1,
			essential: []string{"4"}, bonus: []string{},
		},
		{
			name:      "a think tag after the answer has started is text",
			answer:    "[ESSENTIAL PASSAGE] 1: Score: 2\n<think>and then [ESSENTIAL PASSAGE] 2: Score: 3",
			e:         2,
			essential: []string{"2", "3"}, bonus: []string{},
		},
		{
			name:   "different order by number",
			answer: "[BONUS PASSAGE] 1: Score: 0\n[ESSENTIAL PASSAGE] 2: Score: 3\n[ESSENTIAL PASSAGE] 1: Score: 4",
			e:      2, b: 1,
			essential: []string{"4", "3"}, bonus: []string{"0"},
		},
		{
			name:      "repeated agreeing score and heading mention",
			answer:    "[ESSENTIAL PASSAGE] 1\nScore: 4\n\nSummary:\n[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 1 was good.",
			e:         1,
			essential: []string{"4"}, bonus: []string{},
		},
		{
			name:     "two different scores",
			answer:   "[ESSENTIAL PASSAGE] 1\nScore: 4\nOn reflection, Score: 3",
			e:        1,
			problems: []string{`output: 3:23: essential passage 1 has two different scores: "4" at 2:8 and "3" at 3:23`},
		},
		{
			name:     "missing and extra",
			answer:   "[ESSENTIAL PASSAGE] 1: Score: 4\n[BONUS PASSAGE] 1: Score: 2",
			e:        2,
			problems: []string{`output: 2:27: bonus passage 1 is scored ("2" at 2:27), but the ground truth has no bonus passage`, "output: no score for essential passage 2"},
		},
		{
			name:     "section without score",
			answer:   "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: it is missing",
			e:        2,
			problems: []string{"output: 2:1: no score for essential passage 2"},
		},
		{
			name:   "out of range",
			answer: "[ESSENTIAL PASSAGE] 1: Score: 6\n[ESSENTIAL PASSAGE] 2: Score: 0\n[BONUS PASSAGE] 1: Score: 7",
			e:      2, b: 1,
			problems: []string{"output: 1:31: essential score 1 is 6, out of 1–5", "output: 2:31: essential score 2 is 0, out of 1–5", "output: 3:27: bonus score 1 is 7, out of 0–5"},
		},
		{
			name:   "unreadable scores",
			answer: "[ESSENTIAL PASSAGE] 1: Score: N/A\n[ESSENTIAL PASSAGE] 2: Score: 3-4\n[ESSENTIAL PASSAGE] 3: Score: 8/10\n[ESSENTIAL PASSAGE] 4: Score: 3,5\n[ESSENTIAL PASSAGE] 5: Score:",
			e:      5,
			problems: []string{
				`output: 1:24: essential passage 1: cannot read the score after "Score:": "N/A"`,
				`output: 2:31: essential passage 2: score "3-4" is a range, not one score`,
				`output: 3:31: essential passage 3: score "8/10" is not out of 5`,
				`output: 4:31: essential passage 4: cannot read score "3,5": a decimal comma? (write 3.5)`,
				`output: 5:24: essential passage 5: no score after "Score:"`,
			},
		},
		{
			name:   "unnumbered markers count in order",
			answer: "[ESSENTIAL PASSAGE]\nScore: 2\n[ESSENTIAL PASSAGE]\nScore: 3\n[BONUS PASSAGE]\nScore: 1",
			e:      2, b: 1,
			essential: []string{"2", "3"}, bonus: []string{"1"},
		},
		{
			name: "unnumbered mentions before the scores do not count",
			answer: "The ground truth has two [ESSENTIAL PASSAGE] parts and a [BONUS PASSAGE].\n" +
				"[ESSENTIAL PASSAGE]\nScore: 2\n[ESSENTIAL PASSAGE]\nScore: 3\n[BONUS PASSAGE]\nScore: 1\n" +
				"RECALL_Essential_Formula: (2 + 3) / 2 = 2.5.\nRECALL_Bonus_Formula: \\( \\frac{1}{4} = 0.25 \\)",
			e: 2, b: 1,
			essential: []string{"2", "3"}, bonus: []string{"1"},
		},
		{
			name:      "score in brackets and with spaces",
			answer:    "[ESSENTIAL PASSAGE] 1: **Score**: [4]\n[ESSENTIAL PASSAGE] 2: Score:3 / 5",
			e:         2,
			essential: []string{"4", "3"}, bonus: []string{},
		},
		{
			name:      "final and overall scores are not passage scores",
			answer:    "[ESSENTIAL PASSAGE] 1: Score: 4\nOverall score: 2\nFinal Score: 4",
			e:         1,
			essential: []string{"4"}, bonus: []string{}, final: "4",
		},
		{
			name:      "unmarked scores, no bonus",
			answer:    "Passage one. Score: 4\nPassage two. Score: 2\nRECALL_Final_Score: 3",
			e:         2,
			essential: []string{"4", "2"}, bonus: []string{}, final: "3",
			warnings: []string{"the answer marks no passage; its 2 score(s) were read as the essential scores, since the ground truth has 2 essential passage(s) and no bonus passage"},
		},
		{
			name:   "unmarked scores with bonus are not guessed",
			answer: "Score: 4\nScore: 2",
			e:      1, b: 1,
			problems: []string{"output: no score for essential passage 1", "output: no score for bonus passage 1"},
			warnings: []string{`ignored a score outside any passage section: "4" at 1:8`, `ignored a score outside any passage section: "2" at 2:8`},
		},
		{
			name:      "prose mentions of score are not labels",
			answer:    "[ESSENTIAL PASSAGE] 1: The score reflects scores: many. Scored well. Score (1-5): 4",
			e:         1,
			essential: []string{"4"}, bonus: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ReadAnswer(tt.answer)
			es, bs, warnings, problems := a.Resolve(tt.e, tt.b)
			var got []string
			for _, p := range problems {
				got = append(got, p.Error())
			}
			assert.Equal(t, tt.problems, got)
			var words []string
			for _, w := range warnings {
				words = append(words, w.Msg)
				assert.Positive(t, w.Line, "a warning points at its score")
			}
			assert.Equal(t, tt.warnings, words)
			if tt.problems == nil {
				assert.Equal(t, tt.essential, ratStrings(es))
				assert.Equal(t, tt.bonus, ratStrings(bs))
			}
			if tt.final == "" {
				if st := a.Stated[LineFinal]; st != nil {
					assert.Nil(t, st.Value)
				}
			} else {
				require.NotNil(t, a.Stated[LineFinal])
				require.NotNil(t, a.Stated[LineFinal].Value)
				assert.Equal(t, tt.final, a.Stated[LineFinal].Value.RatString())
			}
		})
	}
}

func ratStrings(ss []Score) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.Value.RatString())
	}
	return out
}

func TestStatedLines(t *testing.T) {
	answer := "RECALL_Essential_Formula: (4 + 3) / 2 = 3.5\n" +
		"**RECALL_Bonus_Formula:** (4 + 0) / (2 * 2 * 2) = **0.5**\n" +
		"RECALL Combined Formula = 3.5 + 0.5 = 4\n" +
		"- RECALL_Final_Score_Calculation:\n  min(5, 4) = 4\n" +
		"`RECALL_Final_Score`: 4/5\n"
	a := ReadAnswer(answer)
	want := []string{"7/2", "1/2", "4", "4", "4"}
	for l, w := range want {
		require.NotNil(t, a.Stated[l], Labels[l])
		require.NotNil(t, a.Stated[l].Value, Labels[l])
		assert.Equal(t, w, a.Stated[l].Value.RatString(), Labels[l])
	}
	assert.Equal(t, 2, a.Stated[LineBonus].Line)
	assert.Equal(t, 3, a.Stated[LineBonus].Col)
	assert.Equal(t, "min(5, 4) = 4", a.Stated[LineFinalCalc].Text)

	// Labels on one line split; a restated label inside a formula is not a line of its own.
	a = ReadAnswer("RECALL_Essential_Formula: (4+3)/2 = 3.5 • RECALL_Bonus_Formula: 0/(2*0*2) = 0\n" +
		"RECALL_Combined_Formula: RECALL_Essential_Formula + RECALL_Bonus_Formula = 3.5 + 0 = 3.5\n" +
		"RECALL_Final_Score: unknown")
	assert.Equal(t, "7/2", a.Stated[LineEssential].Value.RatString())
	assert.Equal(t, "0", a.Stated[LineBonus].Value.RatString())
	assert.Equal(t, "7/2", a.Stated[LineCombined].Value.RatString())
	assert.Nil(t, a.Stated[LineFinal].Value)
	assert.Nil(t, a.Stated[LineFinalCalc])

	// A sentence's period and LaTeX delimiters around the result are not part of it.
	a = ReadAnswer("RECALL_Essential_Formula: (2 + 3) / 2 = 2.5.\nRECALL_Bonus_Formula: \\( \\frac{1}{4} = 0.25 \\)")
	assert.Equal(t, "5/2", a.Stated[LineEssential].Value.RatString())
	assert.Equal(t, "1/4", a.Stated[LineBonus].Value.RatString())

	// The last occurrence wins; an unfinished formula has no value.
	a = ReadAnswer("RECALL_Final_Score: 2\nRECALL_Final_Score: 3\nRECALL_Combined_Formula: 3 + 0.5 =")
	assert.Equal(t, "3", a.Stated[LineFinal].Value.RatString())
	assert.Nil(t, a.Stated[LineCombined].Value)
}

func TestReadAnswerPositionsCountCodePoints(t *testing.T) {
	a := ReadAnswer("Été — ok\n« [ESSENTIAL PASSAGE] 1 » Score: 9")
	require.Len(t, a.Sections, 1)
	assert.Equal(t, 2, a.Sections[0].Line)
	assert.Equal(t, 3, a.Sections[0].Col)
	_, _, _, problems := a.Resolve(1, 0)
	require.Len(t, problems, 1)
	assert.Equal(t, 2, problems[0].Line)
	assert.Equal(t, 34, problems[0].Col)
}

func TestThink(t *testing.T) {
	a := ReadAnswer("\n <think>\nScore: 1")
	assert.True(t, a.ThinkOpen)
	assert.Equal(t, 2, a.ThinkLine)
	assert.Equal(t, 2, a.ThinkCol)
	assert.Empty(t, a.Unassigned)

	a = ReadAnswer("x\n<think>\nScore: 1")
	assert.False(t, a.ThinkOpen, "reasoning comes first: a tag after the answer has started is text")
	assert.Len(t, a.Unassigned, 1)

	a = ReadAnswer("<thinking>a</thinking><think>b</think>[ESSENTIAL PASSAGE] Score: 3")
	assert.False(t, a.ThinkOpen)
	require.Len(t, a.Sections, 1)
	assert.Equal(t, 1, a.Sections[0].Col-len("<thinking>a</thinking><think>b</think>"))
}

func TestReadAnswerLarge(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		b.WriteString("[ESSENTIAL PASSAGE] ")
		b.WriteString(strings.Repeat("analysis ", 50))
		b.WriteString("Score: 4\n")
	}
	a := ReadAnswer(b.String())
	es, _, _, problems := a.Resolve(2000, 0)
	require.Empty(t, problems)
	assert.Len(t, es, 2000)
	assert.Equal(t, 2000, es[1999].Line)
}

// TestReadAnswerLinear feeds answers made of nothing but labels and markers; each must take
// linear time (a quadratic scan of a 256 KB line would take many seconds).
func TestReadAnswerLinear(t *testing.T) {
	for _, unit := range []string{"Score: x ", "Score:", "[ESSENTIAL PASSAGE] ", "RECALL_Final_Score: ", "<think>", "</think>", "**", "[", "score ", "RECALL_Bonus_Formula: 1 "} {
		s := strings.Repeat(unit, (1<<18)/len(unit))
		a := ReadAnswer(s)
		a.Resolve(1000, 1000)
	}
}
