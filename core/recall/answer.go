package recall

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/output"
)

// Score is one passage score read from a judge's answer.
type Score struct {
	Kind     string     `json:"kind"`     // Essential or Bonus; "" for a score before any marker
	Number   int        `json:"number"`   // the passage number, as written or by order when unnumbered
	Numbered bool       `json:"numbered"` // whether the judge wrote the number
	Value    *exact.Rat `json:"-"`        // nil when the score could not be read
	Text     string     `json:"text"`     // the score as written, e.g. "4/5"
	Problem  string     `json:"problem,omitempty"`
	Line     int        `json:"line"` // of the score's value (of its label when it has no value)
	Col      int        `json:"col"`
	_        [0]func()  // not comparable: no equality function in the wasm
}

// Section is the part of an answer from one passage marker to the next marker or formula line.
type Section struct {
	Kind     string
	Number   int
	Numbered bool
	Line     int
	Col      int
	Scores   []Score
}

// Stated is one formula line of the judge's answer ("RECALL_Final_Score: 4", …).
type Stated struct {
	Label string     // the seed's label, Labels[i]
	Text  string     // what follows the label and its ':', trimmed
	Value *exact.Rat // the line's result (after its last '='; the number itself for the final score), nil when unreadable
	Line  int        // of the label
	Col   int
	_     [0]func() // not comparable: no equality function in the wasm
}

// Answer is what ReadAnswer found in a judge's answer.
type Answer struct {
	Sections   []Section
	Unassigned []Score           // scores outside any passage section (before the first marker, after a formula line)
	Stated     [NumLines]*Stated // the last occurrence of each formula line, nil when absent
	ThinkOpen  bool              // the answer ends inside a <think> block (it looks truncated)
	ThinkLine  int               // where that block opens
	ThinkCol   int
}

type tokKind int

const (
	tokMarker tokKind = iota
	tokScore
	tokFormula
)

type token struct {
	kind tokKind
	off  int // the position reported for the token
	m    marker
	sc   *Score
	line int // formula: LineEssential … LineFinal
	text string
	_    [0]func() // not comparable: no equality function in the wasm
}

// maxScan caps how many labels and markers ReadAnswer collects, so a hostile answer made of
// nothing but "Score: 1" costs linear time and bounded memory.
const maxTokens = 100000

// ReadAnswer reads a judge's recall answer. It never fails: what it cannot read is left in the
// result (Score.Problem, a nil Stated line) for Resolve and the evaluator to judge. Positions are
// lines and columns (1-based, columns in code points) of answer as given.
//
// The rules, in the order they apply:
//   - Reasoning is dropped as output.FindReasoning finds it: the <think>…</think> blocks that
//     start the answer, or everything up to a closing tag that has no opening one. An opening
//     tag that is never closed drops the rest of the answer and sets ThinkOpen.
//   - A passage section starts at a marker: a bracketed one anywhere, as Passages reads them
//     ("[ESSENTIAL PASSAGE] 1:", "**[BONUS PASSAGE 2]**"), or an unbracketed one with a number at
//     the start of a line, after any Markdown heading marks, bullets, list numbers and emphasis
//     ("### Essential Passage 1", "- **Bonus passage #2:**"). Unnumbered markers count in order.
//   - A score is the word "Score" (not "Scores", not after "final", "overall", "total", "recall",
//     …), optionally emphasised and followed by a short parenthesis ("Score (1-5)"), then ':' or
//     '=', then the score as ParseScore reads it ("4", "3.5", "4/5", "4 out of 5"), optionally
//     emphasised ("**Score:** 4", "**Score: 4**"). A range ("3-4") or a decimal comma ("3,5") is
//     unreadable rather than guessed.
//   - A formula line is a seed label (RECALL_Essential_Formula … RECALL_Final_Score, any case,
//     '_' or spaces between the words) or "Final Score", followed by ':' or '='. Its text runs to
//     the end of the line, or to the next label followed by ':' or a '•' on that line; when it is
//     empty the next line is taken if it starts like a formula. It ends the current section.
func ReadAnswer(answer string) *Answer {
	a := &Answer{}
	from, openAt := output.FindReasoning(answer)
	if openAt >= 0 {
		a.ThinkOpen = true
		a.ThinkLine, a.ThinkCol = diag.Position(answer, openAt)
	}
	toks := scanAnswer(answer, from)

	pos := &posTracker{src: answer, line: 1, col: 1}
	cur := -1
	for _, t := range toks {
		line, col := pos.at(t.off)
		switch t.kind {
		case tokMarker:
			a.Sections = append(a.Sections, Section{Kind: t.m.kind, Number: t.m.num, Numbered: t.m.numbered, Line: line, Col: col})
			cur = len(a.Sections) - 1
		case tokScore:
			sc := *t.sc
			sc.Line, sc.Col = line, col
			if cur < 0 {
				a.Unassigned = append(a.Unassigned, sc)
				continue
			}
			sec := &a.Sections[cur]
			sec.Scores = append(sec.Scores, sc)
		case tokFormula:
			cur = -1
			a.Stated[t.line] = &Stated{Label: Labels[t.line], Text: t.text, Value: statedValue(t.line, t.text), Line: line, Col: col}
		}
	}
	// Unnumbered sections count in order, but only those with a score: a judge that writes "the
	// ground truth has two [ESSENTIAL PASSAGE] parts" before scoring them has not scored a third.
	seq := map[string]int{}
	for i := range a.Sections {
		sec := &a.Sections[i]
		if !sec.Numbered && len(sec.Scores) > 0 {
			seq[sec.Kind]++
			sec.Number = seq[sec.Kind]
		}
		for j := range sec.Scores {
			sc := &sec.Scores[j]
			sc.Kind, sc.Number, sc.Numbered = sec.Kind, sec.Number, sec.Numbered
		}
	}
	return a
}

// posTracker turns increasing byte offsets into lines and columns in one pass over the text.
type posTracker struct {
	src       string
	off       int
	line, col int
}

func (p *posTracker) at(off int) (int, int) {
	if off < p.off { // not expected: tokens come in order
		return diag.Position(p.src, off)
	}
	for _, r := range p.src[p.off:off] {
		if r == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++
		}
	}
	p.off = off
	return p.line, p.col
}

// scanAnswer finds the markers, scores and formula lines of s from s[from] on, in order; s[from]
// starts a line.
func scanAnswer(s string, from int) []token {
	var toks []token
	lineStart := true
	for i := from; i < len(s) && len(toks) < maxTokens; {
		if lineStart {
			lineStart = false
			if m, ok := scanLineMarker(s, i); ok {
				toks = append(toks, token{kind: tokMarker, off: m.start, m: m})
				i = m.end
				continue
			}
		}
		c := s[i]
		switch {
		case c == '\n':
			lineStart = true
		case c == '[':
			if m, ok := scanBracketMarker(s, i); ok {
				toks = append(toks, token{kind: tokMarker, off: m.start, m: m})
				i = m.end
				continue
			}
		case (c|0x20 == 's' || c|0x20 == 'r' || c|0x20 == 'f') && wordStart(s, i):
			if t, end, ok := scanLabel(s, i); ok {
				toks = append(toks, t)
				i = end
				continue
			}
		}
		i++
	}
	return toks
}

// scanLabel reads a score label or a formula line at s[i].
func scanLabel(s string, i int) (token, int, bool) {
	if c := s[i] | 0x20; c == 's' {
		return scanScore(s, i)
	}
	line, textStart, _, ok := scanFormulaLabel(s, i)
	if !ok {
		return token{}, 0, false
	}
	end := textStart
	for ; end < len(s) && s[end] != '\n'; end++ {
		if strings.HasPrefix(s[end:], "•") {
			break
		}
		if c := s[end] | 0x20; (c == 'r' || c == 'f') && wordStart(s, end) {
			if _, _, colon, ok := scanFormulaLabel(s, end); ok && colon {
				break
			}
		}
	}
	lineEnd := len(s)
	if end < len(s) && s[end] == '\n' {
		lineEnd = end
	}
	text := trimDeco(s[textStart:end])
	if text == "" && end == lineEnd && lineEnd < len(s) {
		// "RECALL_Essential_Formula:" with the formula on the next line.
		next := lineEnd + 1
		nextEnd := strings.IndexByte(s[next:], '\n')
		if nextEnd < 0 {
			nextEnd = len(s)
		} else {
			nextEnd += next
		}
		if t := trimDeco(s[next:nextEnd]); t != "" && (isDigit(t[0]) || t[0] == '(' || hasFoldPrefix(t, "min")) {
			text, end = t, nextEnd
		}
	}
	return token{kind: tokFormula, off: i, line: line, text: text}, end, true
}

// trimDeco trims white space, Markdown emphasis and code marks around s.
func trimDeco(s string) string {
	return strings.Trim(s, " \t\r*_`")
}

// wordStart reports whether a word may start at s[i]: s[i] is not preceded by a letter, a digit
// or an underscore, unless the underscores open Markdown emphasis ("__Score__"), that is follow
// no letter or digit themselves ("RECALL_Final_Score" holds no word "Score").
func wordStart(s string, i int) bool {
	for i > 0 && s[i-1] == '_' {
		i--
	}
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// notScoreOf lists the words that, before "Score", make it something other than a passage's
// score ("Final Score: 4", "overall score: 4").
var notScoreOf = []string{"final", "overall", "total", "combined", "recall", "average", "mean", "aggregate"}

// scanScore reads a score at s[i] (see ReadAnswer):
//
//	score = "score" [emph] [sp* "(" …≤30 bytes… ")"] [emph] sp* (":" | "=") [sp|emph|"`"|"["]* value
func scanScore(s string, i int) (token, int, bool) {
	k := i + len("score")
	if !hasFoldPrefix(s[i:], "score") || (k < len(s) && isWordByte(s[k])) {
		return token{}, 0, false
	}
	if e := skipUnderscores(s, k); e > k && e < len(s) && isWordByte(s[e]) {
		return token{}, 0, false // "Score_Calculation", not "__Score__"
	}
	if w := prevWord(s, i); w != "" {
		for _, x := range notScoreOf {
			if w == x {
				return token{}, 0, false
			}
		}
	}
	k = skipSpaceEmph(s, k)
	if k < len(s) && s[k] == '(' {
		c := strings.IndexByte(s[k:min(len(s), k+30)], ')')
		if c < 0 || strings.IndexByte(s[k:k+c], '\n') >= 0 {
			return token{}, 0, false
		}
		k = skipSpaceEmph(s, k+c+1)
	}
	sep := sepLen(s, k)
	if sep == 0 {
		return token{}, 0, false
	}
	k += sep
	for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '*' || s[k] == '_' || s[k] == '`' || s[k] == '[') {
		k++ // "Score: [4]" echoes the seed's "[Provide … reasoning for the score]"
	}
	t := token{kind: tokScore, off: k, sc: &Score{}}
	v := scanScoreToken(s, k)
	if v == k {
		rest := s[k:min(len(s), k+80)] // enough to quote; a whole long line would cost O(n) per label
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[:nl]
		}
		rest = strings.TrimSpace(rest)
		t.off = i
		t.sc.Text = diag.Clip(rest, 20)
		if rest == "" {
			t.sc.Problem = "no score after " + quote(strings.TrimSpace(s[i:k]))
		} else {
			t.sc.Problem = "cannot read the score after " + quote(strings.TrimSpace(s[i:k])) + ": " + quote(diag.Clip(rest, 20))
		}
		return t, k, true
	}
	t.sc.Text = s[k:v]
	val, err := ParseScore(t.sc.Text)
	if err != nil {
		t.sc.Problem = err.(*diag.Error).Msg
		return t, v, true
	}
	j := skipSpaces(s, v)
	switch {
	case v+1 < len(s) && s[v] == ',' && isDigit(s[v+1]):
		t.sc.Text = s[k:scanScoreToken(s, v+1)]
		t.sc.Problem = "cannot read score " + quote(t.sc.Text) + ": a decimal comma? (write 3.5)"
		return t, v, true
	case isRangeDash(s, j):
		e := skipSpaces(s, j+dashLen(s, j))
		t.sc.Text = s[k:scanScoreToken(s, e)]
		t.sc.Problem = "score " + quote(t.sc.Text) + " is a range, not one score"
		return t, v, true
	}
	t.sc.Value = val
	return t, v, true
}

// isRangeDash reports whether s[i] is a dash or "to" followed by a number, as in "3-4", "3 to 4".
func isRangeDash(s string, i int) bool {
	n := dashLen(s, i)
	if n == 0 {
		return false
	}
	j := skipSpaces(s, i+n)
	return j < len(s) && isDigit(s[j])
}

func dashLen(s string, i int) int {
	switch {
	case i < len(s) && s[i] == '-':
		return 1
	case strings.HasPrefix(s[i:], "–"):
		return len("–")
	case hasFoldPrefix(s[i:], "to ") && wordStart(s, i):
		return len("to ")
	}
	return 0
}

func sepLen(s string, i int) int {
	switch {
	case i < len(s) && (s[i] == ':' || s[i] == '='):
		return 1
	case strings.HasPrefix(s[i:], "："):
		return len("：")
	}
	return 0
}

func skipUnderscores(s string, i int) int {
	for i < len(s) && s[i] == '_' {
		i++
	}
	return i
}

func skipSpaceEmph(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '*' || s[i] == '_') {
		i++
	}
	return i
}

// prevWord returns the ASCII word before s[i], lower case, skipping spaces and emphasis.
func prevWord(s string, i int) string {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '*' || s[j-1] == '_') {
		j--
	}
	e := j
	for j > 0 && e-j < 16 && isLetter(s[j-1]) {
		j--
	}
	return strings.ToLower(s[j:e])
}

// scanScoreToken returns the end of the score that starts at s[i] (ParseScore's grammar, with
// the fraction part only when it is there), or i when there is no number at s[i].
func scanScoreToken(s string, i int) int {
	e := scanNumber(s, i)
	if e == i {
		return i
	}
	j := skipSpaces(s, e)
	switch {
	case j < len(s) && s[j] == '/':
		j++
	case hasFoldPrefix(s[j:], "out of"):
		j += len("out of")
	default:
		return e
	}
	j = skipSpaces(s, j)
	if d := scanNumber(s, j); d > j {
		return d
	}
	return e
}

// scanNumber returns the end of the number at s[i]: [sign] digits ["." digits] | [sign] "." digits,
// a '.' counting only when a digit follows it (so "Score: 4." ends at 4); or i when there is none.
func scanNumber(s string, i int) int {
	j := i
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		j++
	}
	d := j
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j == d {
		return i
	}
	return j
}

// labelWords are the words of the seed's formula labels after "RECALL".
var labelWords = [NumLines][]string{
	{"essential", "formula"},
	{"bonus", "formula"},
	{"combined", "formula"},
	{"final", "score", "calculation"},
	{"final", "score"},
}

// scanFormulaLabel reads a formula label at s[i]:
//
//	label = "RECALL" gap words [emph|"`"]* (":" | "=") | "Final" gap "Score" [emph]* (":" | "=")
//
// It returns which line it is, where its text starts and whether the separator was a colon.
func scanFormulaLabel(s string, i int) (line, textStart int, colon, ok bool) {
	k := -1
	switch {
	case hasFoldPrefix(s[i:], "recall"):
		for l, words := range labelWords {
			if e, ok := matchWords(s, i+len("recall"), words); ok {
				line, k = l, e
				break
			}
		}
	case hasFoldPrefix(s[i:], "final"):
		if e, ok := matchWords(s, i+len("final"), []string{"score"}); ok {
			line, k = LineFinal, e
		}
	}
	if k < 0 {
		return 0, 0, false, false
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '*' || s[k] == '_' || s[k] == '`') {
		k++
	}
	n := sepLen(s, k)
	if n == 0 {
		return 0, 0, false, false
	}
	return line, k + n, s[k] != '=', true
}

// matchWords matches gap-separated words at s[i] (gap = 1–3 of '_', ' ') and requires that no
// word continues after the last one.
func matchWords(s string, i int, words []string) (int, bool) {
	for _, w := range words {
		g := i
		for i < len(s) && i-g < 3 && (s[i] == '_' || s[i] == ' ') {
			i++
		}
		if i == g || !hasFoldPrefix(s[i:], w) {
			return 0, false
		}
		i += len(w)
	}
	if i < len(s) && isWordByte(s[i]) {
		return 0, false
	}
	if i+1 < len(s) && s[i] == '_' && isLetter(s[i+1]) {
		return 0, false // RECALL_Final_Score_Calculation is not RECALL_Final_Score
	}
	return i, true
}

// statedValue reads the result of a formula line's text: the number after its last '=' (or '≈'),
// or the text itself when it is only a number; for the final score, the score at its start. A
// percentage is not read.
func statedValue(line int, text string) *exact.Rat {
	t := text
	if line != LineFinal {
		if e := max(strings.LastIndexByte(t, '='), strings.LastIndex(t, "≈")); e >= 0 {
			if t[e] == '=' {
				t = t[e+1:]
			} else {
				t = t[e+len("≈"):]
			}
		}
	}
	t = strings.TrimLeft(t, " \t*_`$[(")
	end := scanScoreToken(t, 0)
	if end == 0 || strings.HasPrefix(strings.TrimLeft(t[end:], " "), "%") {
		return nil // "70%" is not on the 1–5 scale: not a value to compare
	}
	if line != LineFinal && strings.Trim(t[end:], " \t*_`$).,;]\\") != "" {
		return nil // "= 3.5 + 0.5": not a result
	}
	v, err := ParseScore(t[:end])
	if err != nil {
		return nil
	}
	return v
}

// scanLineMarker reads an unbracketed marker at the start of a line (see ReadAnswer):
//
//	line-marker = deco* kind gap "PASSAGE" sp* ["#"] digits tail
//	deco        = sp | "#"… | ">" | "-" | "+" | "•" | emph | digits ("." | ")")
func scanLineMarker(s string, i int) (marker, bool) {
	k := i
	for n := 0; n < 8; n++ {
		j := skipSpaces(s, k)
		switch {
		case j < len(s) && (s[j] == '#' || s[j] == '>' || s[j] == '-' || s[j] == '+' || s[j] == '*' || s[j] == '_'):
			j++
		case strings.HasPrefix(s[j:], "•"):
			j += len("•")
		default:
			if _, e, ok := scanDigits(s, j); ok && e < len(s) && (s[e] == '.' || s[e] == ')') && e+1 < len(s) && s[e+1] == ' ' {
				j = e + 1
			}
		}
		if j == k {
			break
		}
		k = j
	}
	if k >= len(s) || (s[k]|0x20 != 'e' && s[k]|0x20 != 'b') {
		return marker{}, false
	}
	m := marker{start: k}
	kind, k, ok := scanKindWord(s, k)
	if !ok {
		return m, false
	}
	m.kind = kind
	k = skipSpaces(s, k)
	if k < len(s) && s[k] == '#' {
		k++
	}
	n, e, ok := scanDigits(s, k)
	if !ok || (e < len(s) && isWordByte(s[e])) || (e+1 < len(s) && s[e] == '.' && isDigit(s[e+1])) {
		return m, false
	}
	m.num, m.numbered = n, true
	m.end = scanMarkerTail(s, e, &m)
	return m, true
}

// Resolve matches the answer's scores to the e essential and b bonus passages of the ground
// truth. It returns the scores in passage order when every passage has exactly one readable score
// in range; otherwise nil slices and the problems, each a *diag.Error with Kind "output" and the
// line and column it concerns (0 when none applies). Warnings say what was ignored or assumed,
// as *diag.Error values of the same kind, positioned at the score concerned where there is one.
//
// A passage may be scored more than once if the scores agree (a judge that repeats itself);
// a section without a score is a heading or a mention and is ignored when its passage is scored
// elsewhere. Scores outside any section are ignored with a warning, except in one unambiguous case:
// when the answer marks no passage at all, the ground truth has no bonus passage and the number
// of scores is exactly e, they are the essential scores (whose order cannot change the recall).
func (a *Answer) Resolve(e, b int) (essential, bonus []Score, warnings, problems []*diag.Error) {
	want := map[string]int{Essential: e, Bonus: b}
	slots := map[string][]*Score{Essential: make([]*Score, e), Bonus: make([]*Score, b)}
	handled := map[string]map[int]bool{Essential: {}, Bonus: {}}
	scored := false
	for si := range a.Sections {
		sec := &a.Sections[si]
		if len(sec.Scores) == 0 {
			continue
		}
		scored = true
		name := sec.Kind + " passage " + strconv.Itoa(sec.Number)
		var chosen *Score
		bad := false
		for j := range sec.Scores {
			sc := &sec.Scores[j]
			switch {
			case sc.Value == nil:
				problems = append(problems, errAt(sc.Line, sc.Col, name+": "+sc.Problem))
				bad = true
			case chosen == nil:
				chosen = sc
			case chosen.Value.Cmp(sc.Value) != 0:
				problems = append(problems, errAt(sc.Line, sc.Col, name+" has two different scores: "+
					scoreAt(chosen)+" and "+scoreAt(sc)))
				bad = true
			}
		}
		handled[sec.Kind][sec.Number] = true
		if bad || chosen == nil {
			continue
		}
		if sec.Number < 1 || sec.Number > want[sec.Kind] {
			problems = append(problems, errAt(chosen.Line, chosen.Col, name+" is scored ("+scoreAt(chosen)+
				"), but the ground truth has "+countPassages(want[sec.Kind], sec.Kind)))
			continue
		}
		if prev := slots[sec.Kind][sec.Number-1]; prev != nil {
			if prev.Value.Cmp(chosen.Value) != 0 {
				problems = append(problems, errAt(chosen.Line, chosen.Col, name+" has two different scores: "+
					scoreAt(prev)+" and "+scoreAt(chosen)))
			}
			continue
		}
		slots[sec.Kind][sec.Number-1] = chosen
	}
	if len(a.Unassigned) > 0 {
		readable := true
		for _, sc := range a.Unassigned {
			readable = readable && sc.Value != nil
		}
		if !scored && b == 0 && len(a.Unassigned) == e && readable {
			for i := range a.Unassigned {
				sc := a.Unassigned[i]
				sc.Kind, sc.Number = Essential, i+1
				slots[Essential][i] = &sc
			}
			first := a.Unassigned[0]
			warnings = append(warnings, errAt(first.Line, first.Col, "the answer marks no passage; its "+strconv.Itoa(e)+
				" score(s) were read as the essential scores, since the ground truth has "+
				strconv.Itoa(e)+" essential passage(s) and no bonus passage"))
		} else {
			for i, sc := range a.Unassigned {
				if i == 3 {
					warnings = append(warnings, errAt(sc.Line, sc.Col, "ignored "+strconv.Itoa(len(a.Unassigned)-3)+" more score(s) outside any passage section"))
					break
				}
				warnings = append(warnings, errAt(sc.Line, sc.Col, "ignored a score outside any passage section: "+scoreAt(&sc)))
			}
		}
	}
	firstSection := map[string]map[int]*Section{Essential: {}, Bonus: {}}
	for i := range a.Sections {
		sec := &a.Sections[i]
		if firstSection[sec.Kind][sec.Number] == nil {
			firstSection[sec.Kind][sec.Number] = sec
		}
	}
	for _, kind := range []string{Essential, Bonus} {
		for i, sc := range slots[kind] {
			if sc == nil {
				if !handled[kind][i+1] {
					l, c := 0, 0
					if sec := firstSection[kind][i+1]; sec != nil {
						l, c = sec.Line, sec.Col
					}
					problems = append(problems, errAt(l, c, "no score for "+kind+" passage "+strconv.Itoa(i+1)))
				}
				continue
			}
			if err := CheckScore(kind, i+1, sc.Value); err != nil {
				problems = append(problems, errAt(sc.Line, sc.Col, err.(*diag.Error).Msg))
			}
		}
	}
	if len(problems) > 0 {
		return nil, nil, warnings, problems
	}
	for _, sc := range slots[Essential] {
		essential = append(essential, *sc)
	}
	for _, sc := range slots[Bonus] {
		bonus = append(bonus, *sc)
	}
	return essential, bonus, warnings, nil
}

// Scores returns every score read in the answer's sections, in the answer's order.
func (a *Answer) Scores() []Score {
	var all []Score
	for _, sec := range a.Sections {
		all = append(all, sec.Scores...)
	}
	return all
}

func errAt(line, col int, msg string) *diag.Error {
	return &diag.Error{Kind: "output", Line: line, Col: col, Msg: msg}
}

func scoreAt(sc *Score) string {
	return quote(sc.Text) + " at " + strconv.Itoa(sc.Line) + ":" + strconv.Itoa(sc.Col)
}

func countPassages(n int, kind string) string {
	switch n {
	case 0:
		return "no " + kind + " passage"
	case 1:
		return "1 " + kind + " passage"
	}
	return strconv.Itoa(n) + " " + kind + " passages"
}
