package parse

// The syntax tree of a Jinja template. Every node records Pos, the byte offset of the token that
// names it (for the column in errors), and Line, the line Jinja2 gives the node: Jinja reports
// a runtime error at the line of the statement or {{ }} child being executed, computed by its
// parser's own rules, so matching its line numbers means recording them the same way.

// ExprBase is where an expression is: every expression type embeds it.
type ExprBase struct {
	Pos  int
	Line int
	_    [0]func() // not comparable: the compiler then makes no equality function per node type
}

// Base returns e, for Expr.
func (e *ExprBase) Base() *ExprBase { return e }

// Expr is an expression: one of the *…Expr types of this file.
type Expr interface {
	Base() *ExprBase
}

// ConstExpr is a literal: Val is nil, a bool, a string, an int64, an *exact.Int (an integer
// beyond int64) or a float64.
type ConstExpr struct {
	ExprBase
	Val any
}

// NameExpr is a name read: a variable, a global, loop.
type NameExpr struct {
	ExprBase
	Name string
}

// GetattrExpr is Obj.Attr.
type GetattrExpr struct {
	ExprBase
	Obj  Expr
	Attr string
}

// GetitemExpr is Obj[Key], and Obj.0 (Key an integer ConstExpr).
type GetitemExpr struct {
	ExprBase
	Obj Expr
	Key Expr
}

// KwArg is one keyword argument of a call: Name=Value, or *Value and **Value under the names
// "*" and "**" (see parseCallArgs).
type KwArg struct {
	Name  string
	Value Expr
	Pos   int
	_     [0]func() // not comparable: no equality function in the wasm
}

// CallExpr is Fn(Args, Kwargs): a method, a global function or a macro.
type CallExpr struct {
	ExprBase
	Fn     Expr
	Args   []Expr
	Kwargs []KwArg
}

// FilterExpr is Obj|Name(Args, Kwargs); Def is the filter as Funcs.Filter resolved it, nil
// when it is unknown (an error when it runs: see parseFilterChain).
type FilterExpr struct {
	ExprBase
	Obj    Expr
	Name   string
	Args   []Expr
	Kwargs []KwArg
	Def    any
}

// TestExpr is Obj is Name(Args, Kwargs); Def as in FilterExpr, from Funcs.Test.
type TestExpr struct {
	ExprBase
	Obj    Expr
	Name   string
	Args   []Expr
	Kwargs []KwArg
	Def    any
}

// BinExpr is an arithmetic operator: Left Op Right.
type BinExpr struct {
	ExprBase
	Op          string // + - * / // % **
	Left, Right Expr
}

// ConcatExpr is Args joined by ~.
type ConcatExpr struct {
	ExprBase
	Args []Expr
}

// Operand is one comparison of a CompareExpr: Op and its right-hand side.
type Operand struct {
	Op  string // == != < <= > >= in notin
	Val Expr
	_   [0]func()
}

// CompareExpr is a chain of comparisons, First Ops[0].Op Ops[0].Val Ops[1].Op …, as in Python.
type CompareExpr struct {
	ExprBase
	First Expr
	Ops   []Operand
}

// AndExpr is Left and Right.
type AndExpr struct {
	ExprBase
	Left, Right Expr
}

// OrExpr is Left or Right.
type OrExpr struct {
	ExprBase
	Left, Right Expr
}

// NotExpr is not X.
type NotExpr struct {
	ExprBase
	X Expr
}

// UnaryExpr is -X or +X.
type UnaryExpr struct {
	ExprBase
	Op string // - or +
	X  Expr
}

// ListExpr is [Items].
type ListExpr struct {
	ExprBase
	Items []Expr
}

// Statements.

// Node is a statement: one of the *…Node types of this file.
type Node interface{}

// TextNode is template data, printed as it is.
type TextNode struct {
	Text string
}

// PrintNode is one expression of a {{ }} tag (or of {% print %}); Src is its trimmed source,
// Input the variable its value comes from, set by MarkInputs (see spanInputs).
type PrintNode struct {
	X     Expr
	Src   string
	Input string
	_     [0]func()
}

// Target is an assignment target: a name, a namespace attribute Name.Attr (set only), or a
// tuple of targets when Items is not nil.
type Target struct {
	Name  string
	Attr  string
	Items []Target
	Pos   int
}

// ForNode is {% for Target in Iter if Test recursive %}Body{% else %}Else{% endfor %}.
type ForNode struct {
	Line, Pos  int
	Target     Target
	Iter       Expr
	Test       Expr // the loop filter: for x in xs if test
	Recursive  bool
	Body, Else []Node

	BodyMissing, ElseMissing []string // the names each frame starts as missing (see scope.go)
}

// IfBranch is the if or one elif of an IfNode: its condition and its body.
type IfBranch struct {
	Line int
	Cond Expr
	Body []Node
}

// IfNode is {% if %}, its {% elif %}s and its {% else %}.
type IfNode struct {
	Branches []IfBranch
	Else     []Node
}

// SetNode is {% set Target = Val %}.
type SetNode struct {
	Line, Pos int
	Target    Target
	Val       Expr
}

// TupleExpr is a tuple: (Items) or Items separated by commas.
type TupleExpr struct {
	ExprBase
	Items []Expr
}

// DictExpr is {Keys[0]: Vals[0], …}.
type DictExpr struct {
	ExprBase
	Keys, Vals []Expr
}

// CondExpr is `Then if Test else Else`; Else is nil without an else.
type CondExpr struct {
	ExprBase
	Test, Then, Else Expr
}

// SliceExpr is Start:Stop:Step inside [ ]; each may be nil.
type SliceExpr struct {
	ExprBase
	Start, Stop, Step Expr
}

// MacroNode is {% macro %} and the caller of {% call %}: Params with the defaults of the last
// len(Defaults), and the special names the body reads (caller, varargs, kwargs).
type MacroNode struct {
	Line, Pos    int
	Name         string
	Params       []string
	Defaults     []Expr
	Body         []Node
	UsesCaller   bool
	CatchVarargs bool
	CatchKwargs  bool
	ExplicitCall bool // caller is one of params

	Missing []string // the names the macro's frame starts as missing (see scope.go)
}

// CallBlockNode is {% call %}: Call, with Caller the macro its body makes.
type CallBlockNode struct {
	Line   int
	Call   *CallExpr
	Caller *MacroNode
}

// WithNode is {% with Targets[0] = Vals[0], … %}Body{% endwith %}.
type WithNode struct {
	Line, Pos int
	Targets   []Target
	Vals      []Expr
	Body      []Node
	Missing   []string
}

// FilterBlockNode is {% filter %}: Filter is a chain of FilterExprs whose innermost Obj is nil.
type FilterBlockNode struct {
	Line    int
	Filter  Expr
	Body    []Node
	Missing []string
}

// SetBlockNode is {% set x | filters %}…{% endset %}; Filter may be nil.
type SetBlockNode struct {
	Line, Pos int
	Target    Target
	Filter    Expr
	Body      []Node
	Missing   []string
}
