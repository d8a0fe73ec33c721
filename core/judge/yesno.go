package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
)

// The yes/no rule, as a person reads a judge's answer: the verdict is the whole answer, or a
// verdict line; a yes or no inside a sentence is never a verdict.
//
//   - The whole answer, stripped of white space, quotes, Markdown emphasis (* _ `) and a final
//     period, is "yes" or "no" in any case: that is the verdict.
//   - Otherwise the verdicts are its verdict lines: the first and the last non-empty line when,
//     stripped the same way (and of a leading # or >), it is exactly yes or no, or when its first
//     word is yes or no followed by a punctuation mark and prose ("No. The date is wrong.", "Yes,
//     every claim is supported.", "NO - the year is not in the facts", "**No.** The answer …";
//     see leadVerdict for the marks); and every line
//     that starts with the label "Answer:", "Final answer:", "Verdict:", "Final verdict:" or
//     "Label:" (Phoenix's templates end with "LABEL: <label>"; any case, any emphasis around the
//     label or the word; "=" for ":", as in "Answer=C") followed by yes or no, alone or followed by
//     punctuation ("Verdict: Yes, every claim is supported"), never by a word ("Answer: No
//     unsupported claim" is prose). After a label, each further sentence or clause (split at
//     . ! ? ; and ,) that is exactly yes or no is one more verdict ("Final answer: yes. no. yes."
//     gives three).
//   - One or more verdicts that agree are the verdict; the prose around them is skipped, with a
//     warning pointing at the verdict: answer.prose-after-verdict when the verdict is only the
//     first word of a sentence (a reading a person makes, but from prose), else
//     answer.prose-skipped. Verdicts that disagree are
//     answer.several-verdicts, and no verdict line at all is answer.no-verdict: undetermined,
//     never a guess from the words of the prose.

// The same rule reads a custom evaluator's labels ("correct", "partially correct", "incorrect"):
// a wordRule is the words a verdict may be, and the yes/no rule is the wordRule of yes and no. A
// label of several words matches with any run of white space between its words; a label is
// matched as a whole (followed by neither a letter nor a digit), longest first, in any case.

// wordRule is the words a verdict may be (lower case, single spaces, longest first) and how the
// messages name them.
type wordRule struct {
	words   []string
	any     string // "yes or no"
	neither string // "neither yes nor no"
}

// yesNoRule is the rule of answer-grounding's "yes" or "no".
var yesNoRule = &wordRule{words: []string{"yes", "no"}, any: "yes or no", neither: "neither yes nor no"}

// whole returns the word s is, whole (in any case, any run of white space between its words),
// or "".
func (w *wordRule) whole(s string) string {
	for _, word := range w.words {
		if n, ok := matchWord(s, word); ok && n == len(s) {
			return word
		}
	}
	return ""
}

// leading returns the word s starts with (followed by neither a letter nor a digit) and its
// length in s, or "".
func (w *wordRule) leading(s string) (string, int) {
	for _, word := range w.words {
		if n, ok := matchWord(s, word); ok {
			return word, n
		}
	}
	return "", 0
}

// matchWord reports whether s starts with word, in any case and with any run of white space for
// each of word's spaces, followed by neither a letter nor a digit; n is the bytes of s matched.
func matchWord(s, word string) (n int, ok bool) {
	for _, want := range word {
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if want == ' ' {
			if !unicode.IsSpace(r) {
				return 0, false
			}
			for n < len(s) {
				r, size := utf8.DecodeRuneInString(s[n:])
				if !unicode.IsSpace(r) {
					break
				}
				n += size
			}
			continue
		}
		if r != want && unicode.ToLower(r) != want && !foldsTo(r, want) {
			return 0, false
		}
		n += size
	}
	if n < len(s) {
		r, _ := utf8.DecodeRuneInString(s[n:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return 0, false
		}
	}
	return n, true
}

// foldsTo reports whether r and want are the same letter under Unicode simple case folding.
func foldsTo(r, want rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == want {
			return true
		}
	}
	return false
}

// yesNo is what readYesNo found: the verdict word, or why there is none, and the bytes of the
// answer the check is about.
type yesNo struct {
	word   string    // "yes", "no", or "" when undetermined
	code   diag.Code // "" for a plain yes or no; a warning code with word, an error code without
	msg    string
	off, n int
}

// verdictAt is one verdict found in the answer: the word and its bytes; lead when it is only the
// first word of a sentence that goes on ("No. The date is wrong.").
type verdictAt struct {
	word   string
	off, n int
	lead   bool
}

// verdictLabels are the labels a verdict line may start with, longest first ("Grade:" as
// LangChain's QA grader asks for "GRADE: CORRECT or INCORRECT"; "Judgement:", "Decision:",
// "Conclusion:" and "Result:" as judges head their verdict unasked). Each only names the verdict
// that follows it: none says which way it goes, as "Supported:" or "Hallucination:" would.
var verdictLabels = []string{"final answer", "final verdict", "final judgement", "final judgment", "final decision", "final result",
	"answer", "verdict", "judgement", "judgment", "decision", "conclusion", "result", "label", "grade"}

// readYesNo reads answer[from:] (from is where the text after any reasoning starts) by the
// yes/no rule above. Offsets and positions are in the whole answer.
func readYesNo(answer string, from int) yesNo { return yesNoRule.read(answer, from) }

// read reads answer[from:] by the yes/no rule with w's words.
func (w *wordRule) read(answer string, from int) yesNo {
	if s, e := stripVerdict(answer, from, len(answer), false); e > s {
		if word := w.whole(answer[s:e]); word != "" {
			return yesNo{word: word, off: s, n: e - s}
		}
	}
	if strings.TrimSpace(answer[from:]) == "" {
		return yesNo{code: diag.AnswerEmpty, msg: "the answer is empty: the judge said " + w.neither}
	}
	type line struct{ start, end int }
	var lines []line
	for start := from; start <= len(answer); {
		end := strings.IndexByte(answer[start:], '\n')
		if end < 0 {
			end = len(answer)
		} else {
			end += start
		}
		if strings.TrimSpace(answer[start:end]) != "" {
			lines = append(lines, line{start, end})
		}
		start = end + 1
	}
	var found []verdictAt
	prose := false // a line that is not only a verdict
	for k, l := range lines {
		if v := w.labelVerdicts(answer, l.start, l.end); len(v) > 0 {
			found = append(found, v...)
			prose = prose || !w.onlyVerdicts(answer, l.start, l.end)
			continue
		}
		if k == 0 || k == len(lines)-1 {
			s, e := stripVerdict(answer, l.start, l.end, true)
			if word := w.whole(answer[s:e]); word != "" {
				found = append(found, verdictAt{word: word, off: s, n: e - s})
				continue
			}
			if v, more := w.leadVerdict(answer, l.start, l.end); len(v) > 0 {
				found = append(found, v...)
				prose = prose || more
				continue
			}
		}
		prose = true
	}
	quoted := quoteExcerpt(strings.TrimSpace(answer[from:]))
	if len(found) == 0 {
		return yesNo{code: diag.AnswerNoVerdict, msg: "the answer has no verdict: it is not just " + w.any + ", and no line of it is a verdict " +
			"(" + w.any + " alone on the first or last line or starting it before a punctuation mark, or after a label such as \"Answer:\", \"Verdict:\", \"Final answer:\" or \"Label:\"); " + a(w.any) + " inside a sentence is not one: " + quoted}
	}
	for _, f := range found[1:] {
		if f.word != found[0].word {
			return yesNo{code: diag.AnswerSeveralVerdicts, off: f.off, n: f.n,
				msg: "the answer gives verdicts that disagree (" + found[0].word + " at " + diag.LineCol(answer, found[0].off) + ", " + f.word +
					" at " + diag.LineCol(answer, f.off) + "), so it cannot be read: " + quoted}
		}
	}
	// A verdict line of its own says more than the first word of a sentence: point at it.
	v := found[0]
	for _, f := range found {
		if !f.lead {
			v = f
			break
		}
	}
	switch {
	case !prose:
		return yesNo{word: v.word, off: v.off, n: v.n} // "Answer: no", "Yes" twice, "YES!": nothing was skipped
	case v.lead:
		return yesNo{word: v.word, code: diag.AnswerProseAfterVerdict, off: v.off, n: v.n,
			msg: "read the verdict " + v.word + " from the first word at " + diag.LineCol(answer, v.off) + ", which the prose after it explains; " +
				"the prose was skipped: " + quoted}
	}
	return yesNo{word: v.word, code: diag.AnswerProseSkipped, off: v.off, n: v.n,
		msg: "read the verdict " + v.word + " from the verdict line at " + diag.LineCol(answer, v.off) + "; the rest of the answer was skipped: " + quoted}
}

// leadVerdict reads a line answer[start:end] that starts with a verdict word and goes on ("No.
// The date is wrong."): the verdict, and whether prose follows it. The word is the line's first
// (after white space, quotes, emphasis, a Markdown heading, quote or bullet mark), whole,
// followed (after closing quotes or emphasis) by
//
//	mark = ("," | "." | "!" | ";" | ":") not followed by a letter or digit
//	     | sp* ("-" | "--") (sp | end of line) | sp* ("–" | "—")
//
// ("E.g." is a word, not the label "E"; "No.5" a number; a hyphen joins words, "No-one", unless
// white space follows it). Not a verdict: the word followed by a word ("No relevant statement", "Yes and
// no"), an ellipsis ("No... maybe": it hesitates), "?", "(" or "/" ("Yes/No" echoes the
// format); a one-character word followed by "." (a list marker, "A. First …"). Each later
// sentence or clause of the line (split at . ! ? ; ,) that is exactly a verdict word is one
// more verdict ("Yes. No." gives two).
func (w *wordRule) leadVerdict(answer string, start, end int) (found []verdictAt, prose bool) {
	i := start
	for i < end {
		r, size := utf8.DecodeRuneInString(answer[i:end])
		if !isVerdictTrim(r) && !strings.ContainsRune("#>-•", r) {
			break
		}
		i += size
	}
	word, n := w.leading(answer[i:end])
	if word == "" {
		return nil, false
	}
	at := i
	j := at + n
	for j < end {
		r, size := utf8.DecodeRuneInString(answer[j:end])
		if unicode.IsSpace(r) || !isVerdictTrim(r) {
			break
		}
		j += size // closing emphasis or quotes
	}
	mark := markLen(answer, j, end)
	if mark == 0 || (mark == 1 && answer[j] == '.' && utf8.RuneCountInString(word) == 1) {
		return nil, false
	}
	j += mark
	for j < end && strings.ContainsRune("*_`\"'", rune(answer[j])) {
		j++ // "**No.** The …": the emphasis closes after the mark
	}
	found = []verdictAt{{word: word, off: at, n: n, lead: true}}
	// The rest of the line, clause by clause.
	for k := j; k < end; {
		e := k
		for e < end && !strings.ContainsRune(".!?;,", rune(answer[e])) {
			e++
		}
		s, t := stripVerdict(answer, k, e, false)
		if other := w.whole(answer[s:t]); other != "" {
			found = append(found, verdictAt{word: other, off: s, n: t - s, lead: true})
		} else if strings.IndexFunc(answer[s:t], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			prose = true
		}
		k = e + 1
	}
	return found, prose
}

// markLen returns the length of the punctuation mark at answer[j:end] that ends a verdict word
// (see leadVerdict), or 0.
func markLen(answer string, j, end int) int {
	wordAfter := func(k int) bool {
		r, _ := utf8.DecodeRuneInString(answer[k:end])
		return k < end && (unicode.IsLetter(r) || unicode.IsDigit(r))
	}
	spaceOrEnd := func(k int) bool {
		r, _ := utf8.DecodeRuneInString(answer[k:end])
		return k >= end || unicode.IsSpace(r)
	}
	if j >= end {
		return 0
	}
	switch c := answer[j]; c {
	case ',', '!', ';', ':':
		if wordAfter(j + 1) {
			return 0
		}
		return 1
	case '.':
		if j+1 < end && answer[j+1] == '.' || wordAfter(j+1) {
			return 0 // "No..." hesitates; "E.g." is a word
		}
		return 1
	}
	k := j
	for k < end && (answer[k] == ' ' || answer[k] == '\t') {
		k++
	}
	switch {
	case strings.HasPrefix(answer[k:end], "--") && spaceOrEnd(k+2):
		return k + 2 - j
	case strings.HasPrefix(answer[k:end], "-") && spaceOrEnd(k+1):
		return k + 1 - j
	case strings.HasPrefix(answer[k:end], "—"), strings.HasPrefix(answer[k:end], "–"):
		return k + len("—") - j
	}
	return 0
}

// a is "a " + what, or "one of …" as it is.
func a(what string) string {
	if strings.HasPrefix(what, "one of ") {
		return what
	}
	return "a " + what
}

// isVerdictTrim reports whether r is stripped around a verdict: white space, quotes, Markdown
// emphasis and code.
func isVerdictTrim(r rune) bool {
	switch r {
	case '"', '\'', '`', '*', '_', '“', '”', '‘', '’':
		return true
	}
	return unicode.IsSpace(r)
}

// stripVerdict returns the bounds of answer[start:end] stripped of white space, quotes and
// emphasis on both sides and of a final period (repeatedly: `**Yes**.` and `"No."`), of LaTeX's
// \boxed{…} and $…$ (reasoning models trained on mathematics box their final answer:
// "**Final Answer**\n\boxed{Yes}"), and, for a line, of a leading Markdown heading or quote mark.
func stripVerdict(answer string, start, end int, line bool) (int, int) {
	for {
		if strings.HasPrefix(answer[start:end], `\boxed{`) && strings.HasSuffix(answer[start:end], "}") {
			start, end = start+len(`\boxed{`), end-1
			continue
		}
		if end-start > 2 && answer[start] == '$' && answer[end-1] == '$' {
			start, end = start+1, end-1
			continue
		}
		s, e := start, end
		for s < e {
			r, size := utf8.DecodeRuneInString(answer[s:e])
			if !isVerdictTrim(r) && !(line && (r == '#' || r == '>')) {
				break
			}
			s += size
		}
		for e > s {
			r, size := utf8.DecodeLastRuneInString(answer[s:e])
			if !isVerdictTrim(r) {
				break
			}
			e -= size
		}
		if e > s && answer[e-1] == '.' {
			e--
		}
		if s == start && e == end {
			return s, e
		}
		start, end = s, e
	}
}

// labelVerdicts reads a labelled verdict line in answer[start:end]: the verdicts after its
// label, or nil when the line is not one (see the rule above).
func (w *wordRule) labelVerdicts(answer string, start, end int) []verdictAt {
	i := start
	skip := func(extra string) {
		for i < end {
			r, size := utf8.DecodeRuneInString(answer[i:end])
			if !isVerdictTrim(r) && !strings.ContainsRune(extra, r) {
				return
			}
			i += size
		}
	}
	skip("#>-•")
	label := ""
	for _, l := range verdictLabels {
		if len(answer)-i >= len(l) && i+len(l) <= end && strings.EqualFold(answer[i:i+len(l)], l) {
			label = l
			break
		}
	}
	if label == "" {
		return nil
	}
	i += len(label)
	skip("")
	if i >= end || answer[i] != ':' && answer[i] != '=' {
		return nil
	}
	i++
	// The first sentence after the label must start with the verdict word, alone or followed by
	// punctuation; each later sentence that is exactly yes or no is another verdict.
	var out []verdictAt
	first := true
	for i < end {
		j := i
		for j < end && !strings.ContainsRune(".!?;,", rune(answer[j])) {
			j++
		}
		s, e := stripVerdict(answer, i, j, false)
		if first {
			verdict, n := w.leading(answer[s:e])
			if verdict == "" {
				return nil
			}
			rest := strings.TrimLeftFunc(answer[s+n:e], isVerdictTrim)
			if rest != "" {
				r, _ := utf8.DecodeRuneInString(rest)
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					return nil // "Answer: No unsupported claim": a sentence, not a verdict
				}
			}
			out = append(out, verdictAt{word: verdict, off: s, n: n})
			// "Answer: Yes/No" echoes the prompt's format, choosing nothing: the word after the
			// slash or bar is one more verdict, and two that differ are no verdict.
			if rest != "" && (rest[0] == '/' || rest[0] == '|') {
				at := e - len(strings.TrimLeftFunc(rest[1:], isVerdictTrim))
				if other, m := w.leading(answer[at:e]); other != "" {
					out = append(out, verdictAt{word: other, off: at, n: m})
				}
			}
			first = false
		} else if word := w.whole(answer[s:e]); word != "" {
			out = append(out, verdictAt{word: word, off: s, n: e - s})
		}
		i = j + 1
	}
	return out
}

// onlyVerdicts reports whether the labelled line answer[start:end] holds nothing but its label
// and verdict words.
func (w *wordRule) onlyVerdicts(answer string, start, end int) bool {
	line := strings.ReplaceAll(answer[start:end], `\boxed`, "")
	colon := strings.IndexAny(line, ":=")
	notWord := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
	for rest := strings.TrimLeftFunc(line[colon+1:], notWord); rest != ""; rest = strings.TrimLeftFunc(rest, notWord) {
		word, n := w.leading(rest)
		if word == "" {
			return false
		}
		rest = rest[n:]
	}
	return true
}
