package judge

import (
	"testing"

	"github.com/stretchr/testify/require"

	"ragjudge/prompts"
)

// testRegistry loads the built-in evaluators with the real prompts.
func testRegistry(t testing.TB) *Registry {
	t.Helper()
	r, err := Load(prompts.FS)
	require.NoError(t, err)
	return r
}
