package dataset

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// csvCase is a case of testdata/csv/cases.json with what Python's csv module made of it
// (testdata/csv/expected.json, written by scripts/csv_goldens.py).
type csvCase struct {
	Name  string `json:"name"`
	Delim string `json:"delim"`
	Text  string `json:"text"`
	Sniff bool   `json:"sniff"`
}

type csvExpected struct {
	Name    string     `json:"name"`
	Records [][]string `json:"records"`
	Sniffed *string    `json:"sniffed"`
}

func loadCSVGoldens(t *testing.T) ([]csvCase, []csvExpected) {
	var cases []csvCase
	b, err := os.ReadFile(filepath.Join("testdata", "csv", "cases.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &cases))
	var expected struct {
		Cases []csvExpected `json:"cases"`
	}
	b, err = os.ReadFile(filepath.Join("testdata", "csv", "expected.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &expected))
	require.Len(t, expected.Cases, len(cases), "run: /usr/bin/python3 scripts/csv_goldens.py")
	return cases, expected.Cases
}

// TestCSVLikePython splits each case into records as Python's csv.reader does, field for
// field (a quoted field never closed included: the reader, not the scanner, resumes after it);
// and where csv.Sniffer is sure of a delimiter, picks the same.
func TestCSVLikePython(t *testing.T) {
	cases, expected := loadCSVGoldens(t)
	for i, tc := range cases {
		want := expected[i]
		require.Equal(t, tc.Name, want.Name, "run: /usr/bin/python3 scripts/csv_goldens.py")
		t.Run(tc.Name, func(t *testing.T) {
			s := newCSVScanner(tc.Text, tc.Delim[0])
			got := [][]string{}
			for {
				rec, ok := s.next()
				if !ok {
					break
				}
				got = append(got, rec.fields)
			}
			assert.Equal(t, want.Records, got)
			if tc.Sniff {
				require.NotNil(t, want.Sniffed, "csv.Sniffer is not sure of this case's delimiter")
			}
			if want.Sniffed != nil {
				require.Equal(t, tc.Delim, *want.Sniffed, "the case is written with another delimiter than csv.Sniffer picks")
				assert.Equal(t, *want.Sniffed, string(sniffDelimiter(tc.Text)), "the delimiter csv.Sniffer picks")
			}
		})
	}
}

// TestCSVGoldensCurrent fails when expected.json is not what Python's csv module says today.
func TestCSVGoldensCurrent(t *testing.T) {
	const python = "/usr/bin/python3"
	if runtime.GOOS == "js" {
		t.Skip("no processes under wasm")
	}
	if _, err := os.Stat(python); err != nil {
		t.Skip("no " + python)
	}
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "csv_goldens.py"), "--check").CombinedOutput()
	require.NoError(t, err, "%s", out)
}
