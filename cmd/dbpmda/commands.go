package main

import "github.com/gopcp/gopcp/pcp"

// commands parse the arguments of each command into its statement, the
// command's keyword having been read. They end the statement with p.fail
// on a syntax error, and return usage true for a command given without
// the arguments it needs: its usage is then printed, as PCP's dbpmda does.
var commands = map[string]func(p *parser, st *stmt) (usage bool){
	"open":      (*parser).openArgs,
	"close":     (*parser).noArgs,
	"status":    (*parser).noArgs,
	"quit":      (*parser).noArgs,
	"desc":      (*parser).descArgs,
	"fetch":     (*parser).fetchArgs,
	"store":     (*parser).storeArgs,
	"text":      (*parser).textArgs,
	"instance":  (*parser).instanceArgs,
	"profile":   (*parser).profileArgs,
	"watch":     (*parser).watchArgs,
	"name":      (*parser).nameArgs,
	"pmid":      (*parser).metricNameArgs,
	"children":  (*parser).metricNameArgs,
	"traverse":  (*parser).metricNameArgs,
	"namespace": (*parser).namespaceArgs,
	"attr":      (*parser).attrArgs,
	"label":     (*parser).labelArgs,
	"help":      (*parser).helpArgs,
	"debug":     (*parser).debugArgs,
	"timer":     (*parser).onOffArgs,
	"getdesc":   (*parser).onOffArgs,
	"getiname":  (*parser).onOffArgs,
	"wait":      (*parser).waitArgs,
}

// atEOL reads the next token and says whether the line ended there.
func (p *parser) atEOL() bool { return p.advance().kind == tEOL }

// noArgs is close, status and quit, which take none.
func (p *parser) noArgs(*stmt) bool {
	p.expectEOL()
	return false
}

// openArgs is open dso PATH ENTRY [DOMAIN], open pipe PATH ARGS...,
// open socket unix PATH, open socket inet|ipv6 PORT or open socket PATH.
func (p *parser) openArgs(st *stmt) bool {
	if p.atEOL() {
		return true
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
		p.socketArgs(st)
	default:
		p.fail("syntax error")
	}
	return false
}

func (p *parser) socketArgs(st *stmt) {
	p.advance()
	switch {
	case p.is(tKeyword, "unix"):
		st.sub = "unix"
		st.path = p.fname()
	case p.is(tKeyword, "inet"), p.is(tKeyword, "ipv6"):
		st.sub = p.tok.text
		if p.advance().kind != tNumber {
			p.fail("syntax error")
		}
		st.port = p.tok.num
	case p.tok.kind == tName || p.tok.kind == tPath:
		st.sub = "unix"
		st.path = p.pathOf(p.tok)
	default:
		p.fail("syntax error")
	}
	p.lx.rest() // the grammar stops here; the rest of the line is dropped
}

// descArgs is desc METRIC.
func (p *parser) descArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	st.pmid = p.metric()
	p.expectEOL()
	return false
}

// fetchArgs is fetch METRIC [[,] METRIC]...
func (p *parser) fetchArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	st.pmids = append(st.pmids, p.metric())
	for p.advance().kind != tEOL {
		if p.tok.kind == tComma {
			p.advance()
		}
		st.pmids = append(st.pmids, p.metric())
	}
	return false
}

// storeArgs is store METRIC "VALUE".
func (p *parser) storeArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	st.pmid = p.metric()
	if p.advance().kind != tString {
		p.fail("syntax error")
	}
	st.value = p.tok.text
	p.expectEOL()
	return false
}

// textArgs is text METRIC or text indom INDOM.
func (p *parser) textArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	if p.is(tKeyword, "indom") {
		p.advance()
		st.indom = p.indom()
		st.text = true
	} else {
		st.pmid = p.metric()
	}
	p.expectEOL()
	return false
}

// instanceArgs is instance INDOM [NUMBER | NAME].
func (p *parser) instanceArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	st.indom = p.indom()
	st.inst = pcp.InstNull
	switch p.advance().kind {
	case tEOL:
		return false
	case tNumber:
		st.inst, st.hasNum = p.tok.num, true
	case tString, tName:
		st.name = p.tok.text
	default:
		p.fail("syntax error")
	}
	p.expectEOL()
	return false
}

// profileArgs is profile INDOM all|none or profile INDOM add|delete INST.
func (p *parser) profileArgs(st *stmt) bool {
	if p.atEOL() {
		return true
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
	return false
}

// watchArgs is watch LOGFILE.
func (p *parser) watchArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	st.path = p.pathOf(p.tok)
	p.expectEOL()
	return false
}

// nameArgs is name PMID, the PMID as D.C.I.
func (p *parser) nameArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	if p.tok.kind != tNumber3D {
		p.fail("syntax error")
	}
	st.pmid = pcp.NewPMID(uint32(p.tok.n3[0]), uint32(p.tok.n3[1]), uint32(p.tok.n3[2]))
	p.expectEOL()
	return false
}

// metricNameArgs is pmid, children or traverse NAME.
func (p *parser) metricNameArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	if p.tok.kind != tName {
		p.fail("syntax error")
	}
	st.name = p.tok.text
	p.expectEOL()
	return false
}

// namespaceArgs is namespace FILE; it has no usage form.
func (p *parser) namespaceArgs(st *stmt) bool {
	p.advance()
	if p.tok.kind != tName && p.tok.kind != tPath {
		p.fail("syntax error")
	}
	st.path = p.pathOf(p.tok)
	p.expectEOL()
	return false
}

// attrArgs is attr NUMBER|"NAME" ["VALUE"].
func (p *parser) attrArgs(st *stmt) bool {
	if p.atEOL() {
		return true
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
		return false
	case tString:
		st.value = p.tok.text
		st.hasNum = true // a value was given
	default:
		p.fail("syntax error")
	}
	p.expectEOL()
	return false
}

// labelArgs is label context|domain, label indom|instances INDOM, label
// cluster CLUSTER or label item METRIC.
func (p *parser) labelArgs(st *stmt) bool {
	if p.atEOL() {
		return true
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
	return false
}

// helpArgs is help [COMMAND]; alone it asks for every command's help.
func (p *parser) helpArgs(st *stmt) bool {
	if p.atEOL() {
		return false
	}
	if p.tok.kind != tKeyword || helpUsage[p.tok.text] == nil {
		p.fail("syntax error")
	}
	st.sub = p.tok.text
	p.expectEOL()
	return false
}

// debugArgs is debug FLAG [[,] FLAG]..., a flag a name, -name, number,
// all or none.
func (p *parser) debugArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	for ; p.tok.kind != tEOL; p.advance() {
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
	}
	return false
}

// onOffArgs is timer, getdesc or getiname on|off.
func (p *parser) onOffArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	if !p.is(tKeyword, "on") && !p.is(tKeyword, "off") {
		p.fail("syntax error")
	}
	st.on = p.tok.text == "on"
	p.expectEOL()
	return false
}

// waitArgs is wait SECONDS.
func (p *parser) waitArgs(st *stmt) bool {
	if p.atEOL() {
		return true
	}
	if p.tok.kind != tNumber {
		p.fail("syntax error")
	}
	st.secs = p.tok.num
	p.expectEOL()
	return false
}
