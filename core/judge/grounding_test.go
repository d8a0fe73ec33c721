package judge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

func TestGroundingParse(t *testing.T) {
	tests := []struct {
		name, answer, passed, score string
		word                        string // "yes", "no" or "" for null
		checks                      []string
	}{
		{name: "yes", answer: "yes", passed: "true", score: "1", word: "yes"},
		{name: "no", answer: "no", passed: "false", score: "0", word: "no"},
		{name: "Yes.", answer: "Yes.", passed: "true", score: "1", word: "yes"},
		{name: "bold No", answer: "**No**", passed: "false", score: "0", word: "no"},
		{name: "bold with period outside", answer: "**Yes**.", passed: "true", score: "1", word: "yes"},
		{name: "quoted", answer: `"yes"`, passed: "true", score: "1", word: "yes"},
		{name: "curly quoted with period", answer: "“No.”", passed: "false", score: "0", word: "no"},
		{name: "spaces and case", answer: "  NO.  \n", passed: "false", score: "0", word: "no"},
		{name: "code", answer: "`yes`", passed: "true", score: "1", word: "yes"},
		{name: "underscores", answer: "_no_", passed: "false", score: "0", word: "no"},
		{name: "single quotes and period", answer: "'no'.", passed: "false", score: "0", word: "no"},
		{name: "think block", answer: "<think>Claim 1 matches fact 2, no problem there. Yes, grounded.</think>\n\nyes", passed: "true", score: "1", word: "yes"},
		{name: "lone think close", answer: "The answer says 1890 but the fact says 1889.</think>No", passed: "false", score: "0", word: "no"},
		{name: "sentence with yes", answer: "The answer is yes.", passed: "true", score: "1", word: "yes",
			checks: []string{`W: the answer is not just yes or no; read it as yes, the only one of the two words in it: "The answer is yes."`}},
		{name: "sentence with no", answer: "No, the answer adds a date the facts do not give.", passed: "false", score: "0", word: "no",
			checks: []string{"W: read it as no"}},
		{name: "exclamation", answer: "YES!", passed: "true", score: "1", word: "yes", checks: []string{"W: read it as yes"}},
		{name: "label", answer: "Answer: no", passed: "false", score: "0", word: "no", checks: []string{"W: read it as no"}},
		{name: "both words", answer: "Yes, although there is no source for the second claim.", passed: "null", score: "null",
			checks: []string{`E: the answer says both yes and no, so it cannot be read: "Yes, although`}},
		{name: "both on lines", answer: "yes\nno", passed: "null", score: "null", checks: []string{"E: says both yes and no"}},
		{name: "neither", answer: "Grounded.", passed: "null", score: "null", checks: []string{`E: the answer is neither yes nor no: "Grounded."`}},
		{name: "word inside a word", answer: "Yesterday's facts are nonsense", passed: "null", score: "null", checks: []string{"E: neither yes nor no"}},
		{name: "empty", answer: "  \n ", passed: "null", score: "null", checks: []string{"E: the answer is empty"}},
		{name: "only reasoning", answer: "<think>hmm</think>", passed: "null", score: "null", checks: []string{"E: the answer is empty"}},
		{name: "unfinished reasoning", answer: "<think>Let me compare claim 1 with", passed: "null", score: "null",
			checks: []string{"E: the answer ends inside the model's <think> reasoning, before any yes or no: it looks truncated"}},
		{name: "json yes", answer: `{"answer": "yes"}`, passed: "true", score: "1", word: "yes", checks: []string{"W: read it as yes"}},
		// As real judges answer (GPT-4o/4.1, Claude, Llama 3, Mistral, Gemini, Qwen, DeepSeek-R1).
		{name: "Answer: yes", answer: "Answer: yes", passed: "true", score: "1", word: "yes", checks: []string{`W: read it as yes, the only one of the two words in it: "Answer: yes"`}},
		{name: "bold label", answer: "**Answer:** No", passed: "false", score: "0", word: "no", checks: []string{"W: read it as no"}},
		{name: "yes with a dash and a reason", answer: "yes — the answer is supported by fact 1.", passed: "true", score: "1", word: "yes", checks: []string{"W: read it as yes"}},
		{name: "I cannot determine", answer: "I cannot determine whether the answer is grounded from the facts given.", passed: "null", score: "null",
			checks: []string{`E: the answer is neither yes nor no: "I cannot determine`}},
		{name: "uppercase", answer: "YES", passed: "true", score: "1", word: "yes"},
		{name: "leading space and trailing newline", answer: " No\n", passed: "false", score: "0", word: "no"},
		{name: "verdict then explanation", answer: "Yes\n\nExplanation: the answer restates fact 1 (Paris is the capital of France).", passed: "true", score: "1", word: "yes",
			checks: []string{"W: read it as yes"}},
		{name: "no with a reason", answer: "No. The answer says Paris is the largest city, which the facts do not state.", passed: "false", score: "0", word: "no",
			checks: []string{"W: read it as no"}},
		{name: "llama: therefore bold", answer: "The answer's only claim matches fact 1 exactly. Therefore, the answer is: **yes**", passed: "true", score: "1", word: "yes",
			checks: []string{"W: read it as yes"}},
		{name: "final answer bold", answer: "**Final answer: No**", passed: "false", score: "0", word: "no", checks: []string{"W: read it as no"}},
		{name: "mode note in parentheses", answer: "Yes (lenient mode allows this single-hop inference)", passed: "true", score: "1", word: "yes", checks: []string{"W: read it as yes"}},
		{name: "shouting label with period", answer: "ANSWER: NO.", passed: "false", score: "0", word: "no", checks: []string{"W: read it as no"}},
		{name: "deepseek-r1 think then bold label", answer: "<think>\nThe answer says Paris is the capital of France. Fact 1 says so. No extra claims. So yes.\n</think>\n\n**Answer:** Yes",
			passed: "true", score: "1", word: "yes", checks: []string{"W: read it as yes"}},
		{name: "qwen3 empty think then no", answer: "<think>\n\n</think>\n\nNo", passed: "false", score: "0", word: "no"},
		{name: "json object with a verdict", answer: "```json\n{\"grounded\": \"no\"}\n```", passed: "false", score: "0", word: "no", checks: []string{"W: read it as no"}},
		{name: "reasoning with no, then a last-line yes", answer: "There is no claim in the answer that the facts do not support.\n\nYes", passed: "null", score: "null",
			checks: []string{"E: the answer says both yes and no, so it cannot be read"}},
		{name: "cut off by max_tokens before the verdict", answer: "Let me check each claim. The answer states that Paris is the capital of France. Fact 1 states", passed: "null", score: "null",
			checks: []string{"E: the answer is neither yes nor no"}},
		{name: "N/A", answer: "N/A", passed: "null", score: "null", checks: []string{`E: the answer is neither yes nor no: "N/A"`}},
	}
	r := testRegistry(t)
	in := object(t, `{"answer": "Paris is the capital of France.", "facts": ["The capital of France is Paris."], "mode": "lenient"}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := r.Parse(groundingID, in, tt.answer)
			require.NoError(t, err)
			assertVerdict(t, v, tt.passed, tt.score, tt.checks)
			d := v.Verdict.(*groundingDetail)
			assert.Equal(t, "lenient", d.Mode)
			if tt.word == "" {
				assert.Nil(t, d.Answer)
			} else if assert.NotNil(t, d.Answer) {
				assert.Equal(t, tt.word, *d.Answer)
			}
			if tt.checks == nil {
				assert.Empty(t, v.Checks)
			}
		})
	}
}

func TestGroundingModes(t *testing.T) {
	r := testRegistry(t)
	for _, tt := range []struct {
		mode, want string
		warn       bool
	}{
		{`null`, "strict", false}, {`""`, "strict", false}, {`"strict"`, "strict", false},
		{`"lenient"`, "lenient", false}, {`" LENIENT "`, "lenient", false}, {`"fuzzy"`, "strict", true},
	} {
		in := object(t, `{"answer": "a", "facts": "f", "mode": `+tt.mode+`}`)
		rendered, err := r.Render(groundingID, in)
		require.NoError(t, err)
		assert.Contains(t, rendered.Prompt, "Mode: "+tt.want+". If mode", tt.mode)
		if tt.warn {
			assert.Equal(t, []string{`mode "fuzzy" is neither strict nor lenient: rendered as strict, as the prompt's own rule says`}, rendered.Warnings)
		} else {
			assert.Empty(t, rendered.Warnings, tt.mode)
		}
		v, err := r.Parse(groundingID, in, "yes")
		require.NoError(t, err)
		assert.Equal(t, tt.want, v.Verdict.(*groundingDetail).Mode)
		assert.Equal(t, tt.warn, len(v.Checks) == 1, "%q", v.Checks)
	}
}

func BenchmarkRenderParseAnswerGrounding(b *testing.B) {
	typical := `{"answer": "The Eiffel Tower, completed in 1889, is in Paris.", "facts": ["The Eiffel Tower is located in Paris.", "The Eiffel Tower was completed in 1889."], "mode": "strict"}`
	b.Run("typical", func(b *testing.B) {
		benchRenderParse(b, groundingID, object(b, typical), "<think>Both claims match a fact.</think>\n**Yes**", len(typical))
	})
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			in := value.NewObject("answer", "The dose was 20 mg.", "facts", benchChunks(size.bytes), "mode", "lenient")
			benchRenderParse(b, groundingID, in, "The answer is yes.", size.bytes)
		})
	}
}
