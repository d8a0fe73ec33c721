package template

// The urlize filter: jinja2.utils.urlize with the default policies (rel="noopener", no target,
// no extra schemes), its regular expressions written out by hand. A word that looks like an
// IPv6 URL, or whose domain ending has non-ASCII letters (which Python's case-insensitive [a-z]
// may or may not take), is "not supported".

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/template/pystr"
)

func isURLWordRune(r rune) bool { return isWordRune(r) || r == '%' || r == '-' }

// urlHost reports whether host (the run of [\w%.-] after the scheme) is `(label.)* tld`: with
// anyTLD, tld is [a-z]{2,63} or xn--[\w%]{2,59} and the labels [\w%-]+; without, tld is one of
// the basic ones and the labels, at least one, [\w%-]{2,63}.
func urlHost(host string, anyTLD bool) (bool, error) {
	parts := strings.Split(host, ".")
	tld := parts[len(parts)-1]
	labels := parts[:len(parts)-1]
	if !anyTLD && len(labels) == 0 {
		return false, nil
	}
	for _, l := range labels {
		n := utf8.RuneCountInString(l)
		if n == 0 || !anyTLD && (n < 2 || n > 63) {
			return false, nil
		}
	}
	if !isASCII(tld) {
		for _, r := range tld {
			if unicode.IsLetter(r) && r > 0x7f {
				return false, notSupported("urlize of a domain ending in non-ASCII letters")
			}
		}
	}
	lower := strings.ToLower(tld)
	if !anyTLD {
		return inList(" com net int edu gov org info mil ", lower), nil
	}
	if strings.HasPrefix(lower, "xn--") {
		n := 0
		for _, r := range tld[4:] {
			if r == '-' {
				n = -1000
			}
			n++
		}
		if n >= 2 && n <= 59 {
			return true, nil
		}
	}
	if len(tld) < 2 || len(tld) > 63 {
		return false, nil
	}
	for i := 0; i < len(lower); i++ {
		if lower[i] < 'a' || lower[i] > 'z' {
			return false, nil
		}
	}
	return true, nil
}

// urlRest reports whether s is `(?::\d{1,5})?(?:[/?#]\S*)?`: what may follow the host.
func urlRest(s string) bool {
	if strings.HasPrefix(s, ":") {
		i, n := 1, 0
		for i < len(s) {
			r, w := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsDigit(r) {
				break
			}
			i += w
			n++
		}
		if n == 0 {
			return false
		}
		if n > 5 {
			return false
		}
		s = s[i:]
	}
	return s == "" || strings.IndexByte("/?#", s[0]) >= 0
}

// hostRun splits s after its leading run of [\w%.-].
func hostRun(s string) (string, string) {
	for i, r := range s {
		if !isURLWordRune(r) && r != '.' {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// isHTTPURL is _http_re.match(s).
func isHTTPURL(s string) (bool, error) {
	lower := strings.ToLower(s)
	scheme := ""
	for _, p := range []string{"https://", "http://"} {
		if strings.HasPrefix(lower, p) {
			scheme = p
			break
		}
	}
	if scheme != "" {
		rest := s[len(scheme):]
		if strings.HasPrefix(rest, "[") {
			return false, notSupported("urlize of an IPv6 URL")
		}
		// IPv4: four groups of one to three digits.
		host, after := hostRun(rest)
		if groups := strings.Split(host, "."); len(groups) == 4 {
			ok := true
			for _, g := range groups {
				n := 0
				for _, r := range g {
					if !unicode.IsDigit(r) {
						ok = false
					}
					n++
				}
				ok = ok && n >= 1 && n <= 3
			}
			if ok && urlRest(after) {
				return true, nil
			}
		}
	}
	prefix := scheme
	if prefix == "" && strings.HasPrefix(lower, "www.") {
		prefix = "www."
	}
	if prefix != "" {
		host, after := hostRun(s[len(prefix):])
		if host != "" {
			ok, err := urlHost(host, true)
			if err != nil || ok && urlRest(after) {
				return ok, err
			}
		}
	}
	host, after := hostRun(s)
	if host == "" {
		return false, nil
	}
	ok, err := urlHost(host, false)
	return ok && urlRest(after), err
}

// isEmail is _email_re.match(s): ^\S+@\w[\w.-]*\.\w+$.
func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at < 1 {
		return false
	}
	d := s[at+1:]
	dot := strings.LastIndexByte(d, '.')
	if dot < 1 || dot == len(d)-1 {
		return false
	}
	for i, r := range d {
		switch {
		case i == 0 || i > dot:
			if !isWordRune(r) {
				return false
			}
		case i < dot && !isWordRune(r) && r != '.' && r != '-':
			return false
		}
	}
	return true
}

func filterUrlize(v any, a []any) (any, error) {
	limit, nofollow, target, rel, extra := a[0], a[1], a[2], a[3], a[4]
	relParts := []string{"noopener"}
	if ok, err := truthy(rel); err != nil {
		return nil, err
	} else if ok {
		s, isStr := rel.(string)
		if !isStr {
			return nil, notSupported("a urlize rel that is not a str")
		}
		relParts = append(relParts, strings.FieldsFunc(s, pystr.IsSpace)...)
	}
	if ok, err := truthy(nofollow); err != nil {
		return nil, err
	} else if ok {
		relParts = append(relParts, "nofollow")
	}
	relAttr := ""
	if sorted, err := pySort(nil, 0, anyStrings(relParts), anyStrings(relParts), false); err == nil {
		var uniq []string
		for _, p := range sorted {
			if len(uniq) == 0 || uniq[len(uniq)-1] != p.(string) {
				uniq = append(uniq, p.(string))
			}
		}
		relAttr = ` rel="` + htmlEscape(strings.Join(uniq, " ")) + `"`
	}
	targetAttr := ""
	if ok, err := truthy(target); err != nil {
		return nil, err
	} else if ok {
		t, err := escapeValue(target)
		if err != nil {
			return nil, err
		}
		targetAttr = ` target="` + string(t) + `"`
	}
	var schemes []string
	if extra != nil {
		items, err := iterate(extra)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			s, ok := normalize(it).(string)
			if !ok {
				return nil, notSupported("a urlize extra scheme that is not a str")
			}
			name, slashes, found := strings.Cut(s, ":")
			valid := found && utf8.RuneCountInString(name) >= 2 && len(slashes) <= 2 && strings.Trim(slashes, "/") == ""
			for _, r := range name {
				valid = valid && (isWordRune(r) || r == '.' || r == '+' || r == '-')
			}
			if !valid {
				var r strings.Builder
				pystr.WriteRepr(&r, s)
				return nil, &pyError{msg: "FilterArgumentError: " + r.String() + " is not a valid URI scheme prefix."}
			}
			schemes = append(schemes, s)
		}
	}
	trim := func(x string) (string, error) {
		if limit == nil {
			return x, nil
		}
		longer, err := compareOp(">", int64(utf8.RuneCountInString(x)), limit)
		if err != nil || !longer {
			return x, err
		}
		n, err := asIndex(limit)
		if err != nil {
			return "", typeErr("slice indices must be integers or None or have an __index__ method")
		}
		return runeSlice(x, n) + "...", nil
	}
	text, err := escapeValue(v)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	s := string(text)
	for s != "" {
		// The words and the whitespace between them, each handled as Jinja handles it.
		end := 0
		first, _ := utf8.DecodeRuneInString(s)
		space := pystr.IsSpace(first)
		for end < len(s) {
			r, w := utf8.DecodeRuneInString(s[end:])
			if pystr.IsSpace(r) != space {
				break
			}
			end += w
		}
		word := s[:end]
		s = s[end:]
		out, err := urlizeWord(word, relAttr, targetAttr, schemes, trim)
		if err != nil {
			return nil, err
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func urlizeWord(word, relAttr, targetAttr string, schemes []string, trim func(string) (string, error)) (string, error) {
	// Jinja strips the lead and trail punctuation one piece at a time; the same cuts are found
	// here by index, so a word of a million brackets costs linear time, not quadratic.
	i := 0
	for {
		switch {
		case strings.HasPrefix(word[i:], "(") || strings.HasPrefix(word[i:], "<"):
			i++
			continue
		case strings.HasPrefix(word[i:], "&lt;"):
			i += 4
			continue
		}
		break
	}
	j := len(word)
	for j > i {
		switch {
		case strings.HasSuffix(word[i:j], "&gt;"):
			j -= 4
			continue
		case strings.IndexByte(")>.,\n", word[j-1]) >= 0:
			j--
			continue
		}
		break
	}
	head, middle, tail := word[:i], word[i:j], word[j:]
	for _, pair := range [3][2]string{{"(", ")"}, {"<", ">"}, {"&lt;", "&gt;"}} {
		open, close := pair[0], pair[1]
		starts := strings.Count(middle, open)
		if starts <= strings.Count(middle, close) {
			continue
		}
		// Move the first n closers of tail (and what stands before them) into middle.
		cut := 0
		for n := min(starts, strings.Count(tail, close)); n > 0; n-- {
			cut += strings.Index(tail[cut:], close) + len(close)
		}
		middle, tail = middle+tail[:cut], tail[cut:]
	}
	url, err := isHTTPURL(middle)
	if err != nil {
		return "", err
	}
	switch {
	case url:
		shown, err := trim(middle)
		if err != nil {
			return "", err
		}
		href := middle
		if !strings.HasPrefix(middle, "https://") && !strings.HasPrefix(middle, "http://") {
			href = "https://" + middle
		}
		middle = `<a href="` + href + `"` + relAttr + targetAttr + `>` + shown + `</a>`
	case strings.HasPrefix(middle, "mailto:") && isEmail(middle[7:]):
		middle = `<a href="` + middle + `">` + middle[7:] + `</a>`
	case strings.Contains(middle, "@") && !strings.HasPrefix(middle, "www.") && !strings.Contains(middle, ":") && isEmail(middle):
		middle = `<a href="mailto:` + middle + `">` + middle + `</a>`
	default:
		for _, sch := range schemes {
			if middle != sch && strings.HasPrefix(middle, sch) {
				middle = `<a href="` + middle + `"` + relAttr + targetAttr + `>` + middle + `</a>`
			}
		}
	}
	return head + middle + tail, nil
}
