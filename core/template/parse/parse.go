package parse

// The Jinja parser: recursive descent over the lexer's items, one function per rule of
// jinja2/parser.py with the same precedence, associativity and line numbers. Like
// text/template/parse, errors unwind with panic(*parseError) and are recovered in parse; nothing
// else is recovered.

import (
	"strings"

	"ragjudge/core/diag"
)

type parseError struct {
	pos  int
	line int
	msg  string
	name string // the unknown filter or test a compile error is about
	// inTag is set for an error that may be a "{{" or "{%" left open: the template ended, or
	// its end of tag was expected (parse then says where the tag was opened).
	inTag bool
	_     [0]func() // not comparable: no equality function in the wasm
}

type parser struct {
	src        string
	lex        *lexer
	cur        item
	ahead      []item
	depth      int
	endStack   [][]string // the end tags each open block is waiting for
	tagStack   []item     // the open block tags (their names, where they are)
	compileErr *parseError
	// soft is set while parsing an if statement (its tests and bodies, not a for loop's body
	// inside it): there Jinja compiles an unknown filter or test and raises only if it runs
	// (jinja2/compiler.py, Frame.soft_frame).
	soft bool
}

// parse parses a whole template. Syntax errors come first, then the first filter or test that
// Jinja would reject when compiling (an unknown or unsupported name), as in Jinja.
func parse(src string) (body []node, perr *parseError) {
	p := &parser{src: src, lex: newLexer(src)}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*parseError)
			if !ok {
				panic(r)
			}
			if e.inTag {
				e.msg += openTagNote(src, e.pos)
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
		panic(&parseError{pos: e.pos, line: lineAt(p.src, e.pos), msg: e.msg})
	}
	return prev
}

// look returns the item after the current one.
func (p *parser) look() item {
	if len(p.ahead) == 0 {
		it := p.lex.next()
		if it.typ == itemEOF && p.lex.err != nil {
			e := p.lex.err
			panic(&parseError{pos: e.pos, line: lineAt(p.src, e.pos), msg: e.msg})
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
	panic(&parseError{pos: it.pos, line: it.line, msg: msg, inTag: it.typ == itemEOF})
}

func (p *parser) fail(msg string) {
	p.failAt(p.cur, msg)
}

// enter guards recursion depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail("nesting deeper than " + itoa(maxDepth) + " levels")
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
		panic(&parseError{pos: p.cur.pos, line: p.cur.line, msg: msg, inTag: true})
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
	return "line " + itoa(line) + ", column " + itoa(col)
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
func (p *parser) subparse(endTags []string) []node {
	var body []node
	if endTags != nil {
		p.endStack = append(p.endStack, endTags)
		defer func() { p.endStack = p.endStack[:len(p.endStack)-1] }()
	}
	for {
		switch p.cur.typ {
		case itemEOF:
			return body
		case itemData:
			body = append(body, &textNode{text: p.cur.val})
			p.advance()
		case itemVarBegin:
			p.advance()
			start := p.cur.pos
			x := p.parseTuple(false)
			end := p.expectType(itemVarEnd, quote("end of print statement"))
			body = append(body, &printNode{x: x, src: pyStrip(p.src[start:max(start, end.pos)], nil, true, true)})
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
func (p *parser) parseStatement() []node {
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
		return []node{p.parseFor()}
	case "if":
		return []node{p.parseIf()}
	case "set":
		return []node{p.parseSet()}
	case "print":
		p.advance()
		var out []node
		for p.cur.typ != itemBlockEnd {
			if len(out) > 0 {
				p.expectOp(",")
			}
			start := p.cur.pos
			x := p.parseExpression(true)
			out = append(out, &printNode{x: x, src: p.src[start:p.cur.pos]})
		}
		return out
	case "macro":
		return []node{p.parseMacro()}
	case "call":
		return []node{p.parseCallBlock()}
	case "with":
		return []node{p.parseWith()}
	case "filter":
		return []node{p.parseFilterBlock()}
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
func (p *parser) parseStatements(endTags []string, dropNeedle bool) []node {
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
func (p *parser) parseFor() node {
	tok := p.expectName("for")
	tgt := p.parseAssignTarget(true, false, false)
	p.expectName("in")
	n := &forNode{line: tok.line, pos: tok.pos, target: tgt}
	compileErr := p.compileErr
	defer func() {
		// Jinja's compiler refuses any assignment to loop inside a for, before its body's errors.
		if line, pos := storesLoop([]node{n}); line > 0 && compileErr == nil {
			p.compileErr = &parseError{pos: pos, line: line, msg: "Can't assign to special loop variable in for-loop target"}
		}
	}()
	n.iter = p.parseTupleX(false, false, false)
	soft := p.soft
	p.soft = false
	defer func() { p.soft = soft }()
	if p.skipName("if") {
		n.test = p.parseExpression(true)
	}
	n.recursive = p.skipName("recursive")
	n.body = p.parseStatements([]string{"endfor", "else"}, false)
	if p.advance().val == "else" {
		n.els = p.parseStatements([]string{"endfor"}, true)
	}
	return n
}

// parseIf parses an if statement.
//
//	if = "if" tuple body { "elif" tuple body } ["else" body] "endif"
func (p *parser) parseIf() node {
	tok := p.expectName("if")
	n := &ifNode{}
	soft := p.soft
	p.soft = true
	defer func() { p.soft = soft }()
	line := tok.line
	for {
		cond := p.parseTuple(false)
		body := p.parseStatements([]string{"elif", "else", "endif"}, false)
		n.branches = append(n.branches, ifBranch{line: line, cond: cond, body: body})
		t := p.advance()
		if t.val == "elif" {
			line = p.cur.line
			continue
		}
		if t.val == "else" {
			n.els = p.parseStatements([]string{"endif"}, true)
		}
		return n
	}
}

// parseSet parses an assignment or a set block.
//
//	set = "set" target ( "=" tuple | [filters] body "endset" )
func (p *parser) parseSet() node {
	tok := p.advance()
	tgt := p.parseAssignTarget(true, false, true)
	if p.skipOp("=") {
		return &setNode{line: tok.line, pos: tok.pos, target: tgt, val: p.parseTupleX(false, true, false)}
	}
	n := &setBlockNode{line: tok.line, pos: tok.pos, target: tgt}
	if p.isOp("|") {
		n.filter = p.parseFilter(nil)
	}
	n.body = p.innerStatements([]string{"endset"})
	return n
}

// innerStatements parses the body of a block that is a frame of its own (not soft).
func (p *parser) innerStatements(end []string) []node {
	soft := p.soft
	p.soft = false
	defer func() { p.soft = soft }()
	return p.parseStatements(end, true)
}

// parseAssignTarget parses the target of a for, set or with, or a name alone.
//
//	target = name "." name | tuple of primaries | name
func (p *parser) parseAssignTarget(withTuple, nameOnly, withNamespace bool) target {
	if withNamespace && p.look().typ == itemOp && p.look().val == "." {
		tok := p.expectType(itemName, quote("name"))
		p.advance()
		attr := p.expectType(itemName, quote("name"))
		return target{name: tok.val, attr: attr.val, pos: tok.pos}
	}
	if nameOnly {
		tok := p.expectType(itemName, quote("name"))
		switch tok.val {
		case "true", "false", "none", "True", "False", "None":
			p.failAt(tok, "can't assign to 'name'")
		}
		return target{name: tok.val, pos: tok.pos}
	}
	var x expr
	if withTuple {
		x = p.parseTupleX(true, false, false)
	} else {
		x = p.parsePrimary()
	}
	return p.toTarget(x)
}

func (p *parser) toTarget(x expr) target {
	switch t := x.(type) {
	case *nameExpr:
		return target{name: t.name, pos: t.pos}
	case *tupleExpr:
		tg := target{items: []target{}, pos: t.pos}
		for _, it := range t.items {
			tg.items = append(tg.items, p.toTarget(it))
		}
		return tg
	}
	b := x.base()
	panic(&parseError{pos: b.pos, line: b.line, msg: "can't assign to " + quote(kindName(x))})
}

func kindName(x expr) string {
	switch x.(type) {
	case *constExpr:
		return "const"
	case *listExpr:
		return "list"
	case *getattrExpr:
		return "getattr"
	case *getitemExpr:
		return "getitem"
	case *callExpr:
		return "call"
	case *tupleExpr:
		return "tuple"
	case *dictExpr:
		return "dict"
	case *binExpr:
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
func (p *parser) parseTuple(explicitParens bool) expr {
	return p.parseTupleX(false, true, explicitParens)
}

// parseTupleX is Jinja's parse_tuple: simplified parses primaries only (assignment targets),
// condexpr allows inline ifs, explicitParens allows the empty tuple.
//
//	tuple = [ expression { "," expression } [","] ]
func (p *parser) parseTupleX(simplified, condexpr, explicitParens bool) expr {
	line, pos := p.cur.line, p.cur.pos
	var args []expr
	isTuple := false
	for {
		if len(args) > 0 {
			p.expectOp(",")
		}
		if p.isTupleEnd() {
			break
		}
		var x expr
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
	return &tupleExpr{exprBase{pos: pos, line: line}, args}
}

// parseExpression parses a full expression.
//
//	expression = or { "if" or [ "else" expression ] }    (the if part only with condexpr)
func (p *parser) parseExpression(withCondexpr bool) expr {
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
		if e := p.compileErr; e != compileErr && e.name != "" && !inList(jinjaFilters, e.name) && !inList(jinjaTests, e.name) {
			p.compileErr = compileErr
		}
	}
	for withCondexpr && p.isName("if") {
		tok := p.advance()
		c := &condExpr{exprBase: exprBase{pos: tok.pos, line: line}, a: x, test: p.parseOr()}
		if p.skipName("else") {
			c.b = p.parseExpression(true)
		}
		x = c
		line = p.cur.line
	}
	return x
}

// parseOr: or = and { "or" and }
func (p *parser) parseOr() expr {
	line := p.cur.line
	x := p.parseAnd()
	for p.isName("or") {
		pos := p.advance().pos
		x = &orExpr{exprBase{pos: pos, line: line}, x, p.parseAnd()}
		line = p.cur.line
	}
	return x
}

// parseAnd: and = not { "and" not }
func (p *parser) parseAnd() expr {
	line := p.cur.line
	x := p.parseNot()
	for p.isName("and") {
		pos := p.advance().pos
		x = &andExpr{exprBase{pos: pos, line: line}, x, p.parseNot()}
		line = p.cur.line
	}
	return x
}

// parseNot: not = "not" not | compare
func (p *parser) parseNot() expr {
	if p.isName("not") {
		p.enter()
		defer p.leave()
		tok := p.advance()
		return &notExpr{exprBase{pos: tok.pos, line: tok.line}, p.parseNot()}
	}
	return p.parseCompare()
}

// parseCompare: compare = math1 { ("=="|"!="|"<"|"<="|">"|">="|"in"|"not" "in") math1 }
func (p *parser) parseCompare() expr {
	line := p.cur.line
	pos := p.cur.pos
	first := p.parseMath1()
	var ops []operand
	for {
		switch {
		case p.cur.typ == itemOp && (p.cur.val == "==" || p.cur.val == "!=" || p.cur.val == "<" || p.cur.val == "<=" || p.cur.val == ">" || p.cur.val == ">="):
			op := p.advance()
			if len(ops) == 0 {
				pos = op.pos
			}
			ops = append(ops, operand{op: op.val, val: p.parseMath1()})
		case p.isName("in"):
			op := p.advance()
			if len(ops) == 0 {
				pos = op.pos
			}
			ops = append(ops, operand{op: "in", val: p.parseMath1()})
		case p.isName("not") && p.look().typ == itemName && p.look().val == "in":
			op := p.advance()
			p.advance()
			if len(ops) == 0 {
				pos = op.pos
			}
			ops = append(ops, operand{op: "notin", val: p.parseMath1()})
		default:
			if len(ops) == 0 {
				return first
			}
			return &compareExpr{exprBase{pos: pos, line: line}, first, ops}
		}
		line = p.cur.line
	}
}

// parseMath1: math1 = concat { ("+"|"-") concat }
func (p *parser) parseMath1() expr {
	line := p.cur.line
	x := p.parseConcat()
	for p.isOp("+") || p.isOp("-") {
		op := p.advance()
		x = &binExpr{exprBase{pos: op.pos, line: line}, op.val, x, p.parseConcat()}
		line = p.cur.line
	}
	return x
}

// parseConcat: concat = math2 { "~" math2 }
func (p *parser) parseConcat() expr {
	line := p.cur.line
	pos := p.cur.pos
	x := p.parseMath2()
	if !p.isOp("~") {
		return x
	}
	args := []expr{x}
	for p.isOp("~") {
		p.advance()
		args = append(args, p.parseMath2())
	}
	return &concatExpr{exprBase{pos: pos, line: line}, args}
}

// parseMath2: math2 = pow { ("*"|"/"|"//"|"%") pow }
func (p *parser) parseMath2() expr {
	line := p.cur.line
	x := p.parsePow()
	for p.isOp("*") || p.isOp("/") || p.isOp("//") || p.isOp("%") {
		op := p.advance()
		x = &binExpr{exprBase{pos: op.pos, line: line}, op.val, x, p.parsePow()}
		line = p.cur.line
	}
	return x
}

// parsePow: pow = unary { "**" unary }    (left-associative, as in Jinja)
func (p *parser) parsePow() expr {
	line := p.cur.line
	x := p.parseUnary(true)
	for p.isOp("**") {
		op := p.advance()
		x = &binExpr{exprBase{pos: op.pos, line: line}, "**", x, p.parseUnary(true)}
		line = p.cur.line
	}
	return x
}

// parseUnary: unary = ("-"|"+") unary-without-filters | primary postfix [filters]
func (p *parser) parseUnary(withFilter bool) expr {
	p.enter()
	defer p.leave()
	var x expr
	if p.isOp("-") || p.isOp("+") {
		op := p.advance()
		x = &unaryExpr{exprBase{pos: op.pos, line: op.line}, op.val, p.parseUnary(false)}
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
func (p *parser) parsePrimary() expr {
	p.enter()
	defer p.leave()
	tok := p.cur
	b := exprBase{pos: tok.pos, line: tok.line}
	switch tok.typ {
	case itemName:
		p.advance()
		switch tok.val {
		case "true", "True":
			return &constExpr{b, true}
		case "false", "False":
			return &constExpr{b, false}
		case "none", "None":
			return &constExpr{b, nil}
		}
		return &nameExpr{b, tok.val}
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
		return &constExpr{b, s}
	case itemInt:
		p.advance()
		v, ok := parseIntLiteral(tok.val)
		if !ok {
			p.failAt(tok, "integer literal longer than "+itoa(maxIntDigits)+" digits")
		}
		return &constExpr{b, v}
	case itemFloat:
		p.advance()
		return &constExpr{b, parseFloatLiteral(tok.val)}
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
func (p *parser) parseList() expr {
	tok := p.expectOp("[")
	n := &listExpr{exprBase: exprBase{pos: tok.pos, line: tok.line}}
	for !p.isOp("]") {
		if len(n.items) > 0 {
			p.expectOp(",")
		}
		if p.isOp("]") {
			break
		}
		n.items = append(n.items, p.parseExpression(true))
	}
	p.expectOp("]")
	return n
}

// parseDict: dict = "{" [ expression ":" expression { "," expression ":" expression } [","] ] "}"
func (p *parser) parseDict() expr {
	tok := p.expectOp("{")
	n := &dictExpr{exprBase: exprBase{pos: tok.pos, line: tok.line}}
	for !p.isOp("}") {
		if len(n.keys) > 0 {
			p.expectOp(",")
		}
		if p.isOp("}") {
			break
		}
		n.keys = append(n.keys, p.parseExpression(true))
		p.expectOp(":")
		n.vals = append(n.vals, p.parseExpression(true))
	}
	p.expectOp("}")
	return n
}

// parsePostfix: postfix = { "." (name | integer) | "[" subscript "]" | ".items" "(" ")" }
func (p *parser) parsePostfix(x expr) expr {
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
func (p *parser) parseFilterExpr(x expr) expr {
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
func (p *parser) parseSubscript(x expr) expr {
	p.enter()
	defer p.leave()
	tok := p.advance()
	if tok.val == "." {
		attr := p.cur
		p.advance()
		if attr.typ == itemName {
			return &getattrExpr{exprBase{pos: attr.pos, line: tok.line}, x, attr.val}
		}
		if attr.typ != itemInt {
			p.failAt(attr, "expected name or number")
		}
		v, ok := parseIntLiteral(attr.val)
		if !ok {
			p.failAt(attr, "integer literal too long")
		}
		return &getitemExpr{exprBase{pos: attr.pos, line: tok.line}, x, &constExpr{exprBase{pos: attr.pos, line: attr.line}, v}}
	}
	var keys []expr
	for !p.isOp("]") {
		if len(keys) > 0 {
			p.expectOp(",")
		}
		keys = append(keys, p.parseSubscribed())
	}
	p.expectOp("]")
	if len(keys) == 1 {
		return &getitemExpr{exprBase{pos: tok.pos, line: tok.line}, x, keys[0]}
	}
	return &getitemExpr{exprBase{pos: tok.pos, line: tok.line}, x, &tupleExpr{exprBase{pos: tok.pos, line: tok.line}, keys}}
}

// parseSubscribed: subscribed = expression | [expression] ":" [expression] [":" [expression]]
func (p *parser) parseSubscribed() expr {
	tok := p.cur
	var start expr
	if !p.isOp(":") {
		start = p.parseExpression(true)
		if !p.isOp(":") {
			return start
		}
	}
	p.advance()
	n := &sliceExpr{exprBase: exprBase{pos: tok.pos, line: tok.line}, start: start}
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		n.stop = p.parseExpression(true)
	}
	if p.skipOp(":") && !p.isOp("]") && !p.isOp(",") {
		n.step = p.parseExpression(true)
	}
	return n
}

// parseCallArgs parses a parenthesised argument list. *args and **kwargs are kept among the
// keyword arguments under the names "*" and "**", where they are evaluated in order.
//
//	args = "(" [ arg { "," arg } [","] ] ")"
//	arg = expression | name "=" expression | "*" expression | "**" expression
func (p *parser) parseCallArgs() ([]expr, []kwArg) {
	p.expectOp("(")
	var args []expr
	var kwargs []kwArg
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
			kwargs = append(kwargs, kwArg{name: tok.val, value: p.parseExpression(true), pos: tok.pos})
		case p.cur.typ == itemName && p.look().typ == itemOp && p.look().val == "=":
			if dynKwargs {
				p.fail("invalid syntax for function call expression")
			}
			p.advance()
			p.advance()
			p.noRepeat(kwargs, tok)
			kwargs = append(kwargs, kwArg{name: tok.val, value: p.parseExpression(true), pos: tok.pos})
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
func (p *parser) noRepeat(kw []kwArg, tok item) {
	for _, k := range kw {
		if k.name == tok.val && p.compileErr == nil {
			p.compileErr = &parseError{pos: tok.pos, line: tok.line, msg: "keyword argument repeated: " + tok.val + " (not supported: Jinja fails to compile it)"}
		}
	}
}

// parseCall parses a call of fn.
//
//	call = args
func (p *parser) parseCall(fn expr) expr {
	tok := p.cur
	args, kwargs := p.parseCallArgs()
	return &callExpr{exprBase{pos: tok.pos, line: tok.line}, fn, args, kwargs}
}

// parseFilter parses one or more filters applied to x.
//
//	filter = "|" name { "." name } [args]
func (p *parser) parseFilter(x expr) expr {
	return p.parseFilterChain(x, false)
}

// parseFilterChain is parseFilter whose first filter has no "|" when startInline ({% filter %}).
func (p *parser) parseFilterChain(x expr, startInline bool) expr {
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
		var args []expr
		var kwargs []kwArg
		if p.isOp("(") {
			args, kwargs = p.parseCallArgs()
		}
		def, ok := filterOf(name)
		if !ok && p.compileErr == nil && (!p.soft || inList(jinjaFilters, name)) {
			msg := "unknown filter " + quote(name)
			if inList(jinjaFilters, name) {
				msg = "not supported: the " + quote(name) + " filter"
			}
			p.compileErr = &parseError{pos: tok.pos, line: tok.line, msg: msg, name: name}
		}
		x = &filterExpr{exprBase{pos: tok.pos, line: tok.line}, x, name, args, kwargs, def}
	}
	return x
}

// parseTest parses a test.
//
//	test = "is" ["not"] name { "." name } [args | primary postfix]
func (p *parser) parseTest(x expr) expr {
	tok := p.advance()
	negated := p.skipName("not")
	nameTok := p.expectType(itemName, "a test name")
	name := nameTok.val
	for p.isOp(".") {
		p.advance()
		name += "." + p.expectType(itemName, "a name").val
	}
	var args []expr
	var kwargs []kwArg
	if p.isOp("(") {
		args, kwargs = p.parseCallArgs()
	} else if (p.cur.typ == itemName || p.cur.typ == itemString || p.cur.typ == itemInt || p.cur.typ == itemFloat || p.isOp("(") || p.isOp("[") || p.isOp("{")) &&
		!p.isName("else") && !p.isName("or") && !p.isName("and") {
		if p.isName("is") {
			p.fail("you cannot chain multiple tests with is")
		}
		args = []expr{p.parsePostfix(p.parsePrimary())}
	}
	def, ok := testOf(name)
	if !ok && p.compileErr == nil && (!p.soft || inList(jinjaTests, name)) {
		msg := "unknown test " + quote(name)
		if inList(jinjaTests, name) {
			msg = "not supported: the " + quote(name) + " test"
		}
		p.compileErr = &parseError{pos: nameTok.pos, line: nameTok.line, msg: msg, name: name}
	}
	var t expr = &testExpr{exprBase{pos: nameTok.pos, line: tok.line}, x, name, args, kwargs, def}
	if negated {
		t = &notExpr{exprBase{pos: tok.pos, line: tok.line}, t}
	}
	return t
}

// parseMacro parses a macro definition.
//
//	macro = "macro" name signature body "endmacro"
func (p *parser) parseMacro() node {
	tok := p.advance()
	m := &macroNode{line: tok.line, pos: tok.pos}
	m.name = p.parseAssignTarget(false, true, false).name
	p.parseSignature(m)
	m.body = p.innerStatements([]string{"endmacro"})
	p.finishMacro(m)
	return m
}

// parseSignature: signature = "(" [ name ["=" expression] { "," name ["=" expression] } ] ")"
func (p *parser) parseSignature(m *macroNode) {
	p.expectOp("(")
	for !p.isOp(")") {
		if len(m.params) > 0 {
			p.expectOp(",")
		}
		tok := p.cur
		name := p.parseAssignTarget(false, true, false).name
		if indexOf(m.params, name) >= 0 && p.compileErr == nil {
			p.compileErr = &parseError{pos: tok.pos, line: tok.line, msg: "duplicate argument '" + name + "' in a macro (not supported: Jinja fails to compile it)"}
		}
		if p.skipOp("=") {
			m.defaults = append(m.defaults, p.parseExpression(true))
		} else if len(m.defaults) > 0 {
			p.fail("non-default argument follows default argument")
		}
		m.params = append(m.params, name)
	}
	p.expectOp(")")
}

// finishMacro records which special names the body reads, as Jinja's compiler does.
func (p *parser) finishMacro(m *macroNode) {
	reads := map[string]int{}
	readsOf(m.body, reads)
	_, caller := reads["caller"]
	_, kwargs := reads["kwargs"]
	_, varargs := reads["varargs"]
	explicit := indexOf(m.params, "caller")
	if caller {
		if explicit >= 0 && explicit < len(m.params)-len(m.defaults) {
			if p.compileErr == nil {
				p.compileErr = &parseError{pos: m.pos, line: m.line, msg: "When defining macros or call blocks the special \"caller\" argument must be omitted or be given a default."}
			}
		}
		m.usesCaller = true
	}
	m.explicitCall = explicit >= 0
	m.catchKwargs = kwargs && indexOf(m.params, "kwargs") < 0
	m.catchVarargs = varargs && indexOf(m.params, "varargs") < 0
}

// parseCallBlock parses a call block.
//
//	callblock = "call" [signature] call body "endcall"
func (p *parser) parseCallBlock() node {
	tok := p.advance()
	m := &macroNode{line: tok.line, pos: tok.pos, name: "caller"}
	if p.isOp("(") {
		p.parseSignature(m)
	}
	c, ok := p.parseExpression(true).(*callExpr)
	if !ok {
		p.failAt(tok, "expected call")
	}
	p.noRepeat(c.kwargs, item{val: "caller", pos: c.pos, line: c.line})
	m.body = p.innerStatements([]string{"endcall"})
	p.finishMacro(m)
	return &callBlockNode{line: tok.line, call: c, caller: m}
}

// parseWith: with = "with" { target "=" expression [","] } body "endwith"
func (p *parser) parseWith() node {
	tok := p.advance()
	n := &withNode{line: tok.line, pos: tok.pos}
	for p.cur.typ != itemBlockEnd {
		if len(n.targets) > 0 {
			p.expectOp(",")
		}
		n.targets = append(n.targets, p.parseAssignTarget(true, false, false))
		p.expectOp("=")
		n.vals = append(n.vals, p.parseExpression(true))
	}
	n.body = p.innerStatements([]string{"endwith"})
	return n
}

// parseFilterBlock: filterblock = "filter" filters body "endfilter"
func (p *parser) parseFilterBlock() node {
	tok := p.advance()
	n := &filterBlockNode{line: tok.line}
	n.filter = p.parseFilterChain(nil, true)
	n.body = p.innerStatements([]string{"endfilter"})
	return n
}
