package parse

// spanInputs sets the input of every {{ }} in body: the variable of the context its value comes
// from, so that a page can show which input each part of a rendered prompt is. It follows the
// expression's object down to a name ({{ question }}, {{ doc.title|upper }}, {{ items[0] }}):
// a name the template binds stands for what it was bound to (a for loop's variable for the list
// it walks, a set or with name for its value's source), and loop, a macro's parameters and a
// name bound to anything else stand for no input (""). What a render was not given (range,
// namespace) renderJinja clears. locals maps the names bound so far to their source; a block
// that scopes its names gets a copy.
func spanInputs(body []node, locals map[string]string) {
	for _, n := range body {
		switch t := n.(type) {
		case *printNode:
			t.input = sourceOf(t.x, locals)
		case *forNode:
			inner := copyLocals(locals)
			bindTarget(t.target, sourceOf(t.iter, locals), inner)
			inner["loop"] = ""
			spanInputs(t.body, inner)
			spanInputs(t.els, copyLocals(locals))
		case *ifNode:
			for _, br := range t.branches {
				spanInputs(br.body, locals) // an if binds in its enclosing frame
			}
			spanInputs(t.els, locals)
		case *setNode:
			if t.target.attr == "" {
				bindTarget(t.target, sourceOf(t.val, locals), locals)
			}
		case *setBlockNode:
			spanInputs(t.body, copyLocals(locals))
			bindTarget(t.target, "", locals)
		case *macroNode:
			locals[t.name] = ""
			macroInputs(t, locals)
		case *callBlockNode:
			macroInputs(t.caller, locals)
		case *withNode:
			inner := copyLocals(locals)
			for k, tg := range t.targets {
				if k < len(t.vals) {
					bindTarget(tg, sourceOf(t.vals[k], locals), inner)
				}
			}
			spanInputs(t.body, inner)
		case *filterBlockNode:
			spanInputs(t.body, copyLocals(locals))
		}
	}
}

// macroInputs walks a macro's body, where its parameters and special names are no input.
func macroInputs(m *macroNode, locals map[string]string) {
	inner := copyLocals(locals)
	for _, p := range m.params {
		inner[p] = ""
	}
	for _, p := range []string{"caller", "varargs", "kwargs"} {
		inner[p] = ""
	}
	spanInputs(m.body, inner)
}

// sourceOf is the variable of the context x's value comes from, or "" (see spanInputs).
func sourceOf(x expr, locals map[string]string) string {
	for {
		switch t := x.(type) {
		case *nameExpr:
			if src, bound := locals[t.name]; bound {
				return src
			}
			return t.name
		case *getattrExpr:
			x = t.obj
		case *getitemExpr:
			x = t.obj
		case *filterExpr:
			x = t.obj
		case *callExpr: // {{ answer.strip() }}: the method's object
			g, ok := t.fn.(*getattrExpr)
			if !ok {
				return ""
			}
			x = g.obj
		default:
			return ""
		}
		if x == nil {
			return ""
		}
	}
}

// bindTarget records in locals that the names of target t stand for src.
func bindTarget(t target, src string, locals map[string]string) {
	if t.items == nil {
		locals[t.name] = src
		return
	}
	for _, it := range t.items {
		bindTarget(it, src, locals)
	}
}

func copyLocals(locals map[string]string) map[string]string {
	c := make(map[string]string, len(locals)+2)
	for k, v := range locals {
		c[k] = v
	}
	return c
}
