//go:build !js

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The project's one dependency guard (`make check-deps` runs these tests): what the wasm may link
// and the core may depend on (the lists below), and which ragjudge package each core package may
// import (the parts table of docs/ARCHITECTURE.md, read by coreParts). Each entry of the lists is
// a package or, ending in "/", every package under it.
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

// coreParts reads the parts table of docs/ARCHITECTURE.md ("Parts and what each may import"):
// for each core package, the ragjudge packages it may import. Its "may import" cell names them
// in backquotes relative to core/ (`diag`, `template/parse`); "stdlib" allows none.
func coreParts(t *testing.T) map[string]map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| `core/") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		part := "ragjudge/" + strings.Trim(cells[0], "`")
		may := map[string]bool{}
		for i, quoted := range strings.Split(cells[len(cells)-1], "`") {
			if i%2 == 1 {
				may["ragjudge/core/"+quoted] = true
			}
		}
		parts[part] = may
	}
	if len(parts) == 0 {
		t.Fatal("docs/ARCHITECTURE.md has no core rows in its parts table")
	}
	return parts
}

// importViolations checks go list lines ("package: import import…") against parts: a ragjudge
// import its package's row does not name, or a package without a row.
func importViolations(parts map[string]map[string]bool, lines []string) []string {
	var bad []string
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		may, ok := parts[pkg]
		if !ok {
			bad = append(bad, pkg+" has no row in the parts table of docs/ARCHITECTURE.md")
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "ragjudge/") && !may[imp] {
				bad = append(bad, pkg+" imports "+imp+", which its row of the parts table in docs/ARCHITECTURE.md does not allow")
			}
		}
	}
	return bad
}

// TestCoreImportsFollowTheTable fails when a core package imports a ragjudge package that its
// row of the parts table does not allow (template/parse imports diag, exact and template/pystr,
// never the evaluator), when a core package has no row, or when a row names no package.
func TestCoreImportsFollowTheTable(t *testing.T) {
	parts := coreParts(t)
	lines := goList(t, nil, "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "./core/...")
	for _, bad := range importViolations(parts, lines) {
		t.Error(bad)
	}
	listed := map[string]bool{}
	for _, line := range lines {
		pkg, _, _ := strings.Cut(line, ":")
		listed[pkg] = true
	}
	for part, may := range parts {
		if !listed[part] {
			t.Errorf("docs/ARCHITECTURE.md's parts table has a row for %s, which is no package", part)
		}
		for imp := range may {
			if !listed[imp] {
				t.Errorf("the row of %s in docs/ARCHITECTURE.md's parts table allows %s, which is no core package", part, imp)
			}
		}
	}
}

// TestTableGuardWorks: the table's rule catches an import it does not allow and a package it has
// no row for (a guard whose reading of the table matched nothing would pass for ever).
func TestTableGuardWorks(t *testing.T) {
	parts := coreParts(t)
	if !parts["ragjudge/core/template/parse"]["ragjudge/core/diag"] || parts["ragjudge/core/template/parse"]["ragjudge/core/value"] {
		t.Fatalf("the parts table reads wrong: template/parse may import %v", parts["ragjudge/core/template/parse"])
	}
	bad := importViolations(parts, []string{
		"ragjudge/core/template/parse: strings ragjudge/core/diag ragjudge/core/template",
		"ragjudge/core/newpart:",
		"ragjudge/core/judge: ragjudge/core/template ragjudge/core/output",
	})
	if len(bad) != 2 || !strings.Contains(bad[0], "imports ragjudge/core/template,") || !strings.Contains(bad[1], "core/newpart has no row") {
		t.Errorf("the table guard found %q", bad)
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
