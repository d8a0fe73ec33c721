package dataset

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// Mapping says which column feeds each input of an evaluator: input name -> column. A column
// may be a dotted path into an object column ("vars.question", "response.output"); see Lookup.
// An input that is not in the mapping gets no value.
type Mapping map[string]string

// Match says why DetectMatches chose a column for an input, so that a page can say
// "question ← user_input (RAGAS)".
type Match struct {
	Input  string `json:"input"`
	Column string `json:"column"`           // the column (or dotted path) as the dataset spells it
	Alias  string `json:"alias"`            // the name in the alias table that matched it: the input's own name, or a synonym
	Tool   string `json:"tool,omitempty"`   // the tools that write that name ("RAGAS", "DeepEval, GroUSE"); empty for this tool's own names
	Nested string `json:"nested,omitempty"` // the object the column was found in ("vars"), when not at the top level
	Guess  bool   `json:"guess,omitempty"`  // the column was not listed: the input's own name inside an object column
}

// alias is a column name that commonly holds an input, and the tools that write it.
type alias struct{ name, tool string }

// Tools that write dataset columns, as the mapping names them.
const (
	ragas       = "RAGAS"
	ragasOld    = "RAGAS (v0.1)"
	deepEval    = "DeepEval"
	groUSE      = "GroUSE"
	ares        = "ARES"
	ragChecker  = "RAGChecker"
	promptfoo   = "promptfoo"
	truLens     = "TruLens"
	phoenix     = "Phoenix"
	mlflow      = "MLflow, LangSmith"
	deepEvalEtc = "DeepEval, GroUSE, Phoenix, TruLens"
	haluEval    = "HaluEval"
	haluBench   = "HaluBench"
	ragTruth    = "RAGTruth"
	crag        = "CRAG"
	multiHopRAG = "MultiHop-RAG"
	msMarco     = "MS MARCO"
	squad       = "SQuAD"
	dpr         = "DPR, FiD, Self-RAG"
	alce        = "ALCE"
	qaBenchmark = "NQ, TriviaQA, MS MARCO, Self-RAG"
	langChain   = "LangChain"
	llamaIndex  = "LlamaIndex"
	response    = ragas + ", " + ragChecker + ", " + truLens + ", " + ragTruth // who writes "response"
)

// aliasTable is the one alias table: per input name, the column names that commonly hold it,
// best first (a path into an object before the object: promptfoo's response.output before
// response), and who writes them. Names are compared by matchKey (any case; spaces, hyphens,
// underscores and camelCase alike). The page has no copy of it: it asks mapColumns.
//
// Each input's list is written in parts, shared lists among them, so that the table is
// literals only, which Go lays out as data: no code builds it (built by appends in a function
// run on first use, it was 12 KB of code, 1.4 KB of brotli).
var aliasTable = [...]struct {
	input string
	parts [][]alias
}{
	// claim-groundedness
	{"question", [][]alias{{{"question", ragasOld}, {"user_input", ragas}, {"input", deepEvalEtc}, {"query", ragChecker + ", " + ares + ", " + truLens},
		{"user_query", haluEval}, {"user_question", ""}, {"attributes.input.value", phoenix}, {"input.value", phoenix},
		{"source_info.question", ragTruth}}}},
	{"claims", [][]alias{{{"claims", ""}, {"claim", ""}, {"statements", ""}, {"reports", ""}, {"response_claims", ragChecker}}}},
	{"evidence", [][]alias{{{"evidence", ""}, {"retrieved_contexts", ragas}, {"contexts", ragasOld + ", " + truLens}, {"retrieval_context", deepEval},
		{"retrieved_context", ragChecker}, {"references", groUSE}, {"context", deepEval + ", " + truLens}, {"document", ares}}, moreContexts[:],
		{{"documents", ""}, {"passages", ""}, {"chunks", ""}, {"sources", ""}, {"attributes.retrieval.documents", phoenix},
			{"retrieval.documents", phoenix}, {"reference_contexts", ragas + ", " + llamaIndex}}}},
	// answer-grounding
	{"answer", [][]alias{{{"answer", ragasOld + ", " + ares}, {"response.output", promptfoo}, {"response", response},
		{"actual_output", deepEval + ", " + groUSE}, {"output", phoenix + ", " + truLens}}, moreAnswers[:]}},
	{"facts", [][]alias{{{"facts", ""}, {"retrieved_contexts", ragas}, {"contexts", ragasOld + ", " + truLens}, {"retrieval_context", deepEval},
		{"retrieved_context", ragChecker}, {"references", groUSE}, {"context", deepEval + ", " + truLens}, {"document", ares}}, moreContexts[:],
		{{"evidence", ""}, {"documents", ""}, {"passages", ""}, {"chunks", ""}, {"attributes.retrieval.documents", phoenix},
			{"retrieval.documents", phoenix}, {"reference_contexts", ragas + ", " + llamaIndex}, {"reference", phoenix}}}},
	{"mode", [][]alias{{{"mode", ""}, {"grounding_mode", ""}}}},
	// pairwise-faithfulness
	{"contexts", [][]alias{{{"contexts", ragasOld + ", " + truLens}, {"retrieved_contexts", ragas}, {"retrieval_context", deepEval},
		{"retrieved_context", ragChecker}, {"references", groUSE}, {"context", deepEval + ", " + truLens}, {"document", ares}}, moreContexts[:],
		{{"evidence", ""}, {"documents", ""}, {"passages", ""}, {"chunks", ""}, {"attributes.retrieval.documents", phoenix},
			{"retrieval.documents", phoenix}, {"reference_contexts", ragas + ", " + llamaIndex}}}},
	{"expected_output", [][]alias{{{"expected_output", deepEval + ", " + groUSE}, {"reference", ragas}, {"ground_truth", ragasOld},
		{"ground_truths", ragasOld}, {"gt_answer", ragChecker}, {"expected_response", truLens}, {"expected_answer", ""},
		{"expected", ""}, {"golden_answer", ""}, {"ideal_answer", ""}, {"reference_answer", llamaIndex},
		{"right_answer", haluEval}, {"right_response", haluEval}, {"right_summary", haluEval},
		{"answers.text", squad}, {"answers", qaBenchmark}, {"gold_answer", ""}, {"gold_answers", ""}}}},
	{"actual_output", [][]alias{{{"actual_output", deepEval + ", " + groUSE}, {"response.output", promptfoo},
		{"response", response}, {"answer", ragasOld + ", " + ares}, {"output", phoenix + ", " + truLens}}, moreAnswers[:]}},
	// rag-recall
	{"passage_gt", [][]alias{{{"passage_gt", ""}, {"ground_truth_passage", ""}, {"reference", ragas}, {"ground_truth", ragasOld},
		{"ground_truths", ragasOld}, {"gt_answer", ragChecker}, {"expected_output", deepEval + ", " + groUSE},
		{"expected_response", truLens}, {"expected_answer", ""}, {"golden_answer", ""}, {"reference_answer", llamaIndex},
		{"right_answer", haluEval}}}},
	{"passage_llm", [][]alias{{{"passage_llm", ""}, {"llm_returned_passage", ""}, {"response.output", promptfoo},
		{"response", response}, {"answer", ragasOld + ", " + ares}, {"actual_output", deepEval + ", " + groUSE},
		{"output", phoenix + ", " + truLens}}, moreAnswers[:]}},
	{"threshold", [][]alias{{{"threshold", ""}, {"pass_threshold", ""}}}},
}

// aliases returns input's aliases from aliasTable, or nil when it has none.
func aliases(input string) []alias {
	for _, e := range aliasTable {
		if e.input == input {
			var list []alias
			for _, part := range e.parts {
				list = append(list, part...)
			}
			return list
		}
	}
	return nil
}

// moreContexts are the names of retrieved passages that benchmarks and tutorials write, tried
// after the RAG tools' own names for each input that takes them.
var moreContexts = [...]alias{{"knowledge", haluEval}, {"source_info.passages", ragTruth}, {"source_info", ragTruth}, {"passage", haluBench},
	{"source_documents", langChain}, {"search_results", crag}, {"evidence_list", multiHopRAG}, {"ctxs", dpr}, {"docs", alce},
	{"passages.passage_text", msMarco}, {"retrieved_documents", ""}, {"retrieved_docs", ""}}

// moreAnswers are the names of the answer being judged (answer grounding's answer, pairwise's
// actual output, recall's returned passage) after the ones listed first for each input: the
// names other tools and tutorials write. HaluEval's QA, dialogue and summary files hold two
// answers per row (right_answer, hallucinated_answer): neither is guessed as the one to judge,
// the user picks it; its general file's chatgpt_response is its one answer.
var moreAnswers = [...]alias{{"attributes.output.value", phoenix}, {"output.value", phoenix}, {"generated_answer", ""},
	{"llm_answer", ""}, {"chatgpt_response", haluEval}, {"prediction", ""}, {"predictions", "MLflow"},
	{"completion", ""}, {"model_answer", ""}, {"model_output", ""}, {"generation", ""}}

// nesting is an object datasets keep their fields in, tried after the top level.
type nesting struct{ prefix, tool string }

// nestings: promptfoo's vars (also inside its testCase), and the inputs/outputs/expectations
// of MLflow and LangSmith.
var nestings = []nesting{{"", ""}, {"vars.", promptfoo}, {"test_case.vars.", promptfoo}, {"inputs.", mlflow}, {"outputs.", mlflow}, {"expectations.", mlflow}}

// DetectMapping guesses the column for each input from the column names; see DetectMatches.
func DetectMapping(columns []string, inputs []judge.Input) Mapping {
	m := Mapping{}
	for _, mt := range DetectMatches(columns, inputs) {
		m[mt.Input] = mt.Column
	}
	return m
}

// DetectMatches guesses the column for each input from the column names, and says from which
// name: first any column named as the input itself, then the aliases (RAGAS, DeepEval,
// promptfoo's vars, ...), at the top level before inside nestings. Columns may include dotted
// paths into object columns, as Table.Paths lists them; when an object column such as vars is
// given without its paths, an input is guessed to be under its own name there (vars.question).
// A column feeds one input at most. Inputs with no likely column are left out; the others come
// in the order of inputs.
func DetectMatches(columns []string, inputs []judge.Input) []Match {
	index := map[string]string{} // matchKey -> column, the first one wins
	hasChildren := map[string]bool{}
	for _, c := range columns {
		n := matchKey(c)
		if _, ok := index[n]; !ok {
			index[n] = c
		}
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			hasChildren[n[:i]] = true
		}
	}
	found := map[string]Match{}
	used := map[string]bool{}
	take := func(mt Match) {
		found[mt.Input] = mt
		used[mt.Column] = true
	}
	// "answer" is a model's answer in RAGAS' first datasets and ARES', but the reference in QA
	// benchmarks (CRAG, HotpotQA, RGB, MultiHop-RAG), to which a run adds the model's answers as
	// "prediction", "response", …: beside such a column, "answer" is the reference, never the
	// answer judged.
	_, hasAnswer := index[matchKey("answer")]
	answerIsReference := hasAnswer && hasModelOutput(index)
	skip := func(input, name string) bool {
		return answerIsReference && matchKey(name) == "answer" && slices.Contains(judgedAnswer, input)
	}
	// Own names first, so that an alias of one input cannot take another input's own column.
	for _, in := range inputs {
		if c, ok := index[matchKey(in.Name)]; ok && !used[c] && !skip(in.Name, in.Name) {
			take(Match{Input: in.Name, Column: c, Alias: in.Name, Tool: toolOf(in.Name, in.Name)})
		}
	}
	for _, in := range inputs {
		if _, done := found[in.Name]; done {
			continue
		}
		names := aliases(in.Name)
		if names == nil {
			names = []alias{{in.Name, ""}}
		}
		if answerIsReference && slices.Contains(referenceAnswer, in.Name) {
			names = append(names[:len(names):len(names)], alias{"answer", benchmarks})
		}
	search:
		for _, nest := range nestings {
			for _, a := range names {
				if skip(in.Name, a.name) {
					continue
				}
				if c, ok := index[matchKey(nest.prefix+a.name)]; ok && !used[c] {
					mt := Match{Input: in.Name, Column: c, Alias: a.name, Tool: a.tool}
					if nest.prefix != "" {
						mt.Nested = strings.TrimSuffix(c[:len(c)-len(lastParts(c, a.name))], ".")
						mt.Tool = joinTools(nest.tool, a.tool)
					}
					take(mt)
					break search
				}
			}
		}
	}
	// An object column listed without its paths: guess the input's own name inside it.
	for _, in := range inputs {
		if _, done := found[in.Name]; done {
			continue
		}
		for _, nest := range nestings[1:] {
			parent := strings.TrimSuffix(matchKey(nest.prefix), ".")
			if c, ok := index[parent]; ok && !hasChildren[parent] {
				take(Match{Input: in.Name, Column: c + "." + in.Name, Alias: in.Name, Tool: nest.tool, Nested: c, Guess: true})
				break
			}
		}
	}
	out := make([]Match, 0, len(found))
	for _, in := range inputs {
		if mt, ok := found[in.Name]; ok {
			out = append(out, mt)
		}
	}
	return out
}

// benchmarks are the QA benchmarks whose "answer" is the reference answer.
const benchmarks = "CRAG, HotpotQA, RGB, MultiHop-RAG"

// judgedAnswer are the inputs that take the answer being judged; referenceAnswer those that take
// the reference answer.
var (
	judgedAnswer    = []string{"answer", "actual_output", "passage_llm"}
	referenceAnswer = []string{"expected_output", "passage_gt"}
)

// modelOutputs are column names that can only hold a model's answer (not the reference one).
var modelOutputs = []string{"response", "response.output", "actual_output", "prediction", "predictions", "generated_answer", "llm_answer",
	"model_answer", "model_output", "chatgpt_response", "completion", "generation", "output", "attributes.output.value", "output.value"}

// hasModelOutput reports whether the columns (by matchKey) have one named as a model's answer.
func hasModelOutput(index map[string]string) bool {
	for _, n := range modelOutputs {
		if _, ok := index[matchKey(n)]; ok {
			return true
		}
	}
	return false
}

// toolOf returns who writes name when it holds input, from the alias table.
func toolOf(input, name string) string {
	for _, a := range aliases(input) {
		if a.name == name {
			return a.tool
		}
	}
	return ""
}

// lastParts returns the last dotted parts of column, as many as alias has.
func lastParts(column, alias string) string {
	parts := strings.Split(column, ".")
	n := strings.Count(alias, ".") + 1
	if n > len(parts) {
		return column
	}
	return strings.Join(parts[len(parts)-n:], ".")
}

func joinTools(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	}
	return a + ", " + b
}

// DetectMapping guesses the mapping of inputs onto t's columns and the paths inside them.
func (t *Table) DetectMapping(inputs []judge.Input) Mapping {
	return DetectMapping(t.Paths(), inputs)
}

// DetectMatches is DetectMatches over t's columns and the paths inside them.
func (t *Table) DetectMatches(inputs []judge.Input) []Match {
	return DetectMatches(t.Paths(), inputs)
}

// matchKey is the form in which column names are compared: normalised, then without
// underscores, so that "retrievalContext", "Retrieval Context" and "retrieval_context" meet.
func matchKey(name string) string {
	return strings.ReplaceAll(normalise(name), "_", "")
}

// normalise makes column names comparable: lower case, with camelCase, spaces and hyphens
// turned into underscores, in each dotted part ("testCase.vars.Question" -> "test_case.vars.question").
func normalise(name string) string {
	var b strings.Builder
	prev := rune(0) // the previous rune as written in name
	for _, r := range strings.TrimSpace(name) {
		out := r
		switch {
		case r == ' ' || r == '-':
			out = '_'
		case unicode.IsUpper(r):
			if unicode.IsLower(prev) || unicode.IsDigit(prev) {
				b.WriteByte('_')
			}
			out = unicode.ToLower(r)
		}
		b.WriteRune(out)
		prev = r
	}
	return b.String()
}

// maxPathDepth and maxPaths bound Paths on deeply nested or very wide rows.
const (
	maxPathDepth = 3
	maxPaths     = 2000
)

// Paths returns the columns, each followed by the dotted paths to the keys of the objects it
// holds in any row (down to three levels, e.g. "vars", "vars.question"), in first-seen order:
// the names DetectMapping can choose from.
func (t *Table) Paths() []string {
	nested := map[string][]string{}
	seen := map[string]bool{}
	count := len(t.Columns)
	var walk func(top, prefix string, o *value.Object, depth int)
	walk = func(top, prefix string, o *value.Object, depth int) {
		for _, k := range o.Keys() {
			p := prefix + "." + k
			if !seen[p] && count < maxPaths {
				seen[p] = true
				count++
				nested[top] = append(nested[top], p)
			}
			if v, _ := o.Get(k); depth < maxPathDepth {
				if child, ok := v.(*value.Object); ok {
					walk(top, p, child, depth+1)
				}
			}
		}
	}
	for _, row := range t.Rows {
		for _, k := range row.Keys() {
			if v, _ := row.Get(k); v != nil {
				if o, ok := v.(*value.Object); ok {
					walk(k, k, o, 1)
				}
			}
		}
	}
	out := make([]string, 0, count)
	for _, c := range t.Columns {
		out = append(out, c)
		out = append(out, nested[c]...)
	}
	return out
}

// Lookup finds path in row: a key named path itself, else a dotted path through objects
// ("vars.question"); keys that contain dots are found too ("a.b" then "c" for "a.b.c").
func Lookup(row *value.Object, path string) (any, bool) {
	return lookup(row, path, 0)
}

// maxLookupDepth bounds the objects Lookup descends through, so that a path of many dots over
// keys that contain dots cannot make it try every split.
const maxLookupDepth = 8

func lookup(row *value.Object, path string, depth int) (any, bool) {
	if v, ok := row.Get(path); ok {
		return v, true
	}
	if depth >= maxLookupDepth {
		return nil, false
	}
	for i := 0; i < len(path); i++ {
		if path[i] != '.' {
			continue
		}
		v, ok := row.Get(path[:i])
		if !ok {
			continue
		}
		if o, ok := v.(*value.Object); ok {
			if r, ok := lookup(o, path[i+1:], depth+1); ok {
				return r, true
			}
		}
	}
	return nil, false
}

// RowInputs builds an evaluator's inputs from one row through m. Values are converted to each
// input's kind: list kinds ("list", "claims", "evidence") take a list, a JSON or Python list
// written in a text cell (`["a","b"]`, `['a', 'b']`), a text of items joined by | (as DeepEval
// writes them; warned), or a single text (a list of one, warned); list items that are objects
// ({doc_id, text}, {title, content}, {page_content, metadata}) become their text, or for
// evidence {title, text}; "number" takes a number or a numeric text; "text" takes text (a list
// of texts is joined by lines, warned). The checks say what is missing, unreadable or was
// adjusted, each with its code and the input it is about; an input with an error check is left
// out of the result, so rendering it fails on that input.
func RowInputs(row *value.Object, m Mapping, inputs []judge.Input) (*value.Object, []diag.Check) {
	out := &value.Object{}
	checks := []diag.Check{}
	for _, in := range inputs {
		col, mapped := m[in.Name]
		if !mapped || col == "" {
			if in.Required {
				checks = append(checks, diag.Fail(diag.InputUnmapped, diag.Sprintf("input %q: no column is mapped to it", in.Name)).In(in.Name))
			}
			continue
		}
		where := diag.Sprintf("input %q (column %q)", in.Name, col)
		v, found := Lookup(row, col)
		if !found || v == nil || isBlank(v) {
			if in.Required {
				what := "is empty"
				if !found {
					what = "is missing"
				} else if v == nil {
					what = "is null"
				}
				checks = append(checks, diag.Fail(diag.InputMissing, diag.Sprintf("%s: the value %s in this row", where, what)).In(in.Name))
			}
			continue
		}
		conv, cs := convert(in, v)
		failed := false
		for _, c := range cs {
			c.Message = where + ": " + c.Message
			checks = append(checks, c.In(in.Name))
			failed = failed || c.Severity == diag.SevError
		}
		if !failed {
			out.Set(in.Name, conv)
		}
	}
	return out, checks
}

func isBlank(v any) bool {
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) == ""
}

// convert turns v into a value of in's kind, with checks on what it adjusted, or an error check
// saying why it cannot.
func convert(in judge.Input, v any) (any, []diag.Check) {
	switch in.Kind {
	case "list", "claims", "evidence":
		return convertList(in, v)
	case "number":
		return convertNumber(v)
	case "choice":
		s, ok := v.(string)
		if !ok {
			return nil, []diag.Check{diag.Fail(diag.InputNotAChoice, diag.Sprintf("want one of %s, got %s", strings.Join(in.Choices, ", "), value.TypeName(v)))}
		}
		t := strings.TrimSpace(s)
		for _, c := range in.Choices {
			if strings.EqualFold(c, t) {
				return c, nil
			}
		}
		if len(in.Choices) > 0 {
			return s, []diag.Check{diag.Warn(diag.InputNotAChoice, diag.Sprintf("%q is not one of %s", s, strings.Join(in.Choices, ", ")))}
		}
		return s, nil
	case "text":
		return convertText(v)
	}
	return v, nil
}

func convertText(v any) (any, []diag.Check) {
	switch t := v.(type) {
	case string:
		return t, nil
	case int64, float64, bool:
		return scalarText(t), nil
	case []any:
		parts := make([]string, 0, len(t))
		for i, e := range t {
			s, ok := e.(string)
			if !ok {
				if e == nil || isComposite(e) {
					return nil, []diag.Check{diag.Fail(diag.InputNotText, diag.Sprintf("want text, got a list whose item %d is %s", i+1, value.TypeName(e)))}
				}
				s = scalarText(e)
			}
			parts = append(parts, s)
		}
		if len(parts) == 1 {
			return parts[0], []diag.Check{diag.Warn(diag.InputJoined, "a list of one text; its text is used")}
		}
		return strings.Join(parts, "\n"), []diag.Check{diag.Warn(diag.InputJoined, diag.Sprintf("a list of %d texts; joined one per line", len(parts)))}
	}
	return nil, []diag.Check{diag.Fail(diag.InputNotText, "want text, got "+value.TypeName(v))}
}

func convertNumber(v any) (any, []diag.Check) {
	switch t := v.(type) {
	case int64, float64:
		return t, nil
	case string:
		s := strings.TrimSpace(t)
		f, err := exact.ParseFloat(s)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !isNumberLiteral(s) {
			return nil, []diag.Check{diag.Fail(diag.InputNotANumber, diag.Sprintf("%q is not a number", t))}
		}
		return value.Number(s), nil
	}
	return nil, []diag.Check{diag.Fail(diag.InputNotANumber, "want a number, got "+value.TypeName(v))}
}

// isNumberLiteral accepts decimal numbers as people write them in cells: an optional sign,
// digits with at most one point, an optional exponent; not "Inf", "NaN", hex or underscores.
func isNumberLiteral(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		case (c == 'e' || c == 'E') && digits > 0:
			exp := strings.TrimPrefix(strings.TrimPrefix(s[i+1:], "-"), "+")
			if exp == "" {
				return false
			}
			for j := 0; j < len(exp); j++ {
				if exp[j] < '0' || exp[j] > '9' {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return digits > 0
}

// pipeList splits s at | as DeepEval joins a list into one text (retrieval_context, context),
// when that is the likely reading: s has a |, no line of it begins or ends with one (a Markdown
// table), no || (code), and no item is blank. Items are trimmed.
func pipeList(s string) ([]any, bool) {
	if !strings.Contains(s, "|") || strings.Contains(s, "||") || strings.Count(s, "|") >= maxCellItems {
		return nil, false
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "|") || strings.HasSuffix(line, "|") {
			return nil, false
		}
	}
	parts := strings.Split(s, "|")
	items := make([]any, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, false
		}
		items[i] = p
	}
	return items, true
}

func convertList(in judge.Input, v any) (any, []diag.Check) {
	kind := in.Kind
	var checks []diag.Check
	var list []any
	switch t := v.(type) {
	case []any:
		list = t
	case string:
		parsed, note, ok, errOff := parseListCell(t)
		switch {
		case ok:
			list = parsed
			if note != "" {
				checks = append(checks, diag.Warn(diag.InputNumpyList, note))
			}
		case errOff >= 0:
			list = []any{t}
			checks = append(checks, diag.Warn(diag.InputBadListCell, note+"; taken as a list of one").AtOffset(t, errOff, 1))
		default:
			if items, isPipes := pipeList(t); isPipes {
				list = items
				checks = append(checks, diag.Warn(diag.InputListFromPipes, diag.Sprintf("one text with | in it, read as a list of %d items split at | (as DeepEval writes lists); if it is one text, give it as a JSON list [\"…\"]", len(items))))
			} else {
				list = []any{t}
				checks = append(checks, diag.Warn(diag.InputOneItem, "one text, not a list; taken as a list of one"))
			}
		}
	case int64, float64, bool:
		list = []any{scalarText(t)}
		checks = append(checks, diag.Warn(diag.InputOneItem, "one value, not a list; taken as a list of one"))
	case *value.Object:
		if _, ok := itemText(t); !ok && kind != "claims" {
			return nil, []diag.Check{diag.Fail(diag.InputNotAList, "want a list, got an object")}
		}
		list = []any{t}
		checks = append(checks, diag.Warn(diag.InputOneItem, "one object, not a list; taken as a list of one"))
	default:
		return nil, []diag.Check{diag.Fail(diag.InputNotAList, "want a list, got "+value.TypeName(v))}
	}
	items := make([]any, 0, len(list))
	objects, lists, titled := 0, 0, 0
	var shape string
	for i, e := range list {
		switch x := e.(type) {
		case []any:
			title, text, ok := listItemText(x)
			if !ok {
				return nil, append(checks, diag.Fail(diag.InputBadItem, diag.Sprintf("item %d is a list that is not texts (a claim triplet [subject, predicate, object], a [title, [sentences]] passage); want %s", i+1, itemWant(kind))))
			}
			lists++
			if title != "" {
				titled++
			}
			if kind == "evidence" && title != "" {
				items = append(items, value.NewObject("title", title, "text", text))
			} else {
				items = append(items, text)
			}
		case string:
			items = append(items, x)
		case int64, float64, bool:
			items = append(items, scalarText(x))
		case nil:
			checks = append(checks, diag.Warn(diag.InputNullItem, diag.Sprintf("item %d is null; left out", i+1)))
		case *value.Object:
			if kind == "claims" {
				items = append(items, x)
				continue
			}
			text, ok := itemText(x)
			if !ok {
				return nil, append(checks, diag.Fail(diag.InputBadItem, diag.Sprintf("item %d is an object with no text in it (text, content, page_content, ...); want %s", i+1, itemWant(kind))))
			}
			objects++
			if shape == "" {
				shape = "{" + strings.Join(x.Keys(), ", ") + "}"
			}
			if kind == "evidence" {
				ev := value.NewObject()
				if title := itemTitle(x); title != "" {
					ev.Set("title", title)
				}
				ev.Set("text", text)
				items = append(items, ev)
			} else {
				items = append(items, text)
			}
		default:
			return nil, append(checks, diag.Fail(diag.InputBadItem, diag.Sprintf("item %d is %s, want %s", i+1, value.TypeName(e), itemWant(kind))))
		}
	}
	if objects > 0 && !isPlainEvidence(kind, list) {
		what := "its text"
		if kind == "evidence" {
			what = "its text and title"
		}
		checks = append(checks, diag.Warn(diag.InputItemText, diag.Sprintf("%d of %d items are objects like %s; each is read as %s", objects, len(list), shape, what)))
	}
	switch {
	case titled > 0 && titled == lists:
		checks = append(checks, diag.Warn(diag.InputItemText, diag.Sprintf("%d of %d items are [title, [sentences]] (as HotpotQA writes a passage); each is read as its sentences joined by spaces%s", lists, len(list), titleNote(kind))))
	case titled > 0:
		checks = append(checks, diag.Warn(diag.InputItemText, diag.Sprintf("%d of %d items are lists of texts (as RAGChecker writes a claim [subject, predicate, object], HotpotQA a passage [title, [sentences]]); each is read as its texts joined by spaces", lists, len(list))))
	case lists > 0:
		checks = append(checks, diag.Warn(diag.InputItemText, diag.Sprintf("%d of %d items are lists of texts (as RAGChecker writes a claim [subject, predicate, object]); each is read as its texts joined by spaces", lists, len(list))))
	}
	if len(items) == 0 && in.Required {
		return nil, append(checks, diag.Fail(diag.InputEmptyList, "the list is empty"))
	}
	return items, checks
}

// titleNote says where an item's title goes: evidence keeps it, other inputs drop it.
func titleNote(kind string) string {
	if kind == "evidence" {
		return ", under its title"
	}
	return ", its title left out"
}

// listItemText reads a list item that is itself a list: texts, one text joined by spaces
// (RAGChecker's claim triplet ["Nile", "is", "longest river in the world"]); or a title and a
// list of texts (HotpotQA's context entry [title, [sentence, …]]): the title and the sentences
// joined. ok is false for anything else, or for no text at all.
func listItemText(x []any) (title, text string, ok bool) {
	texts := func(xs []any) ([]string, bool) {
		out := make([]string, 0, len(xs))
		for _, e := range xs {
			s, isText := e.(string)
			if !isText {
				return nil, false
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, len(out) > 0
	}
	if parts, ok := texts(x); ok {
		return "", strings.Join(parts, " "), true
	}
	if len(x) == 2 {
		t, isText := x[0].(string)
		sentences, isList := x[1].([]any)
		if isText && isList {
			if parts, ok := texts(sentences); ok {
				return strings.TrimSpace(t), strings.Join(parts, " "), true
			}
		}
	}
	return "", "", false
}

// textKeys are the keys whose value is an object item's text, best first: {doc_id, text}
// (RAGChecker, DPR's ctxs, ALCE's docs), {title, content}, {page_content, metadata} (LangChain),
// Phoenix's documents, {contents} (Pyserini and BEIR corpora), {passage_text} (MS MARCO), CRAG's
// search results {page_name, page_snippet, page_result} (page_result is the page's HTML), and
// MultiHop-RAG's evidence {title, fact, url, …}.
var textKeys = []string{"text", "content", "page_content", "document.content", "contents", "passage", "passage_text", "chunk", "context",
	"document", "body", "snippet", "page_snippet", "fact"}

// itemText returns the text of an object item.
func itemText(o *value.Object) (string, bool) {
	for _, k := range textKeys {
		if v, ok := Lookup(o, k); ok {
			if s, isText := v.(string); isText {
				return s, true
			}
		}
	}
	return "", false
}

// itemTitle returns the title of an object item ({title}, {metadata: {title}}), or "".
func itemTitle(o *value.Object) string {
	for _, k := range []string{"title", "metadata.title", "document.metadata.title", "page_name"} {
		if v, ok := Lookup(o, k); ok {
			if s, isText := v.(string); isText {
				return s
			}
		}
	}
	return ""
}

// isPlainEvidence reports whether list's objects are already evidence as the evaluator reads
// it ({text} or {title, text}), which needs no warning.
func isPlainEvidence(kind string, list []any) bool {
	if kind != "evidence" {
		return false
	}
	for _, e := range list {
		o, ok := e.(*value.Object)
		if !ok {
			continue
		}
		for _, k := range o.Keys() {
			if k != "text" && k != "title" {
				return false
			}
		}
	}
	return true
}

func itemWant(kind string) string {
	switch kind {
	case "claims":
		return "text or {id, text}"
	case "evidence":
		return "text or {title, text}"
	}
	return "text"
}

func isComposite(v any) bool {
	switch v.(type) {
	case []any, *value.Object:
		return true
	}
	return false
}

func scalarText(v any) string {
	switch t := v.(type) {
	case int64:
		return strconv.FormatInt(t, 10)
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case string:
		return t
	}
	return diag.Sprintf("%v", v)
}
