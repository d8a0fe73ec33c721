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

// FuzzClaimCut cuts a claim-groundedness answer at a fuzzed point, as max_tokens or a stopped
// stream would. A cut answer is undetermined with answer.truncated first, blames the judge for
// no claim (no claims.skipped, no claims.missing), and every claim it still grades is graded
// the same in the whole answer, when that one is read without a doubt about its claims.
func FuzzClaimCut(f *testing.F) {
	for _, s := range []string{
		c2Ungrounded,
		"```json\n" + claimJSON("true", `"yes"`, "1") + "\n```",
		`{"claims": {"c1": true, "c2": {"grounded": false, "ungrounded_assertions": ["x"]}, "c3": false}}`,
		`<think>{"claims": []}</think>{'claims': [{'claim_id': 'c1', 'grounded': True,}, {"claim_id": "c2", "grounded": false}]}`,
	} {
		for _, at := range []uint16{0, 20, 60, 100, 150, 220} {
			f.Add(s, at)
		}
	}
	r := testRegistry(f)
	in := object(f, claimInputs)
	f.Fuzz(func(t *testing.T, answer string, at uint16) {
		whole, err := r.Parse(claimID, in, answer)
		if err != nil {
			t.Fatal(err)
		}
		cut := answer[:int(at)%(len(answer)+1)]
		v, err := r.Parse(claimID, in, cut)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Checks) == 0 || v.Checks[0].Code != diag.AnswerTruncated {
			return
		}
		if v.Passed != nil || v.Score != nil {
			t.Fatalf("a cut answer has a verdict: %v %v", v.Passed, v.Score)
		}
		for _, c := range v.Checks {
			if c.Code == diag.ClaimsSkipped || c.Code == diag.ClaimsMissing {
				t.Fatalf("a cut answer blames the judge: %+v", c)
			}
		}
		d, w := v.Verdict.(*claimDetail), whole.Verdict.(*claimDetail)
		if d.Counts.Total != d.Counts.Grounded+d.Counts.Ungrounded+d.Counts.Missing+d.Counts.Cut {
			t.Fatalf("counts %+v", d.Counts)
		}
		for _, c := range whole.Checks {
			switch c.Code {
			case diag.ClaimsDuplicate, diag.ClaimsKeyedObject, diag.AnswerTruncated, diag.AnswerUnreadable, diag.AnswerProseSkipped:
				return // a later entry may change a grade; the whole answer is not the same payload
			}
		}
		for i, c := range d.Claims {
			if (c.Status == statusGrounded || c.Status == statusUngrounded) && w.Claims[i].Status != c.Status {
				t.Fatalf("claim %s graded %s in the cut answer %q, %s in the whole one", c.ID, c.Status, cut, w.Claims[i].Status)
			}
		}
	})
}
