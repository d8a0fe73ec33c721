package template

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
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
