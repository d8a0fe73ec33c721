package parse

// Walking the syntax tree: the children of each node and expression, for the analyses that look
// at every name (which special names a macro reads, which names a template reads).

// subExprs calls f on each direct sub-expression of x.
func subExprs(x Expr, f func(Expr)) {
	each := func(xs ...Expr) {
		for _, c := range xs {
			if c != nil {
				f(c)
			}
		}
	}
	kw := func(ks []KwArg) {
		for _, k := range ks {
			f(k.Value)
		}
	}
	switch t := x.(type) {
	case *GetattrExpr:
		each(t.Obj)
	case *GetitemExpr:
		each(t.Obj, t.Key)
	case *CallExpr:
		each(t.Fn)
		each(t.Args...)
		kw(t.Kwargs)
	case *FilterExpr:
		each(t.Obj)
		each(t.Args...)
		kw(t.Kwargs)
	case *TestExpr:
		each(t.Obj)
		each(t.Args...)
		kw(t.Kwargs)
	case *BinExpr:
		each(t.Left, t.Right)
	case *ConcatExpr:
		each(t.Args...)
	case *CompareExpr:
		each(t.First)
		for _, o := range t.Ops {
			each(o.Val)
		}
	case *AndExpr:
		each(t.Left, t.Right)
	case *OrExpr:
		each(t.Left, t.Right)
	case *NotExpr:
		each(t.X)
	case *UnaryExpr:
		each(t.X)
	case *ListExpr:
		each(t.Items...)
	case *TupleExpr:
		each(t.Items...)
	case *DictExpr:
		for i := range t.Keys {
			each(t.Keys[i], t.Vals[i])
		}
	case *CondExpr:
		each(t.Test, t.Then, t.Else)
	case *SliceExpr:
		each(t.Start, t.Stop, t.Step)
	}
}

// nodeParts calls fx on each expression of statement n and fb on each body inside it.
func nodeParts(n Node, fx func(Expr), fb func([]Node)) {
	switch t := n.(type) {
	case *PrintNode:
		fx(t.X)
	case *ForNode:
		fx(t.Iter)
		if t.Test != nil {
			fx(t.Test)
		}
		fb(t.Body)
		fb(t.Else)
	case *IfNode:
		for _, br := range t.Branches {
			fx(br.Cond)
			fb(br.Body)
		}
		fb(t.Else)
	case *SetNode:
		fx(t.Val)
	case *SetBlockNode:
		if t.Filter != nil {
			fx(t.Filter)
		}
		fb(t.Body)
	case *MacroNode:
		for _, d := range t.Defaults {
			fx(d)
		}
		fb(t.Body)
	case *CallBlockNode:
		fx(t.Call)
		nodeParts(t.Caller, fx, fb)
	case *WithNode:
		for _, v := range t.Vals {
			fx(v)
		}
		fb(t.Body)
	case *FilterBlockNode:
		fx(t.Filter)
		fb(t.Body)
	}
}

// readsOf records in reads the first offset of every name an expression in body loads, nested
// blocks included.
func readsOf(body []Node, reads map[string]int) {
	var visit func(x Expr)
	visit = func(x Expr) {
		if n, ok := x.(*NameExpr); ok {
			if _, seen := reads[n.Name]; !seen || n.Pos < reads[n.Name] {
				reads[n.Name] = n.Pos
			}
		}
		subExprs(x, visit)
	}
	for _, n := range body {
		nodeParts(n, visit, func(b []Node) { readsOf(b, reads) })
	}
}

// storesLoop finds an assignment to the name loop in body (a for or set target, nested blocks
// included): its line and offset, or 0, -1.
func storesLoop(body []Node) (int, int) {
	var line, pos int
	var inTarget func(t Target, l int)
	inTarget = func(t Target, l int) {
		if t.Name == "loop" && t.Attr == "" && line == 0 {
			line, pos = l, t.Pos
		}
		for _, it := range t.Items {
			inTarget(it, l)
		}
	}
	for _, n := range body {
		switch t := n.(type) {
		case *ForNode:
			inTarget(t.Target, t.Line)
		case *SetNode:
			inTarget(t.Target, t.Line)
		case *SetBlockNode:
			inTarget(t.Target, t.Line)
		}
		nodeParts(n, func(Expr) {}, func(b []Node) {
			if l, p := storesLoop(b); line == 0 && l > 0 {
				line, pos = l, p
			}
		})
	}
	return line, pos
}
