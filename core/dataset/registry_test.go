package dataset

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/judge"
	"ragjudge/prompts"
)

// TestWithTheEvaluators reads datasets as users bring them, maps them onto the real evaluators'
// inputs and renders every row: the path a batch run takes.
func TestWithTheEvaluators(t *testing.T) {
	reg, err := judge.Load(prompts.FS)
	require.NoError(t, err)

	ragas := "{\"user_input\":\"Who wrote the first program?\",\"retrieved_contexts\":[\"Ada Lovelace wrote the first program in 1843.\",\"Babbage designed the engine.\"],\"response\":\"Ada Lovelace [1].\",\"reference\":\"[ESSENTIAL PASSAGE]\\nAda Lovelace wrote it.\\n[BONUS PASSAGE]\\nIn 1843.\"}\n" +
		"{\"user_input\":\"When?\",\"retrieved_contexts\":[\"In 1843.\"],\"response\":\"In 1843 [1].\",\"reference\":\"[ESSENTIAL PASSAGE]\\n1843\"}\n"
	own := "question,claims,evidence\r\n" +
		"Who?,\"[\"\"Ada wrote it.\"\", \"\"In 1843.\"\"]\",\"[{\"\"title\"\": \"\"Notes\"\", \"\"text\"\": \"\"Ada wrote the program in 1843.\"\"}]\"\r\n" +
		"When?,In 1843.,['It was 1843.']\r\n"

	for _, tc := range []struct {
		name, text, id string
		want           Mapping
		notes          int // messages expected over all rows
	}{
		{"RAGAS JSONL, answer grounding", ragas, "answer-grounding",
			Mapping{"answer": "response", "facts": "retrieved_contexts"}, 0},
		{"RAGAS JSONL, pairwise faithfulness", ragas, "pairwise-faithfulness",
			Mapping{"contexts": "retrieved_contexts", "expected_output": "reference", "actual_output": "response"}, 0},
		{"RAGAS JSONL, rag recall", ragas, "rag-recall",
			Mapping{"passage_gt": "reference", "passage_llm": "response"}, 0},
		{"own names in CSV, claim groundedness", own, "claim-groundedness",
			Mapping{"question": "question", "claims": "claims", "evidence": "evidence"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read(tc.text, "")
			require.NoError(t, err)
			require.Empty(t, tab.Errors)
			ev, err := reg.Get(tc.id)
			require.NoError(t, err)
			m := tab.DetectMapping(ev.Inputs)
			assert.Equal(t, tc.want, m)
			notes := 0
			for i, row := range tab.Rows {
				in, msgs := RowInputs(row, m, ev.Inputs)
				notes += len(msgs)
				r, err := reg.Render(tc.id, in)
				require.NoError(t, err, "row %d: %v", i+1, msgs)
				assert.NotEmpty(t, r.Prompt)
			}
			assert.Equal(t, tc.notes, notes)
		})
	}
}
