package template

// The filters over sequences and mappings: attr, batch, slice, dictsort, sort, unique, min, max,
// sum, list, items, reverse, groupby, and map, select, reject, selectattr and rejectattr, which
// call other filters and tests by name.

import (
	"strings"
	"unicode/utf8"

	"ragjudge/core/template/pystr"
	"ragjudge/core/value"
)

// callNamed is environment.call_filter or call_test: the built-in called name applied to v.
func (c *callCtx) callNamed(test bool, name any, v any, pos []any, kw []kwVal) (any, error) {
	kind := "filter"
	if test {
		kind = "test"
	}
	s, isStr := name.(string)
	if m, ok := name.(markup); ok {
		s, isStr = string(m), true
	}
	var def *filterDef
	ok := false
	if isStr {
		t := 0
		if test {
			t = 1
		}
		def, ok = lookupBuiltin(t, s)
	}
	if !ok {
		if u, isU := name.(*undefined); isU {
			return nil, &pyError{msg: "TemplateRuntimeError: No " + kind + " named Undefined. (" + u.msg + "; did you forget to quote the callable name?)"}
		}
		if isStr && inList(jinjaFilters+jinjaTests, s) {
			return nil, notSupported("the " + quote(s) + " " + kind)
		}
		r, err := pyRepr(name)
		if err != nil {
			return nil, err
		}
		return nil, &pyError{msg: "TemplateRuntimeError: No " + kind + " named " + r + "."}
	}
	b, err := def.sig.bind(pos, kw)
	if err != nil {
		return nil, err
	}
	if err := c.ev.step(c.pos, 1); err != nil {
		return nil, err
	}
	out, err := def.fn(c, v, b)
	if err != nil {
		return nil, err
	}
	return out, c.ev.work(c.pos, out)
}

// lazy makes the generator Python's generator function would: nothing runs until the first
// item is asked for; start then returns the function that yields the items.
func lazy(c *callCtx, start func() (func() (any, bool, error), error)) *generator {
	var next func() (any, bool, error)
	return newGenerator("generator", func() (any, bool, error) {
		if next == nil {
			n, err := start()
			if err != nil {
				return nil, false, err
			}
			next = n
		}
		if err := c.ev.step(c.pos, stepsPerItem); err != nil {
			return nil, false, err
		}
		return next()
	})
}

// over yields the items of items that keep says to keep, one at a time.
func over(items []any, keep func(any) (bool, error)) func() (any, bool, error) {
	i := 0
	return func() (any, bool, error) {
		for i < len(items) {
			it := normalize(items[i])
			i++
			ok, err := keep(it)
			if err != nil {
				return nil, false, err
			}
			if ok {
				return it, true, nil
			}
		}
		return nil, false, nil
	}
}

func filterAttr(v any, a []any) (any, error) {
	name, ok := a[0].(string)
	if !ok {
		if m, isM := a[0].(markup); isM {
			name, ok = string(m), true
		}
	}
	if u, isU := v.(*undefined); isU {
		return nil, undefErr(u)
	}
	if !ok {
		return nil, typeErr("attribute name must be string, not '%s'", pyTypeName(a[0]))
	}
	if l, isLoop := v.(*loopCtx); isLoop {
		return l.attr(name, -1)
	}
	if t, isT := v.(tuple); isT {
		if g, ok := groupField(t, name); ok {
			return g, nil
		}
	}
	x, err := getattr(v, name, -1)
	if err != nil {
		return nil, err
	}
	if d, isDict := v.(*value.Object); isDict {
		if _, has := d.Get(name); has {
			// attr never falls back to the item: a key is no attribute.
			return undefAttr(v, name, -1), nil
		}
	}
	return x, nil
}

func filterBatch(c *callCtx, v any, b *bound) (any, error) {
	linecount, fill := b.args[0], b.args[1]
	return lazy(c, func() (func() (any, bool, error), error) {
		items, err := iterItems(c.ev, c.pos, v)
		if err != nil {
			return nil, err
		}
		var out []any
		var tmp []any
		for _, it := range items {
			full, err := pyEqual(int64(len(tmp)), linecount)
			if err != nil {
				return nil, err
			}
			if full {
				out = append(out, tmp)
				tmp = nil
			}
			tmp = append(tmp, normalize(it))
		}
		if len(tmp) > 0 {
			if fill != nil {
				short, err := compareOp("<", int64(len(tmp)), linecount)
				if err != nil {
					return nil, err
				}
				if short {
					n, err := binaryOp("-", linecount, int64(len(tmp)))
					if err != nil {
						return nil, err
					}
					pad, err := repeatSeqChecked([]any{fill}, n)
					if err != nil {
						return nil, err
					}
					tmp = append(tmp, pad...)
				}
			}
			out = append(out, tmp)
		}
		return over(out, func(any) (bool, error) { return true, nil }), nil
	}), nil
}

// repeatSeqChecked is list * n with Python's TypeError for a non-int n.
func repeatSeqChecked(l []any, n any) ([]any, error) {
	if numKind(n) != 1 {
		return nil, typeErr("can't multiply sequence by non-int of type '%s'", pyTypeName(n))
	}
	r, err := repeatSeq(l, n)
	if err != nil {
		return nil, err
	}
	return r.([]any), nil
}

func filterSlice(c *callCtx, v any, b *bound) (any, error) {
	slicesArg, fill := b.args[0], b.args[1]
	return lazy(c, func() (func() (any, bool, error), error) {
		seq, err := iterItems(c.ev, c.pos, v)
		if err != nil {
			return nil, err
		}
		length := int64(len(seq))
		if numKind(slicesArg) != 1 {
			if numKind(slicesArg) == 2 {
				return nil, typeErr("'float' object cannot be interpreted as an integer")
			}
			return nil, typeErr("unsupported operand type(s) for //: 'int' and '%s'", pyTypeName(slicesArg))
		}
		if toBig(slicesArg).Sign() == 0 {
			return nil, zeroDiv("integer division or modulo by zero")
		}
		slices, _ := asIndex(slicesArg)
		if slices > maxItems {
			return nil, tooMany()
		}
		if slices < 0 {
			return over(nil, nil), nil
		}
		per := floorDiv(length, int64(slices))
		extra := length - per*int64(slices)
		var out []any
		offset := int64(0)
		for n := int64(0); n < int64(slices); n++ {
			start := offset + n*per
			if n < extra {
				offset++
			}
			end := offset + (n+1)*per
			tmp := append([]any{}, pySliceList(seq, start, end)...)
			if fill != nil && n >= extra {
				tmp = append(tmp, fill)
			}
			out = append(out, tmp)
		}
		if err := c.ev.step(c.pos, len(out)*stepsPerItem); err != nil {
			return nil, err
		}
		return over(out, func(any) (bool, error) { return true, nil }), nil
	}), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// pySliceList is seq[start:end] with Python's clamping of negative and out-of-range bounds.
func pySliceList(seq []any, start, end int64) []any {
	n := int64(len(seq))
	clamp := func(i int64) int64 {
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		return i
	}
	s, e := clamp(start), clamp(end)
	if e < s {
		return nil
	}
	return seq[s:e]
}

func filterDictsort(c *callCtx, v any, b *bound) (any, error) {
	caseSensitive, by, reverse := b.args[0], b.args[1], b.args[2]
	d, ok := v.(*value.Object)
	if !ok {
		if u, isU := v.(*undefined); isU {
			return nil, undefErr(u)
		}
		return nil, &pyError{msg: "AttributeError: '" + pyTypeName(v) + "' object has no attribute 'items'"}
	}
	pos := -1
	if eq, _ := pyEqual(by, "key"); eq {
		pos = 0
	} else if eq, _ := pyEqual(by, "value"); eq {
		pos = 1
	}
	if pos < 0 {
		return nil, &pyError{msg: "FilterArgumentError: You can only sort by either \"key\" or \"value\""}
	}
	cs, err := truthy(caseSensitive)
	if err != nil {
		return nil, err
	}
	rev, err := truthy(reverse)
	if err != nil {
		return nil, err
	}
	items := viewItems(&dictView{obj: d})
	keys := make([]any, len(items))
	for i, it := range items {
		k := it.(tuple)[pos]
		if !cs {
			k = ignoreCase(k)
		}
		keys[i] = k
	}
	return pySort(c.ev, c.pos, items, keys, rev)
}

// multiAttrKeys is make_multi_attrgetter applied to each item: a list of one value for each
// comma-separated attribute path.
func multiAttrKeys(items []any, attribute any, fold bool) ([]any, error) {
	var getters []*attrGetter
	if s, ok := attribute.(string); ok {
		for _, part := range strings.Split(s, ",") {
			g, err := newAttrGetter(part, fold, nil)
			if err != nil {
				return nil, err
			}
			getters = append(getters, g)
		}
	} else {
		g, err := newAttrGetter(attribute, fold, nil)
		if err != nil {
			return nil, err
		}
		getters = []*attrGetter{g}
	}
	keys := make([]any, len(items))
	for i, it := range items {
		k := make([]any, len(getters))
		for j, g := range getters {
			x, err := g.get(it)
			if err != nil {
				return nil, err
			}
			k[j] = x
		}
		keys[i] = k
	}
	return keys, nil
}

func filterSort(c *callCtx, v any, b *bound) (any, error) {
	reverse, caseSensitive, attribute := b.args[0], b.args[1], b.args[2]
	rev, err := truthy(reverse)
	if err != nil {
		return nil, err
	}
	cs, err := truthy(caseSensitive)
	if err != nil {
		return nil, err
	}
	items, err := iterItems(c.ev, c.pos, v)
	if err != nil {
		return nil, err
	}
	keys, err := multiAttrKeys(items, attribute, !cs)
	if err != nil {
		return nil, err
	}
	out, err := pySort(c.ev, c.pos, items, keys, rev)
	if err != nil {
		return nil, err
	}
	for i, x := range out {
		out[i] = normalize(x)
	}
	return out, nil
}

func filterUnique(c *callCtx, v any, b *bound) (any, error) {
	caseSensitive, attribute := b.args[0], b.args[1]
	cs, err := truthy(caseSensitive)
	if err != nil {
		return nil, err
	}
	g, err := newAttrGetter(attribute, !cs, nil)
	if err != nil {
		return nil, err
	}
	return lazy(c, func() (func() (any, bool, error), error) {
		items, err := iterItems(c.ev, c.pos, v)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		return over(items, func(it any) (bool, error) {
			k, err := g.get(it)
			if err != nil {
				return false, err
			}
			if err := c.ev.step(c.pos, 2*stepsPerItem); err != nil { // hashing costs more than a step
				return false, err
			}
			h, err := hashKey(k)
			if err != nil || seen[h] {
				return false, err
			}
			seen[h] = true
			return true, nil
		}), nil
	}), nil
}

// filterMax and filterMin are do_max and do_min (_min_or_max): the first item whose key no
// later one beats (min asks <, max >).
func filterMax(c *callCtx, v any, b *bound) (any, error) { return minOrMax(c, v, b, true) }
func filterMin(c *callCtx, v any, b *bound) (any, error) { return minOrMax(c, v, b, false) }

func minOrMax(c *callCtx, v any, b *bound, isMax bool) (any, error) {
	caseSensitive, attribute := b.args[0], b.args[1]
	items, err := iterItems(c.ev, c.pos, v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{msg: "No aggregated item, sequence was empty.", pos: -1}, nil
	}
	cs, err := truthy(caseSensitive)
	if err != nil {
		return nil, err
	}
	g, err := newAttrGetter(attribute, !cs, nil)
	if err != nil {
		return nil, err
	}
	op := "<"
	if isMax {
		op = ">"
	}
	best := normalize(items[0])
	bestKey, err := g.get(best)
	if err != nil {
		return nil, err
	}
	for _, it := range items[1:] {
		it = normalize(it)
		k, err := g.get(it)
		if err != nil {
			return nil, err
		}
		if isNaN(k) || isNaN(bestKey) {
			return nil, notSupported("min or max of NaN")
		}
		better, err := compareOp(op, k, bestKey)
		if err != nil {
			return nil, err
		}
		if better {
			best, bestKey = it, k
		}
	}
	return best, nil
}

func filterSum(c *callCtx, v any, b *bound) (any, error) {
	attribute, start := b.args[0], b.args[1]
	items, err := iterItems(c.ev, c.pos, v)
	if err != nil {
		return nil, err
	}
	switch start.(type) {
	case string, markup:
		return nil, typeErr("sum() can't sum strings [use ''.join(seq) instead]")
	}
	g, err := newAttrGetter(attribute, false, nil)
	if err != nil {
		return nil, err
	}
	acc := start
	for _, it := range items {
		x, err := g.get(it)
		if err != nil {
			return nil, err
		}
		if acc, err = binaryOp("+", acc, x); err != nil {
			return nil, err
		}
		if err := c.ev.work(c.pos, acc); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func filterList(c *callCtx, v any, _ *bound) (any, error) {
	items, err := iterItems(c.ev, c.pos, v)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(items))
	for i, x := range items {
		out[i] = normalize(x)
	}
	return out, nil
}

func filterItems(c *callCtx, v any, _ *bound) (any, error) {
	return lazy(c, func() (func() (any, bool, error), error) {
		switch t := v.(type) {
		case *undefined:
			return over(nil, nil), nil
		case *value.Object:
			return over(viewItems(&dictView{obj: t}), func(any) (bool, error) { return true, nil }), nil
		}
		return nil, typeErr("Can only get item pairs from a mapping.")
	}), nil
}

func filterReverse(c *callCtx, v any, _ *bound) (any, error) {
	var items []any
	typ := ""
	switch t := v.(type) {
	case string:
		return reverseRunes(t), nil
	case markup:
		return markup(reverseRunes(string(t))), nil
	case []any:
		items, typ = t, "list_reverseiterator"
	case tuple:
		items, typ = t, "reversed"
	case rangeVal:
		items, typ = t.items(), "range_iterator"
		if t.len() > maxItems {
			return nil, tooMany()
		}
	case *value.Object:
		items, _ = iterate(t)
		typ = "dict_reversekeyiterator"
	case *dictView:
		items, typ = viewItems(t), "dict_reverse"+strings.TrimSuffix(t.kindName(), "s")+"iterator"
	case *generator:
		l, err := t.drain()
		if err != nil {
			return nil, err
		}
		out := make([]any, len(l))
		for i, x := range l {
			out[len(l)-1-i] = normalize(x)
		}
		return out, nil
	case *undefined:
		return nil, undefErr(t)
	default:
		return nil, &pyError{msg: "FilterArgumentError: argument must be iterable"}
	}
	rev := make([]any, len(items))
	for i, x := range items {
		rev[len(items)-1-i] = normalize(x)
	}
	if err := c.ev.step(c.pos, len(items)*stepsPerItem); err != nil {
		return nil, err
	}
	return listGenerator(typ, rev), nil
}

func reverseRunes(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func filterGroupby(c *callCtx, v any, b *bound) (any, error) {
	attribute, dflt, caseSensitive := b.args[0], b.args[1], b.args[2]
	cs, err := truthy(caseSensitive)
	if err != nil {
		return nil, err
	}
	key, err := newAttrGetter(attribute, !cs, dflt)
	if err != nil {
		return nil, err
	}
	items, err := iterItems(c.ev, c.pos, v)
	if err != nil {
		return nil, err
	}
	// Two key lookups and a comparison for each item besides the sort.
	if err := c.ev.step(c.pos, len(items)*3*stepsPerItem); err != nil {
		return nil, err
	}
	keys := make([]any, len(items))
	for i, it := range items {
		if keys[i], err = key.get(it); err != nil {
			return nil, err
		}
	}
	sorted, err := pySort(c.ev, c.pos, items, keys, false)
	if err != nil {
		return nil, err
	}
	// itertools.groupby over the sorted items, comparing each key with the group's by ==.
	var out []any
	var groupKey any
	var group []any
	for i, it := range sorted {
		it = normalize(it)
		k, err := key.get(it)
		if err != nil {
			return nil, err
		}
		same := false
		if i > 0 {
			if same, err = pyEqual(k, groupKey); err != nil {
				return nil, err
			}
		}
		if !same {
			if i > 0 {
				out = append(out, groupTuple(groupKey, group))
			}
			groupKey, group = k, nil
		}
		group = append(group, it)
	}
	if len(sorted) > 0 {
		out = append(out, groupTuple(groupKey, group))
	}
	if !cs {
		real := &attrGetter{path: key.path, dflt: dflt}
		for i, g := range out {
			list := g.(tuple)[1].([]any)
			k, err := real.get(list[0])
			if err != nil {
				return nil, err
			}
			out[i] = groupTuple(k, list)
		}
	}
	return out, nil
}

// filterMap is do_map: an attribute of each item (attribute=, default=), or a filter applied to
// each.
func filterMap(c *callCtx, v any, b *bound) (any, error) {
	args, kw := b.rest, b.kw
	return lazy(c, func() (func() (any, bool, error), error) {
		ok, err := truthy(v)
		if err != nil {
			return nil, err
		}
		if !ok {
			return over(nil, nil), nil
		}
		var fn func(any) (any, error)
		if attr, has := kwValue(kw, "attribute"); len(args) == 0 && has {
			dflt, _ := kwValue(kw, "default")
			for _, k := range kw {
				if k.name != "attribute" && k.name != "default" {
					return nil, &pyError{msg: "FilterArgumentError: Unexpected keyword argument '" + k.name + "'"}
				}
			}
			g, err := newAttrGetter(attr, false, dflt)
			if err != nil {
				return nil, err
			}
			fn = g.get
		} else {
			if len(args) == 0 {
				return nil, &pyError{msg: "FilterArgumentError: map requires a filter argument"}
			}
			name, rest := args[0], args[1:]
			fn = func(it any) (any, error) { return c.callNamed(false, name, it, rest, kw) }
		}
		items, err := iterItems(c.ev, c.pos, v)
		if err != nil {
			return nil, err
		}
		i := 0
		return func() (any, bool, error) {
			if i >= len(items) {
				return nil, false, nil
			}
			i++
			x, err := fn(normalize(items[i-1]))
			return x, err == nil, err
		}, nil
	}), nil
}

// kwValue is the last keyword argument named name (a call cannot repeat one).
func kwValue(kw []kwVal, name string) (any, bool) {
	for _, k := range kw {
		if k.name == name {
			return k.val, true
		}
	}
	return nil, false
}

func filterSelect(c *callCtx, v any, b *bound) (any, error) {
	return selectOrReject(c, v, b, true, false)
}
func filterReject(c *callCtx, v any, b *bound) (any, error) {
	return selectOrReject(c, v, b, false, false)
}
func filterSelectattr(c *callCtx, v any, b *bound) (any, error) {
	return selectOrReject(c, v, b, true, true)
}
func filterRejectattr(c *callCtx, v any, b *bound) (any, error) {
	return selectOrReject(c, v, b, false, true)
}

// selectOrReject is select_or_reject: the items for which the test (or bool, without one) of
// the item, or of its attribute when byAttr, is keep.
func selectOrReject(c *callCtx, v any, b *bound, keep, byAttr bool) (any, error) {
	args, kw := b.rest, b.kw
	return lazy(c, func() (func() (any, bool, error), error) {
		ok, err := truthy(v)
		if err != nil {
			return nil, err
		}
		if !ok {
			return over(nil, nil), nil
		}
		trans := func(x any) (any, error) { return x, nil }
		off := 0
		if byAttr {
			if len(args) == 0 {
				return nil, &pyError{msg: "FilterArgumentError: Missing parameter for attribute name"}
			}
			g, err := newAttrGetter(args[0], false, nil)
			if err != nil {
				return nil, err
			}
			trans = g.get
			off = 1
		}
		test := func(x any) (bool, error) { return truthy(x) }
		if len(args) > off {
			name, rest := args[off], args[off+1:]
			test = func(x any) (bool, error) {
				r, err := c.callNamed(true, name, x, rest, kw)
				if err != nil {
					return false, err
				}
				return truthy(r)
			}
		}
		items, err := iterItems(c.ev, c.pos, v)
		if err != nil {
			return nil, err
		}
		return over(items, func(it any) (bool, error) {
			x, err := trans(it)
			if err != nil {
				return false, err
			}
			r, err := test(x)
			return r == keep, err
		}), nil
	}), nil
}

// pprintRepr is pprint.pformat(v) for a value whose repr fits in 80 columns: the repr with each
// dict's keys sorted. A longer one is wrapped over lines by rules not reproduced here.
func pprintRepr(v any, _ []any) (any, error) {
	var b strings.Builder
	if err := writeSortedRepr(&b, v, 0); err != nil {
		return nil, err
	}
	switch v.(type) {
	case []any, tuple, *value.Object, string:
		// pformat wraps these (and only these of the values here) when longer than 80 columns.
		if utf8.RuneCountInString(b.String()) > 80 {
			return nil, notSupported("pprint of a value whose repr is longer than 80 characters")
		}
	}
	return b.String(), nil
}

func writeSortedRepr(b *strings.Builder, v any, depth int) error {
	if depth > maxDepth {
		return notSupported("pprint of a value nested this deep")
	}
	write := func(open, close string, items []any) error {
		b.WriteString(open)
		for i, x := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := writeSortedRepr(b, normalize(x), depth+1); err != nil {
				return err
			}
		}
		b.WriteString(close)
		return nil
	}
	switch t := v.(type) {
	case []any:
		return write("[", "]", t)
	case tuple:
		if len(t) == 1 {
			return write("(", ",)", t)
		}
		return write("(", ")", t)
	case *value.Object:
		keys := append([]string(nil), t.Keys()...)
		items := make([]any, len(keys))
		for i, k := range keys {
			items[i] = k
		}
		sorted, err := pySort(nil, 0, items, items, false)
		if err != nil {
			return err
		}
		b.WriteString("{")
		for i, k := range sorted {
			if i > 0 {
				b.WriteString(", ")
			}
			pystr.WriteRepr(b, k.(string))
			b.WriteString(": ")
			x, _ := t.Get(k.(string))
			if err := writeSortedRepr(b, normalize(x), depth+1); err != nil {
				return err
			}
		}
		b.WriteString("}")
		return nil
	case *generator:
		return notSupported("pprint of a " + pyTypeName(v) + " (Python prints its memory address)")
	}
	return writeRepr(b, v)
}
