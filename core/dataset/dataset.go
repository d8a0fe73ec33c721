// Package dataset reads evaluation datasets (JSONL, JSON, CSV, TSV) into rows and maps their
// columns onto an evaluator's inputs.
//
// Reading never drops a row silently: a row that cannot be read is a RowError with the 1-based
// line where it starts and a code (diag.DatasetBadRow, ...), and the rows around it still load;
// a row loaded with a doubt (a quote kept as text) is a warning with its line. The formats:
//
//   - "jsonl": one JSON object per line; blank lines are skipped; a line that is not a JSON object
//     is an error for that line only.
//   - "json": an array of objects; or an object that holds such an array under the first key (in
//     the text's order) named data, rows, records, examples, samples, items, results, test_cases,
//     testcases, tests, goldens, dataset, entries or input_data (RAGChecker's; any case), also one level down under such a
//     key holding an object (promptfoo's output file is {"results": {"results": [...]}}); or an
//     object with a single key whose value is a list of objects; any other object is one row.
//     Array elements that are not objects are errors. JSON cannot be resynchronised after a
//     syntax error, so the rows before it load and the error says that reading stopped there.
//   - "csv": read as Python's csv module reads it (the default dialect, not strict; see
//     csvScanner): records end at \n, \r or \r\n; a " inside an unquoted field, or text after a
//     closing quote, is kept as text with a warning on its row. The first record is the header
//     (names trimmed; an empty name becomes column_N, a repeated one name_2, name_3, ...). The
//     delimiter is comma, tab or semicolon, sniffed (see sniffDelimiter). Cells are strings. A
//     record with more fields than the header is an error naming both counts; one with fewer
//     loads without the missing cells, with a warning. Where Python would read a quoted field
//     that is never closed on to the end of the text, that row is an error and reading resumes
//     at the line after its first.
//   - "tsv": "csv" with tabs.
//   - "" detects (ReadNamed too, a file's extension only a hint): the first non-space character
//     (after a UTF-8 byte order mark, which is always skipped) '[' is json; '{' is jsonl when
//     there is more than one non-blank line and the first is a JSON value on its own (or, the
//     first being broken without opening a document as in `{"data": [`, the second is), else
//     json; anything else is csv, or tsv when the sniffed delimiter is a tab.
//
// Columns are the union of the rows' keys in first-seen order (for CSV, the header). A text over MaxBytes is refused; rows past MaxRows are not loaded and
// one error says where reading stopped; so are rows past MaxColumns columns (a CSV header with
// more is refused).
//
// Mapping: DetectMapping (or Table.DetectMapping, which also looks inside object columns
// through Table.Paths) guesses which column feeds each input of an evaluator from the usual
// names RAG tools write (the alias table in mapping.go) and says which name it took; RowInputs then builds one row's inputs,
// converting cells to each input's kind and saying in messages what it could not.
package dataset

import (
	"strings"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// MaxBytes is the largest text Read accepts. A browser tab holds the text, its rows and the
// verdicts at once; beyond this a dataset should be split.
const MaxBytes = 64 << 20

// MaxRows is how many records (rows and row errors together) Read reads.
const MaxRows = 100_000

// rowLimit is MaxRows, lowered by tests.
var rowLimit = MaxRows

// MaxColumns is how many columns a dataset may have: as many as a spreadsheet holds (16,384).
// A text with more is not a table of rows (a megabyte of commas made a million columns, which
// took the page most of a minute to map).
const MaxColumns = 16_384

// RowError is a row that could not be read (the other rows still load), or, among a Table's
// Warnings, a row that loaded with a doubt.
type RowError struct {
	Line    int       `json:"line"`          // 1-based line in the text where the row starts
	Col     int       `json:"col,omitempty"` // 1-based column (code points) of the problem, when one applies
	Row     int       `json:"row,omitempty"` // for a warning: the 1-based row in Rows it is about
	Code    diag.Code `json:"code"`
	Message string    `json:"message"`
	_       [0]func() // not comparable: no equality function in the wasm
}

// Table is a read dataset.
type Table struct {
	Format    string          `json:"format"`              // "jsonl", "json", "csv" or "tsv": the one given or detected
	Named     string          `json:"named,omitempty"`     // ReadNamed: the format the file's name says, when it is not the one read
	Delimiter string          `json:"delimiter,omitempty"` // for csv and tsv: ",", ";" or "\t"
	Columns   []string        `json:"columns"`
	Rows      []*value.Object `json:"rows"`
	Errors    []RowError      `json:"errors"`
	Warnings  []RowError      `json:"warnings"`
}

// Formats are the format names Read takes (besides "" to detect), in the order to list them.
var Formats = []string{"csv", "tsv", "json", "jsonl"}

// Read reads text in format ("jsonl", "json", "csv", "tsv", or "" to detect; "ndjson" is
// jsonl). It fails only for an
// unknown format name or a text that is not any format at all; bad rows go into Table.Errors.
// Errors are *diag.Error with Kind "dataset".
func Read(text, format string) (*Table, error) {
	if len(text) > MaxBytes {
		return nil, &diag.Error{Kind: "dataset", Code: diag.DatasetTooLarge, Msg: diag.Sprintf("the text is %s; the limit is %s: split the dataset", mib(len(text)), mib(MaxBytes))}
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	f := strings.ToLower(strings.TrimSpace(format))
	switch f {
	case "":
		f = Detect(text)
		if f == "" {
			return nil, &diag.Error{Kind: "dataset", Code: diag.DatasetEmpty, Msg: "the text is empty: no rows to read"}
		}
	case "jsonl", "ndjson":
		f = "jsonl"
	case "json", "csv", "tsv":
	default:
		return nil, &diag.Error{Kind: "dataset", Code: diag.DatasetUnknownFormat, Msg: diag.Sprintf("unknown format %q: want \"csv\", \"tsv\", \"json\", \"jsonl\" or none to detect", format)}
	}
	if !utf8.ValidString(text) {
		off := firstInvalidUTF8(text)
		line, col := diag.Position(text, off)
		return nil, &diag.Error{Kind: "dataset", Line: line, Col: col, Code: diag.DatasetNotUTF8, Msg: "the text is not UTF-8 (save the file as UTF-8)"}
	}
	b := newBuilder(f)
	var err error
	switch f {
	case "jsonl":
		readJSONL(text, b)
	case "json":
		err = readJSON(text, b)
	case "csv", "tsv":
		delim := byte('\t')
		if f == "csv" {
			delim = sniffDelimiter(text)
		}
		b.t.Delimiter = string(delim)
		err = readCSV(text, delim, b)
	}
	if err != nil {
		return nil, err
	}
	return b.t, nil
}

// ReadNamed reads text from a file called name: the format is detected from the content, as
// Read detects it, and the name's extension (.csv, .tsv, .tab, .json, .jsonl, .ndjson, any case)
// is only a hint. JSON Lines named .json (HaluEval ships its files so), a JSON array named .jsonl,
// CSV or TSV named .txt are read as what they hold. The hint decides only what the content
// leaves open: a single JSON object on one line named .jsonl is JSON Lines (both read alike); a
// header that splits as well at tabs as at commas follows .tsv; a text that starts like JSON but
// has no readable JSON is read as CSV or TSV when the name says so. Table.Named is the format the
// name says when it is not the one read, so that a page can say so.
func ReadNamed(text, name string) (*Table, error) {
	hint := FormatOfName(name)
	f := Detect(text)
	switch {
	case f == "json" && hint == "jsonl" && oneLine(text) && strings.HasPrefix(strings.TrimLeft(strings.TrimPrefix(text, "\uFEFF"), " \t\r\n"), "{"):
		f = "jsonl"
	case (f == "csv" || f == "tsv") && (hint == "csv" || hint == "tsv") && len(text) <= MaxBytes:
		if sniffDelimiterPrefer(strings.TrimPrefix(text, "\uFEFF"), hintDelimiter(hint)) == '\t' {
			f = "tsv"
		} else {
			f = "csv"
		}
	}
	t, err := Read(text, f)
	if (err != nil || len(t.Rows) == 0) && (f == "json" || f == "jsonl") && (hint == "csv" || hint == "tsv") {
		if alt, altErr := Read(text, hint); altErr == nil && len(alt.Rows) > 0 {
			t, err = alt, nil
		}
	}
	if err != nil {
		return nil, err
	}
	if hint != "" && hint != t.Format {
		t.Named = hint
	}
	return t, nil
}

// FormatOfName is the format a file's name says by its extension ("data.JSONL" is "jsonl"), or ""
// when it names none (.txt, no extension).
func FormatOfName(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return ""
	}
	switch name[i+1:] {
	case "csv":
		return "csv"
	case "tsv", "tab":
		return "tsv"
	case "json":
		return "json"
	case "jsonl", "ndjson":
		return "jsonl"
	}
	return ""
}

// hintDelimiter is the delimiter a format hint prefers on a tie.
func hintDelimiter(hint string) byte {
	if hint == "tsv" {
		return '\t'
	}
	return ','
}

// oneLine reports whether text holds one non-blank line.
func oneLine(text string) bool {
	_, rest := nextLine(strings.TrimLeft(strings.TrimPrefix(text, "\uFEFF"), " \t\r\n"))
	return strings.TrimSpace(rest) == ""
}

// Detect names the format of text as Read would detect it: "jsonl", "json", "csv", "tsv", or ""
// when the text holds nothing but white space.
func Detect(text string) string {
	t := strings.TrimLeft(strings.TrimPrefix(text, "\uFEFF"), " \t\r\n")
	if t == "" {
		return ""
	}
	switch t[0] {
	case '[':
		return "json"
	case '{':
		first, rest := nextLine(t)
		if strings.TrimSpace(rest) == "" {
			return "json" // one line: a JSON document and a one-line JSONL read alike
		}
		if isJSON(first) {
			return "jsonl"
		}
		// A first line that goes on in the next ({"data": [) starts a JSON document, even a
		// broken one; otherwise a JSON object on the second line means a JSONL file whose first
		// line is broken.
		if strings.ContainsAny(lastByte(first), "[{,:") || isJSON(t) {
			return "json"
		}
		second, _ := nextLine(strings.TrimLeft(rest, " \t\r\n"))
		if second = strings.TrimSpace(second); strings.HasPrefix(second, "{") && isJSON(second) {
			return "jsonl"
		}
		return "json"
	}
	if sniffDelimiter(strings.TrimPrefix(text, "\uFEFF")) == '\t' {
		return "tsv"
	}
	return "csv"
}

// lastByte returns the last byte of s that is not a space, as a string ("" if none).
func lastByte(s string) string {
	s = strings.TrimRight(s, " \t\r")
	if s == "" {
		return ""
	}
	return s[len(s)-1:]
}

// nextLine splits s after its first line, dropping the line end.
func nextLine(s string) (line, rest string) {
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return strings.TrimSuffix(s, "\r"), ""
	}
	return strings.TrimSuffix(s[:i], "\r"), s[i+1:]
}

func firstInvalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}

func mib(n int) string {
	return diag.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// builder collects rows, errors and the union of columns, and enforces MaxRows.
type builder struct {
	t       *Table
	seen    map[string]bool
	records int
	full    bool
}

func newBuilder(format string) *builder {
	return &builder{
		t:    &Table{Format: format, Columns: []string{}, Rows: []*value.Object{}, Errors: []RowError{}, Warnings: []RowError{}},
		seen: map[string]bool{},
	}
}

// take reports whether another record may be added, and when MaxRows is reached records where
// reading stopped, once.
func (b *builder) take(line int) bool {
	if b.full {
		return false
	}
	if b.records >= rowLimit {
		b.full = true
		b.t.Errors = append(b.t.Errors, RowError{Line: line, Code: diag.DatasetTooManyRows, Message: diag.Sprintf("more than %d rows: this row and the rest are not loaded; split the dataset", rowLimit)})
		return false
	}
	b.records++
	return true
}

// row adds a row; it returns false when the row or column cap stops reading.
func (b *builder) row(line int, o *value.Object) bool {
	if !b.take(line) {
		return false
	}
	added := 0
	for _, k := range o.Keys() {
		if !b.seen[k] {
			added++
		}
	}
	if len(b.t.Columns)+added > MaxColumns {
		b.full = true
		b.t.Errors = append(b.t.Errors, RowError{Line: line, Code: diag.DatasetTooManyColumns, Message: diag.Sprintf(
			"this row would bring the columns to %s, more than the %s this reads: this row and the rest are not loaded", diag.Thousands(len(b.t.Columns)+added), diag.Thousands(MaxColumns))})
		return false
	}
	for _, k := range o.Keys() {
		if !b.seen[k] {
			b.seen[k] = true
			b.t.Columns = append(b.t.Columns, k)
		}
	}
	b.t.Rows = append(b.t.Rows, o)
	return true
}

// fail adds a row error; it returns false when the row cap stops reading.
func (b *builder) fail(line, col int, code diag.Code, msg string) bool {
	if !b.take(line) {
		return false
	}
	b.t.Errors = append(b.t.Errors, RowError{Line: line, Col: col, Code: code, Message: msg})
	return true
}

// warn adds a warning about the row added last.
func (b *builder) warn(line, col int, code diag.Code, msg string) {
	b.t.Warnings = append(b.t.Warnings, RowError{Line: line, Col: col, Row: len(b.t.Rows), Code: code, Message: msg})
}

// lineIndex turns byte offsets of a text into 1-based lines and columns (in code points).
type lineIndex struct {
	text   string
	starts []int // byte offset where each line starts
}

func newLineIndex(text string) *lineIndex {
	li := &lineIndex{text: text, starts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// line returns the line of byte offset off, in time logarithmic in the number of lines.
func (li *lineIndex) line(off int) int {
	lo, hi := 0, len(li.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if li.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// position returns the line and column of byte offset off. The column costs the length of
// its line, so it is for errors, not for every row (a JSON file may be one long line).
func (li *lineIndex) position(off int) (line, col int) {
	off = max(0, min(off, len(li.text)))
	line = li.line(off)
	return line, utf8.RuneCountInString(li.text[li.starts[line-1]:off]) + 1
}
