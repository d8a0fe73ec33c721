package parse

// The Jinja lexer, in the style of text/template/parse: state functions that emit items with
// byte positions. It follows jinja2/lexer.py rule for rule (the parser pulls items one at a time,
// so a lexing error surfaces exactly when Jinja's lazy token stream would raise it):
//
//	root:     data up to the first "{{", "{%" or "{#" (each optionally followed by "-" or "+");
//	          "{%[-+]? raw %}" starts a raw block. A "-" strips the whitespace before the tag.
//	comment:  up to "+#}", "-#}" (then strips following whitespace) or "#}".
//	variable: tokens until "-}}" (strip) or "}}" when no bracket is open.
//	block:    tokens until "+%}", "-%}" (strip) or "%}" when no bracket is open.
//	raw:      data up to "{%[-+]? endraw [-+]?%}".
//
// The source has already had its newlines normalised to "\n" and its one final newline removed.

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/template/pystr"
)

type itemType int

const (
	itemEOF itemType = iota
	itemData
	itemVarBegin
	itemVarEnd
	itemBlockBegin
	itemBlockEnd
	itemName
	itemString // val is the decoded value
	itemInt    // val is the literal with underscores removed
	itemFloat
	itemOp // val is the operator
)

type item struct {
	typ  itemType
	pos  int       // byte offset in the (normalised) source
	line int       // Jinja's line number of the token
	val  string    // text, decoded string, literal or operator
	_    [0]func() // not comparable: no equality function in the wasm
}

// lexer holds the scanning state; next() runs state functions until an item is ready.
type lexer struct {
	src    string
	pos    int
	line   int // line at pos
	lineAt int // the byte offset line was counted up to
	state  stateFn
	queue  []item
	head   int // the next item of queue to hand out
	err    *lexError
	inTag  itemType // itemVarBegin or itemBlockBegin while inside a tag
	stack  []byte   // open brackets inside a tag
	last   item     // the last item handed out, for EOF's line
}

// lexError is a lexing failure at a byte offset.
type lexError struct {
	pos int
	msg string
	_   [0]func() // not comparable: no equality function in the wasm
}

type stateFn func(*lexer) stateFn

func newLexer(src string) *lexer {
	return &lexer{src: src, line: 1, state: lexRoot}
}

// lineOf returns the 1-based line of byte offset p (p never decreases between calls, except
// for positions of items already queued, which the lexer computes before advancing).
func (l *lexer) lineOf(p int) int {
	if p < l.lineAt {
		return 1 + diag.Newlines(l.src[:p])
	}
	l.line += diag.Newlines(l.src[l.lineAt:p])
	l.lineAt = p
	return l.line
}

func (l *lexer) emit(t itemType, pos int, val string) {
	l.queue = append(l.queue, item{typ: t, pos: pos, line: l.lineOf(pos), val: val})
}

// next returns the next item; after an error it keeps returning EOF and l.err is set.
func (l *lexer) next() item {
	for len(l.queue) == l.head {
		if l.state == nil || l.err != nil {
			eof := item{typ: itemEOF, pos: l.last.pos, line: l.last.line}
			if l.last.line == 0 {
				eof.line = 1
			}
			return eof
		}
		l.state = l.state(l)
	}
	// The queue is read from head and emptied, never resliced forward: reslicing made emit
	// allocate a new array every few items (most of a parse's allocations), and moving the
	// items down copied them with the collector's write barriers.
	it := l.queue[l.head]
	l.head++
	if l.head == len(l.queue) {
		l.queue, l.head = l.queue[:0], 0
	}
	l.last = it
	return it
}

func (l *lexer) fail(pos int, msg string) stateFn {
	l.err = &lexError{pos: pos, msg: msg}
	return nil
}

// lexRoot scans template data up to the next tag.
func lexRoot(l *lexer) stateFn {
	start := l.pos
	for i := l.pos; ; {
		j := strings.IndexByte(l.src[i:], '{')
		if j < 0 || i+j+1 >= len(l.src) {
			break
		}
		at := i + j
		c := l.src[at+1]
		if c != '{' && c != '%' && c != '#' {
			i = at + 1
			continue
		}
		signAt := at + 2
		sign := byte(0)
		if signAt < len(l.src) && (l.src[signAt] == '-' || l.src[signAt] == '+') {
			sign = l.src[signAt]
		}
		text := l.src[start:at]
		if sign == '-' {
			text = strings.TrimRightFunc(text, pystr.IsSpace)
		}
		if c == '%' {
			if end, endSign, ok := matchRawBegin(l.src, at); ok {
				if text != "" {
					l.emit(itemData, start, text)
				}
				l.pos = end
				_ = endSign
				return lexRaw
			}
		}
		if text != "" {
			l.emit(itemData, start, text)
		}
		l.pos = signAt
		if sign != 0 {
			l.pos++
		}
		switch c {
		case '{':
			l.emit(itemVarBegin, at, "{{")
			l.inTag = itemVarBegin
			return lexInsideTag
		case '%':
			l.emit(itemBlockBegin, at, "{%")
			l.inTag = itemBlockBegin
			return lexInsideTag
		default:
			return lexComment(at)
		}
	}
	if start < len(l.src) {
		l.emit(itemData, start, l.src[start:])
	}
	l.pos = len(l.src)
	return nil
}

// skipSpace returns the offset after the Python whitespace starting at p.
func skipSpace(s string, p int) int {
	for p < len(s) {
		r, w := utf8.DecodeRuneInString(s[p:])
		if !pystr.IsSpace(r) {
			break
		}
		p += w
	}
	return p
}

// matchRawBegin matches `{%[-+]?\s*raw\s*(-%}\s*|%})` at p and returns the offset after it.
func matchRawBegin(s string, p int) (end int, sign byte, ok bool) {
	q := p + 2
	if q < len(s) && (s[q] == '-' || s[q] == '+') {
		q++
	}
	q = skipSpace(s, q)
	if !strings.HasPrefix(s[q:], "raw") {
		return 0, 0, false
	}
	q = skipSpace(s, q+3)
	switch {
	case strings.HasPrefix(s[q:], "-%}"):
		return skipSpace(s, q+3), '-', true
	case strings.HasPrefix(s[q:], "%}"):
		return q + 2, 0, true
	}
	return 0, 0, false
}

// lexRaw scans a raw block's data up to its endraw tag.
func lexRaw(l *lexer) stateFn {
	start := l.pos
	rawLine := l.lineOf(start)
	for i := start; ; {
		j := strings.Index(l.src[i:], "{%")
		if j < 0 {
			if start >= len(l.src) {
				return nil // as for comments, nothing left means no error
			}
			l.line, l.lineAt = rawLine, start
			return l.fail(start, "Missing end of raw directive")
		}
		at := i + j
		q := at + 2
		sign := byte(0)
		if q < len(l.src) && (l.src[q] == '-' || l.src[q] == '+') {
			sign = l.src[q]
			q++
		}
		q = skipSpace(l.src, q)
		if strings.HasPrefix(l.src[q:], "endraw") {
			q = skipSpace(l.src, q+6)
			end := -1
			switch {
			case strings.HasPrefix(l.src[q:], "+%}"):
				end = q + 3
			case strings.HasPrefix(l.src[q:], "-%}"):
				end = skipSpace(l.src, q+3)
			case strings.HasPrefix(l.src[q:], "%}"):
				end = q + 2
			}
			if end >= 0 {
				text := l.src[start:at]
				if sign == '-' {
					text = strings.TrimRightFunc(text, pystr.IsSpace)
				}
				if text != "" {
					l.emit(itemData, start, text)
				}
				l.pos = end
				return lexRoot
			}
		}
		i = at + 2
	}
}

// lexComment skips a comment that began at begin.
func lexComment(begin int) stateFn {
	return func(l *lexer) stateFn {
		j := strings.Index(l.src[l.pos:], "#}")
		if j < 0 {
			if l.pos >= len(l.src) {
				return nil // Jinja's failure rule needs a character to match: "{#" at the end is dropped
			}
			return l.fail(begin, "Missing end of comment tag")
		}
		contentStart := l.pos
		at := contentStart + j
		l.pos = at + 2
		if at-1 >= contentStart && l.src[at-1] == '-' {
			l.pos = skipSpace(l.src, l.pos)
		}
		return lexRoot
	}
}

// lexInsideTag scans the tokens of a {{ }} or {% %} tag.
func lexInsideTag(l *lexer) stateFn {
	s := l.src
	for {
		// ASCII spaces first, and the ends of the tag only where one can start: most of a
		// tag is names, operators and spaces.
		c := byte(0)
		if l.pos < len(s) {
			if c = s[l.pos]; c == ' ' || c == '\n' || c == '\t' || c == '\r' {
				l.pos++
				continue
			}
		}
		if len(l.stack) == 0 && (c == '-' || c == '+' || c == '}' || c == '%') {
			if l.inTag == itemVarBegin {
				if strings.HasPrefix(s[l.pos:], "-}}") {
					l.emit(itemVarEnd, l.pos, "}}")
					l.pos = skipSpace(s, l.pos+3)
					return lexRoot
				}
				if strings.HasPrefix(s[l.pos:], "}}") {
					l.emit(itemVarEnd, l.pos, "}}")
					l.pos += 2
					return lexRoot
				}
			} else {
				if strings.HasPrefix(s[l.pos:], "+%}") {
					l.emit(itemBlockEnd, l.pos, "%}")
					l.pos += 3
					return lexRoot
				}
				if strings.HasPrefix(s[l.pos:], "-%}") {
					l.emit(itemBlockEnd, l.pos, "%}")
					l.pos = skipSpace(s, l.pos+3)
					return lexRoot
				}
				if strings.HasPrefix(s[l.pos:], "%}") {
					l.emit(itemBlockEnd, l.pos, "%}")
					l.pos += 2
					return lexRoot
				}
			}
		}
		if l.pos >= len(s) {
			return nil // the parser reports the missing end of tag
		}
		r, w := utf8.DecodeRuneInString(s[l.pos:])
		if pystr.IsSpace(r) {
			l.pos = skipSpace(s, l.pos)
			continue
		}
		if isDigit(s[l.pos]) { // both literals start with a digit
			if n := matchFloat(s, l.pos); n > 0 {
				l.emit(itemFloat, l.pos, strings.ReplaceAll(s[l.pos:l.pos+n], "_", ""))
				l.pos += n
				return lexInsideTag
			}
			if n := matchInt(s, l.pos); n > 0 {
				l.emit(itemInt, l.pos, strings.ReplaceAll(s[l.pos:l.pos+n], "_", ""))
				l.pos += n
				return lexInsideTag
			}
		}
		if isNameChar(r) {
			end := l.pos
			for end < len(s) && isASCIINameChar(s[end]) {
				end++
			}
			for end < len(s) {
				r2, w2 := utf8.DecodeRuneInString(s[end:])
				if !isNameChar(r2) {
					break
				}
				end += w2
			}
			name := s[l.pos:end]
			if !isIdentifier(name) {
				return l.fail(l.pos, "Invalid character in identifier")
			}
			l.emit(itemName, l.pos, name)
			l.pos = end
			return lexInsideTag
		}
		if r == '\'' || r == '"' {
			end := l.pos + 1
			for end < len(s) && s[end] != byte(r) {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return l.fail(l.pos, "unexpected char "+runeRepr(r)+" at "+strconv.Itoa(utf8.RuneCountInString(s[:l.pos])))
			}
			val, err := decodeStringLiteral(s[l.pos+1 : end])
			if err != "" {
				return l.fail(l.pos, err)
			}
			l.emit(itemString, l.pos, val)
			l.pos = end + 1
			return lexInsideTag
		}
		if op := matchOperator(s[l.pos:]); op != "" {
			switch op {
			case "(", "[", "{":
				l.stack = append(l.stack, closerOf(op[0]))
			case ")", "]", "}":
				if len(l.stack) == 0 {
					return l.fail(l.pos, "unexpected '"+op+"'")
				}
				want := l.stack[len(l.stack)-1]
				l.stack = l.stack[:len(l.stack)-1]
				if want != op[0] {
					return l.fail(l.pos, "unexpected '"+op+"', expected '"+string(want)+"'")
				}
			}
			l.emit(itemOp, l.pos, op)
			l.pos += len(op)
			return lexInsideTag
		}
		_ = w
		return l.fail(l.pos, "unexpected char "+runeRepr(r)+" at "+strconv.Itoa(utf8.RuneCountInString(s[:l.pos])))
	}
}

func closerOf(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// runeRepr is repr(r) of one character, as Jinja's messages quote it.
func runeRepr(r rune) string {
	var b strings.Builder
	pystr.WriteRepr(&b, string(r))
	return b.String()
}

// matchOperator returns the operator s starts with, the longest: // ** == != >= <= or one of
// + - / * % ~ [ ] ( ) { } > < = . : | , ;
func matchOperator(s string) string {
	if len(s) >= 2 {
		switch s[:2] {
		case "//", "**", "==", "!=", ">=", "<=":
			return s[:2]
		}
	}
	if len(s) >= 1 && strings.IndexByte("+-/*%~[](){}><=.:|,;", s[0]) >= 0 {
		return s[:1]
	}
	return ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitRun matches (\d+_)*\d+ at p and returns its length.
func digitRun(s string, p int) int {
	n := 0
	for {
		q := p + n
		k := 0
		for q+k < len(s) && isDigit(s[q+k]) {
			k++
		}
		if k == 0 {
			return n
		}
		n += k
		if p+n+1 < len(s) && s[p+n] == '_' && isDigit(s[p+n+1]) {
			n++
			continue
		}
		return n
	}
}

// matchFloat matches Jinja's float_re at p: (?<!\.)(\d+_)*\d+((\.(\d+_)*\d+)?e[+-]?(\d+_)*\d+|\.(\d+_)*\d+)
func matchFloat(s string, p int) int {
	if p > 0 && s[p-1] == '.' {
		return 0
	}
	n := digitRun(s, p)
	if n == 0 {
		return 0
	}
	q := p + n
	frac := 0
	if q < len(s) && s[q] == '.' {
		frac = digitRun(s, q+1)
		if frac > 0 {
			frac++
		}
	}
	e := q + frac
	if e < len(s) && (s[e] == 'e' || s[e] == 'E') {
		f := e + 1
		if f < len(s) && (s[f] == '+' || s[f] == '-') {
			f++
		}
		if k := digitRun(s, f); k > 0 {
			return f + k - p
		}
	}
	if frac > 0 {
		return q + frac - p
	}
	return 0
}

// matchInt matches Jinja's integer_re at p (binary, octal, hex, decimal, zero).
func matchInt(s string, p int) int {
	if p+1 < len(s) && s[p] == '0' {
		var ok func(byte) bool
		switch s[p+1] {
		case 'b', 'B':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		case 'o', 'O':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		case 'x', 'X':
			ok = func(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
		}
		if ok != nil {
			// (_?[digit])+
			q := p + 2
			for {
				if q < len(s) && ok(s[q]) {
					q++
				} else if q+1 < len(s) && s[q] == '_' && ok(s[q+1]) {
					q += 2
				} else {
					break
				}
			}
			if q > p+2 {
				return q - p
			}
		}
	}
	if p >= len(s) || !isDigit(s[p]) {
		return 0
	}
	want := func(c byte) bool { return isDigit(c) }
	if s[p] == '0' {
		want = func(c byte) bool { return c == '0' }
	}
	q := p + 1
	for {
		if q < len(s) && want(s[q]) {
			q++
		} else if q+1 < len(s) && s[q] == '_' && want(s[q+1]) {
			q += 2
		} else {
			break
		}
	}
	return q - p
}

// isNameChar approximates the characters of Jinja's name pattern (\w plus combining marks).
func isNameChar(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIINameChar(byte(r))
	}
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Nl, unicode.Pc) || r == 0xb7
}

// isASCIINameChar is isNameChar for a byte below utf8.RuneSelf.
func isASCIINameChar(c byte) bool {
	return c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9'
}

// isIdentifier is str.isidentifier() for the runs isNameChar accepts.
func isIdentifier(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}
