package template

// Walking the syntax tree: the children of each node and expression, for the analyses that look
// at every name (which special names a macro reads, which names a template reads).

// subExprs calls f on each direct sub-expression of x.
func subExprs(x expr, f func(expr)) {
	each := func(xs ...expr) {
		for _, c := range xs {
			if c != nil {
				f(c)
			}
		}
	}
	kw := func(ks []kwArg) {
		for _, k := range ks {
			f(k.value)
		}
	}
	switch t := x.(type) {
	case *getattrExpr:
		each(t.obj)
	case *getitemExpr:
		each(t.obj, t.key)
	case *callExpr:
		each(t.fn)
		each(t.args...)
		kw(t.kwargs)
	case *filterExpr:
		each(t.obj)
		each(t.args...)
		kw(t.kwargs)
	case *testExpr:
		each(t.obj)
		each(t.args...)
		kw(t.kwargs)
	case *binExpr:
		each(t.l, t.r)
	case *concatExpr:
		each(t.args...)
	case *compareExpr:
		each(t.first)
		for _, o := range t.ops {
			each(o.val)
		}
	case *andExpr:
		each(t.l, t.r)
	case *orExpr:
		each(t.l, t.r)
	case *notExpr:
		each(t.x)
	case *unaryExpr:
		each(t.x)
	case *listExpr:
		each(t.items...)
	case *tupleExpr:
		each(t.items...)
	case *dictExpr:
		for i := range t.keys {
			each(t.keys[i], t.vals[i])
		}
	case *condExpr:
		each(t.test, t.a, t.b)
	case *sliceExpr:
		each(t.start, t.stop, t.step)
	}
}

// readsOf adds to reads every name an expression in body loads, nested blocks included.
func readsOf(body []node, reads map[string]bool) {
	var visit func(x expr)
	visit = func(x expr) {
		if n, ok := x.(*nameExpr); ok {
			reads[n.name] = true
		}
		subExprs(x, visit)
	}
	for _, n := range body {
		switch t := n.(type) {
		case *printNode:
			visit(t.x)
		case *forNode:
			visit(t.iter)
			if t.test != nil {
				visit(t.test)
			}
			readsOf(t.body, reads)
			readsOf(t.els, reads)
		case *ifNode:
			for _, br := range t.branches {
				visit(br.cond)
				readsOf(br.body, reads)
			}
			readsOf(t.els, reads)
		case *setNode:
			visit(t.val)
			if t.target.attr != "" {
				reads[t.target.name] = true
			}
		case *setBlockNode:
			if t.filter != nil {
				visit(t.filter)
			}
			if t.target.attr != "" {
				reads[t.target.name] = true
			}
			readsOf(t.body, reads)
		case *macroNode:
			for _, d := range t.defaults {
				visit(d)
			}
			readsOf(t.body, reads)
		case *callBlockNode:
			visit(t.call)
			for _, d := range t.caller.defaults {
				visit(d)
			}
			readsOf(t.caller.body, reads)
		case *withNode:
			for _, v := range t.vals {
				visit(v)
			}
			readsOf(t.body, reads)
		case *filterBlockNode:
			visit(t.filter)
			readsOf(t.body, reads)
		}
	}
}
