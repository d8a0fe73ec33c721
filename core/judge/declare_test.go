package judge

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/template"
	"ragjudge/core/value"
	"ragjudge/prompts"
)

// declaredJSON is an evaluator as the JS API's evaluators() hands it to a page.
func declaredJSON(t *testing.T, e *Evaluator) *value.Object {
	t.Helper()
	b, err := value.Marshal(e)
	require.NoError(t, err)
	v, err := value.Decode(b)
	require.NoError(t, err)
	return v.(*value.Object)
}

// checkDeclaration checks that a page gets everything it needs about e from the listing alone,
// and that e's worked example renders and parses to a determined verdict.
func checkDeclaration(t *testing.T, r *Registry, e *Evaluator) {
	t.Helper()
	o := declaredJSON(t, e)
	assert.Equal(t, []string{"id", "order", "title", "description", "dialect", "inputs", "output", "words", "view", "score", "example", "variables", "custom"}, o.Keys(), e.ID)
	words, _ := o.Get("words")
	assert.Equal(t, []string{"passed", "failed"}, words.(*value.Object).Keys(), e.ID)
	score, _ := o.Get("score")
	kind, _ := score.(*value.Object).Get("kind")
	assert.Contains(t, []any{ScoreFraction, ScoreBinary, ScoreScale}, kind, e.ID)
	ex, _ := o.Get("example")
	assert.Equal(t, []string{"inputs", "answer"}, ex.(*value.Object).Keys(), e.ID)
	_, hasPrompt := o.Get("prompt")
	assert.False(t, hasPrompt, "the prompt text is not part of the listing")

	// Exactly one input is marked judged, and the listing says so for it alone.
	listed, _ := o.Get("inputs")
	var judged []string
	for _, in := range listed.([]any) {
		io := in.(*value.Object)
		if j, has := io.Get("judged"); has {
			assert.Equal(t, true, j, e.ID)
			name, _ := io.Get("name")
			judged = append(judged, name.(string))
		}
	}
	assert.Len(t, judged, 1, "%s: exactly one input is marked judged", e.ID)

	inputs, _ := ex.(*value.Object).Get("inputs")
	names := map[string]bool{}
	for _, in := range e.Inputs {
		names[in.Name] = true
	}
	for _, k := range inputs.(*value.Object).Keys() {
		assert.True(t, names[k], "%s: the example's input %q is one of the evaluator's inputs", e.ID, k)
	}
	rendered, err := r.Render(e.ID, e.Example.Inputs)
	require.NoError(t, err, e.ID)
	assert.NotEmpty(t, rendered.Prompt)

	// Its variables are what its prompt reads, in the order it first reads them, and exactly
	// what its reader makes of its inputs: a custom evaluator with this reader gets them all.
	reads, err := template.Variables(e.ID, e.Prompt, e.Dialect)
	require.NoError(t, err, e.ID)
	assert.Equal(t, reads, e.Variables, "%s: Variables are its prompt's reads", e.ID)
	vars, _, err := e.vars(e.Example.Inputs)
	require.NoError(t, err, e.ID)
	assert.ElementsMatch(t, e.Variables, vars.Keys(), "%s: Variables are what its reader makes", e.ID)
	// The judged input reaches the prompt: the prompt reads it by its name, or by the Variable its
	// reader makes of it; a copy of the built-in is held to the same (web/api/templatecheck.js).
	for _, in := range e.Inputs {
		if in.Variable != "" {
			assert.Contains(t, e.Variables, in.Variable, "%s: input %q's variable is one its prompt reads", e.ID, in.Name)
			assert.NotContains(t, e.Variables, in.Name, "%s: input %q is read as %q, not by its name", e.ID, in.Name, in.Variable)
		}
		if in.Judged {
			assert.True(t, slices.Contains(e.Variables, in.Name) || slices.Contains(e.Variables, in.Variable),
				"%s: the prompt reads the judged input %q (by its name or its Variable)", e.ID, in.Name)
		}
	}
	v, err := r.Parse(e.ID, e.Example.Inputs, e.Example.Answer)
	require.NoError(t, err, e.ID)
	require.NotNil(t, v.Passed, "%s: the worked example has a verdict: %v", e.ID, v.Checks)
	require.NotNil(t, v.Score, e.ID)
	for _, c := range v.Checks {
		assert.NotEqual(t, diag.SevError, c.Severity, "%s: %v", e.ID, c)
	}
	if e.Score.Kind == ScoreFraction {
		b, err := value.Marshal(v.Verdict)
		require.NoError(t, err)
		detail, err := value.Decode(b)
		require.NoError(t, err)
		passed, total := lookupPath(detail, e.Score.Passed), lookupPath(detail, e.Score.Total)
		require.IsType(t, int64(0), passed, "%s: score.passed %q names a count in the verdict", e.ID, e.Score.Passed)
		require.IsType(t, int64(0), total, "%s: score.total %q names a count in the verdict", e.ID, e.Score.Total)
		assert.InDelta(t, float64(passed.(int64))/float64(total.(int64)), *v.Score, 1e-12, e.ID)
	}
	if e.Score.Kind == ScoreScale {
		assert.True(t, *v.Score >= 0 && *v.Score <= e.Score.Max, e.ID)
	}
}

// lookupPath follows a dotted path into decoded JSON, as a page does with Score's paths.
func lookupPath(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		o, ok := v.(*value.Object)
		if !ok {
			return nil
		}
		v, _ = o.Get(k)
	}
	return v
}

func TestBuiltinDeclarations(t *testing.T) {
	r := testRegistry(t)
	want := map[string][4]string{
		"claim-groundedness":    {"Grounded", "Not grounded", ViewClaims, "claims"},
		"answer-grounding":      {"Grounded", "Not grounded", ViewYesNo, "answer"},
		"pairwise-faithfulness": {"Faithful", "Not faithful", ViewPairwise, "actual_output"},
		"rag-recall":            {"Meets threshold", "Below threshold", ViewRecall, "passage_llm"},
	}
	var ids []string
	for _, e := range r.Evaluators() {
		ids = append(ids, e.ID)
		judged := ""
		for _, in := range e.Inputs {
			if in.Judged {
				judged = in.Name
			}
		}
		assert.Equal(t, want[e.ID], [4]string{e.Words.Passed, e.Words.Failed, e.View, judged}, e.ID)
		checkDeclaration(t, r, e)
	}
	assert.Equal(t, []string{"claim-groundedness", "answer-grounding", "pairwise-faithfulness", "rag-recall"}, ids)
}

// withBuiltins runs f with extra evaluators declared beside the built-in ones, as a new file of
// this package would declare them.
func withBuiltins(t *testing.T, extra ...*Evaluator) {
	saved := builtins
	t.Cleanup(func() { builtins = saved })
	builtins = append([]*Evaluator(nil), saved...)
	for _, e := range extra {
		register(e)
	}
}

// overlay is the real prompts plus the given files.
func overlay(t *testing.T, files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	entries, err := fs.ReadDir(prompts.FS, ".")
	require.NoError(t, err)
	for _, d := range entries {
		b, err := fs.ReadFile(prompts.FS, d.Name())
		require.NoError(t, err)
		m[d.Name()] = &fstest.MapFile{Data: b}
	}
	for name, src := range files {
		m[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return m
}

// toyEvaluator is a fifth evaluator declared entirely here: is the answer short enough?
func toyEvaluator() *Evaluator {
	return &Evaluator{
		ID:          "toy-brevity",
		Order:       25,
		Title:       "Brevity",
		Description: "Asks whether the answer is at most a given number of words.",
		Dialect:     template.Jinja,
		Inputs: []Input{
			{Name: "answer", Label: "Answer", Kind: "text", Required: true, Judged: true},
			{Name: "words", Label: "Most words", Kind: "number"},
		},
		Output:    `"short" or "long"`,
		Words:     Words{Passed: "Short", Failed: "Too long"},
		View:      "toy-gauge",
		Score:     Score{Kind: ScoreBinary},
		Example:   example(`{"answer": "Paris.", "words": 5}`, "short"),
		Variables: []string{"answer"},
		vars: func(in *value.Object) (*value.Object, []diag.Check, error) {
			answer, err := argText(in, "answer")
			if err != nil {
				return nil, nil, err
			}
			return value.NewObject("answer", answer), nil, nil
		},
		parse: func(in *value.Object, answer string) *Verdict {
			v := &Verdict{}
			switch strings.TrimSpace(answer) {
			case "short":
				v.Passed, v.Score = verdictPassed(true), verdictScore(1)
			case "long":
				v.Passed, v.Score = verdictPassed(false), verdictScore(0)
			default:
				v.Checks = append(v.Checks, diag.Fail(diag.AnswerNoVerdict, "neither short nor long"))
			}
			return v
		},
	}
}

// TestFifthEvaluatorNeedsNoOtherFile declares an evaluator in this file alone (plus its prompt)
// and checks that the registry lists it in its order with everything a page needs, and renders
// and parses with it: nothing else in the core (or the page, which only reads the listing) has
// to know it.
func TestFifthEvaluatorNeedsNoOtherFile(t *testing.T) {
	withBuiltins(t, toyEvaluator())
	r, err := Load(overlay(t, map[string]string{"toy-brevity.md": "Is this at most a few words? {{ answer }}\nSay short or long."}))
	require.NoError(t, err)
	var ids []string
	for _, e := range r.Evaluators() {
		ids = append(ids, e.ID)
	}
	assert.Equal(t, []string{"claim-groundedness", "answer-grounding", "toy-brevity", "pairwise-faithfulness", "rag-recall"}, ids)
	e, err := r.Get("toy-brevity")
	require.NoError(t, err)
	checkDeclaration(t, r, e)
	o := declaredJSON(t, e)
	view, _ := o.Get("view")
	assert.Equal(t, "toy-gauge", view, "a view no page knows is passed on as declared")
	v, err := r.Parse("toy-brevity", e.Example.Inputs, "long")
	require.NoError(t, err)
	assert.Equal(t, false, *v.Passed)
}

func TestIncompleteDeclarationsAreRefused(t *testing.T) {
	for name, spoil := range map[string]func(e *Evaluator){
		"no words":             func(e *Evaluator) { e.Words.Failed = "" },
		"no view":              func(e *Evaluator) { e.View = "" },
		"unknown score kind":   func(e *Evaluator) { e.Score.Kind = "percent" },
		"fraction, no paths":   func(e *Evaluator) { e.Score = Score{Kind: ScoreFraction, Unit: "claims"} },
		"scale, no maximum":    func(e *Evaluator) { e.Score = Score{Kind: ScoreScale} },
		"no example":           func(e *Evaluator) { e.Example = Example{} },
		"example not JSON":     func(e *Evaluator) { e.Example = example(`{"answer": "Paris."`, "short") },
		"example not object":   func(e *Evaluator) { e.Example = example(`["Paris."]`, "short") },
		"no reader":            func(e *Evaluator) { e.parse = nil },
		"no variables":         func(e *Evaluator) { e.Variables = nil },
		"declared twice":       func(e *Evaluator) { e.ID = "rag-recall" },
		"no inputs":            func(e *Evaluator) { e.Inputs = nil },
		"no judged input":      func(e *Evaluator) { e.Inputs[0].Judged = false },
		"two judged inputs":    func(e *Evaluator) { e.Inputs[1].Judged = true },
		"no title":             func(e *Evaluator) { e.Title = "" },
		"no prompt for the id": func(e *Evaluator) { e.ID = "toy-without-prompt" },
	} {
		t.Run(name, func(t *testing.T) {
			e := toyEvaluator()
			spoil(e)
			withBuiltins(t, e)
			_, err := Load(overlay(t, map[string]string{"toy-brevity.md": "{{ answer }}"}))
			var d *diag.Error
			require.ErrorAs(t, err, &d)
			assert.Equal(t, "input", d.Kind)
			if strings.Contains(name, "judged") {
				assert.Contains(t, d.Msg, "exactly one input marked judged")
			}
			if strings.HasPrefix(name, "example not") {
				assert.Contains(t, d.Msg, "the example's inputs are not a JSON object")
			}
		})
	}
}

// example is an Example declared by its inputs as JSON text, as the evaluators' files declare
// theirs.
func example(inputsJSON, answer string) Example {
	return Example{Answer: answer, inputsJSON: inputsJSON}
}
