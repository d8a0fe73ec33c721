package dataset

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchRows is the size of the benchmark datasets: RAGAS-style rows with a question, three
// retrieved contexts, a response and a reference, about 600 bytes each.
const benchRows = 10_000

func benchRow(i int) (question string, contexts []string, response, reference string) {
	question = fmt.Sprintf("What did report %d say about the quarterly revenue of the northern region?", i)
	contexts = []string{
		fmt.Sprintf("Report %d: revenue in the northern region rose by %d%% over the quarter, driven by retail.", i, i%40),
		"The southern region was flat; exports fell slightly because of shipping delays in the second month.",
		"Analysts expect the trend to continue, though currency effects may reduce reported growth.",
	}
	response = fmt.Sprintf("Revenue in the northern region rose by %d%% [1], mostly from retail [1].", i%40)
	reference = fmt.Sprintf("It rose by %d%%, driven by retail.", i%40)
	return
}

func benchJSONL() string {
	var b strings.Builder
	for i := 0; i < benchRows; i++ {
		q, c, r, ref := benchRow(i)
		line, _ := json.Marshal(map[string]any{"user_input": q, "retrieved_contexts": c, "response": r, "reference": ref})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func benchCSV() string {
	var b strings.Builder
	b.WriteString("user_input,retrieved_contexts,response,reference\r\n")
	esc := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	for i := 0; i < benchRows; i++ {
		q, c, r, ref := benchRow(i)
		list, _ := json.Marshal(c)
		fmt.Fprintf(&b, "%s,%s,%s,%s\r\n", esc(q), esc(string(list)), esc(r), esc(ref))
	}
	return b.String()
}

func benchRead(b *testing.B, text, format string) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		t, err := Read(text, format)
		if err != nil || len(t.Rows) != benchRows {
			b.Fatalf("read %d rows, err %v", len(t.Rows), err)
		}
	}
}

func BenchmarkReadJSONL10k(b *testing.B) { benchRead(b, benchJSONL(), "") }

func BenchmarkReadCSV10k(b *testing.B) { benchRead(b, benchCSV(), "") }

// BenchmarkReadJSONOneLine10k reads the rows as one JSON array on a single line, as
// json.dumps writes it: row lines must not cost a scan of the line each.
func BenchmarkReadJSONOneLine10k(b *testing.B) {
	text := "[" + strings.ReplaceAll(strings.TrimSuffix(benchJSONL(), "\n"), "\n", ",") + "]"
	benchRead(b, text, "")
}

// BenchmarkRowInputs10k maps and converts every row of the CSV, whose contexts are JSON lists
// written in cells: the work a batch run does before rendering.
func BenchmarkRowInputs10k(b *testing.B) {
	t, err := Read(benchCSV(), "csv")
	if err != nil {
		b.Fatal(err)
	}
	m := t.DetectMapping(pairwiseInputs)
	b.ReportAllocs()
	for b.Loop() {
		for _, row := range t.Rows {
			if _, msgs := RowInputs(row, m, pairwiseInputs); len(msgs) != 0 {
				b.Fatal(msgs)
			}
		}
	}
}
