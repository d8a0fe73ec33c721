package template

import (
	"strings"
	"testing"
)

// tenKB is a 10 KB Jinja prompt of the kind a custom evaluator's editor re-checks on every
// keystroke: prose with substitutions, and a loop.
func tenKB() string {
	para := "Judge whether {{ answer }} answers {{ question }} using only the passages. "
	return strings.Repeat(para, 10240/len(para)+1) + "{% for c in contexts %}[{{ loop.index }}] {{ c }}{% endfor %}"
}

// BenchmarkReads10KB is the core's part of rj.checkEvaluator on a 10 KB template: parsing it and
// finding the names it reads with their positions.
func BenchmarkReads10KB(b *testing.B) {
	src := tenKB()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Reads("t", src, Jinja); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReads10KBFormat is the same for str.format, which Reads also renders once to find
// what Render would refuse.
func BenchmarkReads10KBFormat(b *testing.B) {
	src := strings.NewReplacer("{{ ", "{", " }}", "}", "{% for c in contexts %}[{{ loop.index }}] {{ c }}{% endfor %}", "{contexts}").Replace(tenKB())
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Reads("t", src, Format); err != nil {
			b.Fatal(err)
		}
	}
}
