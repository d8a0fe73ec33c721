package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// snippet is the start of an upstream body for an error message: scrubbed first, then cut, so
// that a cut can never leave a piece of the key that the scrub would no longer recognise.
func snippet(body []byte, key string) string {
	s := strings.TrimSpace(scrub(string(body), key))
	if len(s) > 300 {
		s = clip(s, 300)
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// scrub removes the key, written plainly or escaped, and anything that looks like an API key
// or a bearer token, from text that came from the upstream: OpenAI's own 401 message quotes part
// of the key, and a misconfigured server may echo the whole request.
func scrub(s, key string) string {
	s = scrubKey(s, key)
	var b strings.Builder
	for i := 0; i < len(s); {
		rest := s[i:]
		n := 0
		switch {
		case hasPrefixFold(rest, "sk-") && (i == 0 || !isKeyChar(s[i-1])):
			n = 3
		case hasPrefixFold(rest, "bearer "):
			n = 7
		}
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + n
		for j < len(s) && isKeyChar(s[j]) {
			j++
		}
		if j == i+n { // "sk-" or "Bearer " followed by nothing key-like
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteString(s[i:i+n] + "[key redacted]")
		i = j
	}
	return b.String()
}

const keyRedacted = "[key redacted]"

// scrubKey replaces every occurrence of the key in s, in any of the forms keyAt recognises.
// Keys shorter than 4 bytes are left alone: they would match ordinary text.
func scrubKey(s, key string) string {
	if len(key) < 4 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != key[0] && c != '\\' && c != '%' {
			continue
		}
		if n := keyAt(s[i:], key); n > 0 {
			b.WriteString(s[last:i])
			b.WriteString(keyRedacted)
			i += n - 1
			last = i + 1
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// scrubKeyBytes is scrubKey for a body that is passed on as it is when it holds no key.
func scrubKeyBytes(b []byte, key string) []byte {
	if len(key) < 4 {
		return b
	}
	s := string(b)
	if clean := scrubKey(s, key); clean != s {
		return []byte(clean)
	}
	return b
}

// keyAt returns the length of the key's text at the start of s, or 0. Each of the key's
// characters may be written as itself or as a JSON encoder may escape it (\/ as PHP writes a
// slash, \" \\ \b \f \n \r \t, \uXXXX in either case of hex, a surrogate pair past U+FFFF), or
// percent-encoded as in an echoed URL. A budget bounds the backtracking that keys full of
// backslashes or percent signs could cause.
func keyAt(s, key string) int {
	// failed remembers the (text, key) positions already known not to match, so a run of
	// backslashes, each readable as itself or as half of an escape, is tried once per position
	// pair rather than once per way of reaching it (exponential: a 9-backslash key escaped as 18
	// backslashes ran out of the budget and was let through). Made on the first failure only.
	var failed map[[2]int]bool
	budget := 64*len(key) + 2*len(key)*len(key)
	var match func(i, k int) int
	match = func(i, k int) int {
		if k == len(key) {
			return i
		}
		if failed[[2]int{i, k}] {
			return -1
		}
		if budget--; budget < 0 {
			return -1
		}
		r, size := rune(key[k]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(key[k:])
		}
		forms, count := charForms(s[i:], key[k:k+size], r)
		for _, n := range forms[:count] {
			if end := match(i+n, k+size); end >= 0 {
				return end
			}
		}
		if k > 0 {
			if failed == nil {
				failed = map[[2]int]bool{}
			}
			failed[[2]int{i, k}] = true
		}
		return -1
	}
	if end := match(0, 0); end > 0 {
		return end
	}
	return 0
}

// charForms returns the lengths of the prefixes of s that write the key character lit (whose
// rune is r, or utf8.RuneError for a byte that is not UTF-8): forms[:count], without
// allocating, since bodies full of backslashes call it often.
func charForms(s, lit string, r rune) (forms [3]int, count int) {
	add := func(n int) {
		forms[count] = n
		count++
	}
	if strings.HasPrefix(s, lit) {
		add(len(lit))
	}
	if len(s) >= 2 && s[0] == '\\' {
		switch c := s[1]; c {
		case '/', '"', '\\':
			if r == rune(c) {
				add(2)
			}
		case 'b', 'f', 'n', 'r', 't':
			if r == shortEscapes[c] {
				add(2)
			}
		case 'u':
			if r < 0x10000 {
				if v, ok := hex4(s[2:]); ok && v == r {
					add(6)
				}
			} else if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				hi, ok1 := hex4(s[2:])
				lo, ok2 := hex4(s[8:])
				if ok1 && ok2 && 0xD800 <= hi && hi < 0xDC00 && 0xDC00 <= lo && lo < 0xE000 &&
					0x10000+(hi-0xD800)<<10+(lo-0xDC00) == r {
					add(12)
				}
			}
		}
	}
	if len(s) >= 3 && s[0] == '%' && len(lit) == 1 {
		if v, err := strconv.ParseUint(s[1:3], 16, 8); err == nil && byte(v) == lit[0] {
			add(3)
		}
	}
	return forms, count
}

// shortEscapes are JSON's one-letter escapes of control characters.
var shortEscapes = map[byte]rune{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 16)
	return rune(v), err == nil
}

func isKeyChar(c byte) bool {
	return c == '-' || c == '_' || c == '*' || c == '.' ||
		('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
