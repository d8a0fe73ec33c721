package checkup

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/value"
)

// The text rules the transformations rest on: what a word, a content word and a sentence are,
// when a sentence shares nothing with a row, and how a number is changed. Each rule leans to
// skipping: a transformation not offered costs a case, one offered with a wrong expectation
// costs the user's trust in the check-up.

// maxRunes caps the texts a transformation copies from: a sentence longer than this is not one a
// judge reads as one claim, and the scans below stay linear in what they look at.
const maxSentenceRunes = 400

// words returns the words of s in lower case: maximal runs of letters and digits.
func words(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}

// isContent reports whether w (a lower-case word) carries content: a number of any length, or a
// word of three letters or more that is not a function word.
func isContent(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsDigit(r) || utf8.RuneCountInString(w) >= 3 && !isStop(w)
}

// stem is what two content words are compared by: a final "s" dropped from words of five
// letters or more, then the first five letters. "plants" and "plant", "energy" and "energetic"
// are one stem; over-matching only makes the check-up skip more.
func stem(w string) string {
	if utf8.RuneCountInString(w) >= 5 && strings.HasSuffix(w, "s") {
		w = w[:len(w)-1]
	}
	n := 0
	for i := range w {
		if n == 5 {
			return w[:i]
		}
		n++
	}
	return w
}

// stems is the set of the content words' stems of texts.
type stems map[string]bool

func stemsOf(texts []string) stems {
	set := stems{}
	for _, t := range texts {
		for _, w := range words(t) {
			if isContent(w) {
				set[stem(w)] = true
			}
		}
	}
	return set
}

// shares reports whether any content word of text has a stem in s.
func (s stems) shares(text string) bool {
	for _, w := range words(text) {
		if isContent(w) && s[stem(w)] {
			return true
		}
	}
	return false
}

// contentCount counts the content words of s.
func contentCount(s string) int {
	n := 0
	for _, w := range words(s) {
		if isContent(w) {
			n++
		}
	}
	return n
}

// isStop reports whether w (lower case) is an English function word: it says nothing about what
// a text is about.
func isStop(w string) bool { return inList(stopWords, w) }

// stopWords is sorted (inList). A sorted list of strings is data the linker lays out; a switch
// over the same words compiled to 19 KB of wasm code, and a map is init code run at start.
var stopWords = []string{
	"a", "about", "above", "across", "after", "again", "against", "all", "along", "also", "although",
	"am", "among", "an", "and", "any", "are", "around", "as", "at", "be", "because", "been", "before",
	"being", "below", "between", "beyond", "both", "but", "by", "can", "could", "did", "do", "does",
	"doing", "down", "during", "each", "either", "every", "few", "for", "from", "further", "get",
	"had", "has", "have", "he", "her", "here", "hers", "him", "his", "how", "however", "if", "in",
	"into", "is", "it", "its", "itself", "just", "let", "like", "made", "make", "many", "may", "me",
	"might", "more", "most", "much", "must", "my", "new", "no", "nor", "not", "now", "of", "off",
	"old", "on", "one", "only", "onto", "or", "other", "others", "our", "ours", "out", "over", "own",
	"per", "same", "say", "see", "she", "should", "since", "so", "some", "still", "such", "than",
	"that", "the", "their", "theirs", "them", "then", "there", "therefore", "these", "they", "this",
	"those", "though", "through", "thus", "to", "too", "toward", "towards", "two", "under", "until",
	"up", "upon", "us", "use", "very", "via", "was", "we", "well", "were", "what", "when", "where",
	"whereas", "whether", "which", "while", "who", "whom", "whose", "why", "will", "with", "within",
	"without", "would", "yet", "you", "your", "yours",
}

// sentences splits text into sentences: a line break ends one; so do '.', '!' and '?' followed
// by white space and a capital letter, a digit or an opening quote, unless the word before the
// period is a single letter (initials) or a common abbreviation. Sentences are trimmed.
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			j := i + 1
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ')') {
				j++
			}
			k := j
			for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
				k++
			}
			if k == j || k >= len(line) {
				continue
			}
			r, _ := utf8.DecodeRuneInString(line[k:])
			if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '"' && r != '“' {
				continue
			}
			if c == '.' && abbreviated(line[start:i]) {
				continue
			}
			if s := strings.TrimSpace(line[start:j]); s != "" {
				out = append(out, s)
			}
			start = k
			i = k - 1
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// abbreviated reports whether the text before a period ends in a single letter or an
// abbreviation, after which a period does not end a sentence.
func abbreviated(before string) bool {
	w := before
	if k := strings.LastIndexAny(before, " \t(\"'"); k >= 0 {
		w = before[k+1:]
	}
	if r, size := utf8.DecodeRuneInString(w); size == len(w) && unicode.IsLetter(r) {
		return true // an initial
	}
	return inList(abbreviations, strings.ToLower(w))
}

// abbreviations are the words after which a period does not end a sentence, sorted.
var abbreviations = []string{
	"al", "approx", "apr", "aug", "ca", "cf", "ch", "co", "corp", "dec", "dept", "dr", "e.g", "ed",
	"eds", "eq", "etc", "feb", "fig", "figs", "ft", "gen", "gov", "i.e", "inc", "jan", "jr", "jul",
	"jun", "ltd", "mar", "mr", "mrs", "ms", "mt", "no", "nos", "nov", "oct", "pp", "prof", "ref",
	"refs", "sec", "sep", "sept", "sr", "st", "u.k", "u.s", "vol", "vs",
}

// isAssertion reports whether s reads as one declarative sentence a judge can check: it ends
// with a period, starts with a capital letter or a digit, holds four words or more, three of
// them content words, no question mark, no citation "[n]", no link, and is not too long.
func isAssertion(s string) bool {
	if !strings.HasSuffix(s, ".") || strings.HasSuffix(s, "..") || strings.ContainsAny(s, "?\n[]{}|") ||
		strings.Contains(s, "://") || utf8.RuneCountInString(s) > maxSentenceRunes {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
		return false
	}
	return len(words(s)) >= 4 && contentCount(s) >= 3
}

// standsAlone reports whether sentence s does not open on a word that points back at another
// sentence ("It", "They", "This", "Such"): copied verbatim among other claims, "It is 330 metres
// tall" could be read as about the claim before it, which the evidence does not say.
func standsAlone(s string) bool {
	w := words(s)
	return len(w) > 0 && !inList(anaphors, w[0])
}

// anaphors are words that, opening a sentence, point back at another one; sorted.
var anaphors = []string{"both", "former", "he", "her", "hers", "him", "his", "it", "its", "latter", "she", "such", "that",
	"their", "theirs", "them", "these", "they", "this", "those"}

// assertions returns the sentences of texts that are assertions (isAssertion), in order.
func assertions(texts []string) []string {
	var out []string
	for _, t := range texts {
		for _, s := range sentences(t) {
			if isAssertion(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// textsOf returns every text in v, an input's value: strings, the strings in lists and the
// string fields of objects ({title, text}, {id, text}), in order.
func textsOf(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, item := range x {
			out = textsOf(item, out)
		}
	case *value.Object:
		for _, k := range x.Keys() {
			item, _ := x.Get(k)
			out = textsOf(item, out)
		}
	}
	return out
}

// itemTexts returns the text of each item of a list input: the item itself, or its "text".
func itemTexts(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, item := range x {
			switch t := item.(type) {
			case string:
				out = append(out, t)
			case *value.Object:
				if s, ok := getS(t, "text"); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func getS(o *value.Object, k string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, _ := o.Get(k)
	s, ok := v.(string)
	return s, ok
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// inList reports whether w is in list, which is sorted: a binary search.
func inList(list []string, w string) bool {
	lo, hi := 0, len(list)
	for lo < hi {
		mid := (lo + hi) / 2
		switch {
		case list[mid] == w:
			return true
		case list[mid] < w:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return false
}
