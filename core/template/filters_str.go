package template

// The text filters: capitalize, title, center, indent, truncate, wordcount, wordwrap,
// striptags, escape and its kin, urlencode, xmlattr, filesizeformat.

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/exact"
	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// strFilter applies f to soft_str(v); the result is Markup when v is and keep is set (the
// str methods markupsafe wraps).
func strFilter(v any, keep bool, f func(string) string) (any, error) {
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	out := f(s)
	if _, ok := v.(markup); ok && keep {
		return markup(out), nil
	}
	return out, nil
}

func filterString(v any, _ []any) (any, error) {
	if m, ok := v.(markup); ok {
		return m, nil
	}
	return pyStr(v)
}

// titleSpecial holds the code points whose str.title() is not their str.upper() with all but
// the first code point lowercased: "\x00", the code point, "\x01", its titlecase.
const titleSpecial = "\x00\u0149\x01\u02bcN\x00\u1fb2\x01\u1fba\u0345\x00\u1fb4\x01\u0386\u0345\x00\u1fb7\x01\u0391\u0342\u0345" +
	"\x00\u1fc2\x01\u1fca\u0345\x00\u1fc4\x01\u0389\u0345\x00\u1fc7\x01\u0397\u0342\u0345\x00\u1ff2\x01\u1ffa\u0345" +
	"\x00\u1ff4\x01\u038f\u0345\x00\u1ff7\x01\u03a9\u0342\u0345"

// pyTitleRune is the full titlecase of r, what str.capitalize() makes of a first character.
func pyTitleRune(r rune) string {
	if r < 0x80 {
		return pyUpper(string(r))
	}
	if i := strings.Index(titleSpecial, "\x00"+string(r)+"\x01"); i >= 0 {
		m := titleSpecial[i+2+utf8.RuneLen(r):]
		if j := strings.IndexByte(m, 0); j >= 0 {
			m = m[:j]
		}
		return m
	}
	if (r >= 0x1f80 && r <= 0x1faf) || r == 0x1fb3 || r == 0x1fbc || r == 0x1fc3 || r == 0x1fcc || r == 0x1ff3 || r == 0x1ffc {
		return string(unicode.ToTitle(r))
	}
	if up, ok := upperSpecial(r); ok {
		first, w := utf8.DecodeRuneInString(up)
		return string(first) + pyLower(up[w:])
	}
	return string(unicode.ToTitle(r))
}

// pyCapitalize is str.capitalize(): the first character titlecased, the rest lowercased (with
// the final-sigma rule seeing the whole string).
func pyCapitalize(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case i == 0:
			b.WriteString(pyTitleRune(r))
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3a3:
			if finalSigma(s, i) {
				b.WriteRune(0x3c2)
			} else {
				b.WriteRune(0x3c3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// jinjaTitle is do_title: the text split at runs of -, whitespace, (, {, [ and <; each piece's
// first character upper-cased and the rest lower-cased.
func jinjaTitle(s string) string {
	isSep := func(r rune) bool {
		return r == '-' || r == '(' || r == '{' || r == '[' || r == '<' || pystr.IsSpace(r)
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		j := i
		r, _ := utf8.DecodeRuneInString(s[i:])
		sep := isSep(r)
		for j < len(s) {
			r, w := utf8.DecodeRuneInString(s[j:])
			if isSep(r) != sep {
				break
			}
			j += w
		}
		piece := s[i:j]
		if sep {
			b.WriteString(piece)
		} else {
			_, w := utf8.DecodeRuneInString(piece)
			b.WriteString(pyUpper(piece[:w]))
			b.WriteString(pyLower(piece[w:]))
		}
		i = j
	}
	return b.String()
}

// filterTitle is do_title, charged before the work for each character that starts a word: each
// word costs two case mappings, about 16 steps' worth.
func filterTitle(c *callCtx, v any, _ *bound) (any, error) {
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("-({[< \t\n\r\f\v", s[i]) >= 0 {
			n++
		}
	}
	if err := c.ev.step(c.pos, n*16); err != nil {
		return nil, err
	}
	return jinjaTitle(s), nil
}

func filterCenter(v any, a []any) (any, error) {
	width, err := asIndex(a[0])
	if err != nil {
		return nil, err
	}
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	n := utf8.RuneCountInString(s)
	if width > n {
		if width-n+len(s) > maxOutput {
			return nil, tooLong()
		}
		marg := width - n
		left := marg/2 + (marg & width & 1)
		s = strings.Repeat(" ", left) + s + strings.Repeat(" ", marg-left)
	}
	if _, ok := v.(markup); ok {
		return markup(s), nil
	}
	return s, nil
}

// pySplitLines is str.splitlines(): the line breaks Python knows, \r\n as one.
func pySplitLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			lines = append(lines, s[start:i])
			if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				w = 2
			}
			start = i + w
		}
		i += w
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

func filterIndent(c *callCtx, v any, b *bound) (any, error) {
	var ind string
	switch w := b.args[0].(type) {
	case string, markup:
		ind = strOf(w)
	case bool, int64, *exact.Int:
		n, err := asIndex(w)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			if n > maxOutput {
				return nil, tooLong()
			}
			ind = strings.Repeat(" ", n)
		}
	default:
		return nil, typeErr("can't multiply sequence by non-int of type '%s'", pyTypeName(w))
	}
	var s string
	switch t := v.(type) {
	case string, markup:
		s = strOf(t)
	case *undefined:
		return nil, undefErr(t)
	case []any:
		return nil, &pyError{msg: "AttributeError: 'list' object has no attribute 'splitlines'"}
	case tuple:
		return nil, typeErr("can only concatenate tuple (not \"str\") to tuple")
	default:
		return nil, typeErr("unsupported operand type(s) for +=: '%s' and 'str'", pyTypeName(v))
	}
	first, err := truthy(b.args[1])
	if err != nil {
		return nil, err
	}
	blank, err := truthy(b.args[2])
	if err != nil {
		return nil, err
	}
	nl := strings.Count(s, "\n") + 1
	if err := c.ev.step(c.pos, nl*stepsPerItem+nl*len(ind)/bytesPerStep); err != nil {
		return nil, err
	}
	lines := pySplitLines(s + "\n")
	var out strings.Builder
	for i, line := range lines {
		if i > 0 {
			out.WriteByte('\n')
			if blank || line != "" {
				out.WriteString(ind)
			}
		}
		out.WriteString(line)
		if out.Len() > maxOutput {
			return nil, tooLong()
		}
	}
	rv := out.String()
	if first {
		rv = ind + rv
	}
	if _, ok := v.(markup); ok {
		return markup(rv), nil
	}
	return rv, nil
}

// filterTruncate is do_truncate with the default policy truncate.leeway = 5.
func filterTruncate(v any, a []any) (any, error) {
	length, killwords, end, leeway := a[0], a[1], a[2], a[3]
	if leeway == nil {
		leeway = int64(5)
	}
	endLen, err := pyLen(end)
	if err != nil {
		return nil, err
	}
	ge, err := compareOp(">=", length, endLen)
	if err != nil {
		return nil, err
	}
	if !ge {
		r, _ := pyStr(length)
		return nil, &pyError{msg: "AssertionError: expected length >= " + itoa(int(endLen)) + ", got " + r}
	}
	ok, err := compareOp(">=", leeway, int64(0))
	if err != nil {
		return nil, err
	}
	if !ok {
		r, _ := pyStr(leeway)
		return nil, &pyError{msg: "AssertionError: expected leeway >= 0, got " + r}
	}
	n, err := pyLen(v)
	if err != nil {
		return nil, err
	}
	limit, err := binaryOp("+", length, leeway)
	if err != nil {
		return nil, err
	}
	if le, err := compareOp("<=", n, limit); err != nil || le {
		return v, err
	}
	s, isStr := v.(string)
	m, isMarkup := v.(markup)
	if !isStr && !isMarkup {
		return nil, notSupported("truncate of a " + pyTypeName(v))
	}
	if isMarkup {
		s = string(m)
	}
	endStr, ok := end.(string)
	if !ok {
		return nil, notSupported("a truncate end that is not a str")
	}
	cutAt, err := binaryOp("-", length, endLen)
	if err != nil {
		return nil, err
	}
	cut, err := asIndex(cutAt)
	if err != nil {
		return nil, typeErr("slice indices must be integers or None or have an __index__ method")
	}
	head := runeSlice(s, cut)
	kill, err := truthy(killwords)
	if err != nil {
		return nil, err
	}
	if !kill {
		if i := strings.LastIndexByte(head, ' '); i >= 0 {
			head = head[:i]
		}
	}
	if isMarkup {
		return markup(head + htmlEscape(endStr)), nil
	}
	return head + endStr, nil
}

// runeSlice is s[:n] in Python (n counts code points; negative counts from the end).
func runeSlice(s string, n int) string {
	count := utf8.RuneCountInString(s)
	if n < 0 {
		n += count
		if n < 0 {
			n = 0
		}
	}
	if n >= count {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// isWordRune is Python's \w: a letter, a digit or other number, or the underscore.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

func filterWordcount(v any, _ []any) (any, error) {
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	n := int64(0)
	in := false
	for _, r := range s {
		w := isWordRune(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n, nil
}

// filterWordwrap is do_wordwrap: textwrap.wrap of each line with expand_tabs and
// replace_whitespace off. Words are split at ASCII whitespace only (textwrap's own set); with
// break_on_hyphens, a chunk holding a hyphen is "not supported" (textwrap's hyphen rules are a
// regular expression of lookbehinds not reproduced here).
func filterWordwrap(c *callCtx, v any, b *bound) (any, error) {
	var s string
	switch t := v.(type) {
	case string, markup:
		s = strOf(t)
	case *undefined:
		return nil, undefErr(t)
	default:
		return nil, &pyError{msg: "AttributeError: '" + pyTypeName(v) + "' object has no attribute 'splitlines'"}
	}
	width, ok := b.args[0].(int64)
	if !ok {
		if _, isBool := b.args[0].(bool); !isBool {
			return nil, notSupported("a wordwrap width of type " + pyTypeName(b.args[0]))
		}
		width, _ = small(b.args[0])
	}
	breakLong, err := truthy(b.args[1])
	if err != nil {
		return nil, err
	}
	wrapstring := "\n"
	if b.args[2] != nil {
		ws, ok := b.args[2].(string)
		if !ok {
			return nil, notSupported("a wrapstring that is not a str")
		}
		wrapstring = ws
	}
	hyphens, err := truthy(b.args[3])
	if err != nil {
		return nil, err
	}
	// textwrap makes a list of every word and space: a step for each byte.
	if err := c.ev.step(c.pos, len(s)); err != nil {
		return nil, err
	}
	var out strings.Builder
	for i, line := range pySplitLines(s) {
		if i > 0 {
			out.WriteString(wrapstring)
		}
		wrapped, err := textwrap(line, width, breakLong, hyphens)
		if err != nil {
			return nil, err
		}
		for j, w := range wrapped {
			if j > 0 {
				out.WriteString(wrapstring)
			}
			out.WriteString(w)
			if out.Len() > maxOutput {
				return nil, tooLong()
			}
		}
	}
	return out.String(), nil
}

func isTextwrapSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
}

// textwrap is textwrap.wrap(text, width, expand_tabs=False, replace_whitespace=False,
// break_long_words, break_on_hyphens): TextWrapper._wrap_chunks over its chunks.
func textwrap(text string, width int64, breakLong, hyphens bool) ([]string, error) {
	if width <= 0 {
		return nil, valueErr("invalid width %s (must be > 0)", width)
	}
	// The chunks: runs of whitespace and runs of anything else, as []rune for len().
	var chunks [][]rune
	var cur []rune
	curSpace := false
	for _, r := range text {
		sp := isTextwrapSpace(r)
		if len(cur) > 0 && sp != curSpace {
			chunks = append(chunks, cur)
			cur = nil
		}
		cur = append(cur, r)
		curSpace = sp
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	for _, ch := range chunks {
		if hyphens && strings.ContainsRune(string(ch), '-') {
			return nil, notSupported("wordwrap of words with hyphens unless break_on_hyphens=false")
		}
	}
	blank := func(ch []rune) bool {
		for _, r := range ch {
			if !pystr.IsSpace(r) {
				return false
			}
		}
		return true
	}
	// chunks is used from the end, as the reversed list of textwrap.
	for i, j := 0, len(chunks)-1; i < j; i, j = i+1, j-1 {
		chunks[i], chunks[j] = chunks[j], chunks[i]
	}
	var lines []string
	for len(chunks) > 0 {
		var line [][]rune
		curLen := int64(0)
		if blank(chunks[len(chunks)-1]) && len(lines) > 0 {
			chunks = chunks[:len(chunks)-1]
		}
		for len(chunks) > 0 {
			l := int64(len(chunks[len(chunks)-1]))
			if curLen+l > width {
				break
			}
			line = append(line, chunks[len(chunks)-1])
			chunks = chunks[:len(chunks)-1]
			curLen += l
		}
		if len(chunks) > 0 && int64(len(chunks[len(chunks)-1])) > width {
			spaceLeft := width - curLen
			if width < 1 {
				spaceLeft = 1
			}
			if breakLong {
				ch := chunks[len(chunks)-1]
				line = append(line, ch[:spaceLeft])
				chunks[len(chunks)-1] = ch[spaceLeft:]
			} else if len(line) == 0 {
				line = append(line, chunks[len(chunks)-1])
				chunks = chunks[:len(chunks)-1]
			}
		}
		if len(line) > 0 && blank(line[len(line)-1]) {
			line = line[:len(line)-1]
		}
		if len(line) > 0 {
			var sb strings.Builder
			for _, ch := range line {
				sb.WriteString(string(ch))
			}
			lines = append(lines, sb.String())
		}
	}
	return lines, nil
}

// filterStriptags is Markup(str(v)).striptags(): comments and tags removed, whitespace runs
// made one space, then html.unescape. Character references other than the common named ones
// and plain numeric ones are "not supported" (html.unescape knows 2,231 names).
func filterStriptags(v any, _ []any) (any, error) {
	s, err := pyStr(v)
	if err != nil {
		return nil, err
	}
	s = removeBetween(s, "<!--", "-->")
	s = removeBetween(s, "<", ">")
	s = strings.Join(strings.FieldsFunc(s, pystr.IsSpace), " ")
	return htmlUnescape(s)
}

// removeBetween removes each shortest open…close span, as re.sub(open + ".*?" + close, "").
func removeBetween(s, open, close string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		j := strings.Index(s[i+len(open):], close)
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+len(open)+j+len(close):]
	}
	b.WriteString(s)
	return b.String()
}

var namedRefs = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "nbsp": "\u00a0"}

// htmlUnescape is html.unescape for the references it can do exactly.
func htmlUnescape(s string) (any, error) {
	if !strings.Contains(s, "&") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		if s == "" || strings.IndexByte("\t\n\f <&", s[0]) >= 0 {
			b.WriteByte('&')
			continue
		}
		if s[0] == '#' {
			j := 1
			hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
			if hex {
				j++
			}
			k := j
			for k < len(s) && (isDigit(s[k]) || hex && strings.IndexByte("abcdefABCDEF", s[k]) >= 0) {
				k++
			}
			if k == j {
				b.WriteByte('&')
				continue
			}
			base := 10
			if hex {
				base = 16
			}
			n, err := exact.ParseInt(s[j:k], base, 32)
			if err != nil || !(n == 9 || n == 10 || n >= 0x20 && n < 0x7f || n >= 0xa0 && n < 0xd800 || n >= 0xe000 && n < 0xfdd0 || n > 0xfdef && n < 0xfffe) {
				return nil, notSupported("striptags of the character reference &" + s[:k])
			}
			b.WriteRune(rune(n))
			if k < len(s) && s[k] == ';' {
				k++
			}
			s = s[k:]
			continue
		}
		k := 0
		for k < len(s) && k < 32 && strings.IndexByte("\t\n\f <&#;", s[k]) < 0 {
			k++
		}
		if k < len(s) && s[k] == ';' {
			if r, ok := namedRefs[s[:k]]; ok {
				b.WriteString(r)
				s = s[k+1:]
				continue
			}
		}
		return nil, notSupported("striptags of the character reference &" + s[:k])
	}
	return b.String(), nil
}

func filterForceescape(v any, _ []any) (any, error) {
	if m, ok := v.(markup); ok {
		return markup(htmlEscape(string(m))), nil
	}
	return escapeValue(v)
}

func filterSafe(v any, _ []any) (any, error) {
	s, err := pyStr(v)
	return markup(s), err
}

// urlQuote is Jinja's url_quote: quote_from_bytes of the UTF-8, with "/" safe except in a
// query string, where a space becomes "+".
func urlQuote(v any, forQS bool) (string, error) {
	s, err := pyStr(v)
	if err != nil {
		return "", err
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.-~", c) >= 0 || c == '/' && !forQS:
			b.WriteByte(c)
		case c == ' ' && forQS:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String(), nil
}

func filterUrlencode(v any, _ []any) (any, error) {
	var items []any
	switch t := v.(type) {
	case string, markup, nil, bool, int64, *exact.Int, float64:
		return urlQuote(v, false)
	case *value.Object:
		items = viewItems(&dictView{obj: t})
	default:
		var err error
		if items, err = iterate(v); err != nil {
			if _, ok := v.(*undefined); ok {
				return nil, err
			}
			return urlQuote(v, false)
		}
	}
	var b strings.Builder
	for i, it := range items {
		pair, err := iterate(normalize(it))
		if err != nil {
			return nil, typeErr("cannot unpack non-iterable %s object", pyTypeName(it))
		}
		if len(pair) > 2 {
			return nil, valueErr("too many values to unpack (expected 2)")
		}
		if len(pair) < 2 {
			return nil, valueErr("not enough values to unpack (expected 2, got %s)", len(pair))
		}
		k, err := urlQuote(normalize(pair[0]), true)
		if err != nil {
			return nil, err
		}
		val, err := urlQuote(normalize(pair[1]), true)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k + "=" + val)
	}
	return b.String(), nil
}

func filterXmlattr(v any, a []any) (any, error) {
	d, ok := v.(*value.Object)
	if !ok {
		if u, ok := v.(*undefined); ok {
			return nil, undefErr(u)
		}
		return nil, &pyError{msg: "AttributeError: '" + pyTypeName(v) + "' object has no attribute 'items'"}
	}
	var parts []string
	for _, k := range d.Keys() {
		x, _ := d.Get(k)
		x = normalize(x)
		if x == nil {
			continue
		}
		if _, ok := x.(*undefined); ok {
			continue
		}
		if strings.ContainsAny(k, " \t\n\r\f\v/>=") {
			var r strings.Builder
			pystr.WriteRepr(&r, k)
			return nil, valueErr("Invalid character in attribute name: %s", r.String())
		}
		ev, err := escapeValue(x)
		if err != nil {
			return nil, err
		}
		parts = append(parts, htmlEscape(k)+`="`+string(ev)+`"`)
	}
	rv := strings.Join(parts, " ")
	auto, err := truthy(a[0])
	if err != nil {
		return nil, err
	}
	if auto && rv != "" {
		rv = " " + rv
	}
	return rv, nil
}

// filterFilesizeformat is do_filesizeformat: float(value) in Bytes, or kB… (MiB… when binary)
// with one decimal.
func filterFilesizeformat(v any, a []any) (any, error) {
	bytes, err := pyFloat(v)
	if err != nil {
		return nil, err
	}
	binary, err := truthy(a[0])
	if err != nil {
		return nil, err
	}
	base := 1000.0
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if binary {
		base = 1024
		prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	if bytes == 1 {
		return "1 Byte", nil
	}
	if bytes < base {
		n, err := floatToInt(bytes)
		if err != nil {
			return nil, err
		}
		s, _ := pyStr(n)
		return s + " Bytes", nil
	}
	var unit float64
	var prefix string
	for i, p := range prefixes {
		u := new(exact.Int).Exp(exact.NewInt(int64(base)), exact.NewInt(int64(i+2)), nil)
		unit = u.Float64()
		prefix = p
		if bytes < unit {
			break
		}
	}
	return formatFixed(base*bytes/unit, 1) + " " + prefix, nil
}

// formatFixed is Python's format(f, ".Nf").
func formatFixed(f float64, prec int) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, 'f', prec, 64)
}
