package judge

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/recall"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// rag-recall: the judge scores each essential (1–5) and bonus (0–5) passage of the ground truth
// for how well the returned passage covers it, and does the recall arithmetic itself. Its
// arithmetic is only compared: the verdict's score is recomputed exactly from its passage scores.

const ragRecallID = "rag-recall"

var ragRecallEvaluator = Evaluator{
	ID:    ragRecallID,
	Order: 40,
	Title: "RAG recall",
	Description: "Scores how much of each passage of the ground truth the returned passage covers " +
		"(essential passages 1–5, bonus passages 0–5) and combines the scores into a recall from 1 to 5, " +
		"recomputed exactly from the judge's passage scores.",
	Dialect: template.Format,
	Inputs: []Input{
		{Name: "passage_gt", Label: "Ground truth passages", Kind: "text", Required: true,
			Help: "The ideal response; mark passages with [ESSENTIAL PASSAGE] / [BONUS PASSAGE]."},
		{Name: "passage_llm", Label: "Returned passage", Kind: "text", Required: true, Judged: true,
			Help: "The passage the RAG system returned."},
		{Name: "threshold", Label: "Pass threshold", Kind: "number",
			Help: "Optional, 0–5: the verdict passes when the recall (rounded to 2 decimals) is at least this."},
	},
	Output: "text: a `Score: n` per passage, the RECALL_ formula lines and `RECALL_Final_Score: x`",
	Words:  Words{Passed: "Meets threshold", Failed: "Below threshold"},
	View:   ViewRecall,
	Score:  Score{Kind: ScoreScale, Max: 5, Decimals: 2},
	Example: Example{inputsJSON: `{
		"passage_gt": "[ESSENTIAL PASSAGE]\nPhotosynthesis converts light energy into chemical energy stored in glucose.\n\n[ESSENTIAL PASSAGE]\nIt takes place in the chloroplasts, which contain chlorophyll.\n\n[BONUS PASSAGE]\nOxygen is released as a by-product.\n\n[BONUS PASSAGE]\nC4 plants fix carbon in two stages to cope with heat.",
		"passage_llm": "Photosynthesis lets plants turn sunlight into chemical energy, storing it as glucose. It happens in the leaves. Plants release oxygen while doing it.",
		"threshold": "3"
	}`, Answer: `• RECALL_Reasoning: [ESSENTIAL PASSAGE] 1: the returned passage states the conversion of light into chemical energy stored as glucose. Score: 4 [ESSENTIAL PASSAGE] 2: it says "in the leaves" but never mentions chloroplasts or chlorophyll. Score: 3 [BONUS PASSAGE] 1: oxygen release is mentioned. Score: 4 [BONUS PASSAGE] 2: C4 plants are not mentioned. Score: 0

• RECALL_Essential_Formula: (4 + 3) / 2 = 3.5

• RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5

• RECALL_Combined_Formula: 3.5 + 0.5 = 4

• RECALL_Final_Score_Calculation: min(5, 4) = 4

• RECALL_Final_Score: 4`},
	Variables:    []string{"passage_gt", "passage_llm"},
	vars:         ragRecallVars,
	parse:        ragRecallParse,
	noConfidence: "rag-recall's score is computed from one score per passage, not read from one token of the answer",
}

func init() { register(&ragRecallEvaluator) }

func ragRecallVars(in *value.Object) (*value.Object, []diag.Check, error) {
	gt, err := argText(in, "passage_gt")
	if err != nil {
		return nil, nil, err
	}
	llm, err := argText(in, "passage_llm")
	if err != nil {
		return nil, nil, err
	}
	if _, _, err := argThreshold(in); err != nil {
		return nil, nil, err
	}
	var checks []diag.Check
	if e, _ := countMarkers(gt); e == 0 {
		checks = append(checks, diag.Fail(diag.InputNoMarkers, "passage_gt has no [ESSENTIAL PASSAGE] marker: the judge would have no essential "+
			"passage to score and the recall cannot be computed (it needs at least one); mark the ground truth's passages with "+
			"[ESSENTIAL PASSAGE] and [BONUS PASSAGE]").In("passage_gt"))
	}
	return value.NewObject("passage_gt", gt, "passage_llm", llm), checks, nil
}

// argThreshold reads the optional threshold: a number from 0 to 5 (a numeric text is read too, as
// a form sends it; an empty one or null is no threshold). It returns the threshold exactly as the
// caller wrote it (0.1 is 1/10, not the float nearest to it) and as a float.
func argThreshold(in *value.Object) (*exact.Rat, *float64, error) {
	v, _ := in.Get("threshold")
	var lit string
	switch x := v.(type) {
	case nil:
		return nil, nil, nil
	case int64:
		lit = strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, nil, badInput("threshold", diag.InputOutOfRange, "want a number from 0 to 5, got %v", x)
		}
		lit = strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		lit = strings.TrimSpace(x)
		if lit == "" {
			return nil, nil, nil
		}
		if _, err := exact.ParseFloat(lit); err != nil || strings.ContainsAny(lit, "xXpPeEnNiI_") {
			return nil, nil, badInput("threshold", diag.InputOutOfRange, "want a number from 0 to 5, got %s", quote(x))
		}
	default:
		return nil, nil, badInput("threshold", diag.InputWrongType, "want a number from 0 to 5, got %s", value.TypeName(v))
	}
	t, ok := new(exact.Rat).SetString(lit)
	if !ok || t.Sign() < 0 || t.Cmp(exact.NewRat(5, 1)) > 0 {
		return nil, nil, badInput("threshold", diag.InputOutOfRange, "want a number from 0 to 5, got %s", lit)
	}
	f, _ := exact.ParseFloat(lit)
	return t, &f, nil
}

// ragRecallScore is one passage score in the verdict.
type ragRecallScore struct {
	Number  int      `json:"number"`
	Value   *float64 `json:"value"` // rounded to 2 decimals; null when unreadable
	Exact   string   `json:"exact"` // "7/2"; "" when unreadable
	Text    string   `json:"text"`  // as the judge wrote it, e.g. "4/5"
	Line    int      `json:"line"`
	Col     int      `json:"col"`
	Problem string   `json:"problem,omitempty"`
}

// ragRecallLine is one formula line: recomputed in the seed's format, and what the judge stated.
type ragRecallLine struct {
	Label      string   `json:"label"`
	Recomputed *string  `json:"recomputed"`   // the seed-format line (rounded per step); null when the recall is undetermined
	Stated     *string  `json:"stated"`       // the judge's text after the label; null when it has no such line
	Value      *float64 `json:"stated_value"` // the judge's result on that line; null when absent or unreadable
	Line       int      `json:"line,omitempty"`
	Col        int      `json:"col,omitempty"`
	// Result is how the judge's line compares (recall.Compare): "same" (the exact value at 2
	// decimals), "rounded-per-step" (right on the judge's own terms, each step rounded to 2
	// decimals as the seed asks), "differs" (an arithmetic error, with a recall.arithmetic-differs
	// warning); null when either side is missing.
	Result *string `json:"result"`
	// Match is whether the judge's result is right: same or rounded per step; null when either
	// side is missing.
	Match *bool `json:"match"`
}

// ragRecallStated is the judge's result on each formula line, null when absent or unreadable.
type ragRecallStated struct {
	Essential *float64 `json:"essential"`
	Bonus     *float64 `json:"bonus"`
	Combined  *float64 `json:"combined"`
	FinalCalc *float64 `json:"final_calculation"`
	Final     *float64 `json:"final"`
}

// ragRecallDetail is rag-recall's Verdict.Verdict.
type ragRecallDetail struct {
	// Expected counts the markers in passage_gt: how many scores of each kind the judge owes.
	Expected struct {
		Essential int `json:"essential"`
		Bonus     int `json:"bonus"`
	} `json:"expected"`
	Essential  []ragRecallScore `json:"essential"`
	Bonus      []ragRecallScore `json:"bonus"`
	Recomputed *recall.Summary  `json:"recomputed"` // null when undetermined
	Lines      []ragRecallLine  `json:"lines"`
	Stated     ragRecallStated  `json:"stated"`
	Threshold  *float64         `json:"threshold"`
}

func ragRecallParse(in *value.Object, answer string) *Verdict {
	gt, _ := argText(in, "passage_gt")
	threshold, thresholdF, _ := argThreshold(in)
	d := &ragRecallDetail{Essential: []ragRecallScore{}, Bonus: []ragRecallScore{}, Threshold: thresholdF}
	d.Expected.Essential, d.Expected.Bonus = countMarkers(gt)
	v := &Verdict{Verdict: d}

	a := recall.ReadAnswer(answer)
	fillStated(d, a)
	if d.Expected.Essential == 0 {
		// Parse puts render's input.no-markers error first: there is no recall to compute.
		for _, sc := range a.Scores() {
			d.add(sc)
		}
		return v
	}
	essential, bonus, warnings, problems := a.Resolve(d.Expected.Essential, d.Expected.Bonus)
	for _, w := range warnings {
		v.Checks = append(v.Checks, diag.Warn(diag.RecallScoresDoubtful, w.Msg).At(w.Line, w.Col, 0))
	}
	if len(problems) > 0 {
		for _, sc := range a.Scores() {
			d.add(sc)
		}
		if len(a.Scores()) == 0 && !hasUnassigned(a) {
			v.Checks = append(v.Checks, diag.Fail(diag.RecallNoScores, "no passage score in the answer: expected a `Score: n` after each "+
				"[ESSENTIAL PASSAGE] and [BONUS PASSAGE]"+truncationHint(a)))
			return v
		}
		hint := truncationHint(a)
		for k, p := range problems {
			if k == maxRecallProblems {
				// An answer that scores thousands of passages the ground truth does not have
				// says so in a few checks, not in one each.
				v.Checks = append(v.Checks, diag.Fail(diag.RecallBadScores, diag.Sprintf("and %d more problems with the passage scores, like those above", len(problems)-k)))
				break
			}
			if hint != "" && strings.Contains(p.Msg, "no score") {
				q := *p
				q.Msg += hint
				p, hint = &q, ""
			}
			if p.Code == "" {
				q := *p
				q.Code = diag.RecallBadScores
				p = &q
			}
			v.Checks = append(v.Checks, outputCheck(p))
		}
		return v
	}
	for _, sc := range essential {
		d.add(sc)
	}
	for _, sc := range bonus {
		d.add(sc)
	}
	r, err := recall.Compute(scoreValues(essential), scoreValues(bonus))
	if err != nil { // unreachable: Resolve checks the same ranges
		v.Checks = append(v.Checks, diag.Fail(diag.RecallInvalid, err.Error()))
		return v
	}
	sum := r.Summary()
	d.Recomputed = &sum
	final := sum.Final
	v.Score = &final
	var stated [recall.NumLines]*exact.Rat
	for i, st := range a.Stated {
		if st != nil {
			stated[i] = st.Value
		}
	}
	results := r.Compare(stated)
	for i := range d.Lines {
		line := &d.Lines[i]
		line.Recomputed = &r.Lines[i]
		if results[i] == recall.LineNotStated {
			continue
		}
		res, right := string(results[i]), results[i] != recall.LineDiffers
		line.Result, line.Match = &res, &right
		if !right {
			st := a.Stated[i]
			want := recall.Format(r.Exact(i))
			if step := recall.Format(r.Stepped[i]); step != want {
				want += " (" + step + " rounded per step)"
			}
			v.Checks = append(v.Checks, diag.Warn(diag.RecallArithmeticDiffers, diag.Sprintf("the judge's %s is %s (line %d), the recomputed value is %s",
				st.Label, recall.Format(st.Value), st.Line, want)).At(st.Line, st.Col, 0))
		}
	}
	switch st := a.Stated[recall.LineFinal]; {
	case st == nil:
		v.Checks = append(v.Checks, diag.Warn(diag.RecallNoFinal, "the answer has no RECALL_Final_Score line (it may be cut short); "+
			"the score is recomputed from the passage scores"))
	case st.Value == nil && st.Text == "":
		v.Checks = append(v.Checks, diag.Warn(diag.RecallNoFinal, diag.Sprintf("the judge's RECALL_Final_Score line (line %d) has no value; "+
			"the score is recomputed from the passage scores", st.Line)).At(st.Line, st.Col, 0))
	case st.Value == nil:
		v.Checks = append(v.Checks, diag.Warn(diag.RecallFinalUnreadable, diag.Sprintf("the judge's RECALL_Final_Score (line %d) is %s, not a score from 1 to 5; not compared",
			st.Line, quoteExcerpt(st.Text))).At(st.Line, st.Col, 0))
	}
	if threshold != nil {
		passed := recall.Round2(r.Final).Cmp(threshold) >= 0
		v.Passed = &passed
	}
	return v
}

// fillStated copies the judge's formula lines into the detail, before any comparison.
func fillStated(d *ragRecallDetail, a *recall.Answer) {
	d.Lines = make([]ragRecallLine, recall.NumLines)
	stated := [recall.NumLines]**float64{&d.Stated.Essential, &d.Stated.Bonus, &d.Stated.Combined, &d.Stated.FinalCalc, &d.Stated.Final}
	for i := range d.Lines {
		d.Lines[i].Label = recall.Labels[i]
		st := a.Stated[i]
		if st == nil {
			continue
		}
		text := st.Text
		d.Lines[i].Stated = &text
		d.Lines[i].Line, d.Lines[i].Col = st.Line, st.Col
		if st.Value != nil {
			f := recall.Float(st.Value)
			d.Lines[i].Value = &f
			*stated[i] = &f
		}
	}
}

func (d *ragRecallDetail) add(sc recall.Score) {
	s := ragRecallScore{Number: sc.Number, Text: sc.Text, Line: sc.Line, Col: sc.Col, Problem: sc.Problem}
	if sc.Value != nil {
		f := recall.Float(sc.Value)
		s.Value = &f
		s.Exact = sc.Value.RatString()
	}
	if sc.Kind == recall.Bonus {
		d.Bonus = append(d.Bonus, s)
	} else {
		d.Essential = append(d.Essential, s)
	}
}

func hasUnassigned(a *recall.Answer) bool { return len(a.Unassigned) > 0 }

// maxRecallProblems is how many problems with the passage scores a verdict lists one by one.
const maxRecallProblems = 20

// truncationHint says why an answer with missing scores looks cut short, or "" when it does not.
func truncationHint(a *recall.Answer) string {
	switch {
	case a.ThinkOpen:
		return diag.Sprintf(" (it ends inside a <think> block opened at line %d: it looks truncated, max_tokens too small?)", a.ThinkLine)
	case a.Stated[recall.LineFinal] == nil:
		return " (it has no RECALL_Final_Score line: it looks truncated)"
	}
	return ""
}

func scoreValues(ss []recall.Score) []*exact.Rat {
	out := make([]*exact.Rat, len(ss))
	for i, s := range ss {
		out[i] = s.Value
	}
	return out
}

// counted is the last ground truth countMarkers counted, and its counts.
var counted struct {
	sync.Mutex
	gt   string
	e, b int
}

// countMarkers is recall.CountMarkers, remembered for the last ground truth: the JS API parses
// each judge answer against the same inputs it rendered, and counting the markers of a 1 MB
// ground truth again took milliseconds in the wasm. The string is the same one (the same bytes in
// memory, which Go never changes while counted holds it), so the counts are too.
func countMarkers(gt string) (e, b int) {
	counted.Lock()
	defer counted.Unlock()
	if len(gt) == len(counted.gt) && unsafe.StringData(gt) == unsafe.StringData(counted.gt) {
		return counted.e, counted.b
	}
	e, b = recall.CountMarkers(gt)
	counted.gt, counted.e, counted.b = gt, e, b
	return e, b
}
