package judge

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// FuzzParseRagRecall parses any answer against any ground truth: never a panic, a verdict that
// marshals, a score that is a finite number in 1–5 or null with an error check saying why.
func FuzzParseRagRecall(f *testing.F) {
	f.Add(example1, gt22)
	f.Add("[ESSENTIAL PASSAGE] 1: Score: 9", gt20)
	f.Add("<think>", gt11)
	r := testRegistry(f)
	f.Fuzz(func(t *testing.T, answer, gt string) {
		in := value.NewObject("passage_gt", gt, "passage_llm", "x", "threshold", 3.5)
		v, err := r.Parse(ragRecallID, in, answer)
		if err != nil {
			return // inputs render refuses (a blank passage_gt)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatal(err)
		}
		if v.Score == nil {
			if v.Passed != nil {
				t.Fatal("passed without a score")
			}
			for _, c := range v.Checks {
				if c.Severity == diag.SevError {
					return
				}
			}
			t.Fatal("no score and no error check")
		}
		if s := *v.Score; math.IsNaN(s) || s < 1 || s > 5 {
			t.Fatalf("score %v", s)
		}
		if v.Passed == nil {
			t.Fatal("a threshold and a score, but passed is null")
		}
	})
}

func benchRagRecall(b *testing.B, gt, answer string) {
	r := testRegistry(b)
	in := value.NewObject("passage_gt", gt, "passage_llm", "Paris, the capital of France, lies on the Seine.")
	b.SetBytes(int64(len(gt) + len(answer)))
	for b.Loop() {
		if _, err := r.Render(ragRecallID, in); err != nil {
			b.Fatal(err)
		}
		v, err := r.Parse(ragRecallID, in, answer)
		if err != nil || v.Score == nil {
			b.Fatal(err, v.Checks)
		}
	}
}

// BenchmarkRenderParseRagRecall renders and parses a typical case (4 passages) and one with a
// 1 MB ground truth of 1,000 passages (and an answer scoring each).
func BenchmarkRenderParseRagRecall(b *testing.B) {
	b.Run("typical", func(b *testing.B) { benchRagRecall(b, gt22, example1) })
	b.Run("1MB", func(b *testing.B) {
		var gt, answer strings.Builder
		passage := strings.Repeat("The Eiffel Tower, completed in 1889, is 330 metres tall. ", 18) // ≈ 1 KB
		for i := 1; i <= 1000; i++ {
			kind := "ESSENTIAL"
			if i > 800 {
				kind = "BONUS"
			}
			gt.WriteString("[" + kind + " PASSAGE]\n" + passage + "\n\n")
			n := i
			if i > 800 {
				n = i - 800
			}
			answer.WriteString("[" + kind + " PASSAGE] " + itoa(n) + ": The returned passage covers it. Score: 4\n")
		}
		answer.WriteString("RECALL_Final_Score: 5\n")
		benchRagRecall(b, gt.String(), answer.String())
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
