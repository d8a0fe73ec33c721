//go:build !js

package judge

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func init() {
	regenerateGoldens = func(t *testing.T) {
		out, err := exec.Command(python(), filepath.Join("..", "..", "scripts", "judge_goldens.py")).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
}

func python() string {
	if p := os.Getenv("PYTHON"); p != "" {
		return p
	}
	return "/usr/bin/python3"
}

// TestRenderGoldensMatchOracle fails when a golden file no longer matches what real Jinja2 or
// str.format renders from its case: the goldens are generated, never edited by hand.
func TestRenderGoldensMatchOracle(t *testing.T) {
	py := python()
	if err := exec.Command(py, "-c", "import jinja2").Run(); err != nil {
		if os.Getenv("PYTHON") != "" {
			t.Fatalf("%s cannot import jinja2: %v", py, err)
		}
		t.Skipf("no %s with jinja2: %v", py, err)
	}
	out, err := exec.Command(py, filepath.Join("..", "..", "scripts", "judge_goldens.py"), "--check").CombinedOutput()
	require.NoError(t, err, "%s", out)
}
