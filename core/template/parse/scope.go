package parse

// Jinja resolves names per frame (the template, each for body and else) by a symbol
// analysis done before rendering (jinja2/idtracking.py). Mostly that behaves like ordinary
// nested scopes falling back to the variables, which is what the evaluator does, with one
// exception this file computes: a name a frame assigns unconditionally, before reading it, starts
// that frame as "missing" rather than as the variable of that name, and inner frames see the
// missing value too. So with vars {n: 3},
//
//	{% for i in [1] %}{{ n }}{% endfor %}{% set n = 5 %}
//
// fails with 'n' is undefined in Jinja, while {{ n }}{% set n = 5 %} prints 3. This is a port of
// the parts of idtracking.Symbols and FrameSymbolVisitor that our statements reach.

const (
	loadResolve = iota + 1
	loadAlias
	loadUndefined
	loadParam
)

// symbol is what a frame knows of one name: how it loads (loadResolve…loadParam; a name the
// frame knows has one, which is idtracking's "refs") and whether the frame stores it.
type symbol struct {
	name  string
	load  int
	store bool
	_     [0]func() // not comparable: no equality function in the wasm
}

type symbols struct {
	// reads records the names read from the context (the template's inputs), with the offset
	// of the read, or -1 for a name only some branches of an if assign; all frames share it.
	reads  *[]nameAt
	parent *symbols
	// base is set on a branch of an if (see visitIf): the branch sees base's symbols as its own
	// and keeps only what it changes, where Jinja copies the frame's tables for each branch
	// (three copies of every name for each if: most of analysing a template).
	base *symbols
	syms []symbol
	// index finds a name in syms once there are more than smallScope (a template that sets
	// thousands of names is not analysed in quadratic time).
	index map[string]int
	_     [0]func() // not comparable: no equality function in the wasm
}

// nameAt is a name read at a byte offset.
type nameAt struct {
	name string
	pos  int
	_    [0]func() // not comparable: no equality function in the wasm
}

func newSymbols(parent *symbols) *symbols {
	reads := &[]nameAt{}
	if parent != nil {
		reads = parent.reads
	}
	return &symbols{reads: reads, parent: parent}
}

// branch returns a branch of s for one of an if's bodies (idtracking's Symbols.copy).
func (s *symbols) branch() *symbols {
	return &symbols{reads: s.reads, parent: s.parent, base: s}
}

// own returns the index of name's symbol among s's own, or -1.
func (s *symbols) own(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	for i := range s.syms {
		if s.syms[i].name == name {
			return i
		}
	}
	return -1
}

// lookup returns name's symbol as s sees it (its own, else its base's), or nil.
func (s *symbols) lookup(name string) *symbol {
	for f := s; f != nil; f = f.base {
		if i := f.own(name); i >= 0 {
			return &f.syms[i]
		}
	}
	return nil
}

// entry returns s's own symbol for name, made from what its base knows of it (or empty) when
// s has none yet; it is valid until the next entry.
func (s *symbols) entry(name string) *symbol {
	if i := s.own(name); i >= 0 {
		return &s.syms[i]
	}
	e := symbol{name: name}
	if b := s.base; b != nil {
		if be := b.lookup(name); be != nil {
			e = *be
		}
	}
	s.syms = append(s.syms, e)
	switch {
	case s.index != nil:
		s.index[name] = len(s.syms) - 1
	case len(s.syms) > smallScope:
		s.index = make(map[string]int, 2*len(s.syms))
		for i := range s.syms {
			s.index[s.syms[i].name] = i
		}
	}
	return &s.syms[len(s.syms)-1]
}

func (s *symbols) findRef(name string) bool {
	for f := s; f != nil; f = f.parent {
		if f.lookup(name) != nil {
			return true
		}
	}
	return false
}

func (s *symbols) load(name string, pos int) {
	if !s.findRef(name) {
		s.entry(name).load = loadResolve
		*s.reads = append(*s.reads, nameAt{name: name, pos: pos})
	}
}

func (s *symbols) store(name string) {
	aliased := s.lookup(name) == nil && s.parent != nil && s.parent.findRef(name)
	e := s.entry(name)
	e.store = true
	switch {
	case e.load != 0:
	case aliased:
		e.load = loadAlias
	default:
		e.load = loadUndefined
	}
}

func (s *symbols) declareParameter(name string) {
	e := s.entry(name)
	e.store, e.load = true, loadParam
}

// branchUpdate merges the branches of an if (body, elifs, else: branches of s) into s: a name
// assigned in only some of them is read from outside at the frame's start. It is idtracking's
// branch_update over copies of s: a name s knew before ends as the last branch sees it, a
// new name as the last branch that knows it has it.
func (s *symbols) branchUpdate(branches []*symbols) {
	type count struct {
		name string
		n    int
		_    [0]func()
	}
	var counts []count
	for _, b := range branches {
		for _, e := range b.syms {
			if !e.store {
				continue
			}
			if se := s.lookup(e.name); se != nil && se.store {
				continue
			}
			k := 0
			for k < len(counts) && counts[k].name != e.name {
				k++
			}
			if k == len(counts) {
				counts = append(counts, count{name: e.name})
			}
			counts[k].n++
		}
	}
	knewBefore := func(name string, n0 int) bool {
		if i := s.own(name); i >= 0 {
			return i < n0
		}
		return s.base != nil && s.base.lookup(name) != nil
	}
	n0 := len(s.syms)
	last := branches[len(branches)-1]
	for _, b := range branches {
		for _, e := range b.syms {
			knew := knewBefore(e.name, n0)
			se := s.entry(e.name)
			se.store = se.store || e.store
			if !knew || b == last {
				se.load = e.load
			}
		}
	}
	for _, c := range counts {
		if c.n == len(branches) {
			continue
		}
		if s.parent != nil && s.parent.findRef(c.name) {
			s.entry(c.name).load = loadAlias
			continue
		}
		s.entry(c.name).load = loadResolve
		*s.reads = append(*s.reads, nameAt{name: c.name, pos: -1})
	}
}

// missingNames returns the names a frame starts as missing.
func (s *symbols) missingNames() []string {
	var out []string
	for _, e := range s.syms {
		if e.load == loadUndefined {
			out = append(out, e.name)
		}
	}
	return out
}

// analyzeScopes annotates every frame of the template with the names it starts as missing and
// returns the template frame's.
func analyzeScopes(body []node) *symbols {
	root := newSymbols(nil)
	visitFrame(root, body)
	analyzeChildren(root, body)
	return root
}

// visitFrame is FrameSymbolVisitor over the statements of one frame.
func visitFrame(s *symbols, body []node) {
	for _, n := range body {
		switch t := n.(type) {
		case *printNode:
			visitLoads(s, t.x)
		case *setNode:
			visitLoads(s, t.val)
			storeTarget(s, t.target, false)
		case *forNode:
			visitLoads(s, t.iter)
		case *ifNode:
			visitIf(s, t.branches[0], t.branches[1:], t.els)
		case *macroNode:
			s.store(t.name)
		case *callBlockNode:
			visitLoads(s, t.call)
		case *filterBlockNode:
			visitLoads(s, t.filter)
		case *withNode:
			for _, v := range t.vals {
				visitLoads(s, v)
			}
		case *setBlockNode:
			storeTarget(s, t.target, false)
		}
	}
}

func visitIf(s *symbols, first ifBranch, elifs []ifBranch, els []node) {
	visitLoads(s, first.cond)
	inner := func(visit func(*symbols)) *symbols {
		c := s.branch()
		visit(c)
		return c
	}
	body := inner(func(c *symbols) { visitFrame(c, first.body) })
	elif := inner(func(c *symbols) {
		for _, br := range elifs {
			visitIf(c, br, nil, nil)
		}
	})
	elseSyms := inner(func(c *symbols) { visitFrame(c, els) })
	s.branchUpdate([]*symbols{body, elif, elseSyms})
}

func storeTarget(s *symbols, t target, param bool) {
	if t.attr != "" {
		s.load(t.name, t.pos) // a namespace's attribute: the namespace is read
		return
	}
	if t.items == nil {
		if param {
			s.declareParameter(t.name)
		} else {
			s.store(t.name)
		}
		return
	}
	for _, it := range t.items {
		storeTarget(s, it, param)
	}
}

// analyzeChildren analyzes the frames directly inside body (for bodies, else blocks, set
// blocks, also inside if branches, which share their frame) with parent s.
func analyzeChildren(s *symbols, body []node) {
	for _, n := range body {
		switch t := n.(type) {
		case *forNode:
			if t.test != nil {
				test := newSymbols(s)
				storeTarget(test, t.target, true)
				visitLoads(test, t.test)
			}
			loop := newSymbols(s)
			loop.declareParameter("loop")
			storeTarget(loop, t.target, true)
			visitFrame(loop, t.body)
			t.bodyMissing = loop.missingNames()
			analyzeChildren(loop, t.body)
			if len(t.els) > 0 {
				els := newSymbols(s)
				visitFrame(els, t.els)
				t.elseMissing = els.missingNames()
				analyzeChildren(els, t.els)
			}
		case *ifNode:
			for _, br := range t.branches {
				analyzeChildren(s, br.body)
			}
			analyzeChildren(s, t.els)
		case *macroNode:
			analyzeMacro(s, t, nil)
		case *callBlockNode:
			analyzeMacro(s, t.caller, t.call)
		case *withNode:
			w := newSymbols(s)
			for _, tg := range t.targets {
				storeTarget(w, tg, false)
			}
			t.missing = analyzeFrame(w, t.body)
		case *filterBlockNode:
			t.missing = analyzeFrame(newSymbols(s), t.body)
		case *setBlockNode:
			t.missing = analyzeFrame(newSymbols(s), t.body)
		}
	}
}

// analyzeFrame analyzes the frame of a block's body, returning the names it starts as missing.
func analyzeFrame(f *symbols, body []node) []string {
	visitFrame(f, body)
	analyzeChildren(f, body)
	return f.missingNames()
}

func analyzeMacro(s *symbols, m *macroNode, call expr) {
	f := newSymbols(s)
	for _, p := range m.params {
		f.declareParameter(p)
	}
	for _, d := range m.defaults {
		visitLoads(f, d)
	}
	visitLoads(f, call)
	for _, special := range []struct {
		name string
		on   bool
	}{{"caller", m.usesCaller && !m.explicitCall}, {"kwargs", m.catchKwargs}, {"varargs", m.catchVarargs}} {
		if special.on {
			f.declareParameter(special.name)
		}
	}
	visitFrame(f, m.body)
	m.missing = f.missingNames()
	analyzeChildren(f, m.body)
}

// visitLoads records every name an expression reads.
func visitLoads(s *symbols, x expr) {
	if n, ok := x.(*nameExpr); ok {
		s.load(n.name, n.pos)
	}
	if x != nil {
		subExprs(x, func(c expr) { visitLoads(s, c) })
	}
}
