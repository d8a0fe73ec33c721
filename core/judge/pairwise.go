package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/output"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// pairwise-faithfulness: the judge grades two answers (the expected output and the actual
// output) for faithfulness to numbered references, each sentence needing an [i] citation, and
// answers JSON {"answer_1": {…}, "answer_2": {…}}. The verdict follows answer 2, the actual
// output, as the prompt's source does; a deterministic citation check of the actual output rides
// along, independent of the judge.

const pairwiseID = "pairwise-faithfulness"

var pairwiseEvaluator = Evaluator{
	ID:    pairwiseID,
	Order: 30,
	Title: "Pairwise faithfulness",
	Description: "Grades the expected and the actual answer for faithfulness to the references: every " +
		"sentence must cite a reference [i] that really says it. Also checks the actual answer's citations itself.",
	Dialect: template.Jinja,
	Inputs: []Input{
		{Name: "contexts", Label: "References", Kind: "list", Required: true,
			Help: "The retrieved passages, numbered 1, 2, … in order; answers cite them as [i]."},
		{Name: "expected_output", Label: "Expected answer", Kind: "text", Required: true,
			Help: "The reference answer (answer 1)."},
		{Name: "actual_output", Label: "Actual answer", Kind: "text", Required: true, Judged: true,
			Help: "The answer to evaluate (answer 2); the verdict follows its grade."},
	},
	Output: `JSON {"answer_1": {…, "faithfulness": true|false|null}, "answer_2": {…}}`,
	Words:  Words{Passed: "Faithful", Failed: "Not faithful"},
	View:   ViewPairwise,
	Score:  Score{Kind: ScoreBinary},
	Example: Example{inputsJSON: `{
		"contexts": [
			"The Great Barrier Reef, off the coast of Queensland, Australia, is the world's largest coral reef system.",
			"Mass coral bleaching on the reef is driven by rising sea temperatures."
		],
		"expected_output": "The Great Barrier Reef is the world's largest coral reef system [1]. Its corals bleach when the sea gets warmer [2].",
		"actual_output": "The Great Barrier Reef lies off Queensland, Australia [1]. It is the only living thing visible from space. Bleaching is mostly caused by overfishing [3]."
	}`, Answer: `{
  "answer_1": {
    "answer_only_asserts_no_document_answers": false,
    "content_analysis_sentence_by_sentence": [
      {"sentence": "The Great Barrier Reef is the world's largest coral reef system [1].", "criterion_1": "cites [1]", "criterion_2": "[1] is correct", "criterion_3": "faithful to [1]"},
      {"sentence": "Its corals bleach when the sea gets warmer [2].", "criterion_1": "cites [2]", "criterion_2": "[2] is correct", "criterion_3": "paraphrase of [2]"}
    ],
    "faithfulness_justification": "Every sentence cites the right reference and agrees with it.",
    "faithfulness": true
  },
  "answer_2": {
    "answer_only_asserts_no_document_answers": false,
    "content_analysis_sentence_by_sentence": [
      {"sentence": "The Great Barrier Reef lies off Queensland, Australia [1].", "criterion_1": "cites [1]", "criterion_2": "[1] is correct", "criterion_3": "faithful"},
      {"sentence": "It is the only living thing visible from space.", "criterion_1": "no reference", "criterion_2": "n/a", "criterion_3": "not in the references"},
      {"sentence": "Bleaching is mostly caused by overfishing [3].", "criterion_1": "cites [3]", "criterion_2": "there is no reference 3", "criterion_3": "contradicts [2]"}
    ],
    "faithfulness_justification": "One sentence has no source and another cites a reference that does not exist and contradicts [2].",
    "faithfulness": false
  }
}`},
	Variables: []string{"contexts", "expected_output", "actual_output"},
	vars:      pairwiseVars,
	parse:     pairwiseParse,
}

func init() { register(&pairwiseEvaluator) }

func pairwiseVars(in *value.Object) (*value.Object, []diag.Check, error) {
	contexts, err := argStrings(in, "contexts")
	if err != nil {
		return nil, nil, err
	}
	expected, err := argText(in, "expected_output")
	if err != nil {
		return nil, nil, err
	}
	actual, err := argText(in, "actual_output")
	if err != nil {
		return nil, nil, err
	}
	list := make([]any, len(contexts))
	for i, c := range contexts {
		list[i] = c
	}
	var checks []diag.Check
	if len(contexts) == 0 {
		checks = append(checks, emptyList("contexts", "there is no reference for the answers to cite: give at least one context"))
	}
	checks = append(checks, checkCitations(actual, len(contexts)).checks(actual, len(contexts))...)
	return value.NewObject("contexts", list, "expected_output", expected, "actual_output", actual), checks, nil
}

// pairwiseAnswer is the judge's grade of one answer, normalised.
type pairwiseAnswer struct {
	OnlyNoDocument *bool              `json:"answer_only_asserts_no_document_answers"`
	Sentences      []sentenceAnalysis `json:"content_analysis_sentence_by_sentence"`
	Justification  string             `json:"faithfulness_justification"`
	// Faithfulness is true, false, or null: not measurable, or not graded (then Checks says so).
	Faithfulness *bool `json:"faithfulness"`
	// Graded tells the two nulls apart: true when the judge gave a faithfulness grade, null
	// (not measurable) included; false when it gave none that could be read.
	Graded bool `json:"graded"`
}

type sentenceAnalysis struct {
	Sentence   string    `json:"sentence"`
	Criterion1 string    `json:"criterion_1"`
	Criterion2 string    `json:"criterion_2"`
	Criterion3 string    `json:"criterion_3"`
	_          [0]func() // not comparable: no equality function in the wasm
}

// pairwiseDetail is pairwise-faithfulness's Verdict.Verdict. Answer1 and Answer2 are null when
// the judge's answer has no readable grade for them.
type pairwiseDetail struct {
	Answer1   *pairwiseAnswer `json:"answer_1"`
	Answer2   *pairwiseAnswer `json:"answer_2"`
	Citations citationCheck   `json:"citations"`
}

func pairwiseParse(in *value.Object, answer string) *Verdict {
	contexts, _ := argStrings(in, "contexts")
	actual, _ := argText(in, "actual_output")
	d := &pairwiseDetail{Citations: checkCitations(actual, len(contexts))}
	v := &Verdict{Verdict: d} // Parse adds the citation check's warnings, as Render does

	// An answer cut short is undetermined whatever arrived of it, but a grade that arrived whole
	// (answer_1's, usually) is still shown; one the cut fell in is left out, not reported missing.
	p, err := output.FindJSON(pairwiseID, answer, "answer_1", "answer_2")
	if err != nil {
		v.Checks = append(v.Checks, outputCheck(err))
		if p == nil {
			return v
		}
	}
	v.Checks = append(v.Checks, repairChecks(answer, p.Repairs)...)
	// arrived returns the judge's grade of key when it arrived whole.
	arrived := func(key string) (any, bool) {
		g, ok := output.Field(p.Object, key)
		if o, isObject := g.(*value.Object); ok && isObject && !p.Closed(o) {
			return nil, false
		}
		return g, ok
	}
	// reportAt points checks about a graded answer at the judge's object for it, or at the
	// payload when that is not an object.
	reportAt := func(about any) func(diag.Check) {
		start, end := p.Start, p.End
		if o, ok := about.(*value.Object); ok {
			if s, e, ok := p.Span(o); ok {
				start, end = s, e
			}
		}
		return func(c diag.Check) { v.Checks = append(v.Checks, c.AtOffset(answer, start, end-start)) }
	}

	if a1, ok := arrived("answer_1"); ok {
		d.Answer1, _ = readPairwiseAnswer(a1, "answer_1", false, reportAt(a1))
	} else if !p.Cut {
		reportAt(nil)(diag.Warn(diag.PairwiseNoAnswer1, "the judge gave no answer_1: the expected output is not graded"))
	}
	a2, ok := arrived("answer_2")
	if !ok {
		if !p.Cut {
			reportAt(nil)(diag.Fail(diag.PairwiseNoAnswer2, "the judge gave no answer_2: the actual output, which the verdict follows, is not graded"))
		}
		return v
	}
	report := reportAt(a2)
	var graded bool
	d.Answer2, graded = readPairwiseAnswer(a2, "answer_2", true, report)
	if !graded || p.Cut {
		return v
	}
	// The judge gave answer_2, or its faithfulness, twice with different grades: the lenient
	// reading keeps the last, but either could be the judge's verdict.
	first, last, twice := p.Conflict(p.Object, "answer_2")
	if o, ok := a2.(*value.Object); ok && !twice {
		first, last, twice = p.Conflict(o, "faithfulness")
	}
	if twice {
		report(diag.Fail(diag.AnswerSeveralVerdicts, "the judge graded answer_2 twice, differently (at "+diag.LineCol(answer, first)+" and at "+diag.LineCol(answer, last)+"), so it cannot be read"))
		return v
	}
	if o, ok := a2.(*value.Object); ok {
		if key, _, ok := output.FieldKey(o, "faithfulness"); ok {
			if off, ok := p.ValueAt(o, key); ok {
				at, n := valueSite(answer, off)
				v.site = wordSite(at, n, gradeWords, d.Answer2.Faithfulness != nil && *d.Answer2.Faithfulness)
			}
		}
	}
	switch f := d.Answer2.Faithfulness; {
	case f == nil && d.Answer2.OnlyNoDocument != nil && !*d.Answer2.OnlyNoDocument:
		// The judge said the answer does more than assert that no document answers, so null is
		// not the prompt's "not measurable": say what the judge did, not what it did not find.
		report(diag.Fail(diag.PairwiseNotMeasurable, "undetermined: the judge graded answer_2's faithfulness null, though it says the actual output does more than assert that no document answers the question"))
	case f == nil:
		report(diag.Fail(diag.PairwiseNotMeasurable, "undetermined: the judge graded answer_2's faithfulness null, not measurable: it found the actual output only asserts that no document answers the question"))
	case *f:
		v.Passed, v.Score = verdictPassed(true), verdictScore(1)
	default:
		v.Passed, v.Score = verdictPassed(false), verdictScore(0)
	}
	return v
}

// readPairwiseAnswer reads the judge's grade of one answer (key "answer_1" or "answer_2").
// graded reports that the faithfulness grade was read (it may be null). A problem with the
// answer the verdict follows is an error, with the other one a warning.
func readPairwiseAnswer(v any, key string, decides bool, report func(diag.Check)) (a *pairwiseAnswer, graded bool) {
	problem := func(code diag.Code, format string, args ...any) {
		msg := diag.Sprintf(format, args...)
		if decides {
			report(diag.Fail(code, msg))
		} else {
			report(diag.Warn(code, msg))
		}
	}
	warn := func(code diag.Code, format string, args ...any) {
		report(diag.Warn(code, diag.Sprintf(format, args...)))
	}
	obj, ok := v.(*value.Object)
	if !ok {
		problem(diag.PairwiseBadAnswer, "the judge's %s is %s, not an object with a faithfulness grade", key, value.TypeName(v))
		return nil, false
	}
	a = &pairwiseAnswer{Sentences: []sentenceAnalysis{}}
	if ov, ok := output.Field(obj, "answer_only_asserts_no_document_answers"); ok && ov != nil {
		b, coerced, ok := output.Bool(ov)
		switch {
		case !ok:
			warn(diag.PairwiseBadFlag, "%s: answer_only_asserts_no_document_answers is %s, not true or false; ignored", key, output.Show(ov))
		case coerced:
			warn(diag.AnswerCoerced, "%s: read answer_only_asserts_no_document_answers %s as %t", key, output.Show(ov), b)
			fallthrough
		default:
			a.OnlyNoDocument = &b
		}
	}
	if jv, ok := output.Field(obj, "faithfulness_justification"); ok {
		if s, ok := output.Text(jv); ok {
			a.Justification = s
		} else {
			a.Justification = output.Show(jv)
		}
	}
	if sv, ok := output.Field(obj, "content_analysis_sentence_by_sentence"); ok {
		list, _ := sv.([]any)
		for _, item := range list {
			row, ok := item.(*value.Object)
			if !ok {
				continue
			}
			text := func(k string) string {
				x, _ := output.Field(row, k)
				if s, ok := output.Text(x); ok {
					return s
				}
				return output.Show(x)
			}
			a.Sentences = append(a.Sentences, sentenceAnalysis{Sentence: text("sentence"), Criterion1: text("criterion_1"), Criterion2: text("criterion_2"), Criterion3: text("criterion_3")})
		}
	}

	fv, ok := output.Field(obj, "faithfulness")
	if !ok {
		problem(diag.PairwiseNoGrade, "the judge gave %s no faithfulness grade", key)
		return a, false
	}
	if fv != nil {
		b, coerced, ok := output.Bool(fv)
		if s, isText := fv.(string); !ok && isText && isNullWord(s) {
			warn(diag.AnswerCoerced, "%s: read faithfulness %s as null", key, output.Show(fv))
		} else if !ok {
			problem(diag.PairwiseBadGrade, "%s: faithfulness is %s, not true, false, 1, 0 or null", key, output.Show(fv))
			return a, false
		} else {
			if coerced {
				warn(diag.AnswerCoerced, "%s: read faithfulness %s as %t", key, output.Show(fv), b)
			}
			a.Faithfulness = &b
		}
	}
	a.Graded = true
	switch only := a.OnlyNoDocument; {
	case only == nil:
	case a.Faithfulness == nil && !*only:
		warn(diag.PairwiseInconsistent, "%s: the judge graded faithfulness null (not measurable) but also says the answer does not only assert that no document answers", key)
	case a.Faithfulness != nil && *only:
		warn(diag.PairwiseInconsistent, "%s: the judge says the answer only asserts that no document answers, which the prompt grades null, but graded it %t", key, *a.Faithfulness)
	}
	return a, true
}

func isNullWord(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "null", "none", "n/a", "":
		return true
	}
	return false
}

// ---- the citation check ---------------------------------------------------------------------

// citationCheck is the deterministic check of the actual output's citations: every sentence
// must cite a reference [i], and every i must be in 1..len(contexts).
type citationCheck struct {
	Sentences  int           `json:"sentences"`    // how many sentences were checked
	Uncited    []uncitedRef  `json:"uncited"`      // sentences without an [i]
	OutOfRange []outOfBounds `json:"out_of_range"` // citations of references that do not exist
}

// uncitedRef is a sentence without a citation. Line, Col and Len (code points) place the
// sentence in actual_output.
type uncitedRef struct {
	SentenceIndex int       `json:"sentence_index"` // 1-based
	Sentence      string    `json:"sentence"`
	Line          int       `json:"line"`
	Col           int       `json:"col"`
	Len           int       `json:"len"`
	off           int       // byte offset in actual_output
	_             [0]func() // not comparable: no equality function in the wasm
}

// outOfBounds is a citation of a reference that does not exist. Line, Col and Len (code points)
// place the citation ("[3]", or "[1, 3]" when it cites several) in actual_output.
type outOfBounds struct {
	Ref           int       `json:"ref"`
	SentenceIndex int       `json:"sentence_index"`
	Sentence      string    `json:"sentence"`
	Line          int       `json:"line"`
	Col           int       `json:"col"`
	Len           int       `json:"len"`
	off, n        int       // bytes in actual_output
	_             [0]func() // not comparable: no equality function in the wasm
}

// checks words the citation check's findings as warnings about actual_output, each pointing at
// its sentence or citation there.
func (c citationCheck) checks(actual string, n int) []diag.Check {
	var checks []diag.Check
	for _, u := range c.Uncited {
		checks = append(checks, diag.Warn(diag.CitationUncited, diag.Sprintf("citation check: sentence %d of the actual output cites no reference: %s", u.SentenceIndex, quoteExcerpt(u.Sentence))).
			AtOffset(actual, u.off, len(u.Sentence)).In("actual_output"))
	}
	for _, o := range c.OutOfRange {
		have := "there are no references"
		switch n {
		case 0:
		case 1:
			have = "there is only reference [1]"
		default:
			have = diag.Sprintf("the references are [1] to [%d]", n)
		}
		checks = append(checks, diag.Warn(diag.CitationOutOfRange, diag.Sprintf("citation check: sentence %d of the actual output cites [%d], but %s: %s", o.SentenceIndex, o.Ref, have, quoteExcerpt(o.Sentence))).
			AtOffset(actual, o.off, o.n).In("actual_output"))
	}
	return checks
}

// checkCitations checks text's sentences (see splitSentences) against n references. A
// sentence that begins "No document seems to" (the prompt's own opening for an answer without
// sources) needs no citation.
func checkCitations(text string, n int) citationCheck {
	c := citationCheck{Uncited: []uncitedRef{}, OutOfRange: []outOfBounds{}}
	sentences := splitSentences(text)
	c.Sentences = len(sentences)
	for i, s := range sentences {
		if len(s.refs) == 0 && !NoDocument(s.text) {
			u := uncitedRef{SentenceIndex: i + 1, Sentence: s.text, off: s.start}
			u.Line, u.Col = diag.Position(text, s.start)
			u.Len = utf8.RuneCountInString(s.text)
			c.Uncited = append(c.Uncited, u)
		}
		seen := map[int]bool{}
		for _, ct := range s.cites {
			for _, r := range ct.refs {
				if (r < 1 || r > n) && !seen[r] {
					seen[r] = true
					o := outOfBounds{Ref: r, SentenceIndex: i + 1, Sentence: s.text, off: ct.off, n: ct.n}
					o.Line, o.Col = diag.Position(text, ct.off)
					o.Len = utf8.RuneCountInString(text[ct.off : ct.off+ct.n])
					c.OutOfRange = append(c.OutOfRange, o)
				}
			}
		}
	}
	return c
}

// NoDocument reports whether sentence begins "No document seems to", the prompt's own opening
// for an answer without sources, which needs no citation.
func NoDocument(sentence string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimLeft(sentence, "*_\"'“ ")), "no document seems to")
}

// Sentence is one sentence of an answer as the citation check splits it (see splitSentences):
// its text, where it starts (a byte offset), the references it cites in order, and its
// citations with their bytes.
type Sentence struct {
	Text  string
	Start int
	Refs  []int
	Cites []Citation
}

// Citation is one citation, "[2]" or "[1, 3-4]": its bytes in the whole text and what it cites.
type Citation struct {
	Start, End int
	Refs       []int
}

// Sentences splits text into sentences as the citation check does, so that a caller that
// rewrites an answer's citations (the check-up's) sees the sentences the judge's check sees.
func Sentences(text string) []Sentence {
	split := splitSentences(text)
	out := make([]Sentence, len(split))
	for i, s := range split {
		out[i] = Sentence{Text: s.text, Start: s.start, Refs: s.refs, Cites: make([]Citation, len(s.cites))}
		for k, c := range s.cites {
			out[i].Cites[k] = Citation{Start: c.off, End: c.off + c.n, Refs: c.refs}
		}
	}
	return out
}

type citedSentence struct {
	text  string
	start int   // byte offset of text in the whole text
	refs  []int // every reference number cited, in order, repeats removed
	cites []cite
}

// cite is one citation, "[2]" or "[1, 3-4]", with its bytes in the whole text.
type cite struct {
	refs   []int
	off, n int
}

// splitSentences splits text into sentences for the citation check. The rule:
//
//   - a line break ends a sentence (answers write lists and paragraphs on their own lines);
//   - '!', '?', '…' and '.' end a sentence, together with any closing quotes, brackets or
//     emphasis right after them and any citations that follow ("… capital. [1] It …": the [1]
//     belongs to the sentence before it, as the prompt asks for a source after each statement);
//   - but a '.' does not end one after a list number at the start of a line ("2. …"), when a
//     letter or digit follows it directly (3.5, e.g., U.S., example.com), when the word before
//     it is a single letter (initials) or a common abbreviation (Dr., Mr., vs., approx., Fig.,
//     …), or when the next word starts in lower case;
//   - a piece with no letter or digit outside its citations is not a sentence; its citations,
//     if any, go to the sentence before it.
func splitSentences(text string) []citedSentence {
	var out []citedSentence
	lineStart := 0
	add := func(piece string, at int) {
		at += lineStart + len(piece) - len(strings.TrimLeftFunc(piece, unicode.IsSpace))
		piece = strings.TrimSpace(piece)
		refs, cites, words := citationsIn(piece, at)
		if !words {
			if len(refs) > 0 && len(out) > 0 {
				last := &out[len(out)-1]
				last.refs = mergeRefs(last.refs, refs)
				last.cites = append(last.cites, cites...)
			}
			return
		}
		out = append(out, citedSentence{text: piece, start: at, refs: refs, cites: cites})
	}
	for li, line := range strings.Split(text, "\n") {
		if li > 0 {
			lineStart += 1 // the line break before this line
		}
		start := 0
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			if r != '.' && r != '!' && r != '?' && r != '…' {
				i += size
				continue
			}
			j := i
			for j < len(line) {
				q, qs := utf8.DecodeRuneInString(line[j:])
				if q != '.' && q != '!' && q != '?' && q != '…' {
					break
				}
				j += qs
			}
			if r == '.' && j == i+1 && (!periodEnds(line, i) || isListMarker(line[start:i])) {
				i = j
				continue
			}
			k := j
			for k < len(line) && strings.ContainsRune(`"')*_`+"`", rune(line[k])) {
				k++
			}
			for {
				q, qs := utf8.DecodeRuneInString(line[k:])
				if q != '”' && q != '’' && q != '»' {
					break
				}
				k += qs
			}
			for {
				m := k
				for m < len(line) && line[m] == ' ' {
					m++
				}
				end, _, ok := citationAt(line, m)
				if !ok {
					break
				}
				k = end
			}
			add(line[start:k], start)
			start, i = k, k
		}
		add(line[start:], start)
		lineStart += len(line)
	}
	return out
}

// isListMarker reports whether s, the start of a line before a '.', is a list number ("12").
func isListMarker(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isAbbreviation reports whether a period after word (in lower case) does not end the sentence.
// A switch rather than a map: a package-level map is built by init code, which in the wasm ran
// (and had V8 compile it) before the engine could start.
func isAbbreviation(word string) bool {
	switch word {
	case "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr",
		"vs", "cf", "al", "fig", "figs", "approx", "inc", "ltd",
		"co", "corp", "dept", "vol", "pp", "ca", "ed", "eds",
		"eq", "ref", "refs", "sec", "ch", "mt", "ft":
		return true
	}
	return false
}

// periodEnds reports whether the single '.' at line[i] ends a sentence (see splitSentences).
func periodEnds(line string, i int) bool {
	if i+1 < len(line) {
		r, _ := utf8.DecodeRuneInString(line[i+1:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	w := i
	for w > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:w])
		if !unicode.IsLetter(r) {
			break
		}
		w -= size
	}
	word := line[w:i]
	if utf8.RuneCountInString(word) == 1 || isAbbreviation(strings.ToLower(word)) {
		return false
	}
	// The next word, past spaces, quotes and citations.
	k := i + 1
	for k < len(line) {
		if end, _, ok := citationAt(line, k); ok {
			k = end
			continue
		}
		r, size := utf8.DecodeRuneInString(line[k:])
		if unicode.IsLetter(r) {
			return !unicode.IsLower(r)
		}
		if unicode.IsDigit(r) {
			return true
		}
		k += size
	}
	return true
}

// citationAt reads a citation at line[i]: "[" n { ("," | ";") n | "-" n } "]", with spaces
// allowed inside; a range a-b cites a and b and the numbers between (up to 100 of them).
func citationAt(line string, i int) (end int, refs []int, ok bool) {
	if i >= len(line) || line[i] != '[' {
		return 0, nil, false
	}
	j := i + 1
	num := func() (int, bool) {
		for j < len(line) && line[j] == ' ' {
			j++
		}
		k := j
		for k < len(line) && '0' <= line[k] && line[k] <= '9' && k-j < 6 {
			k++
		}
		if k == j || k < len(line) && '0' <= line[k] && line[k] <= '9' {
			return 0, false
		}
		n, _ := exact.Atoi(line[j:k])
		j = k
		for j < len(line) && line[j] == ' ' {
			j++
		}
		return n, true
	}
	n, ok := num()
	if !ok {
		return 0, nil, false
	}
	refs = append(refs, n)
	for j < len(line) && line[j] != ']' {
		sep := line[j]
		if sep != ',' && sep != ';' && sep != '-' {
			return 0, nil, false
		}
		j++
		m, ok := num()
		if !ok {
			return 0, nil, false
		}
		if sep == '-' && m > n && m-n <= 100 {
			for x := n + 1; x < m; x++ {
				refs = append(refs, x)
			}
		}
		refs = append(refs, m)
		n = m
	}
	if j >= len(line) {
		return 0, nil, false
	}
	return j + 1, refs, true
}

// citationsIn returns the references cited in s, the citations with their bytes (s starts at
// byte at of the whole text), and whether s has a letter or digit outside its citations.
func citationsIn(s string, at int) (refs []int, cites []cite, words bool) {
	for i := 0; i < len(s); {
		if end, r, ok := citationAt(s, i); ok {
			refs = mergeRefs(refs, r)
			cites = append(cites, cite{refs: r, off: at + i, n: end - i})
			i = end
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			words = true
		}
		i += size
	}
	return refs, cites, words
}

// mergeRefs appends the refs in add that refs does not hold yet.
func mergeRefs(refs, add []int) []int {
	for _, r := range add {
		seen := false
		for _, x := range refs {
			if x == r {
				seen = true
				break
			}
		}
		if !seen {
			refs = append(refs, r)
		}
	}
	return refs
}
