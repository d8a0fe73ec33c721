package checkup

import "strconv"

// answer-grounding: the answer is replaced by one made from the facts, in the row's own mode.
// Each expectation holds in strict and in lenient mode alike: a verbatim fact is an exact match;
// a sentence sharing no content word with any fact is no paraphrase and no single-hop inference;
// a number changed to one no fact holds contradicts the fact it came from ("numeric claims must
// match exactly").
func (m *maker) grounding() {
	facts, _ := m.in.Get("facts")
	texts := itemTexts(facts)
	w := m.e.Words
	mode := "strict"
	if s, ok := getS(m.in, "mode"); ok && s != "" {
		mode = s
	}
	in := " (mode " + mode + ")"

	const verbatimName = "A fact copied verbatim"
	rg := m.rng(Verbatim)
	fact, k, haveFact := pickSentence(rg, texts, nil)
	if haveFact {
		m.offer(Verbatim, verbatimName, "answer", fact, "the answer is a sentence of fact "+strconv.Itoa(k+1)+", copied as it is"+in, expectPassed(w.Passed, w, true))
	} else {
		m.skip(Verbatim, verbatimName, "no fact has a sentence that reads as one checkable claim (a sentence ending in a period, with three content words or more)")
	}

	const foreignName = "A sentence from another row"
	rg = m.rng(Foreign)
	found, row := m.foreign(rg, m.stems, 1)
	if len(found) > 0 {
		m.offer(Foreign, foreignName, "answer", found[0], "the answer is a sentence of row "+strconv.Itoa(row+1)+" of the pool, which shares no content word with this row"+in, expectPassed(w.Failed, w, false))
	} else {
		m.skip(Foreign, foreignName, m.noForeign())
	}

	const numberName = "A fact with a number changed"
	rg = m.rng(NumberChanged)
	if ch, k, ok := m.changedSentence(rg, texts); ok {
		m.offer(NumberChanged, numberName, "answer", ch.text, "the answer is a sentence of fact "+strconv.Itoa(k+1)+" with "+ch.from+" changed to "+ch.to+", which no fact holds"+in, expectPassed(w.Failed, w, false))
	} else {
		m.skip(NumberChanged, numberName, "no fact states a number that can change without doubt (a value written once, not a bound, a range, a date's part or a label such as \"Figure 3\")")
	}

	const plusName = "A verbatim fact plus a sentence from another row"
	switch {
	case !haveFact:
		m.skip(VerbatimForeign, plusName, "no fact has a sentence that reads as one checkable claim")
	case len(found) == 0:
		m.skip(VerbatimForeign, plusName, m.noForeign())
	default:
		m.offer(VerbatimForeign, plusName, "answer", fact+" "+found[0], "the answer is a sentence of fact "+strconv.Itoa(k+1)+", copied as it is, then a sentence of row "+strconv.Itoa(row+1)+
			" of the pool that shares no content word with this row"+in, expectPassed(w.Failed, w, false))
	}
}
