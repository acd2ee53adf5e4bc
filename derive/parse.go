package derive

import (
	"fmt"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// SyntaxError is a definition rejected when it is registered: the
// scanner's or parser's complaint and the byte offset of the token where
// libpcp stopped. Msg is empty where libpcp gives no reason.
type SyntaxError struct {
	Name string
	Expr string
	Pos  int
	Msg  string

	call string // the failing call as the message names it
}

// Error formats the error as pmRegisterDerivedMetric does: the call, the
// expression, a caret under the offending token and the reason.
func (e *SyntaxError) Error() string {
	call := e.call
	if call == "" {
		call = "Error: pmRegisterDerivedMetric"
	}
	return e.format(call + "(\"" + e.Name + "\", ...)")
}

func (e *SyntaxError) format(head string) string {
	var b strings.Builder
	b.WriteString(head + "\n" + e.Expr + "\n")
	if e.Pos != 0 {
		// libpcp pads with a width of the offset's magnitude, so an
		// empty expression (offset -1) has its caret in column 1
		b.WriteString(strings.Repeat(" ", max(e.Pos, -e.Pos)))
	}
	b.WriteString("^\n")
	if e.Msg != "" {
		b.WriteString(e.Msg + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Unwrap makes every syntax error a pcp.ErrBadDerive.
func (e *SyntaxError) Unwrap() error { return pcp.ErrBadDerive }

// Parse parses a derived metric expression, reporting errors as
// pmRegisterDerived would for a metric called name.
func Parse(name, expr string) (*Node, error) {
	var p parser
	return p.run(name, expr)
}

// run parses expr with p, which may have parsed others before: its
// nodes come from its slab, which every tree it parses shares.
func (p *parser) run(name, expr string) (*Node, error) {
	if i := strings.IndexByte(expr, 0); i >= 0 {
		expr = expr[:i]
	}
	*p = parser{lex: lexer{src: expr}, name: name, slab: p.slab}
	p.frames = p.framesBuf[:0]
	n := p.parse()
	if p.err != nil {
		return nil, p.err
	}
	return n, nil
}

// check parses expr only to report its error: the tree is dropped and
// the slab's last block is taken back for the next check.
func (p *parser) check(name, expr string) error {
	_, err := p.run(name, expr)
	p.slab.block = p.slab.block[:0]
	return err
}

// nodeSlab hands out nodes cut from shared blocks: loading PCP's default
// definitions made 670 nodes an allocation each, half of the loading's
// allocations. Blocks double from slabFirst to slabMax nodes, so that a
// single small expression takes little.
type nodeSlab struct {
	block []Node
}

const (
	slabFirst = 8
	slabMax   = 128
)

// node returns a copy of n from the slab.
func (p *parser) node(n Node) *Node {
	s := &p.slab
	if len(s.block) == cap(s.block) {
		s.block = make([]Node, 0, min(max(2*cap(s.block), slabFirst), slabMax))
	}
	s.block = append(s.block, n)
	return &s.block[len(s.block)-1]
}

// parser is a precedence-climbing parser that reproduces the behaviour
// of libpcp's bison grammar on bad input. Bison reports the message of
// the innermost construct on its stack that has an error rule, at the
// token it could not use; frames mirrors those constructs.
type parser struct {
	lex    lexer
	name   string
	tok    token
	have   bool
	frames []frame
	err    *SyntaxError
	// framesBuf holds the frames of most expressions without a further
	// allocation.
	framesBuf [4]frame
	slab      nodeSlab
	// held counts the symbols on bison's stack: each token taken is
	// shifted onto it, and a construct parsed leaves one symbol for its
	// tokens. libpcp's parser gives up past bisonMaxDepth states; so
	// does this one, which also bounds its recursion (a million nested
	// parentheses overflowed Go's stack and ended the process).
	held int
}

// bisonMaxDepth is bison's default YYMAXDEPTH: its stack of states,
// the initial one included, never reaches it.
const bisonMaxDepth = 10000

// frame is one construct's error message, kept in parts and joined only
// when a parse fails: every parse pushes frames, few fail.
type frame struct {
	what, after, tail string // what + " expected to follow " + after + tail
}

func (f frame) String() string {
	if f.after == "" && f.tail == "" {
		return f.what
	}
	return f.what + " expected to follow " + f.after + f.tail
}

// abort unwinds the parse once an error is recorded.
type abort struct{}

func (p *parser) peek() token {
	if !p.have {
		p.tok = p.lex.next()
		p.have = true
	}
	return p.tok
}

func (p *parser) take() token {
	t := p.peek()
	p.have = false
	if p.held++; p.held+1 >= bisonMaxDepth {
		p.stop(t.pos, "") // bison's "memory exhausted", which libpcp does not print
	}
	return t
}

// fail stops at token t with the innermost frame's message (or the
// scanner's own complaint).
func (p *parser) fail(t token) {
	msg := ""
	if t.kind == tokError {
		msg = t.msg
	} else if len(p.frames) > 0 {
		msg = p.frames[len(p.frames)-1].String()
	}
	p.stop(t.pos, msg)
}

// stop records an error at pos, as the semantic actions of the grammar do.
func (p *parser) stop(pos int, msg string) {
	p.err = &SyntaxError{Name: p.name, Expr: p.lex.src, Pos: pos, Msg: msg}
	panic(abort{})
}

func (p *parser) push(f frame) { p.frames = append(p.frames, f) }
func (p *parser) pop()         { p.frames = p.frames[:len(p.frames)-1] }

func follow(what, after string) frame { return frame{what: what, after: after} }

const (
	aexpr = "Arithmetic expression"
	bexpr = "Boolean expression"
	opStr = "Arithmetic or relational or boolean operator"
)

// precedence levels, lowest first, as the grammar's %left lines declare
const (
	precQuest = 1 + iota
	precBool
	precNot
	precRel
	precAdd
	precMul
)

// binOps are the binary operators' tokens, their nodes and precedences
// (prec 0 for a token that is not one).
var binOps = [...]struct {
	op   Op
	prec int
}{
	tokPlus: {OpPlus, precAdd}, tokMinus: {OpMinus, precAdd},
	tokStar: {OpStar, precMul}, tokSlash: {OpSlash, precMul},
	tokLT: {OpLT, precRel}, tokLEQ: {OpLEQ, precRel}, tokEQ: {OpEQ, precRel},
	tokGEQ: {OpGEQ, precRel}, tokGT: {OpGT, precRel}, tokNEQ: {OpNEQ, precRel},
	tokAnd: {OpAnd, precBool}, tokOr: {OpOr, precBool},
	tokQuest: {OpQuest, precQuest},
}

// initialOps are the tokens whose appearance first in an expression has
// its own message.
var initialOps = [...]bool{
	tokPlus: true, tokStar: true, tokSlash: true, tokLParen: true, tokRParen: true,
	tokLT: true, tokLEQ: true, tokEQ: true, tokGEQ: true, tokGT: true, tokNEQ: true,
	tokAnd: true, tokOr: true, tokQuest: true, tokColon: true,
}

// nameFollow are the tokens after which a bare metric name is complete;
// bison merges them over every context an expression can appear in.
var nameFollow = [...]bool{
	tokEOS: true, tokPlus: true, tokMinus: true, tokStar: true, tokSlash: true,
	tokLT: true, tokLEQ: true, tokEQ: true, tokGEQ: true, tokGT: true, tokNEQ: true,
	tokAnd: true, tokOr: true, tokQuest: true, tokColon: true, tokRParen: true,
	tokLParen: true, tokComma: true,
}

func (p *parser) parse() (n *Node) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abort); !ok {
				panic(r)
			}
			n = nil
		}
	}()
	t := p.peek()
	if entry(initialOps[:], int(t.kind)) && t.kind != tokLParen {
		p.take()
		p.push(frame{what: fmt.Sprintf("Unexpected initial '%s'", t.text)})
		p.fail(p.peek())
	}
	n = p.expr(precQuest, true)
	switch t := p.peek(); t.kind {
	case tokEOS:
		return n
	case tokLParen, tokRParen:
		p.take()
		p.push(frame{what: fmt.Sprintf("Unexpected '%s'", t.text)})
		p.fail(p.peek())
	}
	p.fail(p.peek())
	return nil
}

// expr parses an expression whose operators bind at least as tightly as
// prec. initial says the expression starts the input.
func (p *parser) expr(prec int, initial bool) *Node {
	start := p.held
	left := p.unary(prec, initial)
	for {
		t := p.peek()
		b := entry(binOps[:], int(t.kind))
		ok := b.prec != 0
		if !ok || b.prec < prec {
			return left
		}
		p.take()
		if b.op == OpQuest {
			p.push(follow(aexpr, "QUEST"))
			mid := p.expr(precQuest, false)
			if p.peek().kind != tokColon {
				p.fail(p.peek())
			}
			p.take()
			p.pop()
			p.push(follow(aexpr, "COLON"))
			right := p.expr(precQuest+1, false)
			p.pop()
			left = p.node(Node{Op: OpQuest, Left: left, Right: p.node(Node{Op: OpColon, Left: mid, Right: right})})
			p.held = start + 1
			continue
		}
		what := aexpr
		if b.op.boolean() {
			what = bexpr
		}
		p.push(follow(what, entry(opName[:], int(b.op))))
		right := p.expr(b.prec+1, false)
		p.pop()
		left = p.node(Node{Op: b.op, Left: left, Right: right})
		p.held = start + 1
	}
}

func (p *parser) unary(prec int, initial bool) *Node {
	start := p.held
	// the operator and its operand, or a primary's tokens, reduce to one
	defer func() { p.held = start + 1 }()
	switch p.peek().kind {
	case tokMinus:
		p.take()
		p.push(follow(aexpr, "NEG"))
		// unary minus binds as tightly as binary minus
		n := p.node(Node{Op: OpNeg, Left: p.expr(precAdd+1, false)})
		p.pop()
		return n
	case tokNot:
		p.take()
		p.push(follow(bexpr, "NOT"))
		n := p.node(Node{Op: OpNot, Left: p.expr(precNot+1, false)})
		p.pop()
		return n
	}
	return p.primary(initial)
}

func (p *parser) primary(initial bool) *Node {
	t := p.peek()
	switch t.kind {
	case tokLParen:
		p.take()
		if initial {
			p.push(frame{what: "Unexpected initial '('"})
			defer p.pop()
		}
		n := p.expr(precQuest, false)
		if p.peek().kind != tokRParen {
			p.fail(p.peek())
		}
		p.take()
		if p.peek().kind == tokInstName {
			return p.node(Node{Op: OpInst, Left: n, Value: p.take().text, Paren: true})
		}
		return n
	case tokInteger, tokDouble:
		p.take()
		return p.constant(t)
	case tokName:
		p.take()
		n := p.node(Node{Op: OpName, Value: t.text})
		next := p.peek()
		if next.kind == tokInstName {
			p.take()
			return p.node(Node{Op: OpInst, Left: n, Value: next.text})
		}
		if !entry(nameFollow[:], int(next.kind)) {
			p.push(follow(opStr, "NAME"))
			p.fail(next)
		}
		return n
	case tokMkconst:
		return p.mkconst()
	case tokRescale:
		return p.rescale()
	case tokMatchinst:
		return p.matchinst()
	case tokScalar:
		p.take()
		p.take() // "("
		p.push(follow("<expr>", "scalar("))
		n := p.node(Node{Op: OpScalar, Left: p.expr(precQuest, false)})
		p.expect(tokRParen)
		p.pop()
		return n
	case tokAvg, tokCount, tokDefined, tokDelta, tokInstant, tokMax, tokMin, tokRate, tokSum, tokAnon:
		return p.function()
	}
	p.fail(t)
	return nil
}

func (p *parser) expect(k tokKind) token {
	if p.peek().kind != k {
		p.fail(p.peek())
	}
	return p.take()
}

var funcOps = [...]Op{
	tokAvg: OpAvg, tokCount: OpCount, tokDefined: OpDefined, tokDelta: OpDelta,
	tokInstant: OpInstant, tokMax: OpMax, tokMin: OpMin, tokRate: OpRate,
	tokSum: OpSum, tokAnon: OpAnon,
}

// anonType is the type anon() names. A switch, not a map the package's
// initialisation would build.
func anonType(name string) (pcp.Type, bool) {
	switch name {
	case "PM_TYPE_32":
		return pcp.Type32, true
	case "PM_TYPE_U32":
		return pcp.TypeU32, true
	case "PM_TYPE_64":
		return pcp.Type64, true
	case "PM_TYPE_U64":
		return pcp.TypeU64, true
	case "PM_TYPE_FLOAT":
		return pcp.TypeFloat, true
	case "PM_TYPE_DOUBLE":
		return pcp.TypeDouble, true
	}
	return 0, false
}

// function parses f(name), the functions whose operand is a metric name.
func (p *parser) function() *Node {
	t := p.take()
	p.take() // "("
	op := entry(funcOps[:], int(t.kind))
	if op != OpDefined { // the grammar has no error rule for defined(
		p.push(frame{what: "Metric name", after: t.text, tail: "("})
		defer p.pop()
	}
	name := p.expect(tokName)
	p.expect(tokRParen)
	n := p.node(Node{Op: op, Left: p.node(Node{Op: OpName, Value: name.text})})
	if op == OpAnon {
		typ, ok := anonType(name.text)
		if !ok {
			// libpcp goes on with a freed node here; refuse instead
			p.stop(name.pos, fmt.Sprintf("type=%s not allowed for anon()", name.text))
		}
		n.Desc = pcp.Desc{PMID: pcp.PMIDNull, Type: typ, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}
		n.Left = p.node(Node{Op: OpInteger, Value: "0", Desc: n.Desc})
	}
	return n
}

func (p *parser) constant(t token) *Node {
	n := p.node(Node{Op: OpInteger, Value: t.text,
		Desc: pcp.Desc{PMID: pcp.PMIDNull, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}})
	if t.kind == tokDouble {
		n.Op = OpDouble
		n.Desc.Type = pcp.TypeDouble
	}
	return n
}

func (p *parser) mkconst() *Node {
	p.take()
	p.take() // "("
	t := p.peek()
	if t.kind != tokInteger && t.kind != tokDouble {
		p.fail(t)
	}
	p.take()
	n := p.constant(t)
	p.expect(tokComma)
	for {
		p.spec(n)
		if p.peek().kind == tokComma {
			p.take()
			continue
		}
		end := p.expect(tokRParen)
		if n.Op == OpDouble && n.Desc.Type != pcp.TypeDouble && n.Desc.Type != pcp.TypeFloat {
			p.stop(end.pos, fmt.Sprintf("Incompatible floating point constant and type '%s'", n.Desc.Type))
		}
		return n
	}
}

func (p *parser) spec(n *Node) {
	tag := p.peek()
	if tag.kind != tokType && tag.kind != tokSemantics && tag.kind != tokUnits {
		p.fail(tag)
	}
	p.take()
	p.expect(tokAssign)
	v := p.peek()
	if v.kind != tokString && v.kind != tokName && v.kind != tokInteger {
		p.fail(v)
	}
	p.take()
	switch tag.kind {
	case tokType:
		typ, ok := map[string]pcp.Type{"32": pcp.Type32, "U32": pcp.TypeU32, "64": pcp.Type64,
			"U64": pcp.TypeU64, "FLOAT": pcp.TypeFloat, "DOUBLE": pcp.TypeDouble}[strings.ToUpper(v.text)]
		if !ok {
			p.stop(v.pos, fmt.Sprintf("Unrecognized value for type '%s'", v.text))
		}
		n.Desc.Type = typ
	case tokSemantics:
		sem, ok := map[string]pcp.Sem{"COUNTER": pcp.SemCounter, "INSTANT": pcp.SemInstant,
			"DISCRETE": pcp.SemDiscrete}[strings.ToUpper(v.text)]
		if !ok {
			p.stop(v.pos, fmt.Sprintf("Unrecognized value for semantics '%s'", v.text))
		}
		n.Desc.Sem = sem
	case tokUnits:
		u, _, err := pcp.ParseUnits(v.text)
		if err != nil {
			p.stop(v.pos, fmt.Sprintf("Illegal units: '%s'", err))
		}
		n.Desc.Units = u
	}
}

func (p *parser) rescale() *Node {
	p.take()
	p.take() // "("
	p.push(follow(opStr, "rescale("))
	arg := p.expr(precQuest, false)
	p.expect(tokComma)
	p.pop()
	p.push(follow("Units string", "rescale(<expr>,"))
	units := p.expect(tokString)
	end := p.expect(tokRParen)
	p.pop()
	u, _, err := pcp.ParseUnits(units.text)
	if err != nil {
		p.stop(end.pos, fmt.Sprintf("Illegal units: '%s'", err))
	}
	return p.node(Node{Op: OpRescale, Left: arg, Units: u})
}

func (p *parser) matchinst() *Node {
	p.take()
	p.take() // "("
	n := p.node(Node{Op: OpMatch, Match: &Match{}})
	p.push(follow("<filter>, <expr>)", "matchinst("))
	if p.peek().kind == tokNot {
		p.take()
		n.Match.Invert = true
	}
	pat := p.expect(tokPattern)
	re, err := compileERE(pat.text)
	if err != nil {
		p.stop(pat.pos, fmt.Sprintf("bad regular expression: '%s'", err))
	}
	n.Match.Pattern, n.Match.Re = pat.text, re
	p.pop()
	p.push(follow(", <expr>)", "matchinst(<filter>"))
	p.expect(tokComma)
	p.pop()
	p.push(follow("<expr>)", "matchinst(<filter>,"))
	n.Left = p.expr(precQuest, false)
	p.expect(tokRParen)
	p.lex.inMatchinst = false
	p.pop()
	return n
}
