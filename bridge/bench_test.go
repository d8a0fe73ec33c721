// The bridge at 1 MB of inputs, natively or in the wasm (GOOS=js GOARCH=wasm go test -bench . ./bridge/).
package bridge

import (
	"strings"
	"testing"

	"ragjudge/core/value"
)

func big1MB() *value.Object {
	var facts []any
	for n := 0; n < 1<<20; n += 2048 {
		facts = append(facts, strings.Repeat("Sentence 1 of the record states that the patient received 100 mg. ", 31))
	}
	return obj("answer", "x", "facts", facts)
}

func BenchmarkRegistryRender1MB(bb *testing.B) {
	in := big1MB()
	for i := 0; i < bb.N; i++ {
		b.registry.Render("answer-grounding", in)
	}
}

func BenchmarkRegistryParse1MB(bb *testing.B) {
	in := big1MB()
	for i := 0; i < bb.N; i++ {
		b.registry.Parse("answer-grounding", in, "yes")
	}
}

func BenchmarkUTF16Offsets1MB(bb *testing.B) {
	r, _ := b.registry.Render("answer-grounding", big1MB())
	offs := []int{}
	for _, s := range r.Spans {
		offs = append(offs, s.Start, s.End)
	}
	for i := 0; i < bb.N; i++ {
		UTF16Offsets(r.Prompt, offs)
	}
}

func BenchmarkCallRender1MB(bb *testing.B) {
	in := big1MB()
	for i := 0; i < bb.N; i++ {
		b.Call("render", []any{"answer-grounding", in})
	}
}
