package template

// The table of built-in filters and tests. Each is a row of static data (its names, its Python
// signature as text, its function) rather than code that builds the definition, which keeps
// the wasm small: the signature is read when the filter is used.

import (
	"strings"
	"sync"

	"ragjudge/core/exact"
	"ragjudge/core/template/parse"
)

// builtinSpec is one built-in filter or test.
//
// sig is the Python signature: the function's name (as Python's messages give it), the number
// of lead parameters Jinja passes itself (see signature), then the parameters, name=default
// for those with a default (None, True, False, an int, a float, or a str in single quotes
// without spaces), * and ** for *args and **kwargs. A name starting with "!" is a C function
// of exactly one argument (abs, callable, markupsafe's escape), whose argument errors CPython
// words its own way; "@" a C function of positional arguments (len, operator.eq).
type builtinSpec struct {
	names string // space-separated
	sig   string
	fn    func(c *callCtx, v any, b *bound) (any, error)
	plain func(v any, args []any) (any, error) // when fn is nil: a function of the value and the parameters
	op    uint8                                // when both are nil: the test testOp runs
}

// specTables holds the filters' table and the tests' table; set in init, because the filters
// that call other filters by name (map, select…) make the tables refer to themselves.
var specTables [2][]builtinSpec

func init() {
	specTables = [2][]builtinSpec{filterSpecs[:], testSpecs[:]}
}

var filterSpecs = [...]builtinSpec{
	{"upper", "do_upper 1 s", nil, func(v any, _ []any) (any, error) { return mapStr(v, pyUpper) }, 0},
	{"lower", "do_lower 1 s", nil, func(v any, _ []any) (any, error) { return mapStr(v, pyLower) }, 0},
	{"length count", "@len 1 obj", nil, func(v any, _ []any) (any, error) { return pyLen(v) }, 0},
	{"trim", "do_trim 1 value chars=None", nil, filterTrim, 0},
	{"join", "sync_do_join 2 eval_ctx value d='' attribute=None", func(c *callCtx, v any, b *bound) (any, error) {
		if err := chargeChars(c.ev, c.pos, v); err != nil {
			return nil, err
		}
		return filterJoin(v, b.args)
	}, nil, 0},
	{"replace", "do_replace 2 eval_ctx s old new count=None", nil, filterReplace, 0},
	{"default d", "do_default 1 value default_value='' boolean=False", nil, filterDefault, 0},
	{"first", "sync_do_first 2 environment seq", nil, filterFirst, 0},
	{"last", "do_last 2 environment seq", nil, filterLast, 0},
	{"tojson", "do_tojson 2 eval_ctx value indent=None", func(c *callCtx, v any, b *bound) (any, error) {
		if err := chargeDeep(c, v); err != nil {
			return nil, err
		}
		return filterToJSON(v, b.args)
	}, nil, 0},
	{"abs", "!abs 1 x", nil, filterAbs, 0},
	{"attr", "do_attr 2 environment obj name", nil, filterAttr, 0},
	{"batch", "do_batch 1 value linecount fill_with=None", filterBatch, nil, 0},
	{"capitalize", "do_capitalize 1 s", nil, func(v any, _ []any) (any, error) { return strFilter(v, true, pyCapitalize) }, 0},
	{"center", "do_center 1 value width=80", nil, filterCenter, 0},
	{"dictsort", "do_dictsort 1 value case_sensitive=False by='key' reverse=False", filterDictsort, nil, 0},
	{"escape e", "!markupsafe._speedups.escape 1 s", nil, func(v any, _ []any) (any, error) { return escapeValue(v) }, 0},
	{"filesizeformat", "do_filesizeformat 1 value binary=False", nil, filterFilesizeformat, 0},
	{"float", "do_float 1 value default=0.0", nil, filterFloat, 0},
	{"forceescape", "do_forceescape 1 value", nil, filterForceescape, 0},
	{"format", "do_format 1 value * **", filterFormat, nil, 0},
	{"groupby", "sync_do_groupby 2 environment value attribute default=None case_sensitive=False", filterGroupby, nil, 0},
	{"indent", "do_indent 1 s width=4 first=False blank=False", filterIndent, nil, 0},
	{"int", "do_int 1 value default=0 base=10", nil, filterInt, 0},
	{"items", "do_items 1 value", filterItems, nil, 0},
	{"list", "sync_do_list 1 value", filterList, nil, 0},
	{"map", "sync_do_map 2 context value * **", filterMap, nil, 0},
	{"select", "sync_do_select 2 context value * **", filterSelect, nil, 0},
	{"reject", "sync_do_reject 2 context value * **", filterReject, nil, 0},
	{"selectattr", "sync_do_selectattr 2 context value * **", filterSelectattr, nil, 0},
	{"rejectattr", "sync_do_rejectattr 2 context value * **", filterRejectattr, nil, 0},
	{"max", "do_max 2 environment value case_sensitive=False attribute=None", filterMax, nil, 0},
	{"min", "do_min 2 environment value case_sensitive=False attribute=None", filterMin, nil, 0},
	{"pprint", "do_pprint 1 value", func(c *callCtx, v any, b *bound) (any, error) {
		if err := chargeDeep(c, v); err != nil {
			return nil, err
		}
		return pprintRepr(v, b.args)
	}, nil, 0},
	{"reverse", "do_reverse 1 value", filterReverse, nil, 0},
	{"round", "do_round 1 value precision=0 method='common'", nil, filterRound, 0},
	{"safe", "do_mark_safe 1 value", nil, filterSafe, 0},
	{"slice", "sync_do_slice 1 value slices fill_with=None", filterSlice, nil, 0},
	{"sort", "do_sort 2 environment value reverse=False case_sensitive=False attribute=None", filterSort, nil, 0},
	{"string", "soft_str 1 s", func(c *callCtx, v any, b *bound) (any, error) {
		if err := chargeDeep(c, v); err != nil {
			return nil, err
		}
		return filterString(v, b.args)
	}, nil, 0},
	{"striptags", "do_striptags 1 value", nil, filterStriptags, 0},
	{"sum", "sync_do_sum 2 environment iterable attribute=None start=0", filterSum, nil, 0},
	{"title", "do_title 1 s", filterTitle, nil, 0},
	{"truncate", "do_truncate 2 env s length=255 killwords=False end='...' leeway=None", nil, filterTruncate, 0},
	{"unique", "do_unique 2 environment value case_sensitive=False attribute=None", filterUnique, nil, 0},
	{"urlencode", "do_urlencode 1 value", nil, filterUrlencode, 0},
	{"urlize", "do_urlize 2 eval_ctx value trim_url_limit=None nofollow=False target=None rel=None extra_schemes=None", nil, filterUrlize, 0},
	{"wordcount", "do_wordcount 1 s", nil, filterWordcount, 0},
	{"wordwrap", "do_wordwrap 2 environment s width=79 break_long_words=True wrapstring=None break_on_hyphens=True", filterWordwrap, nil, 0},
	{"xmlattr", "do_xmlattr 2 eval_ctx d autospace=True", nil, filterXmlattr, 0},
}

// funcs are the built-ins as the parser resolves a template's names to them.
var funcs = parse.Funcs{
	Filter:       func(name string) (any, bool) { return builtin(0, name) },
	Test:         func(name string) (any, bool) { return builtin(1, name) },
	JinjaFilters: jinjaFilters,
	JinjaTests:   jinjaTests,
}

// builtin is lookupBuiltin as an any that is nil, not a nil *filterDef, for a name not found.
func builtin(table int, name string) (any, bool) {
	if d, ok := lookupBuiltin(table, name); ok {
		return d, true
	}
	return nil, false
}

// builtins indexes the two tables by name and holds each row's definition, made from the row
// on its first use (the signature is text until then): a filter is looked up once when its
// template is parsed (the parse cache keeps the result), never on each call.
var builtins struct {
	sync.Mutex
	byName [2]map[string]int
	defs   [2][]*filterDef
}

// lookupBuiltin returns the definition of the built-in called name in table 0 (filters) or 1
// (tests).
func lookupBuiltin(table int, name string) (*filterDef, bool) {
	builtins.Lock()
	defer builtins.Unlock()
	if builtins.byName[table] == nil {
		m := map[string]int{}
		for i := range specTables[table] {
			for _, n := range strings.Fields(specTables[table][i].names) {
				m[n] = i
			}
		}
		builtins.byName[table] = m
		builtins.defs[table] = make([]*filterDef, len(specTables[table]))
	}
	i, ok := builtins.byName[table][name]
	if !ok {
		return nil, false
	}
	d := builtins.defs[table][i]
	if d == nil {
		def := specTables[table][i].def()
		d = &def
		builtins.defs[table][i] = d
	}
	return d, true
}

func (sp *builtinSpec) def() filterDef {
	f := strings.Fields(sp.sig)
	var d filterDef
	d.sig.fn = f[0]
	d.sig.lead, _ = exact.Atoi(f[1])
	for _, p := range f[2:] {
		switch p {
		case "*":
			d.sig.varargs = true
			continue
		case "**":
			d.sig.varkw = true
			continue
		}
		name, dflt, has := strings.Cut(p, "=")
		d.sig.params = append(d.sig.params, name)
		if has {
			d.sig.defaults = append(d.sig.defaults, specDefault(dflt))
		}
	}
	fn, plain, op := sp.fn, sp.plain, sp.op
	if op != 0 {
		fn = func(_ *callCtx, v any, b *bound) (any, error) { return testOp(op, v, b.args) }
	} else if fn == nil {
		fn = func(_ *callCtx, v any, b *bound) (any, error) { return plain(v, b.args) }
	}
	switch d.sig.fn[0] {
	case '@':
		d.sig.fn, d.sig.builtin = d.sig.fn[1:], true
	case '!':
		// A C function of one argument: no keywords, and its own wording for extra arguments.
		name := d.sig.fn[1:]
		d.sig.fn, d.sig.varargs, d.sig.varkw = name, true, true
		one := fn
		fn = func(c *callCtx, v any, b *bound) (any, error) {
			if len(b.kw) > 0 {
				return nil, typeErr("%s() takes no keyword arguments", name)
			}
			if len(b.rest) > 0 {
				return nil, typeErr("%s() takes exactly one argument (%s given)", name, len(b.rest)+1)
			}
			return one(c, v, b)
		}
	}
	d.fn = fn
	return d
}

// specDefault reads a default value of a signature.
func specDefault(s string) any {
	switch s {
	case "None":
		return nil
	case "True":
		return true
	case "False":
		return false
	}
	if s[0] == '\'' {
		return s[1 : len(s)-1]
	}
	if strings.Contains(s, ".") {
		f, _ := exact.ParseFloat(s)
		return f
	}
	n, _ := exact.ParseInt(s, 10, 64)
	return n
}
