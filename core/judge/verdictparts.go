package judge

import (
	"ragjudge/core/diag"
	"ragjudge/core/output"
)

// The parts every built-in evaluator's Parse builds its Verdict from: the checks of reading the
// judge's answer, Passed and Score, and the answer's text as messages quote it.

// outputCheck words an unreadable judge answer as an error check, with where reading stopped.
func outputCheck(err error) diag.Check {
	if de, ok := err.(*diag.Error); ok {
		msg := de.Msg
		if de.Line > 0 {
			msg += diag.Sprintf(" (line %d, col %d)", de.Line, de.Col)
		}
		code := de.Code
		if code == "" {
			code = diag.AnswerUnreadable
		}
		return diag.Fail(code, msg).At(de.Line, de.Col, 0)
	}
	return diag.Fail(diag.AnswerUnreadable, err.Error())
}

// repairChecks turns the output reader's repairs into warnings pointing at where each was made.
func repairChecks(answer string, repairs []output.Repair) []diag.Check {
	checks := make([]diag.Check, len(repairs))
	for i, r := range repairs {
		checks[i] = r.Check(answer)
	}
	return checks
}

func verdictPassed(b bool) *bool { return &b }

func verdictScore(f float64) *float64 { return &f }

// quoteExcerpt quotes s, cut to 80 characters.
func quoteExcerpt(s string) string { return diag.Quote(diag.Clip(s, 80)) }
