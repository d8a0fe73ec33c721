package parse

// The syntax tree of a Jinja template. Every node records pos, the byte offset of the token that
// names it (for the column in errors), and line, the line Jinja2 gives the node: Jinja reports
// a runtime error at the line of the statement or {{ }} child being executed, computed by its
// parser's own rules, so matching its line numbers means recording them the same way.

type exprBase struct {
	pos  int
	line int
	_    [0]func() // not comparable: the compiler then makes no equality function per node type
}

func (e *exprBase) base() *exprBase { return e }

type expr interface {
	base() *exprBase
}

type constExpr struct {
	exprBase
	val any
}

type nameExpr struct {
	exprBase
	name string
}

type getattrExpr struct {
	exprBase
	obj  expr
	attr string
}

type getitemExpr struct {
	exprBase
	obj expr
	key expr
}

// kwArg is one keyword argument of a call: name=value.
type kwArg struct {
	name  string
	value expr
	pos   int
	_     [0]func() // not comparable: no equality function in the wasm
}

// callExpr is fn(args, kwargs): a method, a global function or a macro.
type callExpr struct {
	exprBase
	fn     expr
	args   []expr
	kwargs []kwArg
}

// filterExpr is obj|name(args, kwargs); def is the filter, nil when it is unknown (an error
// when it runs: see parseFilterChain).
type filterExpr struct {
	exprBase
	obj    expr
	name   string
	args   []expr
	kwargs []kwArg
	def    *filterDef
}

// testExpr is obj is name(args, kwargs); def as in filterExpr.
type testExpr struct {
	exprBase
	obj    expr
	name   string
	args   []expr
	kwargs []kwArg
	def    *filterDef
}

type binExpr struct {
	exprBase
	op   string // + - * / // % **
	l, r expr
}

type concatExpr struct {
	exprBase
	args []expr
}

type operand struct {
	op  string // == != < <= > >= in notin
	val expr
	_   [0]func()
}

type compareExpr struct {
	exprBase
	first expr
	ops   []operand
}

type andExpr struct {
	exprBase
	l, r expr
}

type orExpr struct {
	exprBase
	l, r expr
}

type notExpr struct {
	exprBase
	x expr
}

type unaryExpr struct {
	exprBase
	op string // - or +
	x  expr
}

type listExpr struct {
	exprBase
	items []expr
}

// Statements.

type node interface{}

type textNode struct {
	text string
}

// printNode is one expression of a {{ }} tag; src is its trimmed source for Span.Expr, input
// the variable its value comes from for Span.Input (see spanInputs).
type printNode struct {
	x     expr
	src   string
	input string
	_     [0]func()
}

// target is an assignment target: a name, a namespace attribute name.attr (set only), or a
// tuple of targets when items is not nil.
type target struct {
	name  string
	attr  string
	items []target
	pos   int
}

type forNode struct {
	line, pos int
	target    target
	iter      expr
	test      expr // the loop filter: for x in xs if test
	recursive bool
	body, els []node

	bodyMissing, elseMissing []string // see scope.go
}

type ifBranch struct {
	line int
	cond expr
	body []node
}

type ifNode struct {
	branches []ifBranch
	els      []node
}

type setNode struct {
	line, pos int
	target    target
	val       expr
}

type tupleExpr struct {
	exprBase
	items []expr
}

type dictExpr struct {
	exprBase
	keys, vals []expr
}

// condExpr is `a if test else b`; b is nil without an else.
type condExpr struct {
	exprBase
	test, a, b expr
}

// sliceExpr is start:stop:step inside [ ]; each may be nil.
type sliceExpr struct {
	exprBase
	start, stop, step expr
}

// macroNode is {% macro %} and the caller of {% call %}: params with the defaults of the last
// len(defaults), and the special names the body reads (caller, varargs, kwargs).
type macroNode struct {
	line, pos    int
	name         string
	params       []string
	defaults     []expr
	body         []node
	usesCaller   bool
	catchVarargs bool
	catchKwargs  bool
	explicitCall bool // caller is one of params

	missing []string // see scope.go
}

type callBlockNode struct {
	line   int
	call   *callExpr
	caller *macroNode
}

type withNode struct {
	line, pos int
	targets   []target
	vals      []expr
	body      []node
	missing   []string
}

// filterBlockNode is {% filter %}: filter is a chain of filterExprs whose innermost obj is nil.
type filterBlockNode struct {
	line    int
	filter  expr
	body    []node
	missing []string
}

// setBlockNode is {% set x | filters %}…{% endset %}; filter may be nil.
type setBlockNode struct {
	line, pos int
	target    target
	filter    expr
	body      []node
	missing   []string
}
