//go:build !js

package template

import (
	"os"
	"os/exec"
	"testing"
)

// TestGoldensMatchOracle reruns scripts/gen_conformance.py --check: the committed goldens must be
// exactly what real Jinja2 and str.format produce today.
func TestGoldensMatchOracle(t *testing.T) {
	python := os.Getenv("PYTHON")
	if python == "" {
		python = "/usr/bin/python3"
	}
	for _, args := range [][]string{{"--check"}, {"--casing", "--check"}} {
		cmd := exec.Command(python, append([]string{"../../scripts/gen_conformance.py"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s scripts/gen_conformance.py %v failed: %v\n%s\n(the oracle needs Jinja2: apt-get install -y python3-jinja2)", python, args, err, out)
		}
	}
}
