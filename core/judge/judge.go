// Package judge holds ragjudge's built-in evaluators: for each, the inputs it takes, how its seed
// prompt is rendered from them, and how the judge's answer is read into a three-way verdict.
//
// Every evaluator renders its prompt into one user message. Parse never fails on a bad judge
// answer: that is a verdict with Passed == nil and an error check. It fails only when the
// evaluator id is unknown or the inputs cannot be read at all, with a *diag.Error; inputs that
// Render refuses before paying (an empty list, no markers) give an undetermined verdict.
//
// An evaluator is declared in one place, its own file: one call to register in an init
// function with an Evaluator that holds everything a page needs to show it (id, order, title,
// description, inputs with the one the verdict is about marked Judged, the words of its
// verdicts, the view that draws them, how its score prints, a worked example) and its reader.
// The page gets the declarations from the JS API's evaluators() and knows no evaluator by id,
// so a new evaluator is its Go file, its prompt (prompts/<id>.md) and its tests.
//
// How a page prints a verdict's score, from Evaluator.Score alone:
//   - kind "fraction": Score is the share of the units that passed, from 0 to 1; Passed and
//     Total name the counts in the verdict's detail (dotted paths into Verdict.Verdict, e.g.
//     "counts.grounded"), so the page prints "3 of 4 claims grounded" (passed of total, Unit,
//     the passed word in lower case). An undetermined verdict may still hold the counts.
//   - kind "binary": Score is 1 or 0 and says no more than Passed; the page prints the words.
//   - kind "scale": Score is a number from 0 to Max, printed with at most Decimals decimals
//     and the maximum: "4.38 / 5".
package judge

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/stable"
	"ragjudge/core/template"
	"ragjudge/core/value"
)

// Input describes one input of an evaluator, enough for a page to build a form from it.
type Input struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"` // "text", "list" (of strings), "claims", "evidence", "choice", "number"
	Required bool     `json:"required"`
	Choices  []string `json:"choices,omitempty"` // for kind "choice"; the first is the default
	Help     string   `json:"help,omitempty"`
	// Judged marks the one input whose text the verdict is about (the answer being judged, not
	// the expected one or the evidence): a results table shows it as the row's input.
	Judged bool `json:"judged,omitempty"`
	// Variable is the name the prompt's template reads this input as, when the reader makes a
	// variable of another name of it (claim-groundedness's claims become reports); "" when the
	// template reads it by its own name, or not at all (a reader's own setting, such as
	// rag-recall's threshold). A custom evaluator's check (the JS API) holds its templates to
	// reading the judged input under one of its names.
	Variable string `json:"variable,omitempty"`
}

// Words are what a page calls a passed and a failed verdict, e.g. "Grounded" / "Not grounded".
type Words struct {
	Passed string    `json:"passed"`
	Failed string    `json:"failed"`
	_      [0]func() // not comparable: no equality function in the wasm
}

// The views a page draws verdicts with, one per kind of reader; a page that does not know a
// view draws a generic one (passed, score, checks).
const (
	ViewClaims   = "claims"   // a list of units each passed or not, with reasons (claim-groundedness)
	ViewYesNo    = "yes-no"   // one yes or no
	ViewPairwise = "pairwise" // two graded answers and a citation check
	ViewRecall   = "recall"   // per-passage scores and the recomputed recall
)

// The kinds of score; see the package doc for how each prints.
const (
	ScoreFraction = "fraction"
	ScoreBinary   = "binary"
	ScoreScale    = "scale"
)

// Score says how a page prints a verdict's score without knowing the evaluator (package doc).
type Score struct {
	Kind     string    `json:"kind"`               // ScoreFraction, ScoreBinary or ScoreScale
	Unit     string    `json:"unit,omitempty"`     // fraction: what is counted, plural ("claims")
	Passed   string    `json:"passed,omitempty"`   // fraction: path of the count that passed in Verdict.Verdict
	Total    string    `json:"total,omitempty"`    // fraction: path of the count of all units in Verdict.Verdict
	Max      float64   `json:"max,omitempty"`      // scale: the highest score
	Decimals int       `json:"decimals,omitempty"` // scale: at most this many decimals
	_        [0]func() // not comparable: no equality function in the wasm
}

// Example is a worked example: inputs in the JS API's shape and an answer of the kind real
// judges write. Pages load it in one click; tests run it through Render and Parse.
type Example struct {
	Inputs *value.Object `json:"inputs"`
	Answer string        `json:"answer"`
	// inputsJSON is a declaration's Inputs as JSON text, which reads closer to what a page sends
	// than Go literals. Load decodes the text, not the declaration: in the wasm, decoding at
	// package init ran the JSON decoder (and the compiling of its code) before the engine could
	// start; a bad text is a bug in the declaration, which Load refuses and every test sees.
	inputsJSON string
	_          [0]func() // not comparable: no equality function in the wasm
}

// Evaluator is one built-in judge, declared whole in its own file.
type Evaluator struct {
	ID          string           `json:"id"`
	Order       int              `json:"order"` // pages list evaluators by ascending order
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Dialect     template.Dialect `json:"dialect"`
	Inputs      []Input          `json:"inputs"`
	Output      string           `json:"output"` // what the judge writes, in words
	Words       Words            `json:"words"`
	View        string           `json:"view"` // one of the View constants
	Score       Score            `json:"score"`
	Example     Example          `json:"example"`
	// Variables are the names the prompt's template reads, which vars makes of the inputs: some
	// are inputs as given (question), some are made (claim-groundedness's reports, one line per
	// claim). A custom evaluator with this one's reader (output kind "builtin") gets them all,
	// and the page never offers the made ones as inputs of its own.
	Variables []string `json:"variables,omitempty"`
	Prompt    string   `json:"-"` // the seed prompt, from prompts/<id>.md
	// Custom marks an evaluator defined at run time (Registry.Define); Spec is then its
	// definition, normalised (README "Custom evaluators").
	Custom bool          `json:"custom"`
	Spec   *value.Object `json:"spec,omitempty"`

	// messages are a custom evaluator's message templates, when it has no single Prompt.
	messages []Message

	// vars turns inputs into the template's variables. err is for inputs that cannot be read at
	// all (missing, of the wrong type); checks are what can be told about readable inputs before
	// paying for a call: an error check (an empty list, no markers) makes Render fail and the
	// verdict undetermined, a warning is shown with the prompt and the verdict.
	vars func(in *value.Object) (*value.Object, []diag.Check, error)
	// parse reads the judge's answer.
	parse func(in *value.Object, answer string) *Verdict
	// noConfidence says why this evaluator's verdicts cannot be weighed by their logprobs (they
	// come from several grades, not one token); "" when its reader records the verdict's site.
	noConfidence string
}

// Message is one chat message.
type Message struct {
	Role    string    `json:"role"`
	Content string    `json:"content"`
	_       [0]func() // not comparable: no equality function in the wasm
}

// Rendered is a rendered prompt.
type Rendered struct {
	Prompt   string          `json:"prompt"`
	Messages []Message       `json:"messages"`
	Warnings []string        `json:"warnings"` // the messages of the warning checks, for older callers
	Checks   []diag.Check    `json:"checks"`   // warnings about the inputs, with codes and where they point
	Spans    []template.Span `json:"spans"`    // where each substitution landed in Prompt (byte offsets)
}

// Verdict is what a judge's answer says. Passed and Score are nil when undetermined, and then
// Checks holds at least one error saying why.
type Verdict struct {
	Passed  *bool        `json:"passed"`
	Score   *float64     `json:"score"`
	Verdict any          `json:"verdict"` // evaluator-specific detail, JSON-marshalable
	Checks  []diag.Check `json:"checks"`
	// Confidence is how sure the judge was, from the answer's logprobs (ParseWeighed); nil when
	// not asked, and when it cannot be had, with ConfidenceReason saying why (and a confidence.*
	// check). The JS API writes both only when asked (bridge's parse).
	Confidence       *Confidence `json:"-"`
	ConfidenceReason string      `json:"-"`
	// site is where the reader found the verdict, for ParseWeighed.
	site *verdictSite
}

// Registry holds the built-in evaluators with their prompts.
type Registry struct {
	byID   map[string]*Evaluator // built-in and custom
	order  []*Evaluator          // the built-ins
	custom []*Evaluator          // the custom evaluators, in the order they were first defined
	// defined counts the custom evaluators ever defined: their Order, so that one defined after
	// another was removed still lists last.
	defined int
}

// builtins lists the declared evaluators; each file of this package declares its own as a
// package variable and adds it with register in an init function. The declaration is a
// literal of constants, which Go lays out as data: built in the init function (&Evaluator{...},
// or with a function call in it), each was 1.5 KB of code run at start.
var builtins []*Evaluator

// register declares a built-in evaluator.
func register(e *Evaluator) { builtins = append(builtins, e) }

// decodeExample fills e.Example.Inputs from its declared JSON text, if it has one; "" or what is
// wrong with the text.
func (e *Evaluator) decodeExample() string {
	if e.Example.Inputs != nil || e.Example.inputsJSON == "" {
		return ""
	}
	v, err := value.Decode([]byte(e.Example.inputsJSON))
	o, ok := v.(*value.Object)
	if err != nil || !ok {
		return "the example's inputs are not a JSON object: " + e.Example.inputsJSON
	}
	e.Example.Inputs = o
	return ""
}

// PromptFiles is where Load reads the prompts: prompts.FS (an embed.FS) natively and in tests,
// prompts/inline.Prompts in the wasm. It is not an fs.FS so that the core does not import io/fs,
// which links the time package (about 46 KB of the wasm's brotli size with embed).
type PromptFiles interface {
	ReadFile(name string) ([]byte, error)
}

// Load reads each built-in evaluator's prompt from fsys (file "<id>.md") and returns the
// registry, with the evaluators by ascending Order. A declaration that lacks what a page needs
// is an error here rather than a blank on the page.
func Load(fsys PromptFiles) (*Registry, error) {
	r := &Registry{byID: map[string]*Evaluator{}}
	for _, k := range stable.Order(len(builtins), func(i, j int) bool { return builtins[i].Order < builtins[j].Order }) {
		b := builtins[k]
		e := *b
		msg := e.decodeExample()
		if msg == "" {
			msg = e.incomplete()
		}
		if msg != "" {
			return nil, &diag.Error{Kind: "input", Name: b.ID, Msg: "evaluator declaration: " + msg}
		}
		if r.byID[b.ID] != nil {
			return nil, &diag.Error{Kind: "input", Name: b.ID, Msg: "evaluator declared twice"}
		}
		src, err := fsys.ReadFile(b.ID + ".md")
		if err != nil {
			return nil, &diag.Error{Kind: "input", Name: b.ID, Msg: "no prompt: " + err.Error()}
		}
		e.Prompt = string(src)
		r.byID[e.ID] = &e
		r.order = append(r.order, &e)
	}
	return r, nil
}

// incomplete says what e's declaration lacks, or "".
func (e *Evaluator) incomplete() string {
	switch {
	case e.ID == "":
		return "no id"
	case e.Title == "" || e.Description == "" || e.Output == "":
		return "no title, description or output"
	case len(e.Inputs) == 0:
		return "no inputs"
	case judgedInputs(e.Inputs) != 1:
		return "want exactly one input marked judged, got " + strconv.Itoa(judgedInputs(e.Inputs))
	case e.Words.Passed == "" || e.Words.Failed == "":
		return "no words for its verdicts"
	case e.View == "":
		return "no view"
	case e.Score.Kind != ScoreFraction && e.Score.Kind != ScoreBinary && e.Score.Kind != ScoreScale:
		return "score kind " + quote(e.Score.Kind) + " is none of fraction, binary, scale"
	case e.Score.Kind == ScoreFraction && (e.Score.Unit == "" || e.Score.Passed == "" || e.Score.Total == ""):
		return "a fraction score needs its unit and the paths of its counts"
	case e.Score.Kind == ScoreScale && e.Score.Max <= 0:
		return "a scale score needs its maximum"
	case e.Example.Inputs == nil || e.Example.Answer == "":
		return "no worked example"
	case e.vars == nil || e.parse == nil:
		return "no reader"
	case !e.Custom && len(e.Variables) == 0:
		return "no template variables declared"
	}
	return ""
}

// judgedInputs counts the inputs marked Judged.
func judgedInputs(inputs []Input) int {
	n := 0
	for _, in := range inputs {
		if in.Judged {
			n++
		}
	}
	return n
}

// Evaluators returns the evaluators in display order: the built-ins, then the custom ones.
func (r *Registry) Evaluators() []*Evaluator {
	if len(r.custom) == 0 {
		return r.order
	}
	return append(append(make([]*Evaluator, 0, len(r.order)+len(r.custom)), r.order...), r.custom...)
}

// Get returns the evaluator with the given id.
func (r *Registry) Get(id string) (*Evaluator, error) {
	e, ok := r.byID[id]
	if !ok {
		return nil, &diag.Error{Kind: "input", Code: diag.InputUnknownEvaluator, Name: id, Msg: "unknown evaluator " + quote(id)}
	}
	return e, nil
}

// Render renders evaluator id's prompt from inputs. Every check that can be made before paying
// for a call is made here: inputs that cannot be judged (an empty list of evidence, contexts,
// facts or claims; a ground truth without markers) are a *diag.Error of Kind "input" with the
// check's code and the input's name, and what is only doubtful comes back in Checks.
func (r *Registry) Render(id string, inputs *value.Object) (*Rendered, error) {
	p, err := r.Prepare(id, inputs)
	if err != nil {
		return nil, err
	}
	return p.Render()
}

// Prepared is an evaluator's inputs read once (Prepare): Render and Parse of the same inputs
// share the reading, which for megabytes of evidence costs milliseconds in the wasm. The inputs
// must not be changed while it is used.
type Prepared struct {
	e      *Evaluator
	inputs *value.Object
	vars   *value.Object
	checks []diag.Check
}

// Prepare reads inputs for evaluator id; its error is the one Render and Parse would return for
// inputs that cannot be read at all, or for an unknown id.
func (r *Registry) Prepare(id string, inputs *value.Object) (*Prepared, error) {
	e, err := r.Get(id)
	if err != nil {
		return nil, err
	}
	vars, checks, err := e.vars(inputs)
	if err != nil {
		return nil, err
	}
	return &Prepared{e: e, inputs: inputs, vars: vars, checks: checks}, nil
}

// Render is Registry.Render of the prepared inputs.
func (p *Prepared) Render() (*Rendered, error) {
	for _, c := range p.checks {
		if c.Severity == diag.SevError {
			return nil, inputError(c)
		}
	}
	rendered, err := p.e.render(p.vars)
	if err != nil {
		return nil, err
	}
	rendered.Checks = append(rendered.Checks, p.checks...)
	for _, c := range p.checks {
		rendered.Warnings = append(rendered.Warnings, c.Message)
	}
	return rendered, nil
}

// render renders e's prompt from its template variables.
func (e *Evaluator) render(vars *value.Object) (*Rendered, error) {
	if e.messages != nil {
		return e.renderMessages(vars)
	}
	prompt, spans, err := template.RenderSpans(e.ID, e.Prompt, e.Dialect, vars)
	if err != nil {
		if de, ok := err.(*diag.Error); ok && e.Custom {
			de.Path = "prompt"
		}
		return nil, err
	}
	if spans == nil {
		spans = []template.Span{}
	}
	return &Rendered{
		Prompt:   prompt,
		Messages: []Message{{Role: "user", Content: prompt}},
		Warnings: []string{},
		Checks:   []diag.Check{},
		Spans:    spans,
	}, nil
}

// inputError is the *diag.Error an error check about an input becomes. The check's message
// names its input ("evidence is empty: …"); the error prints the name before it already
// ("input: evidence: is empty: …"), as the other input errors do.
func inputError(c diag.Check) *diag.Error {
	return &diag.Error{Kind: "input", Code: c.Code, Name: c.Input, Line: c.Line, Col: c.Col,
		Msg: strings.TrimPrefix(c.Message, c.Input+" ")}
}

// Parse reads the judge's answer to evaluator id's prompt rendered from inputs.
//
// Inputs that Render cannot read at all fail Parse the same way: a verdict on them would be a
// verdict on nothing. Inputs that are readable but that Render refuses before paying (an empty
// list, no markers) still get their answer read, for what it says, but the verdict is
// undetermined, with Render's error as its first check: an answer someone paid for is shown,
// never as a confident verdict. The checks Render warns with come first in Checks too.
func (r *Registry) Parse(id string, inputs *value.Object, answer string) (*Verdict, error) {
	p, err := r.Prepare(id, inputs)
	if err != nil {
		return nil, err
	}
	return p.Parse(answer), nil
}

// Parse is Registry.Parse of the prepared inputs.
func (p *Prepared) Parse(answer string) *Verdict {
	v := p.e.parse(p.inputs, answer)
	if v.Score != nil && (math.IsNaN(*v.Score) || math.IsInf(*v.Score, 0)) {
		// No reader should get here; if one does, the verdict is undetermined with a check that
		// says why, rather than a NaN the page would print or a result that cannot be encoded.
		v.Checks = append(v.Checks, diag.Fail(diag.AnswerBadField, "the score read is not a finite number"))
		v.Passed, v.Score = nil, nil
	}
	v.Checks = append(slices.Clip(p.checks), v.Checks...)
	for _, c := range p.checks {
		if c.Severity == diag.SevError {
			v.Passed, v.Score = nil, nil
		}
	}
	if v.Checks == nil {
		v.Checks = []diag.Check{}
	}
	return v
}

func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
