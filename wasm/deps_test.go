//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// unwanted are packages the wasm must not link. encoding/json cost about 168 KB of its gzip
// size (the budget is 1.25 MB); package value reads and writes JSON in its place.
var unwanted = []string{"encoding/json", "net/http", "text/template", "html/template", "regexp"}

// TestNoUnwantedDeps fails when a package in unwanted comes back into the wasm's dependencies
// (GOOS=js GOARCH=wasm go list -deps ./wasm).
func TestNoUnwantedDeps(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	cmd := exec.Command(gobin, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	for _, p := range unwanted {
		if deps[p] {
			t.Errorf("the wasm links %s; see the package doc of ragjudge/core/value", p)
		}
	}
}
