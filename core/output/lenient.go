package output

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/value"
)

// The lenient JSON parser: recursive descent over the answer text, in the style of Go's
// encoding/json scanner but written to repair, and to say so, what judge models commonly get
// wrong. Every repair is made only where strict JSON has no reading at all, so strict JSON reads
// exactly as encoding/json reads it and produces no note. The repairs:
//
//   - trailing commas before } and ];
//   - // line and /* block */ comments;
//   - Python and other-case literals: True, False, None, TRUE, Null, …;
//   - single-quoted strings ('…') and curly quotes used as quotes (“…”, ‘…’);
//   - unquoted keys ({claim_id: "c1"});
//   - raw newlines, tabs and other control characters inside strings;
//   - invalid escapes: \' reads as ' and Markdown's \_ as _, any other (\d) is kept as written;
//   - double quotes left unescaped inside a string value ("it says "follow-up" only"): a quote
//     closes the string only when what follows it (after spaces) could follow a string there:
//     the end of the text, the container's closing bracket, or a comma followed by what the
//     container can hold next (a key and ':' in an object, a value in an array); otherwise it is
//     part of the text;
//   - a missing comma between two members or elements, when the next one clearly starts there;
//   - a leading '+' or leading zeros on a number.
//
// NaN, Infinity and numbers too large for a float64 are errors, never values.

// MaxDepth caps the nesting of objects and arrays the lenient reader reads: judges nest three or
// four levels, and the cap keeps the recursion well inside what the wasm stack holds on hostile
// input. An answer nested deeper is unreadable (answer.unreadable at the bracket past the cap).
const MaxDepth = 128

// Where a string or value is being read; it decides what may follow a closing quote.
const (
	ctxTop    = iota // a value on its own
	ctxKey           // an object key
	ctxObject        // a member value in an object
	ctxArray         // an element of an array
)

// syntaxError says where and why reading stopped.
type syntaxError struct {
	pos       int // byte offset in the source where reading stopped
	msg       string
	truncated bool      // the source ended where more was needed
	deep      bool      // nested deeper than MaxDepth
	_         [0]func() // not comparable: no equality function in the wasm
}

// message words the error for a person: a truncation says so, anything else quotes the text
// where reading stopped.
func (e *syntaxError) message(src string) string {
	if e.truncated && endsClosed(src) {
		return "the JSON never closes (" + e.msg + "), though the answer ends with a closing bracket: a quote or bracket is probably missing, unless the answer was cut off there"
	}
	if e.truncated {
		return "the answer ends inside the JSON (" + e.msg + "): it looks truncated (max_tokens too small?)"
	}
	return "cannot read the JSON: " + e.msg + "; reading stopped at " + excerpt(src, e.pos)
}

// endsClosed reports whether src ends, past spaces and a code fence, with } or ]: a reply cut
// off by max_tokens rarely does, so JSON that is still open there is more likely missing a quote
// or bracket than truncated.
func endsClosed(src string) bool {
	s := strings.TrimRight(src, " \t\r\n`")
	return strings.HasSuffix(s, "}") || strings.HasSuffix(s, "]")
}

// fix is one kind of repair, counted, with the span of its first occurrence.
type fix struct {
	what   string
	pos, n int // byte offset and length of the first occurrence
	count  int
	_      [0]func() // not comparable: no equality function in the wasm
}

type parser struct {
	src   string
	pos   int // next byte to read
	end   int // reading stops here: the end of src, or of the code fence the value is in
	depth int
	fixes []fix
	err   *syntaxError
	// spans holds where each object read starts and ends (byte offsets), so a reader can point
	// at the judge's entry a check is about.
	spans map[*value.Object][2]int
	// members holds where each member's value starts, so that a reader can find the token a
	// judge wrote a grade with (a list, not a map: one allocation for the whole answer).
	members []memberAt
	// conflicts holds the members written twice with values that differ (see Payload.Conflict).
	conflicts []conflictAt
	// partial keeps, when the text ends inside the value (a cut answer), what arrived before the
	// cut: see keep. cut holds the objects that were still open there.
	partial bool
	cut     map[*value.Object]bool
}

// keep returns x, a list or object being read, when reading has just stopped at the end of a cut
// text and the parser keeps what arrived; nil otherwise, so that a value that cannot be read is
// never half a value. What a kept container holds arrived whole: its members and elements that a
// ',' or its closing bracket followed, and the lists and objects in it that closed; the one it was
// reading at the cut is kept too (itself cut), while a text, number or word there is left out, as
// it may not have ended.
func (p *parser) keep(x any) any {
	if p.partial && p.err != nil && p.err.truncated {
		return x
	}
	return nil
}

// stop ends reading the container x at the end of the text, where what was expected.
func (p *parser) stop(x any, what string) (any, bool) {
	p.eof(what)
	return p.keep(x), false
}

// isContainer reports whether v is a list or an object: a value that has ended when it was read,
// as it ends with its closing bracket.
func isContainer(v any) bool {
	switch v.(type) {
	case []any, *value.Object:
		return true
	}
	return false
}

// note records a repair of the n bytes at byte offset at (n is 0 for an insertion point).
func (p *parser) note(what string, at, n int) {
	for i := range p.fixes {
		if p.fixes[i].what == what {
			p.fixes[i].count++
			return
		}
	}
	p.fixes = append(p.fixes, fix{what: what, pos: at, n: n, count: 1})
}

// repairs words the repairs ("repaired a trailing comma at 4:18 (and 2 more)") with the span of
// each one's first occurrence.
func (p *parser) repairs() []Repair {
	out := make([]Repair, 0, len(p.fixes))
	for _, f := range p.fixes {
		s := f.what + " at " + diag.LineCol(p.src, f.pos)
		if f.count > 1 {
			s += " (and " + strconv.Itoa(f.count-1) + " more)"
		}
		out = append(out, Repair{Code: diag.AnswerRepaired, Msg: s, Offset: f.pos, Len: f.n, Count: f.count})
	}
	return out
}

func (p *parser) fail(at int, msg string) bool {
	p.err = &syntaxError{pos: at, msg: msg}
	return false
}

// eof reports that the text ended where what was expected.
func (p *parser) eof(what string) bool {
	if p.end < len(p.src) {
		p.err = &syntaxError{pos: p.end, msg: "the code fence closes before the JSON is complete: expected " + what}
		return false
	}
	p.err = &syntaxError{pos: p.end, msg: "expected " + what, truncated: true}
	return false
}

// skipSpace skips whitespace and comments.
func (p *parser) skipSpace() {
	for p.pos < p.end {
		switch c := p.src[p.pos]; c {
		case ' ', '\t', '\n', '\r':
			p.pos++
		case '/':
			if p.pos+1 >= p.end {
				return
			}
			switch p.src[p.pos+1] {
			case '/':
				at := p.pos
				if i := strings.IndexByte(p.src[p.pos:p.end], '\n'); i >= 0 {
					p.pos += i + 1
				} else {
					p.pos = p.end
				}
				p.note("ignored a // comment", at, len(strings.TrimRight(p.src[at:p.pos], "\r\n")))
			case '*':
				at := p.pos
				if i := strings.Index(p.src[p.pos+2:p.end], "*/"); i >= 0 {
					p.pos += 2 + i + 2
				} else {
					p.pos = p.end
				}
				p.note("ignored a /* */ comment", at, p.pos-at)
			default:
				return
			}
		default:
			if c < utf8.RuneSelf {
				return
			}
			r, size := utf8.DecodeRuneInString(p.src[p.pos:p.end])
			if r != '\u00a0' && r != '\ufeff' {
				return
			}
			p.note("read a non-breaking space or byte-order mark as a space", p.pos, size)
			p.pos += size
		}
	}
}

// spaceFrom returns the offset of the first byte from i on that is not whitespace, treating a
// comment's start as a token (it ends whatever came before).
func (p *parser) spaceFrom(i int) int {
	for i < p.end {
		switch p.src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value := object | array | string | number | literal
func (p *parser) value(ctx int) (any, bool) {
	p.skipSpace()
	if p.pos >= p.end {
		return nil, p.eof("a value")
	}
	c := p.src[p.pos]
	switch {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'':
		return p.text(ctx)
	case c == '-' || c == '+' || '0' <= c && c <= '9':
		return p.number()
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:p.end])
	if quoteFamily(r) != 0 {
		return p.text(ctx)
	}
	if isIdentRune(r) {
		return p.literal()
	}
	return nil, p.fail(p.pos, "expected a value, found "+describeAt(p.src, p.pos))
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > MaxDepth {
		p.err = &syntaxError{pos: p.pos, msg: "the JSON is nested deeper than " + strconv.Itoa(MaxDepth) + " levels", deep: true}
		return false
	}
	return true
}

// object := '{' [ member { ',' member } [','] ] '}'
// member := key ':' value
// A missing ',' between members is repaired when a key and ':' clearly follow.
func (p *parser) object() (any, bool) {
	if !p.enter() {
		return nil, false
	}
	defer func() { p.depth-- }()
	start := p.pos
	p.pos++ // '{'
	obj := &value.Object{}
	defer func() {
		switch {
		case p.err == nil:
			p.span(obj, start, p.pos)
		case p.keep(obj) != nil:
			p.span(obj, start, p.end)
			if p.cut == nil {
				p.cut = map[*value.Object]bool{}
			}
			p.cut[obj] = true
		}
	}()
	p.skipSpace()
	if p.pos < p.end && p.src[p.pos] == '}' {
		p.pos++
		return obj, true
	}
	for {
		p.skipSpace()
		if p.pos >= p.end {
			return p.stop(obj, `a key or "}"`)
		}
		keyAt := p.pos
		key, ok := p.key()
		if !ok {
			return p.keep(obj), false
		}
		keyEnd := p.pos
		p.skipSpace()
		if p.pos >= p.end {
			return p.stop(obj, `":" after the key `+diag.Quote(key))
		}
		if p.src[p.pos] != ':' {
			return nil, p.fail(p.pos, `expected ":" after the key `+diag.Quote(key)+", found "+describeAt(p.src, p.pos))
		}
		p.pos++
		p.skipSpace()
		valueAt := p.pos
		v, ok := p.value(ctxObject)
		if !ok {
			if v != nil {
				obj.Set(key, v) // a list or object cut short, kept as far as it arrived
			}
			return p.keep(obj), false
		}
		p.skipSpace()
		if p.pos >= p.end {
			if isContainer(v) {
				obj.Set(key, v)
			}
			return p.stop(obj, `"," or "}" after the value of `+diag.Quote(key))
		}
		if old, dup := obj.Get(key); dup {
			p.note("the key "+diag.Quote(key)+" appears twice, the last value is used", keyAt, keyEnd-keyAt)
			if !sameValue(old, v) {
				first := 0
				for k := len(p.members) - 1; k >= 0; k-- {
					if m := p.members[k]; m.obj == obj && m.key == key {
						first = m.off
						break
					}
				}
				p.conflicts = append(p.conflicts, conflictAt{obj: obj, key: key, first: first, last: valueAt})
			}
		}
		obj.Set(key, v)
		p.members = append(p.members, memberAt{obj, key, valueAt})
		switch p.src[p.pos] {
		case '}':
			p.pos++
			return obj, true
		case ',':
			comma := p.pos
			p.pos++
			p.skipSpace()
			if p.pos >= p.end {
				return p.stop(obj, `a key or "}"`)
			}
			if p.src[p.pos] == '}' {
				p.note("repaired a trailing comma", comma, 1)
				p.pos++
				return obj, true
			}
		default:
			if !p.keyAhead(p.pos) {
				return nil, p.fail(p.pos, `expected "," or "}" after the value of `+diag.Quote(key)+", found "+describeAt(p.src, p.pos))
			}
			p.note("inserted a missing comma", p.pos, 0)
		}
	}
}

// conflictAt is a member of obj written twice with values that differ: where each starts.
type conflictAt struct {
	obj         *value.Object
	key         string
	first, last int
}

// sameValue reports whether a and b are the same JSON value (numbers by value).
func sameValue(a, b any) bool {
	x, err1 := value.Marshal(a)
	y, err2 := value.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// memberAt is where the value of obj's member key starts in the source.
type memberAt struct {
	obj *value.Object
	key string
	off int
}

// span records that obj spans the bytes start..end of the source.
func (p *parser) span(obj *value.Object, start, end int) {
	if p.spans == nil {
		p.spans = map[*value.Object][2]int{}
	}
	p.spans[obj] = [2]int{start, end}
}

// key := string | identifier
func (p *parser) key() (string, bool) {
	c := p.src[p.pos]
	if c == '"' || c == '\'' {
		return p.str(ctxKey)
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:p.end])
	if quoteFamily(r) != 0 {
		return p.str(ctxKey)
	}
	if isIdentRune(r) {
		start := p.pos
		p.pos = p.identEnd(p.pos)
		p.note("read an unquoted key", start, p.pos-start)
		return p.src[start:p.pos], true
	}
	return "", p.fail(p.pos, "expected a key in quotes, found "+describeAt(p.src, p.pos))
}

// array := '[' [ value { ',' value } [','] ] ']'
// A missing ',' between elements is repaired when a value clearly starts there.
func (p *parser) array() (any, bool) {
	if !p.enter() {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.pos++ // '['
	list := []any{}
	p.skipSpace()
	if p.pos < p.end && p.src[p.pos] == ']' {
		p.pos++
		return list, true
	}
	for {
		v, ok := p.value(ctxArray)
		if !ok {
			if v != nil {
				list = append(list, v) // a list or object cut short, kept as far as it arrived
			}
			return p.keep(list), false
		}
		p.skipSpace()
		if p.pos >= p.end {
			n := len(list) + 1
			if isContainer(v) {
				list = append(list, v)
			}
			return p.stop(list, `"," or "]" after element `+strconv.Itoa(n)+" of a list")
		}
		list = append(list, v)
		switch p.src[p.pos] {
		case ']':
			p.pos++
			return list, true
		case ',':
			comma := p.pos
			p.pos++
			p.skipSpace()
			if p.pos >= p.end {
				return p.stop(list, `a value or "]"`)
			}
			if p.src[p.pos] == ']' {
				p.note("repaired a trailing comma", comma, 1)
				p.pos++
				return list, true
			}
		default:
			if !p.valueAhead(p.pos) {
				return nil, p.fail(p.pos, `expected "," or "]" after element `+strconv.Itoa(len(list))+" of a list, found "+describeAt(p.src, p.pos))
			}
			p.note("inserted a missing comma", p.pos, 0)
		}
	}
}

// text reads a string value: nil when it cannot be read, never half a text.
func (p *parser) text(ctx int) (any, bool) {
	s, ok := p.str(ctx)
	if !ok {
		return nil, false
	}
	return s, true
}

// str := '"' chars '"'; repaired: '\” chars '\” | curly-open chars curly-close
// Keys close at their first closing quote; values close by what follows the quote (see the
// comment at the top of this file).
func (p *parser) str(ctx int) (string, bool) {
	open := p.pos
	openRune, size := utf8.DecodeRuneInString(p.src[p.pos:p.end])
	family := quoteFamily(openRune)
	switch r := openRune; {
	case r == '\'':
		p.note("read a single-quoted string", open, 1)
	case r != '"':
		p.note("read curly quotes as quotes", open, size)
	}
	p.pos += size
	var b strings.Builder
	for {
		// Copy the run of ordinary bytes at once.
		run := p.pos
		for run < p.end {
			c := p.src[run]
			if c == '\\' || c == '"' || c == '\'' || c < 0x20 || c >= utf8.RuneSelf {
				break
			}
			run++
		}
		b.WriteString(p.src[p.pos:run])
		p.pos = run
		if p.pos >= p.end {
			return "", p.eof("the end of the string that starts at " + diag.LineCol(p.src, open))
		}
		c := p.src[p.pos]
		switch {
		case c == '\\':
			if !p.escape(&b, family) {
				return "", false
			}
			continue
		case c < 0x20:
			switch c {
			case '\n', '\r':
				p.note("read a raw line break inside a string", p.pos, 1)
			case '\t':
				p.note("read a raw tab inside a string", p.pos, 1)
			default:
				p.note("read a raw control character inside a string", p.pos, 1)
			}
			b.WriteByte(c)
			p.pos++
			continue
		}
		r, size := utf8.DecodeRuneInString(p.src[p.pos:p.end])
		if closes(openRune, r) {
			if ctx == ctxKey || ctx == ctxTop || p.closesAt(p.pos+size, ctx) {
				p.pos += size
				return b.String(), true
			}
			p.note("read an unescaped quote inside a string as part of the text", p.pos, size)
		}
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError) // as encoding/json reads a byte that is not UTF-8
		} else {
			b.WriteString(p.src[p.pos : p.pos+size])
		}
		p.pos += size
	}
}

// quoteFamily returns the straight double quote for the double quotes (straight and curly),
// the apostrophe for the single ones, and 0 for any other rune.
func quoteFamily(r rune) rune {
	switch r {
	case '"', '“', '”':
		return '"'
	case '\'', '‘', '’':
		return '\''
	}
	return 0
}

// closes reports whether the quote r closes a string opened with the quote o: a straight quote
// closes only the string it opened, a curly one any curly string of its family.
func closes(o, r rune) bool {
	if o == '"' || o == '\'' {
		return r == o
	}
	return r != '"' && r != '\'' && quoteFamily(r) == quoteFamily(o)
}

// closesAt reports whether a quote ending at i closes a string read in ctx: only if what follows
// could follow a string there.
func (p *parser) closesAt(i, ctx int) bool {
	quoteEnd := i
	i = p.spaceFrom(i)
	if i >= p.end {
		return true
	}
	c := p.src[i]
	if c == '/' && i+1 < p.end && (p.src[i+1] == '/' || p.src[i+1] == '*') {
		return true
	}
	switch ctx {
	case ctxObject:
		if c == '}' {
			return true
		}
		if c == ',' {
			j := p.spaceFrom(i + 1)
			return j >= p.end || p.src[j] == '}' || p.keyAhead(j)
		}
		// A missing comma: the next member starts on a later line.
		return strings.IndexByte(p.src[quoteEnd:i], '\n') >= 0 && p.keyAhead(i)
	case ctxArray:
		if c == ']' {
			return true
		}
		if c == ',' {
			j := p.spaceFrom(i + 1)
			return j >= p.end || p.src[j] == ']' || p.valueAhead(j)
		}
	}
	return false
}

// keyAhead reports whether a key and ':' start at i: a quoted key on one line, or an identifier.
func (p *parser) keyAhead(i int) bool {
	if i >= p.end {
		return false
	}
	r, size := utf8.DecodeRuneInString(p.src[i:p.end])
	var j int
	switch {
	case quoteFamily(r) != 0:
		j = i + size
		for {
			if j >= p.end || p.src[j] == '\n' {
				return false
			}
			if p.src[j] == '\\' {
				j += 2
				continue
			}
			q, qs := utf8.DecodeRuneInString(p.src[j:p.end])
			j += qs
			if quoteFamily(q) == quoteFamily(r) {
				break
			}
		}
	case isIdentRune(r):
		j = p.identEnd(i)
	default:
		return false
	}
	j = p.spaceFrom(j)
	return j < p.end && p.src[j] == ':'
}

// valueAhead reports whether a value clearly starts at i.
func (p *parser) valueAhead(i int) bool {
	if i >= p.end {
		return false
	}
	c := p.src[i]
	switch {
	case c == '{' || c == '[' || c == '"' || c == '\'' || c == '-' || '0' <= c && c <= '9':
		return true
	}
	r, _ := utf8.DecodeRuneInString(p.src[i:p.end])
	if quoteFamily(r) != 0 {
		return true
	}
	if isIdentRune(r) {
		_, ok := literals[strings.ToLower(p.src[i:p.identEnd(i)])]
		return ok
	}
	return false
}

// escape reads one backslash escape into b.
func (p *parser) escape(b *strings.Builder, family rune) bool {
	at := p.pos
	p.pos++ // '\\'
	if p.pos >= p.end {
		return p.eof("an escape after \\")
	}
	c := p.src[p.pos]
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case '\'':
		if family != '\'' {
			p.note(`read the invalid escape \' as '`, at, 2)
		}
		b.WriteByte('\'')
	case '_':
		// Markdown's escape: a judge writing JSON as Markdown text escapes underscores
		// ("claim\_id"), which would otherwise keep its keys from matching.
		p.note(`read the Markdown escape \_ as _`, at, 2)
		b.WriteByte('_')
	case 'u':
		r, ok, short := p.hex4(p.pos + 1)
		if short {
			return p.eof("four hex digits after \\u")
		}
		if !ok {
			p.note(`kept an invalid \u escape as written`, at, 2)
			b.WriteString(`\u`)
			break
		}
		p.pos += 4
		if 0xd800 <= r && r < 0xdc00 {
			// A UTF-16 surrogate pair, as JSON writes characters beyond the BMP.
			if p.pos+2 < p.end && p.src[p.pos+1] == '\\' && p.src[p.pos+2] == 'u' {
				if lo, ok, _ := p.hex4(p.pos + 3); ok && 0xdc00 <= lo && lo < 0xe000 {
					r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
					p.pos += 6
				}
			}
		}
		if 0xd800 <= r && r < 0xe000 {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	default:
		r, size := utf8.DecodeRuneInString(p.src[p.pos:p.end])
		p.note(`kept an invalid escape such as \`+string(r)+` as written`, at, 1+size)
		b.WriteByte('\\')
		b.WriteString(p.src[p.pos : p.pos+size])
		p.pos += size
		return true
	}
	p.pos++
	return true
}

// hex4 reads four hex digits at i. short reports that the text ends before them.
func (p *parser) hex4(i int) (r rune, ok, short bool) {
	for k := 0; k < 4; k++ {
		if i+k >= p.end {
			return 0, false, true
		}
		c := p.src[i+k]
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false, false
		}
		r = r<<4 | rune(d)
	}
	return r, true, false
}

// number := ['-'] int [ '.' digits ] [ ('e'|'E') ['+'|'-'] digits ]
// int := '0' | digit1-9 { digit }; a leading '+' and leading zeros are repaired.
func (p *parser) number() (any, bool) {
	if p.src[p.pos] == '+' {
		p.note("read a number with a leading +", p.pos, 1)
		p.pos++
	}
	start := p.pos
	if p.pos < p.end && p.src[p.pos] == '-' {
		p.pos++
	}
	digits := func() bool {
		if p.pos >= p.end {
			return p.eof("a digit")
		}
		if c := p.src[p.pos]; c < '0' || c > '9' {
			return p.fail(p.pos, "expected a digit, found "+describeAt(p.src, p.pos))
		}
		for p.pos < p.end && '0' <= p.src[p.pos] && p.src[p.pos] <= '9' {
			p.pos++
		}
		return true
	}
	intStart := p.pos
	if !digits() {
		return nil, false
	}
	if p.src[intStart] == '0' && p.pos-intStart > 1 {
		p.note("read a number with leading zeros", intStart, p.pos-intStart)
	}
	if p.pos < p.end && p.src[p.pos] == '.' {
		p.pos++
		if !digits() {
			return nil, false
		}
	}
	if p.pos < p.end && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < p.end && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if !digits() {
			return nil, false
		}
	}
	if p.pos < p.end {
		if r, _ := utf8.DecodeRuneInString(p.src[p.pos:p.end]); isIdentRune(r) {
			return nil, p.fail(p.pos, "unexpected "+describeAt(p.src, p.pos)+" after the number "+p.src[start:p.pos])
		}
	}
	lit := strings.TrimLeft(p.src[start:p.pos], "-")
	lit = strings.TrimLeft(lit, "0")
	if lit == "" || lit[0] == '.' || lit[0] == 'e' || lit[0] == 'E' {
		lit = "0" + lit
	}
	if p.src[start] == '-' {
		lit = "-" + lit
	}
	v := value.Number(lit)
	if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
		return nil, p.fail(start, "the number "+p.src[start:p.pos]+" is too large")
	}
	return v, true
}

// literals maps the lowercased words that read as JSON literals to their values.
var literals = map[string]any{"true": true, "false": false, "null": nil, "none": nil}

// literal := 'true' | 'false' | 'null'; repaired: Python True False None, any other case.
func (p *parser) literal() (any, bool) {
	start := p.pos
	p.pos = p.identEnd(p.pos)
	w := p.src[start:p.pos]
	lower := strings.ToLower(w)
	v, ok := literals[lower]
	if ok {
		if w != lower || lower == "none" {
			json := lower
			if lower == "none" {
				json = "null"
			}
			what := "read " + w + " as " + json
			if w == "True" || w == "False" || w == "None" {
				what = "read Python " + w + " as " + json
			}
			p.note(what, start, p.pos-start)
		}
		return v, true
	}
	if p.pos >= p.end && lower != "" {
		for word := range literals {
			if strings.HasPrefix(word, lower) {
				return nil, p.eof("the rest of " + diag.Quote(w))
			}
		}
	}
	switch lower {
	case "nan", "infinity", "inf", "undefined":
		return nil, p.fail(start, w+" is not a JSON value")
	}
	return nil, p.fail(start, "unexpected word "+diag.Quote(diag.Clip(w, 24))+" (text values must be in quotes)")
}

// isIdentRune reports whether r may appear in an unquoted key or literal.
func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' ||
		r >= utf8.RuneSelf && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// identEnd returns the end of the identifier (letters, digits, _, $ and inner -) starting at i.
func (p *parser) identEnd(i int) int {
	for i < p.end {
		r, size := utf8.DecodeRuneInString(p.src[i:p.end])
		if !isIdentRune(r) && !(r == '-' && i+1 < p.end && p.src[i+1] != '-') {
			break
		}
		i += size
	}
	return i
}

// describeAt words the token at off for an error message: `"x"`, or "the end of the text".
func describeAt(src string, off int) string {
	if off >= len(src) {
		return "the end of the text"
	}
	r, size := utf8.DecodeRuneInString(src[off:])
	if r == utf8.RuneError && size <= 1 {
		return "a byte that is not UTF-8"
	}
	return diag.Quote(string(r))
}
