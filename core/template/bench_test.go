package template

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"ragjudge/core/template/parse"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

func promptSource(b testing.TB, id string) string {
	src, err := fs.ReadFile(prompts.FS, id+".md")
	if err != nil {
		b.Fatal(err)
	}
	return string(src)
}

// evidenceOf returns about n bytes of evidence text with template-like noise in it.
func evidenceOf(n int) string {
	chunk := "ID: 7 | Label {{ x }}\nAspirin 81 mg once daily was prescribed; follow-up in 2\u00a0weeks {name}.\n\n"
	return strings.Repeat(chunk, n/len(chunk)+1)[:n]
}

func benchRender(b *testing.B, src string, d Dialect, vars *value.Object) {
	b.Helper()
	b.ReportAllocs()
	out, err := Render("bench", src, d, vars)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Render("bench", src, d, vars); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderClaimGroundedness(b *testing.B) {
	vars := value.NewObject("question", "What did the patient receive?",
		"reports", "Claim c1: The patient was prescribed aspirin.\nClaim c2: No adverse reactions.",
		"evidence", evidenceOf(2000))
	benchRender(b, promptSource(b, "claim-groundedness"), Jinja, vars)
}

func BenchmarkRenderPairwiseFaithfulness(b *testing.B) {
	contexts := make([]any, 10)
	for i := range contexts {
		contexts[i] = evidenceOf(300)
	}
	vars := value.NewObject("contexts", contexts, "expected_output", "Paris [1].", "actual_output", "Paris is the capital [2].")
	benchRender(b, promptSource(b, "pairwise-faithfulness"), Jinja, vars)
}

func BenchmarkRenderAnswerGrounding(b *testing.B) {
	vars := value.NewObject("mode", "strict", "answer", "Paris is the capital of France.", "facts", evidenceOf(2000))
	benchRender(b, promptSource(b, "answer-grounding"), Format, vars)
}

func BenchmarkRenderRagRecall(b *testing.B) {
	vars := value.NewObject("passage_gt", "[ESSENTIAL PASSAGE]\n"+evidenceOf(1000), "passage_llm", evidenceOf(1000))
	benchRender(b, promptSource(b, "rag-recall"), Format, vars)
}

// The 1 MB and 4 MB variants show the cost is linear in the size of the variables.

func BenchmarkRenderJinja1MBEvidence(b *testing.B) {
	vars := value.NewObject("question", "Q?", "reports", "Claim c1: x", "evidence", evidenceOf(1<<20))
	benchRender(b, promptSource(b, "claim-groundedness"), Jinja, vars)
}

func BenchmarkRenderJinja4MBEvidence(b *testing.B) {
	vars := value.NewObject("question", "Q?", "reports", "Claim c1: x", "evidence", evidenceOf(4<<20))
	benchRender(b, promptSource(b, "claim-groundedness"), Jinja, vars)
}

func BenchmarkRenderJinjaLoop1MBContexts(b *testing.B) {
	contexts := make([]any, 1000)
	for i := range contexts {
		contexts[i] = evidenceOf(1 << 10)
	}
	vars := value.NewObject("contexts", contexts, "expected_output", "a", "actual_output", "b")
	benchRender(b, promptSource(b, "pairwise-faithfulness"), Jinja, vars)
}

func BenchmarkRenderFormat1MBFacts(b *testing.B) {
	vars := value.NewObject("mode", "strict", "answer", "x", "facts", evidenceOf(1<<20))
	benchRender(b, promptSource(b, "answer-grounding"), Format, vars)
}

func BenchmarkRenderJinjaFilters1MB(b *testing.B) {
	vars := value.NewObject("s", evidenceOf(1<<20))
	benchRender(b, "{{ s|upper|replace('ID', 'id')|trim|length }} {{ s|tojson|length }}", Jinja, vars)
}

// The benchmarks of bench/engines.mjs, natively (and in the wasm with GOOS=js GOARCH=wasm): the
// pairwise prompt with 10 contexts of 600 characters, and the 10 KB custom template of
// testdata/bench with its variables.

func pairwiseVars() *value.Object {
	contexts := make([]any, 10)
	for i := range contexts {
		contexts[i] = evidenceOf(600)
	}
	return value.NewObject("contexts", contexts,
		"expected_output", "Aspirin 100 mg was given on day 1 [1]. It was continued [2].",
		"actual_output", "Aspirin was given [1]. The dose was 100 mg [2]. The patient recovered [3].")
}

func rubric(b testing.TB) (string, *value.Object) {
	src, err := os.ReadFile("testdata/bench/rubric.jinja")
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile("testdata/bench/rubric.json")
	if err != nil {
		b.Fatal(err)
	}
	vars, err := value.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	return string(src), vars.(*value.Object)
}

// BenchmarkRenderPairwise10 is rj.template's core on the pairwise prompt: the parse is cached.
func BenchmarkRenderPairwise10(b *testing.B) {
	benchRender(b, promptSource(b, "pairwise-faithfulness"), Jinja, pairwiseVars())
}

// BenchmarkRenderRubric is rj.template's core on the 10 KB custom template.
func BenchmarkRenderRubric(b *testing.B) {
	src, vars := rubric(b)
	benchRender(b, src, Jinja, vars)
}

// BenchmarkParseRubric is parsing the 10 KB template and analysing its scopes: what a render
// of a new source adds to a cached one.
func BenchmarkParseRubric(b *testing.B) {
	src, _ := rubric(b)
	src = jinjaSource(src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, perr := parse.Parse(src, &funcs); perr != nil {
			b.Fatal(perr.Msg)
		}
	}
}

// BenchmarkReadsRubric is rj.variables on the 10 KB template: what the evaluator editor does
// on each keystroke (parse, scopes, the names read with their positions).
func BenchmarkReadsRubric(b *testing.B) {
	src, _ := rubric(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Reads("t", src, Jinja); err != nil {
			b.Fatal(err)
		}
	}
}
