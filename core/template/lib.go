package template

// What the built-in filters and tests share: Python's lazy iterators (map, select and friends
// return generators, used up by the first loop over them), the attribute paths of
// make_attrgetter, sorted()'s exact comparisons, set membership for unique, and markupsafe's
// escape.

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ragjudge/core/exact"
	"ragjudge/core/stable"
	"ragjudge/core/value"
)

// generator is a Python iterator: a generator function's result or a reversed() object. next
// yields one item at a time (Jinja's filters run lazily, so an item that fails only fails when
// it is reached); once it is done the iterator is empty, as in Python.
type generator struct {
	typ  string // type(v).__name__: generator, list_reverseiterator, …
	next func() (any, bool, error)
	_    [0]func()
}

func newGenerator(typ string, next func() (any, bool, error)) *generator {
	return &generator{typ: typ, next: next}
}

// pull is next(g): ok is false once the iterator is used up.
func (g *generator) pull() (any, bool, error) {
	if g.next == nil {
		return nil, false, nil
	}
	v, ok, err := g.next()
	if !ok || err != nil {
		g.next = nil
	}
	return v, ok, err
}

// drain is list(g).
func (g *generator) drain() ([]any, error) {
	var out []any
	for {
		v, ok, err := g.pull()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		if len(out) >= maxItems {
			return nil, tooMany()
		}
		out = append(out, v)
	}
}

// contains is item in g: it uses up g as far as the first equal item.
func (g *generator) contains(item any) (bool, error) {
	for {
		v, ok, err := g.pull()
		if err != nil || !ok {
			return false, err
		}
		eq, err := pyEqual(normalize(item), normalize(v))
		if err != nil || eq {
			return eq, err
		}
	}
}

// listGenerator yields items, then is empty.
func listGenerator(typ string, items []any) *generator {
	i := 0
	return newGenerator(typ, func() (any, bool, error) {
		if i >= len(items) {
			return nil, false, nil
		}
		i++
		return items[i-1], true, nil
	})
}

// groupMark in the spare slot of a tuple's backing array marks groupby's _GroupTuple, a tuple
// (it prints and compares as one) with the attributes grouper and list.
type groupMark struct{}

func groupTuple(grouper any, list []any) tuple {
	t := make(tuple, 3)
	t[0], t[1], t[2] = grouper, list, groupMark{}
	return t[:2]
}

// groupField is the attribute name of t when t is a _GroupTuple.
func groupField(t tuple, name string) (any, bool) {
	if len(t) != 2 || cap(t) < 3 {
		return nil, false
	}
	if _, ok := t[:3][2].(groupMark); !ok {
		return nil, false
	}
	switch name {
	case "grouper":
		return t[0], true
	case "list":
		return t[1], true
	}
	return nil, false
}

// attrPath is _prepare_attribute_parts: "a.0.b" is ["a", 0, "b"]; an int is itself; none is
// no lookup at all.
func attrPath(attr any) ([]any, error) {
	switch a := attr.(type) {
	case nil:
		return nil, nil
	case string, markup:
		var parts []any
		for _, p := range strings.Split(strOf(a), ".") {
			if isAllDigits(p) {
				n, err := exact.ParseInt(p, 10, 64)
				if err != nil {
					return nil, notSupported("an attribute index this large")
				}
				parts = append(parts, n)
				continue
			}
			if !isASCII(p) {
				for _, r := range p {
					if r >= '0' && r <= '9' || r > 0x7f && unicode.IsNumber(r) {
						return nil, notSupported("non-ASCII digits in an attribute path")
					}
				}
			}
			parts = append(parts, p)
		}
		return parts, nil
	}
	return []any{attr}, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// attrGetter is make_attrgetter: the item at path, the default in place of an undefined one
// (when dflt is not None), lowercased when fold is set (ignore_case).
type attrGetter struct {
	path []any
	dflt any
	fold bool
}

func newAttrGetter(attr any, fold bool, dflt any) (*attrGetter, error) {
	p, err := attrPath(attr)
	if err != nil {
		return nil, err
	}
	return &attrGetter{path: p, dflt: dflt, fold: fold}, nil
}

func (g *attrGetter) get(item any) (any, error) {
	item = normalize(item)
	for _, part := range g.path {
		v, err := getitem(item, part, -1)
		if err != nil {
			return nil, err
		}
		item = normalize(v)
		if _, undef := item.(*undefined); undef && g.dflt != nil {
			item = g.dflt
		}
	}
	if g.fold {
		item = ignoreCase(item)
	}
	return item, nil
}

// ignoreCase is Jinja's ignore_case: str.lower() of a string, other values as they are.
func ignoreCase(v any) any {
	switch t := v.(type) {
	case string:
		return pyLower(t)
	case markup:
		return markup(pyLower(string(t)))
	}
	return v
}

// pyLess is a < b as list.sort and min() ask it. NaN makes sorting depend on the algorithm's
// order of comparisons, which only CPython's own timsort reproduces: refused.
func pyLess(a, b any) (bool, error) {
	if isNaN(a) || isNaN(b) {
		return false, notSupported("sorting or comparing NaN")
	}
	return compareOp("<", a, b)
}

func isNaN(v any) bool {
	switch t := v.(type) {
	case float64:
		return math.IsNaN(t)
	case []any:
		for _, x := range t {
			if isNaN(x) {
				return true
			}
		}
	case tuple:
		return isNaN([]any(t))
	}
	return false
}

// pySort is sorted(items, key=keys[i], reverse=rev): stable, comparing with < only, and for
// fewer than 64 items in CPython's exact order of comparisons (count_run, then binary
// insertion), so that a TypeError names the pair Python compares first. Longer lists use a
// stable merge sort: the same order whenever the comparisons succeed.
func pySort(ev *evaluator, pos int, items, keys []any, rev bool) ([]any, error) {
	n := len(items)
	if ev != nil {
		if err := ev.step(pos, n*stepsPerItem*(bitsLen(n)+1)); err != nil {
			return nil, err
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if rev {
		// Python reverses, sorts stably, and reverses again: equal items keep their order.
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			idx[i], idx[j] = idx[j], idx[i]
		}
	}
	var err error
	if n < 64 {
		err = binarySortRun(idx, func(a, b int) (bool, error) { return pyLess(keys[a], keys[b]) })
	} else {
		// The first comparison that fails is the error; the sort then runs out without comparing.
		stable.Sort(idx, func(a, b int) bool {
			if err != nil {
				return false
			}
			lt, e := pyLess(keys[a], keys[b])
			err = e
			return lt
		})
	}
	if err != nil {
		return nil, err
	}
	if rev {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			idx[i], idx[j] = idx[j], idx[i]
		}
	}
	out := make([]any, n)
	for i, k := range idx {
		out[i] = items[k]
	}
	return out, nil
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// binarySortRun is CPython's listsort for a list shorter than 64: count_run finds the run at
// the start (reversing a strictly descending one), binarysort inserts the rest.
func binarySortRun(a []int, less func(a, b int) (bool, error)) error {
	n := len(a)
	if n < 2 {
		return nil
	}
	run := 2
	desc, err := less(a[1], a[0])
	if err != nil {
		return err
	}
	for ; run < n; run++ {
		lt, err := less(a[run], a[run-1])
		if err != nil {
			return err
		}
		if lt != desc {
			break
		}
	}
	if desc {
		for i, j := 0, run-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
	}
	for start := run; start < n; start++ {
		pivot := a[start]
		l, r := 0, start
		for l < r {
			p := l + (r-l)>>1
			lt, err := less(pivot, a[p])
			if err != nil {
				return err
			}
			if lt {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(a[l+1:start+1], a[l:start])
		a[l] = pivot
	}
	return nil
}

// hashKey is a string equal for values Python's set holds as one (1, 1.0 and True; a str and
// its Markup), or the TypeError of hash(v) for an unhashable value.
func hashKey(v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "N", nil
	case bool, int64, *exact.Int:
		return "i" + toBig(t).String(), nil
	case float64:
		if math.IsNaN(t) {
			return "", notSupported("NaN in a set (each NaN is a distinct key in Python)")
		}
		if t == math.Trunc(t) && !math.IsInf(t, 0) {
			b := new(exact.Int).SetFloat64(t)
			return "i" + b.String(), nil
		}
		return "f" + strconv.FormatFloat(t, 'g', -1, 64), nil
	case string:
		return "s" + t, nil
	case markup:
		return "s" + string(t), nil
	case tuple:
		var b strings.Builder
		b.WriteString("t(")
		for _, x := range t {
			k, err := hashKey(normalize(x))
			if err != nil {
				return "", err
			}
			b.WriteString(strconv.Itoa(len(k)))
			b.WriteByte(':')
			b.WriteString(k)
		}
		b.WriteString(")")
		return b.String(), nil
	case *undefined:
		return "", undefErr(t)
	case *dictView:
		if t.kind == "values" {
			return "", notSupported("a dict_values in a set (hashed by identity)")
		}
		return "", typeErr("unhashable type: '%s'", pyTypeName(v))
	case []any, *value.Object:
		return "", typeErr("unhashable type: '%s'", pyTypeName(v))
	}
	return "", notSupported("hashing a " + pyTypeName(v))
}

// htmlEscape is markupsafe's escaping of a str.
func htmlEscape(s string) string { return replaceBytes(s, &htmlEscapes) }

// htmlEscapes are markupsafe's replacements, and jsonEscapes those of tojson (htmlsafe_json_dumps).
var (
	htmlEscapes = [256]string{'&': "&amp;", '>': "&gt;", '<': "&lt;", '\'': "&#39;", '"': "&#34;"}
	jsonEscapes = [256]string{'<': `\u003c`, '>': `\u003e`, '&': `\u0026`, '\'': `\u0027`}
)

// replaceBytes replaces each byte of s that has a replacement in repl, and returns s itself when
// none has. It is what strings.NewReplacer does with one-byte old strings, without linking the
// Replacer's machinery (its tries and kinds of replacer, 43 KB of wasm code, 10 KB of brotli).
func replaceBytes(s string, repl *[256]string) string {
	var b []byte
	last := 0
	for i := 0; i < len(s); i++ {
		if r := repl[s[i]]; r != "" {
			if b == nil {
				b = make([]byte, 0, len(s)+len(s)/8+8)
			}
			b = append(append(b, s[last:i]...), r...)
			last = i + 1
		}
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// escapeValue is markupsafe.escape(v): Markup as it is, anything else str(v) escaped.
func escapeValue(v any) (markup, error) {
	if m, ok := v.(markup); ok {
		return m, nil
	}
	s, err := pyStr(v)
	if err != nil {
		return "", err
	}
	return markup(htmlEscape(s)), nil
}

// asIndex is operator.index(v) for a size or count argument: an int that fits, else Python's
// TypeError; what is too large for memory anyway is over the limits.
func asIndex(v any) (int, error) {
	switch t := v.(type) {
	case bool, int64, *exact.Int:
		b := toBig(v)
		if !b.IsInt64() || b.Int64() > math.MaxInt32 {
			if b.Sign() < 0 {
				return math.MinInt32, nil
			}
			return math.MaxInt32, nil
		}
		n := b.Int64()
		if n < math.MinInt32 {
			n = math.MinInt32
		}
		return int(n), nil
	case *undefined:
		return 0, undefErr(t)
	}
	return 0, typeErr("'%s' object cannot be interpreted as an integer", pyTypeName(v))
}

// chargeChars charges for the characters of a str or Markup v before they are made into a list
// of one-character strings, which costs far more than reading the text.
func chargeChars(ev *evaluator, pos int, v any) error {
	switch v.(type) {
	case string, markup:
		return ev.step(pos, utf8.RuneCountInString(strOf(v))*stepsPerItem)
	}
	return nil
}

// chargeDeep charges for writing out all that v holds (tojson, pprint, str of a container): its
// items at every depth, not only the text that comes out.
func chargeDeep(c *callCtx, v any) error {
	switch v.(type) {
	case []any, tuple, *value.Object, *dictView:
		return c.ev.step(c.pos, deepSize(v)/bytesPerStep)
	}
	return nil
}

// iterItems is iter(v) for a filter: a generator's items, a list's, a string's characters.
func iterItems(ev *evaluator, pos int, v any) ([]any, error) {
	if err := chargeChars(ev, pos, v); err != nil {
		return nil, err
	}
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	return items, ev.step(pos, len(items)*stepsPerItem)
}
