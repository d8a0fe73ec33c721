package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
)

// wantErr is a row error expected at line, its message containing each of parts.
type wantErr struct {
	line  int
	parts []string
}

func e(line int, parts ...string) wantErr { return wantErr{line, parts} }

type readCase struct {
	name    string
	text    string
	format  string
	wantFmt string
	columns []string
	rows    string // the rows as JSON
	errs    []wantErr
	warns   []wantErr // warnings, when given
}

func runReadCases(t *testing.T, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read(tc.text, tc.format)
			require.NoError(t, err)
			if tc.wantFmt != "" {
				assert.Equal(t, tc.wantFmt, tab.Format)
			}
			assert.Equal(t, tc.columns, tab.Columns)
			rows, err := json.Marshal(tab.Rows)
			require.NoError(t, err)
			assert.JSONEq(t, tc.rows, string(rows))
			require.Len(t, tab.Errors, len(tc.errs), "errors: %+v", tab.Errors)
			for i, want := range tc.errs {
				assert.Equal(t, want.line, tab.Errors[i].Line, "error %d: %s", i, tab.Errors[i].Message)
				assert.NotEmpty(t, tab.Errors[i].Code)
				for _, p := range want.parts {
					assert.Contains(t, tab.Errors[i].Message+" "+string(tab.Errors[i].Code), p)
				}
			}
			require.Len(t, tab.Warnings, len(tc.warns), "warnings: %+v", tab.Warnings)
			for i, want := range tc.warns {
				assert.Equal(t, want.line, tab.Warnings[i].Line, "warning %d: %s", i, tab.Warnings[i].Message)
				assert.NotEmpty(t, tab.Warnings[i].Code)
				assert.GreaterOrEqual(t, tab.Warnings[i].Row, 1)
				for _, p := range want.parts {
					assert.Contains(t, tab.Warnings[i].Message+" "+string(tab.Warnings[i].Code), p)
				}
			}
		})
	}
}

func TestReadJSONL(t *testing.T) {
	runReadCases(t, []readCase{
		{
			name:    "a bad line in the middle",
			text:    "{\"q\":\"one\"}\n{\"q\": \"two\",\n{\"q\":\"three\",\"a\":[1,2]}\n",
			wantFmt: "jsonl",
			columns: []string{"q", "a"},
			rows:    `[{"q":"one"},{"q":"three","a":[1,2]}]`,
			errs:    []wantErr{e(2, "invalid JSON", "the line ends before its JSON value does")},
		},
		{
			name:    "CRLF, blank lines and a byte order mark",
			text:    "\uFEFF{\"q\":\"one\"}\r\n\r\n   \r\n{\"q\":\"two\"}\r\n",
			wantFmt: "jsonl",
			columns: []string{"q"},
			rows:    `[{"q":"one"},{"q":"two"}]`,
		},
		{
			name:    "lines that are not objects",
			text:    "{\"q\":1}\n[1,2]\n\"text\"\nnull\n{\"q\":2}",
			format:  "jsonl",
			columns: []string{"q"},
			rows:    `[{"q":1},{"q":2}]`,
			errs:    []wantErr{e(2, "a list, not a JSON object"), e(3, "a string"), e(4, "null")},
		},
		{
			name:    "garbage after an object names its column",
			text:    "{\"q\":1} x\n{\"q\":2}",
			format:  "jsonl",
			columns: []string{"q"},
			rows:    `[{"q":2}]`,
			errs:    []wantErr{e(1, "col 9", "invalid character 'x'")},
		},
		{
			name:    "columns are the union of keys in first-seen order",
			text:    "{\"b\":1,\"a\":2}\n{\"c\":3,\"a\":4}\n",
			columns: []string{"b", "a", "c"},
			rows:    `[{"b":1,"a":2},{"c":3,"a":4}]`,
		},
		{
			name:    "ndjson is jsonl",
			text:    "{\"q\":1}",
			format:  "NDJSON",
			wantFmt: "jsonl",
			columns: []string{"q"},
			rows:    `[{"q":1}]`,
		},
		{
			name:    "a broken first line is still detected as jsonl",
			text:    "{\"q\" 1\n{\"q\":2}\n{\"q\":3}\n",
			wantFmt: "jsonl",
			columns: []string{"q"},
			rows:    `[{"q":2},{"q":3}]`,
			errs:    []wantErr{e(1, "invalid JSON")},
		},
	})
}

func TestReadJSON(t *testing.T) {
	runReadCases(t, []readCase{
		{
			name:    "an array of objects",
			text:    "[\n  {\"question\": \"q1\", \"contexts\": [\"a\", \"b\"]},\n  {\"question\": \"q2\", \"score\": 0.5}\n]\n",
			wantFmt: "json",
			columns: []string{"question", "contexts", "score"},
			rows:    `[{"question":"q1","contexts":["a","b"]},{"question":"q2","score":0.5}]`,
		},
		{
			name:    "elements that are not objects are row errors",
			text:    "[\n{\"q\":1},\n2,\n\"x\",\n{\"q\":3}\n]",
			columns: []string{"q"},
			rows:    `[{"q":1},{"q":3}]`,
			errs:    []wantErr{e(3, "row 2 is a number"), e(4, "row 3 is a string")},
		},
		{
			name:    "a syntax error stops reading and says so",
			text:    "[\n {\"q\":1},\n {\"q\":2},\n {\"q\": },\n {\"q\":4}\n]",
			columns: []string{"q"},
			rows:    `[{"q":1},{"q":2}]`,
			errs:    []wantErr{e(4, "row 3", "line 4, col 8", "rows after this point are not loaded")},
		},
		{
			name:    "a missing comma",
			text:    "[\n {\"q\":1}\n {\"q\":2}\n]",
			columns: []string{"q"},
			rows:    `[{"q":1}]`,
			errs:    []wantErr{e(3, "line 3, col 2", "after array element")},
		},
		{
			name:    "cut short",
			text:    "[{\"q\":1},\n{\"q\":2",
			columns: []string{"q"},
			rows:    `[{"q":1}]`,
			errs:    []wantErr{e(2, "ends early")},
		},
		{
			name:    "garbage after the array",
			text:    "[{\"q\":1}]\n]",
			columns: []string{"q"},
			rows:    `[{"q":1}]`,
			errs:    []wantErr{e(2, "after the rows", "line 2, col 1")},
		},
		{
			name:    "rows under data, after other keys",
			text:    "{\"version\": 2, \"meta\": {\"rows\": 3, \"x\": [1]},\n \"data\": [\n  {\"q\": \"a\"},\n  {\"q\": \"b\"}\n ]}",
			wantFmt: "json",
			columns: []string{"q"},
			rows:    `[{"q":"a"},{"q":"b"}]`,
		},
		{
			name:    "rows under Rows, any case",
			text:    "{\"Rows\": [{\"q\": 1}]}",
			columns: []string{"q"},
			rows:    `[{"q":1}]`,
		},
		{
			name:    "promptfoo's output file: results.results",
			text:    `{"evalId":"e1","results":{"version":3,"prompts":[{"raw":"p"}],"results":[{"vars":{"question":"q"},"response":{"output":"o"}}]},"config":{}}`,
			columns: []string{"vars", "response"},
			rows:    `[{"vars":{"question":"q"},"response":{"output":"o"}}]`,
		},
		{
			name:    "a single key holding a list of objects",
			text:    "{\"my_eval\": [\n{\"q\": 1},\n{\"q\": 2}]}",
			columns: []string{"q"},
			rows:    `[{"q":1},{"q":2}]`,
		},
		{
			name:    "any other object is one row",
			text:    `{"question": "q", "claims": [{"id": "c1", "text": "t"}], "evidence": ["e"]}`,
			format:  "json",
			columns: []string{"question", "claims", "evidence"},
			rows:    `[{"question":"q","claims":[{"id":"c1","text":"t"}],"evidence":["e"]}]`,
		},
		{
			name:    "an empty list of rows",
			text:    `{"data": []}`,
			columns: []string{},
			rows:    `[]`,
		},
		{
			name:    "a row nested too deeply",
			text:    "[{\"a\":1},\n{\"deep\":" + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "},\n{\"a\":2}]",
			columns: []string{"a"},
			rows:    `[{"a":1},{"a":2}]`,
			errs:    []wantErr{e(2, "row 2", "nested deeper than 1000")},
		},
		{
			name:    "a JSONL line nested too deeply",
			text:    "{\"a\":1}\n{\"deep\":" + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "}",
			format:  "jsonl",
			columns: []string{"a"},
			rows:    `[{"a":1}]`,
			errs:    []wantErr{e(2, "nested deeper than 1000")},
		},
		{
			name:    "a syntax error inside the wrapped rows",
			text:    "{\"data\": [{\"q\":1},\n{\"q\":}]}",
			columns: []string{"q"},
			rows:    `[{"q":1}]`,
			errs:    []wantErr{e(2, "line 2, col 6")},
		},
	})
}

func TestReadCSV(t *testing.T) {
	runReadCases(t, []readCase{
		{
			name:    "quoted newlines, CRLF and a byte order mark",
			text:    "\uFEFFquestion,answer\r\n\"q1\",\"line one\r\nline two\"\r\nq2,\"say \"\"hi\"\"\"\r\n",
			wantFmt: "csv",
			columns: []string{"question", "answer"},
			rows:    `[{"question":"q1","answer":"line one\r\nline two"},{"question":"q2","answer":"say \"hi\""}]`,
		},
		{
			name:    "old Mac line ends",
			text:    "q,a\r1,\"x\ry\"\r2,b\r",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"x\ry"},{"q":"2","a":"b"}]`,
		},
		{
			name:    "wrong field counts name expected and got",
			text:    "a,b,c\n1,2,3\n1,2\n1,2,3,4\n7,8,9\n",
			columns: []string{"a", "b", "c"},
			rows:    `[{"a":"1","b":"2","c":"3"},{"a":"1","b":"2"},{"a":"7","b":"8","c":"9"}]`,
			errs:    []wantErr{e(4, "expected 3 fields", "got 4", "dataset.bad-row")},
			warns:   []wantErr{e(3, "expected 3 fields", "got 2", `"c"`, "dataset.missing-fields")},
		},
		{
			name:    "a quote inside an unquoted field is text, as Python reads it",
			text:    "q,a\n1,a 5\" screen\n2,b\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"a 5\" screen"},{"q":"2","a":"b"}]`,
			warns:   []wantErr{e(2, `a " inside an unquoted field`, "line 2, col 6", "dataset.quote-in-field")},
		},
		{
			name:    "quotes kept as text: one warning a row, at the first",
			text:    "q,a\n1,He said \"no\" and \"yes\"\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"He said \"no\" and \"yes\""}]`,
			warns:   []wantErr{e(2, "line 2, col 11", "4 such quotes in this row")},
		},
		{
			name:    "a stray quote after a quoted field",
			text:    "q,a\n1,\"ab\"c\n2,b\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"abc"},{"q":"2","a":"b"}]`,
			warns:   []wantErr{e(2, "text after a closing quote", "line 2, col 6", "dataset.quote-in-field")},
		},
		{
			name:    "an unclosed quote does not swallow the rest",
			text:    "q,a\n1,\"open\n2,b\n3,c\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"2","a":"b"},{"q":"3","a":"c"}]`,
			errs:    []wantErr{e(2, "quoted field on line 2 is never closed", "resumed at line 3", "dataset.unclosed-quote")},
		},
		{
			name:    "line numbers count the lines inside quoted fields",
			text:    "q,a\n\"multi\nline\",x\nbad,x,y\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"multi\nline","a":"x"}]`,
			errs:    []wantErr{e(4, "expected 2 fields")},
		},
		{
			name:    "blank and space-only lines are skipped",
			text:    "q,a\n\n1,2\n   \n\r\n3,4",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"2"},{"q":"3","a":"4"}]`,
		},
		{
			name:    "header names: trimmed, empty and repeated",
			text:    ",q, q ,a \n0,1,2,3\n",
			columns: []string{"column_1", "q", "q_2", "a"},
			rows:    `[{"column_1":"0","q":"1","q_2":"2","a":"3"}]`,
		},
		{
			name:    "a header only",
			text:    "question,answer\n",
			columns: []string{"question", "answer"},
			rows:    `[]`,
		},
		{
			name:    "tab-separated",
			text:    "q\ta\n1\t2,3\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"2,3"}]`,
		},
		{
			name:    "semicolon-separated",
			text:    "q;a\n1;2,5\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"1","a":"2,5"}]`,
		},
		{
			name:    "a JSON list in a cell stays text until mapped",
			text:    "question,contexts\nq,\"[\"\"a\"\", \"\"b\"\"]\"\n",
			columns: []string{"question", "contexts"},
			rows:    `[{"question":"q","contexts":"[\"a\", \"b\"]"}]`,
		},
		{
			name:    "non-ASCII columns are counted in characters",
			text:    "q,a\nété,x\"y\n",
			columns: []string{"q", "a"},
			rows:    `[{"q":"été","a":"x\"y"}]`,
			warns:   []wantErr{e(2, "line 2, col 6")},
		},
	})
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", ""},
		{" \r\n\t", ""},
		{"[{\"a\":1}]", "json"},
		{"\uFEFF  [", "json"},
		{"{\"a\":1}\n{\"a\":2}", "jsonl"},
		{"{\"a\":1}", "json"},
		{"{\"a\":1}\n\n", "json"},
		{"{\n  \"data\": []\n}", "json"},
		{"{\"a\":\n{\"a\":2}", "json"},
		{"{\"a\" 1\n{\"a\":2}", "jsonl"},
		{"{\"data\": [\n{\"q\":1}\n]}", "json"},
		{"{\"data\": [\n{\"q\":1}\n", "json"},
		{"{\"q\": 1, \"a\": 2\n}", "json"},
		{"question,answer\nq,a", "csv"},
		{"\uFEFFquestion", "csv"},
		{"\"quoted header\",b", "csv"},
	} {
		assert.Equal(t, tc.want, Detect(tc.text), "%q", tc.text)
	}
}

// TestReadNamed: the format comes from the content, the file's name only a hint; Named says
// what the name said when it was not what the file holds.
func TestReadNamed(t *testing.T) {
	// HaluEval's general_data.json is JSON Lines (its first record, shortened).
	haluEval := `{"ID": "1", "user_query": "Produce a list of common words in the English language.", "chatgpt_response": "the, a, and, to, in", "hallucination": "no", "hallucination_spans": []}
{"ID": "2", "user_query": "Name three primary colors.", "chatgpt_response": "Red, green and blue.", "hallucination": "yes", "hallucination_spans": ["green"]}
`
	for _, tc := range []struct {
		name, file, text string
		format, named    string
		rows             int
	}{
		{"JSON Lines named .json (HaluEval)", "general_data.json", haluEval, "jsonl", "json", 2},
		{"a JSON array named .jsonl", "rows.jsonl", `[{"q": "a"}, {"q": "b"}, {"q": "c"}]`, "json", "jsonl", 3},
		{"JSON Lines named .JSONL", "ROWS.JSONL", "{\"q\": 1}\n{\"q\": 2}\n", "jsonl", "", 2},
		{"one JSON object on one line named .jsonl is JSON Lines", "one.jsonl", `{"q": "a", "a": "b"}` + "\n", "jsonl", "", 1},
		{"one JSON object on one line named .json", "one.json", `{"q": "a", "a": "b"}`, "json", "", 1},
		{"TSV named .txt", "export.txt", "question\tanswer\nWho?\tAda, in 1843.\n", "tsv", "", 1},
		{"CSV named .txt", "export.txt", "question,answer\nWho?,Ada\n", "csv", "", 1},
		{"CSV named .tsv", "mislabelled.tsv", "question,answer\nWho?,Ada\n", "csv", "tsv", 1},
		{"TSV named .csv", "mislabelled.csv", "question\tanswer\nWho?\tAda\n", "tsv", "csv", 1},
		{"a tie between tab and comma follows .tsv", "tie.tsv", "q,x\ta\n1,2\t3\n", "tsv", "", 1},
		{"the same tie follows .csv", "tie.csv", "q,x\ta\n1,2\t3\n", "csv", "", 1},
		{"JSON named .csv", "data.csv", `[{"q": "a"}]`, "json", "csv", 1},
		{"a CSV whose header starts with [ named .csv", "odd.csv", "[id],question\n1,Who?\n", "csv", "", 1},
		{"no extension", "README", "q;a\nx;y\n", "csv", "", 1},
		{"NDJSON", "x.ndjson", "{\"q\": 1}\n{\"q\": 2}\n", "jsonl", "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadNamed(tc.text, tc.file)
			require.NoError(t, err)
			assert.Equal(t, tc.format, tab.Format)
			assert.Equal(t, tc.named, tab.Named)
			assert.Len(t, tab.Rows, tc.rows)
			assert.Empty(t, tab.Errors)
		})
	}
	_, err := ReadNamed("  \n", "empty.csv")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "empty")
	// A .jsonl that is broken JSON stays a JSON error: the name does not make it CSV.
	tab, err := ReadNamed("{\"q\": 1}\n{\"q\": \n", "broken.jsonl")
	require.NoError(t, err)
	assert.Equal(t, "jsonl", tab.Format)
	assert.Len(t, tab.Errors, 1)
	assert.Equal(t, []string{"csv", "tsv", "tsv", "json", "jsonl", "jsonl", "", "", ""},
		[]string{FormatOfName("a.CSV"), FormatOfName("a.tsv"), FormatOfName("a.tab"), FormatOfName("a.json"), FormatOfName("a.jsonl"),
			FormatOfName("a.ndjson"), FormatOfName("a.txt"), FormatOfName("README"), FormatOfName("a.json.gz")})
}

func TestReadFails(t *testing.T) {
	for _, tc := range []struct {
		name, text, format string
		line, col          int
		msg                string
	}{
		{"unknown format", "a,b", "xml", 0, 0, `unknown format "xml"`},
		{"empty", "  \n ", "", 0, 0, "empty"},
		{"empty json", "  ", "json", 0, 0, "empty"},
		{"empty csv", "", "csv", 0, 0, "empty"},
		{"not JSON", "\n  hello", "json", 2, 3, "not JSON"},
		{"a broken object", "{\"data\" 1}", "json", 1, 9, "invalid JSON"},
		{"a cut-short object", "{\"a\": 1,\n", "json", 2, 1, "ends early"},
		{"not UTF-8", "q,a\nx,\xff\n", "", 2, 3, "not UTF-8"},
		{"a broken CSV header", "q,\"a\n1,2", "csv", 1, 0, "header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.text, tc.format)
			require.Error(t, err)
			var de *diag.Error
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, "dataset", de.Kind)
			assert.Equal(t, tc.line, de.Line, err.Error())
			assert.Equal(t, tc.col, de.Col, err.Error())
			assert.Contains(t, de.Msg, tc.msg)
		})
	}
}

// TestReadColumns: a header of 10,000 columns loads (10,000 copies of one name too: renaming
// each tried every suffix before its own, 36 s in the wasm); past MaxColumns a CSV header is
// refused and a JSON row that would pass it stops reading, each saying so.
func TestReadColumns(t *testing.T) {
	header := strings.TrimSuffix(strings.Repeat("question,", 10000), ",")
	tab, err := Read(header+"\n"+strings.Repeat("x,", 9999)+"y\n", "csv")
	require.NoError(t, err)
	require.Len(t, tab.Columns, 10000)
	assert.Equal(t, []string{"question", "question_2", "question_3"}, tab.Columns[:3])
	assert.Equal(t, "question_10000", tab.Columns[9999])
	last, _ := tab.Rows[0].Get("question_10000")
	assert.Equal(t, "y", last)
	// Counted in allocations, not time: each repeated name costs one try, not one per copy
	// before it (2,000 copies made about 2 million names).
	same := strings.Split(strings.Repeat("q,", 1999)+"q", ",")
	allocs := testing.AllocsPerRun(2, func() { headerNames(same) })
	assert.Less(t, allocs, 10.0*float64(len(same)))
	// A name that is already a suffix of another is skipped, not repeated.
	assert.Equal(t, []string{"a", "a_2", "a_2_2", "a_3", "column_5"}, headerNames([]string{"a", "a_2", "a_2", "a", " "}))

	_, err = Read(strings.Repeat(",", MaxColumns), "csv")
	var de *diag.Error
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Equal(t, diag.DatasetTooManyColumns, de.Code)
	assert.Equal(t, 1, de.Line)
	assert.Contains(t, de.Msg, "the header has 16,385 columns, more than the 16,384 this reads")

	wide := map[string]int{}
	for k := 0; k < MaxColumns-1; k++ {
		wide[fmt.Sprint("k", k)] = k
	}
	row, err := json.Marshal(wide)
	require.NoError(t, err)
	tab, err = Read(string(row)+"\n{\"k0\": 1, \"new1\": 2, \"new2\": 3}\n{\"k1\": 4}\n", "jsonl")
	require.NoError(t, err)
	assert.Len(t, tab.Rows, 1)
	require.Len(t, tab.Errors, 1)
	assert.Equal(t, diag.DatasetTooManyColumns, tab.Errors[0].Code)
	assert.Equal(t, 2, tab.Errors[0].Line)
	assert.Contains(t, tab.Errors[0].Message, "this row would bring the columns to 16,385, more than the 16,384 this reads")
}

func TestReadCaps(t *testing.T) {
	require.Equal(t, MaxRows, rowLimit)
	defer func(n int) { rowLimit = n }(rowLimit)
	rowLimit = 50
	t.Run("too many rows", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < rowLimit+3; i++ {
			fmt.Fprintf(&b, "{\"i\":%d}\n", i)
		}
		tab, err := Read(b.String(), "")
		require.NoError(t, err)
		assert.Len(t, tab.Rows, rowLimit)
		require.Len(t, tab.Errors, 1)
		assert.Equal(t, rowLimit+1, tab.Errors[0].Line)
		assert.Contains(t, tab.Errors[0].Message, "more than 50 rows: this row and the rest are not loaded")
	})
	t.Run("too many rows in a JSON array", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("[\n")
		for i := 0; i < rowLimit+3; i++ {
			fmt.Fprintf(&b, "{\"i\":%d},\n", i)
		}
		b.WriteString("{}]")
		tab, err := Read(b.String(), "")
		require.NoError(t, err)
		assert.Len(t, tab.Rows, rowLimit)
		require.Len(t, tab.Errors, 1)
		assert.Equal(t, rowLimit+2, tab.Errors[0].Line)
	})
	t.Run("too many rows in CSV count errors too", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("a,b\n")
		for i := 0; i < rowLimit+3; i++ {
			if i == 5 {
				b.WriteString("bad,x,y\n")
				continue
			}
			fmt.Fprintf(&b, "%d,x\n", i)
		}
		tab, err := Read(b.String(), "csv")
		require.NoError(t, err)
		assert.Len(t, tab.Rows, rowLimit-1)
		require.Len(t, tab.Errors, 2)
		assert.Equal(t, 7, tab.Errors[0].Line)
		assert.Equal(t, rowLimit+2, tab.Errors[1].Line)
	})
	t.Run("too large", func(t *testing.T) {
		_, err := Read(strings.Repeat("a", MaxBytes+1), "csv")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "the limit is 64.0 MiB")
	})
}
