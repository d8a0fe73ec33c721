package judge

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// renderUnchecked renders evaluator id's prompt as Render does but without refusing the inputs
// Render refuses before paying: the template's output on them is still held to the oracle.
func renderUnchecked(t testing.TB, r *Registry, id string, in *value.Object) string {
	t.Helper()
	e, err := r.Get(id)
	require.NoError(t, err)
	vars, _, err := e.vars(in)
	require.NoError(t, err)
	rendered, err := e.render(vars)
	require.NoError(t, err)
	return rendered.Prompt
}

// update regenerates testdata/render/*.golden with scripts/judge_goldens.py (real Jinja2 and
// str.format), before comparing.
var update = flag.Bool("update", false, "regenerate testdata/render/*.golden with scripts/judge_goldens.py")

// regenerateGoldens runs the generator; set where subprocesses can run (not under js/wasm).
var regenerateGoldens func(t *testing.T)

// TestRenderGoldens renders every case of testdata/render/cases.json and compares the prompt,
// byte for byte, with what Jinja2 or str.format rendered from the same inputs.
func TestRenderGoldens(t *testing.T) {
	if *update {
		require.NotNil(t, regenerateGoldens, "-update needs python3 with jinja2, outside wasm")
		regenerateGoldens(t)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "render", "cases.json"))
	require.NoError(t, err)
	v, err := value.Decode(src)
	require.NoError(t, err)
	cases := v.([]any)
	require.GreaterOrEqual(t, len(cases), 10)
	r := testRegistry(t)
	wantWarnings := map[string]int{"grounding-unknown-mode": 1, "pairwise-basic": 1, "pairwise-template-like": 1}
	// refused are the cases whose inputs render refuses before paying; their prompt is still
	// compared, rendered without that check, so the template's conformance stays covered.
	refused := map[string]diag.Code{"claim-no-evidence": diag.InputEmptyList, "pairwise-no-contexts": diag.InputEmptyList}
	for _, c := range cases {
		c := c.(*value.Object)
		name, _ := c.Get("name")
		ev, _ := c.Get("evaluator")
		inputs, _ := c.Get("inputs")
		t.Run(name.(string), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "render", name.(string)+".golden"))
			require.NoError(t, err, "run: python3 scripts/judge_goldens.py")
			if code, ok := refused[name.(string)]; ok {
				_, err := r.Render(ev.(string), inputs.(*value.Object))
				var de *diag.Error
				require.ErrorAs(t, err, &de)
				assert.Equal(t, code, de.Code)
				assert.Equal(t, string(want), renderUnchecked(t, r, ev.(string), inputs.(*value.Object)))
				return
			}
			got, err := r.Render(ev.(string), inputs.(*value.Object))
			require.NoError(t, err)
			assert.Equal(t, string(want), got.Prompt)
			assert.Equal(t, []Message{{Role: "user", Content: got.Prompt}}, got.Messages)
			assert.Len(t, got.Warnings, wantWarnings[name.(string)], "%q", got.Warnings)
			assert.Len(t, got.Checks, len(got.Warnings))
		})
	}
}
