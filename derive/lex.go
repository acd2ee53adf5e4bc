package derive

import (
	"strconv"
)

// tokKind is a lexical token, as libpcp's derived-metric scanner sees it.
type tokKind int

const (
	tokError tokKind = iota
	tokEOS
	tokPlus
	tokMinus
	tokStar
	tokSlash
	tokQuest
	tokColon
	tokLParen
	tokRParen
	tokLT
	tokLEQ
	tokEQ
	tokGEQ
	tokGT
	tokNEQ
	tokAnd
	tokOr
	tokNot
	tokAssign
	tokComma
	tokInteger
	tokDouble
	tokName
	tokString
	tokInstName
	tokPattern
	tokType
	tokSemantics
	tokUnits
	// functions: a name immediately followed by "("
	tokAvg
	tokCount
	tokDelta
	tokMax
	tokMin
	tokSum
	tokAnon
	tokRate
	tokInstant
	tokMkconst
	tokRescale
	tokDefined
	tokMatchinst
	tokScalar
)

// funcToken is the token of a function's name. A switch, not a map the
// package's initialisation would build.
func funcToken(name string) (tokKind, bool) {
	switch name {
	case "avg":
		return tokAvg, true
	case "count":
		return tokCount, true
	case "delta":
		return tokDelta, true
	case "max":
		return tokMax, true
	case "min":
		return tokMin, true
	case "sum":
		return tokSum, true
	case "anon":
		return tokAnon, true
	case "rate":
		return tokRate, true
	case "instant":
		return tokInstant, true
	case "mkconst":
		return tokMkconst, true
	case "rescale":
		return tokRescale, true
	case "defined":
		return tokDefined, true
	case "matchinst":
		return tokMatchinst, true
	case "scalar":
		return tokScalar, true
	}
	return 0, false
}

// token is one lexeme: its kind, its text (without the brackets, quotes
// or slashes of instance names, strings and patterns) and the byte offset
// where it starts, the position libpcp reports errors at.
type token struct {
	kind tokKind
	text string
	pos  int
	msg  string // for tokError, the scanner's complaint
}

// lexer scans an expression one token at a time. inMatchinst makes "/"
// open a pattern, from "matchinst(" until the parser closes that call,
// as in libpcp.
type lexer struct {
	src         string
	off         int
	inMatchinst bool
}

func isAlpha(c byte) bool  { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// next returns the next token. At the end of the input the token's
// position is that of the last byte, where libpcp puts it.
func (l *lexer) next() token {
	for l.off < len(l.src) && isCSpace(l.src[l.off]) {
		l.off++
	}
	if l.off >= len(l.src) {
		return token{kind: tokEOS, pos: len(l.src) - 1}
	}
	start := l.off
	c := l.src[start]
	one := func(k tokKind) token {
		l.off++
		return token{kind: k, text: l.src[start:l.off], pos: start}
	}
	two := func(second byte, k2, k1 tokKind) token {
		if start+1 < len(l.src) && l.src[start+1] == second {
			l.off += 2
			return token{kind: k2, text: l.src[start:l.off], pos: start}
		}
		return one(k1)
	}
	switch {
	case isDigit(c):
		return l.number()
	case c == '.':
		return l.number()
	case isAlpha(c):
		return l.name()
	}
	switch c {
	case '+':
		return one(tokPlus)
	case '-':
		return one(tokMinus)
	case '*':
		return one(tokStar)
	case '/':
		if l.inMatchinst {
			return l.delimited('/', tokPattern, "unterminated pattern")
		}
		return one(tokSlash)
	case '(':
		return one(tokLParen)
	case ')':
		return one(tokRParen)
	case '?':
		return one(tokQuest)
	case ':':
		return one(tokColon)
	case ',':
		return one(tokComma)
	case '<':
		return two('=', tokLEQ, tokLT)
	case '>':
		return two('=', tokGEQ, tokGT)
	case '=':
		return two('=', tokEQ, tokAssign)
	case '!':
		return two('=', tokNEQ, tokNot)
	case '&':
		if t := two('&', tokAnd, tokError); t.kind == tokAnd {
			return t
		}
		return token{kind: tokError, pos: start, msg: "Illegal character"}
	case '|':
		if t := two('|', tokOr, tokError); t.kind == tokOr {
			return t
		}
		return token{kind: tokError, pos: start, msg: "Illegal character"}
	case '"':
		end := start + 1
		for end < len(l.src) && l.src[end] != '"' {
			end++
		}
		if end >= len(l.src) {
			l.off = len(l.src)
			return token{kind: tokError, pos: start, msg: "unterminated STRING"}
		}
		l.off = end + 1
		return token{kind: tokString, text: l.src[start+1 : end], pos: start}
	case '[':
		return l.delimited(']', tokInstName, "unterminated instance name")
	}
	l.off++
	return token{kind: tokError, pos: start, msg: "Illegal character"}
}

// number scans digits with at most one '.'; a leading '.' makes a double.
// There is no exponent: "1e3" is 1 followed by the name e3.
func (l *lexer) number() token {
	start := l.off
	dot := false
	for l.off < len(l.src) {
		c := l.src[l.off]
		if c == '.' && !dot {
			dot = true
		} else if !isDigit(c) {
			break
		}
		l.off++
	}
	text := l.src[start:l.off]
	if dot {
		return token{kind: tokDouble, text: text, pos: start}
	}
	if v, err := strconv.ParseUint(text, 10, 64); err != nil || v > 0xffffffff {
		return token{kind: tokError, pos: start, msg: "Constant value too large"}
	}
	return token{kind: tokInteger, text: text, pos: start}
}

func (l *lexer) name() token {
	start := l.off
	for l.off < len(l.src) {
		c := l.src[l.off]
		if !isAlpha(c) && !isDigit(c) && c != '_' && c != '.' {
			break
		}
		l.off++
	}
	text := l.src[start:l.off]
	if l.off < len(l.src) && l.src[l.off] == '(' {
		if k, ok := funcToken(text); ok {
			if k == tokMatchinst {
				l.inMatchinst = true
			}
			return token{kind: k, text: text, pos: start}
		}
	}
	switch text {
	case "type":
		return token{kind: tokType, text: text, pos: start}
	case "semantics":
		return token{kind: tokSemantics, text: text, pos: start}
	case "units":
		return token{kind: tokUnits, text: text, pos: start}
	}
	return token{kind: tokName, text: text, pos: start}
}

// delimited scans an instance name or a pattern: everything up to the
// closing byte, a backslash taking the byte after it literally.
func (l *lexer) delimited(end byte, k tokKind, unterminated string) token {
	start := l.off
	var b []byte
	for i := start + 1; i < len(l.src); i++ {
		c := l.src[i]
		if c == '\\' {
			if i+1 < len(l.src) {
				i++
				b = append(b, l.src[i])
				continue
			}
			break
		}
		if c == end {
			l.off = i + 1
			return token{kind: k, text: string(b), pos: start}
		}
		b = append(b, c)
	}
	l.off = len(l.src)
	return token{kind: tokError, pos: start, msg: unterminated}
}
