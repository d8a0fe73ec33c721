package judge

import (
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/output"
	"ragjudge/core/stable"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// claim-groundedness: the judge checks each claim of a draft answer against numbered evidence
// chunks and answers JSON {"claims": [{claim_id, grounded, ungrounded_assertions}]}.

const claimID = "claim-groundedness"

var claimEvaluator = Evaluator{
	ID:    claimID,
	Order: 10,
	Title: "Claim groundedness",
	Description: "Checks each claim of a draft answer against the retrieved evidence: a claim is grounded " +
		"only if every assertion in it is supported (a paraphrase is fine), none absent, contradicted or over-claimed.",
	Dialect: template.Jinja,
	Inputs: []Input{
		{Name: "question", Label: "Question", Kind: "text", Required: true,
			Help: "The question the answer responds to."},
		{Name: "claims", Label: "Claims", Kind: "claims", Required: true, Judged: true, Variable: "reports",
			Help: "The answer's claims: texts (numbered c1, c2, … in order) or {id, text} objects."},
		{Name: "evidence", Label: "Evidence", Kind: "evidence", Required: true,
			Help: "The retrieved chunks: texts or {title, text} objects, given IDs 1, 2, … in order."},
	},
	Output: `JSON {"claims": [{"claim_id", "grounded", "ungrounded_assertions": [{"assertion", "reason"}]}]}`,
	Words:  Words{Passed: "Grounded", Failed: "Not grounded"},
	View:   ViewClaims,
	Score:  Score{Kind: ScoreFraction, Unit: "claims", Passed: "counts.grounded", Total: "counts.total"},
	Example: Example{inputsJSON: `{
		"question": "What was the patient given after surgery, and how did they respond?",
		"claims": [
			{
				"id": "c1",
				"text": "After surgery the patient was prescribed amoxicillin 500 mg three times a day."
			},
			{
				"id": "c2",
				"text": "The patient had no adverse reactions and was discharged the next day."
			},
			{
				"id": "c3",
				"text": "A follow-up visit is scheduled in two weeks."
			}
		],
		"evidence": [
			{
				"title": "Discharge summary",
				"text": "Post-operative plan: amoxicillin 500 mg TID for 7 days. Discharged on day 3."
			},
			{
				"title": "Scheduling",
				"text": "Follow-up appointment booked with Dr. Okafor, 14 days after discharge."
			}
		]
	}`, Answer: `{
  "claims": [
    {"claim_id": "c1", "grounded": true, "ungrounded_assertions": []},
    {"claim_id": "c2", "grounded": false, "ungrounded_assertions": [
      {"assertion": "the patient had no adverse reactions", "reason": "chunk 1 only says the medication was prescribed, not how the patient reacted"},
      {"assertion": "discharged the next day", "reason": "chunk 1 says discharge was on day 3"}
    ]},
    {"claim_id": "c3", "grounded": true, "ungrounded_assertions": []}
  ]
}`},
	Variables: []string{"question", "reports", "evidence"},
	vars:      claimVars,
	parse:     claimParse,
	noConfidence: "claim-groundedness's verdict comes from one grade per claim, not from one token of the answer: " +
		"its logprobs say nothing about the verdict as a whole",
}

func init() { register(&claimEvaluator) }

// claimInput is one claim to judge.
type claimInput struct {
	id, text string
	_        [0]func() // not comparable: no equality function in the wasm
}

// evidenceInput is one evidence chunk; its ID is its 1-based position.
type evidenceInput struct {
	title, text string
	_           [0]func() // not comparable: no equality function in the wasm
}

func claimVars(in *value.Object) (*value.Object, []diag.Check, error) {
	question, err := argText(in, "question")
	if err != nil {
		return nil, nil, err
	}
	claims, err := argClaims(in)
	if err != nil {
		return nil, nil, err
	}
	evidence, err := argEvidence(in)
	if err != nil {
		return nil, nil, err
	}
	var checks []diag.Check
	if len(claims) == 0 {
		checks = append(checks, emptyList("claims", "there is no claim to judge: give at least one claim"))
	}
	if len(evidence) == 0 {
		checks = append(checks, emptyList("evidence", "there is no evidence to judge the claims against: give at least one chunk"))
	}
	var reports, ev strings.Builder
	n := 0
	for _, c := range claims {
		n += len(c.id) + len(c.text) + 8
	}
	reports.Grow(n)
	for i, c := range claims {
		if i > 0 {
			reports.WriteByte('\n')
		}
		reports.WriteString("Claim " + c.id + ": " + c.text)
	}
	n = 0
	for _, e := range evidence {
		n += len(e.title) + len(e.text) + 16
	}
	ev.Grow(n)
	for i, e := range evidence {
		if i > 0 {
			ev.WriteString("\n\n")
		}
		ev.WriteString("ID: " + strconv.Itoa(i+1))
		if e.title != "" {
			ev.WriteString(" | " + e.title)
		}
		ev.WriteByte('\n')
		ev.WriteString(e.text)
	}
	return value.NewObject("question", question, "reports", reports.String(), "evidence", ev.String()), checks, nil
}

// argClaims reads the claims input: a list of texts (ids c1, c2, …) or {id, text} objects (an
// object without an id gets its position's). Ids must be unique. An empty list is read (as no
// claims): claimVars refuses it before paying.
func argClaims(in *value.Object) ([]claimInput, error) {
	list, err := argList(in, "claims")
	if err != nil {
		return nil, err
	}
	claims := make([]claimInput, len(list))
	seen := map[string]int{}
	for i, item := range list {
		c := claimInput{id: "c" + strconv.Itoa(i+1)}
		switch t := item.(type) {
		case string:
			c.text = t
		case *value.Object:
			if idv, ok := t.Get("id"); ok && idv != nil {
				switch id := idv.(type) {
				case string:
					if strings.TrimSpace(id) == "" {
						return nil, badInput("claims", diag.InputBadItem, "item %d: the id is empty", i+1)
					}
					c.id = id
				case int64:
					c.id = strconv.FormatInt(id, 10)
				default:
					return nil, badInput("claims", diag.InputBadItem, "item %d: the id must be a text or a whole number, got %s", i+1, value.TypeName(idv))
				}
			}
			tv, ok := t.Get("text")
			s, isText := tv.(string)
			if !ok || !isText {
				return nil, badInput("claims", diag.InputBadItem, "item %d: want a \"text\" that is a text, got %s", i+1, describeMissing(tv, ok))
			}
			c.text = s
		default:
			return nil, badInput("claims", diag.InputBadItem, "item %d: want a text or an {id, text} object, got %s", i+1, value.TypeName(item))
		}
		if j, dup := seen[c.id]; dup {
			return nil, badInput("claims", diag.InputDuplicateID, "items %d and %d have the same id %q", j, i+1, c.id)
		}
		seen[c.id] = i + 1
		claims[i] = c
	}
	return claims, nil
}

// argEvidence reads the evidence input: a list (possibly empty) of texts or {title, text}
// objects.
func argEvidence(in *value.Object) ([]evidenceInput, error) {
	list, err := argList(in, "evidence")
	if err != nil {
		return nil, err
	}
	evidence := make([]evidenceInput, len(list))
	for i, item := range list {
		switch t := item.(type) {
		case string:
			evidence[i].text = t
		case *value.Object:
			tv, ok := t.Get("text")
			s, isText := tv.(string)
			if !ok || !isText {
				return nil, badInput("evidence", diag.InputBadItem, "item %d: want a \"text\" that is a text, got %s", i+1, describeMissing(tv, ok))
			}
			evidence[i].text = s
			if title, ok := t.Get("title"); ok && title != nil {
				ts, isText := title.(string)
				if !isText {
					return nil, badInput("evidence", diag.InputBadItem, "item %d: the title must be a text, got %s", i+1, value.TypeName(title))
				}
				evidence[i].title = ts
			}
		default:
			return nil, badInput("evidence", diag.InputBadItem, "item %d: want a text or a {title, text} object, got %s", i+1, value.TypeName(item))
		}
	}
	return evidence, nil
}

// claimResult is the verdict on one input claim.
type claimResult struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	// Status is "grounded", "ungrounded", "missing" (the judge gave it no grade) or "cut" (the
	// answer was cut short before its grade arrived whole).
	Status string `json:"status"`
	// Grounded is Status as a three-way value: true, false, or null when missing or cut.
	Grounded             *bool       `json:"grounded"`
	UngroundedAssertions []assertion `json:"ungrounded_assertions"`
	// EvidenceIDs are the evidence chunks the judge's reasons refer to ("ID: 2", "chunk 3").
	EvidenceIDs []int `json:"evidence_ids"`
	// Line and Col are where the judge's entry for this claim starts in its answer (the first
	// one, when it graded the claim twice; for a cut claim, the entry the cut fell in); absent
	// when it has none.
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
}

type assertion struct {
	Assertion string    `json:"assertion"`
	Reason    string    `json:"reason"`
	_         [0]func() // not comparable: no equality function in the wasm
}

type claimCounts struct {
	Grounded   int `json:"grounded"`
	Ungrounded int `json:"ungrounded"`
	Missing    int `json:"missing"`
	Cut        int `json:"cut"`
	Total      int `json:"total"`
}

// claimDetail is claim-groundedness's Verdict.Verdict.
type claimDetail struct {
	Claims []claimResult `json:"claims"`
	Counts claimCounts   `json:"counts"`
}

const (
	statusGrounded   = "grounded"
	statusUngrounded = "ungrounded"
	statusMissing    = "missing"
	statusCut        = "cut"
)

func claimParse(in *value.Object, answer string) *Verdict {
	claims, _ := argClaims(in)
	evidence, _ := argEvidence(in)
	d := &claimDetail{Claims: make([]claimResult, len(claims))}
	for i, c := range claims {
		d.Claims[i] = claimResult{ID: c.id, Text: c.text, Status: statusMissing, UngroundedAssertions: []assertion{}, EvidenceIDs: []int{}}
	}
	v := &Verdict{Verdict: d}
	// An answer cut short is undetermined whatever arrived of it; the claims whose entries
	// arrived whole keep their grades, to be shown as such, and the rest are cut, not skipped.
	p, err := output.FindJSON(claimID, answer, "claims")
	cut := isTruncated(err)
	if err != nil {
		v.Checks = append(v.Checks, outputCheck(err))
	}
	if p == nil {
		d.finish(nil, cut)
		return v
	}
	v.Checks = append(v.Checks, repairChecks(answer, p.Repairs)...)
	// spanOf finds where the judge wrote o (or, for an entry made from an object keyed by claim
	// id, the object it was made from), so that checks about it point there.
	sources := map[*value.Object]*value.Object{}
	spanOf := func(o *value.Object) (start, end int, ok bool) {
		if src := sources[o]; src != nil {
			o = src
		}
		return p.Span(o)
	}
	// whole reports whether the judge's entry o arrived whole: always, unless the answer was cut
	// inside it. An entry made from a bare value keyed by claim id arrived whole, as a cut answer
	// keeps only the values that a ',' or a closing bracket followed.
	whole := func(o *value.Object) bool {
		if !p.Cut {
			return true
		}
		if src, made := sources[o]; made {
			if src == nil {
				return true
			}
			o = src
		}
		return p.Closed(o)
	}
	warnAt := func(o *value.Object) func(diag.Code, string, ...any) {
		return func(code diag.Code, format string, a ...any) {
			c := diag.Warn(code, diag.Sprintf(format, a...))
			if start, end, ok := spanOf(o); ok {
				c = c.AtOffset(answer, start, end-start)
			}
			v.Checks = append(v.Checks, c)
		}
	}
	warn := warnAt(nil)

	listV, _ := output.Field(p.Object, "claims")
	list, ok := listV.([]any)
	if byID, isObject := listV.(*value.Object); isObject {
		// {"claims": {"c1": {"grounded": true, …}, …}}: an object keyed by claim id.
		warnAt(byID)(diag.ClaimsKeyedObject, `read the judge's "claims" object as a list keyed by claim id`)
		list, ok = claimsByID(byID, sources), true
	}
	if !ok {
		d.finish(nil, cut)
		c := diag.Fail(diag.ClaimsNotAList, `the judge's "claims" is `+value.TypeName(listV)+", not a list of graded claims")
		v.Checks = append(v.Checks, c.AtOffset(answer, p.Start, p.End-p.Start))
		return v
	}
	judged := make([]bool, len(claims))
	index := make(map[string]int, len(claims))
	for i, c := range claims {
		index[c.id] = i
	}
	for n, item := range list {
		obj, ok := item.(*value.Object)
		if !ok {
			warnAt(p.Object)(diag.ClaimsBadEntry, "the judge's claim entry %d is %s, not an object; ignored", n+1, value.TypeName(item))
			continue
		}
		if !whole(obj) {
			// The entry the cut fell in: not a grade, but where its claim's would have been.
			idv, has := output.Field(obj, "claim_id")
			if !has {
				idv, _ = output.Field(obj, "id")
			}
			if id, ok := output.Text(idv); ok {
				if i, _ := matchClaim(claims, index, id); i >= 0 && !judged[i] && d.Claims[i].Line == 0 {
					if start, _, ok := spanOf(obj); ok {
						d.Claims[i].Line, d.Claims[i].Col = diag.Position(answer, start)
					}
				}
			}
			continue
		}
		warn := warnAt(obj)
		idv, hasID := output.Field(obj, "claim_id")
		if !hasID {
			idv, hasID = output.Field(obj, "id")
		}
		idText, _ := output.Text(idv)
		if !hasID || strings.TrimSpace(idText) == "" {
			warn(diag.ClaimsNoID, "the judge's claim entry %d has no claim_id; ignored", n+1)
			continue
		}
		i, how := matchClaim(claims, index, idText)
		if i < 0 {
			warn(diag.ClaimsUnknownID, "the judge graded claim %s, which the inputs do not have; ignored", output.Show(idv))
			continue
		}
		if how != "" {
			warn(diag.ClaimsIDRewritten, "the judge wrote claim_id %s for claim %s; %s", output.Show(idv), claims[i].id, how)
		}
		r := &d.Claims[i]
		status, assertions := gradeClaim(obj, r.ID, warn)
		if _, _, twice := p.Conflict(obj, "grounded"); twice && status == statusGrounded {
			// {"grounded": false, …, "grounded": true}: the last value was kept, but the entry
			// grades its claim both ways, which counts as ungrounded, as a claim graded twice does.
			warn(diag.ClaimsDuplicate, "the judge wrote grounded twice in claim %s's entry, with different values; counted as ungrounded", r.ID)
			status = statusUngrounded
		}
		if judged[i] {
			switch prev := r.Status; {
			case prev == status:
				warn(diag.ClaimsDuplicate, "the judge graded claim %s more than once, with the same grade", r.ID)
			case prev == statusMissing:
				warn(diag.ClaimsDuplicate, "the judge graded claim %s more than once; only a later entry has a grade", r.ID)
			case status == statusMissing:
				warn(diag.ClaimsDuplicate, "the judge graded claim %s more than once; only the first entry has a grade", r.ID)
				status = prev
			default:
				warn(diag.ClaimsDuplicate, "the judge graded claim %s twice, as grounded and as ungrounded; counted as ungrounded", r.ID)
				status = statusUngrounded
			}
		}
		if start, _, ok := spanOf(obj); ok && !judged[i] {
			r.Line, r.Col = diag.Position(answer, start)
		}
		judged[i] = true
		r.Status = status
		r.UngroundedAssertions = append(r.UngroundedAssertions, assertions...)
		r.EvidenceIDs = citedEvidence(r.UngroundedAssertions, len(evidence))
	}
	if cut {
		d.finish(judged, true)
		return v
	}
	for i, r := range d.Claims {
		if !judged[i] {
			warn(diag.ClaimsSkipped, "the judge skipped claim %s", r.ID)
		}
	}
	d.count()
	c := d.Counts
	switch {
	case c.Ungrounded > 0:
		v.Passed = verdictPassed(false)
	case c.Missing > 0:
		var missing []string
		for _, r := range d.Claims {
			if r.Status == statusMissing {
				missing = append(missing, r.ID)
			}
		}
		v.Checks = append(v.Checks, diag.Fail(diag.ClaimsMissing, diag.Sprintf("undetermined: %d of %d claims have no grade (%s) and none is ungrounded", c.Missing, c.Total, strings.Join(missing, ", "))))
	default:
		v.Passed = verdictPassed(true)
	}
	if c.Missing < c.Total {
		v.Score = verdictScore(float64(c.Grounded) / float64(c.Total))
	}
	return v
}

// claimsByID turns {"c1": {…}, "c2": false} into entries with a claim_id, a bare boolean or
// string standing for grounded. sources maps each entry made from an object to that object, and
// each made from a bare value to nil.
func claimsByID(o *value.Object, sources map[*value.Object]*value.Object) []any {
	list := make([]any, 0, o.Len())
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		entry := value.NewObject("claim_id", k)
		if obj, ok := v.(*value.Object); ok {
			sources[entry] = obj
			for _, field := range obj.Keys() {
				if _, has := output.Field(entry, field); !has {
					fv, _ := obj.Get(field)
					entry.Set(field, fv)
				}
			}
		} else {
			sources[entry] = nil // made from a bare value, which has no span of its own
			entry.Set("grounded", v)
		}
		list = append(list, entry)
	}
	return list
}

// gradeClaim reads one judged claim: ungrounded when grounded is false or it lists an ungrounded
// assertion, grounded when grounded is true and it lists none, missing when grounded cannot be
// read and no assertion is listed.
func gradeClaim(obj *value.Object, id string, warn func(diag.Code, string, ...any)) (string, []assertion) {
	assertions := []assertion{}
	if av, ok := output.Field(obj, "ungrounded_assertions"); ok && av != nil {
		list, isList := av.([]any)
		if !isList {
			list = []any{av}
		}
		for _, a := range list {
			switch t := a.(type) {
			case string:
				if noAssertion(t) {
					warn(diag.ClaimsBadAssertion, "claim %s: an ungrounded assertion is %s, which lists none; ignored", id, output.Show(t))
					continue
				}
				assertions = append(assertions, assertion{Assertion: t})
			case *value.Object:
				as, _ := output.Field(t, "assertion")
				rs, _ := output.Field(t, "reason")
				at, _ := output.Text(as)
				rt, _ := output.Text(rs)
				if noAssertion(at) && noAssertion(rt) {
					warn(diag.ClaimsBadAssertion, "claim %s: an ungrounded assertion has neither an assertion nor a reason; ignored", id)
					continue
				}
				assertions = append(assertions, assertion{Assertion: at, Reason: rt})
			default:
				warn(diag.ClaimsBadAssertion, "claim %s: an ungrounded assertion is %s; ignored", id, value.TypeName(a))
			}
		}
	}
	gv, has := output.Field(obj, "grounded")
	g, coerced, ok := output.Bool(gv)
	if has && coerced {
		warn(diag.AnswerCoerced, "claim %s: read grounded %s as %t", id, output.Show(gv), g)
	}
	switch {
	case len(assertions) > 0:
		if ok && g {
			warn(diag.ClaimsContradiction, "claim %s: the judge says grounded: true but lists %d ungrounded assertion(s); counted as ungrounded", id, len(assertions))
		}
		return statusUngrounded, assertions
	case ok && g:
		return statusGrounded, assertions
	case ok:
		return statusUngrounded, assertions
	case has:
		warn(diag.ClaimsNoGrade, "claim %s: grounded is %s, not true or false; no grade", id, output.Show(gv))
	default:
		warn(diag.ClaimsNoGrade, "claim %s: the judge gave no grounded value; no grade", id)
	}
	return statusMissing, assertions
}

// noAssertion reports whether an ungrounded assertion as the judge wrote it says there is none:
// empty, or a placeholder ("None", "N/A", "-"). Small models fill the list the prompt shows
// empty for a grounded claim with such an entry; counting it would fail a claim the judge
// graded grounded.
func noAssertion(s string) bool {
	t := strings.ToLower(strings.TrimRight(strings.TrimSpace(s), "."))
	switch t {
	case "", "none", "n/a", "na", "null", "nil", "nothing", "-", "—", "[]":
		return true
	}
	return false
}

// matchClaim finds the input claim the judge's id names: exactly, else ignoring case and
// spaces and a leading "claim", else a bare number n for the n-th of claims numbered c1, c2, ….
// index maps each claim's id to its position. how says which loose reading was used ("" when
// exact).
func matchClaim(claims []claimInput, index map[string]int, id string) (int, string) {
	if i, ok := index[id]; ok {
		return i, ""
	}
	loose := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if rest, ok := strings.CutPrefix(s, "claim"); ok && rest != "" {
			s = strings.TrimLeft(rest, " _-#:")
		}
		return s
	}
	lid := loose(id)
	for i, c := range claims {
		if loose(c.id) == lid {
			return i, "matched ignoring case and spacing"
		}
	}
	if n, err := exact.Atoi(lid); err == nil && n >= 1 && n <= len(claims) && claims[n-1].id == "c"+strconv.Itoa(n) {
		return n - 1, "read the number as the claim's position"
	}
	return -1, ""
}

// citedEvidence returns the evidence IDs in 1..n that the assertions' texts refer to, as
// "ID: 2", "ID 2", "chunk 3", "chunk #3", "evidence 1" or "source 4" (any case), sorted.
func citedEvidence(assertions []assertion, n int) []int {
	seen := map[int]bool{}
	for _, a := range assertions {
		for _, s := range []string{a.Reason, a.Assertion} {
			for _, id := range evidenceRefs(s) {
				if id >= 1 && id <= n {
					seen[id] = true
				}
			}
		}
	}
	ids := make([]int, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sorted := make([]int, 0, len(ids))
	for _, k := range stable.Order(len(ids), func(i, j int) bool { return ids[i] < ids[j] }) {
		sorted = append(sorted, ids[k])
	}
	return sorted
}

// evidenceRefs scans s for the numbers that follow the words ID, chunk, evidence or source.
func evidenceRefs(s string) []int {
	var refs []int
	lower := strings.ToLower(s)
	for i := 0; i < len(lower); i++ {
		if i > 0 && (isASCIIAlnum(lower[i-1]) || lower[i-1] == '_') {
			continue // inside a word such as "valid" or "claim_id"
		}
		var w string
		for _, word := range []string{"id", "chunk", "evidence", "source"} {
			if strings.HasPrefix(lower[i:], word) {
				w = word
				break
			}
		}
		if w == "" {
			continue
		}
		j := i + len(w)
		if j < len(lower) && lower[j] == 's' && w != "id" {
			j++ // "chunks 2"
		}
		for j < len(lower) && (lower[j] == ' ' || lower[j] == ':' || lower[j] == '#') {
			j++
		}
		k := j
		for k < len(lower) && '0' <= lower[k] && lower[k] <= '9' && k-j < 6 {
			k++
		}
		if k > j && (k == len(lower) || !isASCIIAlnum(lower[k])) {
			n, _ := exact.Atoi(lower[j:k])
			refs = append(refs, n)
		}
		i = k - 1
		if i < j {
			i = j - 1
		}
	}
	return refs
}

func isASCIIAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// finish marks the claims the judge's answer has no entry for (judged false, or nil for all) as
// cut when the answer was cut short, and counts.
func (d *claimDetail) finish(judged []bool, cut bool) {
	if cut {
		for i := range d.Claims {
			if judged == nil || !judged[i] {
				d.Claims[i].Status = statusCut
			}
		}
	}
	d.count()
}

func (d *claimDetail) count() {
	d.Counts = claimCounts{Total: len(d.Claims)}
	for i := range d.Claims {
		r := &d.Claims[i]
		switch r.Status {
		case statusGrounded:
			d.Counts.Grounded++
			r.Grounded = verdictPassed(true)
		case statusUngrounded:
			d.Counts.Ungrounded++
			r.Grounded = verdictPassed(false)
		case statusCut:
			d.Counts.Cut++
			r.Grounded = nil
		default:
			d.Counts.Missing++
			r.Grounded = nil
		}
	}
}

func describeMissing(v any, present bool) string {
	if !present {
		return "none"
	}
	return value.TypeName(v)
}

// isTruncated reports whether err says the judge's answer was cut short.
func isTruncated(err error) bool {
	de, ok := err.(*diag.Error)
	return ok && de.Code == diag.AnswerTruncated
}
