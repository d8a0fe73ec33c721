package judge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// Ground truths with E essential and B bonus passages, named gtEB.
const (
	gt22 = "[ESSENTIAL PASSAGE]\nParis is the capital of France.\n\n[ESSENTIAL PASSAGE]\nIt lies on the Seine.\n\n" +
		"[BONUS PASSAGE]\nIt has about 2.1 million inhabitants.\n\n[BONUS PASSAGE]\nThe Eiffel Tower was built in 1889.\n"
	gt31 = "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b\n[ESSENTIAL PASSAGE] c\n[BONUS PASSAGE] d"
	gt21 = "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b\n[BONUS PASSAGE] d"
	gt20 = "[ESSENTIAL PASSAGE] a\n[ESSENTIAL PASSAGE] b"
	gt11 = "**[ESSENTIAL PASSAGE] 1:** a\n**[BONUS PASSAGE] 1:** b"
)

// seedAnswer builds an answer in the seed's own format from scores and formula results.
func seedAnswer(reasoning string, lines ...string) string {
	var b strings.Builder
	b.WriteString("• RECALL_Reasoning: " + reasoning)
	for _, l := range lines {
		b.WriteString("\n\n• " + l)
	}
	return b.String()
}

var example1 = seedAnswer("[ESSENTIAL PASSAGE] 1: The answer names Paris as the capital. Score: 4 "+
	"[ESSENTIAL PASSAGE] 2: It mentions the river only in passing. Score: 3 "+
	"[BONUS PASSAGE] 1: The population is given. Score: 4 [BONUS PASSAGE] 2: The tower is absent. Score: 0",
	"RECALL_Essential_Formula: (4 + 3) / 2 = 3.5",
	"RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5",
	"RECALL_Combined_Formula: 3.5 + 0.5 = 4",
	"RECALL_Final_Score_Calculation: min(5, 4) = 4",
	"RECALL_Final_Score: 4")

func TestRagRecallParse(t *testing.T) {
	tests := []struct {
		name      string
		gt        string
		threshold any // nil: no threshold
		answer    string
		score     any      // float64, or nil for no score
		passed    any      // bool, or nil
		errors    []string // substrings, one per error check, in order
		warnings  []string // substrings, one per warning check, in order
	}{
		{name: "seed example 1, plain", gt: gt22, answer: example1, score: 4.0},
		{name: "seed example 2, thirds", gt: gt31, score: 3.67, answer: seedAnswer(
			"[ESSENTIAL PASSAGE] 1: ... Score: 4 [ESSENTIAL PASSAGE] 2: ... Score: 4 [ESSENTIAL PASSAGE] 3: ... Score: 3 [BONUS PASSAGE] 1: ... Score: 0",
			"RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67", "RECALL_Bonus_Formula: (0) / (3 * 1 * 2) = 0",
			"RECALL_Combined_Formula: 3.67 + 0 = 3.67", "RECALL_Final_Score_Calculation: min(5, 3.67) = 3.67", "RECALL_Final_Score: 3.67")},
		{name: "seed example 3, capped at 5", gt: gt21, score: 5.0, answer: seedAnswer(
			"[ESSENTIAL PASSAGE] 1: ... Score: 5 [ESSENTIAL PASSAGE] 2: ... Score: 5 [BONUS PASSAGE] 1: ... Score: 5",
			"RECALL_Essential_Formula: (5 + 5) / 2 = 5", "RECALL_Bonus_Formula: (5) / (2 * 1 * 2) = 1.25",
			"RECALL_Combined_Formula: 5 + 1.25 = 6.25", "RECALL_Final_Score_Calculation: min(5, 6.25) = 5", "RECALL_Final_Score: 5")},
		{name: "seed example 4, no bonus", gt: gt20, score: 1.5, answer: seedAnswer(
			"[ESSENTIAL PASSAGE] 1: ... Score: 1 [ESSENTIAL PASSAGE] 2: ... Score: 2",
			"RECALL_Essential_Formula: (1 + 2) / 2 = 1.5", "RECALL_Bonus_Formula: (0) / (2 * 0 * 2) = 0",
			"RECALL_Combined_Formula: 1.5 + 0 = 1.5", "RECALL_Final_Score_Calculation: min(5, 1.5) = 1.5", "RECALL_Final_Score: 1.5")},
		{name: "markdown with bold and bullets", gt: gt22, score: 4.0, answer: `## RECALL_Reasoning

### **[ESSENTIAL PASSAGE] 1:**
- The returned passage states that Paris is the French capital.
- Nothing is missing.
- **Score:** 5

### **[ESSENTIAL PASSAGE] 2:**
- The Seine is mentioned.
- **Score:** 3

### **[BONUS PASSAGE] 1:**
- The population is not mentioned.
- **Score:** 0

### **[BONUS PASSAGE] 2:**
- The Eiffel Tower is not mentioned.
- **Score:** 0

---

- **RECALL_Essential_Formula:** (5 + 3) / 2 = 4
- **RECALL_Bonus_Formula:** (0 + 0) / (2 * 2 * 2) = 0
- **RECALL_Combined_Formula:** 4 + 0 = 4
- **RECALL_Final_Score_Calculation:** min(5, 4) = 4
- **RECALL_Final_Score:** **4**`},
		{name: "Score: 4/5 and bold score", gt: gt21, score: 5.0, answer: "**[ESSENTIAL PASSAGE] 1**\nCovered well. **Score: 4/5**\n\n" +
			"**[ESSENTIAL PASSAGE] 2**\nCovered fully. **Score: 4/5**\n\n**[BONUS PASSAGE] 1**\nFully present. Score: 5/5\n\n" +
			"RECALL_Essential_Formula: (4 + 4) / 2 = 4\nRECALL_Bonus_Formula: (5) / (2 * 1 * 2) = 1.25\n" +
			"RECALL_Combined_Formula: 4 + 1.25 = 5.25\nRECALL_Final_Score_Calculation: min(5, 5.25) = 5\nRECALL_Final_Score: 5"},
		{name: "Score = n", gt: gt20, score: 4.5, answer: "[ESSENTIAL PASSAGE] 1: good. Score = 5\n[ESSENTIAL PASSAGE] 2: fair. Score = 4\nRECALL_Final_Score = 4.5"},
		{name: "wrong arithmetic is only compared", gt: gt22, score: 4.0, answer: strings.Replace(strings.Replace(example1,
			"(4 + 3) / 2 = 3.5", "(4 + 3) / 2 = 3.75", 1), "RECALL_Final_Score: 4", "RECALL_Final_Score: 4.25", 1),
			warnings: []string{
				"the judge's RECALL_Essential_Formula is 3.75 (line 3), the recomputed value is 3.5",
				"the judge's RECALL_Final_Score is 4.25 (line 11), the recomputed value is 4",
			}},
		{name: "right, rounded per step: 3.67 + 0.17 = 3.84 where the exact value is 23/6", gt: gt31, score: 3.83, answer: seedAnswer(
			"[ESSENTIAL PASSAGE] 1: ... Score: 4 [ESSENTIAL PASSAGE] 2: ... Score: 4 [ESSENTIAL PASSAGE] 3: ... Score: 3 [BONUS PASSAGE] 1: ... Score: 1",
			"RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67", "RECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.17",
			"RECALL_Combined_Formula: 3.67 + 0.17 = 3.84", "RECALL_Final_Score_Calculation: min(5, 3.84) = 3.84", "RECALL_Final_Score: 3.84")},
		{name: "a real error beside step rounding", gt: gt31, score: 3.83, answer: seedAnswer(
			"[ESSENTIAL PASSAGE] 1: ... Score: 4 [ESSENTIAL PASSAGE] 2: ... Score: 4 [ESSENTIAL PASSAGE] 3: ... Score: 3 [BONUS PASSAGE] 1: ... Score: 1",
			"RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67", "RECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.17",
			"RECALL_Combined_Formula: 3.67 + 0.17 = 3.94", "RECALL_Final_Score_Calculation: min(5, 3.94) = 3.94", "RECALL_Final_Score: 3.94"),
			warnings: []string{
				"the judge's RECALL_Combined_Formula is 3.94 (line 7), the recomputed value is 3.83 (3.84 rounded per step)",
				"the judge's RECALL_Final_Score_Calculation is 3.94 (line 9), the recomputed value is 3.83 (3.84 rounded per step)",
				"the judge's RECALL_Final_Score is 3.94 (line 11), the recomputed value is 3.83 (3.84 rounded per step)",
			}},
		{name: "judge truncates 3.666 instead of rounding", gt: gt31, score: 3.67, answer: "[ESSENTIAL PASSAGE] 1 Score: 4\n" +
			"[ESSENTIAL PASSAGE] 2 Score: 4\n[ESSENTIAL PASSAGE] 3 Score: 3\n[BONUS PASSAGE] 1 Score: 0\nRECALL_Final_Score: 3.66",
			warnings: []string{"RECALL_Final_Score is 3.66 (line 5), the recomputed value is 3.67"}},
		{name: "judge states 3.666, same at display precision", gt: gt31, score: 3.67, answer: "[ESSENTIAL PASSAGE] 1 Score: 4\n" +
			"[ESSENTIAL PASSAGE] 2 Score: 4\n[ESSENTIAL PASSAGE] 3 Score: 3\n[BONUS PASSAGE] 1 Score: 0\nRECALL_Final_Score: 3.666"},
		{name: "truncated answer", gt: gt22, answer: "• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: ok. Score: 4 [ESSENTIAL PASSAGE] 2: ok. Score: 3 " +
			"[BONUS PASSAGE] 1: ok. Score: 4 [BONUS PASSAGE] 2: The Eiffel Tower is",
			errors: []string{"no score for bonus passage 2 (it has no RECALL_Final_Score line: it looks truncated) (line 1, col 125)"}},
		{name: "cut short after a Score label", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Partly covered. Score:",
			errors: []string{`essential passage 2: no score after "Score:" (it has no RECALL_Final_Score line: it looks truncated) (line 2, col 40)`}},
		{name: "missing passage", gt: gt22, answer: strings.Replace(example1, "[ESSENTIAL PASSAGE] 2: It mentions the river only in passing. Score: 3 ", "", 1),
			errors: []string{"no score for essential passage 2"}},
		{name: "extra passage", gt: gt21, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 4\n" +
			"[BONUS PASSAGE] 1: Score: 2\n[BONUS PASSAGE] 2: Score: 3\nRECALL_Final_Score: 4.63",
			errors: []string{`bonus passage 2 is scored ("3" at 4:27), but the ground truth has 1 bonus passage (line 4, col 27)`}},
		{name: "essential score 6", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score: 6\n[ESSENTIAL PASSAGE] 2: Score: 4\nRECALL_Final_Score: 5",
			errors: []string{"essential score 1 is 6, out of 1–5 (line 1, col 31)"}},
		{name: "essential score 0", gt: gt21, answer: "[ESSENTIAL PASSAGE] 1: Score: 0\n[ESSENTIAL PASSAGE] 2: Score: 4\n[BONUS PASSAGE] 1: Score: 0\nRECALL_Final_Score: 2",
			errors: []string{"essential score 1 is 0, out of 1–5"}},
		{name: "bonus score 7 and negative", gt: gt22, answer: "[ESSENTIAL PASSAGE] 1: Score: 3\n[ESSENTIAL PASSAGE] 2: Score: 4\n[BONUS PASSAGE] 1: Score: 7\n[BONUS PASSAGE] 2: Score: -1\nRECALL_Final_Score: 5",
			errors: []string{"bonus score 1 is 7, out of 0–5", "bonus score 2 is -1: negative, out of 0–5"}},
		{name: "decimal scores", gt: gt21, score: 4.38, answer: "[ESSENTIAL PASSAGE] 1: Score: 3.5\n[ESSENTIAL PASSAGE] 2: Score: 4\n[BONUS PASSAGE] 1: Score: 2.5\n" +
			"RECALL_Essential_Formula: (3.5 + 4) / 2 = 3.75\nRECALL_Bonus_Formula: (2.5) / (2 * 1 * 2) = 0.63\nRECALL_Final_Score: 4.38"},
		{name: "think block with draft scores", gt: gt20, score: 3.0, answer: "<think>\nFirst pass: [ESSENTIAL PASSAGE] 1 Score: 1, [ESSENTIAL PASSAGE] 2 Score: 1. " +
			"Hmm, RECALL_Final_Score: 1. Let me redo this.\n</think>\n\n[ESSENTIAL PASSAGE] 1: Score: 2\n[ESSENTIAL PASSAGE] 2: Score: 4\n\nRECALL_Final_Score: 3"},
		{name: "lone closing think tag", gt: gt20, score: 3.0, answer: "Okay, the user wants a recall. Score: 1 maybe.\n</think>\n[ESSENTIAL PASSAGE] 1: Score: 2\n[ESSENTIAL PASSAGE] 2: Score: 4\nRECALL_Final_Score: 3"},
		{name: "unclosed think block", gt: gt20, answer: "<think>\nLet me look at [ESSENTIAL PASSAGE] 1. It covers Paris, Score: 4. Now [ESSENTIAL PASSAGE] 2",
			errors: []string{"no passage score in the answer: expected a `Score: n` after each [ESSENTIAL PASSAGE] and [BONUS PASSAGE] (it ends inside a <think> block opened at line 1: it looks truncated"}},
		{name: "scores in a different order", gt: gt22, score: 4.0, answer: "[BONUS PASSAGE] 2: Score: 0\n[ESSENTIAL PASSAGE] 2: Score: 3\n" +
			"[BONUS PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 1: Score: 4\nRECALL_Final_Score: 4"},
		{name: "bonus absent from the answer", gt: gt21, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 4\n" +
			"RECALL_Bonus_Formula: (0) / (2 * 0 * 2) = 0\nRECALL_Final_Score: 4",
			errors: []string{"no score for bonus passage 1"}},
		{name: "no scores at all", gt: gt20, answer: "I'm sorry, but I can't evaluate these passages.",
			errors: []string{"no passage score in the answer"}},
		{name: "empty answer", gt: gt20, answer: "", errors: []string{"no passage score in the answer"}},
		{name: "unreadable score", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score: N/A\n[ESSENTIAL PASSAGE] 2: Score: 3\nRECALL_Final_Score: 3",
			errors: []string{`essential passage 1: cannot read the score after "Score:": "N/A" (line 1, col 24)`}},
		{name: "score out of 10", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score: 8/10\n[ESSENTIAL PASSAGE] 2: Score: 3\nRECALL_Final_Score: 3.5",
			errors: []string{`essential passage 1: score "8/10" is not out of 5`}},
		{name: "two scores for one passage", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score: 3. Actually, on reflection, Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3",
			errors: []string{"essential passage 1 has two different scores"}},
		{name: "unbracketed headings, Score (1-5)", gt: gt21, score: 4.5, answer: "### Essential Passage 1\nAnalysis: complete.\nScore (1-5): 5\n\n" +
			"### Essential Passage 2\nScore (1-5): 3\n\n### Bonus Passage 1\nScore (0-5): 2\n\nFinal Score: 5",
			warnings: []string{"RECALL_Final_Score is 5 (line 11), the recomputed value is 4.5"}},
		{name: "no final score line", gt: gt20, score: 4.0, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 4",
			warnings: []string{"no RECALL_Final_Score line"}},
		{name: "unmarked scores with no bonus passage", gt: "[ESSENTIAL PASSAGE] Paris is the capital.", score: 4.0,
			answer:   "The passage says Paris is the capital. Score: 4\nRECALL_Final_Score: 4",
			warnings: []string{"the answer marks no passage"}},
		{name: "threshold met", gt: gt22, threshold: int64(4), answer: example1, score: 4.0, passed: true},
		{name: "threshold missed", gt: gt22, threshold: 4.5, answer: example1, score: 4.0, passed: false},
		{name: "threshold against the displayed score", gt: gt31, threshold: 3.67, score: 3.67, passed: true,
			answer: "[ESSENTIAL PASSAGE] 1 Score: 4\n[ESSENTIAL PASSAGE] 2 Score: 4\n[ESSENTIAL PASSAGE] 3 Score: 3\n[BONUS PASSAGE] 1 Score: 0\nRECALL_Final_Score: 3.67"},
		{name: "threshold as a form's text", gt: gt22, threshold: "3.5", answer: example1, score: 4.0, passed: true},
		{name: "empty threshold text is none", gt: gt22, threshold: "", answer: example1, score: 4.0},
		{name: "threshold with an undetermined score", gt: gt20, threshold: 3.0, answer: "nothing",
			errors: []string{"no passage score in the answer"}},
		{name: "ground truth without essential markers", gt: "[BONUS PASSAGE] extra only", answer: "[BONUS PASSAGE] 1: Score: 3",
			errors: []string{"passage_gt has no [ESSENTIAL PASSAGE] marker"}},
		// As real judges answer (GPT-4o/4.1, Claude, Llama 3, Mistral, Gemini, Qwen, DeepSeek-R1).
		{name: "seed format with markdown bold", gt: gt21, score: 5.0, answer: "**RECALL_Reasoning:**\n\n**[ESSENTIAL PASSAGE] 1:** The capital is named. **Score: 5**\n\n" +
			"**[ESSENTIAL PASSAGE] 2:** The river is mentioned in passing. **Score: 3**\n\n**[BONUS PASSAGE] 1:** The population is given. **Score: 5**\n\n" +
			"**RECALL_Essential_Formula:** (5 + 3) / 2 = 4\n**RECALL_Bonus_Formula:** (5) / (2 * 1 * 2) = 1.25\n**RECALL_Combined_Formula:** 4 + 1.25 = 5.25\n" +
			"**RECALL_Final_Score_Calculation:** min(5, 5.25) = 5\n**RECALL_Final_Score:** 5",
			warnings: []string{}},
		{name: "extra spaces everywhere", gt: gt20, score: 3.5, answer: "•  RECALL_Reasoning :   [ESSENTIAL PASSAGE]  1 :  covered.   Score :  4   [ESSENTIAL PASSAGE]   2 :  partly.  Score  :   3\n\n" +
			"•  RECALL_Essential_Formula :  ( 4 + 3 ) / 2  =  3.5\n\n•  RECALL_Final_Score :   3.5  "},
		{name: "Score: 1/1 is not out of 5", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score: 1/1\n[ESSENTIAL PASSAGE] 2: Score: 4\nRECALL_Final_Score: 2.5",
			errors: []string{`essential passage 1: score "1/1" is not out of 5 (line 1, col 31)`}},
		{name: "scores out of 5 with spaces", gt: gt21, score: 4.0, answer: "[ESSENTIAL PASSAGE] 1 - Score: 4 / 5\n[ESSENTIAL PASSAGE] 2 - Score: 3 out of 5\n[BONUS PASSAGE] 1 - Score: 2/5\n\nRECALL_Final_Score: 4"},
		{name: "claude: headings, analysis and score lines", gt: gt22, score: 4.13, answer: "I'll evaluate each passage of the ground truth against the returned passage.\n\n" +
			"## Essential Passage 1\n\"Paris is the capital of France.\" The returned passage names Paris.\n\n**Score: 4**\n\n" +
			"## Essential Passage 2\nThe Seine is named.\n\n**Score: 3**\n\n## Bonus Passage 1\nThe population is given.\n\n**Score: 5**\n\n" +
			"## Bonus Passage 2\nNothing about the tower.\n\n**Score: 0**\n\n## Calculation\n\nRECALL_Essential_Formula: (4 + 3) / 2 = 3.5\n" +
			"RECALL_Bonus_Formula: (5 + 0) / (2 * 2 * 2) = 0.625\nRECALL_Combined_Formula: 3.5 + 0.625 = 4.125\nRECALL_Final_Score_Calculation: min(5, 4.125) = 4.125\nRECALL_Final_Score: 4.13",
			warnings: []string{}},
		{name: "gpt-4o: bullets with Score on its own line", gt: gt21, score: 4.5, answer: "- **[ESSENTIAL PASSAGE] 1**: The capital is stated.\n  - **Score**: 5\n" +
			"- **[ESSENTIAL PASSAGE] 2**: The river is stated.\n  - **Score**: 4\n- **[BONUS PASSAGE] 1**: Population absent.\n  - **Score**: 0\n\n" +
			"**RECALL_Final_Score**: 4.5"},
		{name: "score wording: passage score, rating", gt: gt20, score: 4.0, answer: "[ESSENTIAL PASSAGE] 1\nPassage score: 4\n\n[ESSENTIAL PASSAGE] 2\nScore (1-5): **4**\n\nRECALL_Final_Score: 4"},
		{name: "final score as a fraction", gt: gt20, score: 3.5, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3\nRECALL_Final_Score: 3.5/5"},
		{name: "final score as a percentage is not on the scale", gt: gt20, score: 3.5, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3\nRECALL_Final_Score: 70%",
			warnings: []string{`the judge's RECALL_Final_Score (line 3) is "70%", not a score from 1 to 5; not compared`}},
		{name: "final score bold decimal", gt: gt20, score: 3.5, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3\n\n**RECALL_Final_Score: 3.50**"},
		{name: "cut off in the formulas: no final score, recomputed, not 0", gt: gt22, score: 4.0, answer: strings.Split(example1, "RECALL_Combined_Formula")[0] + "RECALL_Combined_Formula: 3.5 + 0.5 =",
			warnings: []string{"no RECALL_Final_Score line (it may be cut short); the score is recomputed from the passage scores"}},
		{name: "final score label with nothing after it", gt: gt20, score: 3.5, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3\nRECALL_Final_Score:",
			warnings: []string{"the judge's RECALL_Final_Score line (line 3) has no value; the score is recomputed from the passage scores"}},
		{name: "mistral: Score without a colon", gt: gt20, answer: "[ESSENTIAL PASSAGE] 1: Score 4\n[ESSENTIAL PASSAGE] 2: Score 3\nRECALL_Final_Score: 3.5",
			errors: []string{"no passage score in the answer: expected a `Score: n` after each [ESSENTIAL PASSAGE] and [BONUS PASSAGE]"}},
		{name: "deepseek-r1: think with drafts, then the seed format", gt: gt21, score: 4.5, answer: "<think>\nLet me go through the passages. [ESSENTIAL PASSAGE] 1 — Score: 2? No, it is fully there.\n" +
			"RECALL_Final_Score: 2\n</think>\n\n• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: fully covered. Score: 5 [ESSENTIAL PASSAGE] 2: mostly. Score: 4 [BONUS PASSAGE] 1: absent. Score: 0\n\n" +
			"• RECALL_Final_Score: 4.5"},
		{name: "qwen: final score with a 5-scale suffix", gt: gt20, score: 3.5, answer: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3\n\nRECALL_Final_Score: 3.5 (out of 5)"},
		{name: "llama 3: Final Score line", gt: gt21, score: 3.5, answer: "**Essential Passage 1:** covered. Score: 3\n**Essential Passage 2:** covered. Score: 3\n**Bonus Passage 1:** partly. Score: 2\n\nFinal Score: 3.5"},
		{name: "emphasis with underscores and stars", gt: gt21, score: 3.5, answer: "[ESSENTIAL PASSAGE] 1: **Score:** **4**\n[ESSENTIAL PASSAGE] 2: *Score*: 3\n[BONUS PASSAGE] 1: __Score__: 0\n__RECALL_Final_Score__: **3.5**"},
		{name: "score per passage with trailing justification in parentheses", gt: gt20, score: 3.0, answer: "[ESSENTIAL PASSAGE] 1: Score: 4 (most details present)\n[ESSENTIAL PASSAGE] 2: Score: 2 (only a mention)\nRECALL_Final_Score: 3"},
	}
	r := testRegistry(t)
	require.GreaterOrEqual(t, len(tests), 20)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := value.NewObject("passage_gt", tt.gt, "passage_llm", "Paris, on the Seine.")
			if tt.threshold != nil {
				in.Set("threshold", tt.threshold)
			}
			v, err := r.Parse(ragRecallID, in, tt.answer)
			require.NoError(t, err)
			var errs, warns []string
			for _, c := range v.Checks {
				if c.Severity == diag.SevError {
					errs = append(errs, c.Message)
				} else {
					warns = append(warns, c.Message)
				}
			}
			assertContainsEach(t, "errors", tt.errors, errs)
			assertContainsEach(t, "warnings", tt.warnings, warns)
			if tt.score == nil {
				assert.Nil(t, v.Score, "score")
				assert.NotEmpty(t, errs, "an undetermined score says why")
			} else {
				require.NotNil(t, v.Score)
				assert.Equal(t, tt.score, *v.Score)
			}
			if tt.passed == nil {
				assert.Nil(t, v.Passed, "passed")
			} else {
				require.NotNil(t, v.Passed)
				assert.Equal(t, tt.passed, *v.Passed)
			}
			_, err = json.Marshal(v)
			require.NoError(t, err)
		})
	}
}

// assertContainsEach checks that got has exactly one message per wanted substring, in order.
func assertContainsEach(t *testing.T, what string, want, got []string) {
	t.Helper()
	if !assert.Len(t, got, len(want), "%s: %q", what, got) {
		return
	}
	for i := range want {
		assert.Contains(t, got[i], want[i], what)
	}
}

// TestRagRecallLineResults: each formula line says how the judge's value compares.
func TestRagRecallLineResults(t *testing.T) {
	r := testRegistry(t)
	answer := seedAnswer("[ESSENTIAL PASSAGE] 1: Score: 4 [ESSENTIAL PASSAGE] 2: Score: 4 [ESSENTIAL PASSAGE] 3: Score: 3 [BONUS PASSAGE] 1: Score: 1",
		"RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67", "RECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.2",
		"RECALL_Combined_Formula: 3.67 + 0.17 = 3.84", "RECALL_Final_Score: 3.84")
	v, err := r.Parse(ragRecallID, value.NewObject("passage_gt", gt31, "passage_llm", "x"), answer)
	require.NoError(t, err)
	d := v.Verdict.(*ragRecallDetail)
	var results []any
	for _, l := range d.Lines {
		if l.Result == nil {
			results = append(results, nil)
			continue
		}
		results = append(results, *l.Result+" "+map[bool]string{true: "right", false: "wrong"}[*l.Match])
	}
	assert.Equal(t, []any{"same right", "differs wrong", "rounded-per-step right", nil, "rounded-per-step right"}, results)
	assert.Equal(t, "RECALL_Combined_Formula: 3.67 + 0.17 = 3.84", *d.Lines[2].Recomputed, "the recomputed line is the seed's chain, rounded per step")
	require.Len(t, v.Checks, 1)
	assert.Equal(t, diag.RecallArithmeticDiffers, v.Checks[0].Code)
	assert.InDelta(t, 3.83, *v.Score, 1e-9, "the score is the exact value")
}

func TestRagRecallDetail(t *testing.T) {
	r := testRegistry(t)
	in := value.NewObject("passage_gt", gt22, "passage_llm", "x")
	answer := strings.Replace(example1, "RECALL_Final_Score: 4", "RECALL_Final_Score: 4.25", 1)
	v, err := r.Parse(ragRecallID, in, answer)
	require.NoError(t, err)
	b, err := json.Marshal(v.Verdict)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"expected": {"essential": 2, "bonus": 2},
		"essential": [
			{"number": 1, "value": 4, "exact": "4", "text": "4", "line": 1, "col": 90},
			{"number": 2, "value": 3, "exact": "3", "text": "3", "line": 1, "col": 161}],
		"bonus": [
			{"number": 1, "value": 4, "exact": "4", "text": "4", "line": 1, "col": 214},
			{"number": 2, "value": 0, "exact": "0", "text": "0", "line": 1, "col": 263}],
		"recomputed": {"essential": 3.5, "bonus": 0.5, "combined": 4, "final": 4,
			"exact": {"essential": "7/2", "bonus": "1/2", "combined": "4", "final": "4"},
			"stepped": {"essential": 3.5, "bonus": 0.5, "combined": 4, "final": 4},
			"lines": ["RECALL_Essential_Formula: (4 + 3) / 2 = 3.5", "RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5",
				"RECALL_Combined_Formula: 3.5 + 0.5 = 4", "RECALL_Final_Score_Calculation: min(5, 4) = 4", "RECALL_Final_Score: 4"]},
		"lines": [
			{"label": "RECALL_Essential_Formula", "recomputed": "RECALL_Essential_Formula: (4 + 3) / 2 = 3.5",
				"stated": "(4 + 3) / 2 = 3.5", "stated_value": 3.5, "line": 3, "col": 3, "result": "same", "match": true},
			{"label": "RECALL_Bonus_Formula", "recomputed": "RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5",
				"stated": "(4 + 0) / (2 * 2 * 2) = 0.5", "stated_value": 0.5, "line": 5, "col": 3, "result": "same", "match": true},
			{"label": "RECALL_Combined_Formula", "recomputed": "RECALL_Combined_Formula: 3.5 + 0.5 = 4",
				"stated": "3.5 + 0.5 = 4", "stated_value": 4, "line": 7, "col": 3, "result": "same", "match": true},
			{"label": "RECALL_Final_Score_Calculation", "recomputed": "RECALL_Final_Score_Calculation: min(5, 4) = 4",
				"stated": "min(5, 4) = 4", "stated_value": 4, "line": 9, "col": 3, "result": "same", "match": true},
			{"label": "RECALL_Final_Score", "recomputed": "RECALL_Final_Score: 4",
				"stated": "4.25", "stated_value": 4.25, "line": 11, "col": 3, "result": "differs", "match": false}],
		"stated": {"essential": 3.5, "bonus": 0.5, "combined": 4, "final_calculation": 4, "final": 4.25},
		"threshold": null
	}`, string(b))

	// An undetermined verdict still shows what was read, with no recomputation.
	v, err = r.Parse(ragRecallID, in, "[ESSENTIAL PASSAGE] 1: Score: 9")
	require.NoError(t, err)
	b, err = json.Marshal(v.Verdict)
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(b, &d))
	assert.Nil(t, d["recomputed"])
	assert.Equal(t, []any{map[string]any{"number": 1.0, "value": 9.0, "exact": "9", "text": "9", "line": 1.0, "col": 31.0}}, d["essential"])
	assert.Len(t, d["lines"], 5)
}

// TestRagRecallManyProblems: an answer scoring thousands of passages the ground truth does not
// have (a hostile or looping judge) says so in a bounded number of checks, not one each (a 1 MB
// answer gave 33,824 checks, most of the time spent sending them to the page).
func TestRagRecallManyProblems(t *testing.T) {
	r := testRegistry(t)
	in := value.NewObject("passage_gt", gt22, "passage_llm", "Paris.")
	var b strings.Builder
	for k := 1; k <= 5000; k++ {
		fmt.Fprintf(&b, "[ESSENTIAL PASSAGE] %d: Score: 4\n", k)
	}
	v, err := r.Parse(ragRecallID, in, b.String())
	require.NoError(t, err)
	assert.Nil(t, v.Passed)
	assert.Nil(t, v.Score)
	require.Len(t, v.Checks, maxRecallProblems+1)
	last := v.Checks[len(v.Checks)-1]
	assert.Equal(t, diag.RecallBadScores, last.Code)
	assert.Equal(t, diag.SevError, last.Severity)
	assert.Contains(t, last.Message, "and 4980 more problems with the passage scores")
}

func TestRagRecallInputs(t *testing.T) {
	r := testRegistry(t)
	bad := []struct {
		name string
		in   *value.Object
		msg  string
	}{
		{"no passage_gt", value.NewObject("passage_llm", "x"), "input: passage_gt: is required: give a text"},
		{"blank passage_llm", value.NewObject("passage_gt", gt20, "passage_llm", " "), "input: passage_llm: is empty: give a text"},
		{"passage_gt a list", value.NewObject("passage_gt", []any{"a"}, "passage_llm", "x"), "input: passage_gt: want a text, got a list"},
		{"threshold above 5", value.NewObject("passage_gt", gt20, "passage_llm", "x", "threshold", int64(6)), "input: threshold: want a number from 0 to 5, got 6"},
		{"threshold negative", value.NewObject("passage_gt", gt20, "passage_llm", "x", "threshold", -0.5), "input: threshold: want a number from 0 to 5, got -0.5"},
		{"threshold text", value.NewObject("passage_gt", gt20, "passage_llm", "x", "threshold", "high"), `input: threshold: want a number from 0 to 5, got "high"`},
		{"threshold NaN text", value.NewObject("passage_gt", gt20, "passage_llm", "x", "threshold", "NaN"), `input: threshold: want a number from 0 to 5, got "NaN"`},
		{"threshold bool", value.NewObject("passage_gt", gt20, "passage_llm", "x", "threshold", true), "input: threshold: want a number from 0 to 5, got a boolean"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Render(ragRecallID, tt.in)
			require.Error(t, err)
			assert.Equal(t, tt.msg, err.Error())
			_, err = r.Parse(ragRecallID, tt.in, example1)
			require.Error(t, err)
			assert.Equal(t, tt.msg, err.Error())
		})
	}

	e, err := r.Get(ragRecallID)
	require.NoError(t, err)
	assert.Equal(t, "format", string(e.Dialect))
	var names []string
	for _, in := range e.Inputs {
		names = append(names, in.Name+":"+in.Kind)
	}
	assert.Equal(t, []string{"passage_gt:text", "passage_llm:text", "threshold:number"}, names)
}

// TestRagRecallRender compares rendered prompts with goldens made by Python's str.format
// (scripts/rag_recall_golden.py).
func TestRagRecallRender(t *testing.T) {
	r := testRegistry(t)
	dir := filepath.Join("testdata", "rag-recall")
	src, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	require.NoError(t, err)
	var cases []struct{ Name, Passage_gt, Passage_llm string }
	require.NoError(t, json.Unmarshal(src, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, c.Name+".golden"))
			require.NoError(t, err)
			in := value.NewObject("passage_gt", c.Passage_gt, "passage_llm", c.Passage_llm)
			if c.Name == "no-markers" {
				_, err := r.Render(ragRecallID, in)
				var de *diag.Error
				require.ErrorAs(t, err, &de, "render refuses a ground truth without markers before paying")
				assert.Equal(t, diag.Error{Kind: "input", Code: diag.InputNoMarkers, Name: "passage_gt", Msg: de.Msg}, *de)
				assert.Contains(t, de.Error(), "input: passage_gt: has no [ESSENTIAL PASSAGE] marker")
				assert.Equal(t, string(want), renderUnchecked(t, r, ragRecallID, in))
				return
			}
			got, err := r.Render(ragRecallID, in)
			require.NoError(t, err)
			assert.Equal(t, string(want), got.Prompt)
			assert.Equal(t, []Message{{Role: "user", Content: string(want)}}, got.Messages)
			assert.Empty(t, got.Warnings)
		})
	}
}
