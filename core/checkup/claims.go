package checkup

import (
	"strconv"

	"ragjudge/core/value"
)

// The transformations of claim-groundedness. Each adds one claim to the row's own, at a seeded
// place among them, and expects that claim's grade (the others have none): the judge must find
// the claim among real ones, as it would a wrong one in an answer.
const (
	Verbatim        = "verbatim"
	Foreign         = "foreign"
	NumberChanged   = "number-changed"
	VerbatimForeign = "verbatim-plus-foreign"
)

func (m *maker) claims() {
	claims, _ := m.in.Get("claims")
	list, _ := claims.([]any)
	evidence, _ := m.in.Get("evidence")
	chunks := itemTexts(evidence)
	// A verbatim copy: an assertion of one evidence chunk, copied as it is.
	const verbatimName = "A claim copied verbatim from the evidence"
	rg := m.rng(Verbatim)
	if s, chunk, ok := pickSentence(rg, chunks, list); ok {
		m.addClaim(Verbatim, verbatimName, list, s, true, "the added claim is a sentence of evidence chunk "+strconv.Itoa(chunk+1)+", copied as it is")
	} else {
		m.skip(Verbatim, verbatimName, "no evidence chunk has a sentence that reads as one checkable claim (a sentence ending in a period, with three content words or more)")
	}

	const foreignName = "A claim from another row"
	rg = m.rng(Foreign)
	if found, row := m.foreign(rg, m.stems, 1); len(found) > 0 {
		m.addClaim(Foreign, foreignName, list, found[0], false, "the added claim is a sentence of row "+strconv.Itoa(row+1)+" of the pool, which shares no content word with this row")
	} else {
		m.skip(Foreign, foreignName, m.noForeign())
	}

	const numberName = "An evidence sentence with a number changed"
	rg = m.rng(NumberChanged)
	if ch, chunk, ok := m.changedSentence(rg, chunks); ok {
		m.addClaim(NumberChanged, numberName, list, ch.text, false, "the added claim is a sentence of evidence chunk "+strconv.Itoa(chunk+1)+
			" with "+ch.from+" changed to "+ch.to+", a number no input holds")
	} else {
		m.skip(NumberChanged, numberName, "no evidence sentence states a number that can change without doubt (a value written once, not a bound, a range, a date's part or a label such as \"Figure 3\")")
	}
}

// sourced is an assertion and the index of the text it is from.
type sourced struct {
	s    string
	text int
}

// assertionsFrom lists the assertions of each of texts (isAssertion), with where each is from,
// leaving out those in skip.
func assertionsFrom(texts []string, skip []string) []sourced {
	var all []sourced
	for k, t := range texts {
		for _, s := range assertions([]string{t}) {
			if !contains(skip, s) {
				all = append(all, sourced{s, k})
			}
		}
	}
	return all
}

// pickSentence picks an assertion of texts from a seeded start, one that stands alone and is not
// already a claim, and says which text it came from.
func pickSentence(rg *rng, texts []string, claims []any) (string, int, bool) {
	var all []sourced
	for _, f := range assertionsFrom(texts, itemTexts(claims)) {
		if standsAlone(f.s) {
			all = append(all, f)
		}
	}
	if len(all) == 0 {
		return "", 0, false
	}
	f := all[rg.intn(len(all))]
	return f.s, f.text, true
}

// changedSentence changes a number of an assertion of texts (changeNumber), trying the texts'
// assertions from a seeded start; the new number is one no text of the row holds.
func (m *maker) changedSentence(rg *rng, texts []string) (changedNumber, int, bool) {
	all := assertionsFrom(texts, nil)
	if len(all) == 0 {
		return changedNumber{}, 0, false
	}
	used := numberSet(m.texts)
	start, pick := rg.intn(len(all)), int(rg.next()%1024)
	for k := range all {
		f := all[(start+k)%len(all)]
		if ch, ok := changeNumber(f.s, used, pick); ok {
			return ch, f.text, true
		}
	}
	return changedNumber{}, 0, false
}

// addClaim adds a case whose claims are the row's with text inserted at a seeded place, and
// which expects that claim grounded or not. The added claim takes the id its place gives it
// when every claim is a plain text (c1, c2, … by position), else an id no claim has.
func (m *maker) addClaim(transform, name string, claims []any, text string, grounded bool, note string) {
	at := m.rng(transform + "/place").intn(len(claims) + 1)
	plainTexts := true
	for _, c := range claims {
		if _, ok := c.(string); !ok {
			plainTexts = false
		}
	}
	out := make([]any, 0, len(claims)+1)
	out = append(out, claims[:at]...)
	id := "c" + strconv.Itoa(at+1)
	if plainTexts {
		out = append(out, text)
	} else {
		id = freeID(claims)
		out = append(out, value.NewObject("id", id, "text", text))
	}
	out = append(out, claims[at:]...)
	word := "ungrounded"
	if grounded {
		word = "grounded"
	}
	m.offer(transform, name, "claims", out, note+"; it is claim "+id, value.NewObject("text", "claim "+id+" "+word, "claim", value.NewObject("id", id, "grounded", grounded)))
}

// freeID is an id no claim of the list has, by claim-groundedness's rules (a text, or an object
// without an id, is c<n> by its position, which the insertion moves by one: both ids are kept
// out).
func freeID(claims []any) string {
	taken := map[string]bool{}
	for k, c := range claims {
		taken["c"+strconv.Itoa(k+1)] = true
		taken["c"+strconv.Itoa(k+2)] = true
		if o, ok := c.(*value.Object); ok {
			switch id := get(o, "id").(type) {
			case string:
				taken[id] = true
			case int64:
				taken[strconv.FormatInt(id, 10)] = true
			}
		}
	}
	for n := 1; ; n++ {
		id := "checkup-" + strconv.Itoa(n)
		if !taken[id] {
			return id
		}
	}
}
