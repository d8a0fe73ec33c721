package dataset

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/value"
)

// maxCellItems bounds the items ParseListCell reads from one cell.
const maxCellItems = 100_000

// maxCellDepth bounds the nesting of lists and dicts ParseListCell reads from one cell.
const maxCellDepth = 32

// ParseListCell reads a list written as text in a CSV cell: JSON (`["a", "b"]`) or Python's
// repr as pandas writes list columns to CSV (`['a', "it's"]`, with Python's string escapes, and
// dicts and lists as items: `[{'doc_id': 1, 'text': 'x'}]`), including NumPy's print without
// commas (`['a' 'b']`). ok is false when s is not a list; note then says why if s looked like
// one, and otherwise says how the list was read when that is worth knowing.
func ParseListCell(s string) (list []any, note string, ok bool) {
	list, note, ok, _ = parseListCell(s)
	return list, note, ok
}

// parseListCell is ParseListCell that also gives, when s looks like a list but is not one, the
// byte offset in s where reading it failed (else -1).
func parseListCell(s string) (list []any, note string, ok bool, errOff int) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return nil, "", false, -1
	}
	if v, err := decodeJSON([]byte(t)); err == nil {
		if l, isList := v.([]any); isList {
			return l, "", true, -1
		}
	}
	p := &pyScanner{src: t}
	items, err := p.list()
	if err != "" {
		lead := len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
		return nil, "looks like a list but is neither JSON nor a Python list (" + err + ")", false, lead + p.errOff
	}
	if p.numpy {
		note = "items not separated by commas (as NumPy prints arrays); read as separate items"
	}
	return items, note, true, -1
}

// pyScanner reads one Python list literal of strings, numbers, None, True, False, and lists
// and dicts of those.
type pyScanner struct {
	src    string
	pos    int
	depth  int
	items  int  // items read, in all lists and dicts
	numpy  bool // strings were separated by space only
	errOff int  // where the first failure was
}

// list reads the whole source as a list.
func (p *pyScanner) list() ([]any, string) {
	items, err := p.listValue()
	if err != "" {
		return nil, err
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, p.fail("text after the list")
	}
	return items, ""
}

// listValue reads a list:
//
//	list := '[' ws [ item { sep item } [ ',' ws ] ] ']' ws
//	sep  := ws ',' ws | ws        (the second only between two strings: NumPy's print)
func (p *pyScanner) listValue() ([]any, string) {
	if !p.eat('[') {
		return nil, p.fail("expected [")
	}
	if p.depth++; p.depth > maxCellDepth {
		return nil, p.fail(diag.Sprintf("lists nested deeper than %d", maxCellDepth))
	}
	defer func() { p.depth-- }()
	items := []any{}
	p.space()
	for !p.eat(']') {
		if p.items++; p.items > maxCellItems {
			return nil, p.fail(diag.Sprintf("more than %d items", maxCellItems))
		}
		item, err := p.item()
		if err != "" {
			return nil, err
		}
		items = append(items, item)
		before := p.pos
		p.space()
		switch {
		case p.eat(','):
			p.space()
		case p.peek() == ']':
		case p.pos > before && isQuote(p.peek()) && isString(item):
			p.numpy = true
		default:
			return nil, p.fail("expected , or ]")
		}
	}
	return items, ""
}

// dict reads a dict, keys in the order written (a repeated key keeps its first place):
//
//	dict := '{' ws [ item ws ':' ws item { ws ',' ws item ws ':' ws item } [ ',' ws ] ] '}'
func (p *pyScanner) dict() (any, string) {
	p.pos++ // '{'
	if p.depth++; p.depth > maxCellDepth {
		return nil, p.fail(diag.Sprintf("dicts nested deeper than %d", maxCellDepth))
	}
	defer func() { p.depth-- }()
	o := &value.Object{}
	p.space()
	for !p.eat('}') {
		if p.items++; p.items > maxCellItems {
			return nil, p.fail(diag.Sprintf("more than %d items", maxCellItems))
		}
		k, err := p.item()
		if err != "" {
			return nil, err
		}
		if isComposite(k) {
			return nil, p.fail("a dict key that is a list or a dict")
		}
		p.space()
		if !p.eat(':') {
			return nil, p.fail("expected :")
		}
		p.space()
		v, err := p.item()
		if err != "" {
			return nil, err
		}
		o.Set(scalarText(k), v)
		p.space()
		switch {
		case p.eat(','):
			p.space()
		case p.peek() == '}':
		default:
			return nil, p.fail("expected , or }")
		}
	}
	return o, ""
}

// item := string | number | 'None' | 'True' | 'False' | list | dict
func (p *pyScanner) item() (any, string) {
	c := p.peek()
	switch {
	case isQuote(c):
		return p.str()
	case (c == 'u' || c == 'U') && p.pos+1 < len(p.src) && isQuote(p.src[p.pos+1]):
		p.pos++
		return p.str()
	case c == '[':
		return p.listValue()
	case c == '{':
		return p.dict()
	}
	start := p.pos
	for p.pos < len(p.src) && !strings.ContainsRune(",]}: \t\r\n", rune(p.src[p.pos])) {
		p.pos++
	}
	word := p.src[start:p.pos]
	switch word {
	case "None":
		return nil, ""
	case "True":
		return true, ""
	case "False":
		return false, ""
	}
	if isNumberLiteral(word) {
		return value.Number(strings.TrimPrefix(word, "+")), ""
	}
	p.pos = start
	return nil, p.fail("expected a quoted string, a number, None, True or False")
}

// str reads a quoted string with Python's escapes:
//
//	string := "'" { char | escape } "'" | '"' { char | escape } '"'
func (p *pyScanner) str() (any, string) {
	q := p.src[p.pos]
	start := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == q:
			p.pos++
			return b.String(), ""
		case c == '\\' && p.pos+1 < len(p.src):
			p.escape(&b)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.pos = start
	return nil, p.fail("string not closed")
}

// escape reads the escape sequence at p.pos into b; unknown ones stay as written, as in Python.
func (p *pyScanner) escape(b *strings.Builder) {
	e := p.src[p.pos+1]
	if i := strings.IndexByte(escapeLetters, e); i >= 0 {
		b.WriteString(escapedAs[i])
		p.pos += 2
		return
	}
	hexLen := 0
	switch e {
	case 'x':
		hexLen = 2
	case 'u':
		hexLen = 4
	case 'U':
		hexLen = 8
	}
	if hexLen > 0 && p.pos+2+hexLen <= len(p.src) {
		if n, err := exact.ParseUint(p.src[p.pos+2:p.pos+2+hexLen], 16, 32); err == nil {
			r := rune(n)
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
			p.pos += 2 + hexLen
			return
		}
	}
	if e >= '0' && e <= '7' {
		end := p.pos + 1
		for end < len(p.src) && end < p.pos+4 && p.src[end] >= '0' && p.src[end] <= '7' {
			end++
		}
		n, _ := exact.ParseUint(p.src[p.pos+1:end], 8, 32)
		b.WriteRune(rune(n))
		p.pos = end
		return
	}
	b.WriteByte('\\')
	p.pos++
}

// escapeLetters are the letters of Python's one-letter escapes (a backslash before a newline
// joins the lines), and escapedAs, at the same index, what each stands for. Not a map: a map
// literal is code that fills the map at start (2.8 KB of it for this one), a list is data.
const escapeLetters = "\\'\"abfnrtv\n"

var escapedAs = [len(escapeLetters)]string{"\\", "'", "\"", "\a", "\b", "\f", "\n", "\r", "\t", "\v", ""}

func (p *pyScanner) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *pyScanner) eat(c byte) bool {
	if p.peek() == c && p.pos < len(p.src) {
		p.pos++
		return true
	}
	return false
}

func (p *pyScanner) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// fail words a problem at the current position, counting columns in code points.
func (p *pyScanner) fail(msg string) string {
	off := min(p.pos, len(p.src))
	p.errOff = off
	return diag.Sprintf("%s at col %d", msg, utf8.RuneCountInString(p.src[:off])+1)
}

func isQuote(c byte) bool { return c == '\'' || c == '"' }

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}
