package main

import (
	"github.com/gopcp/gopcp/pcp"
)

// stmt is one parsed command.
type stmt struct {
	cmd    string // "open", "desc", "fetch", ..., "help", "" for nothing
	sub    string // open: "dso", "pipe", "unix", "inet", "ipv6"; label: the level; help: the command
	usage  bool   // help: usage lines only (the command given without arguments)
	path   string
	args   []string
	entry  string
	domain int32
	port   int32
	pmid   pcp.PMID
	pmids  []pcp.PMID
	indom  pcp.InDom
	inst   int32
	name   string
	hasNum bool
	value  string
	on     bool
	text   bool // text: an indom
	prof   string
	attr   int32
	flags  []string
	secs   int32
}

// problem is a warning or an error found while parsing, reported when the
// scanner has read up to at.
type problem struct {
	at    int
	msg   string
	fatal bool // an error ending the statement; else a warning
}

// parser parses one statement from a lexer, resolving names in the
// session's namespace.
type parser struct {
	lx       *lexer
	s        *session
	tok      token
	problems []problem
	// more gives the next input line, false at the end of input; done
	// reports a line finished with, and its problems. A scanner error
	// (an illegal character, an unclosed quote) does not end the
	// statement in PCP's dbpmda: its yyerror skips the rest of the line
	// and the parser, which never saw the error, reads on from the next
	// line ("desc @" then "29.0.5" is "desc 29.0.5"). Without more, the
	// error ends the statement.
	more func() (string, bool)
	done func(line string, problems []problem)
}

type syntaxError struct{}

func (p *parser) advance() token {
	p.tok = p.lx.next()
	for p.tok.kind == tBad && p.more != nil {
		p.problems = append(p.problems, problem{at: p.tok.end, msg: p.tok.text, fatal: true})
		p.done(p.lx.line, p.problems)
		p.problems = nil
		line, ok := p.more()
		if !ok {
			// the statement is still open at the end of input
			p.lx.line, p.lx.pos = "", 0
			p.tok = token{kind: tEOL}
			p.fail("syntax error")
		}
		p.lx.line, p.lx.pos = line, 0
		p.tok = p.lx.next()
	}
	if p.tok.kind == tBad {
		p.fail(p.tok.text)
	}
	return p.tok
}

// fail ends the statement with an error at the current token. PCP's
// scanner has by then read one character more than for a warning.
func (p *parser) fail(msg string) {
	at := min(p.tok.end+1, len(p.lx.line))
	if p.tok.kind == tBad || p.tok.kind == tEOL {
		at = p.tok.end
	}
	p.problems = append(p.problems, problem{at: at, msg: msg, fatal: true})
	panic(syntaxError{})
}

func (p *parser) warn(msg string) {
	p.problems = append(p.problems, problem{at: p.tok.end, msg: msg})
}

func (p *parser) is(kind tokKind, kw string) bool {
	return p.tok.kind == kind && (kw == "" || p.tok.text == kw)
}

func (p *parser) expectEOL() {
	if p.advance().kind != tEOL {
		p.fail("syntax error")
	}
}

// parse reads one statement; ok is false after a syntax error.
func (p *parser) parse() (st stmt, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(syntaxError); !is {
				panic(r)
			}
			ok = false
		}
	}()
	t := p.advance()
	switch t.kind {
	case tEOL:
		return stmt{}, true
	case tKeyword:
	default:
		p.fail("Unrecognized command")
	}
	st.cmd = t.text
	parseArgs := commands[st.cmd]
	if parseArgs == nil {
		p.fail("syntax error")
	}
	if usage := parseArgs(p, &st); usage {
		return stmt{cmd: "help", sub: st.cmd, usage: true}, true
	}
	return st, true
}

// fname reads a file name: a path, or a name taken relative to ".".
func (p *parser) fname() string {
	p.advance()
	if p.tok.kind != tName && p.tok.kind != tPath {
		p.fail("syntax error")
	}
	return p.pathOf(p.tok)
}

func (p *parser) pathOf(t token) string {
	if t.kind == tName && t.text[0] != '/' {
		return "./" + t.text
	}
	return t.text
}

// metric is a PMID given as a number, as N.N or N.N.N, or as a name.
func (p *parser) metric() pcp.PMID {
	var id pcp.PMID
	switch p.tok.kind {
	case tNumber:
		id = pcp.PMID(uint32(p.tok.num))
	case tNumber2D:
		id = pcp.NewPMID(0, uint32(p.tok.n2[0]), uint32(p.tok.n2[1]))
	case tNumber3D:
		id = pcp.NewPMID(uint32(p.tok.n3[0]), uint32(p.tok.n3[1]), uint32(p.tok.n3[2]))
	case tName:
		id, err := p.s.lookupName(p.tok.text)
		if err != nil {
			p.fail(pcp.TextOf(err))
		}
		return id
	default:
		p.fail("syntax error")
	}
	if !p.s.hasPMID(id) {
		p.warn("PMID (" + id.String() + ") is not defined in the PMNS")
	}
	return id
}

// indom is an instance domain given as a number or as N.N.
func (p *parser) indom() pcp.InDom {
	switch p.tok.kind {
	case tNumber, tNegNum:
		return pcp.InDom(uint32(p.tok.num))
	case tNumber2D:
		return pcp.NewInDom(uint32(p.tok.n2[0]), uint32(p.tok.n2[1]))
	}
	p.fail("syntax error")
	return 0
}
