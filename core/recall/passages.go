package recall

import "strings"

// The two kinds of passage in a ground truth.
const (
	Essential = "essential"
	Bonus     = "bonus"
)

// maxPassageNumber caps the digits of a passage number, so "[ESSENTIAL PASSAGE] 2023 was…" keeps
// its year (it is not followed by ':' anyway) and no number overflows an int.
const maxPassageDigits = 6

// marker is one passage marker found in a text.
type marker struct {
	kind       string // Essential or Bonus
	num        int
	numbered   bool
	start, end int       // byte offsets of the marker with its decorations
	_          [0]func() // not comparable: no equality function in the wasm
}

// Passages splits a ground truth at its passage markers and returns the text of each essential
// and each bonus passage, in order, trimmed of surrounding white space.
//
// A marker is "[ESSENTIAL PASSAGE]" or "[BONUS PASSAGE]" in any case, with any run of spaces,
// tabs or underscores between the two words, optionally a passage number inside the brackets
// ("[ESSENTIAL PASSAGE 2]", "[BONUS PASSAGE #1]"), optionally Markdown emphasis around it
// ("**[ESSENTIAL PASSAGE]**"), and optionally a number after it on the same line followed by ':',
// '.', ')', a dash or the end of the line ("[ESSENTIAL PASSAGE] 1: …"); a number followed by
// anything else is the passage's own text ("[ESSENTIAL PASSAGE] 2023 saw …"). Markers are found
// anywhere, not only at the start of a line. Text before the first marker is not part of any
// passage and is ignored; the numbers are ignored too (passages count in the order they appear).
func Passages(gt string) (essential, bonus []string) {
	ms := findBracketMarkers(gt)
	for i, m := range ms {
		end := len(gt)
		if i+1 < len(ms) {
			end = ms[i+1].start
		}
		text := strings.TrimSpace(gt[m.end:end])
		if m.kind == Essential {
			essential = append(essential, text)
		} else {
			bonus = append(bonus, text)
		}
	}
	if essential == nil {
		essential = []string{}
	}
	if bonus == nil {
		bonus = []string{}
	}
	return essential, bonus
}

// CountMarkers returns how many essential and bonus markers gt has (the lengths of Passages'
// results, without building the texts).
func CountMarkers(gt string) (e, b int) {
	for _, m := range findBracketMarkers(gt) {
		if m.kind == Essential {
			e++
		} else {
			b++
		}
	}
	return e, b
}

func findBracketMarkers(s string) []marker {
	var ms []marker
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '[')
		if j < 0 {
			break
		}
		i += j
		if m, ok := scanBracketMarker(s, i); ok {
			ms = append(ms, m)
			i = m.end
			continue
		}
		i++
	}
	return ms
}

// scanBracketMarker reads a bracketed marker whose '[' is at s[i]:
//
//	marker = [emph] "[" sp* kind gap "PASSAGE" [sp* ["#"] digits] sp* "]" tail
//	kind   = "ESSENTIAL" | "BONUS"        (any case)
//	gap    = (" " | "\t" | "_")+
//	tail   = [emph] [sp* ["#"] digits] [sp* punct] [emph]   (the number only when it ends there)
//	emph   = "*"… | "_"…                  (Markdown bold or italics)
func scanBracketMarker(s string, i int) (marker, bool) {
	m := marker{start: i}
	for m.start > 0 && i-m.start < 3 && (s[m.start-1] == '*' || s[m.start-1] == '_') {
		m.start--
	}
	k := skipSpaces(s, i+1)
	kind, k, ok := scanKindWord(s, k)
	if !ok {
		return m, false
	}
	m.kind = kind
	k = skipSpaces(s, k)
	if k < len(s) && s[k] == '#' {
		k++
	}
	if n, e, ok := scanDigits(s, k); ok {
		m.num, m.numbered, k = n, true, skipSpaces(s, e)
	}
	if k >= len(s) || s[k] != ']' {
		return m, false
	}
	m.end = scanMarkerTail(s, k+1, &m)
	return m, true
}

// scanKindWord reads `kind gap "PASSAGE"` at s[i] and returns the kind and the offset after it.
func scanKindWord(s string, i int) (string, int, bool) {
	var kind string
	switch {
	case hasFoldPrefix(s[i:], "essential"):
		kind, i = Essential, i+len("essential")
	case hasFoldPrefix(s[i:], "bonus"):
		kind, i = Bonus, i+len("bonus")
	default:
		return "", i, false
	}
	g := i
	for i < len(s) && i-g < 4 && (s[i] == ' ' || s[i] == '\t' || s[i] == '_') {
		i++
	}
	if i == g || !hasFoldPrefix(s[i:], "passage") {
		return "", i, false
	}
	i += len("passage")
	if i < len(s) && isWordByte(s[i]) {
		return "", i, false // "PASSAGES", "PASSAGEWAY"
	}
	return kind, i, true
}

// scanMarkerTail reads what may follow a marker's closing bracket (see scanBracketMarker) from
// s[i] and returns the offset after it, filling in the number when one is there.
func scanMarkerTail(s string, i int, m *marker) int {
	end := i
	k := skipEmph(s, skipSpaces(s, i))
	if k > i && closesEmph(s, k) {
		end = k
	}
	k = skipSpaces(s, end)
	if !m.numbered {
		h := k
		if h < len(s) && s[h] == '#' {
			h++
		}
		if n, e, ok := scanDigits(s, h); ok && endsNumber(s, skipSpaces(s, e)) {
			m.num, m.numbered, end = n, true, e
			k = skipSpaces(s, e)
		}
	}
	if p := punctLen(s, k); p > 0 {
		end = k + p
	}
	k = skipEmph(s, skipSpaces(s, end))
	if closesEmph(s, k) {
		end = k
	}
	return end
}

// endsNumber reports whether a passage number may end at s[i]: the end of the line or text,
// punctuation that ends a heading, or the word "Score" ("[ESSENTIAL PASSAGE] 2 Score: 4", as
// judges list their scores; a passage's own text would not start with it).
func endsNumber(s string, i int) bool {
	if i >= len(s) || s[i] == '\n' || s[i] == '\r' || s[i] == '*' || s[i] == '_' || s[i] == ']' {
		return true
	}
	if hasFoldPrefix(s[i:], "score") && (i+5 >= len(s) || !isWordByte(s[i+5])) {
		return true
	}
	return punctLen(s, i) > 0
}

// punctLen returns the length of heading punctuation at s[i]: ':', ')', a dash, or a '.' that
// does not start a decimal; 0 when there is none.
func punctLen(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	switch s[i] {
	case ':', ')', '-':
		return 1
	case '.':
		if i+1 < len(s) && isDigit(s[i+1]) {
			return 0
		}
		return 1
	}
	for _, d := range []string{"–", "—", "："} {
		if strings.HasPrefix(s[i:], d) {
			return len(d)
		}
	}
	return 0
}

// closesEmph reports whether an emphasis run may end just before s[i]: at white space, a colon
// or the end of the text. A run followed by a word ("_this_") is the text's own emphasis.
func closesEmph(s string, i int) bool {
	return i >= len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == ':'
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func skipEmph(s string, i int) int {
	for i < len(s) && (s[i] == '*' || s[i] == '_') {
		i++
	}
	return i
}

// scanDigits reads up to maxPassageDigits digits at s[i].
func scanDigits(s string, i int) (n, end int, ok bool) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		if j-i == maxPassageDigits {
			return 0, i, false
		}
		n = n*10 + int(s[j]-'0')
		j++
	}
	return n, j, j > i
}
