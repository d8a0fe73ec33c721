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

// smallFrame is how many names a frame finds by searching its list: past that, a map.
const smallFrame = 16

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
	reads  *[]NameAt
	parent *symbols
	// base is set on a branch of an if (see visitIf): the branch sees base's symbols as its own
	// and keeps only what it changes, where Jinja copies the frame's tables for each branch
	// (three copies of every name for each if: most of analysing a template).
	base *symbols
	syms []symbol
	// index finds a name in syms once there are more than smallFrame (a template that sets
	// thousands of names is not analysed in quadratic time).
	index map[string]int
	_     [0]func() // not comparable: no equality function in the wasm
}

// NameAt is a name read at byte offset Pos.
type NameAt struct {
	Name string
	Pos  int
	_    [0]func() // not comparable: no equality function in the wasm
}

func newSymbols(parent *symbols) *symbols {
	reads := &[]NameAt{}
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
	case len(s.syms) > smallFrame:
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
		*s.reads = append(*s.reads, NameAt{Name: name, Pos: pos})
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
		*s.reads = append(*s.reads, NameAt{Name: c.name, Pos: -1})
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
func analyzeScopes(body []Node) *symbols {
	root := newSymbols(nil)
	visitFrame(root, body)
	analyzeChildren(root, body)
	return root
}

// visitFrame is FrameSymbolVisitor over the statements of one frame.
func visitFrame(s *symbols, body []Node) {
	for _, n := range body {
		switch t := n.(type) {
		case *PrintNode:
			visitLoads(s, t.X)
		case *SetNode:
			visitLoads(s, t.Val)
			storeTarget(s, t.Target, false)
		case *ForNode:
			visitLoads(s, t.Iter)
		case *IfNode:
			visitIf(s, t.Branches[0], t.Branches[1:], t.Else)
		case *MacroNode:
			s.store(t.Name)
		case *CallBlockNode:
			visitLoads(s, t.Call)
		case *FilterBlockNode:
			visitLoads(s, t.Filter)
		case *WithNode:
			for _, v := range t.Vals {
				visitLoads(s, v)
			}
		case *SetBlockNode:
			storeTarget(s, t.Target, false)
		}
	}
}

func visitIf(s *symbols, first IfBranch, elifs []IfBranch, els []Node) {
	visitLoads(s, first.Cond)
	inner := func(visit func(*symbols)) *symbols {
		c := s.branch()
		visit(c)
		return c
	}
	body := inner(func(c *symbols) { visitFrame(c, first.Body) })
	elif := inner(func(c *symbols) {
		for _, br := range elifs {
			visitIf(c, br, nil, nil)
		}
	})
	elseSyms := inner(func(c *symbols) { visitFrame(c, els) })
	s.branchUpdate([]*symbols{body, elif, elseSyms})
}

func storeTarget(s *symbols, t Target, param bool) {
	if t.Attr != "" {
		s.load(t.Name, t.Pos) // a namespace's attribute: the namespace is read
		return
	}
	if t.Items == nil {
		if param {
			s.declareParameter(t.Name)
		} else {
			s.store(t.Name)
		}
		return
	}
	for _, it := range t.Items {
		storeTarget(s, it, param)
	}
}

// analyzeChildren analyzes the frames directly inside body (for bodies, else blocks, set
// blocks, also inside if branches, which share their frame) with parent s.
func analyzeChildren(s *symbols, body []Node) {
	for _, n := range body {
		switch t := n.(type) {
		case *ForNode:
			if t.Test != nil {
				test := newSymbols(s)
				storeTarget(test, t.Target, true)
				visitLoads(test, t.Test)
			}
			loop := newSymbols(s)
			loop.declareParameter("loop")
			storeTarget(loop, t.Target, true)
			visitFrame(loop, t.Body)
			t.BodyMissing = loop.missingNames()
			analyzeChildren(loop, t.Body)
			if len(t.Else) > 0 {
				els := newSymbols(s)
				visitFrame(els, t.Else)
				t.ElseMissing = els.missingNames()
				analyzeChildren(els, t.Else)
			}
		case *IfNode:
			for _, br := range t.Branches {
				analyzeChildren(s, br.Body)
			}
			analyzeChildren(s, t.Else)
		case *MacroNode:
			analyzeMacro(s, t, nil)
		case *CallBlockNode:
			analyzeMacro(s, t.Caller, t.Call)
		case *WithNode:
			w := newSymbols(s)
			for _, tg := range t.Targets {
				storeTarget(w, tg, false)
			}
			t.Missing = analyzeFrame(w, t.Body)
		case *FilterBlockNode:
			t.Missing = analyzeFrame(newSymbols(s), t.Body)
		case *SetBlockNode:
			t.Missing = analyzeFrame(newSymbols(s), t.Body)
		}
	}
}

// analyzeFrame analyzes the frame of a block's body, returning the names it starts as missing.
func analyzeFrame(f *symbols, body []Node) []string {
	visitFrame(f, body)
	analyzeChildren(f, body)
	return f.missingNames()
}

func analyzeMacro(s *symbols, m *MacroNode, call Expr) {
	f := newSymbols(s)
	for _, p := range m.Params {
		f.declareParameter(p)
	}
	for _, d := range m.Defaults {
		visitLoads(f, d)
	}
	visitLoads(f, call)
	for _, special := range []struct {
		name string
		on   bool
	}{{"caller", m.UsesCaller && !m.ExplicitCall}, {"kwargs", m.CatchKwargs}, {"varargs", m.CatchVarargs}} {
		if special.on {
			f.declareParameter(special.name)
		}
	}
	visitFrame(f, m.Body)
	m.Missing = f.missingNames()
	analyzeChildren(f, m.Body)
}

// visitLoads records every name an expression reads.
func visitLoads(s *symbols, x Expr) {
	if n, ok := x.(*NameExpr); ok {
		s.load(n.Name, n.Pos)
	}
	if x != nil {
		subExprs(x, func(c Expr) { visitLoads(s, c) })
	}
}

// Reads returns the names the template reads from its context (its inputs and Jinja's
// globals), each at the byte offset of a read, in the order the symbol analysis met them. A name
// that only some branches of an if assign is read from the context too: it is given where it is
// first read anywhere, and left out when it is never read.
func (t *Tree) Reads() []NameAt {
	out := make([]NameAt, 0, len(t.reads))
	var first map[string]int
	for _, r := range t.reads {
		if r.Pos < 0 {
			if first == nil {
				first = map[string]int{}
				readsOf(t.Root, first)
			}
			p, ok := first[r.Name]
			if !ok {
				continue
			}
			r.Pos = p
		}
		out = append(out, r)
	}
	return out
}
