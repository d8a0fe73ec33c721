package template

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

type symbols struct {
	// reads records the names read from the context (the template's inputs), with the offset
	// of the read, or -1 for a name only some branches of an if assign; all frames share it.
	reads  *[]nameAt
	parent *symbols
	refs   map[string]bool
	loads  map[string]int
	stores map[string]bool
}

// nameAt is a name read at a byte offset.
type nameAt struct {
	name string
	pos  int
}

func newSymbols(parent *symbols) *symbols {
	reads := &[]nameAt{}
	if parent != nil {
		reads = parent.reads
	}
	return &symbols{reads: reads, parent: parent, refs: map[string]bool{}, loads: map[string]int{}, stores: map[string]bool{}}
}

func (s *symbols) copy() *symbols {
	c := newSymbols(s.parent)
	c.reads = s.reads
	for k, v := range s.refs {
		c.refs[k] = v
	}
	for k, v := range s.loads {
		c.loads[k] = v
	}
	for k, v := range s.stores {
		c.stores[k] = v
	}
	return c
}

func (s *symbols) findRef(name string) bool {
	for f := s; f != nil; f = f.parent {
		if f.refs[name] {
			return true
		}
	}
	return false
}

func (s *symbols) load(name string, pos int) {
	if !s.findRef(name) {
		s.refs[name] = true
		s.loads[name] = loadResolve
		*s.reads = append(*s.reads, nameAt{name, pos})
	}
}

func (s *symbols) store(name string) {
	s.stores[name] = true
	if s.refs[name] {
		return
	}
	s.refs[name] = true
	if s.parent != nil && s.parent.findRef(name) {
		s.loads[name] = loadAlias
		return
	}
	s.loads[name] = loadUndefined
}

func (s *symbols) declareParameter(name string) {
	s.stores[name] = true
	s.refs[name] = true
	s.loads[name] = loadParam
}

// branchUpdate merges the symbols of an if's three branches (body, elifs, else): a name
// assigned in only some of them is read from outside at the frame's start.
func (s *symbols) branchUpdate(branches []*symbols) {
	counts := map[string]int{}
	var order []string
	for _, b := range branches {
		for name := range b.stores {
			if s.stores[name] {
				continue
			}
			if counts[name] == 0 {
				order = append(order, name)
			}
			counts[name]++
		}
	}
	for _, b := range branches {
		for k, v := range b.refs {
			s.refs[k] = v
		}
		for k, v := range b.loads {
			s.loads[k] = v
		}
		for k, v := range b.stores {
			s.stores[k] = v
		}
	}
	for _, name := range order {
		if counts[name] == len(branches) {
			continue
		}
		if s.parent != nil && s.parent.findRef(name) {
			s.loads[name] = loadAlias
			continue
		}
		s.loads[name] = loadResolve
		*s.reads = append(*s.reads, nameAt{name, -1})
	}
}

// missingNames returns the names a frame starts as missing.
func (s *symbols) missingNames() []string {
	var out []string
	for name, kind := range s.loads {
		if kind == loadUndefined {
			out = append(out, name)
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
		c := s.copy()
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
