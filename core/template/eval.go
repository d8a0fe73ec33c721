package template

// The Jinja evaluator: walks the syntax tree with Jinja's scoping (a for loop's body gets a fresh
// scope each iteration; if does not open one) and Python's semantics for every operation.

import (
	"math/big"
	"strings"

	"ragjudge/core/value"
)

// loopCtx is the `loop` variable of a for loop.
type loopCtx struct {
	index0 int
	items  []any
}

// missingVar marks a name a frame assigns later and must not read before (see scope.go).
type missingVar struct{}

// frame returns a new scope with the names that start missing.
func frame(missing []string) map[string]any {
	m := make(map[string]any, len(missing)+2)
	for _, n := range missing {
		m[n] = missingVar{}
	}
	return m
}

// evalError is a failure while rendering, at a byte offset of the source.
type evalError struct {
	pos int
	msg string
}

type evaluator struct {
	src        string
	vars       *value.Object
	scopes     []map[string]any // innermost last; scopes[0] is the template's own
	out        *strings.Builder
	spans      []Span
	record     bool // record spans (off while capturing a {% set %} block)
	iterations int
	stmtLine   int // Jinja's line of the statement or {{ }} child being executed
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

func (ev *evaluator) write(s string) error {
	if ev.out.Len()+len(s) > maxOutput {
		return &evalError{pos: -1, msg: "output is over the limit of " + itoa(maxOutput) + " bytes"}
	}
	ev.out.WriteString(s)
	return nil
}

func (ev *evaluator) render(body []node) error {
	for _, n := range body {
		if err := ev.exec(n); err != nil {
			return err
		}
	}
	return nil
}

func (ev *evaluator) exec(n node) error {
	switch t := n.(type) {
	case *textNode:
		return ev.write(t.text)
	case *printNode:
		ev.stmtLine = t.x.base().line
		v, err := ev.eval(t.x)
		if err != nil {
			return err
		}
		s, err := pyStr(v)
		if err != nil {
			return ev.fail(t.x.base().pos, err)
		}
		start := ev.out.Len()
		if err := ev.write(s); err != nil {
			return err
		}
		if ev.record {
			ev.spans = append(ev.spans, Span{Expr: t.src, Start: start, End: ev.out.Len()})
		}
		return nil
	case *ifNode:
		for _, br := range t.branches {
			ev.stmtLine = br.line
			v, err := ev.eval(br.cond)
			if err != nil {
				return err
			}
			ok, err := truthy(v)
			if err != nil {
				return ev.fail(br.cond.base().pos, err)
			}
			if ok {
				return ev.render(br.body)
			}
		}
		return ev.render(t.els)
	case *forNode:
		return ev.execFor(t)
	case *setNode:
		ev.stmtLine = t.line
		v, err := ev.eval(t.val)
		if err != nil {
			return err
		}
		return ev.assign(t.target, v, t.pos)
	case *setBlockNode:
		saved, savedRec := ev.out, ev.record
		var buf strings.Builder
		ev.out, ev.record = &buf, false
		ev.scopes = append(ev.scopes, frame(t.bodyMissing))
		err := ev.render(t.body)
		ev.scopes = ev.scopes[:len(ev.scopes)-1]
		ev.out, ev.record = saved, savedRec
		if err != nil {
			return err
		}
		ev.stmtLine = t.line
		var v any = buf.String()
		if t.filter != nil {
			v, err = ev.applyFilterChain(t.filter, v)
			if err != nil {
				return err
			}
		}
		return ev.assign(t.target, v, t.pos)
	}
	return nil
}

func (ev *evaluator) applyFilterChain(x expr, v any) (any, error) {
	f := x.(*filterExpr)
	if f.obj != nil {
		var err error
		v, err = ev.applyFilterChain(f.obj, v)
		if err != nil {
			return nil, err
		}
	}
	return ev.callFilter(f, v)
}

// assign binds a target in the innermost scope, unpacking tuples as Python does.
func (ev *evaluator) assign(t target, v any, pos int) error {
	scope := ev.scopes[len(ev.scopes)-1]
	return ev.bind(scope, t, v, pos)
}

func (ev *evaluator) bind(scope map[string]any, t target, v any, pos int) error {
	if t.items == nil {
		scope[t.name] = v
		return nil
	}
	items, err := iterate(v)
	if err != nil {
		if _, ok := err.(*pyError); ok && numKind(v) != 0 || v == nil {
			return ev.fail(pos, typeErr("cannot unpack non-iterable %s object", pyTypeName(v)))
		}
		return ev.fail(pos, err)
	}
	if len(items) > len(t.items) {
		return ev.fail(pos, valueErr("too many values to unpack (expected %s)", len(t.items)))
	}
	if len(items) < len(t.items) {
		return ev.fail(pos, valueErr("not enough values to unpack (expected %s, got %s)", len(t.items), len(items)))
	}
	for i, sub := range t.items {
		if err := ev.bind(scope, sub, normalize(items[i]), pos); err != nil {
			return err
		}
	}
	return nil
}

func (ev *evaluator) execFor(t *forNode) error {
	ev.stmtLine = t.line
	seq, err := ev.eval(t.iter)
	if err != nil {
		return err
	}
	items, err := iterate(seq)
	if err != nil {
		return ev.fail(t.iter.base().pos, err)
	}
	if t.cond != nil {
		var kept []any
		for _, it := range items {
			scope := map[string]any{}
			ev.scopes = append(ev.scopes, scope)
			err := ev.bind(scope, t.target, normalize(it), t.pos)
			var v any
			if err == nil {
				ev.stmtLine = t.line
				v, err = ev.eval(t.cond)
			}
			ok := false
			if err == nil {
				ok, err = truthy(v)
				if err != nil {
					err = ev.fail(t.cond.base().pos, err)
				}
			}
			ev.scopes = ev.scopes[:len(ev.scopes)-1]
			if err != nil {
				return err
			}
			if ok {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		ev.scopes = append(ev.scopes, frame(t.elseMissing))
		err := ev.render(t.els)
		ev.scopes = ev.scopes[:len(ev.scopes)-1]
		return err
	}
	loop := &loopCtx{items: items}
	for i, it := range items {
		ev.iterations++
		if ev.iterations > maxIterations {
			return &evalError{pos: t.pos, msg: "more than " + itoa(maxIterations) + " loop iterations"}
		}
		scope := frame(t.bodyMissing)
		ev.scopes = append(ev.scopes, scope)
		ev.stmtLine = t.line
		iter := &loopCtx{index0: i, items: loop.items}
		scope["loop"] = iter
		err := ev.bind(scope, t.target, normalize(it), t.pos)
		if err == nil {
			err = ev.render(t.body)
		}
		ev.scopes = ev.scopes[:len(ev.scopes)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

func (ev *evaluator) lookup(name string, pos int) any {
	for i := len(ev.scopes) - 1; i >= 0; i-- {
		if v, ok := ev.scopes[i][name]; ok {
			if _, miss := v.(missingVar); miss {
				return &undefined{msg: "'" + name + "' is undefined", pos: pos}
			}
			return v
		}
	}
	if v, ok := ev.vars.Get(name); ok {
		return normalize(v)
	}
	switch name {
	case "range":
		return &builtinFunc{name: name}
	case "dict", "lipsum", "cycler", "joiner", "namespace":
		return &builtinFunc{name: name}
	}
	return &undefined{msg: "'" + name + "' is undefined", pos: pos}
}

func (ev *evaluator) eval(x expr) (any, error) {
	switch t := x.(type) {
	case *constExpr:
		return t.val, nil
	case *nameExpr:
		return ev.lookup(t.name, t.pos), nil
	case *getattrExpr:
		obj, err := ev.eval(t.obj)
		if err != nil {
			return nil, err
		}
		v, err := getattr(obj, t.attr, t.pos)
		if err != nil {
			return nil, ev.fail(t.pos, err)
		}
		return v, nil
	case *getitemExpr:
		obj, err := ev.eval(t.obj)
		if err != nil {
			return nil, err
		}
		var key any
		if s, ok := t.key.(*sliceExpr); ok {
			key, err = ev.evalSlice(s)
		} else {
			key, err = ev.eval(t.key)
		}
		if err != nil {
			return nil, err
		}
		v, err := getitem(obj, key, t.pos)
		if err != nil {
			return nil, ev.fail(t.pos, err)
		}
		return v, nil
	case *callExpr:
		return ev.evalCall(t)
	case *filterExpr:
		v, err := ev.eval(t.obj)
		if err != nil {
			return nil, err
		}
		return ev.callFilter(t, v)
	case *testExpr:
		v, err := ev.eval(t.obj)
		if err != nil {
			return nil, err
		}
		if t.hasArgs {
			return nil, ev.fail(t.pos, typeErr("test_%s() takes 1 positional argument", t.name))
		}
		_, undef := v.(*undefined)
		if t.name == "undefined" {
			return undef, nil
		}
		return !undef, nil
	case *binExpr:
		l, err := ev.eval(t.l)
		if err != nil {
			return nil, err
		}
		r, err := ev.eval(t.r)
		if err != nil {
			return nil, err
		}
		v, err := binaryOp(t.op, l, r)
		if err != nil {
			return nil, ev.fail(t.pos, err)
		}
		return v, nil
	case *unaryExpr:
		v, err := ev.eval(t.x)
		if err != nil {
			return nil, err
		}
		r, err := unaryOp(t.op, v)
		if err != nil {
			return nil, ev.fail(t.pos, err)
		}
		return r, nil
	case *concatExpr:
		var b strings.Builder
		for _, a := range t.args {
			v, err := ev.eval(a)
			if err != nil {
				return nil, err
			}
			s, err := pyStr(v)
			if err != nil {
				return nil, ev.fail(a.base().pos, err)
			}
			if b.Len()+len(s) > maxOutput {
				return nil, ev.fail(t.pos, &pyError{msg: "a string of more than " + itoa(maxOutput) + " bytes is over the limit"})
			}
			b.WriteString(s)
		}
		return b.String(), nil
	case *compareExpr:
		left, err := ev.eval(t.first)
		if err != nil {
			return nil, err
		}
		for _, op := range t.ops {
			right, err := ev.eval(op.val)
			if err != nil {
				return nil, err
			}
			var ok bool
			switch op.op {
			case "in":
				ok, err = contains(right, left)
			case "notin":
				ok, err = contains(right, left)
				ok = !ok
			default:
				ok, err = compareOp(op.op, left, right)
			}
			if err != nil {
				return nil, ev.fail(t.pos, err)
			}
			if !ok {
				return false, nil
			}
			left = right
		}
		return true, nil
	case *andExpr, *orExpr:
		var l, r expr
		isAnd := false
		if a, ok := t.(*andExpr); ok {
			l, r, isAnd = a.l, a.r, true
		} else {
			o := t.(*orExpr)
			l, r = o.l, o.r
		}
		lv, err := ev.eval(l)
		if err != nil {
			return nil, err
		}
		b, err := truthy(lv)
		if err != nil {
			return nil, ev.fail(l.base().pos, err)
		}
		if b != isAnd {
			return lv, nil
		}
		return ev.eval(r)
	case *notExpr:
		v, err := ev.eval(t.x)
		if err != nil {
			return nil, err
		}
		b, err := truthy(v)
		if err != nil {
			return nil, ev.fail(t.pos, err)
		}
		return !b, nil
	case *condExpr:
		c, err := ev.eval(t.test)
		if err != nil {
			return nil, err
		}
		b, err := truthy(c)
		if err != nil {
			return nil, ev.fail(t.test.base().pos, err)
		}
		if b {
			return ev.eval(t.yes)
		}
		if t.no == nil {
			return &undefined{msg: "the inline if-expression on line " + itoa(t.line) + " evaluated to false and no else section was defined.", pos: t.pos, lenient: true}, nil
		}
		return ev.eval(t.no)
	case *listExpr:
		out := make([]any, 0, len(t.items))
		for _, it := range t.items {
			v, err := ev.eval(it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *tupleExpr:
		out := make(tuple, 0, len(t.items))
		for _, it := range t.items {
			v, err := ev.eval(it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *dictExpr:
		obj := &value.Object{}
		for i := range t.keys {
			k, err := ev.eval(t.keys[i])
			if err != nil {
				return nil, err
			}
			v, err := ev.eval(t.vals[i])
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				if m, isM := k.(markup); isM {
					ks, ok = string(m), true
				}
			}
			if !ok {
				return nil, ev.fail(t.keys[i].base().pos, notSupported("dict keys other than strings"))
			}
			obj.Set(ks, v)
		}
		return obj, nil
	case *sliceExpr:
		return ev.evalSlice(t)
	}
	return nil, &evalError{pos: x.base().pos, msg: "internal: unknown expression"}
}

// pySlice is a Python slice object's bounds; nil means omitted.
type pySlice struct {
	start, stop, step any
}

func (ev *evaluator) evalSlice(s *sliceExpr) (any, error) {
	out := &pySlice{}
	for i, e := range []expr{s.start, s.stop, s.step} {
		if e == nil {
			continue
		}
		v, err := ev.eval(e)
		if err != nil {
			return nil, err
		}
		switch i {
		case 0:
			out.start = v
		case 1:
			out.stop = v
		default:
			out.step = v
		}
	}
	return out, nil
}

// sliceIndices is slice.indices(n).
func sliceIndices(s *pySlice, n int) (start, stop, step int, err error) {
	idx := func(v any, def int) (int, bool, error) {
		if v == nil {
			return def, false, nil
		}
		if numKind(v) != 1 {
			return 0, false, typeErr("slice indices must be integers or None or have an __index__ method")
		}
		b := toBig(v)
		if !b.IsInt64() {
			if b.Sign() < 0 {
				return -1 << 40, true, nil
			}
			return 1 << 40, true, nil
		}
		return int(b.Int64()), true, nil
	}
	st, _, err := idx(s.step, 1)
	if err != nil {
		return 0, 0, 0, err
	}
	if st == 0 {
		return 0, 0, 0, valueErr("slice step cannot be zero")
	}
	lower, upper := 0, n
	if st < 0 {
		lower, upper = -1, n-1
	}
	clamp := func(v any, def int) (int, error) {
		i, given, err := idx(v, def)
		if err != nil || !given {
			return i, err
		}
		if i < 0 {
			i += n
			if i < lower {
				i = lower
			}
		} else if i > upper {
			i = upper
		}
		return i, nil
	}
	defStart, defStop := lower, upper
	if st < 0 {
		defStart, defStop = upper, lower
	}
	start, err = clamp(s.start, defStart)
	if err != nil {
		return
	}
	stop, err = clamp(s.stop, defStop)
	return start, stop, st, err
}

func sliceItems(items []any, s *pySlice) ([]any, error) {
	start, stop, step, err := sliceIndices(s, len(items))
	if err != nil {
		return nil, err
	}
	out := []any{}
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, items[i])
	}
	return out, nil
}

var dictMethods = set("clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values")
var listMethods = set("append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse", "sort")
var strMethods = set("capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format",
	"format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
	"isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans",
	"partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit",
	"rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill")
var markupMethods = set("escape", "unescape", "striptags")
var intAttrs = set("as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator", "from_bytes", "imag",
	"numerator", "real", "to_bytes", "fromhex", "hex", "is_integer")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
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
	switch t := obj.(type) {
	case *value.Object:
		if dictMethods[name] {
			return &method{recv: t, name: name}, nil
		}
		if v, ok := t.Get(name); ok {
			return normalize(v), nil
		}
	case []any:
		if listMethods[name] {
			return &method{recv: t, name: name}, nil
		}
	case tuple:
		if name == "count" || name == "index" {
			return &method{recv: t, name: name}, nil
		}
	case string:
		if strMethods[name] {
			return &method{recv: t, name: name}, nil
		}
	case markup:
		if strMethods[name] || markupMethods[name] {
			return &method{recv: t, name: name}, nil
		}
	case bool, int64, *big.Int, float64:
		if intAttrs[name] {
			return nil, notSupported("the attribute " + name + " of a number")
		}
	case *loopCtx:
		return t.attr(name, pos)
	case *rangeObj:
		switch name {
		case "start":
			return t.start, nil
		case "stop":
			return t.stop, nil
		case "step":
			return t.step, nil
		}
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
	case "revindex":
		return n - i, nil
	case "revindex0":
		return n - i - 1, nil
	case "first":
		return i == 0, nil
	case "last":
		return i == n-1, nil
	case "length":
		return n, nil
	case "depth":
		return int64(1), nil
	case "depth0":
		return int64(0), nil
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
	case "cycle":
		return &method{recv: l, name: "cycle"}, nil
	case "changed":
		return nil, notSupported("loop.changed")
	}
	return &undefined{msg: "'jinja2.runtime.LoopContext object' has no attribute '" + name + "'", pos: pos}, nil
}

// getitem is Jinja's environment.getitem: obj[key], else for a str key the attribute, else undefined.
func getitem(obj any, key any, pos int) (any, error) {
	if u, ok := obj.(*undefined); ok {
		return nil, undefErr(u)
	}
	if u, ok := key.(*undefined); ok {
		return nil, undefErr(u)
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
	case []any, tuple, string, markup:
		var items []any
		switch s := t.(type) {
		case []any:
			items = s
		case tuple:
			items = s
		case string:
			items = runesOf(s)
		case markup:
			items = runesOf(string(s))
		}
		switch k := key.(type) {
		case *pySlice:
			sub, err := sliceItems(items, k)
			if err != nil {
				return nil, err
			}
			switch t.(type) {
			case tuple:
				return tuple(sub), nil
			case string, markup:
				var b strings.Builder
				for _, c := range sub {
					b.WriteString(c.(string))
				}
				if _, ok := t.(markup); ok {
					return markup(b.String()), nil
				}
				return b.String(), nil
			}
			return sub, nil
		case bool, int64, *big.Int:
			b := toBig(k)
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
	case *rangeObj:
		if k, ok := key.(int64); ok {
			n := t.length()
			if k < 0 {
				k += n
			}
			if k >= 0 && k < n {
				return t.start + k*t.step, nil
			}
		}
	}
	if k, ok := key.(string); ok {
		return getattr(obj, k, pos)
	}
	if _, ok := key.(*pySlice); ok {
		return &undefined{msg: objectTypeRepr(obj) + " has no element slice", pos: pos}, nil
	}
	r, err := pyRepr(key)
	if err != nil {
		r = "?"
	}
	return &undefined{msg: objectTypeRepr(obj) + " has no element " + r, pos: pos}, nil
}

func (ev *evaluator) evalCall(t *callExpr) (any, error) {
	fn, err := ev.eval(t.fn)
	if err != nil {
		return nil, err
	}
	args := make([]any, 0, len(t.args))
	for _, a := range t.args {
		v, err := ev.eval(a)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	kw := map[string]any{}
	for _, k := range t.kwargs {
		v, err := ev.eval(k.val)
		if err != nil {
			return nil, err
		}
		kw[k.name] = v
	}
	v, err := callValue(fn, args, kw)
	if err != nil {
		return nil, ev.fail(t.pos, err)
	}
	return v, nil
}

func callValue(fn any, args []any, kw map[string]any) (any, error) {
	switch f := fn.(type) {
	case *undefined:
		return nil, undefErr(f)
	case *method:
		return callMethod(f, args, kw)
	case *builtinFunc:
		if f.name != "range" {
			return nil, notSupported("the global " + f.name + "()")
		}
		if len(kw) > 0 {
			return nil, typeErr("range() takes no keyword arguments")
		}
		var n [3]int64
		for i, a := range args {
			if i >= 3 {
				break
			}
			if numKind(a) != 1 {
				return nil, typeErr("'%s' object cannot be interpreted as an integer", pyTypeName(a))
			}
			x, ok := small(a)
			if !ok {
				return nil, notSupported("range() bounds beyond 64 bits")
			}
			n[i] = x
		}
		switch len(args) {
		case 1:
			return &rangeObj{0, n[0], 1}, nil
		case 2:
			return &rangeObj{n[0], n[1], 1}, nil
		case 3:
			if n[2] == 0 {
				return nil, valueErr("range() arg 3 must not be zero")
			}
			return &rangeObj{n[0], n[1], n[2]}, nil
		}
		return nil, typeErr("range expected at most 3 arguments, got %s", len(args))
	}
	return nil, typeErr("'%s' object is not callable", pyTypeName(fn))
}

func callMethod(m *method, args []any, kw map[string]any) (any, error) {
	if len(kw) > 0 {
		return nil, notSupported("keyword arguments to " + m.name + "()")
	}
	nargs := func(min, max int) error {
		if len(args) < min || len(args) > max {
			return typeErr("%s() got the wrong number of arguments", m.name)
		}
		return nil
	}
	switch r := m.recv.(type) {
	case *value.Object:
		switch m.name {
		case "items", "keys", "values":
			if err := nargs(0, 0); err != nil {
				return nil, err
			}
			return &dictView{kind: m.name, obj: r}, nil
		case "get":
			if err := nargs(1, 2); err != nil {
				return nil, err
			}
			if k, ok := args[0].(string); ok {
				if v, ok := r.Get(k); ok {
					return normalize(v), nil
				}
			} else if _, ok := args[0].([]any); ok {
				return nil, typeErr("unhashable type: 'list'")
			}
			if len(args) == 2 {
				return args[1], nil
			}
			return nil, nil
		}
	case *loopCtx:
		if len(args) == 0 {
			return nil, typeErr("no items for cycling given")
		}
		return args[r.index0%len(args)], nil
	case string, markup:
		s := strOf(r)
		wrap := func(x string) any {
			if _, ok := r.(markup); ok {
				return markup(x)
			}
			return x
		}
		switch m.name {
		case "upper", "lower":
			if err := nargs(0, 0); err != nil {
				return nil, err
			}
			if m.name == "upper" {
				return wrap(pyUpper(s)), nil
			}
			return wrap(pyLower(s)), nil
		case "strip", "lstrip", "rstrip":
			if err := nargs(0, 1); err != nil {
				return nil, err
			}
			var chars *string
			if len(args) == 1 && args[0] != nil {
				c, ok := args[0].(string)
				if !ok {
					return nil, typeErr("%s arg must be None or str", m.name)
				}
				chars = &c
			}
			return wrap(pyStrip(s, chars, m.name != "rstrip", m.name != "lstrip")), nil
		case "startswith", "endswith":
			if err := nargs(1, 1); err != nil {
				return nil, err
			}
			a, ok := args[0].(string)
			if !ok {
				return nil, notSupported(m.name + "() with a non-string argument")
			}
			if m.name == "startswith" {
				return strings.HasPrefix(s, a), nil
			}
			return strings.HasSuffix(s, a), nil
		}
	}
	return nil, notSupported("calling the method " + m.name + "() of a " + pyTypeName(m.recv))
}
