//go:build !js

package judge

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRagRecallGoldenDrift reruns the golden generator (Python's str.format, the oracle) and fails
// when a committed golden differs from what it writes: regenerate with
// python3 scripts/rag_recall_golden.py.
func TestRagRecallGoldenDrift(t *testing.T) {
	python := os.Getenv("PYTHON")
	if python == "" {
		python = "python3"
	}
	if _, err := exec.LookPath(python); err != nil {
		t.Skipf("no %s: %v", python, err)
	}
	out := t.TempDir()
	cmd := exec.Command(python, filepath.Join("..", "..", "scripts", "rag_recall_golden.py"), out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	dir := filepath.Join("testdata", "rag-recall")
	files, err := filepath.Glob(filepath.Join(out, "*.golden"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		want, err := os.ReadFile(f)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
		require.NoError(t, err, "golden %s is not committed", filepath.Base(f))
		assert.Equal(t, string(want), string(got), "%s drifted from the generator", filepath.Base(f))
	}
}
