package dataset

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"ragjudge/core/judge"
	"ragjudge/core/value"
)

// Mapping says which column feeds each input of an evaluator: input name -> column. A column
// may be a dotted path into an object column ("vars.question", "response.output"); see Lookup.
// An input that is not in the mapping gets no value.
type Mapping map[string]string

// synonyms lists, per input name, the column names that commonly hold it, best first: this
// tool's own name, then RAGAS (v0.2, then v0.1), DeepEval, promptfoo and other usual
// spellings. Names are compared after normalise (case, camelCase, spaces and hyphens).
var synonyms = map[string][]string{
	// claim-groundedness
	"question": {"question", "user_input", "input", "query", "user_query", "user_question"},
	"claims":   {"claims", "claim", "statements", "reports"},
	"evidence": {"evidence", "retrieved_contexts", "contexts", "retrieval_context", "context", "documents", "passages", "chunks", "sources"},
	// answer-grounding
	"answer": {"answer", "response.output", "response", "actual_output", "output", "generated_answer", "prediction", "completion"},
	"facts":  {"facts", "retrieved_contexts", "contexts", "retrieval_context", "context", "evidence", "documents", "passages", "chunks"},
	"mode":   {"mode", "grounding_mode"},
	// pairwise-faithfulness
	"contexts":        {"contexts", "retrieved_contexts", "retrieval_context", "context", "evidence", "documents", "passages", "chunks", "references"},
	"expected_output": {"expected_output", "reference", "ground_truth", "ground_truths", "expected_answer", "expected", "golden_answer", "ideal_answer"},
	"actual_output":   {"actual_output", "response.output", "response", "answer", "output", "generated_answer", "prediction", "completion"},
	// rag-recall
	"passage_gt":  {"passage_gt", "ground_truth_passage", "reference", "ground_truth", "ground_truths", "expected_output", "expected_answer", "golden_answer"},
	"passage_llm": {"passage_llm", "llm_returned_passage", "response.output", "response", "answer", "actual_output", "output", "generated_answer"},
	"threshold":   {"threshold", "pass_threshold"},
}

// nestings are the objects datasets keep their fields in, tried after the top level: promptfoo's
// vars (also inside its testCase), and the inputs/outputs/expectations of MLflow and LangSmith.
var nestings = []string{"", "vars.", "test_case.vars.", "inputs.", "outputs.", "expectations."}

// DetectMapping guesses the column for each input from the column names: first any column named
// as the input itself, then the usual synonyms (RAGAS, DeepEval, promptfoo's vars, ...), at the
// top level before inside nestings. Columns may include dotted paths into object columns, as
// Table.Paths lists them; when an object column such as vars is given without its paths, an
// input is guessed to be under its own name there (vars.question). A column feeds one input at
// most. Inputs with no likely column are left out.
func DetectMapping(columns []string, inputs []judge.Input) Mapping {
	index := map[string]string{} // normalised name -> column, the first one wins
	hasChildren := map[string]bool{}
	for _, c := range columns {
		n := normalise(c)
		if _, ok := index[n]; !ok {
			index[n] = c
		}
		if i := strings.LastIndexByte(n, '.'); i > 0 {
			hasChildren[n[:i]] = true
		}
	}
	m := Mapping{}
	used := map[string]bool{}
	take := func(in judge.Input, c string) {
		m[in.Name] = c
		used[c] = true
	}
	// Own names first, so that a synonym of one input cannot take another input's own column.
	for _, in := range inputs {
		if c, ok := index[normalise(in.Name)]; ok && !used[c] {
			take(in, c)
		}
	}
	for _, in := range inputs {
		if _, done := m[in.Name]; done {
			continue
		}
		names := synonyms[in.Name]
		if names == nil {
			names = []string{normalise(in.Name)}
		}
	search:
		for _, nest := range nestings {
			for _, s := range names {
				if c, ok := index[nest+s]; ok && !used[c] {
					take(in, c)
					break search
				}
			}
		}
	}
	// An object column listed without its paths: guess the input's own name inside it.
	for _, in := range inputs {
		if _, done := m[in.Name]; done {
			continue
		}
		for _, nest := range nestings[1:] {
			parent := strings.TrimSuffix(nest, ".")
			if c, ok := index[parent]; ok && !hasChildren[parent] {
				take(in, c+"."+in.Name)
				break
			}
		}
	}
	return m
}

// DetectMapping guesses the mapping of inputs onto t's columns and the paths inside them.
func (t *Table) DetectMapping(inputs []judge.Input) Mapping {
	return DetectMapping(t.Paths(), inputs)
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
// written in a text cell (`["a","b"]`, `['a', 'b']`), or a single text (a list of one, noted);
// "number" takes a number or a numeric text; "text" takes text (a list of texts is joined by
// lines, noted). The messages say what is missing, unreadable or was adjusted; an input that is
// missing or unreadable is left out of the result, so rendering it fails on that input.
func RowInputs(row *value.Object, m Mapping, inputs []judge.Input) (*value.Object, []string) {
	out := &value.Object{}
	msgs := []string{}
	for _, in := range inputs {
		col, mapped := m[in.Name]
		if !mapped || col == "" {
			if in.Required {
				msgs = append(msgs, fmt.Sprintf("input %q: no column is mapped to it", in.Name))
			}
			continue
		}
		where := fmt.Sprintf("input %q (column %q)", in.Name, col)
		v, found := Lookup(row, col)
		if !found || v == nil || isBlank(v) {
			if in.Required {
				what := "is empty"
				if !found {
					what = "is missing"
				} else if v == nil {
					what = "is null"
				}
				msgs = append(msgs, fmt.Sprintf("%s: the value %s in this row", where, what))
			}
			continue
		}
		conv, notes, err := convert(in, v)
		for _, n := range notes {
			msgs = append(msgs, where+": "+n)
		}
		if err != "" {
			msgs = append(msgs, where+": "+err)
			continue
		}
		out.Set(in.Name, conv)
	}
	return out, msgs
}

func isBlank(v any) bool {
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) == ""
}

// convert turns v into a value of in's kind, with notes on what it adjusted, or says why it
// cannot.
func convert(in judge.Input, v any) (any, []string, string) {
	switch in.Kind {
	case "list", "claims", "evidence":
		return convertList(in.Kind, v)
	case "number":
		return convertNumber(v)
	case "choice":
		s, ok := v.(string)
		if !ok {
			return nil, nil, fmt.Sprintf("want one of %s, got %s", strings.Join(in.Choices, ", "), value.TypeName(v))
		}
		t := strings.TrimSpace(s)
		for _, c := range in.Choices {
			if strings.EqualFold(c, t) {
				return c, nil, ""
			}
		}
		if len(in.Choices) > 0 {
			return s, []string{fmt.Sprintf("%q is not one of %s", s, strings.Join(in.Choices, ", "))}, ""
		}
		return s, nil, ""
	case "text":
		return convertText(v)
	}
	return v, nil, ""
}

func convertText(v any) (any, []string, string) {
	switch t := v.(type) {
	case string:
		return t, nil, ""
	case int64, float64, bool:
		return scalarText(t), nil, ""
	case []any:
		parts := make([]string, 0, len(t))
		for i, e := range t {
			s, ok := e.(string)
			if !ok {
				if e == nil || isComposite(e) {
					return nil, nil, fmt.Sprintf("want text, got a list whose item %d is %s", i+1, value.TypeName(e))
				}
				s = scalarText(e)
			}
			parts = append(parts, s)
		}
		if len(parts) == 1 {
			return parts[0], []string{"a list of one text; its text is used"}, ""
		}
		return strings.Join(parts, "\n"), []string{fmt.Sprintf("a list of %d texts; joined one per line", len(parts))}, ""
	}
	return nil, nil, "want text, got " + value.TypeName(v)
}

func convertNumber(v any) (any, []string, string) {
	switch t := v.(type) {
	case int64, float64:
		return t, nil, ""
	case string:
		s := strings.TrimSpace(t)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !isNumberLiteral(s) {
			return nil, nil, fmt.Sprintf("%q is not a number", t)
		}
		return value.Number(s), nil, ""
	}
	return nil, nil, "want a number, got " + value.TypeName(v)
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

func convertList(kind string, v any) (any, []string, string) {
	var notes []string
	var list []any
	switch t := v.(type) {
	case []any:
		list = t
	case string:
		parsed, note, ok := ParseListCell(t)
		if ok {
			list = parsed
			if note != "" {
				notes = append(notes, note)
			}
		} else {
			list = []any{t}
			if note != "" {
				notes = append(notes, note+"; taken as a list of one")
			} else {
				notes = append(notes, "one text, not a list; taken as a list of one")
			}
		}
	case int64, float64, bool:
		list = []any{scalarText(t)}
		notes = append(notes, "one value, not a list; taken as a list of one")
	case *value.Object:
		if kind == "list" {
			return nil, nil, "want a list of texts, got an object"
		}
		list = []any{t}
		notes = append(notes, "one object, not a list; taken as a list of one")
	default:
		return nil, nil, "want a list, got " + value.TypeName(v)
	}
	items := make([]any, 0, len(list))
	for i, e := range list {
		switch x := e.(type) {
		case string:
			items = append(items, x)
		case int64, float64, bool:
			items = append(items, scalarText(x))
		case nil:
			notes = append(notes, fmt.Sprintf("item %d is null; left out", i+1))
		case *value.Object:
			if kind == "list" {
				return nil, notes, fmt.Sprintf("item %d is an object, want text", i+1)
			}
			items = append(items, x)
		default:
			return nil, notes, fmt.Sprintf("item %d is %s, want %s", i+1, value.TypeName(e), itemWant(kind))
		}
	}
	return items, notes, ""
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
	return fmt.Sprint(v)
}
