package checkup

import (
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/judge"
	"ragjudge/core/stats"
	"ragjudge/core/value"
)

// Position bias: a pairwise row judged in both orders, as it is (the expected output as answer
// 1, the actual output as answer 2) and with the two exchanged. A judge whose grade follows the
// slot rather than the answer (MT-Bench's "position bias") gives an answer one grade in one
// place and another in the other; the row is then undetermined (position.flip), and a run
// reports how often that happens and how often the first slot won.

// SwapInputs returns inputs with the two answers of a pairwise evaluator exchanged (a copy:
// inputs is not changed). The error is for an evaluator that compares no two answers.
func SwapInputs(r *judge.Registry, id string, inputs *value.Object) (*value.Object, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	if builtinOf(e) != "pairwise-faithfulness" {
		return nil, errorf(id, "%s compares no two answers: only pairwise-faithfulness (or an evaluator with its reader) can be judged in both orders", id)
	}
	out := &value.Object{}
	for _, k := range inputs.Keys() {
		v, _ := inputs.Get(k)
		switch k {
		case "expected_output":
			v, _ = inputs.Get("actual_output")
		case "actual_output":
			v, _ = inputs.Get("expected_output")
		}
		out.Set(k, v)
	}
	return out, nil
}

// slotGrade is one answer's grade in one order: true, false, null (not measurable), or none.
type slotGrade struct {
	graded bool
	value  any // true, false or nil
}

func gradeOf(detail *value.Object, key string) slotGrade {
	a := object(detail, key)
	graded, _ := get(a, "graded").(bool)
	if !graded {
		return slotGrade{}
	}
	f, _ := get(a, "faithfulness").(bool)
	if get(a, "faithfulness") == nil {
		return slotGrade{graded: true}
	}
	return slotGrade{graded: true, value: f}
}

// word says a grade in the prompt's terms.
func (g slotGrade) word() string {
	switch g.value {
	case true:
		return "1"
	case false:
		return "0"
	}
	return "null"
}

// winner is which slot's answer got the better grade in one order (1 faithful, 0 not): "first",
// "second", "tie", or nil when either is null or not graded.
func winner(first, second slotGrade) any {
	a, okA := first.value.(bool)
	b, okB := second.value.(bool)
	switch {
	case !first.graded || !second.graded || !okA || !okB:
		return nil
	case a == b:
		return "tie"
	case a:
		return "first"
	}
	return "second"
}

// CombineOrders combines the verdicts of one pairwise row judged in both orders: first on the
// row as it is, second on the row with its answers exchanged (SwapInputs). The result is a
// verdict of the row as it is: first's, with "orders" added to its detail ({agree, changed,
// exchanged, first_slot}), and the actual output's grade as passed and score when the two
// orders agree. An answer whose grade changed with its place makes it undetermined with the
// error position.flip; an actual output the exchanged order did not grade, with
// position.ungraded. second's checks follow as warnings ("in the exchanged order: …", without
// their positions, which are in the other answer), but for its citation check, which is about
// the expected output.
func CombineOrders(first, second *value.Object) (*value.Object, error) {
	d1, d2 := object(first, "verdict"), object(second, "verdict")
	if !has(d1, "answer_2") || !has(d2, "answer_2") {
		return nil, errorf("combineOrders", "both verdicts must be pairwise-faithfulness verdicts (with answer_1 and answer_2)")
	}
	// Each answer's grade in the first order and in the exchanged one, and its slot in each.
	grades := [2][2]slotGrade{{gradeOf(d1, "answer_2"), gradeOf(d2, "answer_1")}, {gradeOf(d1, "answer_1"), gradeOf(d2, "answer_2")}}
	names := [2]string{"actual_output", "expected_output"}
	slots := [2][2]string{{"2", "1"}, {"1", "2"}}

	out, detail := clone(first), clone(d1)
	checks := append([]any{}, list(first, "checks")...)
	for _, x := range list(second, "checks") {
		code, _ := getS(asObject(x), "code")
		if msg, ok := getS(asObject(x), "message"); ok && !strings.HasPrefix(code, "citation.") {
			checks = append(checks, checkObj(diag.SevWarning, code, "in the exchanged order: "+msg))
		}
	}
	changed := []any{}
	var why []string
	for k, g := range grades {
		if g[0].graded && g[1].graded && g[0].value != g[1].value {
			changed = append(changed, names[k])
			why = append(why, "the "+strings.ReplaceAll(names[k], "_", " ")+" got "+g[0].word()+" as answer "+slots[k][0]+" and "+g[1].word()+" as answer "+slots[k][1])
		}
	}
	var agree any
	switch actual := grades[0]; {
	case len(why) > 0:
		agree = false
		checks = append(checks, checkObj(diag.SevError, string(diag.PositionFlip), "the grades changed with the answers' places: "+strings.Join(why, "; ")))
	case actual[0].graded && actual[1].graded:
		agree = true
	case actual[0].graded:
		checks = append(checks, checkObj(diag.SevError, string(diag.PositionUngraded),
			"in the exchanged order the judge gave the actual output (then answer 1) no grade: the two orders cannot be compared"))
	}
	if agree != true {
		out.Set("passed", nil)
		out.Set("score", nil)
	}
	detail.Set("orders", value.NewObject("agree", agree, "changed", changed,
		"exchanged", value.NewObject("answer_1", get(d2, "answer_1"), "answer_2", get(d2, "answer_2")),
		"first_slot", []any{winner(grades[1][0], grades[0][0]), winner(grades[0][1], grades[1][1])}))
	out.Set("verdict", detail)
	out.Set("checks", checks)
	return out, nil
}

// clone is a shallow copy of o.
func clone(o *value.Object) *value.Object {
	out := &value.Object{}
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		out.Set(k, v)
	}
	return out
}

// list is o's field k as a list.
func list(o *value.Object, k string) []any { l, _ := get(o, k).([]any); return l }

// checkObj is a verdict's check as JSON has it.
func checkObj(severity, code, msg string) *value.Object {
	return value.NewObject("severity", severity, "code", code, "message", msg)
}

// Positions is what a run judged in both orders reports: of its rows, how many the two orders
// could be compared on and how many flipped (Flip: flips of compared, with its Wilson interval);
// of the orders where one slot's answer got the better grade, how often it was the first slot's
// (First: first of decided; near a half for a judge without position bias, since every answer
// sits in each slot once).
type Positions struct {
	Rows     int              `json:"rows"`
	Compared int              `json:"compared"`
	Flips    int              `json:"flips"`
	Flip     stats.Proportion `json:"flip"`
	Decided  int              `json:"decided"`
	FirstWon int              `json:"first_won"`
	First    stats.Proportion `json:"first"`
	// NotBoth counts the rows given without a combined verdict (null, or a verdict of one order).
	NotBoth int `json:"not_both"`
}

// PositionStats counts the combined verdicts (CombineOrders) of a run's rows; a null or a
// verdict of one order is counted in NotBoth.
func PositionStats(verdicts []any) Positions {
	p := Positions{Rows: len(verdicts)}
	for _, v := range verdicts {
		o := object(object(asObject(v), "verdict"), "orders")
		if o == nil {
			p.NotBoth++
			continue
		}
		switch get(o, "agree") {
		case true:
			p.Compared++
		case false:
			p.Compared++
			p.Flips++
		}
		slots, _ := get(o, "first_slot").([]any)
		for _, s := range slots {
			switch s {
			case "first":
				p.Decided++
				p.FirstWon++
			case "second":
				p.Decided++
			}
		}
	}
	p.Flip = stats.Share(p.Flips, p.Compared)
	p.First = stats.Share(p.FirstWon, p.Decided)
	if p.Compared == 0 {
		p.Flip.Reason = "no row was graded in both orders"
	}
	if p.Decided == 0 {
		p.First.Reason = "no order gave one answer 1 and the other 0"
	}
	return p
}
