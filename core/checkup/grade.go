package checkup

import (
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// The outcomes of a graded case.
const (
	Caught       = "caught"       // the verdict says what the case's transformation makes right
	Missed       = "missed"       // the verdict says otherwise
	Undetermined = "undetermined" // the verdict does not say (unreadable, not graded, a reference missing)
)

// Grading is what Grade found: the outcome, a sentence saying why, and for an undetermined
// outcome the code of the verdict's check that left it so (answer.unreadable, claims.skipped).
type Grading struct {
	Outcome string    `json:"outcome"`
	Detail  string    `json:"detail"`
	Code    diag.Code `json:"code,omitempty"`
}

// An expectation (Case.Expect) is an object with "text" (what is expected, in words) and one of:
//
//   - "passed": true or false, the verdict's passed; or null, the judge must decline: the
//     verdict undetermined by the judge's own choice (pairwise.not-measurable, a label mapped to
//     null) and by nothing else. "words" are the evaluator's words for the two verdicts.
//   - "claim": {id, grounded}, the grade of one claim, read from the verdict's claim cards.
//   - "scores": rag-recall's passage scores and final score: "essential_min" and
//     "essential_max" bound every essential passage's score, "passage" (1-based) and
//     "passage_max" one essential passage's, "final_min" the final score, and "final_below"
//     names the case (by transform) whose final score this one's must be below, read from refs.
//   - "orders": "same", a case judged in both orders: the grades must follow the answers, not
//     their places (CombineOrders' verdict).
func expectPassed(text string, w judge.Words, passed any) *value.Object {
	return value.NewObject("text", text, "passed", passed, "words", value.NewObject("passed", w.Passed, "failed", w.Failed))
}

// Grade grades case c (a Case as JSON) by the verdict the evaluator gave on its inputs (as
// rj.parse returns it, or CombineOrders for a case judged in both orders). refs holds other
// verdicts of the same row's cases by transform, for an expectation relative to one
// ("final_below"); nil when none. The error is for a case or verdict that is not one.
func Grade(c, verdict, refs *value.Object) (Grading, error) {
	exp := object(c, "expect")
	if exp == nil {
		return Grading{}, errorf("case", "the case has no expect object: pass a case checkupCases made")
	}
	if verdict == nil {
		return Grading{}, errorf("verdict", "the verdict is not an object: pass what parse returned")
	}
	var g grader
	g.v = verdict
	switch {
	case has(exp, "passed"):
		g.passed(exp)
	case object(exp, "claim") != nil:
		g.claim(object(exp, "claim"))
	case object(exp, "scores") != nil:
		g.scores(object(exp, "scores"), refs)
	case has(exp, "orders"):
		g.orders()
	default:
		return Grading{}, errorf("case", "the case's expect holds none of passed, claim, scores, orders")
	}
	return g.result(), nil
}

// grader collects what each condition of an expectation found.
type grader struct {
	v             *value.Object
	missed, undet []string
	caught        []string
	code          diag.Code
}

func (g *grader) hit(s string)  { g.caught = append(g.caught, s) }
func (g *grader) miss(s string) { g.missed = append(g.missed, s) }

// unsure records an undetermined condition, with the verdict's first error as its cause when
// the verdict has one.
func (g *grader) unsure(s string) {
	if code, msg := firstError(g.v); code != "" {
		if g.code == "" {
			g.code = code
		}
		s += " (" + string(code) + ": " + msg + ")"
	}
	g.undet = append(g.undet, s)
}

// result: any condition missed is a miss; else any undetermined leaves the case undetermined.
func (g *grader) result() Grading {
	switch {
	case len(g.missed) > 0:
		return Grading{Outcome: Missed, Detail: strings.Join(g.missed, "; ")}
	case len(g.undet) > 0:
		return Grading{Outcome: Undetermined, Detail: strings.Join(g.undet, "; "), Code: g.code}
	}
	return Grading{Outcome: Caught, Detail: strings.Join(g.caught, "; ")}
}

func (g *grader) passed(exp *value.Object) {
	want, _ := exp.Get("passed")
	words := object(exp, "words")
	say := func(b bool) string {
		w, _ := getS(words, "failed")
		if b {
			w, _ = getS(words, "passed")
		}
		if w == "" {
			w = pick(b, "passed", "failed")
		}
		return diag.Quote(w)
	}
	got, _ := g.v.Get("passed")
	gb, decided := got.(bool)
	// The judge declined when the verdict is undetermined by its own choice alone: a grade of
	// null (not measurable), a label mapped to null. That is an answer, right or wrong.
	declined := !decided
	for _, c := range errorChecks(g.v) {
		declined = declined && c.code == diag.PairwiseNotMeasurable
	}
	switch wb, ok := want.(bool); {
	case ok && decided && gb == wb:
		g.hit("expected " + say(wb) + " and the judge said so")
	case ok && decided:
		g.miss("expected " + say(wb) + "; the judge said " + say(gb))
	case ok && declined:
		g.miss("expected " + say(wb) + "; the judge declined (not measurable)")
	case ok:
		g.unsure("expected " + say(wb) + "; the verdict is undetermined")
	case decided:
		g.miss("expected the judge to decline (not measurable); it said " + say(gb))
	case declined:
		g.hit("expected the judge to decline (not measurable) and it did")
	default:
		g.unsure("expected the judge to decline; the verdict is undetermined for another reason")
	}
}

func (g *grader) claim(exp *value.Object) {
	id, _ := getS(exp, "id")
	want, _ := exp.Get("grounded")
	wb, _ := want.(bool)
	word := func(b bool) string { return pick(b, "grounded", "ungrounded") }
	list, _ := get(object(g.v, "verdict"), "claims").([]any)
	for _, x := range list {
		card, _ := x.(*value.Object)
		if cid, _ := getS(card, "id"); cid != id {
			continue
		}
		switch status, _ := getS(card, "status"); status {
		case word(wb):
			g.hit("expected claim " + id + " " + word(wb) + " and the judge graded it so")
		case word(!wb):
			g.miss("expected claim " + id + " " + word(wb) + "; the judge graded it " + word(!wb))
		default:
			if g.code == "" && firstErrorCode(g.v) == "" {
				g.code = diag.ClaimsSkipped
			}
			g.unsure("expected claim " + id + " " + word(wb) + "; the judge gave it no grade (" + status + ")")
		}
		return
	}
	g.unsure("expected claim " + id + " " + word(wb) + "; the verdict has no card for it")
}

func (g *grader) scores(exp *value.Object, refs *value.Object) {
	final, ok := num(get(g.v, "score"))
	if !ok {
		g.unsure("the verdict has no recall (its passage scores could not be read)")
		return
	}
	essential, _ := get(object(g.v, "verdict"), "essential").([]any)
	scoreOf := func(x any) (float64, bool) { return num(get(asObject(x), "value")) }
	if lo, ok := num(get(exp, "essential_min")); ok {
		g.bound(essential, scoreOf, lo, true)
	}
	if hi, ok := num(get(exp, "essential_max")); ok {
		g.bound(essential, scoreOf, hi, false)
	}
	if k, ok := num(get(exp, "passage")); ok {
		hi, _ := num(get(exp, "passage_max"))
		n := int(k)
		name := "essential passage " + strconv.Itoa(n)
		switch s, ok := 0.0, n >= 1 && n <= len(essential); {
		case !ok:
			g.unsure("expected " + name + " scored at most " + fmtNum(hi) + "; the verdict has no score for it")
		default:
			s, ok = scoreOf(essential[n-1])
			switch {
			case !ok:
				g.unsure("expected " + name + " scored at most " + fmtNum(hi) + "; its score could not be read")
			case s <= hi:
				g.hit(name + " scored " + fmtNum(s) + ", at most " + fmtNum(hi) + " as expected")
			default:
				g.miss("expected " + name + " (removed from the answer) scored at most " + fmtNum(hi) + "; the judge gave it " + fmtNum(s))
			}
		}
	}
	if lo, ok := num(get(exp, "final_min")); ok {
		if final >= lo {
			g.hit("the recall is " + fmtNum(final) + ", at least " + fmtNum(lo))
		} else {
			g.miss("expected a recall of at least " + fmtNum(lo) + "; it is " + fmtNum(final))
		}
	}
	if ref, ok := getS(exp, "final_below"); ok {
		other := object(refs, ref)
		of, ok := num(get(other, "score"))
		switch {
		case other == nil:
			g.undet = append(g.undet, "expected a recall below the "+ref+" case's, whose verdict was not given")
		case !ok:
			g.undet = append(g.undet, "expected a recall below the "+ref+" case's, which is undetermined")
		case final < of:
			g.hit("the recall " + fmtNum(final) + " is below the " + ref + " case's " + fmtNum(of))
		default:
			g.miss("expected a recall below the " + ref + " case's " + fmtNum(of) + "; it is " + fmtNum(final))
		}
	}
}

// bound checks that every essential passage's score is at least (min) or at most bound.
func (g *grader) bound(essential []any, scoreOf func(any) (float64, bool), bound float64, atLeast bool) {
	word := " at most "
	if atLeast {
		word = " at least "
	}
	if len(essential) == 0 {
		g.unsure("expected every essential passage scored" + word + fmtNum(bound) + "; the verdict has no passage scores")
		return
	}
	var off []string
	for k, x := range essential {
		s, ok := scoreOf(x)
		if !ok {
			g.unsure("expected every essential passage scored" + word + fmtNum(bound) + "; passage " + strconv.Itoa(k+1) + "'s score could not be read")
			return
		}
		if atLeast && s < bound || !atLeast && s > bound {
			off = append(off, strconv.Itoa(k+1)+" ("+fmtNum(s)+")")
		}
	}
	if len(off) > 0 {
		g.miss("expected every essential passage scored" + word + fmtNum(bound) + "; the judge scored passage " + strings.Join(off, ", "))
		return
	}
	g.hit("every essential passage scored" + word + fmtNum(bound))
}

func (g *grader) orders() {
	o := object(object(g.v, "verdict"), "orders")
	if o == nil {
		g.undet = append(g.undet, "this case is judged in both orders: grade the verdict combineOrders made of the two")
		return
	}
	switch agree, _ := o.Get("agree"); agree {
	case true:
		g.hit("the grades followed the answers when their places were exchanged")
	case false:
		changed, _ := get(o, "changed").([]any)
		var names []string
		for _, x := range changed {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
		g.miss("the grade of " + strings.Join(names, " and ") + " changed when the answers' places were exchanged")
	default:
		g.unsure("the two orders could not be compared")
	}
}

// check is an error check of a verdict, as JSON gives it.
type check struct {
	code diag.Code
	msg  string
}

func errorChecks(v *value.Object) []check {
	list, _ := get(v, "checks").([]any)
	var out []check
	for _, x := range list {
		c := asObject(x)
		if sev, _ := getS(c, "severity"); sev == diag.SevError {
			code, _ := getS(c, "code")
			msg, _ := getS(c, "message")
			out = append(out, check{diag.Code(code), msg})
		}
	}
	return out
}

func firstError(v *value.Object) (diag.Code, string) {
	if cs := errorChecks(v); len(cs) > 0 {
		return cs[0].code, cs[0].msg
	}
	return "", ""
}

func firstErrorCode(v *value.Object) diag.Code { c, _ := firstError(v); return c }

func has(o *value.Object, k string) bool {
	if o == nil {
		return false
	}
	_, ok := o.Get(k)
	return ok
}

func get(o *value.Object, k string) any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(k)
	return v
}

func asObject(v any) *value.Object { o, _ := v.(*value.Object); return o }

// num is v as a number, if it is one.
func num(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// pick is yes when b, else no.
func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
