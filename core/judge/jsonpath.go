package judge

import (
	"strconv"
	"strings"

	"ragjudge/core/exact"
	"ragjudge/core/output"
	"ragjudge/core/value"
)

// Field is a json reader's field: a simple path into the judge's JSON object and, for a path
// through a list ([*]), how the values it picks combine ("all" or "any" for pass, "mean" for
// score).
//
// A path is "$" then steps, the first a key: ".key" (letters, digits, '_' and '-'), "[n]" (an
// index from 0) and "[*]" (every item of a list; at most one per path). Keys match as the
// built-ins match theirs (output.Field: any case, and ignoring ' ', '_' and '-'): "$.verdict",
// "$.result.score", "$.citations[*].supported".
type Field struct {
	Path    string
	Combine string
	_       [0]func() // not comparable: no equality function in the wasm
}

// picked is one value a path picked, with its concrete path ("$.citations[2].supported").
type picked struct {
	v    any
	path string
	_    [0]func() // not comparable: no equality function in the wasm
}

// pickPath follows path in root. It returns the values picked (one, or one per item for a
// path through [*]) or, when a step is not there, missing: the concrete path up to it. A path
// that is not one (the JS API's evaluatorspec.js refuses those) picks nothing: missing is the
// path itself.
func pickPath(root *value.Object, path string) (vals []picked, missing string) {
	cur := []picked{{v: root, path: "$"}}
	for i := 1; i < len(path) && len(path) > 1 && path[0] == '$'; {
		step, j := pathStep(path, i)
		if len(step) < 2 {
			return nil, path
		}
		var next []picked
		for _, c := range cur {
			where := c.path + step
			list, isList := c.v.([]any)
			o, isObj := c.v.(*value.Object)
			n, err := exact.Atoi(step[1 : len(step)-1])
			switch {
			case step[0] == '.' && isObj:
				if v, ok := output.Field(o, step[1:]); ok {
					next = append(next, picked{v: v, path: where})
					continue
				}
			case step == "[*]" && isList:
				for k, item := range list {
					next = append(next, picked{v: item, path: c.path + "[" + strconv.Itoa(k) + "]"})
				}
				continue
			case step[0] == '[' && isList && err == nil && n >= 0 && n < len(list):
				next = append(next, picked{v: list[n], path: where})
				continue
			}
			return nil, where
		}
		cur, i = next, j
	}
	if len(path) < 3 || path[0] != '$' {
		return nil, path
	}
	return cur, ""
}

// topKey is the first key of a path ("verdict" of "$.verdict.ok"): the payload has it.
func topKey(path string) string {
	path = strings.TrimPrefix(path, "$.")
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// pathConflict reports whether a key on path in root was written twice with values that differ
// (output.Payload.Conflict), in any object the path goes through: where the two values are.
func pathConflict(p *output.Payload, root *value.Object, path string) (first, last int, ok bool) {
	cur := []any{root}
	for i := 1; i < len(path) && path[0] == '$'; {
		step, j := pathStep(path, i)
		if step == "" {
			return 0, 0, false
		}
		var next []any
		for _, c := range cur {
			switch x := c.(type) {
			case *value.Object:
				if step[0] != '.' {
					continue
				}
				if f, l, twice := p.Conflict(x, step[1:]); twice {
					return f, l, true
				}
				if v, has := output.Field(x, step[1:]); has {
					next = append(next, v)
				}
			case []any:
				if step == "[*]" {
					next = append(next, x...)
				} else if n, err := exact.Atoi(strings.Trim(step, "[]")); err == nil && n >= 0 && n < len(x) {
					next = append(next, x[n])
				}
			}
		}
		cur, i = next, j
	}
	return 0, 0, false
}

// pathStep returns the step of path that starts at path[i] (".key", "[n]" or "[*]") and where
// the next one starts; "" for a "[" never closed.
func pathStep(path string, i int) (step string, next int) {
	j := i + 1
	for j < len(path) && path[j] != '.' && path[j] != '[' {
		j++
	}
	if path[i] == '[' {
		j = strings.IndexByte(path[i:], ']') + i + 1
		if j == i {
			return "", len(path)
		}
	}
	return path[i:j], j
}
