package main

import (
	"strconv"
	"strings"
)

// tokKind is a token of dbpmda's command language.
type tokKind int

const (
	tEOL tokKind = iota
	tKeyword
	tName     // [A-Za-z][A-Za-z0-9_./:-]*
	tNegName  // -name, a debug flag to clear
	tNumber   // 123 or 0x1f
	tNegNum   // -123
	tNumber2D // 29.3
	tNumber3D // 29.0.5
	tString   // "..." or '...'
	tPath     // a file name after open/namespace/watch
	tComma
	tEqual
	tPlus
	tBad // a lexical error; text is the message
)

// token is one token with where it ends in the line: end counts the
// bytes the scanner has read, one past the token (its look-ahead), which
// is where PCP's dbpmda puts error marks and echo boundaries.
type token struct {
	kind tokKind
	text string
	num  int32
	n2   [2]int32
	n3   [3]int32
	end  int
}

var keywords = map[string]string{
	"add": "add", "all": "all", "attr": "attr", "attribute": "attr",
	"children": "children", "close": "close", "cluster": "cluster",
	"context": "context", "debug": "debug", "delete": "delete",
	"desc": "desc", "domain": "domain", "dso": "dso", "exit": "quit",
	"fetch": "fetch", "getiname": "getiname", "getdesc": "getdesc",
	"help": "help", "indom": "indom", "inet": "inet", "instance": "instance",
	"instances": "instances", "ipv6": "ipv6", "item": "item", "label": "label",
	"name": "name", "namespace": "namespace", "none": "none", "off": "off",
	"on": "on", "open": "open", "pipe": "pipe", "pmid": "pmid",
	"profile": "profile", "q": "quit", "quit": "quit", "socket": "socket",
	"status": "status", "store": "store", "text": "text", "timer": "timer",
	"traverse": "traverse", "unix": "unix", "wait": "wait", "watch": "watch",
}

// fileWords switch the scanner to file names for the next token.
var fileWords = map[string]bool{"dso": true, "namespace": true, "pipe": true, "socket": true, "watch": true}

// lexer scans one line (with its newline) as dbpmda's scanner does.
type lexer struct {
	line  string
	pos   int
	fname bool // the next word may be a file name
}

func isNameStart(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isNameChar(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '/' || c == ':' || c == '-'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// consumed is how far the scanner has read after a token ending at i: one
// character of look-ahead, unless the line has ended.
func (l *lexer) consumed(i int) int {
	return min(i+1, len(l.line))
}

func (l *lexer) next() token {
	s := l.line
	for l.pos < len(s) && (s[l.pos] == ' ' || s[l.pos] == '\t' || s[l.pos] == '\r') {
		l.pos++
	}
	if l.pos >= len(s) {
		return token{kind: tEOL, end: len(s)}
	}
	start := l.pos
	c := s[start]
	if c == '\n' || c == '#' {
		l.pos = len(s)
		return token{kind: tEOL, end: len(s)}
	}
	span := func(ok func(byte) bool, from int) int {
		i := from
		for i < len(s) && ok(s[i]) {
			i++
		}
		return i
	}
	// A file name: the longest run of non-blanks, unless a keyword, a
	// name or a number is as long (the scanner prefers the earlier rule on
	// a tie). Until one is read the scanner stays ready for it.
	if l.fname {
		end := span(func(b byte) bool { return b != ' ' && b != '\t' && b != '\n' }, start)
		word := s[start:end]
		nameEnd := start
		switch {
		case isNameStart(c):
			nameEnd = span(isNameChar, start+1)
		case isDigit(c):
			nameEnd = span(func(b byte) bool { return isDigit(b) || b == '.' }, start)
		case c == '"' || c == '\'' || c == '#':
			nameEnd = end
		}
		if nameEnd < end {
			l.fname = false
			l.pos = end
			return token{kind: tPath, text: word, end: l.consumed(end)}
		}
	}
	switch {
	case isNameStart(c):
		end := span(isNameChar, start+1)
		l.pos = end
		word := s[start:end]
		if kw, ok := keywords[word]; ok {
			if fileWords[word] {
				l.fname = true
			}
			return token{kind: tKeyword, text: kw, end: l.consumed(end)}
		}
		return token{kind: tName, text: word, end: l.consumed(end)}
	case c == '-' && start+1 < len(s) && isNameStart(s[start+1]):
		end := span(isNameChar, start+2)
		l.pos = end
		return token{kind: tNegName, text: s[start:end], end: l.consumed(end)}
	case c == '-' && start+1 < len(s) && isDigit(s[start+1]):
		end := span(isDigit, start+1)
		l.pos = end
		n, _ := strconv.ParseInt(s[start:end], 10, 64)
		return token{kind: tNegNum, num: int32(n), end: l.consumed(end)}
	case c == '0' && start+2 < len(s) && (s[start+1] == 'x' || s[start+1] == 'X') && isDigit(s[start+2]):
		end := span(isDigit, start+2)
		l.pos = end
		n, _ := strconv.ParseInt(s[start+2:end], 16, 64)
		return token{kind: tNumber, num: int32(n), end: l.consumed(end)}
	case isDigit(c):
		end := span(isDigit, start)
		var parts []string
		parts = append(parts, s[start:end])
		for len(parts) < 3 && end+1 < len(s) && s[end] == '.' && isDigit(s[end+1]) {
			e := span(isDigit, end+1)
			parts = append(parts, s[end+1:e])
			end = e
		}
		l.pos = end
		t := token{end: l.consumed(end)}
		var v [3]int32
		for i, p := range parts {
			n, _ := strconv.ParseInt(p, 10, 64)
			v[i] = int32(n)
		}
		switch len(parts) {
		case 1:
			t.kind, t.num = tNumber, v[0]
		case 2:
			t.kind, t.n2 = tNumber2D, [2]int32{v[0], v[1]}
		default:
			t.kind, t.n3 = tNumber3D, v
		}
		return t
	case c == '"' || c == '\'':
		end := strings.IndexAny(s[start+1:], string(c)+"\n")
		if end > 0 && s[start+1+end] == c {
			l.pos = start + 1 + end + 1
			return token{kind: tString, text: s[start+1 : start+1+end], end: l.consumed(l.pos)}
		}
		if end > 0 { // ran into the end of the line
			l.pos = start + 1 + end + 1
			return token{kind: tBad, text: "Expected " + string(c), end: l.pos}
		}
	case c == ',':
		l.pos++
		return token{kind: tComma, end: l.consumed(l.pos)}
	case c == '=':
		l.pos++
		return token{kind: tEqual, end: l.consumed(l.pos)}
	case c == '+':
		l.pos++
		return token{kind: tPlus, end: l.consumed(l.pos)}
	case c == '?':
		l.pos++
		return token{kind: tKeyword, text: "help", end: l.consumed(l.pos)}
	}
	l.pos = start + 1
	return token{kind: tBad, text: "Illegal character", end: l.consumed(l.pos)}
}

// rest returns the raw text after the scanner's position, for the
// arguments of "open pipe", split on blanks with quotes grouping.
func (l *lexer) rest() []string {
	var args []string
	var cur strings.Builder
	var delim byte
	have := false
	for l.pos < len(l.line) {
		c := l.line[l.pos]
		l.pos++
		if delim != 0 {
			if c == delim {
				delim = 0
				continue
			}
		} else if c == ' ' || c == '\t' || c == '\n' {
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
			continue
		} else if c == '"' || c == '\'' {
			delim = c
			have = true
			continue
		}
		cur.WriteByte(c)
		have = true
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}
