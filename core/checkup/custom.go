package checkup

import (
	"strconv"
	"strings"

	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// The generic transformations, for custom evaluators: the judged input replaced by another
// row's, emptied, or cut in half. What is right for them depends on the rubric, so the user says
// it, in the definition's "checkup" field: {"replaced": false, "emptied": false, "halved": true},
// each true (the verdict must pass), false (must fail) or null (the judge must decline: a label
// mapped to null). A transformation the field does not name is not offered.
const (
	Replaced = "replaced"
	Emptied  = "emptied"
	Halved   = "halved"
)

// Generic lists the generic transformations in the order a check-up offers them.
var Generic = []string{Replaced, Emptied, Halved}

func (m *maker) generic() {
	var judged *judge.Input
	for k := range m.e.Inputs {
		if m.e.Inputs[k].Judged {
			judged = &m.e.Inputs[k]
		}
	}
	choices := object(m.e.Spec, "checkup")
	never := neverDecides(object(m.e.Spec, "output"))
	if t, _ := m.in.Get("threshold"); builtinOf(m.e) == "rag-recall" && (t == nil || t == "") {
		never = "rag-recall's verdict passes or fails only by a threshold, and this row has none: there is no verdict to expect"
	}
	w := m.e.Words
	for _, t := range Generic {
		name := genericName(t, judged)
		want, chosen := get(choices, t), has(choices, t)
		_, isBool := want.(bool)
		switch {
		case !chosen:
			if choices != nil || builtinOf(m.e) == "" {
				m.skip(t, name, "no expected verdict is chosen for it: set checkup."+t+" in the evaluator's definition (true, false or null)")
			}
			continue
		case want != nil && !isBool:
			m.skip(t, name, "checkup."+t+" is neither true, false nor null")
			continue
		case judged == nil:
			m.skip(t, name, "the evaluator marks no input as the one judged")
			continue
		case never != "":
			m.skip(t, name, never)
			continue
		}
		text := "declines (undetermined by the judge's own choice)"
		if b, ok := want.(bool); ok && b {
			text = w.Passed
		} else if ok {
			text = w.Failed
		}
		exp := expectPassed(text, w, want)
		cur, _ := m.in.Get(judged.Name)
		switch t {
		case Replaced:
			m.replaced(name, judged.Name, cur, exp)
		case Emptied:
			m.emptied(name, judged, cur, exp)
		case Halved:
			m.halved(name, judged.Name, cur, exp)
		}
	}
}

func genericName(t string, judged *judge.Input) string {
	what := "the judged input"
	if judged != nil {
		what = judged.Label
		if what == "" {
			what = judged.Name
		}
	}
	switch t {
	case Replaced:
		return what + " replaced by another row's"
	case Emptied:
		return what + " emptied"
	}
	return what + " cut in half"
}

// neverDecides says why a custom reader's verdicts never pass or fail (a score without pass_at,
// a json reader with neither pass nor pass_at), or "".
func neverDecides(out *value.Object) string {
	kind, _ := getS(out, "kind")
	switch {
	case kind == judge.ReaderScore && !has(out, "pass_at"):
		return "the evaluator's verdicts never pass or fail (a score without pass_at): there is no verdict to expect"
	case kind == judge.ReaderJSON && !has(out, "pass") && !has(out, "pass_at"):
		return "the evaluator's verdicts never pass or fail (a json reader without pass or pass_at): there is no verdict to expect"
	}
	return ""
}

// replaced: another row's judged input, one that shares no content word with this row's other
// inputs (its question, its context), so that it is certainly not this row's answer in other
// words; with no other input, one that shares no content word with this row's judged input.
func (m *maker) replaced(name, input string, cur any, exp *value.Object) {
	var others []string
	for _, k := range m.in.Keys() {
		if k != input {
			x, _ := m.in.Get(k)
			others = textsOf(x, others)
		}
	}
	against := "this row's other inputs"
	if contentCount(strings.Join(others, " ")) == 0 {
		others, against = textsOf(cur, nil), "this row's "+input
	}
	avoid := stemsOf(others)
	if len(m.pool) == 0 {
		m.skip(Replaced, name, "no other rows were given (options.pool)")
		return
	}
	rg := m.rng(Replaced)
	start := rg.intn(len(m.pool))
	for k := 0; k < len(m.pool) && k < maxPool; k++ {
		at := (start + k) % len(m.pool)
		v, _ := m.pool[at].Get(input)
		texts := textsOf(v, nil)
		joined := strings.Join(texts, " ")
		if contentCount(joined) == 0 || !sameShape(v, cur) || avoid.shares(joined) {
			continue
		}
		m.offer(Replaced, name, input, v, input+" is row "+strconv.Itoa(at+1)+" of the pool's, which shares no content word with "+against, exp)
		return
	}
	m.skip(Replaced, name, "no other row's "+input+" shares no content word with "+against+" ("+strconv.Itoa(min(len(m.pool), maxPool))+
		" rows looked at): on a dataset about one subject, another row's "+input+" could still suit this one")
}

// sameShape reports whether a and b are both texts or both lists.
func sameShape(a, b any) bool {
	_, at := a.(string)
	_, bt := b.(string)
	_, al := a.([]any)
	_, bl := b.([]any)
	return at && bt || al && bl
}

// emptied: the judged input as an empty text or list. A required input is never judged empty:
// ragjudge refuses it before paying for a call (input.blank, input.empty-list).
func (m *maker) emptied(name string, in *judge.Input, cur any, exp *value.Object) {
	if in.Required {
		m.skip(Emptied, name, in.Name+" is required: an empty one is refused before any call (input.blank, input.empty-list), so a judge never sees it")
		return
	}
	var empty any = ""
	if _, isList := cur.([]any); isList || in.Kind == "list" {
		empty = []any{}
	}
	m.offer(Emptied, name, in.Name, empty, in.Name+" is empty", exp)
}

// halved: the judged input's first half: half its items (a list of two or more), or its words up
// to half its length (a text of four words or more), cut at a word's end.
func (m *maker) halved(name, input string, cur any, exp *value.Object) {
	switch x := cur.(type) {
	case []any:
		if len(x) < 2 {
			m.skip(Halved, name, input+" has fewer than two items")
			return
		}
		half := len(x) / 2
		m.offer(Halved, name, input, append([]any{}, x[:half]...), input+" keeps its first "+strconv.Itoa(half)+" of "+strconv.Itoa(len(x))+" items", exp)
	case string:
		if len(words(x)) < 4 {
			m.skip(Halved, name, input+" has fewer than four words")
			return
		}
		cutAt := wordEndNear(x, len(x)/2)
		out := strings.TrimRight(x[:cutAt], " \t\n")
		m.offer(Halved, name, input, out, input+" is cut after "+strconv.Itoa(len(words(out)))+" of its "+strconv.Itoa(len(words(x)))+" words", exp)
	default:
		m.skip(Halved, name, input+" is neither a text nor a list")
	}
}

// wordEndNear is the end of the word of s nearest byte i that is neither s's start nor its end
// (s has four words or more).
func wordEndNear(s string, i int) int {
	var ends []int
	in := false
	for k, r := range s {
		letter := isWordRune(r)
		if in && !letter {
			ends = append(ends, k)
		}
		in = letter
	}
	best := -1
	for _, e := range ends {
		if strings.TrimSpace(s[e:]) == "" {
			continue
		}
		if best < 0 || abs(e-i) < abs(best-i) {
			best = e
		}
	}
	if best < 0 {
		return len(s)
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
