// Package parse reads a Jinja template into a syntax tree, as text/template/parse does for Go's
// templates: a state-function lexer (lex.go), the tree's nodes (ast.go) and a recursive-descent
// parser (this file) that follow jinja2/lexer.py and jinja2/parser.py rule for rule, with their
// line numbers and their wording of errors. Parse also does what Jinja's compiler does before
// a template runs and that depends on the source alone: it resolves each filter and test to its
// definition (an unknown one is a compile error, as in Jinja), and runs Jinja's symbol analysis
// (scope.go), which decides the names each frame starts as missing. Evaluating the tree is
// package template's.
package parse

// The parser: recursive descent over the lexer's items, one function per rule of
// jinja2/parser.py with the same precedence, associativity and line numbers. Like
// text/template/parse, errors unwind with panic(*Error) and are recovered in Parse; nothing
// else is recovered.

import (
	"slices"
	"strconv"
	"strings"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/core/template/pystr"
)

// The parser's caps: a hostile template ends in an error at the position where it met one.
const (
	// MaxDepth is how deep the parser's recursion may nest: expressions and blocks.
	MaxDepth = 64
	// MaxIntDigits is Python's own limit for int <-> str conversion; an integer literal longer
	// than that is an error.
	MaxIntDigits = 4300
)

// Tree is a parsed template: its statements, with every frame's symbols analysed.
type Tree struct {
	Root []Node
	// Missing are the names the template's own frame starts as missing (see scope.go); the
	// inner frames' are on their nodes (ForNode.BodyMissing, MacroNode.Missing…).
	Missing []string
	reads   []NameAt  // the names read from the context, in the order the analysis met them
	_       [0]func() // not comparable: no equality function in the wasm
}

// Funcs are the filters and tests a template may name. The parser resolves each use once and
// keeps the definition on its node (FilterExpr.Def, TestExpr.Def), so that a render never looks
// a name up.
type Funcs struct {
	// Filter and Test return the definition of the filter or test called name, or false when
	// there is none.
	Filter, Test func(name string) (def any, ok bool)
	// JinjaFilters and JinjaTests are the names of Jinja's built-in filters and tests that
	// Filter and Test do not know, each between spaces (" random "): naming one is an error
	// that says "not supported" rather than "unknown".
	JinjaFilters, JinjaTests string
}

// Error is a syntax error, or a compile error Jinja would raise before rendering (an unknown
// filter, an assignment to loop), at byte offset Pos of the source; Line is the line Jinja
// reports it at.
type Error struct {
	Pos  int
	Line int
	Msg  string
	name string // the unknown filter or test a compile error is about
	// inTag is set for an error that may be a "{{" or "{%" left open: the template ended, or
	// its end of tag was expected (Parse then says where the tag was opened).
	inTag bool
	_     [0]func() // not comparable: no equality function in the wasm
}

func (e *Error) Error() string { return e.Msg }

type parser struct {
	src        string
	funcs      *Funcs
	lex        *lexer
	cur        item
	ahead      []item
	depth      int
	endStack   [][]string // the end tags each open block is waiting for
	tagStack   []item     // the open block tags (their names, where they are)
	compileErr *Error
	// soft is set while parsing an if statement (its tests and bodies, not a for loop's body
	// inside it): there Jinja compiles an unknown filter or test and raises only if it runs
	// (jinja2/compiler.py, Frame.soft_frame).
	soft bool
}

// Parse parses src, a template as Jinja reads it (newlines normalised to "\n", one final
// newline dropped), and analyses its symbols. Syntax errors come first, then the first filter or
// test that Jinja would reject when compiling (an unknown or unsupported name), as in Jinja.
func Parse(src string, funcs *Funcs) (*Tree, *Error) {
	root, err := parse(src, funcs)
	if err != nil {
		return nil, err
	}
	t := &Tree{Root: root}
	syms := analyzeScopes(root)
	t.Missing, t.reads = syms.missingNames(), *syms.reads
	return t, nil
}

func parse(src string, funcs *Funcs) (body []Node, perr *Error) {
	p := &parser{src: src, funcs: funcs, lex: newLexer(src)}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			if e.inTag {
				e.Msg += openTagNote(src, e.Pos)
			}
			body, perr = nil, e
		}
	}()
	p.advance()
	body = p.subparse(nil)
	if p.compileErr != nil {
		return nil, p.compileErr
	}
	return body, nil
}

// jinja reports whether name is one of list's space-separated names (Funcs.JinjaFilters).
func jinja(list, name string) bool {
	return name != "" && !strings.Contains(name, " ") && strings.Contains(list, " "+name+" ")
}

// advance moves to the next item; a lexing error surfaces when the parser reaches it.
func (p *parser) advance() item {
	prev := p.cur
	if len(p.ahead) > 0 {
		p.cur = p.ahead[0]
		p.ahead = p.ahead[:copy(p.ahead, p.ahead[1:])]
	} else {
		p.cur = p.lex.next()
	}
	if p.cur.typ == itemEOF && p.lex.err != nil {
		e := p.lex.err
		panic(&Error{Pos: e.pos, Line: lineAt(p.src, e.pos), Msg: e.msg})
	}
	return prev
}

// look returns the item after the current one.
func (p *parser) look() item {
	if len(p.ahead) == 0 {
		it := p.lex.next()
		if it.typ == itemEOF && p.lex.err != nil {
			e := p.lex.err
			panic(&Error{Pos: e.pos, Line: lineAt(p.src, e.pos), Msg: e.msg})
		}
		p.ahead = append(p.ahead, it)
	}
	return p.ahead[0]
}

func lineAt(src string, pos int) int {
	if pos > len(src) {
		pos = len(src)
	}
	return 1 + strings.Count(src[:pos], "\n")
}

func (p *parser) failAt(it item, msg string) {
	panic(&Error{Pos: it.pos, Line: it.line, Msg: msg, inTag: it.typ == itemEOF})
}

func (p *parser) fail(msg string) {
	p.failAt(p.cur, msg)
}

// enter guards recursion depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.fail("nesting deeper than " + strconv.Itoa(MaxDepth) + " levels")
	}
}

func (p *parser) leave() { p.depth-- }

// describe names an item as Jinja's describe_token does.
func describe(it item) string {
	switch it.typ {
	case itemEOF:
		return "end of template"
	case itemVarEnd:
		return "end of print statement"
	case itemBlockEnd:
		return "end of statement block"
	case itemVarBegin:
		return "begin of print statement"
	case itemBlockBegin:
		return "begin of statement block"
	case itemName, itemOp:
		return it.val
	case itemString:
		return "string"
	case itemInt:
		return "integer"
	case itemFloat:
		return "float"
	case itemData:
		return "template data / text"
	}
	return "token"
}

func quote(s string) string { return `"` + s + `"` }

func (p *parser) isOp(op string) bool   { return p.cur.typ == itemOp && p.cur.val == op }
func (p *parser) isName(n string) bool  { return p.cur.typ == itemName && p.cur.val == n }
func (p *parser) skipOp(op string) bool { return p.isOp(op) && p.advanceTrue() }
func (p *parser) skipName(n string) bool {
	return p.isName(n) && p.advanceTrue()
}
func (p *parser) advanceTrue() bool { p.advance(); return true }

func (p *parser) expectOp(op string) item {
	if !p.isOp(op) {
		p.unexpected(quote(op))
	}
	return p.advance()
}

func (p *parser) expectName(n string) item {
	if !p.isName(n) {
		p.unexpected(quote(n))
	}
	return p.advance()
}

func (p *parser) expectType(t itemType, what string) item {
	if p.cur.typ != t {
		p.unexpected(what)
	}
	return p.advance()
}

func (p *parser) unexpected(want string) {
	if p.cur.typ == itemEOF {
		p.fail("unexpected end of template, expected " + want)
	}
	msg := "expected " + want + ", got " + quote(describe(p.cur))
	endOfTag := want == `"end of print statement"` || want == `"end of statement block"`
	if endOfTag && p.cur.typ != itemVarEnd && p.cur.typ != itemBlockEnd {
		// The tag runs on where it should have ended: it may be a "{{" or "{%" never closed.
		panic(&Error{Pos: p.cur.pos, Line: p.cur.line, Msg: msg, inTag: true})
	}
	p.fail(msg)
}

// openTagNote says where the "{{" or "{%" still open at byte offset pos of src was opened
// (`; the "{{" opened at line 2, column 3 is not closed`), or "" when no tag is open there. It
// lexes src again: it runs only for an error, and keeps the parser's hot path free of it.
func openTagNote(src string, pos int) string {
	l := newLexer(src)
	var open item
	for {
		it := l.next()
		if it.typ == itemEOF || it.pos > pos {
			break
		}
		switch it.typ {
		case itemVarBegin, itemBlockBegin:
			open = it
		case itemVarEnd, itemBlockEnd:
			open = item{}
		}
	}
	if open.typ == itemEOF {
		return ""
	}
	tag := "{{"
	if open.typ == itemBlockBegin {
		tag = "{%"
	}
	return "; the " + quote(tag) + " opened at " + at(src, open) + " is not closed"
}

// at is where it is in src, as a person reads it: "line 2, column 3".
func at(src string, it item) string {
	line, col := diag.Position(src, it.pos)
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
}

// closeNote is what an error about the innermost open block adds: ` to close "if" (opened at
// line 1, column 4)`, or "" outside any block.
func (p *parser) closeNote() string {
	if len(p.tagStack) == 0 || p.tagStack[len(p.tagStack)-1].val == "" {
		return ""
	}
	top := p.tagStack[len(p.tagStack)-1]
	return " to close " + quote(top.val) + " (opened at " + at(p.src, top) + ")"
}

// subparse parses template data and tags until one of endTags opens a tag, or the end.
//
//	body = { data | "{{" tuple "}}" | "{%" statement "%}" }
func (p *parser) subparse(endTags []string) []Node {
	var body []Node
	if endTags != nil {
		p.endStack = append(p.endStack, endTags)
		defer func() { p.endStack = p.endStack[:len(p.endStack)-1] }()
	}
	for {
		switch p.cur.typ {
		case itemEOF:
			return body
		case itemData:
			body = append(body, &TextNode{Text: p.cur.val})
			p.advance()
		case itemVarBegin:
			p.advance()
			start := p.cur.pos
			x := p.parseTuple(false)
			end := p.expectType(itemVarEnd, quote("end of print statement"))
			body = append(body, &PrintNode{X: x, Src: strings.TrimFunc(p.src[start:max(start, end.pos)], pystr.IsSpace)})
		case itemBlockBegin:
			p.advance()
			if endTags != nil && p.cur.typ == itemName {
				for _, t := range endTags {
					if p.cur.val == t {
						return body
					}
				}
			}
			body = append(body, p.parseStatement()...)
			p.expectType(itemBlockEnd, quote("end of statement block"))
		default:
			p.fail("unexpected " + quote(describe(p.cur)))
		}
	}
}

// parseStatement parses the tag after "{%".
//
//	statement = for | if | set
func (p *parser) parseStatement() []Node {
	p.enter()
	defer p.leave()
	tok := p.cur
	if tok.typ != itemName {
		p.fail("tag name expected")
	}
	p.tagStack = append(p.tagStack, tok)
	defer func() { p.tagStack = p.tagStack[:len(p.tagStack)-1] }()
	switch tok.val {
	case "for":
		return []Node{p.parseFor()}
	case "if":
		return []Node{p.parseIf()}
	case "set":
		return []Node{p.parseSet()}
	case "print":
		p.advance()
		var out []Node
		for p.cur.typ != itemBlockEnd {
			if len(out) > 0 {
				p.expectOp(",")
			}
			start := p.cur.pos
			x := p.parseExpression(true)
			out = append(out, &PrintNode{X: x, Src: p.src[start:p.cur.pos]})
		}
		return out
	case "macro":
		return []Node{p.parseMacro()}
	case "call":
		return []Node{p.parseCallBlock()}
	case "with":
		return []Node{p.parseWith()}
	case "filter":
		return []Node{p.parseFilterBlock()}
	case "extends", "include", "from", "import":
		p.fail("not supported: the {% " + tok.val + " %} tag (it needs a template loader, which ragjudge has not)")
	case "block":
		// Alone, a block prints its body, but in its own scope (no loop variables unless
		// scoped, self.blockname, super()): rules that only earn their keep with inheritance.
		p.fail("not supported: the {% block %} tag (blocks belong to template inheritance, which ragjudge has not)")
	case "autoescape":
		p.fail("not supported: the {% autoescape %} tag (ragjudge renders prompts, not HTML: autoescape is off)")
	}
	p.tagStack = p.tagStack[:len(p.tagStack)-1]
	defer func() { p.tagStack = append(p.tagStack, item{}) }()
	p.failUnknownTag(tok)
	return nil
}

// failUnknownTag reports a tag Jinja does not know, naming the end tags it was waiting for.
func (p *parser) failUnknownTag(tok item) {
	msg := "unknown tag " + quote(tok.val)
	if len(p.endStack) > 0 {
		want := p.endStack[len(p.endStack)-1]
		msg += "; expected " + joinQuoted(want) + p.closeNote()
	}
	p.failAt(tok, msg)
}

func joinQuoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, " or ")
}

// parseStatements parses a block's body after its opening tag.
//
//	statements = [":"] "%}" body
func (p *parser) parseStatements(endTags []string, dropNeedle bool) []Node {
	p.skipOp(":")
	p.expectType(itemBlockEnd, quote("end of statement block"))
	body := p.subparse(endTags)
	if p.cur.typ == itemEOF {
		p.fail("unexpected end of template; expected " + joinQuoted(endTags) + p.closeNote())
	}
	if dropNeedle {
		p.advance()
	}
	return body
}

// parseFor parses a for loop.
//
//	for = "for" target "in" expression body ["else" body] "endfor"
func (p *parser) parseFor() Node {
	tok := p.expectName("for")
	tgt := p.parseAssignTarget(true, false, false)
	p.expectName("in")
	n := &ForNode{Line: tok.line, Pos: tok.pos, Target: tgt}
	compileErr := p.compileErr
	defer func() {
		// Jinja's compiler refuses any assignment to loop inside a for, before its body's errors.
		if line, pos := storesLoop([]Node{n}); line > 0 && compileErr == nil {
			p.compileErr = &Error{Pos: pos, Line: line, Msg: "Can't assign to special loop variable in for-loop target"}
		}
	}()
	n.Iter = p.parseTupleX(false, false, false)
	soft := p.soft
	p.soft = false
	defer func() { p.soft = soft }()
	if p.skipName("if") {
		n.Test = p.parseExpression(true)
	}
	n.Recursive = p.skipName("recursive")
	n.Body = p.parseStatements([]string{"endfor", "else"}, false)
	if p.advance().val == "else" {
		n.Else = p.parseStatements([]string{"endfor"}, true)
	}
	return n
}

// parseIf parses an if statement.
//
//	if = "if" tuple body { "elif" tuple body } ["else" body] "endif"
func (p *parser) parseIf() Node {
	tok := p.expectName("if")
	n := &IfNode{}
	soft := p.soft
	p.soft = true
	defer func() { p.soft = soft }()
	line := tok.line
	for {
		cond := p.parseTuple(false)
		body := p.parseStatements([]string{"elif", "else", "endif"}, false)
		n.Branches = append(n.Branches, IfBranch{Line: line, Cond: cond, Body: body})
		t := p.advance()
		if t.val == "elif" {
			line = p.cur.line
			continue
		}
		if t.val == "else" {
			n.Else = p.parseStatements([]string{"endif"}, true)
		}
		return n
	}
}

// parseSet parses an assignment or a set block.
//
//	set = "set" target ( "=" tuple | [filters] body "endset" )
func (p *parser) parseSet() Node {
	tok := p.advance()
	tgt := p.parseAssignTarget(true, false, true)
	if p.skipOp("=") {
		return &SetNode{Line: tok.line, Pos: tok.pos, Target: tgt, Val: p.parseTupleX(false, true, false)}
	}
	n := &SetBlockNode{Line: tok.line, Pos: tok.pos, Target: tgt}
	if p.isOp("|") {
		n.Filter = p.parseFilter(nil)
	}
	n.Body = p.innerStatements([]string{"endset"})
	return n
}

// innerStatements parses the body of a block that is a frame of its own (not soft).
func (p *parser) innerStatements(end []string) []Node {
	soft := p.soft
	p.soft = false
	defer func() { p.soft = soft }()
	return p.parseStatements(end, true)
}

// parseAssignTarget parses the target of a for, set or with, or a name alone.
//
//	target = name "." name | tuple of primaries | name
func (p *parser) parseAssignTarget(withTuple, nameOnly, withNamespace bool) Target {
	if withNamespace && p.look().typ == itemOp && p.look().val == "." {
		tok := p.expectType(itemName, quote("name"))
		p.advance()
		attr := p.expectType(itemName, quote("name"))
		return Target{Name: tok.val, Attr: attr.val, Pos: tok.pos}
	}
	if nameOnly {
		tok := p.expectType(itemName, quote("name"))
		switch tok.val {
		case "true", "false", "none", "True", "False", "None":
			p.failAt(tok, "can't assign to 'name'")
		}
		return Target{Name: tok.val, Pos: tok.pos}
	}
	var x Expr
	if withTuple {
		x = p.parseTupleX(true, false, false)
	} else {
		x = p.parsePrimary()
	}
	return p.toTarget(x)
}

func (p *parser) toTarget(x Expr) Target {
	switch t := x.(type) {
	case *NameExpr:
		return Target{Name: t.Name, Pos: t.Pos}
	case *TupleExpr:
		tg := Target{Items: []Target{}, Pos: t.Pos}
		for _, it := range t.Items {
			tg.Items = append(tg.Items, p.toTarget(it))
		}
		return tg
	}
	b := x.Base()
	panic(&Error{Pos: b.Pos, Line: b.Line, Msg: "can't assign to " + quote(kindName(x))})
}

func kindName(x Expr) string {
	switch x.(type) {
	case *ConstExpr:
		return "const"
	case *ListExpr:
		return "list"
	case *GetattrExpr:
		return "getattr"
	case *GetitemExpr:
		return "getitem"
	case *CallExpr:
		return "call"
	case *TupleExpr:
		return "tuple"
	case *DictExpr:
		return "dict"
	case *BinExpr:
		return "operator"
	}
	return "expression"
}

// isTupleEnd reports whether a tuple ends at the current item. Jinja's is_tuple_end also takes
// extra end rules (the "in" of a for loop's target) but passes them to Token.test_any as one
// argument, so they never match: {% for k, in xs %} reads "in" as a second name and fails on
// xs. Matching its errors means ignoring them too.
func (p *parser) isTupleEnd() bool {
	return p.cur.typ == itemVarEnd || p.cur.typ == itemBlockEnd || p.isOp(")")
}

// parseTuple parses an expression or a tuple without parentheses.
func (p *parser) parseTuple(explicitParens bool) Expr {
	return p.parseTupleX(false, true, explicitParens)
}

// parseTupleX is Jinja's parse_tuple: simplified parses primaries only (assignment targets),
// condexpr allows inline ifs, explicitParens allows the empty tuple.
//
//	tuple = [ expression { "," expression } [","] ]
func (p *parser) parseTupleX(simplified, condexpr, explicitParens bool) Expr {
	line, pos := p.cur.line, p.cur.pos
	var args []Expr
	isTuple := false
	for {
		if len(args) > 0 {
			p.expectOp(",")
		}
		if p.isTupleEnd() {
			break
		}
		var x Expr
		if simplified {
			x = p.parsePrimary()
		} else {
			x = p.parseExpression(condexpr)
		}
		if !isTuple && !p.isOp(",") {
			return x // one expression, no tuple: no list made for it
		}
		args = append(args, x)
		if !p.isOp(",") {
			break
		}
		isTuple = true
		line = p.cur.line
	}
	if !isTuple {
		if len(args) > 0 {
			return args[0]
		}
		if !explicitParens {
			p.fail("expected an expression, got " + quote(describe(p.cur)))
		}
	}
	return &TupleExpr{ExprBase{Pos: pos, Line: line}, args}
}

// parseExpression parses a full expression.
//
//	expression = or { "if" or [ "else" expression ] }    (the if part only with condexpr)
func (p *parser) parseExpression(withCondexpr bool) Expr {
	p.enter()
	defer p.leave()
	line := p.cur.line
	compileErr := p.compileErr
	x := p.parseOr()
	if withCondexpr && p.isName("if") {
		// Jinja compiles an inline if's parts softly: an unknown filter or test in them fails
		// only if it runs (jinja2/compiler.py, visit_CondExpr).
		soft := p.soft
		p.soft = true
		defer func() { p.soft = soft }()
		if e := p.compileErr; e != compileErr && e.name != "" && !jinja(p.funcs.JinjaFilters, e.name) && !jinja(p.funcs.JinjaTests, e.name) {
			p.compileErr = compileErr
		}
	}
	for withCondexpr && p.isName("if") {
		tok := p.advance()
		c := &CondExpr{ExprBase: ExprBase{Pos: tok.pos, Line: line}, Then: x, Test: p.parseOr()}
		if p.skipName("else") {
			c.Else = p.parseExpression(true)
		}
		x = c
		line = p.cur.line
	}
	return x
}

// parseOr: or = and { "or" and }
func (p *parser) parseOr() Expr {
	line := p.cur.line
	x := p.parseAnd()
	for p.isName("or") {
		pos := p.advance().pos
		x = &OrExpr{ExprBase{Pos: pos, Line: line}, x, p.parseAnd()}
		line = p.cur.line
	}
	return x
}

// parseAnd: and = not { "and" not }
func (p *parser) parseAnd() Expr {
	line := p.cur.line
	x := p.parseNot()
	for p.isName("and") {
		pos := p.advance().pos
		x = &AndExpr{ExprBase{Pos: pos, Line: line}, x, p.parseNot()}
		line = p.cur.line
	}
	return x
}

// parseNot: not = "not" not | compare
func (p *parser) parseNot() Expr {
	if p.isName("not") {
		p.enter()
		defer p.leave()
		tok := p.advance()
		return &NotExpr{ExprBase{Pos: tok.pos, Line: tok.line}, p.parseNot()}
	}
	return p.parseCompare()
}

// parseCompare: compare = math1 { ("=="|"!="|"<"|"<="|">"|">="|"in"|"not" "in") math1 }
func (p *parser) parseCompare() Expr {
	line := p.cur.line
	pos := p.cur.pos
	first := p.parseMath1()
	var ops []Operand
	for {
		switch {
		case p.cur.typ == itemOp && (p.cur.val == "==" || p.cur.val == "!=" || p.cur.val == "<" || p.cur.val == "<=" || p.cur.val == ">" || p.cur.val == ">="):
			op := p.advance()
			if len(ops) == 0 {
				pos = op.pos
			}
			ops = append(ops, Operand{Op: op.val, Val: p.parseMath1()})
		case p.isName("in"):
			op := p.advance()
			if len(ops) == 0 {
				pos = op.pos
			}
			ops = append(ops, Operand{Op: "in", Val: p.parseMath1()})
		case p.isName("not") && p.look().typ == itemName && p.look().val == "in":
			op := p.advance()
			p.advance()
			if len(ops) == 0 {
				pos = op.pos
			}
			ops = append(ops, Operand{Op: "notin", Val: p.parseMath1()})
		default:
			if len(ops) == 0 {
				return first
			}
			return &CompareExpr{ExprBase{Pos: pos, Line: line}, first, ops}
		}
		line = p.cur.line
	}
}

// parseMath1: math1 = concat { ("+"|"-") concat }
func (p *parser) parseMath1() Expr {
	line := p.cur.line
	x := p.parseConcat()
	for p.isOp("+") || p.isOp("-") {
		op := p.advance()
		x = &BinExpr{ExprBase{Pos: op.pos, Line: line}, op.val, x, p.parseConcat()}
		line = p.cur.line
	}
	return x
}

// parseConcat: concat = math2 { "~" math2 }
func (p *parser) parseConcat() Expr {
	line := p.cur.line
	pos := p.cur.pos
	x := p.parseMath2()
	if !p.isOp("~") {
		return x
	}
	args := []Expr{x}
	for p.isOp("~") {
		p.advance()
		args = append(args, p.parseMath2())
	}
	return &ConcatExpr{ExprBase{Pos: pos, Line: line}, args}
}

// parseMath2: math2 = pow { ("*"|"/"|"//"|"%") pow }
func (p *parser) parseMath2() Expr {
	line := p.cur.line
	x := p.parsePow()
	for p.isOp("*") || p.isOp("/") || p.isOp("//") || p.isOp("%") {
		op := p.advance()
		x = &BinExpr{ExprBase{Pos: op.pos, Line: line}, op.val, x, p.parsePow()}
		line = p.cur.line
	}
	return x
}

// parsePow: pow = unary { "**" unary }    (left-associative, as in Jinja)
func (p *parser) parsePow() Expr {
	line := p.cur.line
	x := p.parseUnary(true)
	for p.isOp("**") {
		op := p.advance()
		x = &BinExpr{ExprBase{Pos: op.pos, Line: line}, "**", x, p.parseUnary(true)}
		line = p.cur.line
	}
	return x
}

// parseUnary: unary = ("-"|"+") unary-without-filters | primary postfix [filters]
func (p *parser) parseUnary(withFilter bool) Expr {
	p.enter()
	defer p.leave()
	var x Expr
	if p.isOp("-") || p.isOp("+") {
		op := p.advance()
		x = &UnaryExpr{ExprBase{Pos: op.pos, Line: op.line}, op.val, p.parseUnary(false)}
	} else {
		x = p.parsePrimary()
	}
	x = p.parsePostfix(x)
	if withFilter {
		x = p.parseFilterExpr(x)
	}
	return x
}

// parsePrimary parses a literal, a name or a bracketed expression.
//
//	primary = name | string {string} | integer | float | "(" expression ")" | list
func (p *parser) parsePrimary() Expr {
	p.enter()
	defer p.leave()
	tok := p.cur
	b := ExprBase{Pos: tok.pos, Line: tok.line}
	switch tok.typ {
	case itemName:
		p.advance()
		switch tok.val {
		case "true", "True":
			return &ConstExpr{b, true}
		case "false", "False":
			return &ConstExpr{b, false}
		case "none", "None":
			return &ConstExpr{b, nil}
		}
		return &NameExpr{b, tok.val}
	case itemString:
		p.advance()
		s := tok.val
		if p.cur.typ == itemString {
			var sb strings.Builder
			sb.WriteString(s)
			for p.cur.typ == itemString {
				sb.WriteString(p.advance().val)
			}
			s = sb.String()
		}
		return &ConstExpr{b, s}
	case itemInt:
		p.advance()
		v, ok := parseIntLiteral(tok.val)
		if !ok {
			p.failAt(tok, "integer literal longer than "+strconv.Itoa(MaxIntDigits)+" digits")
		}
		return &ConstExpr{b, v}
	case itemFloat:
		p.advance()
		return &ConstExpr{b, parseFloatLiteral(tok.val)}
	case itemOp:
		switch tok.val {
		case "(":
			p.advance()
			x := p.parseTuple(true)
			p.expectOp(")")
			return x
		case "[":
			return p.parseList()
		case "{":
			return p.parseDict()
		}
	}
	p.fail("unexpected " + quote(describe(tok)))
	return nil
}

// parseList: list = "[" [ expression { "," expression } [","] ] "]"
func (p *parser) parseList() Expr {
	tok := p.expectOp("[")
	n := &ListExpr{ExprBase: ExprBase{Pos: tok.pos, Line: tok.line}}
	for !p.isOp("]") {
		if len(n.Items) > 0 {
			p.expectOp(",")
		}
		if p.isOp("]") {
			break
		}
		n.Items = append(n.Items, p.parseExpression(true))
	}
	p.expectOp("]")
	return n
}

// parseDict: dict = "{" [ expression ":" expression { "," expression ":" expression } [","] ] "}"
func (p *parser) parseDict() Expr {
	tok := p.expectOp("{")
	n := &DictExpr{ExprBase: ExprBase{Pos: tok.pos, Line: tok.line}}
	for !p.isOp("}") {
		if len(n.Keys) > 0 {
			p.expectOp(",")
		}
		if p.isOp("}") {
			break
		}
		n.Keys = append(n.Keys, p.parseExpression(true))
		p.expectOp(":")
		n.Vals = append(n.Vals, p.parseExpression(true))
	}
	p.expectOp("}")
	return n
}

// parsePostfix: postfix = { "." (name | integer) | "[" subscript "]" | ".items" "(" ")" }
func (p *parser) parsePostfix(x Expr) Expr {
	for {
		switch {
		case p.isOp(".") || p.isOp("["):
			x = p.parseSubscript(x)
		case p.isOp("("):
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

// parseFilterExpr: filterexpr = { "|" filter | "is" test | call }
func (p *parser) parseFilterExpr(x Expr) Expr {
	for {
		switch {
		case p.isOp("|"):
			x = p.parseFilter(x)
		case p.isName("is"):
			x = p.parseTest(x)
		case p.isOp("("):
			x = p.parseCall(x)
		default:
			return x
		}
	}
}

// parseSubscript parses one attribute or item access.
//
//	subscript = "." name | "." integer | "[" expression "]"
func (p *parser) parseSubscript(x Expr) Expr {
	p.enter()
	defer p.leave()
	tok := p.advance()
	if tok.val == "." {
		attr := p.cur
		p.advance()
		if attr.typ == itemName {
			return &GetattrExpr{ExprBase{Pos: attr.pos, Line: tok.line}, x, attr.val}
		}
		if attr.typ != itemInt {
			p.failAt(attr, "expected name or number")
		}
		v, ok := parseIntLiteral(attr.val)
		if !ok {
			p.failAt(attr, "integer literal too long")
		}
		return &GetitemExpr{ExprBase{Pos: attr.pos, Line: tok.line}, x, &ConstExpr{ExprBase{Pos: attr.pos, Line: attr.line}, v}}
	}
	var keys []Expr
	for !p.isOp("]") {
		if len(keys) > 0 {
			p.expectOp(",")
		}
		keys = append(keys, p.parseSubscribed())
	}
	p.expectOp("]")
	if len(keys) == 1 {
		return &GetitemExpr{ExprBase{Pos: tok.pos, Line: tok.line}, x, keys[0]}
	}
	return &GetitemExpr{ExprBase{Pos: tok.pos, Line: tok.line}, x, &TupleExpr{ExprBase{Pos: tok.pos, Line: tok.line}, keys}}
}

// parseSubscribed: subscribed = expression | [expression] ":" [expression] [":" [expression]]
func (p *parser) parseSubscribed() Expr {
	tok := p.cur
	var start Expr
	if !p.isOp(":") {
		start = p.parseExpression(true)
		if !p.isOp(":") {
			return start
		}
	}
	p.advance()
	n := &SliceExpr{ExprBase: ExprBase{Pos: tok.pos, Line: tok.line}, Start: start}
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		n.Stop = p.parseExpression(true)
	}
	if p.skipOp(":") && !p.isOp("]") && !p.isOp(",") {
		n.Step = p.parseExpression(true)
	}
	return n
}

// parseCallArgs parses a parenthesised argument list. *args and **kwargs are kept among the
// keyword arguments under the names "*" and "**", where they are evaluated in order.
//
//	args = "(" [ arg { "," arg } [","] ] ")"
//	arg = expression | name "=" expression | "*" expression | "**" expression
func (p *parser) parseCallArgs() ([]Expr, []KwArg) {
	p.expectOp("(")
	var args []Expr
	var kwargs []KwArg
	dynArgs, dynKwargs := false, false
	for !p.isOp(")") {
		if len(args)+len(kwargs) > 0 {
			p.expectOp(",")
			if p.isOp(")") {
				break
			}
		}
		tok := p.cur
		switch {
		case p.isOp("*") || p.isOp("**"):
			if dynKwargs || dynArgs && tok.val == "*" {
				p.fail("invalid syntax for function call expression")
			}
			p.advance()
			dynArgs, dynKwargs = dynArgs || tok.val == "*", tok.val == "**"
			kwargs = append(kwargs, KwArg{Name: tok.val, Value: p.parseExpression(true), Pos: tok.pos})
		case p.cur.typ == itemName && p.look().typ == itemOp && p.look().val == "=":
			if dynKwargs {
				p.fail("invalid syntax for function call expression")
			}
			p.advance()
			p.advance()
			p.noRepeat(kwargs, tok)
			kwargs = append(kwargs, KwArg{Name: tok.val, Value: p.parseExpression(true), Pos: tok.pos})
		default:
			if len(kwargs) > 0 {
				p.fail("invalid syntax for function call expression")
			}
			args = append(args, p.parseExpression(true))
		}
	}
	p.expectOp(")")
	return args, kwargs
}

// noRepeat records Jinja's compile error for a keyword argument kw already has: Python's
// compiler rejects the code Jinja makes of it, at a line of that code, not of the template.
func (p *parser) noRepeat(kw []KwArg, tok item) {
	for _, k := range kw {
		if k.Name == tok.val && p.compileErr == nil {
			p.compileErr = &Error{Pos: tok.pos, Line: tok.line, Msg: "keyword argument repeated: " + tok.val + " (not supported: Jinja fails to compile it)"}
		}
	}
}

// parseCall parses a call of fn.
//
//	call = args
func (p *parser) parseCall(fn Expr) Expr {
	tok := p.cur
	args, kwargs := p.parseCallArgs()
	return &CallExpr{ExprBase{Pos: tok.pos, Line: tok.line}, fn, args, kwargs}
}

// parseFilter parses one or more filters applied to x.
//
//	filter = "|" name { "." name } [args]
func (p *parser) parseFilter(x Expr) Expr {
	return p.parseFilterChain(x, false)
}

// parseFilterChain is parseFilter whose first filter has no "|" when startInline ({% filter %}).
func (p *parser) parseFilterChain(x Expr, startInline bool) Expr {
	for p.isOp("|") || startInline {
		if !startInline {
			p.advance()
		}
		startInline = false
		tok := p.expectType(itemName, "a filter name")
		name := tok.val
		for p.isOp(".") {
			p.advance()
			name += "." + p.expectType(itemName, "a name").val
		}
		var args []Expr
		var kwargs []KwArg
		if p.isOp("(") {
			args, kwargs = p.parseCallArgs()
		}
		def, ok := p.funcs.Filter(name)
		if !ok && p.compileErr == nil && (!p.soft || jinja(p.funcs.JinjaFilters, name)) {
			msg := "unknown filter " + quote(name)
			if jinja(p.funcs.JinjaFilters, name) {
				msg = "not supported: the " + quote(name) + " filter"
			}
			p.compileErr = &Error{Pos: tok.pos, Line: tok.line, Msg: msg, name: name}
		}
		x = &FilterExpr{ExprBase{Pos: tok.pos, Line: tok.line}, x, name, args, kwargs, def}
	}
	return x
}

// parseTest parses a test.
//
//	test = "is" ["not"] name { "." name } [args | primary postfix]
func (p *parser) parseTest(x Expr) Expr {
	tok := p.advance()
	negated := p.skipName("not")
	nameTok := p.expectType(itemName, "a test name")
	name := nameTok.val
	for p.isOp(".") {
		p.advance()
		name += "." + p.expectType(itemName, "a name").val
	}
	var args []Expr
	var kwargs []KwArg
	if p.isOp("(") {
		args, kwargs = p.parseCallArgs()
	} else if (p.cur.typ == itemName || p.cur.typ == itemString || p.cur.typ == itemInt || p.cur.typ == itemFloat || p.isOp("(") || p.isOp("[") || p.isOp("{")) &&
		!p.isName("else") && !p.isName("or") && !p.isName("and") {
		if p.isName("is") {
			p.fail("you cannot chain multiple tests with is")
		}
		args = []Expr{p.parsePostfix(p.parsePrimary())}
	}
	def, ok := p.funcs.Test(name)
	if !ok && p.compileErr == nil && (!p.soft || jinja(p.funcs.JinjaTests, name)) {
		msg := "unknown test " + quote(name)
		if jinja(p.funcs.JinjaTests, name) {
			msg = "not supported: the " + quote(name) + " test"
		}
		p.compileErr = &Error{Pos: nameTok.pos, Line: nameTok.line, Msg: msg, name: name}
	}
	var t Expr = &TestExpr{ExprBase{Pos: nameTok.pos, Line: tok.line}, x, name, args, kwargs, def}
	if negated {
		t = &NotExpr{ExprBase{Pos: tok.pos, Line: tok.line}, t}
	}
	return t
}

// parseMacro parses a macro definition.
//
//	macro = "macro" name signature body "endmacro"
func (p *parser) parseMacro() Node {
	tok := p.advance()
	m := &MacroNode{Line: tok.line, Pos: tok.pos}
	m.Name = p.parseAssignTarget(false, true, false).Name
	p.parseSignature(m)
	m.Body = p.innerStatements([]string{"endmacro"})
	p.finishMacro(m)
	return m
}

// parseSignature: signature = "(" [ name ["=" expression] { "," name ["=" expression] } ] ")"
func (p *parser) parseSignature(m *MacroNode) {
	p.expectOp("(")
	for !p.isOp(")") {
		if len(m.Params) > 0 {
			p.expectOp(",")
		}
		tok := p.cur
		name := p.parseAssignTarget(false, true, false).Name
		if slices.Index(m.Params, name) >= 0 && p.compileErr == nil {
			p.compileErr = &Error{Pos: tok.pos, Line: tok.line, Msg: "duplicate argument '" + name + "' in a macro (not supported: Jinja fails to compile it)"}
		}
		if p.skipOp("=") {
			m.Defaults = append(m.Defaults, p.parseExpression(true))
		} else if len(m.Defaults) > 0 {
			p.fail("non-default argument follows default argument")
		}
		m.Params = append(m.Params, name)
	}
	p.expectOp(")")
}

// finishMacro records which special names the body reads, as Jinja's compiler does.
func (p *parser) finishMacro(m *MacroNode) {
	reads := map[string]int{}
	readsOf(m.Body, reads)
	_, caller := reads["caller"]
	_, kwargs := reads["kwargs"]
	_, varargs := reads["varargs"]
	explicit := slices.Index(m.Params, "caller")
	if caller {
		if explicit >= 0 && explicit < len(m.Params)-len(m.Defaults) {
			if p.compileErr == nil {
				p.compileErr = &Error{Pos: m.Pos, Line: m.Line, Msg: "When defining macros or call blocks the special \"caller\" argument must be omitted or be given a default."}
			}
		}
		m.UsesCaller = true
	}
	m.ExplicitCall = explicit >= 0
	m.CatchKwargs = kwargs && slices.Index(m.Params, "kwargs") < 0
	m.CatchVarargs = varargs && slices.Index(m.Params, "varargs") < 0
}

// parseCallBlock parses a call block.
//
//	callblock = "call" [signature] call body "endcall"
func (p *parser) parseCallBlock() Node {
	tok := p.advance()
	m := &MacroNode{Line: tok.line, Pos: tok.pos, Name: "caller"}
	if p.isOp("(") {
		p.parseSignature(m)
	}
	c, ok := p.parseExpression(true).(*CallExpr)
	if !ok {
		p.failAt(tok, "expected call")
	}
	p.noRepeat(c.Kwargs, item{val: "caller", pos: c.Pos, line: c.Line})
	m.Body = p.innerStatements([]string{"endcall"})
	p.finishMacro(m)
	return &CallBlockNode{Line: tok.line, Call: c, Caller: m}
}

// parseWith: with = "with" { target "=" expression [","] } body "endwith"
func (p *parser) parseWith() Node {
	tok := p.advance()
	n := &WithNode{Line: tok.line, Pos: tok.pos}
	for p.cur.typ != itemBlockEnd {
		if len(n.Targets) > 0 {
			p.expectOp(",")
		}
		n.Targets = append(n.Targets, p.parseAssignTarget(true, false, false))
		p.expectOp("=")
		n.Vals = append(n.Vals, p.parseExpression(true))
	}
	n.Body = p.innerStatements([]string{"endwith"})
	return n
}

// parseFilterBlock: filterblock = "filter" filters body "endfilter"
func (p *parser) parseFilterBlock() Node {
	tok := p.advance()
	n := &FilterBlockNode{Line: tok.line}
	n.Filter = p.parseFilterChain(nil, true)
	n.Body = p.innerStatements([]string{"endfilter"})
	return n
}

// parseIntLiteral reads a Jinja integer literal (underscores removed) as Python's int(s, 0).
func parseIntLiteral(s string) (any, bool) {
	if len(s) > MaxIntDigits {
		return nil, false
	}
	base := 10
	if len(s) > 1 && s[0] == '0' && strings.ContainsRune("bBoOxX", rune(s[1])) {
		base = 0
	}
	b, ok := new(exact.Int).SetString(s, base)
	if !ok {
		return nil, false
	}
	if b.IsInt64() {
		return b.Int64(), true
	}
	return b, true
}

// parseFloatLiteral reads a Jinja float literal; out of range is inf or 0, as in Python.
func parseFloatLiteral(s string) float64 {
	f, _ := exact.ParseFloat(s)
	return f
}
