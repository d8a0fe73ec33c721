package checkup

import (
	"strconv"
	"strings"

	"ragjudge/core/recall"
	"ragjudge/core/value"
)

// The transformations of rag-recall: the returned passage replaced by the ground truth's own
// passages (all of them, all but one essential one) or by sentences of other rows.
const (
	Complete       = "complete"
	PassageRemoved = "passage-removed"
	ForeignAnswer  = "foreign-answer"
)

// minAbsent is the share of a removed passage's content words that the rest of the answer must
// not hold for its score to be certainly low: a passage whose words the others repeat may still
// be covered by them.
const minAbsent = 0.75

func (m *maker) recall() {
	gt, _ := getS(m.in, "passage_gt")
	essential, bonus := recall.Passages(gt)
	all := append(append([]string{}, essential...), bonus...)
	var nonEmpty []string
	for _, p := range all {
		if strings.TrimSpace(p) != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}

	const completeName = "Every passage, verbatim"
	complete := false
	if k := emptyPassage(essential); k > 0 {
		m.skip(Complete, completeName, "essential passage "+strconv.Itoa(k)+" has no text: no answer can hold it")
	} else {
		complete = true
		m.offer(Complete, completeName, "passage_llm", strings.Join(nonEmpty, "\n\n"), "the returned passage is the ground truth's "+plural(len(nonEmpty), "passage")+", verbatim, one after another", value.NewObject("text", "every essential passage scored 4 or more, and a recall of 4 or more",
			"scores", value.NewObject("essential_min", int64(4), "final_min", int64(4))))
	}

	const removedName = "One essential passage removed"
	rg := m.rng(PassageRemoved)
	switch k, why := m.removable(rg, essential, bonus); {
	case k < 0:
		m.skip(PassageRemoved, removedName, why)
	default:
		var rest []string
		for i, p := range essential {
			if i != k && strings.TrimSpace(p) != "" {
				rest = append(rest, p)
			}
		}
		for _, p := range bonus {
			if strings.TrimSpace(p) != "" {
				rest = append(rest, p)
			}
		}
		exp := value.NewObject("passage", int64(k+1), "passage_max", int64(2))
		text := "essential passage " + strconv.Itoa(k+1) + " scored 2 or less"
		if complete {
			exp.Set("final_below", Complete)
			text += ", and a recall below the complete answer's"
		}
		m.offer(PassageRemoved, removedName, "passage_llm", strings.Join(rest, "\n\n"), "the returned passage is every passage of the ground truth but essential passage "+strconv.Itoa(k+1)+", verbatim; "+why, value.NewObject("text", text, "scores", exp))
	}

	const foreignName = "Sentences from another row"
	rg = m.rng(ForeignAnswer)
	if found, row := m.foreign(rg, m.stems, 3); len(found) == 0 {
		m.skip(ForeignAnswer, foreignName, m.noForeign())
	} else {
		m.offer(ForeignAnswer, foreignName, "passage_llm", strings.Join(found, " "), "the returned passage is "+plural(len(found), "sentence")+" of row "+strconv.Itoa(row+1)+" of the pool, sharing no content word with this row", value.NewObject("text", "every essential passage scored 2 or less", "scores", value.NewObject("essential_max", int64(2))))
	}
}

// emptyPassage is the 1-based number of the first essential passage without text, or 0.
func emptyPassage(essential []string) int {
	for k, p := range essential {
		if contentCount(p) == 0 {
			return k + 1
		}
	}
	return 0
}

// removable picks the essential passage to remove, from a seeded start: one with three content
// words or more, at least minAbsent of whose stems the other passages do not hold, and whose
// removal leaves some text. It says why the passage qualifies, or why none does (k = -1).
func (m *maker) removable(rg *rng, essential, bonus []string) (int, string) {
	if len(essential) == 0 {
		return -1, "the ground truth has no essential passage"
	}
	start := rg.intn(len(essential))
	why := "no essential passage has words of its own: the other passages hold most of each one's content words, so an answer without it may still cover it"
	for i := range essential {
		k := (start + i) % len(essential)
		var others []string
		for j, p := range essential {
			if j != k {
				others = append(others, p)
			}
		}
		others = append(others, bonus...)
		if contentCount(strings.Join(others, " ")) == 0 {
			why = "the ground truth has no other passage: an answer without its essential passage would be empty"
			continue
		}
		own := stemsOf([]string{essential[k]})
		if len(own) < 3 {
			continue
		}
		rest := stemsOf(others)
		absent := 0
		for s := range own {
			if !rest[s] {
				absent++
			}
		}
		if float64(absent) >= minAbsent*float64(len(own)) {
			return k, strconv.Itoa(absent) + " of its " + strconv.Itoa(len(own)) + " content words appear in no other passage"
		}
	}
	return -1, why
}
