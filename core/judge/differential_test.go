package judge

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/value"
)

// TestRenderDifferential renders the evaluators with the random inputs of
// testdata/differential/renders.jsonl (written by scripts/gen_differential.py) and compares each
// prompt, byte for byte, with what Jinja2 or str.format rendered from the same inputs under the
// conventions of scripts/judge_goldens.py. DIFFERENTIAL_RENDERS=path runs another file written
// by gen_differential.py --hunt.
func TestRenderDifferential(t *testing.T) {
	path := "testdata/differential/renders.jsonl"
	if p := os.Getenv("DIFFERENTIAL_RENDERS"); p != "" {
		path = p
	}
	f, err := os.Open(path)
	require.NoError(t, err, "run: /usr/bin/python3 scripts/gen_differential.py")
	defer f.Close()
	r := testRegistry(t)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		v, err := value.Decode(sc.Bytes())
		require.NoError(t, err)
		c := v.(*value.Object)
		name, _ := c.Get("name")
		if name == nil {
			continue // the first line names the oracle
		}
		n++
		ev, _ := c.Get("evaluator")
		inputs, _ := c.Get("inputs")
		want, _ := c.Get("prompt")
		// The template's output is compared whatever render's input checks say of the inputs
		// (random ones are often empty or unmarked): those are tested on their own.
		got := renderUnchecked(t, r, ev.(string), inputs.(*value.Object))
		assert.Equal(t, want, got, "%s: inputs %s", name, mustMarshal(inputs))
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 80)
}

func mustMarshal(v any) string {
	b, err := value.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
