package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// maxResyncs bounds how often reading restarts after a broken quoted field, each restart
// reading on from a line already read.
const maxResyncs = 1000

// readCSV reads a CSV text whose first record is the header.
func readCSV(text string, b *builder) error {
	li := newLineIndex(text)
	comma := sniffDelimiter(text)
	var header []string
	base, baseLine := 0, 0 // where the current csv.Reader starts: byte offset, lines before it
	resyncs := 0
	for {
		r := csv.NewReader(strings.NewReader(text[base:]))
		r.Comma = comma
		r.FieldsPerRecord = -1 // counted here, against the header, so the message can say both
		resume := 0
		for resume == 0 {
			rec, err := r.Read()
			if err == io.EOF {
				if header == nil {
					return &diag.Error{Kind: "dataset", Msg: "the text is empty: no header and no rows"}
				}
				return nil
			}
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				start, line := baseLine+pe.StartLine, baseLine+pe.Line
				col := li.column(line, pe.Column)
				msg := quoteProblem(pe.Err, line, col)
				// A quoted field that ran on past its own line and then broke has eaten the lines
				// after it (an unclosed quote eats the rest of the file): read them again.
				if pe.Err == csv.ErrQuote && line > start {
					if resyncs++; resyncs > maxResyncs {
						b.fail(start, msg+fmt.Sprintf("; more than %d broken quoted fields, reading stopped here: rows after this point are not loaded", maxResyncs))
						return nil
					}
					resume = start + 1
					msg = fmt.Sprintf(`a quoted field on line %d is not closed properly (read as running on to line %d, col %d; a " inside a quoted field must be doubled: ""); reading resumed at line %d`, start, line, col, resume)
				}
				if header == nil {
					return &diag.Error{Kind: "dataset", Line: line, Col: col, Msg: "cannot read the CSV header: " + msg}
				}
				if !b.fail(start, msg) {
					return nil
				}
				continue
			}
			if err != nil {
				return &diag.Error{Kind: "dataset", Msg: "cannot read the CSV: " + err.Error()}
			}
			fieldLine, _ := r.FieldPos(0)
			line := baseLine + fieldLine
			if header == nil {
				header = headerNames(rec)
				b.t.Columns = append(b.t.Columns, header...)
				for _, h := range header {
					b.seen[h] = true
				}
				continue
			}
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue // a line of spaces
			}
			if len(rec) != len(header) {
				if !b.fail(line, fmt.Sprintf("expected %d fields, as in the header, got %d", len(header), len(rec))) {
					return nil
				}
				continue
			}
			o := &value.Object{}
			for i, h := range header {
				o.Set(h, rec[i])
			}
			if !b.row(line, o) {
				return nil
			}
		}
		base, baseLine = li.lineStart(resume), resume-1
		if base >= len(text) {
			return nil
		}
	}
}

// quoteProblem words a csv parse error at line:col.
func quoteProblem(err error, line, col int) string {
	switch err {
	case csv.ErrBareQuote:
		return fmt.Sprintf(`a " inside an unquoted field at line %d, col %d (quote the field and double each " inside it)`, line, col)
	case csv.ErrQuote:
		return fmt.Sprintf(`a quoted field is not closed properly at line %d, col %d (a " inside a quoted field must be doubled: "")`, line, col)
	}
	return fmt.Sprintf("%s at line %d, col %d", err.Error(), line, col)
}

// headerNames trims the header's names and makes them non-empty and unique: an empty name (as
// pandas writes for its index) becomes column_N, a repeated one gets _2, _3, ...
func headerNames(rec []string) []string {
	names := make([]string, len(rec))
	used := map[string]bool{}
	for i, h := range rec {
		h = strings.TrimSpace(h)
		if h == "" {
			h = "column_" + strconv.Itoa(i+1)
		}
		name := h
		for n := 2; used[name]; n++ {
			name = h + "_" + strconv.Itoa(n)
		}
		used[name] = true
		names[i] = name
	}
	return names
}

// sniffDelimiter picks the most frequent of comma, tab and semicolon outside quotes in the first
// line, comma on a tie or when there is none.
func sniffDelimiter(text string) rune {
	first, _ := nextLine(text)
	counts := map[rune]int{}
	inQuotes := false
	for _, c := range first {
		switch {
		case c == '"':
			inQuotes = !inQuotes
		case !inQuotes && (c == ',' || c == '\t' || c == ';'):
			counts[c]++
		}
	}
	best := ','
	for _, c := range []rune{'\t', ';'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return best
}
