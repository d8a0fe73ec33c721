package template

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"ragjudge/core/template/parse"
)

// renderHostile renders src over hostileVars and reports the bytes the render allocated, a
// measure of the work it did that a loaded machine or the wasm's speed does not change: these
// tests assert that a budget stops a template before the work, not how long that took.
func renderHostile(t *testing.T, src string) (uint64, error) {
	t.Helper()
	vars := hostileVars()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Render("hostile", src, Jinja, vars)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%.1f MB allocated: %v", float64(allocated)/(1<<20), err)
	return allocated, err
}

// assertAllocatedUnder fails when a render allocated limitMB megabytes or more.
func assertAllocatedUnder(t *testing.T, allocated uint64, limitMB uint64) {
	t.Helper()
	assert.Less(t, allocated, limitMB<<20, "the render did more work than its budget allows: %.1f MB allocated", float64(allocated)/(1<<20))
}

// TestHotPathAllocations bounds what rendering and parsing allocate (counted, not timed: in the
// wasm, allocating and collecting was most of a render's and a parse's time). The bounds hold
// with some room; the counts before this was measured were 57 (the pairwise prompt), 2,454 (the
// rubric) and 3,618 (parsing the rubric).
func TestHotPathAllocations(t *testing.T) {
	pairwise, pvars := promptSource(t, "pairwise-faithfulness"), pairwiseVars()
	src, vars := rubric(t)
	cases := []struct {
		name string
		max  float64
		run  func()
	}{
		{"pairwise prompt, 10 contexts (parsed before)", 15, func() { _, _ = Render("t", pairwise, Jinja, pvars) }},
		{"rubric (parsed before)", 1000, func() { _, _ = Render("t", src, Jinja, vars) }},
		{"parse of the rubric", 1400, func() {
			_, _ = parse.Parse(jinjaSource(src), &funcs)
		}},
	}
	for _, c := range cases {
		c.run() // into the parse cache
		allocs := testing.AllocsPerRun(20, c.run)
		t.Logf("%s: %.0f allocations", c.name, allocs)
		assert.LessOrEqual(t, allocs, c.max, c.name)
	}
}
