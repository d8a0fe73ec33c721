package recall

import (
	"strings"
	"testing"

	"ragjudge/core/exact"
)

func BenchmarkRecallCompute(b *testing.B) {
	essential := []*exact.Rat{exact.NewRat(4, 1), exact.NewRat(7, 2), exact.NewRat(3, 1)}
	bonus := []*exact.Rat{exact.NewRat(4, 1), exact.NewRat(0, 1)}
	for b.Loop() {
		if _, err := Compute(essential, bonus); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadAnswer(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<think>weighing</think>\n**RECALL_Reasoning:**\n")
	for i := 0; i < 5; i++ {
		sb.WriteString("### [ESSENTIAL PASSAGE] 1:\n- The returned passage covers most facts, missing one date.\n- **Score:** 4\n\n")
	}
	sb.WriteString("• RECALL_Essential_Formula: (4 + 4 + 4 + 4 + 4) / 5 = 4\n• RECALL_Final_Score: 4\n")
	answer := sb.String()
	b.SetBytes(int64(len(answer)))
	for b.Loop() {
		ReadAnswer(answer)
	}
}

func BenchmarkPassages1MB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("[ESSENTIAL PASSAGE]\n")
		sb.WriteString(strings.Repeat("The Eiffel Tower [1889] is 330 m tall. ", 40))
		sb.WriteString("\n[BONUS PASSAGE]\nIt was built for the World's Fair.\n")
	}
	gt := sb.String()
	b.SetBytes(int64(len(gt)))
	for b.Loop() {
		Passages(gt)
	}
}
