package checkup

import (
	"strconv"
	"strings"

	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// The transformations of pairwise-faithfulness: GroUSE's failure modes of a grounded answer,
// made from the row's own actual output (answer 2, the one the verdict follows), and the
// position swap. The prompt's rubric decides each expectation: a sentence without a source, or
// with a source that does not say it, makes an answer unfaithful (0); an answer that only says
// no document answers is not measurable (null); a sentence of a reference followed by that
// reference is faithful (1).
const (
	CitationsRemoved = "citations-removed"
	CitationsMoved   = "citations-moved"
	ForeignAppended  = "foreign-appended"
	NoDocument       = "no-document"
	CitedContext     = "cited-context"
	PositionSwap     = "position-swap"
)

// noDocumentAnswer is the prompt's own words for an answer without sources.
const noDocumentAnswer = "No document seems to precisely answer your question."

func (m *maker) pairwise() {
	actual, _ := getS(m.in, "actual_output")
	contexts := itemTexts(get(m.in, "contexts"))
	w := m.e.Words
	cut := judge.Sentences(actual)
	cites := 0
	onlyNoDocument := true
	for _, s := range cut {
		cites += len(s.Cites)
		if !judge.NoDocument(s.Text) {
			onlyNoDocument = false
		}
	}

	const removedName = "Citations removed"
	if cites == 0 {
		m.skip(CitationsRemoved, removedName, "the actual output cites no reference: there is no citation to remove")
	} else if out, ok := removeCitations(actual, cut); ok {
		m.offer(CitationsRemoved, removedName, "actual_output", out, "the actual output with its "+plural(cites, "citation")+" removed: no sentence cites a source", expectPassed(w.Failed, w, false))
	} else {
		m.skip(CitationsRemoved, removedName, "without its citations the actual output has no sentence left that needs a source")
	}

	const movedName = "Every citation moved to a reference that does not hold the sentence"
	rg := m.rng(CitationsMoved)
	switch {
	case len(contexts) < 2:
		m.skip(CitationsMoved, movedName, "there is one reference only: no other to move a citation to")
	case cites == 0:
		m.skip(CitationsMoved, movedName, "the actual output cites no reference: there is no citation to move")
	default:
		// Each shift round the references, from a seeded one, until one leaves a witness.
		n, from := len(contexts), rg.intn(len(contexts)-1)
		moved := false
		for k := 0; k < n-1 && !moved; k++ {
			shift := 1 + (from+k)%(n-1)
			if out, wrong, ok := moveCitations(actual, cut, contexts, shift); ok {
				m.offer(CitationsMoved, movedName, "actual_output", out, "every citation [i] of the actual output now cites [i+"+strconv.Itoa(shift)+"] (round the "+strconv.Itoa(n)+
					" references); "+wrong+" now cites only references that share no content word with it", expectPassed(w.Failed, w, false))
				moved = true
			}
		}
		if !moved {
			m.skip(CitationsMoved, movedName, "however the citations are moved round the references, every sentence citing one shares words with its new reference, which might then hold it")
		}
	}

	const appendedName = "An uncited sentence from another row appended"
	rg = m.rng(ForeignAppended)
	if onlyNoDocument {
		m.skip(ForeignAppended, appendedName, "the actual output only says no document answers: with a sentence added its grade is a matter of reading, not of the rubric")
	} else if found, row := m.foreign(rg, m.stems, 1); len(found) == 0 {
		m.skip(ForeignAppended, appendedName, m.noForeign())
	} else if out, ok := appendSentence(actual, found[0]); ok {
		m.offer(ForeignAppended, appendedName, "actual_output", out, "the actual output, then a sentence of row "+strconv.Itoa(row+1)+" of the pool that shares no content word with this row, without a citation", expectPassed(w.Failed, w, false))
	} else {
		m.skip(ForeignAppended, appendedName, "the appended sentence would not stand as a sentence of its own after the actual output")
	}

	m.offer(NoDocument, "Only \"No document seems to precisely answer your question\"", "actual_output", noDocumentAnswer, "the actual output is only the prompt's own sentence for an answer without sources", expectPassed("not measurable (null)", w, nil))

	const citedName = "A reference's sentence followed by its right citation"
	rg = m.rng(CitedContext)
	if s, k, ok := pickSentence(rg, contexts, nil); !ok {
		m.skip(CitedContext, citedName, "no reference has a sentence that reads as one checkable claim (a sentence ending in a period, with three content words or more)")
	} else if out := strings.TrimSuffix(s, ".") + " [" + strconv.Itoa(k+1) + "]."; !oneCited(out, k+1) {
		m.skip(CitedContext, citedName, "the reference's sentence does not split as one sentence with its citation")
	} else {
		m.offer(CitedContext, citedName, "actual_output", out, "the actual output is a sentence of reference "+strconv.Itoa(k+1)+", copied as it is, citing ["+strconv.Itoa(k+1)+"]", expectPassed(w.Passed, w, true))
	}

	m.add(Case{Name: "Answers 1 and 2 exchanged", Transform: PositionSwap, Inputs: m.in, BothOrders: true,
		Note:   "the row judged twice, as it is and with the expected and actual outputs exchanged (answer 1 and answer 2)",
		Expect: value.NewObject("text", "the same grade for each answer in both orders", "orders", "same")})
}

// removeCitations returns text without its citations (and the spaces before each). ok is false
// when no sentence is left that needs one (only "No document seems to…").
func removeCitations(text string, cut []judge.Sentence) (string, bool) {
	var b strings.Builder
	at := 0
	for _, s := range cut {
		for _, c := range s.Cites {
			end := c.Start
			for end > at && (text[end-1] == ' ' || text[end-1] == '\t') {
				end--
			}
			b.WriteString(text[at:end])
			at = c.End
		}
	}
	b.WriteString(text[at:])
	out := b.String()
	return out, uncited(out) > 0 && citesNone(out)
}

// moveCitations rewrites every citation [i] of text as [i+shift] round the n references (a
// citation of a reference that does not exist stays). wrong names a sentence whose every new
// reference shares no content word with it, so that it certainly cites a source that does not
// hold it; ok is false when no sentence is such.
func moveCitations(text string, cut []judge.Sentence, contexts []string, shift int) (out, wrong string, ok bool) {
	n := len(contexts)
	moved := func(r int) int {
		if r < 1 || r > n {
			return r
		}
		return (r-1+shift)%n + 1
	}
	var b strings.Builder
	at := 0
	for _, s := range cut {
		for _, c := range s.Cites {
			b.WriteString(text[at:c.Start])
			b.WriteByte('[')
			for k, r := range c.Refs {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.Itoa(moved(r)))
			}
			b.WriteByte(']')
			at = c.End
		}
	}
	b.WriteString(text[at:])
	out = b.String()
	after := judge.Sentences(out)
	if len(after) != len(cut) {
		return out, "", false
	}
	for k, s := range after {
		if len(s.Refs) == 0 || !inRange(cut[k].Refs, n) {
			continue // a citation of no reference was wrong already: it is no witness of the move
		}
		plainText := withoutCitations(out, s)
		holds := false
		for _, r := range s.Refs {
			if stemsOf([]string{contexts[r-1]}).shares(plainText) {
				holds = true
			}
		}
		if !holds && contentCount(plainText) > 0 {
			return out, "sentence " + strconv.Itoa(k+1) + " (" + quote(s.Text) + ")", true
		}
	}
	return out, "", false
}

// inRange reports whether every reference of refs is one of the n references.
func inRange(refs []int, n int) bool {
	for _, r := range refs {
		if r < 1 || r > n {
			return false
		}
	}
	return true
}

// withoutCitations is sentence s of text without its citations.
func withoutCitations(text string, s judge.Sentence) string {
	var b strings.Builder
	at := s.Start
	for _, c := range s.Cites {
		if c.Start >= at {
			b.WriteString(text[at:c.Start])
			at = c.End
		}
	}
	if end := s.Start + len(s.Text); end > at {
		b.WriteString(text[at:end])
	}
	return b.String()
}

// appendSentence appends sentence to text, after a space or, if the citation check would not
// then read it as a sentence of its own without a citation, on a line of its own.
func appendSentence(text, sentence string) (string, bool) {
	base := strings.TrimRight(text, " \t\n")
	for _, sep := range []string{" ", "\n"} {
		out := base + sep + sentence
		cut := judge.Sentences(out)
		if last := cut[len(cut)-1]; last.Text == sentence && len(last.Refs) == 0 {
			return out, true
		}
	}
	return "", false
}

// oneCited reports whether text is one sentence citing exactly reference k.
func oneCited(text string, k int) bool {
	cut := judge.Sentences(text)
	return len(cut) == 1 && len(cut[0].Refs) == 1 && cut[0].Refs[0] == k
}

// uncited counts text's sentences that need a citation and have none.
func uncited(text string) int {
	n := 0
	for _, s := range judge.Sentences(text) {
		if len(s.Refs) == 0 && !judge.NoDocument(s.Text) {
			n++
		}
	}
	return n
}

func citesNone(text string) bool {
	for _, s := range judge.Sentences(text) {
		if len(s.Cites) > 0 {
			return false
		}
	}
	return true
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
