package inline

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/prompts"
)

// TestSameAsEmbedded fails when prompts.go is stale: it must hold exactly the files package
// prompts embeds, byte for byte, in name order (run go generate ./prompts/inline, or make build).
func TestSameAsEmbedded(t *testing.T) {
	entries, err := fs.ReadDir(prompts.FS, ".")
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		want, err := fs.ReadFile(prompts.FS, e.Name())
		require.NoError(t, err)
		got, err := Prompts.ReadFile(e.Name())
		require.NoError(t, err, "prompts.go lacks %s: run go generate ./prompts/inline", e.Name())
		assert.Equal(t, string(want), string(got), "%s differs from prompts/%[1]s: run go generate ./prompts/inline", e.Name())
	}
	require.NotEmpty(t, names)
	var inlined []string
	for _, f := range Prompts {
		inlined = append(inlined, f.Name)
	}
	assert.Equal(t, names, inlined, "prompts.go holds other files than prompts/*.md: run go generate ./prompts/inline")
}

// TestMissingFile: a file not held fails as prompts.FS does, with the same message.
func TestMissingFile(t *testing.T) {
	_, want := prompts.FS.ReadFile("no-such-evaluator.md")
	require.Error(t, want)
	got, err := Prompts.ReadFile("no-such-evaluator.md")
	assert.Nil(t, got)
	require.Error(t, err)
	assert.Equal(t, want.Error(), err.Error())
}
