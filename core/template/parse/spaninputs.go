package parse

// MarkInputs sets the Input of every PrintNode: see spanInputs.
func (t *Tree) MarkInputs() { spanInputs(t.Root, map[string]string{}) }

// spanInputs sets the input of every {{ }} in body: the variable of the context its value comes
// from, so that a page can show which input each part of a rendered prompt is. It follows the
// expression's object down to a name ({{ question }}, {{ doc.title|upper }}, {{ items[0] }}):
// a name the template binds stands for what it was bound to (a for loop's variable for the list
// it walks, a set or with name for its value's source), and loop, a macro's parameters and a
// name bound to anything else stand for no input (""). What a render was not given (range,
// namespace) package template clears when it renders. locals maps the names bound so far to their source; a block
// that scopes its names gets a copy.
func spanInputs(body []Node, locals map[string]string) {
	for _, n := range body {
		switch t := n.(type) {
		case *PrintNode:
			t.Input = sourceOf(t.X, locals)
		case *ForNode:
			inner := copyLocals(locals)
			bindTarget(t.Target, sourceOf(t.Iter, locals), inner)
			inner["loop"] = ""
			spanInputs(t.Body, inner)
			spanInputs(t.Else, copyLocals(locals))
		case *IfNode:
			for _, br := range t.Branches {
				spanInputs(br.Body, locals) // an if binds in its enclosing frame
			}
			spanInputs(t.Else, locals)
		case *SetNode:
			if t.Target.Attr == "" {
				bindTarget(t.Target, sourceOf(t.Val, locals), locals)
			}
		case *SetBlockNode:
			spanInputs(t.Body, copyLocals(locals))
			bindTarget(t.Target, "", locals)
		case *MacroNode:
			locals[t.Name] = ""
			macroInputs(t, locals)
		case *CallBlockNode:
			macroInputs(t.Caller, locals)
		case *WithNode:
			inner := copyLocals(locals)
			for k, tg := range t.Targets {
				if k < len(t.Vals) {
					bindTarget(tg, sourceOf(t.Vals[k], locals), inner)
				}
			}
			spanInputs(t.Body, inner)
		case *FilterBlockNode:
			spanInputs(t.Body, copyLocals(locals))
		}
	}
}

// macroInputs walks a macro's body, where its parameters and special names are no input.
func macroInputs(m *MacroNode, locals map[string]string) {
	inner := copyLocals(locals)
	for _, p := range m.Params {
		inner[p] = ""
	}
	for _, p := range []string{"caller", "varargs", "kwargs"} {
		inner[p] = ""
	}
	spanInputs(m.Body, inner)
}

// sourceOf is the variable of the context x's value comes from, or "" (see spanInputs).
func sourceOf(x Expr, locals map[string]string) string {
	for {
		switch t := x.(type) {
		case *NameExpr:
			if src, bound := locals[t.Name]; bound {
				return src
			}
			return t.Name
		case *GetattrExpr:
			x = t.Obj
		case *GetitemExpr:
			x = t.Obj
		case *FilterExpr:
			x = t.Obj
		case *CallExpr: // {{ answer.strip() }}: the method's object
			g, ok := t.Fn.(*GetattrExpr)
			if !ok {
				return ""
			}
			x = g.Obj
		default:
			return ""
		}
		if x == nil {
			return ""
		}
	}
}

// bindTarget records in locals that the names of target t stand for src.
func bindTarget(t Target, src string, locals map[string]string) {
	if t.Items == nil {
		locals[t.Name] = src
		return
	}
	for _, it := range t.Items {
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
