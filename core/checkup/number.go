package checkup

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/exact"
)

// number is one number written in a text: digits, optionally in groups of three after commas
// ("1,200") and with a decimal part ("3.5"), at s[start:end].
type number struct {
	start, end int
	text       string
}

// numbers returns the numbers written in s, in order.
func numbers(s string) []number {
	var out []number
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		for j+3 < len(s) && s[j] == ',' && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) && (j+4 == len(s) || !isDigit(s[j+4])) {
			j += 4
		}
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			j++
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		}
		out = append(out, number{i, j, s[i:j]})
		i = j
	}
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// plain is a number's text without its thousands commas: how two numbers are compared.
func plain(n string) string { return strings.ReplaceAll(n, ",", "") }

// numberSet is the numbers written in texts, by their plain text (and by value, so "3.0" and
// "3" are one number).
func numberSet(texts []string) map[string]bool {
	set := map[string]bool{}
	for _, t := range texts {
		for _, n := range numbers(t) {
			p := plain(n.text)
			set[p] = true
			if f, err := exact.ParseFloat(p); err == nil {
				set[strconv.FormatFloat(f, 'g', -1, 64)] = true
			}
		}
	}
	return set
}

// taken reports whether n is in set, by text or by value.
func taken(set map[string]bool, n string) bool {
	p := plain(n)
	if set[p] {
		return true
	}
	f, err := exact.ParseFloat(p)
	return err == nil && set[strconv.FormatFloat(f, 'g', -1, 64)]
}

// changedNumber is s with one number changed, which number and to what.
type changedNumber struct {
	text, from, to string
}

// changeNumber changes one number of sentence s (the pick-th of those that may change, modulo
// their count) into one that no text of the row holds (used), and returns the sentence. A number
// may change only where the change certainly makes the sentence say something else:
//
//   - it stands alone: no letter, digit or one of "-_/#[:." glued to it ("GPT-4", "3rd", "H2O",
//     "10:30", "[2]", "v1.2.3"), it is written once in the sentence, and has 7 digits or fewer;
//   - it is no bound or range ("more than 500", "up to 3", "10 to 20", "10–20", "5+"): a lower
//     bound changed downwards would still be implied;
//   - it is no label of a thing ("Figure 3", "Section 2", "Step 1", "patient 12"), whose change
//     names another thing rather than another value.
//
// The new value is clearly another: a year (1000 to 2099) moves by 3 to 6 years; a day next to
// a month name by 5 to 9 days, staying a day of any month; any other number has its first
// non-zero digit moved by 2 to 4 (at least a fifth of its value), so 500 becomes 700 or 300 and
// 1,200 becomes 3,200. ok is false when no number of s may change.
func changeNumber(s string, used map[string]bool, pick int) (changedNumber, bool) {
	var can []number
	all := numbers(s)
	for _, n := range all {
		if changeable(s, n, all) {
			can = append(can, n)
		}
	}
	for k := range can {
		n := can[(pick+k)%len(can)]
		for _, to := range replacements(s, n) {
			if !taken(used, to) {
				return changedNumber{text: s[:n.start] + to + s[n.end:], from: n.text, to: to}, true
			}
		}
	}
	return changedNumber{}, false
}

// changeable reports whether number n of s may change (see changeNumber).
func changeable(s string, n number, all []number) bool {
	count := 0
	for _, m := range all {
		if plain(m.text) == plain(n.text) {
			count++
		}
	}
	if count > 1 || len(plain(n.text)) > 8 {
		return false
	}
	if n.start > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:n.start])
		if unicode.IsLetter(r) || strings.ContainsRune("-_/#[:.~<>≤≥≈±+–—'’^", r) {
			return false
		}
	}
	if n.end < len(s) {
		r, size := utf8.DecodeRuneInString(s[n.end:])
		if unicode.IsLetter(r) || strings.ContainsRune("-_/#]:~+–—^", r) {
			return false
		}
		if (r == '.' || r == ',') && n.end+size < len(s) && s[n.end+size] != ' ' {
			return false // "1.2.3", "3,5" in a list of numbers without spaces
		}
	}
	before, after := wordBefore(s, n.start), wordAfter(s, n.end)
	if isBoundOrLabel(before) {
		return false
	}
	switch after {
	case "to", "or", "and", "plus", "more", "less", "fewer", "times", "of":
		// "10 to 20", "5 or more", "3 and 4", "1 of 3": a range, a bound or a share
		return false
	}
	// A dash or "to" with spaces between two numbers ("10 – 20") is a range too.
	rest := strings.TrimLeft(s[n.end:], " ")
	if strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "—") {
		return false
	}
	head := strings.TrimRight(s[:n.start], " $€£¥")
	return !strings.HasSuffix(head, "-") && !strings.HasSuffix(head, "–") && !strings.HasSuffix(head, "—")
}

// isBoundOrLabel reports whether a number after word w (lower case) is a bound, a range's
// start, an approximation or a thing's label rather than a value stated.
func isBoundOrLabel(w string) bool { return inList(boundsAndLabels, w) }

// boundsAndLabels are the words isBoundOrLabel looks for, sorted.
var boundsAndLabels = []string{
	"about", "above", "act", "almost", "amendment", "and", "annex", "answer", "apartment", "appendix",
	"approx", "approximately", "arm", "around", "art", "article", "avenue", "average", "avg", "batch",
	"bed", "below", "between", "beyond", "bill", "block", "book", "box", "building", "ca", "case",
	"category", "channel", "chapter", "chapters", "chunk", "circa", "claim", "class", "clause",
	"code", "cohort", "column", "covid", "doc", "document", "episode", "eq", "equation", "est",
	"estimated", "example", "exceeding", "exceeds", "exercise", "exhibit", "exit", "fact", "fig",
	"figure", "figures", "flat", "floor", "form", "formula", "from", "gate", "gpt", "grade", "group",
	"highway", "id", "iphone", "iso", "issue", "item", "java", "lane", "least", "lemma", "level",
	"line", "lines", "llama", "lot", "max", "maximum", "mean", "median", "min", "minimum", "model",
	"most", "nearly", "no", "nos", "number", "option", "or", "over", "p", "page", "pages",
	"paragraph", "part", "participant", "passage", "patient", "phase", "platform", "pp", "problem",
	"python", "q", "question", "ref", "reference", "references", "rfc", "road", "room", "roughly",
	"route", "row", "rule", "sars", "scene", "schedule", "season", "section", "sections", "slide",
	"some", "source", "stage", "step", "steps", "street", "study", "subject", "suite", "table",
	"tables", "task", "test", "than", "theorem", "tier", "to", "track", "trial", "type", "under",
	"unit", "up", "upto", "v", "verse", "version", "vol", "volume", "ward", "windows", "within",
}

// wordBefore is the word right before byte i of s (past spaces and currency signs), in lower
// case; "" when there is none.
func wordBefore(s string, i int) string {
	j := i
	for j > 0 && strings.ContainsRune(" $€£¥", rune(s[j-1])) {
		j--
	}
	k := j
	for k > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if !unicode.IsLetter(r) {
			break
		}
		k -= size
	}
	return strings.ToLower(s[k:j])
}

// wordAfter is the word right after byte i of s (past spaces), in lower case.
func wordAfter(s string, i int) string {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	k := i
	for k < len(s) {
		r, size := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsLetter(r) {
			break
		}
		k += size
	}
	return strings.ToLower(s[i:k])
}

// replacements are the values number n of s may change into, in the order they are tried.
func replacements(s string, n number) []string {
	p := plain(n.text)
	v, err := exact.Atoi(p)
	integral := err == nil
	var out []string
	switch {
	case integral && len(p) == 4 && v >= 1000 && v <= 2099 && !strings.Contains(n.text, ","):
		for _, d := range []int{4, -4, 3, -3, 5, -5, 6, -6} {
			out = append(out, strconv.Itoa(v+d))
		}
		return out
	case integral && v >= 1 && v <= 31 && len(p) <= 2 && (isMonth(wordBefore(s, n.start)) || isMonth(wordAfter(s, n.end))):
		for _, d := range []int{5, -5, 7, -7, 9, -9} {
			if day := v + d; day >= 1 && day <= 28 {
				out = append(out, strconv.Itoa(day))
			}
		}
		return out
	}
	// The first non-zero digit of the text as written (commas kept), moved by 2, 3 or 4.
	at := strings.IndexAny(n.text, "123456789")
	if at < 0 {
		if n.text == "0" {
			return []string{"2", "3", "4"}
		}
		return nil // 0.0, 00: no value to move
	}
	d := int(n.text[at] - '0')
	for _, delta := range []int{2, -2, 3, -3, 4, -4} {
		if e := d + delta; e >= 1 && e <= 9 {
			out = append(out, n.text[:at]+strconv.Itoa(e)+n.text[at+1:])
		}
	}
	return out
}

// isMonth reports whether w (lower case) names a month.
func isMonth(w string) bool { return inList(months, w) }

// months are the months' names and abbreviations, sorted.
var months = []string{
	"apr", "april", "aug", "august", "dec", "december", "feb", "february", "jan", "january", "jul",
	"july", "jun", "june", "mar", "march", "may", "nov", "november", "oct", "october", "sep", "sept",
	"september",
}
