package proc

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// hotproc's predicate language, as PCP's pmdaproc parses it (its lex.l
// and gram.y): an optional "Version 1.0", then a predicate of &&, ||, !
// and parentheses over comparisons of numbers (uid, gid, cpuburn,
// ctxswitch, virtualsize, residentsize, iodemand, iowait, schedwait,
// syscalls, numbers), of strings (uname, gname, fname, psargs, "text")
// with == and !=, and of strings with /patterns/ by ~ and !~; # starts a
// comment to the end of the line.

// predNode is one node of a parsed predicate.
type predNode struct {
	op          string // "&&", "||", "!", "true", "false", a comparison, or "" for a leaf
	left, right *predNode
	// leaves
	kind string // "num", "str", "pat", or a variable's name
	num  float64
	str  string
	re   *regexp.Regexp
}

// maxPredicate bounds a predicate's text and its nesting.
const (
	maxPredicate = 64 << 10
	maxDepth     = 256
)

var errPredicate error = predicateError("hotproc: bad predicate")

// predicateError is a constant error: errors.New at package level is a
// call at init.
type predicateError string

func (e predicateError) Error() string { return string(e) }

type predToken struct {
	t   string // the token's kind: a keyword or operator, "num", "str", "pat", "end"
	s   string
	num float64
}

func predWord(w string) bool {
	switch w {
	case "Version", "schedwait", "iowait", "iodemand", "residentsize", "virtualsize", "ctxswitch",
		"syscalls", "gid", "uid", "uname", "gname", "fname", "psargs", "cpuburn", "true", "false":
		return true
	}
	return false
}

// lexPredicate splits text into tokens as PCP's lexer does.
func lexPredicate(text string) ([]predToken, error) {
	if len(text) > maxPredicate {
		return nil, fmt.Errorf("%w: longer than %d bytes", errPredicate, maxPredicate)
	}
	var toks []predToken
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#':
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				// PCP's comment rule needs its newline.
				return nil, fmt.Errorf("%w: illegal character", errPredicate)
			}
			i += nl + 1
		case c == '/' || c == '"':
			end := strings.IndexAny(text[i+1:], string(c)+"\n")
			if end < 0 {
				return nil, fmt.Errorf("%w: illegal character", errPredicate)
			}
			body := text[i+1 : i+1+end]
			i += end + 2
			if c == '"' {
				toks = append(toks, predToken{t: "str", s: body})
				continue
			}
			if _, err := compileBRE(body); err != nil {
				return nil, fmt.Errorf("%w: %v", errPredicate, err)
			}
			toks = append(toks, predToken{t: "pat", s: body})
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			if j < len(text) && text[j] == '.' {
				j++
				for j < len(text) && text[j] >= '0' && text[j] <= '9' {
					j++
				}
			}
			if text[i:j] == "." {
				return nil, fmt.Errorf("%w: illegal character", errPredicate)
			}
			v, _ := strconv.ParseFloat(strings.TrimSuffix(text[i:j], "."), 64)
			toks = append(toks, predToken{t: "num", num: v})
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z') {
				j++
			}
			w := text[i:j]
			if !predWord(w) {
				return nil, fmt.Errorf("%w: illegal word %q", errPredicate, w)
			}
			toks = append(toks, predToken{t: w})
			i = j
		default:
			op := ""
			for _, o := range []string{"&&", "||", "==", "!=", "<=", ">=", "!~", "!", "(", ")", "<", ">", "~"} {
				if strings.HasPrefix(text[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, fmt.Errorf("%w: illegal character", errPredicate)
			}
			toks = append(toks, predToken{t: op})
			i += len(op)
		}
	}
	return append(toks, predToken{t: "end"}), nil
}

// predParser is a recursive descent over the tokens with PCP's
// precedence: || below &&, ! binding tightest.
type predParser struct {
	toks  []predToken
	pos   int
	depth int
}

func (p *predParser) peek() string { return p.toks[p.pos].t }
func (p *predParser) next() predToken {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

// parsePredicate parses text: nil for an empty predicate.
func parsePredicate(text string) (*predNode, error) {
	toks, err := lexPredicate(text)
	if err != nil {
		return nil, err
	}
	p := &predParser{toks: toks}
	if p.peek() == "end" {
		return nil, nil
	}
	if p.peek() == "Version" {
		p.next()
		v := p.next()
		if v.t != "num" || v.num != 1.0 {
			return nil, fmt.Errorf("%w: version must be 1.0", errPredicate)
		}
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.peek() != "end" {
		return nil, fmt.Errorf("%w: syntax error", errPredicate)
	}
	return n, nil
}

func (p *predParser) or() (*predNode, error) {
	l, err := p.and()
	for err == nil && p.peek() == "||" {
		p.next()
		var r *predNode
		if r, err = p.and(); err == nil {
			l = &predNode{op: "||", left: l, right: r}
		}
	}
	return l, err
}

func (p *predParser) and() (*predNode, error) {
	l, err := p.unary()
	for err == nil && p.peek() == "&&" {
		p.next()
		var r *predNode
		if r, err = p.unary(); err == nil {
			l = &predNode{op: "&&", left: l, right: r}
		}
	}
	return l, err
}

func (p *predParser) unary() (*predNode, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, fmt.Errorf("%w: nested too deep", errPredicate)
	}
	switch p.peek() {
	case "!":
		p.next()
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &predNode{op: "!", left: n}, nil
	case "(":
		p.next()
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.next().t != ")" {
			return nil, fmt.Errorf("%w: syntax error", errPredicate)
		}
		return n, nil
	case "true", "false":
		return &predNode{op: p.next().t}, nil
	}
	return p.comparison()
}

func numVar(w string) bool {
	switch w {
	case "gid", "uid", "cpuburn", "syscalls", "ctxswitch", "virtualsize", "residentsize", "iodemand",
		"iowait", "schedwait":
		return true
	}
	return false
}

func strVar(w string) bool {
	switch w {
	case "gname", "uname", "fname", "psargs":
		return true
	}
	return false
}

func (p *predParser) comparison() (*predNode, error) {
	l := p.next()
	op := p.next().t
	switch {
	case l.t == "num" || numVar(l.t):
		switch op {
		case "<", "<=", ">", ">=", "==", "!=":
		default:
			return nil, fmt.Errorf("%w: syntax error", errPredicate)
		}
		r := p.next()
		if r.t != "num" && !numVar(r.t) {
			return nil, fmt.Errorf("%w: syntax error", errPredicate)
		}
		return &predNode{op: op, left: leaf(l), right: leaf(r)}, nil
	case l.t == "str" || strVar(l.t):
		r := p.next()
		switch op {
		case "==", "!=":
			if r.t != "str" && !strVar(r.t) {
				return nil, fmt.Errorf("%w: syntax error", errPredicate)
			}
			return &predNode{op: "s" + op, left: leaf(l), right: leaf(r)}, nil
		case "~", "!~":
			if r.t != "pat" {
				return nil, fmt.Errorf("%w: syntax error", errPredicate)
			}
			re, _ := compileBRE(r.s)
			n := leaf(r)
			n.re = re
			return &predNode{op: op, left: leaf(l), right: n}, nil
		}
	}
	return nil, fmt.Errorf("%w: syntax error", errPredicate)
}

func leaf(t predToken) *predNode { return &predNode{kind: t.t, num: t.num, str: t.s} }

// dumpPredicate writes n as PCP's agent writes a parsed predicate back
// (hotproc.control.config): everything parenthesized, numbers as %d when
// whole, else %f, strings and patterns in double quotes.
func dumpPredicate(b *strings.Builder, n *predNode) {
	switch n.op {
	case "&&", "||":
		b.WriteString("(")
		dumpPredicate(b, n.left)
		b.WriteString(" " + n.op + " ")
		dumpPredicate(b, n.right)
		b.WriteString(")")
	case "!":
		b.WriteString("(! ")
		dumpPredicate(b, n.left)
		b.WriteString(")")
	case "true", "false":
		b.WriteString("(" + n.op + ")")
	default:
		b.WriteString("(")
		dumpVar(b, n.left)
		b.WriteString(" " + strings.TrimPrefix(n.op, "s") + " ")
		dumpVar(b, n.right)
		b.WriteString(")")
	}
}

func dumpVar(b *strings.Builder, n *predNode) {
	switch n.kind {
	case "str", "pat":
		b.WriteString(`"` + n.str + `"`)
	case "num":
		if v := int32(n.num); float64(v) == n.num {
			b.WriteString(strconv.Itoa(int(v)))
		} else {
			b.WriteString(strconv.FormatFloat(n.num, 'f', 6, 64))
		}
	default:
		b.WriteString(n.kind)
	}
}

// predVars are one process's values a predicate is evaluated on.
type predVars struct {
	uid, gid                             uint32
	uname, gname, fname, psargs          string
	cpuburn                              float64
	ctxswitch, virtualsize, residentsize float64
	iodemand, iowait, schedwait          float64
}

// evalPredicate evaluates n for v.
func evalPredicate(n *predNode, v *predVars) bool {
	switch n.op {
	case "&&":
		return evalPredicate(n.left, v) && evalPredicate(n.right, v)
	case "||":
		return evalPredicate(n.left, v) || evalPredicate(n.right, v)
	case "!":
		return !evalPredicate(n.left, v)
	case "true":
		return true
	case "false":
		return false
	case "s==":
		return strOf(n.left, v) == strOf(n.right, v)
	case "s!=":
		return strOf(n.left, v) != strOf(n.right, v)
	case "~":
		return n.right.re.MatchString(strOf(n.left, v))
	case "!~":
		return !n.right.re.MatchString(strOf(n.left, v))
	}
	x, y := numOf(n.left, v), numOf(n.right, v)
	switch n.op {
	case "<":
		return x < y
	case "<=":
		return x <= y
	case ">":
		return x > y
	case ">=":
		return x >= y
	case "==":
		return x == y
	}
	return x != y
}

func numOf(n *predNode, v *predVars) float64 {
	switch n.kind {
	case "num":
		return n.num
	case "uid":
		return float64(v.uid)
	case "gid":
		return float64(v.gid)
	case "cpuburn":
		return v.cpuburn
	case "ctxswitch":
		return v.ctxswitch
	case "virtualsize":
		return v.virtualsize
	case "residentsize":
		return v.residentsize
	case "iodemand":
		return v.iodemand
	case "iowait":
		return v.iowait
	case "schedwait":
		return v.schedwait
	}
	// syscalls: parsed by PCP's agent, never given a value.
	return 0
}

func strOf(n *predNode, v *predVars) string {
	switch n.kind {
	case "uname":
		return v.uname
	case "gname":
		return v.gname
	case "fname":
		return v.fname
	case "psargs":
		return v.psargs
	}
	return n.str
}

// compileBRE compiles a POSIX basic regular expression (re_comp's
// language) as a Go regular expression: \( \) \{ \} \| are its
// operators, + ? | ( ) { } plain characters, and * plain where nothing
// precedes it.
func compileBRE(s string) (*regexp.Regexp, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch d := s[i]; d {
			case '(', ')', '{', '}', '|':
				b.WriteByte(d)
			case '<', '>':
				b.WriteString(`\b`)
			default:
				b.WriteString(regexp.QuoteMeta(string(d)))
			}
		case c == '[':
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				j++
			}
			if j >= len(s) {
				return nil, errors.New("unmatched [")
			}
			class := s[i : j+1]
			b.WriteString(strings.ReplaceAll(class, `\`, `\\`))
			i = j
		case c == '*' && (b.Len() == 0 || strings.HasSuffix(b.String(), "(") || b.String() == "^"):
			b.WriteString(`\*`)
		case strings.IndexByte("+?|(){}", c) >= 0:
			b.WriteString(`\` + string(c))
		default:
			b.WriteByte(c)
		}
	}
	return regexp.Compile(b.String())
}
