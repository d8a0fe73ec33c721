package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/bridge"
	"ragjudge/prompts"
)

func TestDescribeWritesWhatTheBridgeLists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evaluators.json")
	require.NoError(t, write(path))
	data, err := os.ReadFile(path)
	require.NoError(t, err)

	// The file is the "ok" of the wire answer the wasm gives to evaluators(), byte for byte.
	wire := bridge.New(prompts.FS).Call("evaluators", nil)
	assert.Equal(t, wire, `{"ok":`+strings.TrimSuffix(string(data), "\n")+`}`)

	var list []struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Inputs []struct {
			Name string `json:"name"`
		} `json:"inputs"`
	}
	require.NoError(t, json.Unmarshal(data, &list))
	var ids []string
	for _, e := range list {
		ids = append(ids, e.ID)
		assert.NotEmpty(t, e.Title, e.ID)
		assert.NotEmpty(t, e.Inputs, e.ID)
	}
	assert.Equal(t, []string{"claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall"}, ids)

	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

func TestDescribeFailsWhereItCannotWrite(t *testing.T) {
	assert.Error(t, write(filepath.Join(t.TempDir(), "missing", "evaluators.json")))
}
