package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/logprob"
	"ragjudge/core/output"
	"ragjudge/core/value"
)

// The readers of custom evaluators. Each drops the model's reasoning first (an answer that ends
// inside it is answer.truncated), and every error check leaves the verdict undetermined: Passed
// and Score nil, never a guess, never NaN, a score out of range never clamped.

// CustomDetail is a custom reader's Verdict.Verdict (a builtin reader gives its built-in's).
type CustomDetail struct {
	Kind   string `json:"kind"`             // the reader: yes-no, score, label, json
	Label  string `json:"label,omitempty"`  // the word or label read; json: the pass value when a text
	Reason string `json:"reason,omitempty"` // json: the reason field
	// Fields is the JSON object a json reader read (the payload, repaired), for showing it whole.
	Fields *value.Object `json:"fields,omitempty"`
	_      [0]func()     // not comparable: no equality function in the wasm
}

// reader is a custom evaluator's reader, set up once from its output (build).
type reader struct {
	id, kind string
	// yes-no and label: the words and what each says of passed (true, false or null); yes-no is
	// the label reader of "yes" and "no".
	words  *wordRule
	labels *value.Object
	// score: the label before the number; score and json: the range and the passing score.
	label            string
	lo, hi, passAt   float64
	hasRange, hasAt  bool
	pass, score, why *Field // json: the fields
	passValues       []any
	failValues       []any    // json: when given, a pass value that is neither a pass nor a fail value is no verdict
	keys             []string // json: the top-level keys of the paths, one of which the payload has
	// classes are the words of a yes-no, label or json pass reader by what they say of passed,
	// for weighing a verdict by its logprobs; classless says why a json reader has none.
	classes   *logprob.Words
	classless string
}

// newWordRule sets up a label reader's words: each label in lower case with single spaces,
// longest first, so that "partially correct" is not read as "partially".
func newWordRule(labels []string) *wordRule {
	w := &wordRule{any: "one of " + oneOf(labels), neither: "none of " + oneOf(labels)}
	for _, l := range labels {
		n := normLabel(l)
		k := len(w.words)
		w.words = append(w.words, n)
		for ; k > 0 && len(w.words[k]) > len(w.words[k-1]); k-- {
			w.words[k], w.words[k-1] = w.words[k-1], w.words[k]
		}
	}
	return w
}

// parse reads answer (the inputs do not change how a custom reader reads).
func (rd *reader) parse(_ *value.Object, answer string) *Verdict {
	d := &CustomDetail{Kind: rd.kind}
	v := &Verdict{Verdict: d}
	fail := func(c diag.Check) *Verdict {
		v.Passed, v.Score = nil, nil
		v.Checks = append(v.Checks, c)
		return v
	}
	off, open := output.FindReasoning(answer)
	if open >= 0 && rd.kind != ReaderJSON {
		return fail(diag.Fail(diag.AnswerTruncated, "the answer ends inside the model's <think> reasoning, before any verdict: it looks truncated (max_tokens too small?)"))
	}
	var score float64
	where, at, n := "", 0, 0 // where the score is, in words and (for a score reader) in bytes
	switch rd.kind {
	case ReaderYesNo, ReaderLabel:
		read := rd.words.read(answer, off)
		// A custom prompt usually asks for reasons before the verdict line, so prose around it is
		// the expected shape, not something to warn about as the built-in yes/no rule does.
		if read.code != "" && read.code != diag.AnswerProseSkipped {
			c := diag.Warn(read.code, read.msg)
			if read.word == "" {
				c.Severity = diag.SevError
			}
			if read.n > 0 {
				c = c.AtOffset(answer, read.off, read.n)
			}
			v.Checks = append(v.Checks, c)
		}
		if read.word == "" {
			return v
		}
		for _, l := range rd.labels.Keys() {
			if normLabel(l) == read.word {
				d.Label = l
			}
		}
		if passed, ok := get(rd.labels, d.Label).(bool); ok {
			setPassed(v, passed)
			v.site = wordSite(read.off, read.n, rd.classes, passed)
		} else {
			c := diag.Warn(diag.AnswerNeutralLabel, "the judge answered \""+d.Label+"\", which this evaluator counts as neither passed nor failed")
			if read.n > 0 {
				c = c.AtOffset(answer, read.off, read.n)
			}
			v.Checks = append(v.Checks, c)
		}
		return v
	case ReaderScore:
		s, c := findScore(answer, off, rd.label, rd.hi)
		if c != nil {
			return fail(*c)
		}
		v.Checks = append(v.Checks, s.checks...)
		score, where, at, n = s.value, "at "+diag.LineCol(answer, s.off), s.off, s.end-s.off
		v.site = rd.scoreSite(s.numOff, s.number)
	case ReaderJSON:
		p, err := output.FindJSON(rd.id, answer, rd.keys...)
		if p != nil {
			d.Fields = p.Object // with an error: what arrived before the cut, shown for what it is
		}
		if err != nil {
			return fail(outputCheck(err))
		}
		v.Checks = append(v.Checks, repairChecks(answer, p.Repairs)...)
		for k, f := range []*Field{rd.pass, rd.score, rd.why} {
			if f == nil {
				continue
			}
			vals, missing := pickPath(p.Object, f.Path)
			if first, last, twice := pathConflict(p, p.Object, f.Path); twice && k < 2 {
				return fail(diag.Fail(diag.AnswerSeveralVerdicts, "the answer's JSON gives "+f.Path+" twice with different values (at "+diag.LineCol(answer, first)+
					" and at "+diag.LineCol(answer, last)+"), so it cannot be read").AtOffset(answer, last, 0))
			}
			switch {
			case k == 2 && len(vals) == 1:
				d.Reason, _ = vals[0].v.(string)
				if _, isText := vals[0].v.(string); !isText && vals[0].v != nil {
					d.Reason = describeValue(vals[0].v)
				}
				continue
			case k == 2:
				v.Checks = append(v.Checks, diag.Warn(diag.AnswerMissingField, "the answer's JSON has no "+f.Path+" (the reason)"))
				continue
			case missing != "":
				return fail(diag.Fail(diag.AnswerMissingField, "the answer's JSON has no "+missing+" (the field "+f.Path+")"))
			case len(vals) == 0:
				return fail(diag.Fail(diag.AnswerMissingField, "the list at "+f.Path+" is empty: nothing to read"))
			}
			all, some, sum := true, false, 0.0
			for _, x := range vals {
				ok := k == 0 && containsValue(rd.passValues, x.v)
				if k == 0 && !ok && rd.failValues != nil && !containsValue(rd.failValues, x.v) {
					return fail(diag.Fail(diag.AnswerBadField, "the value at "+x.path+" is "+describeValue(x.v)+": neither a pass value ("+describeValues(rd.passValues)+
						") nor a fail value ("+describeValues(rd.failValues)+")"))
				}
				all, some = all && ok, some || ok
				n, isNum := scoreValue(x.v)
				if k == 1 && !isNum {
					return fail(diag.Fail(diag.AnswerBadField, "the score at "+x.path+" is "+describeValue(x.v)+", not a number"))
				}
				sum += n / float64(len(vals)) // each a share of the mean: a sum of 1e308s would overflow
			}
			if k == 0 {
				setPassed(v, all || f.Combine == "any" && some)
				if s, ok := vals[0].v.(string); ok && len(vals) == 1 {
					d.Label = s
				}
				continue
			}
			score, where = sum, "at "+f.Path
		}
		v.site = rd.jsonSite(answer, p, v)
		if rd.score == nil {
			return v
		}
	}
	if rd.hasRange && (score < rd.lo || score > rd.hi) {
		return fail(diag.Fail(diag.AnswerOutOfRange, "the score "+formatNumber(score)+" ("+where+") is outside "+formatNumber(rd.lo)+".."+formatNumber(rd.hi)).AtOffset(answer, at, n))
	}
	v.Score = verdictScore(score)
	if rd.hasAt {
		v.Passed = verdictPassed(score >= rd.passAt)
	}
	return v
}

// scoreSite is the site of a score reader's number.
func (rd *reader) scoreSite(off int, number string) *verdictSite {
	if !rd.hasRange {
		return &verdictSite{off: off, n: len(number), unsupported: "the reader has no min and max: there is no scale to weigh the score on"}
	}
	return scoreSite(off, number, rd.lo, rd.hi, rd.passAt, rd.hasAt)
}

// jsonSite is the site of a json reader's verdict: its pass field's value when it has one, else
// its score's.
func (rd *reader) jsonSite(answer string, p *output.Payload, v *Verdict) *verdictSite {
	f := rd.pass
	if f == nil {
		f = rd.score
	}
	s, why := fieldSite(answer, p, f.Path)
	switch {
	case s == nil:
		return &verdictSite{unsupported: why}
	case rd.pass == nil:
		number := answer[s.off:numberEnd(answer, s.off)]
		site := rd.scoreSite(s.off, number)
		if number == "" && site.unsupported == "" {
			site.unsupported = "the score at " + f.Path + " is not written as a number"
		}
		return site
	case rd.classes == nil:
		s.unsupported = rd.classless
	default:
		s.words, s.pass = rd.classes, v.Passed != nil && *v.Passed
	}
	return s
}

// setPassed sets v's verdict to passed, with the score 1 or 0.
func setPassed(v *Verdict, passed bool) {
	v.Passed = verdictPassed(passed)
	v.Score = verdictScore(0)
	if passed {
		*v.Score = 1
	}
}

// scoreFound is the score a score reader read.
type scoreFound struct {
	value      float64
	text       string // as written: "4", "4/5"
	off, end   int    // from the label to the end of the number
	number     string // the number alone, as written: "4" of "4/5"
	numOff     int    // where it starts
	otherScale bool   // written over another maximum than the reader's ("8/10" for 1-5)
	checks     []diag.Check
}

// findScore reads a labelled number in answer[from:]: label (as a word, any case) then ':' or
// '=' then a number, with Markdown emphasis, quotes and spaces allowed around each ("Score: 4",
// "**Score:** 4/5", "Score = 4.5", "\"score\": 4"), or the label as a tag in brackets or angle
// brackets then the number ("[RESULT] 4", as Prometheus-style judges end their feedback;
// "<S2>4</S2>", as Microsoft's and Azure AI's evaluators ask for the score; "<score>4</score>").
// Scores on the reader's scale that disagree are answer.several-verdicts, an error: no score
// (findScoreOf); one written over another maximum before the score ("8/10", then "4/5") only
// warns, and the score on this scale is read; a number over another maximum read as the score is
// an error.
//
// An occurrence right after another word is the score of something else when the answer also
// has the label on its own: "Overall Score: 4" then "Clarity Score: 2" scores the answer 4, and
// "Score: 4" then "a Score: 5 would need more detail" 4. "Final", "Overall" and "Total" only
// say which score it is. When every occurrence follows a word, they are read as they come.
func findScore(answer string, from int, label string, max float64) (*scoreFound, *diag.Check) {
	if plain := findScoreOf(answer, from, label, max, false); plain.found != nil || plain.anyPlain {
		found, c := plain.result(answer, from, label, max)
		for _, o := range plain.others {
			if v, _ := exact.ParseFloat(o.number); found != nil && v != found.value {
				found.checks = append(found.checks, diag.Warn(diag.AnswerSeveralScores, "the answer gives other scores ("+quote(answer[o.off:o.end])+
					" at "+diag.LineCol(answer, o.off)+"), after another word: read as the score of something else; read "+found.text+" at "+diag.LineCol(answer, found.off)).
					AtOffset(answer, o.off, o.end-o.off))
				break
			}
		}
		return found, c
	}
	return findScoreOf(answer, from, label, max, true).result(answer, from, label, max)
}

// scoreScan is what one pass of findScoreOf saw: the score found, and where the label was
// followed by no number, by a range or by a number it cannot read.
type scoreScan struct {
	found                 *scoreFound
	bare, ranged, unclear int
	unclearText           string
	anyPlain              bool // the label occurs on its own at least once (not after another word)
	others                []otherScore
	several               *diag.Check // scores on the reader's scale that disagree: no score
}

// otherScore is a number after the label where the label follows another word ("Clarity Score:
// 2"), skipped while the label also occurs on its own.
type otherScore struct {
	off, end int // from the word before the label to the end of the number
	number   string
}

// qualifierWords only say which score a label is, not that it is another one.
var qualifierWords = []string{"final", "overall", "total"}

// qualified reports whether the label at answer[start:] follows another word on its line (after
// white space and emphasis), other than one of qualifierWords: "Clarity Score", "a Score". It
// returns where that word starts, or -1.
func qualified(answer string, start int) int {
	i := start
	for i > 0 && strings.IndexByte(" \t*_", answer[i-1]) >= 0 {
		i--
	}
	j := i
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(answer[:j])
		if !isWordRune(r) {
			break
		}
		j -= size
	}
	if j == i {
		return -1
	}
	for _, w := range qualifierWords {
		if strings.EqualFold(answer[j:i], w) {
			return -1
		}
	}
	return j
}

// findScoreOf is one pass of findScore: over the occurrences of label that follow no other word
// (all of them with qualifiedToo).
func findScoreOf(answer string, from int, label string, max float64, qualifiedToo bool) (sc scoreScan) {
	skip := func(i int) int {
		for i < len(answer) && strings.IndexByte(" \t*_\"'`", answer[i]) >= 0 {
			i++
		}
		return i
	}
	sc.bare, sc.ranged, sc.unclear = -1, -1, -1
	var found scoreFound // the last score read, when has
	has := false
	var changed severalScores
	// The first score on the reader's scale, and the first that disagrees with it: a judge that
	// writes "Score: 4" and then "Score: 2" contradicts itself, as one that writes "Yes" and then
	// "Final answer: No" does, and the verdict is undetermined as the yes/no rule makes it
	// (answer.several-verdicts), never the one written last. Scores of aspects (after another
	// word) and over another maximum are not the score: they only warn.
	var first, against *scoreFound
	for i := from; ; {
		j := indexFold(answer[i:], label)
		if j < 0 {
			break
		}
		start := i + j
		i = start + len(label)
		before, _ := utf8.DecodeLastRuneInString(answer[:start])
		after, _ := utf8.DecodeRuneInString(answer[i:])
		k := skip(i)
		// An aside in parentheses may stand before the colon: "Score (1-5): 4", "Relevance (out of 5): 4".
		if c := strings.IndexByte(answer[k:min(len(answer), k+25)], ')'); k < len(answer) && answer[k] == '(' && c > 0 && !strings.ContainsAny(answer[k+1:k+c], "\n(") {
			k = skip(k + c + 1)
		}
		if isWordRune(before) || isWordRune(after) || k >= len(answer) {
			continue
		}
		if before == '[' && answer[k] == ']' || before == '<' && answer[k] == '>' {
			// A tag in brackets is its own separator: Prometheus' "[RESULT] 4" (a ':' or '='
			// may follow it too), Microsoft's "<S2>4</S2>".
			if c := skip(k + 1); c < len(answer) && (answer[c] == ':' || answer[c] == '=') {
				k = c
			}
		} else if answer[k] != ':' && answer[k] != '=' {
			continue
		}
		if word := qualified(answer, start); word >= 0 {
			if !qualifiedToo {
				if n := skip(k + 1); numberEnd(answer, n) > n {
					sc.others = append(sc.others, otherScore{off: word, end: numberEnd(answer, n), number: answer[n:numberEnd(answer, n)]})
				}
				continue
			}
		} else {
			sc.anyPlain = true
		}
		k = numberStart(answer, skip(k+1))
		e := numberEnd(answer, k)
		if e == k {
			sc.bare = start
			continue
		}
		num := e // the number's end; e goes on past a closing bracket
		if k > 0 && answer[k-1] == '[' {
			if e >= len(answer) || answer[e] != ']' {
				sc.bare = start // "Score: [4 out of 5]": not a number in brackets
				continue
			}
			e++ // "Score: [4]": the prompt's "[your score]" filled in
		}
		if isRange(answer, skip(e)) {
			// "Score: 1-5" echoes the scale, "Score: 3-4" hesitates: neither is one score.
			sc.ranged, i = start, e
			continue
		}
		if e+1 < len(answer) && answer[e] == ',' && answer[e+1] >= '0' && answer[e+1] <= '9' {
			// "Score: 4,5" is 4.5 where the comma is the decimal mark, "Score: 1,000" a
			// thousand: either way not the 4 or the 1 before the comma.
			c := e + 1
			for c < len(answer) && (answer[c] >= '0' && answer[c] <= '9' || answer[c] == ',') {
				c++
			}
			sc.unclear, sc.unclearText, i = start, answer[k:c], c
			continue
		}
		s := scoreFound{text: answer[k:num], off: start, end: e, number: answer[k:num], numOff: k}
		s.value, _ = exact.ParseFloat(s.text)
		if d := skip(e); d < len(answer) && answer[d] == '/' {
			if de := numberEnd(answer, skip(d+1)); de > skip(d+1) {
				den, _ := exact.ParseFloat(answer[skip(d+1):de])
				s.text, s.otherScale, e, s.end = answer[k:de], den != max, de, de
			}
		}
		if has && found.value != s.value {
			// Worded once the scan is over: a position costs a pass over the answer, and an
			// answer may give thousands of scores.
			changed = severalScores{earlier: found.text, earlierOff: found.off, later: s.text, off: start, n: e - start}
		}
		if !s.otherScale && !qualifiedToo {
			if first == nil {
				f := s
				first = &f
			} else if against == nil && first.value != s.value {
				a := s
				against = &a
			}
		}
		found, has, i = s, true, e
	}
	if !has {
		return sc
	}
	if against != nil {
		c := diag.Fail(diag.AnswerSeveralVerdicts, "the answer gives scores that disagree ("+first.text+" at "+diag.LineCol(answer, first.off)+", "+against.text+" at "+diag.LineCol(answer, against.off)+
			"): no score read, as for verdicts that disagree").AtOffset(answer, against.off, against.end-against.off)
		sc.several = &c
		return sc
	}
	if changed.later != "" {
		found.checks = []diag.Check{diag.Warn(diag.AnswerSeveralScores, "the answer gives several scores ("+changed.earlier+" at "+diag.LineCol(answer, changed.earlierOff)+
			", "+changed.later+" at "+diag.LineCol(answer, changed.off)+"): read the last").AtOffset(answer, changed.off, changed.n)}
	}
	sc.found = &found
	return sc
}

// severalScores is where the score read last first differed from the one before it.
type severalScores struct {
	earlier, later     string
	earlierOff, off, n int
}

// result is the score findScore read in this scan, or the check that says why there is none.
func (sc scoreScan) result(answer string, from int, label string, max float64) (*scoreFound, *diag.Check) {
	found, bare, ranged := sc.found, sc.bare, sc.ranged
	switch {
	case sc.several != nil:
		return nil, sc.several
	case found != nil && found.otherScale:
		c := diag.Fail(diag.AnswerOtherScale, "the score "+found.text+" at "+diag.LineCol(answer, found.off)+" is not out of "+formatNumber(max)+": not read on this scale").AtOffset(answer, found.off, found.end-found.off)
		return nil, &c
	case found != nil:
		return found, nil
	case strings.TrimSpace(answer[from:]) == "":
		c := diag.Fail(diag.AnswerEmpty, "the answer is empty: it has no "+label+": <number>")
		return nil, &c
	case ranged >= 0:
		c := diag.Fail(diag.AnswerNoVerdict, "the answer's "+quote(label)+" at "+diag.LineCol(answer, ranged)+" is followed by a range, not one score: "+quoteExcerpt(answer[ranged:])).AtOffset(answer, ranged, len(label))
		return nil, &c
	case sc.unclear >= 0:
		c := diag.Fail(diag.AnswerNoVerdict, "the answer's "+quote(label)+" at "+diag.LineCol(answer, sc.unclear)+" is followed by "+quote(sc.unclearText)+
			", whose comma may be a decimal mark or a thousands separator: no score read").AtOffset(answer, sc.unclear, len(label))
		return nil, &c
	case bare >= 0:
		c := diag.Fail(diag.AnswerNoVerdict, "the answer's "+quote(label)+" at "+diag.LineCol(answer, bare)+" is followed by no number").AtOffset(answer, bare, len(label))
		return nil, &c
	}
	c := diag.Fail(diag.AnswerNoVerdict, "the answer has no "+quote(label+": <number>")+": "+quoteExcerpt(strings.TrimSpace(answer[from:])))
	return nil, &c
}

// numberStart returns where the number after a label's separator starts, from k (after the
// separator's spaces): k, or past one opening bracket ("Score: [4]", a prompt's "[score]"
// filled in), or on the next line (a Markdown heading or bold label above its number,
// "**Score:**\n4"), at most two line breaks down.
func numberStart(answer string, k int) int {
	if k < len(answer) && answer[k] == '[' {
		return k + 1
	}
	j, breaks := k, 0
	for j < len(answer) && strings.IndexByte(" \t\r\n*_", answer[j]) >= 0 {
		if answer[j] == '\n' {
			breaks++
		}
		j++
	}
	if breaks > 0 && breaks <= 2 && numberEnd(answer, j) > j {
		return j
	}
	return k
}

// isRange reports whether answer[i:] goes on from a number to another one, as a range does:
// "-", "–", "—" or "to", then a number ("1-5", "3 – 4", "3 to 4").
func isRange(answer string, i int) bool {
	rest := answer[i:]
	switch {
	case strings.HasPrefix(rest, "-"):
		rest = rest[1:]
	case strings.HasPrefix(rest, "–"), strings.HasPrefix(rest, "—"):
		rest = rest[len("–"):]
	case len(rest) > 2 && strings.EqualFold(rest[:2], "to") && (rest[2] == ' ' || rest[2] == '\t'):
		rest = rest[2:]
	default:
		return false
	}
	t := strings.TrimLeft(rest, " \t*_")
	return numberEnd(t, 0) > 0
}

// numberEnd returns the end of the decimal number at answer[i:] (a sign, digits, a fraction
// whose '.' is followed by a digit: "Score: 4." ends at 4), or i; a number followed by a letter
// ("4th") is none.
func numberEnd(answer string, i int) int {
	j := i
	if j < len(answer) && (answer[j] == '-' || answer[j] == '+') {
		j++
	}
	d, dot := j, false
	for ; j < len(answer) && (answer[j] >= '0' && answer[j] <= '9' || answer[j] == '.' && !dot && j > d && j+1 < len(answer) && answer[j+1] >= '0' && answer[j+1] <= '9'); j++ {
		dot = dot || answer[j] == '.'
	}
	if r, _ := utf8.DecodeRuneInString(answer[j:]); j == d || isWordRune(r) || unicode.IsNumber(r) {
		return i // "4th"; "4½", "4²" are not 4
	}
	return j
}

// scoreValue reads a score: a number, a string holding a decimal one (" 4.5 "), or a boolean as
// 1 or 0 (a mean of booleans is the share that holds).
func scoreValue(v any) (float64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		t := strings.TrimSpace(x)
		f, err := exact.ParseFloat(t)
		return f, t != "" && numberEnd(t, 0) == len(t) && err == nil
	}
	return jsonNumber(v)
}

// describeValue is v as a message shows it: its JSON, cut to 60 characters.
func describeValue(v any) string {
	b, _ := value.Marshal(v)
	return diag.Clip(string(b), 60)
}

// describeValues lists vals as a message shows them: `true`, `"yes" or "idk"`.
func describeValues(vals []any) string {
	shown := make([]string, len(vals))
	for k, x := range vals {
		shown[k] = describeValue(x)
	}
	return strings.Join(shown, " or ")
}

// indexFold is strings.Index ignoring case (a first byte that differs in ASCII case too is
// skipped at once: labels are words).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s) && sub != ""; i++ {
		if s[i]|0x20 == sub[0]|0x20 && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
