package checkup

import (
	"strconv"
	"strings"
	"testing"
	"unicode"

	"ragjudge/core/judge"
	"ragjudge/core/recall"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

func recallPassages(gt string) ([]string, []string) { return recall.Passages(gt) }

// FuzzCheckupCases makes rows of every built-in evaluator (and of a custom one) from random
// bytes: sentences of words from a few subjects, numbers in every form changeNumber refuses or
// takes, citations, markers; a pool of other rows from the same bytes. On any of them Cases must
// not panic, and every case it makes must be right by construction, re-verified here by other
// means than those that made it (the copied claim appears verbatim in the evidence, the foreign
// sentence in another row and shares no content word, the changed number differs in that number
// alone and no text holds the new one, …), leave the row unchanged, and be caught when a judge
// answers what the case expects and missed when it answers the opposite.
func FuzzCheckupCases(f *testing.F) {
	for _, seed := range []string{"", "\x00", "abcdefghijklmnop", "\xff\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\xc0\xd0\xe0\xf0",
		"the quick brown fox jumps over the lazy dog 1889 500 3.5% $1,200",
		"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"} {
		f.Add([]byte(seed), int64(len(seed)))
	}
	r, err := judge.Load(prompts.FS)
	if err != nil {
		f.Fatal(err)
	}
	spec, _ := value.Decode([]byte(relevanceSpec))
	if _, err := r.Define(spec); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		g := &gen{data: data}
		rows := map[string]*value.Object{
			"claim-groundedness":    g.claimRow(),
			"answer-grounding":      g.groundingRow(),
			"pairwise-faithfulness": g.pairRow(),
			"rag-recall":            g.recallRow(),
			"relevance":             value.NewObject("question", g.text(1), "answer", g.text(1+g.n(3))),
		}
		var pool []*value.Object
		for k := 0; k < 1+g.n(4); k++ {
			pool = append(pool, value.NewObject("question", g.text(1), "answer", g.text(2), "evidence", []any{g.text(2)}, "passage_llm", g.text(2)))
		}
		for _, id := range []string{"claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall", "relevance"} {
			row := rows[id]
			before, _ := value.Marshal(row)
			res, err := Cases(r, id, row, Options{Seed: seed, Pool: pool})
			after, _ := value.Marshal(row)
			if string(before) != string(after) {
				t.Fatalf("%s: Cases changed the row", id)
			}
			if err != nil {
				if _, rerr := r.Render(id, row); rerr == nil {
					t.Fatalf("%s: Cases failed on a row that renders: %v", id, err)
				}
				continue
			}
			if len(res.Cases)+len(res.Skipped) == 0 {
				t.Fatalf("%s: no case and nothing skipped", id)
			}
			for _, c := range res.Cases {
				if _, err := r.Render(id, c.Inputs); err != nil {
					t.Fatalf("%s/%s: the case does not render: %v", id, c.Transform, err)
				}
				if msg := wrongByConstruction(id, row, pool, c); msg != "" {
					t.Fatalf("%s/%s: %s\nrow %s\ncase %s", id, c.Transform, msg, before, mustJSON(c))
				}
				oracle(t, r, id, res, c)
			}
		}
	})
}

func mustJSON(x any) string { b, _ := value.Marshal(x); return string(b) }

// wrongByConstruction re-verifies a case's construction; "" when it holds.
func wrongByConstruction(id string, row *value.Object, pool []*value.Object, c Case) string {
	rowTexts := textsOf(row, nil)
	poolTexts := textsOf(anySlice(pool), nil)
	inAny := func(s string, texts []string) bool {
		for _, t := range texts {
			if strings.Contains(t, s) {
				return true
			}
		}
		return false
	}
	foreignOK := func(s string) string {
		if !inAny(s, poolTexts) {
			return "the foreign sentence is in no row of the pool: " + s
		}
		for _, w := range words(s) {
			if !isContent(w) {
				continue
			}
			for _, rt := range rowTexts {
				for _, x := range words(rt) {
					if isContent(x) && stem(x) == stem(w) {
						return "the foreign sentence shares the content word " + w + " with the row"
					}
				}
			}
		}
		return ""
	}
	numberOK := func(s string, sources []string) string {
		if inAny(s, rowTexts) {
			return "the changed sentence is in the row as it is"
		}
		for _, src := range sources {
			for _, orig := range sentences(src) {
				a, b := numbers(orig), numbers(s)
				if len(a) != len(b) || skeleton(orig) != skeleton(s) {
					continue
				}
				diff := 0
				for k := range a {
					if a[k].text != b[k].text {
						diff++
						if taken(numberSet(rowTexts), b[k].text) {
							return "the new number " + b[k].text + " is in the row"
						}
					}
				}
				if diff == 1 {
					return ""
				}
			}
		}
		return "no sentence of the source differs from it by one number"
	}
	judged := func(name string) string { s, _ := getS(c.Inputs, name); return s }
	switch id + "/" + c.Transform {
	case "claim-groundedness/verbatim", "claim-groundedness/foreign", "claim-groundedness/number-changed":
		cid, _ := getS(object(c.Expect, "claim"), "id")
		text := claimText(c.Inputs, cid)
		if text == "" {
			return "the expected claim " + cid + " is not among the case's claims (or its id is not unique)"
		}
		chunks := itemTexts(get(row, "evidence"))
		switch c.Transform {
		case Verbatim:
			if !inAny(text, chunks) || !standsAlone(text) || get(object(c.Expect, "claim"), "grounded") != true {
				return "the copied claim is not verbatim in the evidence, or not expected grounded"
			}
		case Foreign:
			return foreignOK(text)
		case NumberChanged:
			return numberOK(text, chunks)
		}
	case "answer-grounding/verbatim":
		if !inAny(judged("answer"), itemTexts(get(row, "facts"))) || !standsAlone(judged("answer")) || get(c.Expect, "passed") != true {
			return "the answer is not a verbatim fact expected grounded"
		}
	case "answer-grounding/foreign":
		return foreignOK(judged("answer"))
	case "answer-grounding/number-changed":
		return numberOK(judged("answer"), itemTexts(get(row, "facts")))
	case "answer-grounding/verbatim-plus-foreign":
		a := judged("answer")
		for i := 0; i+1 < len(a); i++ {
			if a[i] == '.' && a[i+1] == ' ' && inAny(a[:i+1], itemTexts(get(row, "facts"))) && foreignOK(a[i+2:]) == "" {
				return ""
			}
		}
		return "the answer is not a verbatim fact's sentence then a foreign sentence"
	case "pairwise-faithfulness/citations-removed":
		a := judged("actual_output")
		if !citesNone(a) || uncited(a) == 0 {
			return "citations remain, or no sentence needs one"
		}
	case "pairwise-faithfulness/citations-moved":
		orig, _ := getS(row, "actual_output")
		a := judged("actual_output")
		if skeleton(stripCites(orig)) != skeleton(stripCites(a)) || a == orig {
			return "the text changed beyond its citations, or nothing moved"
		}
	case "pairwise-faithfulness/foreign-appended":
		orig, _ := getS(row, "actual_output")
		a := judged("actual_output")
		cut := judge.Sentences(a)
		last := cut[len(cut)-1]
		if !strings.HasPrefix(a, strings.TrimRight(orig, " \t\n")) || len(last.Refs) > 0 {
			return "not the actual output then an uncited sentence"
		}
		return foreignOK(last.Text)
	case "pairwise-faithfulness/no-document":
		if judged("actual_output") != noDocumentAnswer || get(c.Expect, "passed") != nil {
			return "not the no-document answer expected null"
		}
	case "pairwise-faithfulness/cited-context":
		a := judged("actual_output")
		cut := judge.Sentences(a)
		contexts := itemTexts(get(row, "contexts"))
		if len(cut) != 1 || len(cut[0].Refs) != 1 {
			return "not one sentence citing one reference"
		}
		k := cut[0].Refs[0]
		body := strings.TrimSuffix(a, " ["+strconv.Itoa(k)+"].") + "."
		if k < 1 || k > len(contexts) || !strings.Contains(contexts[k-1], body) || !standsAlone(body) {
			return "the sentence is not in the reference it cites"
		}
	case "pairwise-faithfulness/position-swap":
		if !c.BothOrders || !jsonSame(row, c.Inputs) {
			return "not the row itself, judged in both orders"
		}
	case "rag-recall/complete":
		gt, _ := getS(row, "passage_gt")
		essential, _ := recallPassages(gt)
		for _, p := range essential {
			if !strings.Contains(judged("passage_llm"), p) {
				return "an essential passage is not in the answer"
			}
		}
	case "rag-recall/passage-removed":
		gt, _ := getS(row, "passage_gt")
		essential, _ := recallPassages(gt)
		k, _ := num(get(object(c.Expect, "scores"), "passage"))
		gone := essential[int(k)-1]
		own := stemsOf([]string{gone})
		rest := stemsOf([]string{judged("passage_llm")})
		absent := 0
		for s := range own {
			if !rest[s] {
				absent++
			}
		}
		if len(own) < 3 || float64(absent) < minAbsent*float64(len(own)) {
			return "the answer still holds most of the removed passage's content words"
		}
	case "rag-recall/foreign-answer":
		// Pool sentences joined by spaces: some split at ". " makes every piece one.
		a := judged("passage_llm")
		ok := make([]bool, len(a)+2) // ok[i]: a[i:] splits into pool pieces
		ok[len(a)+1] = true
		for i := len(a) - 1; i >= 0; i-- {
			for j := i; j < len(a); j++ {
				if a[j] == '.' && (j+1 == len(a) || a[j+1] == ' ') && ok[j+2] && foreignOK(a[i:j+1]) == "" {
					ok[i] = true
					break
				}
			}
		}
		if !ok[0] {
			return "the answer is not sentences of the pool that share no content word with the row"
		}
	case "relevance/replaced":
		a := judged("answer")
		found := false
		for _, p := range pool {
			if x, _ := getS(p, "answer"); x == a {
				found = true
			}
		}
		q, _ := getS(row, "question")
		if !found || stemsOf([]string{q}).shares(a) {
			return "not another row's answer sharing no content word with the question"
		}
	case "relevance/halved":
		orig, _ := getS(row, "answer")
		a := judged("answer")
		if !strings.HasPrefix(orig, a) || len(words(a)) == 0 || len(words(a)) >= len(words(orig)) {
			return "not the answer's first part"
		}
	default:
		return "a transformation the fuzz target does not know: add its invariant"
	}
	return ""
}

// oracle grades case c by a judge that answers exactly what it expects (caught) and one that
// answers the opposite (missed).
func oracle(t *testing.T, r *judge.Registry, id string, res *Result, c Case) {
	t.Helper()
	grade := func(answer string, refs *value.Object) string {
		v, err := r.Parse(id, c.Inputs, answer)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Grade(asJSON(t, c), asJSON(t, v), refs)
		if err != nil {
			t.Fatal(err)
		}
		return g.Outcome
	}
	check := func(right, wrong string, refs *value.Object) {
		if got := grade(right, refs); got != Caught {
			t.Fatalf("%s/%s: a judge that answers as expected is %s: %s", id, c.Transform, got, right)
		}
		if wrong != "" {
			if got := grade(wrong, refs); got != Missed {
				t.Fatalf("%s/%s: a judge that answers the opposite is %s: %s", id, c.Transform, got, wrong)
			}
		}
	}
	exp := c.Expect
	switch {
	case object(exp, "claim") != nil:
		cid, _ := getS(object(exp, "claim"), "id")
		g := get(object(exp, "claim"), "grounded") == true
		check(claimAnswer(t, c.Inputs, map[string]bool{cid: !g}, ""), claimAnswer(t, c.Inputs, map[string]bool{cid: g}, ""), nil)
	case has(exp, "passed") && id == "answer-grounding":
		yes := get(exp, "passed") == true
		check(pick(yes, "yes", "no"), pick(yes, "no", "yes"), nil)
	case has(exp, "passed") && id == "pairwise-faithfulness":
		switch get(exp, "passed") {
		case true:
			check(pairAnswer("true", "true"), pairAnswer("true", "false"), nil)
		case false:
			check(pairAnswer("true", "false"), pairAnswer("true", "true"), nil)
		default:
			check(pairAnswer("true", "null"), pairAnswer("true", "false"), nil)
		}
	case has(exp, "passed"):
		switch get(exp, "passed") {
		case true:
			check("Verdict: relevant", "Verdict: irrelevant", nil)
		case false:
			check("Verdict: irrelevant", "Verdict: relevant", nil)
		default:
			check("Verdict: partly relevant", "Verdict: relevant", nil)
		}
	case has(exp, "orders"):
		swapped, err := SwapInputs(r, id, c.Inputs)
		if err != nil {
			t.Fatal(err)
		}
		v1, _ := r.Parse(id, c.Inputs, pairAnswer("true", "false"))
		for _, second := range []string{pairAnswer("false", "true"), pairAnswer("true", "false")} {
			v2, _ := r.Parse(id, swapped, second)
			v, err := CombineOrders(asJSON(t, v1), asJSON(t, v2))
			if err != nil {
				t.Fatal(err)
			}
			g, err := Grade(asJSON(t, c), v, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := Caught
			if second == pairAnswer("true", "false") {
				want = Missed // the first slot won both times
			}
			if g.Outcome != want {
				t.Fatalf("position swap: %s, want %s", g.Outcome, want)
			}
		}
	case object(exp, "scores") != nil:
		gt, _ := getS(c.Inputs, "passage_gt")
		essential, bonus := recallPassages(gt)
		all := func(s string, n int) []string {
			out := make([]string, n)
			for k := range out {
				out[k] = s
			}
			return out
		}
		sc := object(exp, "scores")
		switch {
		case has(sc, "essential_min"):
			check(scores(all("5", len(essential)), all("0", len(bonus))), scores(all("1", len(essential)), all("0", len(bonus))), nil)
		case has(sc, "essential_max"):
			check(scores(all("1", len(essential)), all("0", len(bonus))), scores(all("5", len(essential)), all("0", len(bonus))), nil)
		default:
			k, _ := num(get(sc, "passage"))
			right, wrong := all("5", len(essential)), all("5", len(essential))
			right[int(k)-1], wrong[int(k)-1] = "1", "4"
			refs := &value.Object{}
			if complete := byTransform(res, Complete); complete != nil {
				v, _ := r.Parse(id, complete.Inputs, scores(all("5", len(essential)), all("0", len(bonus))))
				refs.Set(Complete, asJSON(t, v))
			}
			if has(sc, "final_below") {
				check(scores(right, all("0", len(bonus))), scores(wrong, all("0", len(bonus))), refs)
			} else {
				check(scores(right, all("0", len(bonus))), scores(wrong, all("0", len(bonus))), nil)
			}
		}
	default:
		t.Fatalf("%s/%s: an expectation the fuzz target does not know", id, c.Transform)
	}
}

// claimText is the text of the claim with id cid among inputs' claims, "" if none or several.
func claimText(inputs *value.Object, cid string) string {
	list, _ := get(inputs, "claims").([]any)
	text, n := "", 0
	for k, x := range list {
		id, t := "c"+strconv.Itoa(k+1), ""
		switch c := x.(type) {
		case string:
			t = c
		case *value.Object:
			t, _ = getS(c, "text")
			switch v := get(c, "id").(type) {
			case string:
				id = v
			case int64:
				id = strconv.FormatInt(v, 10)
			}
		}
		if id == cid {
			text, n = t, n+1
		}
	}
	if n != 1 {
		return ""
	}
	return text
}

// skeleton is s without its digits: two texts that differ in numbers alone have one skeleton.
func skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, s)
}

func stripCites(s string) string {
	var b strings.Builder
	at := 0
	for _, sen := range judge.Sentences(s) {
		for _, c := range sen.Cites {
			b.WriteString(s[at:c.Start])
			at = c.End
		}
	}
	b.WriteString(s[at:])
	return b.String()
}

func jsonSame(a, b any) bool { return mustJSON(a) == mustJSON(b) }

func anySlice(rows []*value.Object) []any {
	out := make([]any, len(rows))
	for k, r := range rows {
		out[k] = r
	}
	return out
}

// gen makes texts from bytes.
type gen struct {
	data []byte
	at   int
}

func (g *gen) byte() byte {
	if len(g.data) == 0 {
		g.at++
		return byte(g.at * 37)
	}
	b := g.data[g.at%len(g.data)] + byte(g.at/len(g.data))
	g.at++
	return b
}

func (g *gen) n(k int) int { return int(g.byte()) % k }

var vocab = []string{
	"It", "They", "tower", "iron", "paris", "built", "completed", "fair", "honey", "bees", "dance", "river", "amazon", "water",
	"volcano", "eruption", "sulfur", "patient", "dose", "surgery", "discharged", "reef", "coral", "bleaching",
	"the", "was", "in", "of", "and", "a", "is", "for", "it", "more", "than", "to", "up", "about", "figure",
	"march", "day", "section", "GPT-4", "3rd", "H2O", "10:30", "10-20", "[1]", "[2, 3]", "No", "document",
}

func (g *gen) word() string {
	switch g.n(9) {
	case 0:
		return []string{"1889", "500", "3.5", "$1,200", "12", "0", "7,300", "45%", "2021", "31"}[g.n(10)]
	}
	return vocab[g.n(len(vocab))]
}

func (g *gen) sentence() string {
	n := 2 + g.n(9)
	ws := make([]string, n)
	for k := range ws {
		ws[k] = g.word()
	}
	s := strings.Join(ws, " ")
	if g.n(3) > 0 {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s + []string{".", ".", ".", "?", "", ". [1]", " [2]."}[g.n(7)]
}

func (g *gen) text(n int) string {
	parts := make([]string, n)
	for k := range parts {
		parts[k] = g.sentence()
	}
	return strings.Join(parts, []string{" ", "\n", " "}[g.n(3)])
}

func (g *gen) list(n int) []any {
	out := make([]any, n)
	for k := range out {
		out[k] = g.text(1 + g.n(3))
	}
	return out
}

func (g *gen) claimRow() *value.Object {
	claims := g.list(1 + g.n(3))
	if g.n(2) == 0 {
		for k, c := range claims {
			if g.n(2) == 0 {
				claims[k] = value.NewObject("id", []string{"c1", "c2", "x", "checkup-1", "c9"}[g.n(5)]+strconv.Itoa(k), "text", c)
			}
		}
	}
	evidence := g.list(1 + g.n(3))
	if g.n(2) == 0 {
		evidence[0] = value.NewObject("title", g.word(), "text", evidence[0])
	}
	return value.NewObject("question", g.text(1), "claims", claims, "evidence", evidence)
}

func (g *gen) groundingRow() *value.Object {
	var facts any = g.list(1 + g.n(4))
	if g.n(3) == 0 {
		facts = g.text(2)
	}
	return value.NewObject("answer", g.text(1), "facts", facts, "mode", []string{"strict", "lenient", "other"}[g.n(3)])
}

func (g *gen) pairRow() *value.Object {
	return value.NewObject("contexts", g.list(1+g.n(4)), "expected_output", g.text(1+g.n(2)), "actual_output", g.text(1+g.n(3)))
}

func (g *gen) recallRow() *value.Object {
	var b strings.Builder
	for k := 0; k < 1+g.n(4); k++ {
		b.WriteString([]string{"[ESSENTIAL PASSAGE]\n", "[BONUS PASSAGE]\n", "[ESSENTIAL PASSAGE] 2: "}[g.n(3)])
		b.WriteString(g.text(1 + g.n(2)))
		b.WriteString("\n\n")
	}
	return value.NewObject("passage_gt", b.String(), "passage_llm", g.text(2))
}
