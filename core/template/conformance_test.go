package template

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

// conformanceCase is one line of testdata/conformance/cases.jsonl.
type conformanceCase struct {
	Name         string          `json:"name"`
	Dialect      Dialect         `json:"dialect"`
	Template     string          `json:"template"`
	TemplateFile string          `json:"template_file"`
	Vars         json.RawMessage `json:"vars"`
	Unsupported  bool            `json:"unsupported"`
}

// conformanceGolden is one line of testdata/conformance/expected.jsonl, written by
// scripts/gen_conformance.py from real Jinja2 and str.format.
type conformanceGolden struct {
	Name        string  `json:"name"`
	Output      *string `json:"output"`
	Error       string  `json:"error"`
	Message     string  `json:"message"`
	Line        *int    `json:"line"`
	Unsupported bool    `json:"unsupported"`
	PythonOK    bool    `json:"python_ok"`
}

func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "%s: %s", path, sc.Text())
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestConformance(t *testing.T) {
	cases := readJSONLines[conformanceCase](t, "testdata/conformance/cases.jsonl")
	goldens := readJSONLines[conformanceGolden](t, "testdata/conformance/expected.jsonl")
	require.NotEmpty(t, goldens)
	require.Empty(t, goldens[0].Name, "expected.jsonl starts with the oracle's versions")
	goldens = goldens[1:]
	require.Len(t, goldens, len(cases), "expected.jsonl is stale: run python3 scripts/gen_conformance.py")
	require.GreaterOrEqual(t, len(cases), 80)
	errorCases := 0
	for i, c := range cases {
		g := goldens[i]
		require.Equal(t, c.Name, g.Name, "expected.jsonl is stale: run python3 scripts/gen_conformance.py")
		if g.Error != "" {
			errorCases++
		}
		t.Run(c.Name, func(t *testing.T) {
			src := c.Template
			if c.TemplateFile != "" {
				b, err := fs.ReadFile(prompts.FS, strings.TrimPrefix(c.TemplateFile, "prompts/"))
				require.NoError(t, err)
				src = string(b)
			}
			v, err := value.Decode(c.Vars)
			require.NoError(t, err)
			vars, _ := v.(*value.Object)
			out, spans, err := RenderSpans(c.Name, src, c.Dialect, vars)
			switch {
			case g.Unsupported:
				require.True(t, g.PythonOK, "an unsupported case must be valid Python")
				require.Error(t, err)
				assert.Contains(t, err.Error(), "not supported")
			case g.Output != nil:
				require.NoError(t, err)
				assert.Equal(t, *g.Output, out)
				for _, s := range spans {
					require.True(t, 0 <= s.Start && s.Start <= s.End && s.End <= len(out), "span %+v", s)
				}
			default:
				require.Error(t, err, "Python raised %s: %s", g.Error, g.Message)
				var de *diag.Error
				require.True(t, errors.As(err, &de))
				assert.Equal(t, "template", de.Kind)
				assert.Equal(t, c.Name, de.Name)
				assert.Positive(t, de.Line, "error without a line: %v", err)
				assert.Positive(t, de.Col, "error without a column: %v", err)
				if g.Line != nil {
					assert.Equal(t, *g.Line, de.Line, "Jinja2 says line %d (%s: %s); we say %v", *g.Line, g.Error, g.Message, err)
				}
			}
		})
	}
	assert.GreaterOrEqual(t, errorCases, 15)
}
