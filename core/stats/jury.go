package stats

import "ragjudge/core/diag"

// A jury: one row judged by several judges (models), and the row's verdict taken from theirs by a
// rule (docs/ARCHITECTURE.md, "Trust statistics").

// The jury's rules.
const (
	// RuleMajority: the most frequent of passed, failed and undetermined, as a row's repeats are
	// summed up (Consistent): an undetermined member is a vote for "cannot say", so a jury whose
	// members mostly could not decide does not decide either. A tie for the most frequent is
	// undetermined: jury.tie when passed and failed tie, jury.undetermined when undetermined is
	// among the most frequent.
	RuleMajority = "majority"
	// RuleMean: the mean of the members' scores, members without a score left out (as Describe
	// leaves nulls out); undetermined (jury.undetermined) when no member has one. Passed is
	// mean ≥ PassAt when a passing score is given, else null (no pass rule, no check).
	RuleMean = "mean"
	// RuleAll: passes when every member passed; fails when any failed; otherwise, some
	// undetermined and none failed, undetermined (jury.undetermined): Kleene's three-valued and.
	RuleAll = "all"
	// RuleAny: passes when any member passed; fails when every member failed; otherwise, some
	// undetermined and none passed, undetermined (jury.undetermined): Kleene's three-valued or.
	RuleAny = "any"
)

// Member is one judge's verdict on the row: passed, failed or undetermined, and its score.
type Member struct {
	Verdict Verdict
	Score   Score
	_       [0]func() // not comparable: no equality function in the wasm
}

// Votes counts the members' verdicts.
type Votes struct {
	Passed       int       `json:"passed"`
	Failed       int       `json:"failed"`
	Undetermined int       `json:"undetermined"`
	_            [0]func() // not comparable: no equality function in the wasm
}

// JuryVerdict is the jury's verdict on a row, shaped as a verdict is (passed, score, checks), so
// that a page shows it as it shows one judge's.
type JuryVerdict struct {
	Passed *bool    `json:"passed"`
	Score  *float64 `json:"score"`
	Rule   string   `json:"rule"`
	// Members is the number of members; Votes their verdicts; Scored the members with a score.
	Members int   `json:"members"`
	Votes   Votes `json:"votes"`
	Scored  int   `json:"scored"`
	// Checks holds one error, jury.tie or jury.undetermined, when the jury's verdict is
	// undetermined (for RuleMean without a passing score, Passed is null with no check).
	Checks []diag.Check `json:"checks"`
}

// Jury is the verdict of a jury of members by rule; passAt is RuleMean's passing score, used when
// hasAt. It fails for an unknown rule, no members, and a passing score with another rule than
// RuleMean.
func Jury(members []Member, rule string, passAt float64, hasAt bool) (JuryVerdict, error) {
	switch {
	case rule != RuleMajority && rule != RuleMean && rule != RuleAll && rule != RuleAny:
		return JuryVerdict{}, &diag.Error{Kind: "input", Msg: "unknown rule " + diag.Quote(rule) + ": want \"majority\", \"mean\", \"all\" or \"any\""}
	case len(members) == 0:
		return JuryVerdict{}, &diag.Error{Kind: "input", Msg: "a jury needs at least one member's verdict"}
	case hasAt && rule != RuleMean:
		return JuryVerdict{}, &diag.Error{Kind: "input", Msg: "pass_at is for the rule \"mean\": rule " + diag.Quote(rule) + " passes by the members' verdicts"}
	}
	j := JuryVerdict{Rule: rule, Members: len(members), Checks: []diag.Check{}}
	sum := 0.0
	for i, m := range members {
		if !finite(m.Score) {
			return JuryVerdict{}, &diag.Error{Kind: "input", Msg: diag.Sprintf("member %d's score is not a finite number", i+1)}
		}
		switch m.Verdict {
		case Pass:
			j.Votes.Passed++
		case Fail:
			j.Votes.Failed++
		default:
			j.Votes.Undetermined++
		}
		if m.Score.Given {
			j.Scored++
			sum += m.Score.Value
		}
	}
	v := j.Votes
	undetermined := func(code diag.Code, msg string) {
		j.Checks = append(j.Checks, diag.Fail(code, msg))
	}
	counts := diag.Sprintf("%d passed, %d failed, %d undetermined", v.Passed, v.Failed, v.Undetermined)
	switch rule {
	case RuleMajority:
		top := max(v.Passed, v.Failed, v.Undetermined)
		switch {
		case v.Passed == top && v.Failed < top && v.Undetermined < top:
			j.set(true)
		case v.Failed == top && v.Passed < top && v.Undetermined < top:
			j.set(false)
		case v.Passed == top && v.Failed == top && v.Undetermined < top:
			undetermined(diag.JuryTie, "the jury is split evenly ("+counts+"): no majority")
		default:
			undetermined(diag.JuryUndetermined, "no verdict of the jury is more frequent than undetermined ("+counts+")")
		}
	case RuleAll:
		switch {
		case v.Failed > 0:
			j.set(false)
		case v.Undetermined > 0:
			undetermined(diag.JuryUndetermined, "no member failed, but not all passed ("+counts+"): whether all pass is not known")
		default:
			j.set(true)
		}
	case RuleAny:
		switch {
		case v.Passed > 0:
			j.set(true)
		case v.Undetermined > 0:
			undetermined(diag.JuryUndetermined, "no member passed, but not all failed ("+counts+"): whether any passes is not known")
		default:
			j.set(false)
		}
	case RuleMean:
		if j.Scored == 0 {
			undetermined(diag.JuryUndetermined, "no member of the jury gave a score")
			break
		}
		mean := sum / float64(j.Scored)
		j.Score = num(mean)
		if hasAt {
			j.Passed = boolPtr(mean >= passAt)
		}
	}
	return j, nil
}

// set sets the jury's verdict from a pass-or-fail rule, with the score 1 or 0.
func (j *JuryVerdict) set(passed bool) {
	j.Passed = boolPtr(passed)
	j.Score = num(0)
	if passed {
		*j.Score = 1
	}
}
