package template

// Calling filters, tests and functions: Jinja compiles `x|f(a, b=1)` to a plain Python call
// f(x, a, b=1), so which argument lands in which parameter, and the TypeError when they do not
// fit, are Python's argument binding. bind is that binding, once, for every built-in.

import (
	"strings"

	"ragjudge/core/template/parse"
	"ragjudge/core/value"
)

// kwVal is one keyword argument of a call, evaluated; a call keeps them in source order.
type kwVal struct {
	name string
	val  any
	_    [0]func() // not comparable: no equality function in the wasm
}

// signature is the Python signature of a built-in as Jinja calls it.
//
// params are all of the function's positional-or-keyword parameters, in order, including the
// lead ones Jinja passes itself (environment, context or eval_ctx for the pass_* decorators, then
// the value being filtered or tested); Python counts those in its messages ("do_truncate() takes
// from 2 to 6 positional arguments but 7 were given") and names them ("got multiple values for
// argument 's'"). defaults are the values of the last len(defaults) params. varargs and varkw
// are *args and **kwargs. fn is the name Python's messages use (the function's __qualname__).
// builtin marks a C function taking positional arguments only (operator.eq and friends), which
// words its errors differently ("eq expected 2 arguments, got 1").
type signature struct {
	fn       string
	lead     int
	params   []string
	defaults []any
	varargs  bool
	varkw    bool
	builtin  bool
}

// bound is a call's arguments bound to a signature: args holds one value for each parameter after
// the lead ones (a default where the call passed none), rest the extra positional arguments
// (*args) and kw the extra keyword arguments (**kwargs), in source order.
type bound struct {
	args []any
	rest []any
	kw   []kwVal
	// ctx is the call's callCtx and buf holds args when they are few: one allocation for a
	// call of a filter or test, not four.
	ctx callCtx
	buf [4]any
}

// callCtx is what a built-in may need besides its arguments: the evaluator (to call another
// filter or test, or charge the work budget with ev.step/ev.work) and the call's source offset.
type callCtx struct {
	ev  *evaluator
	pos int
}

// bind binds positional and keyword arguments (after the lead parameters, which the caller
// fills) to s, raising Python's TypeError for arguments that do not fit, checked in CPython's
// order: keywords first (unknown, then repeated), then too many positional, then missing ones.
func (s *signature) bind(pos []any, kw []kwVal) (*bound, error) {
	n := len(s.params)
	given := s.lead + len(pos)
	firstDefault := n - len(s.defaults)
	who := s.fn + "() "
	if s.builtin && (len(kw) > 0 || given > n || given < firstDefault) {
		return nil, typeErr(who+"takes %s positional arguments and no keyword arguments (%s given)", n, given+len(kw))
	}
	b := &bound{}
	if k := n - s.lead; k <= len(b.buf) {
		b.args = b.buf[:k]
	} else {
		b.args = make([]any, k)
	}
	// set has bit i for each parameter i given a value (no signature has 64 parameters).
	var set uint64
	for i := 0; i < n; i++ {
		if i < given || i < s.lead {
			set |= 1 << i
		}
		if i >= s.lead && i < given {
			b.args[i-s.lead] = pos[i-s.lead]
		}
	}
	if given > n {
		b.rest = pos[n-s.lead:]
	}
	for _, k := range kw {
		i := indexOf(s.params, k.name)
		msg := ""
		switch {
		case i < 0 && s.varkw:
			b.kw = append(b.kw, k)
			continue
		case i < 0:
			msg = "got an unexpected keyword argument '"
		case set&(1<<i) != 0:
			msg = "got multiple values for argument '"
		default:
			b.args[i-s.lead] = k.val
			set |= 1 << i
			continue
		}
		return nil, typeErr(who + msg + k.name + "'")
	}
	if given > n && !s.varargs {
		what := itoa(n)
		if len(s.defaults) > 0 {
			what = "from " + itoa(firstDefault) + " to " + what
		}
		return nil, typeErr(who+"takes %s positional argument%s but %s %s given", what, plural(n+len(s.defaults)), given, pick(given == 1, "was", "were"))
	}
	var missing []string
	for i := s.lead; i < n; i++ {
		switch {
		case set&(1<<i) != 0:
		case i < firstDefault:
			missing = append(missing, "'"+s.params[i]+"'")
		default:
			b.args[i-s.lead] = s.defaults[i-firstDefault]
		}
	}
	if len(missing) > 0 {
		return nil, typeErr(who+"missing %s required positional argument%s: %s", len(missing), plural(len(missing)), pyNameList(missing))
	}
	return b, nil
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// pyNameList joins names as CPython's missing-argument message does: 'a', 'a' and 'b',
// 'a', 'b', and 'c'.
func pyNameList(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// evalArgs evaluates a call's arguments, positional then keyword, in source order (Jinja
// compiles them into one Python call, which evaluates them in that order).
func (ev *evaluator) evalArgs(args []parse.Expr, kwargs []parse.KwArg) ([]any, []kwVal, error) {
	pos := make([]any, 0, len(args))
	for _, a := range args {
		v, err := ev.eval(a)
		if err != nil {
			return nil, nil, err
		}
		pos = append(pos, v)
	}
	var kw []kwVal
	for _, k := range kwargs {
		v, err := ev.eval(k.Value)
		if err != nil {
			return nil, nil, err
		}
		switch k.Name {
		case "*":
			items, err := iterate(v)
			if err != nil {
				return nil, nil, ev.fail(k.Pos, err)
			}
			pos = append(pos, items...)
		case "**":
			d, ok := v.(*value.Object)
			if !ok {
				if u, isUndef := v.(*undefined); isUndef {
					return nil, nil, ev.fail(k.Pos, undefErr(u))
				}
				return nil, nil, ev.fail(k.Pos, typeErr("argument after ** must be a mapping, not %s", pyTypeName(v)))
			}
			for _, name := range d.Keys() {
				x, _ := d.Get(name)
				for _, have := range kw {
					if have.name == name {
						return nil, nil, ev.fail(k.Pos, typeErr("got multiple values for keyword argument '%s'", name))
					}
				}
				kw = append(kw, kwVal{name: name, val: normalize(x)})
			}
		default:
			kw = append(kw, kwVal{name: k.Name, val: v})
		}
	}
	return pos, kw, nil
}

// callFilter evaluates a filter's arguments and applies it to v.
func (ev *evaluator) callFilter(f *parse.FilterExpr, v any) (any, error) {
	def, _ := f.Def.(*filterDef)
	if def == nil {
		return nil, &evalError{pos: f.Pos, msg: "unknown filter " + quote(f.Name)}
	}
	return ev.callBuiltin(def, f.Pos, v, f.Args, f.Kwargs)
}

// callTest evaluates a test's arguments and applies it to v.
func (ev *evaluator) callTest(t *parse.TestExpr, v any) (any, error) {
	def, _ := t.Def.(*filterDef)
	if def == nil {
		// Only in an if statement, where Jinja defers the check to when the test runs.
		return nil, &evalError{pos: t.Pos, msg: "unknown test " + quote(t.Name)}
	}
	return ev.callBuiltin(def, t.Pos, v, t.Args, t.Kwargs)
}

func (ev *evaluator) callBuiltin(def *filterDef, pos int, v any, args []parse.Expr, kwargs []parse.KwArg) (any, error) {
	pv, kv, err := ev.evalArgs(args, kwargs)
	if err != nil {
		return nil, err
	}
	b, err := def.sig.bind(pv, kv)
	if err != nil {
		return nil, ev.fail(pos, err)
	}
	b.ctx = callCtx{ev: ev, pos: pos}
	out, err := def.fn(&b.ctx, v, b)
	if err != nil {
		return nil, ev.fail(pos, err)
	}
	if err := ev.work(pos, v, out); err != nil {
		return nil, err
	}
	return out, nil
}
