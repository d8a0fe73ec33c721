package parse

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

// nodeParts calls fx on each expression of statement n and fb on each body inside it.
func nodeParts(n node, fx func(expr), fb func([]node)) {
	switch t := n.(type) {
	case *printNode:
		fx(t.x)
	case *forNode:
		fx(t.iter)
		if t.test != nil {
			fx(t.test)
		}
		fb(t.body)
		fb(t.els)
	case *ifNode:
		for _, br := range t.branches {
			fx(br.cond)
			fb(br.body)
		}
		fb(t.els)
	case *setNode:
		fx(t.val)
	case *setBlockNode:
		if t.filter != nil {
			fx(t.filter)
		}
		fb(t.body)
	case *macroNode:
		for _, d := range t.defaults {
			fx(d)
		}
		fb(t.body)
	case *callBlockNode:
		fx(t.call)
		nodeParts(t.caller, fx, fb)
	case *withNode:
		for _, v := range t.vals {
			fx(v)
		}
		fb(t.body)
	case *filterBlockNode:
		fx(t.filter)
		fb(t.body)
	}
}

// readsOf records in reads the first offset of every name an expression in body loads, nested
// blocks included.
func readsOf(body []node, reads map[string]int) {
	var visit func(x expr)
	visit = func(x expr) {
		if n, ok := x.(*nameExpr); ok {
			if _, seen := reads[n.name]; !seen || n.pos < reads[n.name] {
				reads[n.name] = n.pos
			}
		}
		subExprs(x, visit)
	}
	for _, n := range body {
		nodeParts(n, visit, func(b []node) { readsOf(b, reads) })
	}
}

// storesLoop finds an assignment to the name loop in body (a for or set target, nested blocks
// included): its line and offset, or 0, -1.
func storesLoop(body []node) (int, int) {
	var line, pos int
	var inTarget func(t target, l int)
	inTarget = func(t target, l int) {
		if t.name == "loop" && t.attr == "" && line == 0 {
			line, pos = l, t.pos
		}
		for _, it := range t.items {
			inTarget(it, l)
		}
	}
	for _, n := range body {
		switch t := n.(type) {
		case *forNode:
			inTarget(t.target, t.line)
		case *setNode:
			inTarget(t.target, t.line)
		case *setBlockNode:
			inTarget(t.target, t.line)
		}
		nodeParts(n, func(expr) {}, func(b []node) {
			if l, p := storesLoop(b); line == 0 && l > 0 {
				line, pos = l, p
			}
		})
	}
	return line, pos
}
