package diag

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// declaredCodes reads the Code constants of codes.go with go/parser, so the test sees exactly
// what the source declares.
func declaredCodes(t *testing.T) map[string]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "codes.go", nil, 0)
	require.NoError(t, err)
	codes := map[string]bool{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				require.True(t, ok, "a Code constant is a string literal")
				s, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				assert.False(t, codes[s], "code %q declared twice", s)
				codes[s] = true
			}
		}
	}
	require.NotEmpty(t, codes)
	return codes
}

// listedCodes reads the codes in the first column of the README's "Check codes" table.
func listedCodes(t *testing.T) map[string]bool {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	text := string(readme)
	i := strings.Index(text, "\n## Check codes")
	require.GreaterOrEqual(t, i, 0, "the README has a \"## Check codes\" section")
	section := text[i+1:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z]+(?:\\.[a-z0-9-]+)+)` \\|")
	codes := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		codes[m[1]] = true
	}
	return codes
}

func TestCodesListed(t *testing.T) {
	declared, listed := declaredCodes(t), listedCodes(t)
	var missing, extra []string
	for c := range declared {
		if !listed[c] {
			missing = append(missing, c)
		}
	}
	for c := range listed {
		if !declared[c] {
			extra = append(extra, c)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	assert.Empty(t, missing, "codes declared in codes.go but not listed in the README's Check codes table")
	assert.Empty(t, extra, "codes listed in the README but not declared in codes.go")
}

// TestNoCodeLiterals keeps every code in codes.go: a Code made from a string literal anywhere else
// in the Go sources would be a code the README does not list.
func TestNoCodeLiterals(t *testing.T) {
	conv := regexp.MustCompile(`\bCode\("`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		assert.False(t, conv.Match(src), "%s makes a diag.Code from a string literal; declare it in core/diag/codes.go", path)
		return nil
	})
	require.NoError(t, err)
}
