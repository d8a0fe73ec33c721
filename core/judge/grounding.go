package judge

import (
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/output"
	"ragjudge/core/template"
	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// answer-grounding: the judge says "yes" when every claim of the answer is grounded in the
// facts (strictly, or allowing single-hop inference in lenient mode), else "no".

const groundingID = "answer-grounding"

// groundingModes are the modes the prompt knows; the first is its default.
var groundingModes = []string{"strict", "lenient"}

var groundingEvaluator = Evaluator{
	ID:    groundingID,
	Order: 20,
	Title: "Answer grounding",
	Description: "Asks whether every claim of the answer is grounded in the given facts: strictly (exact " +
		"match or close paraphrase) or leniently (also single-hop inference from at most two facts).",
	Dialect: template.Format,
	Inputs: []Input{
		{Name: "answer", Label: "Answer", Kind: "text", Required: true, Judged: true,
			Help: "The answer to check."},
		{Name: "facts", Label: "Facts", Kind: "list", Required: true,
			Help: "The facts it must be grounded in: a text, or a list of texts (rendered one per line, numbered)."},
		{Name: "mode", Label: "Mode", Kind: "choice", Choices: groundingModes,
			Help: "strict: exact match or close paraphrase; lenient: also single-hop inference."},
	},
	Output: `"yes" or "no"`,
	Words:  Words{Passed: "Grounded", Failed: "Not grounded"},
	View:   ViewYesNo,
	Score:  Score{Kind: ScoreBinary},
	Example: Example{inputsJSON: `{
		"answer": "The Eiffel Tower, completed in 1889, stands in the capital of France.",
		"facts": [
			"The Eiffel Tower is located in Paris.",
			"The Eiffel Tower was completed in 1889.",
			"Paris is the capital of France."
		],
		"mode": "lenient"
	}`, Answer: `yes`},
	Variables: []string{"mode", "answer", "facts"},
	vars:      groundingVars,
	parse:     groundingParse,
}

func init() { register(&groundingEvaluator) }

func groundingVars(in *value.Object) (*value.Object, []diag.Check, error) {
	answer, err := argText(in, "answer")
	if err != nil {
		return nil, nil, err
	}
	facts, err := argFacts(in)
	if err != nil {
		return nil, nil, err
	}
	mode, warning, err := argMode(in)
	if err != nil {
		return nil, nil, err
	}
	var checks []diag.Check
	if facts == "" {
		checks = append(checks, emptyList("facts", "there is no fact to ground the answer in: give at least one fact"))
	}
	if warning != "" {
		checks = append(checks, diag.Warn(diag.InputUnknownMode, warning).In("mode"))
	}
	return value.NewObject("mode", mode, "answer", answer, "facts", facts), checks, nil
}

// argFacts reads the facts input: a text as it is, or a list of texts rendered one per line as
// "<n>. <fact>"; an empty list is "" (groundingVars refuses it before paying).
func argFacts(in *value.Object) (string, error) {
	v, _ := in.Get("facts")
	switch v.(type) {
	case string:
		return argText(in, "facts")
	case nil:
		return "", badInput("facts", diag.InputMissing, "is required: give a text or a list of texts")
	case []any:
	default:
		return "", badInput("facts", diag.InputWrongType, "want a text or a list of texts, got %s", value.TypeName(v))
	}
	facts, err := argStrings(in, "facts")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	n := 0
	for _, f := range facts {
		n += len(f) + 8
	}
	b.Grow(n)
	for i, f := range facts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i+1) + ". " + f)
	}
	return b.String(), nil
}

// argMode reads the mode: absent or empty is strict; strict and lenient are read in any case;
// anything else renders as strict with a warning, as the prompt itself says to do.
func argMode(in *value.Object) (mode, warning string, err error) {
	v, ok := in.Get("mode")
	if !ok || v == nil {
		return groundingModes[0], "", nil
	}
	s, isText := v.(string)
	if !isText {
		return "", "", badInput("mode", diag.InputWrongType, "want a text (strict or lenient), got %s", value.TypeName(v))
	}
	// Python's s.strip().lower(), as the prompt's source reads it: str.isspace also counts
	// U+001C..U+001F, and "İ".lower() is "i̇" (two code points), never the "i" of a mode.
	norm := strings.ToLower(strings.TrimFunc(strings.ReplaceAll(s, "İ", "i\u0307"), pystr.IsSpace))
	if norm == "" {
		return groundingModes[0], "", nil
	}
	for _, m := range groundingModes {
		if norm == m {
			return m, "", nil
		}
	}
	return groundingModes[0], "mode " + diag.Quote(s) + " is neither strict nor lenient: rendered as strict, as the prompt's own rule says", nil
}

// groundingDetail is answer-grounding's Verdict.Verdict.
type groundingDetail struct {
	Answer *string   `json:"answer"` // "yes", "no" or null
	Mode   string    `json:"mode"`
	_      [0]func() // not comparable: no equality function in the wasm
}

func groundingParse(in *value.Object, answer string) *Verdict {
	mode, _, _ := argMode(in)
	d := &groundingDetail{Mode: mode}
	v := &Verdict{Verdict: d}
	off, open := output.FindReasoning(answer)
	if open >= 0 {
		v.Checks = append(v.Checks, diag.Fail(diag.AnswerTruncated, "the answer ends inside the model's <think> reasoning, before any yes or no: it looks truncated (max_tokens too small?)"))
		return v
	}
	read := readYesNo(answer, off)
	if read.code != "" {
		c := diag.Warn(read.code, read.msg)
		if read.word == "" {
			c = diag.Fail(read.code, read.msg)
		}
		if read.n > 0 {
			c = c.AtOffset(answer, read.off, read.n)
		}
		v.Checks = append(v.Checks, c)
	}
	if read.word == "" {
		return v
	}
	word := read.word
	d.Answer = &word
	yes := word == "yes"
	v.site = wordSite(read.off, read.n, yesNoWords, yes)
	v.Passed = verdictPassed(yes)
	if yes {
		v.Score = verdictScore(1)
	} else {
		v.Score = verdictScore(0)
	}
	return v
}
