package dataset

import (
	"errors"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// readJSONL reads one JSON object per line.
func readJSONL(text string, b *builder) {
	line := 0
	for rest := text; rest != ""; {
		var ln string
		ln, rest = nextLine(rest)
		line++
		if strings.TrimSpace(ln) == "" {
			continue
		}
		v, err := decodeStrict(ln)
		if err != nil {
			if !b.fail(line, 0, diag.DatasetBadRow, err.Error()) {
				return
			}
			continue
		}
		o, ok := v.(*value.Object)
		if !ok {
			if !b.fail(line, 0, diag.DatasetBadRow, diag.Sprintf("the line is %s, not a JSON object", value.TypeName(v))) {
				return
			}
			continue
		}
		if !b.row(line, o) {
			return
		}
	}
}

// decodeStrict decodes one complete JSON value; its error says where on the line it failed.
func decodeStrict(s string) (any, error) {
	v, err := decodeJSON([]byte(s))
	if err != nil {
		if _, ok := err.(*value.SyntaxError); ok {
			return nil, jsonProblem(s, err)
		}
		return nil, diag.Errorf("invalid JSON: %s", strings.TrimPrefix(err.Error(), "value: "))
	}
	return v, nil
}

// jsonProblem words a JSON error found in the one line s.
func jsonProblem(s string, err error) error {
	if se, ok := err.(*value.SyntaxError); ok {
		if strings.Contains(se.Error(), "end of JSON input") {
			return errors.New("invalid JSON: the line ends before its JSON value does (JSONL needs one whole object per line)")
		}
		_, col := diag.Position(s, max(int(se.Offset)-1, 0))
		return diag.Errorf("invalid JSON at col %d: %s", col, se.Error())
	}
	if err == nil {
		err = errors.New("not valid")
	}
	return diag.Errorf("invalid JSON: %s", err.Error())
}

// firstSyntaxError finds where text stops being JSON: the first error in the whole text is the
// one a reader going through it in order hits.
func firstSyntaxError(li *lineIndex, text string) (line, col int, msg string) {
	err := value.Check([]byte(text))
	if se, ok := err.(*value.SyntaxError); ok {
		if int(se.Offset) >= len(text) && strings.Contains(se.Error(), "end of JSON input") {
			line, col = li.position(len(text))
			return line, col, "the text ends early (cut short?)"
		}
		line, col = li.position(int(se.Offset) - 1)
		return line, col, se.Error()
	}
	line, col = li.position(len(text))
	if err != nil {
		return line, col, err.Error()
	}
	return line, col, "unexpected end"
}

// rowsKeys are the keys under which a JSON object holds its rows (compared case-insensitively).
var rowsKeys = []string{"data", "rows", "records", "examples", "samples", "items", "results", "test_cases", "testcases", "tests", "goldens", "dataset", "entries", "input_data"}

func isRowsKey(k string) bool {
	for _, r := range rowsKeys {
		if strings.EqualFold(r, k) {
			return true
		}
	}
	return false
}

// readJSON reads a JSON array of objects, or an object holding one (see the package doc).
func readJSON(text string, b *builder) error {
	li := newLineIndex(text)
	data := []byte(text)
	valid := value.Valid(data)
	start := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	if start == len(text) {
		return &diag.Error{Kind: "dataset", Code: diag.DatasetEmpty, Msg: "the text is empty: no rows to read"}
	}
	dec := value.NewDecoder(data)
	stopped := false // a syntax error was already reported as a row error
	switch text[start] {
	case '[':
		dec.SetOffset(start + 1)
		stopped = readArray(dec, text, li, b)
	case '{':
		found, err := findRows(dec, isRowsKey, 0)
		if err != nil {
			return syntaxError(li, text)
		}
		if !found {
			if !valid {
				return syntaxError(li, text)
			}
			v, err := decodeJSON(data)
			o, isObject := v.(*value.Object)
			if err != nil || !isObject {
				line, _ := li.position(start)
				return &diag.Error{Kind: "dataset", Code: diag.DatasetInvalidJSON, Line: line, Msg: diag.Sprintf("invalid JSON: %v", err)}
			}
			if key, ok := singleListOfObjects(o); ok {
				dec = value.NewDecoder(data)
				if found, err := findRows(dec, func(k string) bool { return k == key }, 1); err != nil || !found {
					return syntaxError(li, text)
				}
				stopped = readArray(dec, text, li, b)
			} else {
				line, _ := li.position(start)
				b.row(line, o)
				return nil
			}
		} else {
			stopped = readArray(dec, text, li, b)
		}
	default:
		line, col := li.position(start)
		return &diag.Error{Kind: "dataset", Code: diag.DatasetInvalidJSON, Line: line, Col: col, Msg: "not JSON: a JSON dataset starts with [ (a list of rows) or { (an object holding one)"}
	}
	if !valid && !stopped && !b.full {
		// The rows were read but the text goes on wrongly after them.
		line, col, msg := firstSyntaxError(li, text)
		b.t.Errors = append(b.t.Errors, RowError{Line: line, Col: col, Code: diag.DatasetTextAfterRows, Message: diag.Sprintf("invalid JSON after the rows at line %d, col %d: %s", line, col, msg)})
	}
	return nil
}

// singleListOfObjects reports whether o has one key only and it holds a non-empty list of
// objects, which is then the rows.
func singleListOfObjects(o *value.Object) (string, bool) {
	if o.Len() != 1 {
		return "", false
	}
	key := o.Keys()[0]
	v, _ := o.Get(key)
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return "", false
	}
	for _, e := range list {
		if _, ok := e.(*value.Object); !ok {
			return "", false
		}
	}
	return key, true
}

// maxRowsDepth is how deep findRows looks for the rows: the top object and one level down.
const maxRowsDepth = 2

// errNotJSON is findRows's error for a text that is not JSON; the caller words it with
// firstSyntaxError, which finds the first error in the whole text.
var errNotJSON = errors.New("not JSON")

// findRows reads the object dec is at, up to just after the '[' of the first key accepted by
// isRows whose value is a list, looking also into objects held under such keys, down to
// maxRowsDepth. It reports whether it stopped at such a list; if not, dec has read the whole
// object.
func findRows(dec *value.Decoder, isRows func(string) bool, maxDepth int) (bool, error) {
	if maxDepth == 0 {
		maxDepth = maxRowsDepth
	}
	if dec.SkipSpace(); dec.Peek() != '{' {
		return false, errNotJSON
	}
	dec.Next()
	return findRowsIn(dec, isRows, 1, maxDepth)
}

// findRowsIn reads the members of an object whose '{' dec has read:
//
//	members := ws [ member { ',' member } ] '}'
//	member  := ws string ws ':' ws value ws
func findRowsIn(dec *value.Decoder, isRows func(string) bool, depth, maxDepth int) (bool, error) {
	if dec.SkipSpace(); dec.Peek() == '}' {
		dec.Next()
		return false, nil
	}
	for {
		key, err := dec.Key()
		if err != nil {
			return false, err
		}
		if dec.SkipSpace(); dec.Peek() != ':' {
			return false, errNotJSON
		}
		dec.Next()
		dec.SkipSpace()
		switch c := dec.Peek(); {
		case c == '[' && isRows(key):
			dec.Next()
			return true, nil
		case c == '{' && isRows(key) && depth < maxDepth:
			dec.Next()
			found, err := findRowsIn(dec, isRows, depth+1, maxDepth)
			if found || err != nil {
				return found, err
			}
		default:
			if err := dec.Skip(); err != nil {
				return false, err
			}
		}
		dec.SkipSpace()
		switch dec.Peek() {
		case ',':
			dec.Next()
		case '}':
			dec.Next()
			return false, nil
		default:
			return false, errNotJSON
		}
	}
}

// readArray reads the elements of the list whose '[' dec just read, each an object row, up
// to the first syntax error. It reports whether it stopped at a syntax error (already
// recorded as a row error).
func readArray(dec *value.Decoder, text string, li *lineIndex, b *builder) bool {
	n := 0
	for {
		dec.SkipSpace()
		if c := dec.Peek(); dec.Offset() >= len(text) || c == ']' || c == '}' {
			break
		}
		n++
		line := li.line(skipSpaceComma(text, dec.Offset()))
		if n > 1 {
			if dec.Peek() != ',' {
				b.fail(line, 0, diag.DatasetStopped, stoppedMessage(li, text, n))
				return true
			}
			dec.Next()
		}
		dec.SkipSpace()
		start := dec.Offset()
		v, err := dec.Value()
		if errors.Is(err, value.ErrTooDeep) {
			// Too deep to hold but maybe JSON: a row error, and reading goes on after it.
			if dec.SetOffset(start); dec.Skip() == nil {
				if !b.fail(line, 0, diag.DatasetBadRow, diag.Sprintf("row %d: invalid JSON: %s", n, errTooDeep.Error())) {
					return false
				}
				continue
			}
		}
		if err != nil {
			b.fail(line, 0, diag.DatasetStopped, stoppedMessage(li, text, n))
			return true
		}
		o, ok := v.(*value.Object)
		if !ok {
			if !b.fail(line, 0, diag.DatasetBadRow, diag.Sprintf("row %d is %s, not a JSON object", n, value.TypeName(v))) {
				return false
			}
			continue
		}
		if !b.row(line, o) {
			return false
		}
	}
	if dec.Peek() != ']' || dec.Offset() >= len(text) { // the closing ']'
		line, _, _ := firstSyntaxError(li, text)
		b.fail(line, 0, diag.DatasetStopped, stoppedMessage(li, text, n+1))
		return true
	}
	dec.Next()
	return false
}

// stoppedMessage words a syntax error that ends reading a JSON list at row n.
func stoppedMessage(li *lineIndex, text string, n int) string {
	line, col, msg := firstSyntaxError(li, text)
	return diag.Sprintf("row %d: invalid JSON at line %d, col %d: %s; reading stopped here, rows after this point are not loaded", n, line, col, msg)
}

// syntaxError is the Read error for a JSON text that has no readable rows at all.
func syntaxError(li *lineIndex, text string) error {
	line, col, msg := firstSyntaxError(li, text)
	return &diag.Error{Kind: "dataset", Code: diag.DatasetInvalidJSON, Line: line, Col: col, Msg: "invalid JSON: " + msg}
}

func skipSpaceComma(text string, off int) int {
	for off < len(text) {
		switch text[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}

func isJSON(s string) bool { return value.Valid([]byte(s)) }
