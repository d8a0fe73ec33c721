package judge

import (
	"encoding/json"
	"math"
	"testing"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// FuzzParseVerdicts feeds arbitrary judge answers to claim-groundedness, answer-grounding and
// pairwise-faithfulness (which one by evaluator % 3; the answer is also pairwise's actual
// output, so the citation check's sentence splitter is fuzzed too). A verdict must come back for
// every answer, undetermined exactly when it has an error check, with a score that is null or
// in [0, 1], and must marshal to JSON.
func FuzzParseVerdicts(f *testing.F) {
	for i, s := range []string{
		c2Ungrounded,
		"```json\n" + claimJSON("true", `"yes"`, "1") + "\n```",
		"<think>x</think>**Yes**.",
		"The answer is no.",
		pairJSON("false", "true", "true", "null"),
		"{'answer_2': {'faithfulness': True}} Dr. Smith said 3.5 [1]. [9]",
		"There is no unsupported claim.\n\nFinal answer: yes. no. yes.",
		`{"claims": [{"claim_id": "c1", "grounded": tr`,
	} {
		f.Add(uint8(i), s)
	}
	r := testRegistry(f)
	inputs := []*value.Object{object(f, claimInputs), object(f, `{"answer": "a", "facts": ["f"], "mode": "odd"}`), nil}
	ids := []string{claimID, groundingID, pairwiseID}
	f.Fuzz(func(t *testing.T, evaluator uint8, answer string) {
		k := int(evaluator) % 3
		in := inputs[k]
		if in == nil {
			in = value.NewObject("contexts", []any{"one", "two"}, "expected_output", "x [1].", "actual_output", answer+"x")
		}
		v, err := r.Parse(ids[k], in, answer)
		if err != nil {
			t.Fatalf("%s: %v", ids[k], err)
		}
		hasError := false
		for _, c := range v.Checks {
			hasError = hasError || c.Severity == diag.SevError
			if c.Message == "" {
				t.Fatalf("empty check message")
			}
			if c.Code == "" {
				t.Fatalf("check without a code: %+v", c)
			}
			if c.Input == "" && c.Len > 0 && len([]rune(spanText(answer, c))) != c.Len {
				t.Fatalf("check %+v points outside the answer", c)
			}
		}
		if (v.Passed == nil) != hasError {
			t.Fatalf("%s: passed %v with checks %+v", ids[k], v.Passed, v.Checks)
		}
		if v.Score != nil && (math.IsNaN(*v.Score) || *v.Score < 0 || *v.Score > 1) {
			t.Fatalf("%s: score %v", ids[k], *v.Score)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("%s: %v", ids[k], err)
		}
	})
}
