package template

// The Jinja evaluator: walks the syntax tree with Jinja's scoping (a for loop's body gets a fresh
// scope each iteration; if does not open one) and Python's semantics for every operation.

import (
	"strings"
	"unicode/utf8"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/template/parse"
	"ragjudge/core/value"
)

// loopCtx is the `loop` variable of a run of a for loop: one object that each iteration moves
// on, as Jinja's LoopContext (a loop kept in a namespace and read later says where the loop is
// then, not where it was).
type loopCtx struct {
	index0 int
	items  []any
	state  loopState
}

// loopState is what a loop's iterations share besides where they are.
type loopState struct {
	node        *parse.ForNode
	depth0      int
	outer       []*scope // the scopes the loop runs in, for loop(…) of a recursive loop
	lastChanged any
	changedSet  bool
}

// missingVar marks a name a frame assigns later and must not read before (see parse/scope.go).
type missingVar struct{}

// scope is the names one frame binds. A frame binds few (a loop's variable and loop, a macro's
// parameters), so they are kept in order and found by comparing: a map hashes the name on each
// lookup, which in the wasm (no hardware hashing) cost more than comparing a handful, and a map
// for each loop iteration was most of a loop's allocations. A frame that binds many (a template
// setting hundreds of names) gets an index as well.
type scope struct {
	names []string
	vals  []any
	index map[string]int // name -> position in names, once there are more than smallScope
	// shared is set once a macro or a recursive loop keeps the scope (see keepScopes): a loop
	// reuses its scope for the next iteration only when nothing can read it later.
	shared  bool
	nameBuf [4]string
	valBuf  [4]any
	_       [0]func() // not comparable: no equality function in the wasm
}

const smallScope = 16

// frame returns a new scope with the names that start missing.
func frame(missing []string) *scope {
	s := &scope{}
	s.reset(missing)
	return s
}

// reset empties s down to the names that start missing.
func (s *scope) reset(missing []string) {
	if s.names == nil {
		s.names, s.vals = s.nameBuf[:0], s.valBuf[:0]
	}
	clear(s.vals) // what the last iteration bound can be collected
	s.names, s.vals, s.index = s.names[:0], s.vals[:0], nil
	for _, n := range missing {
		s.set(n, missingVar{})
	}
}

func (s *scope) find(name string) int {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i
		}
		return -1
	}
	for i, n := range s.names {
		if n == name {
			return i
		}
	}
	return -1
}

// get returns the value name is bound to.
func (s *scope) get(name string) (any, bool) {
	if i := s.find(name); i >= 0 {
		return s.vals[i], true
	}
	return nil, false
}

// set binds name to v.
func (s *scope) set(name string, v any) {
	if i := s.find(name); i >= 0 {
		s.vals[i] = v
		return
	}
	s.names = append(s.names, name)
	s.vals = append(s.vals, v)
	switch {
	case s.index != nil:
		s.index[name] = len(s.names) - 1
	case len(s.names) > smallScope:
		s.index = make(map[string]int, 2*len(s.names))
		for i, n := range s.names {
			s.index[n] = i
		}
	}
}

// evalError is a failure while rendering, at a byte offset of the source.
type evalError struct {
	pos int
	msg string
	_   [0]func() // not comparable: no equality function in the wasm
}

type evaluator struct {
	src        string
	vars       *value.Object
	scopes     []*scope // innermost last; scopes[0] is the template's own
	chains     []*scope // the scope chains of the macro calls in progress, one on the other
	out        []byte   // the output; a capture appends to it after outBase, then takes its part out
	outBase    int      // where the output of the capture being rendered starts (outside one, of the render)
	spans      []Span
	wantSpans  bool // collect spans (RenderSpans)
	iterations int
	steps      int   // work done so far: see step
	stmtLine   int   // Jinja's line of the statement or {{ }} child being executed
	capturing  int   // > 0 while a macro, call, set or filter block renders into a capture
	joinErr    error // a value that is not a string was output: an error once the output is joined
	callDepth  int   // macro and recursive loop calls in progress
	nesting    int   // bodies being rendered, nested
}

func (ev *evaluator) fail(pos int, err error) *evalError {
	if pe, ok := err.(*pyError); ok {
		if p := pe.pos - 1; pe.pos > 0 && lineAt(ev.src, p) == ev.stmtLine {
			pos = p
		}
		return &evalError{pos: pos, msg: pe.msg}
	}
	if ee, ok := err.(*evalError); ok {
		return ee
	}
	return &evalError{pos: pos, msg: err.Error()}
}

func (e *evalError) Error() string { return e.msg }

// step charges n steps of work done by the construct at byte offset pos, and fails there once
// the render has done more than maxSteps (see the caps in template.go). An operation on text or
// lists is charged for what it reads and writes (work), so that a loop over large text is
// measured by what it touches.
func (ev *evaluator) step(pos, n int) error {
	ev.steps += n
	if ev.steps > maxSteps {
		return &evalError{pos: pos, msg: "the template does too much work: more than " + diag.Thousands(maxSteps) +
			" steps (each expression, loop iteration, list item and " + itoa(bytesPerStep) + " bytes of text handled costs some)"}
	}
	return nil
}

// work charges for an operation at pos that read or wrote the values vs (see size).
func (ev *evaluator) work(pos int, vs ...any) error {
	n := 0
	for _, v := range vs {
		n += size(v)
	}
	return ev.step(pos, n/bytesPerStep)
}

// size is what reading v costs at least, in bytes of text, found in constant time: a string's
// bytes, and stepsPerItem steps for each item of a list or a dict (not what the items hold).
func size(v any) int {
	switch t := v.(type) {
	case string:
		return len(t)
	case markup:
		return len(t)
	case []any:
		return len(t) * stepsPerItem * bytesPerStep
	case tuple:
		return len(t) * stepsPerItem * bytesPerStep
	case *value.Object:
		return t.Len() * stepsPerItem * bytesPerStep
	case *dictView:
		return t.obj.Len() * stepsPerItem * bytesPerStep
	}
	return 0
}

// deepSize is size counting all that v holds: what comparing it costs. Finding it costs about
// as much as the comparison, which it is charged with.
func deepSize(v any) int {
	switch t := v.(type) {
	case []any:
		n := size(t)
		for _, x := range t {
			n += deepSize(x)
		}
		return n
	case tuple:
		return deepSize([]any(t))
	case *value.Object:
		n := size(t)
		for _, k := range t.Keys() {
			x, _ := t.Get(k)
			n += len(k) + deepSize(x)
		}
		return n
	case *dictView:
		return deepSize(t.obj)
	}
	return size(v)
}

// write appends s to the output, failing at pos (the construct that wrote it) past maxOutput.
func (ev *evaluator) write(pos int, s string) error {
	if len(ev.out)-ev.outBase+len(s) > maxOutput {
		return &evalError{pos: pos, msg: "output is over the limit of " + diag.Thousands(maxOutput) + " bytes"}
	}
	ev.out = append(ev.out, s...)
	return nil
}

// beginCapture starts capturing what is written next (a macro's body, a set or filter block, a
// recursive loop call) at the end of the output; endCapture takes it out as a string, with
// beginCapture's result. Captures nest, each on the output after the one that holds it, so
// that none needs a buffer of its own.
func (ev *evaluator) beginCapture() (savedBase int) {
	savedBase = ev.outBase
	ev.outBase = len(ev.out)
	ev.capturing++
	return savedBase
}

func (ev *evaluator) endCapture(savedBase int) string {
	s := string(ev.out[ev.outBase:])
	ev.out = ev.out[:ev.outBase]
	ev.outBase = savedBase
	ev.capturing--
	return s
}

func (ev *evaluator) render(body []parse.Node) error {
	// Blocks nest at most maxDepth deep in the source, but macro calls and recursive loops
	// nest them again at run time: the depth they reach is capped so that the stack (the
	// browser's, in the wasm) stays small.
	ev.nesting++
	if ev.nesting > maxNesting {
		return &evalError{pos: -1, msg: "not supported: blocks nested deeper than " + itoa(maxNesting) + " levels when run (macro calls and recursive loops included)"}
	}
	for _, n := range body {
		if err := ev.exec(n); err != nil {
			ev.nesting--
			return err
		}
	}
	ev.nesting--
	return nil
}

func (ev *evaluator) exec(n parse.Node) error {
	if err := ev.step(nodePos(n), 1); err != nil {
		return err
	}
	switch t := n.(type) {
	case *parse.TextNode:
		return ev.write(-1, t.Text)
	case *parse.PrintNode:
		ev.stmtLine = t.X.Base().Line
		v, err := ev.eval(t.X)
		if err != nil {
			return err
		}
		s, err := pyStr(v)
		if err != nil {
			return ev.fail(t.X.Base().Pos, err)
		}
		if err := ev.work(t.X.Base().Pos, s); err != nil {
			return err
		}
		start := len(ev.out)
		if err := ev.write(t.X.Base().Pos, s); err != nil {
			return err
		}
		if ev.capturing == 0 && ev.wantSpans {
			// Outside captures, outBase is where the output starts (after AppendRender's dst).
			ev.spans = append(ev.spans, Span{Expr: t.Src, Input: t.Input, Start: start - ev.outBase, End: len(ev.out) - ev.outBase})
		}
		return nil
	case *parse.IfNode:
		for _, br := range t.Branches {
			ev.stmtLine = br.Line
			v, err := ev.eval(br.Cond)
			if err != nil {
				return err
			}
			ok, err := truthy(v)
			if err != nil {
				return ev.fail(br.Cond.Base().Pos, err)
			}
			if ok {
				return ev.render(br.Body)
			}
		}
		return ev.render(t.Else)
	case *parse.ForNode:
		return ev.execFor(t)
	case *parse.SetNode:
		ev.stmtLine = t.Line
		v, err := ev.eval(t.Val)
		if err != nil {
			return err
		}
		return ev.assign(t.Target, v, t.Pos)
	}
	return ev.execMore(n)
}

// assign binds a target in the innermost scope, unpacking tuples as Python does.
func (ev *evaluator) assign(t parse.Target, v any, pos int) error {
	scope := ev.scopes[len(ev.scopes)-1]
	if t.Attr != "" {
		ns, err := ev.lookup(t.Name, t.Pos)
		if err != nil {
			return ev.fail(t.Pos, err)
		}
		n, ok := ns.(*namespace)
		if !ok {
			return &evalError{pos: t.Pos, msg: "cannot assign attribute on non-namespace object"}
		}
		n.attrs.Set(t.Attr, v)
		return nil
	}
	return ev.bind(scope, t, v, pos)
}

func (ev *evaluator) bind(scope *scope, t parse.Target, v any, pos int) error {
	if t.Items == nil {
		scope.set(t.Name, v)
		return nil
	}
	items, err := iterate(v)
	if err != nil {
		if _, ok := err.(*pyError); ok && numKind(v) != 0 || v == nil {
			return ev.fail(pos, typeErr("cannot unpack non-iterable %s object", pyTypeName(v)))
		}
		return ev.fail(pos, err)
	}
	if len(items) > len(t.Items) {
		return ev.fail(pos, valueErr("too many values to unpack (expected %s)", len(t.Items)))
	}
	if len(items) < len(t.Items) {
		return ev.fail(pos, valueErr("not enough values to unpack (expected %s, got %s)", len(t.Items), len(items)))
	}
	for i, sub := range t.Items {
		if err := ev.bind(scope, sub, normalize(items[i]), pos); err != nil {
			return err
		}
	}
	return nil
}

func (ev *evaluator) execFor(t *parse.ForNode) error {
	ev.stmtLine = t.Line
	seq, err := ev.eval(t.Iter)
	if err != nil {
		return err
	}
	return ev.runLoop(t, seq, 0, t.Iter.Base().Pos)
}

// runLoop runs loop t over seq at recursion depth depth0 in the current scopes.
func (ev *evaluator) runLoop(t *parse.ForNode, seq any, depth0, pos int) error {
	if err := ev.work(pos, seq); err != nil {
		return err
	}
	if s, ok := seq.(string); ok && ev.iterations+utf8.RuneCountInString(s) > maxIterations {
		// Fail before making a list of millions of characters, not after.
		return &evalError{pos: t.Pos, msg: "more than " + diag.Thousands(maxIterations) + " loop iterations"}
	}
	if r, ok := seq.(rangeVal); ok && int64(ev.iterations)+r.len() > maxIterations {
		return &evalError{pos: t.Pos, msg: "more than " + diag.Thousands(maxIterations) + " loop iterations"}
	}
	items, err := iterate(seq)
	if err != nil {
		return ev.fail(pos, err)
	}
	if t.Test != nil {
		kept := make([]any, 0, len(items))
		sc := frame(nil)
		for _, it := range items {
			if sc.shared {
				sc = frame(nil)
			} else {
				sc.reset(nil)
			}
			ev.scopes = append(ev.scopes, sc)
			err := ev.bind(sc, t.Target, normalize(it), t.Pos)
			var v any
			if err == nil {
				ev.stmtLine = t.Test.Base().Line
				v, err = ev.eval(t.Test)
			}
			ev.scopes = ev.scopes[:len(ev.scopes)-1]
			if err != nil {
				return err
			}
			ok, err := truthy(v)
			if err != nil {
				return ev.fail(t.Test.Base().Pos, err)
			}
			if ok {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		ev.scopes = append(ev.scopes, frame(t.ElseMissing))
		err := ev.render(t.Else)
		ev.scopes = ev.scopes[:len(ev.scopes)-1]
		return err
	}
	loop := &loopCtx{items: items, state: loopState{node: t, depth0: depth0}}
	if t.Recursive {
		loop.state.outer = keepScopes(ev.scopes)
	}
	var sc *scope
	for i, it := range items {
		ev.iterations++
		if err := ev.step(t.Pos, stepsPerIteration); err != nil {
			return err
		}
		if ev.iterations > maxIterations {
			return &evalError{pos: t.Pos, msg: "more than " + diag.Thousands(maxIterations) + " loop iterations"}
		}
		if sc == nil || sc.shared {
			sc = frame(t.BodyMissing)
		} else {
			sc.reset(t.BodyMissing)
		}
		ev.scopes = append(ev.scopes, sc)
		ev.stmtLine = t.Line
		loop.index0 = i
		sc.set("loop", loop)
		err := ev.bind(sc, t.Target, normalize(it), t.Pos)
		if err == nil {
			err = ev.render(t.Body)
		}
		ev.scopes = ev.scopes[:len(ev.scopes)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// callLoop is loop(seq) in a recursive loop: the loop again over seq, one level deeper, in the
// scopes the loop started in; it returns what that prints.
func (ev *evaluator) callLoop(l *loopCtx, seq any) (any, error) {
	if ev.callDepth >= maxCallDepth {
		return nil, notSupported("recursive loop calls nested deeper than " + itoa(maxCallDepth) + " levels")
	}
	saved, savedLine := ev.scopes, ev.stmtLine
	ev.scopes = append([]*scope(nil), l.state.outer...)
	ev.callDepth++
	base := ev.beginCapture()
	ev.stmtLine = l.state.node.Line
	err := ev.runLoop(l.state.node, seq, l.state.depth0+1, l.state.node.Pos)
	out := ev.endCapture(base)
	ev.scopes = saved
	ev.callDepth--
	if err != nil {
		return nil, err
	}
	ev.stmtLine = savedLine
	return out, nil
}

func (ev *evaluator) lookup(name string, pos int) (any, error) {
	for i := len(ev.scopes) - 1; i >= 0; i-- {
		if v, ok := ev.scopes[i].get(name); ok {
			if _, miss := v.(missingVar); miss {
				return &undefined{msg: "'" + name + "' is undefined", pos: pos}, nil
			}
			if _, miss := v.(missingArg); miss {
				// Jinja passes its internal `missing` marker here.
				return nil, notSupported("a macro parameter's default reading a parameter not set yet")
			}
			return v, nil
		}
	}
	if v, ok := ev.vars.Get(name); ok {
		return normalize(v), nil
	}
	if inList(jinjaGlobals, name) {
		return builtinFunc(name), nil
	}
	return &undefined{msg: "'" + name + "' is undefined", pos: pos}, nil
}

func (ev *evaluator) eval(x parse.Expr) (any, error) {
	if err := ev.step(x.Base().Pos, 1); err != nil {
		return nil, err
	}
	switch t := x.(type) {
	case *parse.ConstExpr:
		return t.Val, nil
	case *parse.NameExpr:
		v, err := ev.lookup(t.Name, t.Pos)
		if err != nil {
			return nil, ev.fail(t.Pos, err)
		}
		return v, nil
	case *parse.GetattrExpr:
		obj, err := ev.eval(t.Obj)
		if err != nil {
			return nil, err
		}
		v, err := getattr(obj, t.Attr, t.Pos)
		if err != nil {
			return nil, ev.fail(t.Pos, err)
		}
		return v, nil
	case *parse.GetitemExpr:
		obj, err := ev.eval(t.Obj)
		if err != nil {
			return nil, err
		}
		if s, ok := t.Key.(*parse.SliceExpr); ok {
			return ev.sliceOf(obj, s)
		}
		key, err := ev.eval(t.Key)
		if err != nil {
			return nil, err
		}
		if err := ev.work(t.Pos, str(obj)); err != nil { // indexing a string walks its characters
			return nil, err
		}
		v, err := getitem(obj, key, t.Pos)
		if err != nil {
			return nil, ev.fail(t.Pos, err)
		}
		return v, nil
	case *parse.FilterExpr:
		v, err := ev.eval(t.Obj)
		if err != nil {
			return nil, err
		}
		return ev.callFilter(t, v)
	case *parse.TestExpr:
		v, err := ev.eval(t.Obj)
		if err != nil {
			return nil, err
		}
		return ev.callTest(t, v)
	case *parse.BinExpr:
		l, err := ev.eval(t.Left)
		if err != nil {
			return nil, err
		}
		r, err := ev.eval(t.Right)
		if err != nil {
			return nil, err
		}
		v, err := binaryOp(t.Op, l, r)
		if err != nil {
			return nil, ev.fail(t.Pos, err)
		}
		if err := ev.work(t.Pos, l, r, v); err != nil {
			return nil, err
		}
		return v, nil
	case *parse.UnaryExpr:
		v, err := ev.eval(t.X)
		if err != nil {
			return nil, err
		}
		r, err := unaryOp(t.Op, v)
		if err != nil {
			return nil, ev.fail(t.Pos, err)
		}
		return r, nil
	case *parse.ConcatExpr:
		var b strings.Builder
		for _, a := range t.Args {
			v, err := ev.eval(a)
			if err != nil {
				return nil, err
			}
			s, err := pyStr(v)
			if err != nil {
				return nil, ev.fail(a.Base().Pos, err)
			}
			if b.Len()+len(s) > maxOutput {
				return nil, ev.fail(t.Pos, tooLong())
			}
			b.WriteString(s)
		}
		if err := ev.step(t.Pos, b.Len()/bytesPerStep); err != nil {
			return nil, err
		}
		return b.String(), nil
	case *parse.CompareExpr:
		left, err := ev.eval(t.First)
		if err != nil {
			return nil, err
		}
		for _, op := range t.Ops {
			right, err := ev.eval(op.Val)
			if err != nil {
				return nil, err
			}
			if err := ev.step(t.Pos, (deepSize(left)+deepSize(right))/bytesPerStep); err != nil {
				return nil, err
			}
			var ok bool
			switch op.Op {
			case "in":
				ok, err = contains(right, left)
			case "notin":
				ok, err = contains(right, left)
				ok = !ok
			default:
				ok, err = compareOp(op.Op, left, right)
			}
			if err != nil {
				return nil, ev.fail(t.Pos, err)
			}
			if !ok {
				return false, nil
			}
			left = right
		}
		return true, nil
	case *parse.AndExpr, *parse.OrExpr:
		var l, r parse.Expr
		isAnd := false
		if a, ok := t.(*parse.AndExpr); ok {
			l, r, isAnd = a.Left, a.Right, true
		} else {
			o := t.(*parse.OrExpr)
			l, r = o.Left, o.Right
		}
		lv, err := ev.eval(l)
		if err != nil {
			return nil, err
		}
		b, err := truthy(lv)
		if err != nil {
			return nil, ev.fail(l.Base().Pos, err)
		}
		if b != isAnd {
			return lv, nil
		}
		return ev.eval(r)
	case *parse.NotExpr:
		v, err := ev.eval(t.X)
		if err != nil {
			return nil, err
		}
		b, err := truthy(v)
		if err != nil {
			return nil, ev.fail(t.Pos, err)
		}
		return !b, nil
	case *parse.ListExpr:
		out := make([]any, 0, len(t.Items))
		for _, it := range t.Items {
			v, err := ev.eval(it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return ev.evalMore(x)
}

// str is v when it is text, else "": what indexing v walks through.
func str(v any) any {
	switch v.(type) {
	case string, markup:
		return v
	}
	return nil
}

// The names of Jinja's globals and of the methods of Python's values: looking one up is "not
// supported" rather than undefined, which `is defined` would silently get wrong.
const (
	jinjaGlobals = " range dict lipsum cycler joiner namespace "
	dictMethods  = " clear copy fromkeys get items keys pop popitem setdefault update values "
	listMethods  = " append clear copy count extend index insert pop remove reverse sort "
	strMethods   = " capitalize casefold center count encode endswith expandtabs find format format_map index isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper zfill "
	intAttrs     = " as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag numerator real to_bytes fromhex hex is_integer "
)

// isDictMethod is inList(dictMethods, name), as a switch: it runs on every attribute of a dict
// read (p.title), where searching the list's text cost a sixth of rendering a template.
func isDictMethod(name string) bool {
	switch name {
	case "clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values":
		return true
	}
	return false
}

// inList reports whether name is one of the space-separated names of list.
func inList(list, name string) bool {
	return name != "" && !strings.Contains(name, " ") && strings.Contains(list, " "+name+" ")
}

func undefAttr(obj any, name string, pos int) *undefined {
	return &undefined{msg: "'" + objectTypeRepr(obj) + "' has no attribute '" + name + "'", pos: pos}
}

// getattr is Jinja's environment.getattr: the attribute, else the item of that name, else undefined.
func getattr(obj any, name string, pos int) (any, error) {
	if u, ok := obj.(*undefined); ok {
		return nil, undefErr(u)
	}
	if strings.HasPrefix(name, "__") {
		return nil, notSupported("dunder attributes such as " + name)
	}
	methods := ""
	switch t := obj.(type) {
	case *value.Object:
		methods = dictMethods
		if isDictMethod(name) {
			break
		}
		if v, ok := t.Get(name); ok {
			return normalize(v), nil
		}
	case []any:
		methods = listMethods
	case tuple:
		if v, ok := groupField(t, name); ok {
			return v, nil
		}
		methods = " count index "
	case rangeVal:
		switch name {
		case "start":
			return t.start, nil
		case "stop":
			return t.stop, nil
		case "step":
			return t.step, nil
		}
		methods = " count index "
	case string:
		methods = strMethods
	case markup:
		methods = strMethods + "escape unescape striptags "
	case bool, int64, *exact.Int, float64:
		methods = intAttrs
	case *loopCtx:
		if name == "cycle" || name == "changed" {
			return nil, notSupported("loop." + name + " other than called")
		}
		return t.attr(name, pos)
	case *macro:
		switch name {
		case "name":
			return t.def.Name, nil
		case "arguments":
			args := make(tuple, len(t.def.Params))
			for i, p := range t.def.Params {
				args[i] = p
			}
			return args, nil
		case "catch_kwargs":
			return t.def.CatchKwargs, nil
		case "catch_varargs":
			return t.def.CatchVarargs, nil
		case "caller":
			return t.def.UsesCaller, nil
		}
	case *namespace:
		if v, ok := t.attrs.Get(name); ok {
			return normalize(v), nil
		}
	}
	if inList(methods, name) {
		return nil, notSupported("the method or attribute " + name + " of a " + pyTypeName(obj))
	}
	return undefAttr(obj, name, pos), nil
}

func (l *loopCtx) attr(name string, pos int) (any, error) {
	n := int64(len(l.items))
	i := int64(l.index0)
	switch name {
	case "index":
		return i + 1, nil
	case "index0":
		return i, nil
	case "first":
		return i == 0, nil
	case "last":
		return i == n-1, nil
	case "length":
		return n, nil
	case "revindex":
		return n - i, nil
	case "revindex0":
		return n - i - 1, nil
	case "depth":
		return int64(l.state.depth0 + 1), nil
	case "depth0":
		return int64(l.state.depth0), nil
	case "previtem":
		if i == 0 {
			return &undefined{msg: "there is no previous item", pos: pos}, nil
		}
		return normalize(l.items[i-1]), nil
	case "nextitem":
		if i == n-1 {
			return &undefined{msg: "there is no next item", pos: pos}, nil
		}
		return normalize(l.items[i+1]), nil
	}
	return &undefined{msg: "'jinja2.runtime.LoopContext object' has no attribute '" + name + "'", pos: pos}, nil
}

// getitem is Jinja's environment.getitem: obj[key], else for a str key the attribute, else undefined.
func getitem(obj any, key any, pos int) (any, error) {
	if u, ok := obj.(*undefined); ok {
		return nil, undefErr(u)
	}
	if u, ok := key.(*undefined); ok {
		if _, isDict := obj.(*value.Object); isDict {
			return nil, undefErr(u) // hashing the key raises; indexing anything else is a TypeError Jinja turns into an undefined
		}
	}
	if m, ok := key.(markup); ok {
		key = string(m)
	}
	switch t := obj.(type) {
	case *value.Object:
		if k, ok := key.(string); ok {
			if v, ok := t.Get(k); ok {
				return normalize(v), nil
			}
		}
	case string, markup:
		if numKind(key) == 1 {
			if b := toBig(key); b.IsInt64() {
				if c, ok := runeAt(strOf(t), b.Int64()); ok {
					if _, isMarkup := t.(markup); isMarkup {
						return markup(c), nil
					}
					return c, nil
				}
			}
		}
	case []any, tuple, rangeVal:
		if numKind(key) == 1 {
			if r, ok := t.(rangeVal); ok {
				if i := toBig(key); i.IsInt64() && i.Int64() >= -r.len() && i.Int64() < r.len() {
					n := i.Int64()
					if n < 0 {
						n += r.len()
					}
					return r.start + n*r.step, nil
				}
				break
			}
			items, _ := iterate(t)
			b := toBig(key)
			if b.IsInt64() {
				i := b.Int64()
				if i < 0 {
					i += int64(len(items))
				}
				if i >= 0 && i < int64(len(items)) {
					v := normalize(items[i])
					if _, ok := t.(markup); ok {
						return markup(v.(string)), nil
					}
					return v, nil
				}
			}
		}
	case *loopCtx:
		if k, ok := key.(string); ok {
			return t.attr(k, pos)
		}
	}
	if k, ok := key.(string); ok {
		return getattr(obj, k, pos)
	}
	r, err := pyRepr(key)
	if err != nil {
		r = "?"
	}
	return &undefined{msg: objectTypeRepr(obj) + " has no element " + r, pos: pos}, nil
}

// nodePos is the byte offset of statement n in the source, or -1 for text.
func nodePos(n parse.Node) int {
	switch t := n.(type) {
	case *parse.PrintNode:
		return t.X.Base().Pos
	case *parse.ForNode:
		return t.Pos
	case *parse.IfNode:
		return t.Branches[0].Cond.Base().Pos
	case *parse.SetNode:
		return t.Pos
	}
	return -1
}

// runeAt is s[i] in Python: the i-th code point, counting from the end when i < 0; found without
// making the list of all of them.
func runeAt(s string, i int64) (string, bool) {
	if i < 0 {
		i += int64(utf8.RuneCountInString(s))
		if i < 0 {
			return "", false
		}
	}
	for _, r := range s {
		if i == 0 {
			return string(r), true
		}
		i--
	}
	return "", false
}
