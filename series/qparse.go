package series

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// Expr is a parsed query expression: a vector (a metric name or glob
// with label filters), a number, a function of expressions or an
// arithmetic operation, as libpcp_web 6.0.3's grammar builds them.
type Expr struct {
	// Op is "vector", "number", a function's name (rate, max_inst, ...)
	// or one of + - * /.
	Op          string
	Left, Right *Expr

	// A vector's metric name or glob ("" for a {filter} query alone),
	// its label filters and the time window in force where it was read.
	Name   string
	Filter *FilterExpr
	Window *Window

	// Value is a number's text, or a function's second argument as
	// written: rescale's units, topk's k, a percentile, log's base.
	Value    string
	IsDouble bool
	Units    pcp.Units // rescale's units
}

// FilterExpr is a {...} label filter: a comparison, or && / || of two
// (a comma is &&).
type FilterExpr struct {
	Op          string // "&&", "||", or a Filter's op
	Left, Right *FilterExpr
	Leaf        Filter
}

// Parsed is a query: its expression and the time window all its vectors
// share (nil when none has one).
type Parsed struct {
	Root   *Expr
	Window *Window
}

// HasFunction says the expression holds a function or arithmetic.
func (p *Parsed) HasFunction() bool { return p.Root != nil && p.Root.Op != "vector" }

// QueryError is a query PCP refuses, with libpcp_web's message: for a
// syntax error the query with a caret under the point where reading
// stopped.
type QueryError struct {
	Msg  string
	More []string // further messages, reported in turn (one per series)
}

func (e *QueryError) Error() string { return strings.Join(append([]string{e.Msg}, e.More...), "\n") }

// ErrQuery is wrapped by QueryErrors' callers' errors.Is checks.
var ErrQuery = errors.New("series query error")

func (e *QueryError) Unwrap() error { return ErrQuery }

// syntaxError is libpcp_web's series_error text: the query, then spaces
// (tabs and other blanks kept) up to the point and "^ -- syntax error".
func syntaxError(query string, pos int) *QueryError {
	var b strings.Builder
	b.WriteString("cannot parse given string\n\n")
	b.WriteString(query)
	b.WriteByte('\n')
	for i := 0; i < pos && i < len(query); i++ {
		if c := query[i]; c > ' ' && c < 0x7f {
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("^ -- syntax error\n")
	return &QueryError{Msg: b.String()}
}

// ParseExpr parses a query of PCP's series query language with its
// functions, arithmetic and time windows.
func ParseExpr(query string) (*Parsed, error) {
	return parseExprAt(query, time.Now, time.Local)
}

func parseExprAt(query string, now func() time.Time, loc *time.Location) (*Parsed, error) {
	if len(query) > MaxQueryLen {
		return nil, &QueryError{Msg: fmt.Sprintf("query too long (%d bytes, at most %d)", len(query), MaxQueryLen)}
	}
	p := &eparser{q: query, lx: &lexer{s: query}, now: now, loc: loc, texts: map[string]string{}}
	p.advance()
	root, err := p.query()
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, &QueryError{Msg: "Invalid series query specification"}
	}
	out := &Parsed{Root: root}
	if len(p.texts) > 0 {
		w := p.win
		out.Window = &w
	}
	return out, nil
}

// maxDepth bounds nesting, so that a query cannot exhaust the stack.
const maxDepth = 200

type eparser struct {
	q     string
	lx    *lexer
	tok   token
	now   func() time.Time
	loc   *time.Location
	win   Window            // the window so far
	texts map[string]string // each window keyword's text, for "second" checks
	depth int

	// windowed is whether the first vector read had a window; the
	// grammar takes every vector with one or every vector without.
	vectors  int
	windowed bool
}

func (p *eparser) advance() { p.tok = p.lx.next() }

func (p *eparser) fail() error { return syntaxError(p.q, p.tok.pos) }

func (p *eparser) expect(k tokKind) error {
	if p.tok.kind != k {
		return p.fail()
	}
	p.advance()
	return nil
}

func (p *eparser) query() (*Expr, error) {
	// NAME = vector: a named query (libpcp_web keeps the name and
	// answers the vector).
	if p.tok.kind == tName {
		save := *p.lx
		first := p.tok
		p.advance()
		if p.tok.kind != tAssign {
			*p.lx, p.tok = save, first
		} else {
			p.advance()
		}
	}
	switch p.tok.kind {
	case tLBrace:
		v, err := p.vector("")
		if err != nil {
			return nil, err
		}
		return v, p.expect(tEOS)
	case tLSquare:
		p.advance()
		if err := p.timelist(); err != nil {
			return nil, err
		}
		if err := p.expect(tEOS); err != nil {
			return nil, err
		}
		return nil, nil
	}
	e, err := p.arith()
	if err != nil {
		return nil, err
	}
	if e.Op == "number" {
		return nil, p.fail()
	}
	return e, p.expect(tEOS)
}

// arith is sums of products; a number only multiplies.
func (p *eparser) arith() (*Expr, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tPlus || p.tok.kind == tMinus {
		op := p.tok.text
		if l.Op == "number" {
			return nil, p.fail()
		}
		p.advance()
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		if r.Op == "number" {
			return nil, p.fail()
		}
		l = &Expr{Op: op, Left: l, Right: r}
	}
	return l, nil
}

func (p *eparser) term() (*Expr, error) {
	l, err := p.factor()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tStar || p.tok.kind == tSlash {
		op := p.tok.text
		if op == "/" && l.Op == "number" {
			return nil, p.fail()
		}
		p.advance()
		if p.tok.kind == tInteger || p.tok.kind == tDouble {
			if op == "/" || l.Op == "number" {
				return nil, p.fail()
			}
			r := &Expr{Op: "number", Value: p.tok.text, IsDouble: p.tok.kind == tDouble}
			p.advance()
			l = &Expr{Op: op, Left: l, Right: r}
			continue
		}
		r, err := p.factor()
		if err != nil {
			return nil, err
		}
		l = &Expr{Op: op, Left: l, Right: r}
	}
	return l, nil
}

func (p *eparser) factor() (*Expr, error) {
	switch p.tok.kind {
	case tInteger, tDouble:
		e := &Expr{Op: "number", Value: p.tok.text, IsDouble: p.tok.kind == tDouble}
		p.advance()
		if p.tok.kind != tStar {
			return nil, p.fail()
		}
		return e, nil
	case tFunc:
		return p.function()
	case tName:
		return p.vector(p.tok.text)
	}
	return nil, p.fail()
}

func (p *eparser) function() (*Expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.fail()
	}
	name := p.tok.text
	if name == "count" {
		return nil, p.fail()
	}
	p.advance() // the name
	if err := p.expect(tLParen); err != nil {
		return nil, err
	}
	arg, err := p.arith()
	if err != nil {
		return nil, err
	}
	if arg.Op == "number" {
		return nil, p.fail()
	}
	e := &Expr{Op: name, Left: arg}
	switch name {
	case "rescale":
		if err := p.expect(tComma); err != nil {
			return nil, err
		}
		if p.tok.kind != tString {
			return nil, p.fail()
		}
		e.Value = p.tok.text
		p.advance()
		if p.tok.kind != tRParen {
			return nil, p.fail()
		}
		u, _, err := pcp.ParseUnits(e.Value)
		if err != nil {
			return nil, p.fail()
		}
		e.Units = u
	case "topk_inst", "topk_sample", "nth_percentile_inst", "nth_percentile_sample":
		if err := p.expect(tComma); err != nil {
			return nil, err
		}
		if p.tok.kind != tInteger {
			return nil, p.fail()
		}
		e.Value = p.tok.text
		p.advance()
		if p.tok.kind != tRParen {
			return nil, p.fail()
		}
		if strings.HasPrefix(name, "nth") {
			if n, _ := strconv.Atoi(e.Value); n > 100 {
				return nil, p.fail()
			}
		}
	case "log":
		if p.tok.kind == tComma {
			p.advance()
			if p.tok.kind != tInteger && p.tok.kind != tDouble {
				return nil, p.fail()
			}
			e.Value, e.IsDouble = p.tok.text, p.tok.kind == tDouble
			p.advance()
		}
	}
	if err := p.expect(tRParen); err != nil {
		return nil, err
	}
	return e, nil
}

// vector reads NAME ['{' filters '}'] ['[' window ']'] (or, for a query
// of filters alone, from the '{').
func (p *eparser) vector(name string) (*Expr, error) {
	e := &Expr{Op: "vector", Name: name}
	if name != "" {
		p.advance()
	}
	if p.tok.kind == tLBrace {
		p.advance()
		f, err := p.filterList()
		if err != nil {
			return nil, err
		}
		if err := p.expect(tRBrace); err != nil {
			return nil, err
		}
		e.Filter = f
	}
	has := p.tok.kind == tLSquare
	p.vectors++
	if p.vectors == 1 {
		p.windowed = has
	} else if has != p.windowed {
		return nil, p.fail()
	}
	if has {
		p.advance()
		if err := p.timelist(); err != nil {
			return nil, err
		}
		w := p.win
		e.Window = &w
	}
	return e, nil
}

// filterList is exprlist: filters joined by commas (&&).
func (p *eparser) filterList() (*FilterExpr, error) {
	l, err := p.filterOr()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tComma {
		p.advance()
		r, err := p.filterOr()
		if err != nil {
			return nil, err
		}
		l = &FilterExpr{Op: "&&", Left: l, Right: r}
	}
	return l, nil
}

// filterOr is comparisons joined by && and ||, one precedence, from the
// left.
func (p *eparser) filterOr() (*FilterExpr, error) {
	l, err := p.comparison()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tAnd || p.tok.kind == tOr {
		op := p.tok.text
		p.advance()
		r, err := p.comparison()
		if err != nil {
			return nil, err
		}
		l = &FilterExpr{Op: op, Left: l, Right: r}
	}
	return l, nil
}

var compareOps = map[tokKind]string{
	tLT: "<", tLEQ: "<=", tEQ: "==", tGEQ: ">=", tGT: ">", tNEQ: "!=",
	tREQ: "=~", tRNE: "!~", tColon: "~~", tGlob: "~~",
}

func (p *eparser) comparison() (*FilterExpr, error) {
	if p.tok.kind != tName && p.tok.kind != tString {
		return nil, p.fail()
	}
	f := Filter{Name: p.tok.text}
	p.advance()
	op, ok := compareOps[p.tok.kind]
	if !ok {
		return nil, p.fail()
	}
	f.Op = op
	p.advance()
	relational := op == "<" || op == "<=" || op == ">" || op == ">="
	switch p.tok.kind {
	case tString:
		if relational {
			return nil, p.fail()
		}
		f.Value, f.Quoted = p.tok.text, true
	case tName:
		if relational {
			return nil, p.fail()
		}
		f.Value = p.tok.text
	case tInteger, tDouble:
		if op == "=~" || op == "!~" {
			return nil, p.fail()
		}
		f.Value = p.tok.text
	default:
		return nil, p.fail()
	}
	p.advance()
	return &FilterExpr{Op: op, Leaf: f}, nil
}
