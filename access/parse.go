package access

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
)

// Operations a client may be allowed or denied, as pmcd.conf names them.
const (
	OpFetch = 1 << iota // everything that reads: names, descriptors, text, labels, values
	OpStore             // storing values into agents

	OpAll = OpFetch | OpStore // pmcd's operations, all of them
)

// accessToken is one lexical element of the [access] section: a word, a
// quoted string, or one of the delimiters [ ] { } : ; , standing alone.
type accessToken struct {
	text   string
	quoted bool
	line   int
}

// is reports whether t is the reserved word w, whose case is ignored.
func (t accessToken) is(w string) bool { return !t.quoted && strings.EqualFold(t.text, w) }

// isDelim reports whether t is the delimiter d.
func (t accessToken) isDelim(d byte) bool { return !t.quoted && len(t.text) == 1 && t.text[0] == d }

// tokenizeAccess splits [access] text into tokens; lines holds the text
// of each line and first the number of the first.
func tokenizeAccess(lines []string, first int) []accessToken {
	var out []accessToken
	for i, l := range lines {
		line := first + i
		for j := 0; j < len(l); {
			c := l[j]
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				j++
			case strings.IndexByte("[]{}:;,", c) >= 0:
				out = append(out, accessToken{text: string(c), line: line})
				j++
			case c == '"':
				end := strings.IndexByte(l[j+1:], '"')
				if end < 0 {
					end = len(l) - j - 1
				}
				out = append(out, accessToken{text: l[j+1 : j+1+end], quoted: true, line: line})
				j += end + 2
			default:
				k := j
				for k < len(l) && strings.IndexByte(" \t\r[]{}:;,\"", l[k]) < 0 {
					k++
				}
				out = append(out, accessToken{text: l[j:k], line: line})
				j = k
			}
		}
	}
	return out
}

// accessParser reads the statements of an [access] section in PCP's
// grammar, adding each to acl as it goes, and collects PCP's messages.
type accessParser struct {
	toks     []accessToken
	pos      int
	source   string
	lastLine int // the line of the end of input, for messages there
	acl      *Control
	// msgs are PCP's messages in order, errors and warnings alike;
	// failed says whether the section is rejected.
	msgs   []string
	failed bool
}

func (p *accessParser) tok() accessToken {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return accessToken{line: p.lastLine}
}

func (p *accessParser) atEnd() bool { return p.pos >= len(p.toks) }

func (p *accessParser) next() { p.pos++ }

func (p *accessParser) errorf(format string, args ...any) {
	p.failed = true
	p.msgs = append(p.msgs, fmt.Sprintf("%s config[line %d]: Error: ", p.source, p.tok().line)+fmt.Sprintf(format, args...))
}

func (p *accessParser) warnf(format string, args ...any) {
	p.msgs = append(p.msgs, fmt.Sprintf("%s config[line %d]: Warning: ", p.source, p.tok().line)+fmt.Sprintf(format, args...))
}

// skipStatement moves past the next ';'; it reports false at the end of
// input.
func (p *accessParser) skipStatement() bool {
	for !p.atEnd() && !p.tok().isDelim(';') {
		p.next()
	}
	if p.atEnd() {
		return false
	}
	p.next()
	return true
}

// parse reads every statement. Bad statements are reported and skipped,
// as PCP's pmcd does, and make the section fail as a whole.
func (p *accessParser) parse() {
	valid := 0
	for !p.atEnd() {
		var allow bool
		switch t := p.tok(); {
		case t.is("allow"):
			allow = true
		case t.is("disallow"):
			allow = false
		default:
			p.errorf("allow or disallow statement expected")
			if !p.skipStatement() {
				return
			}
			continue
		}
		p.next()
		kind := "host"
		switch t := p.tok(); {
		case t.is("user") || t.is("users"):
			kind = "user"
			p.next()
		case t.is("group") || t.is("groups"):
			kind = "group"
			p.next()
		case t.is("host") || t.is("hosts"):
			p.next()
		}
		n, ok := p.statement(allow, kind)
		if !ok {
			p.failed = true
		} else if n > 0 {
			valid++
		}
		if !p.skipStatement() {
			// A statement without its ';' ends the section in error;
			// PCP says nothing more of it.
			if !p.failed {
				p.msgs = append(p.msgs, fmt.Sprintf("%s config[line %d]: Error: ';' expected", p.source, p.lastLine))
			}
			p.failed = true
			return
		}
	}
	if p.failed {
		return
	}
	if valid == 0 {
		p.errorf("no valid statements in [access] section")
	}
}

// statement reads the names and permissions of one allow or disallow
// statement and adds its entries; it returns how many took effect.
func (p *accessParser) statement(allow bool, kind string) (int, bool) {
	names, ok := p.names(kind)
	if !ok {
		return 0, false
	}
	p.next()
	var spec permSpec
	if !p.permissions(allow, &spec, false) {
		return 0, false
	}
	added := 0
	for _, name := range names {
		var err error
		switch kind {
		case "user":
			err = p.acl.addUser(name, spec)
		case "group":
			err = p.acl.addGroup(name, spec)
		default:
			err = p.acl.addHost(name, spec)
		}
		if err == nil {
			added++
			continue
		}
		code := pcp.CodeOf(err, pcp.Error(-int32(syscall.EINVAL)))
		ignored := code == pcp.Error(-int32(syscall.EHOSTUNREACH)) || code == pcp.Error(-int32(syscall.EHOSTDOWN))
		// libpcp says these through pmNotifyErr, at its Error level: the
		// "Error: " start tells them from the parser's bare lines.
		for _, n := range p.acl.notes {
			p.msgs = append(p.msgs, NotePrefix+n)
		}
		p.acl.notes = nil
		if ignored {
			p.msgs = append(p.msgs, "Warning: the following access control specification will be ignored")
		}
		p.warnf("access control error for %s '%s': %s", kind, name, code.Error())
		if !ignored {
			return added, false
		}
	}
	return added, true
}

// names reads a comma-separated list of names ending in ':'.
func (p *accessParser) names(kind string) ([]string, bool) {
	var names []string
	another := true
	for !p.atEnd() && another {
		t := p.tok()
		if t.isDelim(':') || t.isDelim(';') {
			break
		}
		names = append(names, t.text)
		p.next()
		t = p.tok()
		if !t.isDelim(',') && !t.isDelim(':') {
			p.errorf("',' or ':' expected after \"%s\"", names[len(names)-1])
			return nil, false
		}
		another = t.isDelim(',')
		if another {
			p.next()
		}
	}
	if len(names) == 0 {
		p.errorf("no %ss in allow/disallow statement", kind)
		return nil, false
	}
	if another {
		p.errorf("%s expected after ','", kind)
		return nil, false
	}
	if !p.tok().isDelim(':') {
		p.errorf("':' expected after \"%s\"", names[len(names)-1])
		return nil, false
	}
	return names, true
}

// permSpec is what a statement says about operations: which it speaks of
// (spec), which of those it denies (deny), and its connection limit (0
// unspecified, -1 unlimited).
type permSpec struct {
	spec, deny int
	maxCons    int
}

// permissions reads an operation list up to its ';' in PCP's grammar,
// including "all except ..." (read again with the sense reversed) and
// "maximum N connections" or "unlimited connections".
func (p *accessParser) permissions(allow bool, s *permSpec, recursion bool) bool {
	if p.tok().isDelim(';') {
		p.errorf("empty or incomplete permissions list")
		return false
	}
	haveOps, haveAll, haveComma := false, false, false
	for !p.atEnd() && !p.tok().isDelim(';') {
		op := 0
		t := p.tok()
		switch {
		case t.is("fetch"):
			op = OpFetch
		case t.is("store"):
			op = OpStore
		case t.is("all"):
			if haveOps {
				p.errorf("can't have \"all\" mixed with specific permissions")
				return false
			}
			haveAll = true
			if recursion {
				p.errorf("can't have \"all\" within an \"all except\"")
				return false
			}
			p.next()
			if allow {
				s.deny = 0
			} else {
				s.deny = OpAll
			}
			if p.tok().is("except") {
				p.next()
				if !p.permissions(!allow, s, true) {
					return false
				}
			}
			s.spec = OpAll
		case t.is("maximum") || t.is("unlimited"):
			unlimited := t.is("unlimited")
			if s.maxCons != 0 {
				p.errorf("connection limit already specified")
				return false
			}
			if recursion && !haveOps {
				p.errorf("connection limit may not immediately follow \"all except\"")
				return false
			}
			if recursion == allow {
				p.errorf("can't specify connection limit in a disallow statement")
				return false
			}
			if unlimited {
				s.maxCons = -1
			} else {
				p.next()
				n, err := strconv.Atoi(p.tok().text)
				if err != nil || !isNumber(p.tok().text) || n <= 0 {
					p.errorf("maximum connection limit must be a positive number")
					return false
				}
				s.maxCons = n
				p.next()
			}
			if !p.tok().is("connections") {
				p.errorf("\"connections\" expected")
				return false
			}
			p.next()
		default:
			p.errorf("bad access specifier")
			return false
		}
		if op != 0 {
			if haveAll {
				p.errorf("can't have \"all\" mixed with specific permissions")
				return false
			}
			haveOps = true
			s.spec |= op
			if allow {
				s.deny &^= op
			} else {
				s.deny |= op
			}
			p.next()
		}
		t = p.tok()
		if !t.isDelim(',') && !t.isDelim(';') {
			p.errorf("',' or ';' expected in permission list")
			return false
		}
		haveComma = t.isDelim(',')
		if haveComma {
			p.next()
		}
	}
	if haveComma {
		p.errorf("misplaced (trailing) ',' in permission list")
		return false
	}
	return true
}
