package template

import (
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/stable"
	"ragjudge/core/template/parse"
)

// Variables returns the names a template reads from its inputs, in the order of their first
// reads: for Jinja, the names its symbol analysis resolves from the context (not those a for
// loop, set, with, macro parameter or call block binds before reading them, nor Jinja's globals
// and loop); for str.format, the first name of each field. A template that does not parse is
// an error, as in Render.
func Variables(name, src string, dialect Dialect) ([]string, error) {
	reads, err := Reads(name, src, dialect)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(reads))
	for k, r := range reads {
		out[k] = r.Name
	}
	return out, nil
}

// Read is a name a template reads from its inputs, at its first read: Line and Col (1-based,
// columns in code points) of where the name is written, in src as given.
type Read struct {
	Name string    `json:"name"`
	Line int       `json:"line"`
	Col  int       `json:"col"`
	_    [0]func() // not comparable: no equality function in the wasm
}

// Reads is Variables with where each name is first read. For str.format it reads the fields
// only: a single '}' or an unsupported field is Render's error (render it with every name empty
// to find those).
func Reads(name, src string, dialect Dialect) ([]Read, error) {
	if len(src) > maxSource {
		return nil, &diag.Error{Kind: "template", Name: name, Msg: "template is larger than " + diag.Thousands(maxSource) + " bytes"}
	}
	var found []parse.NameAt
	switch dialect {
	case Jinja:
		src = jinjaSource(src)
		tree, perr := parse.Parse(src, &funcs)
		if perr != nil {
			return nil, posError(name, src, perr.Pos, perr.Line, perr.Msg)
		}
		for _, r := range tree.Reads() {
			if !inList(jinjaGlobals+"loop ", r.Name) {
				found = append(found, r)
			}
		}
	case Format:
		for i := 0; i < len(src); i++ {
			c := src[i]
			if c == '}' || c != '{' {
				continue
			}
			if i+1 < len(src) && src[i+1] == '{' {
				i++
				continue
			}
			f, next, ferr := parseField(src, i+1)
			if ferr != nil {
				line, col := diag.Position(src, ferr.pos)
				return nil, &diag.Error{Kind: "template", Name: name, Line: line, Col: col, Msg: ferr.msg}
			}
			n := src[f.nameStart:f.nameEnd]
			if j := strings.IndexAny(n, ".["); j >= 0 {
				n = n[:j]
			}
			if n != "" && !isDecimal(n) {
				found = append(found, parse.NameAt{Name: n, Pos: i + 1})
			}
			i = next - 1
		}
	default:
		return nil, &diag.Error{Kind: "template", Name: name, Msg: "unknown dialect " + quote(string(dialect)) + `: want "jinja" or "format"`}
	}
	// found is mostly in order already; sorting is only for what is not.
	for i := 1; i < len(found); i++ {
		if found[i].Pos < found[i-1].Pos {
			sorted := make([]parse.NameAt, 0, len(found))
			for _, k := range stable.Order(len(found), func(a, b int) bool { return found[a].Pos < found[b].Pos }) {
				sorted = append(sorted, found[k])
			}
			found = sorted
			break
		}
	}
	out := []Read{}
	seen := map[string]bool{}
	// Positions are counted on from the previous one (found is in order): from the start each
	// time, a template reading thousands of names took seconds.
	at, line, col := 0, 1, 1
	for _, f := range found {
		if !seen[f.Name] {
			seen[f.Name] = true
			// Jinja's positions are in its normalised source ("\r\n" read as "\n"), which has
			// the same line numbers.
			l, c := diag.Position(src[at:], f.Pos-at)
			if l > 1 {
				line, col = line+l-1, c
			} else {
				col += c - 1
			}
			at = f.Pos
			out = append(out, Read{Name: f.Name, Line: line, Col: col})
		}
	}
	return out, nil
}
