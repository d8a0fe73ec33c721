//go:build !js

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The project's one dependency guard (`make check-deps` runs these tests). Each entry is a
// package or, ending in "/", every package under it.
var (
	// notInWasm are packages the wasm must not link: HTTP, go-openai and the dev server's
	// WebSocket library triple its size, and encoding/json (about 168 KB of gzip), regexp and
	// text/template are heavy for what they would give; package value reads and writes the JSON
	// the wasm needs.
	// fmt, os (which fmt imports), runtime/debug, math/big and math/rand (which math/big imports)
	// cost about 100 KB of brotli together: messages are built by diag.Sprintf and strconv,
	// big numbers by package exact.
	// embed brings io/fs and time, whose init functions and what they reach cost about 46 KB of
	// brotli: the wasm takes the prompts as Go strings from package prompts/inline.
	notInWasm = []string{"net/http", "net", "encoding/json", "regexp", "text/template", "html/template",
		"fmt", "os", "runtime/debug", "math/big", "math/rand", "embed", "io/fs", "time",
		"github.com/sashabaranov/go-openai", "github.com/sashabaranov/go-openai/",
		"github.com/coder/websocket", "github.com/coder/websocket/"}

	// notInCore are packages the core must not depend on, even indirectly (in the native build:
	// in the wasm one the standard library itself reaches syscall/js): it is plain Go that runs
	// the same natively and in the wasm, with no JS, network or processes.
	notInCore = []string{"syscall/js", "net/http", "net", "os/exec"}

	// notImportedByCore are packages no core package may import itself, in either build: the
	// core does no file I/O and knows no JS.
	notImportedByCore = []string{"syscall/js", "os", "os/exec", "io/ioutil", "path/filepath", "net", "net/http"}
)

func goList(t *testing.T, env []string, args ...string) []string {
	t.Helper()
	// go test puts the go command that runs it first on PATH.
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// matches reports the first entry of list that p is (or is under, for entries ending in "/").
func matches(p string, list []string) (string, bool) {
	for _, e := range list {
		if p == e || strings.HasSuffix(e, "/") && strings.HasPrefix(p, e) {
			return e, true
		}
	}
	return "", false
}

// TestNoUnwantedDeps fails when the wasm (GOOS=js GOARCH=wasm go list -deps ./wasm) links a
// package of notInWasm.
func TestNoUnwantedDeps(t *testing.T) {
	for _, p := range goList(t, []string{"GOOS=js", "GOARCH=wasm"}, "-deps", "./wasm") {
		if _, bad := matches(p, notInWasm); bad {
			t.Errorf("the wasm links %s; see notInWasm in wasm/deps_test.go for why not", p)
		}
	}
}

// TestCoreDeps fails when a core package depends on a package of notInCore or imports one of
// notImportedByCore.
func TestCoreDeps(t *testing.T) {
	for _, p := range goList(t, nil, "-deps", "./core/...") {
		if _, bad := matches(p, notInCore); bad {
			t.Errorf("core/ depends on %s", p)
		}
	}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, line := range goList(t, env, "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "./core/...") {
			pkg, imports, _ := strings.Cut(line, ": ")
			for _, imp := range strings.Fields(imports) {
				if _, bad := matches(imp, notImportedByCore); bad {
					t.Errorf("%s imports %s: the core does no I/O", pkg, imp)
				}
			}
		}
	}
}

// TestGuardWorks: the guard sees what it guards against (the dev server links net/http and
// go-openai; a list that matched nothing would pass for ever).
func TestGuardWorks(t *testing.T) {
	found := map[string]bool{}
	for _, p := range goList(t, nil, "-deps", "./serve") {
		if e, bad := matches(p, notInWasm); bad {
			found[e] = true
		}
	}
	for _, want := range []string{"net/http", "github.com/sashabaranov/go-openai"} {
		if !found[want] {
			t.Errorf("go list -deps ./serve does not show %s: the guard's matching is broken", want)
		}
	}
}
