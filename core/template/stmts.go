package template

// The statements beyond if, for and set (macros and call blocks, with, filter and set blocks),
// and the expressions that go with them (tuples, dicts, inline if, slices, calls).

import (
	"strings"

	"ragjudge/core/template/parse"
	"ragjudge/core/value"
)

// maxCallDepth caps nested macro calls and recursive loop calls: a recursion that does not end
// fails here rather than growing the stack (Python's own limit stops Jinja a little later).
const maxCallDepth = 100

// maxNesting caps the bodies being rendered inside each other at run time (see render).
const maxNesting = 400

// macro is a macro value: its definition and the scopes it was defined in, read when it runs
// (Python closures bind late).
type macro struct {
	def    *parse.MacroNode
	scopes []*scope
}

// missingArg marks a macro parameter the call did not pass.
type missingArg struct{}

// namespace is what namespace() returns: attributes that {% set ns.x = … %} can assign.
type namespace struct {
	attrs *value.Object
}

// builtinFunc is one of Jinja's global functions (range, dict and namespace are supported).
type builtinFunc string

// rangeVal is what range() returns: a lazy sequence, printed as range(start, stop[, step]).
// The default environment's range is Python's own (only the sandbox caps it at 100000 items):
// a large one costs nothing until something lists its items, which the caps then stop.
type rangeVal struct {
	start, stop, step int64
}

func (r rangeVal) len() int64 {
	if r.step > 0 && r.start < r.stop {
		return (r.stop - r.start + r.step - 1) / r.step
	}
	if r.step < 0 && r.start > r.stop {
		return (r.start - r.stop - r.step - 1) / -r.step
	}
	return 0
}

func (r rangeVal) items() []any {
	n := r.len()
	out := make([]any, n)
	for i := int64(0); i < n; i++ {
		out[i] = r.start + i*r.step
	}
	return out
}

// keepScopes returns a copy of the scope chain for a macro or a recursive loop to run in later,
// marking each scope shared: it may be read after the frame that made it is done, so a loop
// does not reuse it for its next iteration.
func keepScopes(s []*scope) []*scope {
	for _, sc := range s {
		sc.shared = true
	}
	return append([]*scope(nil), s...)
}

// capture renders body with the output going to a buffer of its own, and returns what it wrote.
func (ev *evaluator) capture(body []parse.Node) (string, error) {
	base := ev.beginCapture()
	savedJoin := ev.joinErr
	ev.joinErr = nil
	err := ev.render(body)
	if err == nil {
		err = ev.joinErr
	}
	ev.joinErr = savedJoin
	s := ev.endCapture(base)
	if err != nil {
		return "", err
	}
	return s, nil
}

// captureFrame is capture in a new scope that starts with missing names.
func (ev *evaluator) captureFrame(missing []string, body []parse.Node) (string, error) {
	ev.scopes = append(ev.scopes, frame(missing))
	s, err := ev.capture(body)
	ev.scopes = ev.scopes[:len(ev.scopes)-1]
	return s, err
}

// execMore executes the statements of this file.
func (ev *evaluator) execMore(n parse.Node) error {
	switch t := n.(type) {
	case *parse.MacroNode:
		ev.scopes[len(ev.scopes)-1].set(t.Name, &macro{def: t, scopes: keepScopes(ev.scopes)})
	case *parse.CallBlockNode:
		ev.stmtLine = t.Line
		caller := &macro{def: t.Caller, scopes: keepScopes(ev.scopes)}
		v, err := ev.callWith(t.Call, &kwVal{name: "caller", val: caller})
		if err != nil {
			return err
		}
		return ev.writeValue(t.Call.Pos, v)
	case *parse.WithNode:
		// No ev.stmtLine: Jinja marks no line for a with's assignments, so an error there
		// is reported at the line of the statement before.
		scope := frame(t.Missing)
		for i, tg := range t.Targets {
			v, err := ev.eval(t.Vals[i])
			if err != nil {
				return err
			}
			if err := ev.bind(scope, tg, v, t.Pos); err != nil {
				return err
			}
		}
		ev.scopes = append(ev.scopes, scope)
		err := ev.render(t.Body)
		ev.scopes = ev.scopes[:len(ev.scopes)-1]
		return err
	case *parse.FilterBlockNode:
		s, err := ev.captureFrame(t.Missing, t.Body)
		if err != nil {
			return err
		}
		ev.stmtLine = t.Line
		v, err := ev.applyFilters(t.Filter, s)
		if err != nil {
			return err
		}
		return ev.writeValue(t.Filter.Base().Pos, v)
	case *parse.SetBlockNode:
		s, err := ev.captureFrame(t.Missing, t.Body)
		if err != nil {
			return err
		}
		ev.stmtLine = t.Line
		var v any = s
		if t.Filter != nil {
			if v, err = ev.applyFilters(t.Filter, s); err != nil {
				return err
			}
		}
		return ev.assign(t.Target, v, t.Pos)
	}
	return nil
}

// writeValue writes what a call block or filter block yields: Jinja joins it into the output
// as it is, which only a string survives.
func (ev *evaluator) writeValue(pos int, v any) error {
	s, ok := v.(string)
	if m, isMarkup := v.(markup); isMarkup {
		s, ok = string(m), true
	}
	if !ok {
		// Jinja yields the value into the output as it is; joining the output fails only when
		// the enclosing template, macro or block is done.
		if ev.joinErr == nil {
			ev.joinErr = ev.fail(pos, typeErr("sequence item 0: expected str instance, %s found", pyTypeName(v)))
		}
		return nil
	}
	if err := ev.work(pos, s); err != nil {
		return err
	}
	return ev.write(pos, s)
}

// applyFilters applies a chain of filters whose innermost obj is nil to v.
func (ev *evaluator) applyFilters(x parse.Expr, v any) (any, error) {
	if x == nil {
		return v, nil
	}
	f := x.(*parse.FilterExpr)
	inner, err := ev.applyFilters(f.Obj, v)
	if err != nil {
		return nil, err
	}
	return ev.callFilter(f, inner)
}

// evalMore evaluates the expressions of this file.
func (ev *evaluator) evalMore(x parse.Expr) (any, error) {
	switch t := x.(type) {
	case *parse.TupleExpr:
		out := make(tuple, 0, len(t.Items))
		for _, it := range t.Items {
			v, err := ev.eval(it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *parse.DictExpr:
		d := &value.Object{}
		for i := range t.Keys {
			k, err := ev.eval(t.Keys[i])
			if err != nil {
				return nil, err
			}
			v, err := ev.eval(t.Vals[i])
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if m, isMarkup := k.(markup); isMarkup {
				ks, ok = string(m), true
			}
			if !ok {
				return nil, ev.fail(t.Keys[i].Base().Pos, notSupported("dict keys that are not strings"))
			}
			d.Set(ks, v)
		}
		return d, nil
	case *parse.CondExpr:
		c, err := ev.eval(t.Test)
		if err != nil {
			return nil, err
		}
		ok, err := truthy(c)
		if err != nil {
			return nil, ev.fail(t.Test.Base().Pos, err)
		}
		if ok {
			return ev.eval(t.Then)
		}
		if t.Else == nil {
			return &undefined{lenient: true, msg: "the inline if-expression on line " + itoa(t.Line) + " evaluated to false and no else section was defined.", pos: t.Pos}, nil
		}
		return ev.eval(t.Else)
	case *parse.CallExpr:
		return ev.callWith(t, nil)
	}
	return nil, &evalError{pos: x.Base().Pos, msg: "internal: unknown expression"}
}

// sliceOf evaluates obj[start:stop:step] for a str, list or tuple.
func (ev *evaluator) sliceOf(obj any, s *parse.SliceExpr) (any, error) {
	var parts [3]any
	var idx [3]int64
	bad := false
	for i, p := range [3]parse.Expr{s.Start, s.Stop, s.Step} {
		if p == nil {
			continue
		}
		v, err := ev.eval(p)
		if err != nil {
			return nil, err
		}
		parts[i] = v
		if u, ok := v.(*undefined); ok {
			return nil, ev.fail(s.Pos, undefErr(u))
		}
		if numKind(v) != 1 {
			bad = bad || v != nil
			continue
		}
		// Beyond ±2**62 a bound is as good as infinite.
		b := toBig(v)
		switch {
		case b.IsInt64():
			idx[i] = max(-1<<62, min(1<<62, b.Int64()))
		case b.Sign() < 0:
			idx[i] = -1 << 62
		default:
			idx[i] = 1 << 62
		}
	}
	if u, ok := obj.(*undefined); ok {
		return nil, ev.fail(s.Pos, undefErr(u))
	}
	var items []any
	switch t := obj.(type) {
	case string, markup:
		items = runesOf(strOf(t))
	case []any:
		items = t
	case tuple:
		items = t
	case rangeVal:
		return nil, ev.fail(s.Pos, notSupported("slicing a range"))
	}
	// Jinja compiles a slice to Python's own obj[a:b:c], not to its getitem: a bad slice raises.
	switch {
	case items == nil && obj != nil && pyTypeName(obj) == "dict":
		return nil, ev.fail(s.Pos, typeErr("unhashable type: 'slice'"))
	case items == nil:
		return nil, ev.fail(s.Pos, typeErr("'%s' object is not subscriptable", pyTypeName(obj)))
	case bad:
		return nil, ev.fail(s.Pos, typeErr("slice indices must be integers or None or have an __index__ method"))
	}
	n, step := int64(len(items)), int64(1)
	if parts[2] != nil {
		if step = idx[2]; step == 0 {
			return nil, ev.fail(s.Pos, valueErr("slice step cannot be zero"))
		}
	}
	// slice.indices: a bound is clamped to [lo, hi]; a missing one is the end the step starts
	// or stops at.
	lo, hi := int64(0), n
	if step < 0 {
		lo, hi = -1, n-1
	}
	bounds := [2]int64{lo, hi}
	if step < 0 {
		bounds = [2]int64{hi, lo}
	}
	for i, p := range parts[:2] {
		if p != nil {
			v := idx[i]
			if v < 0 {
				v += n
			}
			bounds[i] = max(lo, min(hi, v))
		}
	}
	out := []any{}
	for i := bounds[0]; (step > 0 && i < bounds[1]) || (step < 0 && i > bounds[1]); i += step {
		out = append(out, items[i])
	}
	if err := ev.step(s.Pos, len(out)*stepsPerItem); err != nil {
		return nil, err
	}
	switch obj.(type) {
	case string, markup:
		var b strings.Builder
		for _, r := range out {
			b.WriteString(r.(string))
		}
		if _, ok := obj.(markup); ok {
			return markup(b.String()), nil
		}
		return b.String(), nil
	case tuple:
		return tuple(out), nil
	}
	return out, nil
}

// callWith evaluates a call, with an extra keyword argument (the caller of a call block).
func (ev *evaluator) callWith(c *parse.CallExpr, extra *kwVal) (any, error) {
	var obj any
	method := ""
	if g, ok := c.Fn.(*parse.GetattrExpr); ok {
		o, err := ev.eval(g.Obj)
		if err != nil {
			return nil, err
		}
		obj, method = o, g.Attr
	}
	var fn any
	if method == "" {
		v, err := ev.eval(c.Fn)
		if err != nil {
			return nil, err
		}
		fn = v
	}
	args, kw, err := ev.evalArgs(c.Args, c.Kwargs)
	if err != nil {
		return nil, err
	}
	if extra != nil {
		kw = append(kw, *extra)
	}
	if method != "" {
		v, handled, err := ev.callMethod(c.Pos, obj, method, args, kw)
		if handled || err != nil {
			if err != nil {
				return nil, ev.fail(c.Pos, err)
			}
			return v, nil
		}
		fn, err = getattr(obj, method, c.Fn.Base().Pos)
		if err != nil {
			return nil, ev.fail(c.Fn.Base().Pos, err)
		}
	}
	v, err := ev.callValue(c.Pos, fn, args, kw)
	if err != nil {
		return nil, ev.fail(c.Pos, err)
	}
	return v, nil
}

// callValue calls fn, a value, as Jinja's context.call does.
func (ev *evaluator) callValue(pos int, fn any, args []any, kw []kwVal) (any, error) {
	switch f := fn.(type) {
	case *macro:
		return ev.callMacro(pos, f, args, kw)
	case builtinFunc:
		return ev.callGlobal(string(f), args, kw)
	case *loopCtx:
		if !f.state.node.Recursive {
			return nil, typeErr("'LoopContext' object is not callable")
		}
		if len(kw) > 0 || len(args) != 1 {
			return nil, typeErr("LoopContext.__call__() takes 2 positional arguments but %s were given", len(args)+1)
		}
		return ev.callLoop(f, args[0])
	case *undefined:
		return nil, undefErr(f)
	}
	return nil, typeErr("'%s' object is not callable", pyTypeName(fn))
}

// takeKw removes keyword argument name from kw.
func takeKw(kw []kwVal, name string) ([]kwVal, any, bool) {
	for i, k := range kw {
		if k.name == name {
			return append(kw[:i:i], kw[i+1:]...), k.val, true
		}
	}
	return kw, nil, false
}

// callMacro binds a call's arguments to a macro's parameters as Jinja's Macro.__call__ does
// and renders its body.
func (ev *evaluator) callMacro(pos int, m *macro, args []any, kw []kwVal) (any, error) {
	d := m.def
	n := len(d.Params)
	if ev.callDepth >= maxCallDepth {
		return nil, notSupported("macro calls nested deeper than " + itoa(maxCallDepth) + " levels")
	}
	if err := ev.step(pos, stepsPerCall); err != nil {
		return nil, err
	}
	sc := frame(d.Missing)
	foundCaller := d.ExplicitCall && len(args) >= n
	for i, name := range d.Params {
		if i < len(args) {
			sc.set(name, args[i])
			continue
		}
		var v any
		var ok bool
		kw, v, ok = takeKw(kw, name)
		if !ok {
			v = missingArg{}
		}
		sc.set(name, v)
		foundCaller = foundCaller || name == "caller"
	}
	if d.UsesCaller && !foundCaller {
		var v any
		kw, v, _ = takeKw(kw, "caller")
		if v == nil {
			v = &undefined{msg: "No caller defined", pos: pos}
		}
		sc.set("caller", v)
	}
	if d.CatchKwargs {
		kwargs := &value.Object{}
		for _, k := range kw {
			kwargs.Set(k.name, k.val)
		}
		sc.set("kwargs", kwargs)
	} else if len(kw) > 0 {
		if _, _, ok := takeKw(kw, "caller"); ok {
			return nil, typeErr("macro '%s' was invoked with two values for the special caller argument. This is most likely a bug.", d.Name)
		}
		return nil, typeErr("macro '%s' takes no keyword argument '%s'", d.Name, kw[0].name)
	}
	if d.CatchVarargs {
		sc.set("varargs", tuple{})
		if len(args) > n {
			sc.set("varargs", append(tuple{}, args[n:]...))
		}
	} else if len(args) > n {
		return nil, typeErr("macro '%s' takes not more than %s argument(s)", d.Name, n)
	}
	// The macro runs in the scopes it was defined in and its own, put on top of ev.chains (a
	// stack that calls reuse) rather than in a slice of their own.
	saved, savedLine, base := ev.scopes, ev.stmtLine, len(ev.chains)
	ev.chains = append(append(ev.chains, m.scopes...), sc)
	ev.scopes = ev.chains[base:len(ev.chains):len(ev.chains)]
	ev.callDepth++
	out, err := ev.macroBody(d, sc, pos)
	ev.scopes, ev.chains = saved, ev.chains[:base]
	ev.callDepth--
	if err != nil {
		return nil, err
	}
	ev.stmtLine = savedLine
	return out, nil
}

// macroBody sets the parameters a call did not pass (to their defaults, evaluated in the
// macro's sc in order, else to an undefined) and renders the body.
func (ev *evaluator) macroBody(d *parse.MacroNode, sc *scope, pos int) (string, error) {
	firstDefault := len(d.Params) - len(d.Defaults)
	for i, name := range d.Params {
		if v, _ := sc.get(name); v != (missingArg{}) {
			continue // given
		}
		if i < firstDefault {
			sc.set(name, &undefined{msg: "parameter '" + name + "' was not provided", pos: pos})
			continue
		}
		ev.stmtLine = d.Line
		v, err := ev.eval(d.Defaults[i-firstDefault])
		if err != nil {
			return "", err
		}
		sc.set(name, v)
	}
	return ev.capture(d.Body)
}

// callGlobal calls one of Jinja's global functions.
func (ev *evaluator) callGlobal(name string, args []any, kw []kwVal) (any, error) {
	switch name {
	case "range":
		if len(kw) > 0 {
			return nil, typeErr("range() takes no keyword arguments")
		}
		return makeRange(args)
	case "dict", "namespace":
		d, err := dictOf(name, args, kw)
		if err != nil {
			return nil, err
		}
		if name == "namespace" {
			return &namespace{attrs: d}, nil
		}
		return d, nil
	}
	return nil, notSupported("the global " + name + "()")
}

func makeRange(args []any) (any, error) {
	if len(args) == 0 || len(args) > 3 {
		if len(args) == 0 {
			return nil, typeErr("range expected at least 1 argument, got 0")
		}
		return nil, typeErr("range expected at most 3 arguments, got %s", len(args))
	}
	var n [3]int64
	n[2] = 1
	for i, a := range args {
		if numKind(a) != 1 {
			if u, ok := a.(*undefined); ok {
				return nil, undefErr(u)
			}
			return nil, typeErr("'%s' object cannot be interpreted as an integer", pyTypeName(a))
		}
		b := toBig(a)
		if !b.IsInt64() || b.Int64() > 1<<53 || b.Int64() < -(1<<53) {
			return nil, notSupported("range bounds beyond 2**53")
		}
		n[i] = b.Int64()
	}
	r := rangeVal{0, n[0], 1}
	if len(args) > 1 {
		r = rangeVal{n[0], n[1], n[2]}
	}
	if r.step == 0 {
		return nil, valueErr("range() arg 3 must not be zero")
	}
	return r, nil
}

// dictOf is dict(*args, **kw) for a mapping (or nothing) and keywords.
func dictOf(name string, args []any, kw []kwVal) (*value.Object, error) {
	d := &value.Object{}
	if len(args) > 1 {
		return nil, typeErr("dict expected at most 1 argument, got %s", len(args))
	}
	if len(args) == 1 {
		src, ok := args[0].(*value.Object)
		if !ok {
			if u, isUndef := args[0].(*undefined); isUndef {
				return nil, undefErr(u)
			}
			return nil, notSupported(name + "() of a " + pyTypeName(args[0]))
		}
		for _, k := range src.Keys() {
			v, _ := src.Get(k)
			d.Set(k, v)
		}
	}
	for _, k := range kw {
		d.Set(k.name, k.val)
	}
	return d, nil
}

// callMethod calls the methods of Python's values that templates use; handled is false for a
// name it does not know, which the caller then looks up as an attribute.
func (ev *evaluator) callMethod(pos int, obj any, name string, args []any, kw []kwVal) (any, bool, error) {
	if u, ok := obj.(*undefined); ok {
		return nil, true, undefErr(u)
	}
	switch o := obj.(type) {
	case *value.Object:
		switch name {
		case "items", "keys", "values":
			if len(args)+len(kw) > 0 {
				return nil, true, typeErr("dict.%s() takes no arguments (%s given)", name, len(args)+len(kw))
			}
			return &dictView{obj: o, kind: name}, true, nil
		case "get":
			if len(kw) > 0 {
				return nil, true, typeErr("dict.get() takes no keyword arguments")
			}
			if len(args) < 1 || len(args) > 2 {
				return nil, true, typeErr("get expected at least 1 argument, got %s", len(args))
			}
			var dflt any
			if len(args) == 2 {
				dflt = args[1]
			}
			switch k := args[0].(type) {
			case string, markup:
				if v, ok := o.Get(strOf(k)); ok {
					return normalize(v), true, nil
				}
			case []any, *value.Object:
				return nil, true, typeErr("unhashable type: '%s'", pyTypeName(k))
			case *undefined:
				return nil, true, undefErr(k)
			}
			return dflt, true, nil
		}
		if _, ok := o.Get(name); ok {
			return nil, false, nil
		}
	case string:
		return strMethod(o, name, args, kw)
	case *loopCtx:
		switch name {
		case "cycle":
			if len(kw) > 0 {
				return nil, true, typeErr("LoopContext.cycle() got an unexpected keyword argument '%s'", kw[0].name)
			}
			if len(args) == 0 {
				return nil, true, typeErr("no items for cycling given")
			}
			return args[o.index0%len(args)], true, nil
		case "changed":
			if len(kw) > 0 {
				return nil, true, typeErr("LoopContext.changed() got an unexpected keyword argument '%s'", kw[0].name)
			}
			cur := tuple(args)
			if o.state.changedSet {
				eq, err := pyEqual(o.state.lastChanged, cur)
				if err != nil {
					return nil, true, err
				}
				if eq {
					return false, true, nil
				}
			}
			o.state.changedSet, o.state.lastChanged = true, cur
			return true, true, nil
		}
	}
	return nil, false, nil
}

// strMethod calls the str methods templates use most (upper, lower, strip without arguments,
// join); the others are not supported (each would cost the wasm its own code).
func strMethod(s, name string, args []any, kw []kwVal) (any, bool, error) {
	var out string
	switch name {
	case "upper":
		out = pyUpper(s)
	case "lower":
		out = pyLower(s)
	case "strip":
		out = pyStrip(s, nil, true, true)
	case "join":
		if len(args) != 1 || len(kw) > 0 {
			return nil, true, typeErr("str.join() takes exactly one argument (%s given)", len(args)+len(kw))
		}
		items, err := iterate(args[0])
		var b strings.Builder
		for i, it := range items {
			p, ok := normalize(it).(string)
			if !ok {
				return nil, true, typeErr("sequence item %s: expected str instance, %s found", i, pyTypeName(normalize(it)))
			}
			if i > 0 {
				b.WriteString(s)
			}
			if b.Len()+len(p) > maxOutput {
				return nil, true, tooLong()
			}
			b.WriteString(p)
		}
		return b.String(), true, err
	default:
		if inList(strMethods, name) {
			return nil, true, notSupported("the str method " + name + "()")
		}
		return nil, false, nil
	}
	if len(args)+len(kw) > 0 {
		return nil, true, notSupported("arguments to str." + name + "()")
	}
	return out, true, nil
}
