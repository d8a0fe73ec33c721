package dataset

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// maxResyncs bounds how often reading restarts after a quoted field that is never closed, each
// restart reading on from a line already read.
const maxResyncs = 1000

// csvRecord is one record of a delimited text.
type csvRecord struct {
	fields   []string
	line     int        // 1-based line where the record starts
	quotes   []csvQuote // quotes kept as text
	unclosed bool       // the text ended inside a quoted field that started on line
	resume   int        // for an unclosed record: offset of the line after line, or -1
	quoted   []bool     // per field: it was quoted
}

// csvQuote is a quote character a reader in strict mode would refuse, kept as text.
type csvQuote struct {
	line, col int  // where the quote is (col in code points)
	after     bool // it follows a closing quote ("ab"c) rather than sits in an unquoted field
}

// csvScanner splits a text into records the way Python's csv module (default dialect, not
// strict: what pandas and the RAG tools use) does:
//
//   - a record ends at \n, \r or \r\n outside quotes; a line with nothing on it is no record;
//   - a field that starts with " is quoted: delimiters and line breaks inside it are text, ""
//     is one "; text after its closing quote is kept (`"ab"c` is abc);
//   - a " anywhere else is text (`5" screen`);
//   - line breaks inside quoted fields are kept as written (\r\n stays \r\n).
//
// Where Python goes on to the end of the text inside a quoted field that is never closed, the
// scanner reports the record as unclosed and says where the line after its first starts, so
// that the reader can resume there.
type csvScanner struct {
	text      string
	delim     byte
	pos       int
	line      int       // line at pos, 1-based
	lineStart int       // offset where line starts
	_         [0]func() // not comparable: no equality function in the wasm
}

func newCSVScanner(text string, delim byte) *csvScanner {
	return &csvScanner{text: text, delim: delim, line: 1}
}

// restart moves the scanner to offset off, which starts line.
func (s *csvScanner) restart(off, line int) {
	s.pos, s.line, s.lineStart = off, line, off
}

// newline consumes the line break at pos (\n, \r or \r\n).
func (s *csvScanner) newline() {
	if s.text[s.pos] == '\r' && s.pos+1 < len(s.text) && s.text[s.pos+1] == '\n' {
		s.pos++
	}
	s.pos++
	s.line++
	s.lineStart = s.pos
}

func (s *csvScanner) col(off int) int {
	return utf8.RuneCountInString(s.text[s.lineStart:off]) + 1
}

// next returns the next record; ok is false at the end of the text. Fields are slices of the
// text where they can be (no doubled quote, no text after a closing quote), so that reading a
// large file copies little.
func (s *csvScanner) next() (rec csvRecord, ok bool) {
	// Skip empty lines: Python yields [] for them, which every reader of dicts skips.
	for s.pos < len(s.text) && (s.text[s.pos] == '\n' || s.text[s.pos] == '\r') {
		s.newline()
	}
	if s.pos >= len(s.text) {
		return rec, false
	}
	rec.line = s.line
	rec.resume = -1
	for {
		var field string
		if s.text[s.pos] == '"' {
			rec.quoted = append(rec.quoted, true)
			field = s.quotedField(&rec)
			if rec.unclosed {
				rec.fields = append(rec.fields, field)
				return rec, true
			}
		} else {
			rec.quoted = append(rec.quoted, false)
			field = s.unquotedField(&rec)
		}
		rec.fields = append(rec.fields, field)
		// The field ends at a delimiter, a line break or the end of the text.
		if s.pos >= len(s.text) {
			return rec, true
		}
		if c := s.text[s.pos]; c == '\n' || c == '\r' {
			s.newline()
			return rec, true
		}
		s.pos++ // the delimiter
		if s.pos >= len(s.text) {
			rec.fields = append(rec.fields, "") // "a," ends with an empty field
			rec.quoted = append(rec.quoted, false)
			return rec, true
		}
	}
}

// unquotedField reads an unquoted field from pos up to a delimiter or a line break; a quote in
// it is text, noted in rec.
func (s *csvScanner) unquotedField(rec *csvRecord) string {
	start := s.pos
	for s.pos < len(s.text) {
		c := s.text[s.pos]
		if c == s.delim || c == '\n' || c == '\r' {
			break
		}
		if c == '"' {
			rec.quotes = append(rec.quotes, csvQuote{line: s.line, col: s.col(s.pos)})
		}
		s.pos++
	}
	return s.text[start:s.pos]
}

// quotedField reads a quoted field whose opening quote is at pos, and any text after its
// closing quote up to a delimiter or a line break (kept, as Python keeps it, and noted in rec).
// At the end of the text inside the quotes it sets rec.unclosed.
func (s *csvScanner) quotedField(rec *csvRecord) string {
	s.pos++      // the opening quote
	var b []byte // the field so far, once it cannot be a slice of the text
	seg := s.pos
	for {
		j := strings.IndexByte(s.text[s.pos:], '"')
		end := len(s.text)
		if j >= 0 {
			end = s.pos + j
		}
		s.countLines(s.pos, end, rec)
		if j < 0 {
			s.pos = end
			rec.unclosed = true
			return string(append(b, s.text[seg:end]...))
		}
		if end+1 < len(s.text) && s.text[end+1] == '"' { // "" is one "
			b = append(b, s.text[seg:end+1]...)
			s.pos = end + 2
			seg = s.pos
			continue
		}
		s.pos = end + 1 // past the closing quote
		if s.pos < len(s.text) {
			if c := s.text[s.pos]; c != s.delim && c != '\n' && c != '\r' {
				rec.quotes = append(rec.quotes, csvQuote{line: s.line, col: s.col(end), after: true})
				b = append(b, s.text[seg:end]...)
				return string(b) + s.unquotedField(rec)
			}
		}
		if b == nil {
			return s.text[seg:end]
		}
		return string(append(b, s.text[seg:end]...))
	}
}

// countLines counts the line breaks in text[from:to], inside a quoted field, and notes in rec
// where the line after the record's first starts.
func (s *csvScanner) countLines(from, to int, rec *csvRecord) {
	for k := from; k < to; k++ {
		c := s.text[k]
		if c != '\n' && c != '\r' {
			continue
		}
		// \r\n is one break; both are before to, which is a quote or the end of the text.
		if c == '\r' && k+1 < len(s.text) && s.text[k+1] == '\n' {
			k++
		}
		s.line++
		s.lineStart = k + 1
		if rec.resume < 0 {
			rec.resume = k + 1
		}
	}
}

// readCSV reads a delimited text whose first record is the header.
func readCSV(text string, delim byte, b *builder) error {
	s := newCSVScanner(text, delim)
	var header []string
	resyncs := 0
	for {
		rec, ok := s.next()
		if !ok {
			if header == nil {
				return &diag.Error{Kind: "dataset", Code: diag.DatasetEmpty, Msg: "the text is empty: no header and no rows"}
			}
			return nil
		}
		if rec.unclosed {
			// Python would read on to the end of the text inside this field, turning every line
			// after it into one cell: read those lines again as rows instead.
			msg := diag.Sprintf(`a quoted field on line %d is never closed (a " inside a quoted field must be doubled: "")`, rec.line)
			if header == nil {
				return &diag.Error{Kind: "dataset", Code: diag.DatasetUnclosedQuote, Line: rec.line, Msg: "cannot read the CSV header: " + msg}
			}
			if rec.resume < 0 {
				b.fail(rec.line, 0, diag.DatasetUnclosedQuote, msg)
				return nil
			}
			if resyncs++; resyncs > maxResyncs {
				b.fail(rec.line, 0, diag.DatasetStopped, msg+diag.Sprintf("; more than %d such fields, reading stopped here: rows after this point are not loaded", maxResyncs))
				return nil
			}
			if !b.fail(rec.line, 0, diag.DatasetUnclosedQuote, msg+diag.Sprintf("; this row is not loaded, reading resumed at line %d", rec.line+1)) {
				return nil
			}
			s.restart(rec.resume, rec.line+1)
			continue
		}
		if header == nil {
			if len(rec.fields) > MaxColumns {
				return &diag.Error{Kind: "dataset", Code: diag.DatasetTooManyColumns, Line: rec.line,
					Msg: diag.Sprintf("the header has %s columns, more than the %s this reads (as many as a spreadsheet holds): is this a CSV file with one row per line?",
						diag.Thousands(len(rec.fields)), diag.Thousands(MaxColumns))}
			}
			header = headerNames(rec.fields)
			b.t.Columns = append(b.t.Columns, header...)
			for _, h := range header {
				b.seen[h] = true
			}
			continue
		}
		if len(rec.fields) == 1 && !rec.quoted[0] && strings.TrimSpace(rec.fields[0]) == "" {
			continue // a line of spaces
		}
		if len(rec.fields) > len(header) {
			if !b.fail(rec.line, 0, diag.DatasetBadRow, diag.Sprintf("expected %d fields, as in the header, got %d (a field with the delimiter in it must be quoted)", len(header), len(rec.fields))) {
				return nil
			}
			continue
		}
		o := &value.Object{}
		for i, f := range rec.fields {
			o.Set(header[i], f)
		}
		if !b.row(rec.line, o) {
			return nil
		}
		if len(rec.fields) < len(header) {
			b.warn(rec.line, 0, diag.DatasetMissingFields, diag.Sprintf("expected %d fields, as in the header, got %d: the columns %s are missing in this row", len(header), len(rec.fields), quoteNames(header[len(rec.fields):])))
		}
		if len(rec.quotes) > 0 {
			// One warning a row, at its first such quote.
			q := rec.quotes[0]
			msg := diag.Sprintf(`a " inside an unquoted field at line %d, col %d is kept as text (to be sure, quote the field and double each " inside it)`, q.line, q.col)
			if q.after {
				msg = diag.Sprintf(`text after a closing quote at line %d, col %d is kept as part of the field (a " inside a quoted field must be doubled: "")`, q.line, q.col)
			}
			if n := len(rec.quotes); n > 1 {
				msg += diag.Sprintf("; %d such quotes in this row", n)
			}
			b.warn(q.line, q.col, diag.DatasetQuoteInField, msg)
		}
	}
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = diag.Quote(n)
	}
	return strings.Join(q, ", ")
}

// headerNames trims the header's names and makes them non-empty and unique: an empty name (as
// pandas writes for its index) becomes column_N, a repeated one gets _2, _3, ...
func headerNames(rec []string) []string {
	names := make([]string, len(rec))
	used := map[string]bool{}
	next := map[string]int{} // the suffix to try next for a repeated name: 10,000 copies of one name cost one try each
	for i, h := range rec {
		h = strings.TrimSpace(h)
		if h == "" {
			h = "column_" + strconv.Itoa(i+1)
		}
		name := h
		if used[name] {
			n := max(2, next[h])
			for name = h + "_" + strconv.Itoa(n); used[name]; name = h + "_" + strconv.Itoa(n) {
				n++
			}
			next[h] = n + 1
		}
		used[name] = true
		names[i] = name
	}
	return names
}

// sniffBytes is how much of a text sniffDelimiter looks at.
const sniffBytes = 64 << 10

// sniffRecords is how many records sniffDelimiter reads with each delimiter.
const sniffRecords = 20

// sniffDelimiter picks the delimiter of a CSV text among comma, tab and semicolon, conservatively
// (as csv.Sniffer would, on the candidates people use): the one that splits the header into
// more than one field and every one of the first records into as many fields as the header
// (the last record read may be cut short by the sniffing window, and a record may have fewer
// fields, as a reader fills those); of several, the one giving most fields, comma on a tie. With
// none consistent, the most frequent in the header outside quotes; comma when there is none.
func sniffDelimiter(text string) byte { return sniffDelimiterPrefer(text, ',') }

// sniffDelimiterPrefer is sniffDelimiter with prefer (',' or '\t', as a file's name says) taken on
// a tie, and when no candidate appears in the header.
func sniffDelimiterPrefer(text string, prefer byte) byte {
	sample := text[:min(len(text), sniffBytes)]
	cut := len(sample) < len(text)
	best, bestFields := byte(0), 1
	headerCounts := map[byte]int{}
	for _, d := range []byte{',', '\t', ';'} {
		s := newCSVScanner(sample, d)
		head, ok := s.next()
		if !ok {
			return ','
		}
		headerCounts[d] = len(head.fields)
		consistent := len(head.fields) > 1
		for n := 0; consistent && n < sniffRecords; n++ {
			rec, ok := s.next()
			if !ok {
				break
			}
			last := cut && s.pos >= len(sample)
			if len(rec.fields) > len(head.fields) && !last {
				consistent = false
			}
		}
		if consistent && (len(head.fields) > bestFields || len(head.fields) == bestFields && d == prefer) {
			best, bestFields = d, len(head.fields)
		}
	}
	if best != 0 {
		return best
	}
	best = prefer
	for _, d := range []byte{',', '\t', ';'} {
		if headerCounts[d] > headerCounts[best] {
			best = d
		}
	}
	return best
}
