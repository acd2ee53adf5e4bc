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
}

type syntaxError struct{}

func (p *parser) advance() token {
	p.tok = p.lx.next()
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
	usage := func() (stmt, bool) { return stmt{cmd: "help", sub: st.cmd, usage: true}, true }
	switch st.cmd {
	case "open":
		n := p.advance()
		if n.kind == tEOL {
			return usage()
		}
		switch {
		case p.is(tKeyword, "dso"):
			st.sub = "dso"
			st.path = p.fname()
			if p.advance().kind != tName {
				p.fail("syntax error")
			}
			st.entry = p.tok.text
			if p.advance().kind == tNumber {
				st.domain = p.tok.num
				p.advance()
			}
			if p.tok.kind != tEOL {
				p.fail("syntax error")
			}
		case p.is(tKeyword, "pipe"):
			st.sub = "pipe"
			st.path = p.fname()
			st.args = p.lx.rest()
		case p.is(tKeyword, "socket"):
			p.advance()
			switch {
			case p.is(tKeyword, "unix"):
				st.sub = "unix"
				st.path = p.fname()
			case p.is(tKeyword, "inet"), p.is(tKeyword, "ipv6"):
				st.sub = p.tok.text
				switch p.advance().kind {
				case tNumber:
					st.port = p.tok.num
				default:
					p.fail("syntax error")
				}
			case p.tok.kind == tName || p.tok.kind == tPath:
				st.sub = "unix"
				st.path = p.pathOf(p.tok)
			default:
				p.fail("syntax error")
			}
			p.lx.rest() // the grammar stops here; the rest of the line is dropped
		default:
			p.fail("syntax error")
		}
	case "close", "status", "quit":
		p.expectEOL()
	case "desc":
		if p.advance().kind == tEOL {
			return usage()
		}
		st.pmid = p.metric()
		p.expectEOL()
	case "fetch":
		if p.advance().kind == tEOL {
			return usage()
		}
		st.pmids = append(st.pmids, p.metric())
		for {
			p.advance()
			if p.tok.kind == tEOL {
				break
			}
			if p.tok.kind == tComma {
				p.advance()
			}
			st.pmids = append(st.pmids, p.metric())
		}
	case "store":
		if p.advance().kind == tEOL {
			return usage()
		}
		st.pmid = p.metric()
		if p.advance().kind != tString {
			p.fail("syntax error")
		}
		st.value = p.tok.text
		p.expectEOL()
	case "text":
		if p.advance().kind == tEOL {
			return usage()
		}
		if p.is(tKeyword, "indom") {
			p.advance()
			st.indom = p.indom()
			st.text = true
		} else {
			st.pmid = p.metric()
		}
		p.expectEOL()
	case "instance":
		if p.advance().kind == tEOL {
			return usage()
		}
		st.indom = p.indom()
		st.inst = pcp.InstNull
		switch p.advance().kind {
		case tEOL:
			return st, true
		case tNumber:
			st.inst, st.hasNum = p.tok.num, true
		case tString, tName:
			st.name = p.tok.text
		default:
			p.fail("syntax error")
		}
		p.expectEOL()
	case "profile":
		if p.advance().kind == tEOL {
			return usage()
		}
		st.indom = p.indom()
		p.advance()
		switch {
		case p.is(tKeyword, "all"), p.is(tKeyword, "none"):
			st.prof = p.tok.text
		case p.is(tKeyword, "add"), p.is(tKeyword, "delete"):
			st.prof = p.tok.text
			if p.advance().kind != tNumber {
				p.fail("syntax error")
			}
			st.inst = p.tok.num
		default:
			p.fail("syntax error")
		}
		p.expectEOL()
	case "watch":
		if p.advance().kind == tEOL {
			return usage()
		}
		st.path = p.pathOf(p.tok)
		p.expectEOL()
	case "name":
		if p.advance().kind == tEOL {
			return usage()
		}
		if p.tok.kind != tNumber3D {
			p.fail("syntax error")
		}
		st.pmid = pcp.NewPMID(uint32(p.tok.n3[0]), uint32(p.tok.n3[1]), uint32(p.tok.n3[2]))
		p.expectEOL()
	case "pmid", "children", "traverse":
		if p.advance().kind == tEOL {
			return usage()
		}
		if p.tok.kind != tName {
			p.fail("syntax error")
		}
		st.name = p.tok.text
		p.expectEOL()
	case "namespace":
		p.advance()
		if p.tok.kind != tName && p.tok.kind != tPath {
			p.fail("syntax error")
		}
		st.path = p.pathOf(p.tok)
		p.expectEOL()
	case "attr":
		if p.advance().kind == tEOL {
			return usage()
		}
		switch p.tok.kind {
		case tNumber:
			if attrName(p.tok.num) == "" {
				p.fail("Attribute (" + itoa(p.tok.num) + ") is not recognised")
			}
			st.attr = p.tok.num
		case tString:
			n := attrKey(p.tok.text)
			if n <= 0 {
				p.fail("Attribute (" + p.tok.text + ") is not recognised")
			}
			st.attr = n
		default:
			p.fail("syntax error")
		}
		switch p.advance().kind {
		case tEOL:
			return st, true
		case tString:
			st.value = p.tok.text
			st.hasNum = true // a value was given
		default:
			p.fail("syntax error")
		}
		p.expectEOL()
	case "label":
		if p.advance().kind == tEOL {
			return usage()
		}
		if p.tok.kind != tKeyword {
			p.fail("syntax error")
		}
		st.sub = p.tok.text
		switch st.sub {
		case "context", "domain":
		case "indom", "instances":
			p.advance()
			st.indom = p.indom()
		case "cluster":
			switch p.advance().kind {
			case tNumber:
				st.pmid = pcp.PMID(p.tok.num)
			case tNumber2D:
				st.pmid = pcp.NewPMID(uint32(p.tok.n2[0]), uint32(p.tok.n2[1]), 0)
			default:
				p.fail("syntax error")
			}
		case "item":
			p.advance()
			st.pmid = p.metric()
		default:
			p.fail("syntax error")
		}
		p.expectEOL()
	case "help":
		p.advance()
		if p.tok.kind == tEOL {
			st.sub = ""
			return st, true
		}
		if p.tok.kind != tKeyword || helpUsage[p.tok.text] == nil {
			p.fail("syntax error")
		}
		st.sub = p.tok.text
		p.expectEOL()
	case "debug":
		if p.advance().kind == tEOL {
			return usage()
		}
		for p.tok.kind != tEOL {
			switch p.tok.kind {
			case tKeyword:
				if p.tok.text != "all" && p.tok.text != "none" && !knownDebugFlag(p.tok.text) {
					p.fail("syntax error")
				}
				st.flags = append(st.flags, p.tok.text)
			case tName, tNegName:
				if !knownDebugFlag(p.tok.text) {
					p.fail("Bad debug flag (" + p.tok.text + ")")
				}
				st.flags = append(st.flags, p.tok.text)
			case tNumber:
				st.flags = append(st.flags, itoa(p.tok.num))
			case tComma:
			default:
				p.fail("syntax error")
			}
			p.advance()
		}
	case "timer", "getdesc", "getiname":
		p.advance()
		switch {
		case p.tok.kind == tEOL:
			return usage()
		case p.is(tKeyword, "on"), p.is(tKeyword, "off"):
			st.on = p.tok.text == "on"
		default:
			p.fail("syntax error")
		}
		p.expectEOL()
	case "wait":
		if p.advance().kind == tEOL {
			return usage()
		}
		if p.tok.kind != tNumber {
			p.fail("syntax error")
		}
		st.secs = p.tok.num
		p.expectEOL()
	default:
		p.fail("syntax error")
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
			p.fail(errText(err))
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
