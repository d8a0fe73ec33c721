package judge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

// TestReasoningAllEvaluators checks that every evaluator reads reasoning the same way
// (output.FindReasoning): each form reasoning models really send, around an answer each
// evaluator can read. The reasoning holds a decoy for each evaluator (a JSON example with other
// grades, both "yes" and "no", draft scores), so an answer read with its reasoning would differ.
func TestReasoningAllEvaluators(t *testing.T) {
	type answerOf struct {
		id, reasoning, body string
		in                  *value.Object
		passed, score       string
		// positioned: a body with an error whose position is reported, that check, and the
		// position's line and column in the body alone, on the body's second line.
		positioned, positionedCheck string
		positionedCol               int
	}
	evaluators := []answerOf{
		{id: claimID, in: object(t, claimInputs),
			reasoning: "Okay, the format is {\"claims\": [{\"claim_id\": \"c1\", \"grounded\": false}]}.\nc2: the note says nothing about reactions, so no.",
			body:      c2Ungrounded, passed: "false", score: "0.6667",
			positioned: "{\"claims\": [\n  {\"claim_id\": \"c1\", \"grounded\": maybe}\n]}", positionedCheck: `E: unexpected word "maybe"`, positionedCol: 34},
		{id: groundingID, in: object(t, `{"answer": "Paris is the capital of France.", "facts": ["The capital of France is Paris."]}`),
			reasoning: "Is every claim in the facts? No problem with claim 1... so yes, or no? Yes.",
			body:      "**Yes**", passed: "true", score: "1"},
		{id: ragRecallID, in: value.NewObject("passage_gt", gt20, "passage_llm", "Paris, on the Seine.", "threshold", int64(3)),
			reasoning: "Draft: [ESSENTIAL PASSAGE] 1 Score: 1\n[ESSENTIAL PASSAGE] 2 Score: 1\nRECALL_Final_Score: 1",
			body:      "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 3\n\nRECALL_Final_Score: 3.5", passed: "true", score: "3.5",
			positioned: "[ESSENTIAL PASSAGE] 1: Score: 4\n[ESSENTIAL PASSAGE] 2: Score: 9", positionedCheck: "E: essential score 2 is 9, out of 1–5", positionedCol: 31},
		{id: pairwiseID, in: object(t, pairwiseInputs),
			reasoning: "The schema: {\"answer_1\": {\"faithfulness\": false}, \"answer_2\": {\"faithfulness\": false}}",
			body:      pairJSON("false", "true", "false", "true"), passed: "true", score: "1"},
	}
	truncated := map[string]string{
		claimID:     "E: the answer ends inside the model's <think> reasoning, before any answer: it looks truncated",
		groundingID: "E: the answer ends inside the model's <think> reasoning, before any yes or no: it looks truncated",
		ragRecallID: "E: no passage score in the answer: expected a `Score: n` after each [ESSENTIAL PASSAGE] and [BONUS PASSAGE] (it ends inside a <think> block opened at line 2: it looks truncated",
		pairwiseID:  "E: the answer ends inside the model's <think> reasoning, before any answer: it looks truncated",
	}
	forms := []struct {
		name   string
		wrap   func(reasoning, body string) string
		cutOff bool // the reply ends inside the reasoning
	}{
		{name: "leading block (DeepSeek-R1, QwQ)",
			wrap: func(r, b string) string { return "<think>\n" + r + "\n</think>\n\n" + b }},
		{name: "leading thinking tag, any case, after blank lines",
			wrap: func(r, b string) string { return "\n  <Thinking>" + r + "</THINKING>\n\n" + b }},
		{name: "opening tag stripped by the server: lone close",
			wrap: func(r, b string) string { return r + "\n</think>\n\n" + b }},
		{name: "several consecutive blocks",
			wrap: func(r, b string) string {
				return "<think>\n" + r + "\n</think>\n<think>\nLet me check again. " + r + "\n</think>\n\n" + b
			}},
		{name: "lone close then another block",
			wrap: func(r, b string) string { return r + "</think>\n\n<think>\n" + r + "\n</think>\n" + b }},
		{name: "empty block (Qwen3 with thinking off)",
			wrap: func(r, b string) string { return "<think>\n\n</think>\n\n" + b }},
		{name: "unclosed block (max_tokens ran out)", cutOff: true,
			wrap: func(r, b string) string { return "\n<think>\n" + r + "\nSo the final answer should" }},
		{name: "second block unclosed", cutOff: true,
			wrap: func(r, b string) string { return "<think>a</think>\n<think>\n" + r }},
		// gpt-oss's Harmony channels, sent as they are by servers that do not parse them.
		{name: "harmony channels (gpt-oss)",
			wrap: func(r, b string) string {
				return "<|channel|>analysis<|message|>" + r + "<|end|><|start|>assistant<|channel|>final<|message|>" + b
			}},
		{name: "harmony with its special tokens dropped",
			wrap: func(r, b string) string { return "analysis" + r + "assistantfinal" + b }},
		{name: "harmony cut in the analysis", cutOff: true,
			wrap: func(r, b string) string { return "\n<|channel|>analysis<|message|>" + r }},
	}
	r := testRegistry(t)
	for _, f := range forms {
		for _, e := range evaluators {
			t.Run(f.name+"/"+e.id, func(t *testing.T) {
				answer := f.wrap(e.reasoning, e.body)
				v, err := r.Parse(e.id, e.in, answer)
				require.NoError(t, err)
				if f.cutOff {
					assertVerdict(t, v, "null", "null", []string{truncated[e.id]})
					return
				}
				assertVerdict(t, v, e.passed, e.score, nil)
				for _, c := range v.Checks {
					require.NotContains(t, c.Message, "ignored an earlier JSON object", "the decoy in the reasoning was read")
				}
				if e.positioned == "" {
					return
				}
				// The error's position is in the original answer: the body's second line is the
				// answer's line bodyLine+1, whatever reasoning comes before it.
				answer = f.wrap(e.reasoning, e.positioned)
				bodyLine := strings.Count(answer[:len(answer)-len(e.positioned)], "\n") + 1
				v, err = r.Parse(e.id, e.in, answer)
				require.NoError(t, err)
				at := fmt.Sprintf("(line %d, col %d)", bodyLine+1, e.positionedCol)
				assertVerdict(t, v, "null", "null", []string{e.positionedCheck, "E: " + at})
			})
		}
	}
}
