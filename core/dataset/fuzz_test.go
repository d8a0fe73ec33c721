package dataset

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// writeCorpus rewrites the committed seed corpora under testdata/fuzz from the seeds below:
// go test ./core/dataset -run TestWriteCorpus -write-corpus
var writeCorpus = flag.Bool("write-corpus", false, "rewrite testdata/fuzz from the seeds in fuzz_test.go")

// readSeeds are FuzzRead's seeds: text and format.
var readSeeds = [][2]string{
	{"{\"q\":1}\n{\"q\": 2,\n{\"q\":3}\n", ""},
	{"\uFEFF{\"q\":\"one\"}\r\n\r\n{\"q\":\"two\"}\r\n", "jsonl"},
	{"[\n {\"q\":1},\n 2,\n {\"q\": },\n {\"q\":4}\n]", ""},
	{"{\"version\":2,\"data\":[{\"q\":\"a\"},{\"q\":\"b\"}]}", "json"},
	{`{"results":{"prompts":[{"raw":"p"}],"results":[{"vars":{"question":"q"},"response":{"output":"o"}}]}}`, ""},
	{"{\"only\":[{\"q\":1}]}", "json"},
	{"{\"question\":\"q\",\"contexts\":[\"a\"]}", ""},
	{"[{\"q\":1}] x", "json"},
	{"\uFEFFquestion,answer\r\n\"q1\",\"line one\r\nline two\"\r\nq2,\"say \"\"hi\"\"\"\r\n", "csv"},
	{"a,b,c\n1,2\n1,2,3,4\n", ""},
	{"q,a\n1,a 5\" screen\n2,b\n", ""},
	{"q,a\n1,\"open\n2,b\n3,c\n", ""},
	{"q,a\n1,\"multi\nline \"bad\" x\"\n2,b\n", ""},
	{",q, q ,a \n0,1,2,3\n", ""},
	{"q\ta\n1\t2\n", ""},
	{"user_input,retrieved_contexts,response\nq,\"['a', \"\"b\"\"]\",r\n", ""},
	{"x", "xml"},
	{"", ""},
	{"q,a\nx,\xff\n", ""},
	{"q;a\r1;\"x\ry\"\r2;b \"c\"\r", ""},
	{"Query\tDocument\tAnswer\nq\t\"d \"\"x\"\"\"\ta\n", "tsv"},
	{"q,a,b\n1\n1,\"ab\"c,2\n", "csv"},
	{"input,retrieval_context\nq,a|b|c\n", ""},
}

// listCellSeeds are FuzzParseListCell's seeds.
var listCellSeeds = []string{
	`["a", "b"]`,
	`['a', "it's", 'x\'y\n', u'\u00e9\x41']`,
	"['a' 'b'\n 'c']",
	`[1, -2.5, None, True, False,]`,
	`['\101\xZZ\U0001F600']`,
	`[a, b]`,
	`['open]`,
	`[['nested']]`,
	`[1] x`,
	`[{'doc_id': '1', 'text': "it's"}, {'page_content': 'x', 'metadata': {'title': 'T', 'n': [1, 2.5]}}]`,
	`[{'a': 1 'b': 2}]`,
	`[{1: None, True: [[]]}]`,
}

// decodeSeeds are FuzzDecodeJSON's seeds.
var decodeSeeds = []string{
	`{"b":1,"a":[1,2.5,-3e2,true,false,null],"b":"again"}`,
	`{"s":"esc \n \" \u00e9 \ud83d\ude00 \/ \ud800","":{}}`,
	`[[],{},"",0,-0,1e400,9223372036854775808,0.5E+3]`,
	"  \"plain\"  ",
	`{"a" : [ {"b" : [ ] } ] }`,
	"[\"not UTF-8 \xff\"]",
	`[1,]`,
	`{"a":1}}`,
	`[01]`,
	`["bad \x escape"]`,
	"[\"raw\ttab\"]",
	`{"a" 1}`,
	`[1.]`,
	`[-]`,
	`[tru]`,
}

func TestWriteCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("run with -write-corpus to rewrite testdata/fuzz")
	}
	write := func(target string, i int, args ...string) {
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, a := range args {
			b.WriteString("string(" + strconv.Quote(a) + ")\n")
		}
		dir := filepath.Join("testdata", "fuzz", target)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%02d", i)), []byte(b.String()), 0o644))
	}
	for i, s := range readSeeds {
		write("FuzzRead", i, s[0], s[1])
	}
	for i, s := range listCellSeeds {
		write("FuzzParseListCell", i, s)
	}
	for i, s := range decodeSeeds {
		write("FuzzDecodeJSON", i, s)
	}
}

// FuzzDecodeJSON checks the fast decoder against encoding/json (which texts are JSON) and
// value.Decode (what they hold).
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := decodeJSON([]byte(s))
		if !json.Valid([]byte(s)) {
			require.Error(t, err)
			return
		}
		want, wantErr := value.Decode([]byte(s))
		if wantErr != nil {
			require.Error(t, err, "value.Decode: %v", wantErr)
			return
		}
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
}

func FuzzRead(f *testing.F) {
	for _, s := range readSeeds {
		f.Add(s[0], s[1])
	}
	inputs := [][]judge.Input{claimInputs, answerInputs, pairwiseInputs, recallInputs}
	f.Fuzz(func(t *testing.T, text, format string) {
		// The same text from a file named with format as its extension: read by its content.
		if named, err := ReadNamed(text, "data."+format); err == nil {
			require.Contains(t, []string{"jsonl", "json", "csv", "tsv"}, named.Format)
			if named.Named != "" {
				require.Equal(t, FormatOfName("data."+format), named.Named)
				require.NotEqual(t, named.Format, named.Named)
			}
		} else {
			var de *diag.Error
			require.True(t, errors.As(err, &de), "%T: %v", err, err)
		}
		tab, err := Read(text, format)
		if err != nil {
			var de *diag.Error
			require.True(t, errors.As(err, &de), "%T: %v", err, err)
			require.Equal(t, "dataset", de.Kind)
			return
		}
		require.Contains(t, []string{"jsonl", "json", "csv", "tsv"}, tab.Format)
		require.NotNil(t, tab.Columns)
		require.NotNil(t, tab.Rows)
		require.NotNil(t, tab.Errors)
		require.LessOrEqual(t, len(tab.Rows)+len(tab.Errors), MaxRows+2)
		lines := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + strings.Count(text, "\r") - strings.Count(text, "\r\n") + 1
		for _, re := range append(tab.Errors, tab.Warnings...) {
			require.GreaterOrEqual(t, re.Line, 1, re.Message)
			require.LessOrEqual(t, re.Line, lines, re.Message)
			require.NotEmpty(t, re.Message)
			require.NotEmpty(t, re.Code, re.Message)
		}
		for _, w := range tab.Warnings {
			require.GreaterOrEqual(t, w.Row, 1, w.Message)
			require.LessOrEqual(t, w.Row, len(tab.Rows), w.Message)
		}
		cols := map[string]bool{}
		for _, c := range tab.Columns {
			require.False(t, cols[c], "column %q twice", c)
			cols[c] = true
		}
		for _, row := range tab.Rows {
			for _, k := range row.Keys() {
				require.True(t, cols[k], "key %q not in columns", k)
			}
		}
		_, err = json.Marshal(tab)
		require.NoError(t, err)
		for _, in := range inputs {
			m := tab.DetectMapping(in)
			for i, row := range tab.Rows {
				if i == 10 {
					break
				}
				got, checks := RowInputs(row, m, in)
				require.NotNil(t, got)
				require.NotNil(t, checks)
				for _, c := range checks {
					require.NotEmpty(t, c.Code, c.Message)
				}
				_, err := json.Marshal(got)
				require.NoError(t, err)
			}
		}
	})
}

func FuzzParseListCell(f *testing.F) {
	for _, s := range listCellSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		list, note, ok := ParseListCell(s)
		if !ok {
			require.Nil(t, list)
			return
		}
		require.NotNil(t, list, note)
		_, err := json.Marshal(list)
		require.NoError(t, err)
	})
}
