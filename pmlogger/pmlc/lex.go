package pmlc

import (
	"bufio"
	"io"
)

// Tokens of pmlc's command language.
type tok int

const (
	tEOF tok = iota
	tLSQB
	tRSQB
	tComma
	tLBrace
	tRBrace
	tAt
	tEOL
	tLog
	tMandatory
	tAdvisory
	tOn
	tOff
	tMaybe
	tEvery
	tOnce
	tMsec
	tSecond
	tMinute
	tHour
	tQuery
	tShow
	tLogger
	tConnect
	tDisconnect
	tPrimary
	tQuit
	tStatus
	tHelp
	tTimezone
	tLocal
	tPort
	tSock
	tNew
	tVolume
	tSync
	tSleep
	tQA
	tName
	tHostname
	tString
	tURL
	tNumber
)

// keywords are the words the lexer gives their own token outside metric
// lists (inside, every word is a name).
var keywords = map[string]tok{
	"millisecond": tMsec, "milliseconds": tMsec, "msec": tMsec, "msecs": tMsec,
	"disconnect": tDisconnect, "mandatory": tMandatory, "advisory": tAdvisory,
	"timezone": tTimezone, "logger": tLogger, "loggers": tLogger,
	"minute": tMinute, "minutes": tMinute, "min": tMinute, "mins": tMinute,
	"second": tSecond, "seconds": tSecond, "sec": tSecond, "secs": tSecond,
	"hour": tHour, "hours": tHour,
	"connect": tConnect, "primary": tPrimary, "status": tStatus, "volume": tVolume,
	"flush": tSync, "sync": tSync, "sleep": tSleep, "every": tEvery, "local": tLocal,
	"maybe": tMaybe, "query": tQuery, "help": tHelp, "h": tHelp, "once": tOnce,
	"port": tPort, "quit": tQuit, "q": tQuit, "socket": tSock, "show": tShow,
	"log": tLog, "new": tNew, "off": tOff, "on": tOn, "qa": tQA, "at": tAt,
}

// Parser states (pmlc's mystate bits): outside a statement's metrics,
// in them, and inside braces.
const (
	global     = 0
	inSpec     = 1
	inSpecList = 2
)

// maxToken bounds one token's text; longer input is cut into several.
const maxToken = 64 << 10

const eof = -1

// lexer reads the command language one byte at a time, as pmlc's does:
// the line count and the prompt advance when a byte after a newline is
// read, bytes read ahead to end a token wait in pending, and recovery
// after an error (skip) reads on from the input itself, past anything
// pending, as pmlc's does.
type lexer struct {
	src     *bufio.Reader
	in      int // the last byte read from src, eof at its end
	lineno  int
	pending []byte
	echo    io.Writer // -e: each byte read is copied here
	prompt  io.Writer // -i: prompts go here
	state   int
	text    string // the last token's text
	num     int64  // the last NUMBER's value
	errf    func(msg string)
}

func newLexer(r io.Reader) *lexer {
	return &lexer{src: bufio.NewReader(r), in: '\n'}
}

// raw reads the next byte from the input.
func (l *lexer) raw() int {
	if l.in == '\n' {
		l.lineno++
		if l.prompt != nil {
			if l.state == global {
				io.WriteString(l.prompt, "pmlc> ")
			} else {
				io.WriteString(l.prompt, "? ")
			}
		}
	}
	if l.in == eof {
		return eof
	}
	c, err := l.src.ReadByte()
	if err != nil {
		l.in = eof
		return eof
	}
	l.in = int(c)
	if l.echo != nil {
		l.echo.Write([]byte{c})
	}
	return l.in
}

// get takes the next byte: a pending one, else one from the input.
func (l *lexer) get() int {
	if len(l.pending) > 0 {
		c := l.pending[0]
		l.pending = l.pending[1:]
		return int(c)
	}
	return l.raw()
}

// unget returns bytes read past a token.
func (l *lexer) unget(b ...byte) {
	if len(b) == 0 {
		return
	}
	l.pending = append(append([]byte(nil), b...), l.pending...)
}

func (l *lexer) ungetc(c int) {
	if c != eof {
		l.unget(byte(c))
	}
}

// skip is pmlc's recovery after an error: to the closing brace when in
// a list, then to the end of the line, reading the input directly.
func (l *lexer) skip() {
	if l.state&inSpecList != 0 {
		for l.in != '}' && l.in != eof {
			l.raw()
		}
		l.state = global
	}
	for l.in != '\n' && l.in != eof {
		l.raw()
	}
}

func (l *lexer) word(t tok) tok {
	if l.state == global {
		return t
	}
	return tName
}

func isNameByte(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

func isURLByte(c int) bool { return isNameByte(c) || c == '/' }

// next returns the next token.
func (l *lexer) next() tok {
	for {
		c := l.get()
		switch {
		case c == eof:
			return tEOF
		case c == '[':
			return tLSQB
		case c == ']':
			return tRSQB
		case c == ',':
			return tComma
		case c == '{':
			return tLBrace
		case c == '}':
			return tRBrace
		case c == '@':
			return tAt
		case c == '?':
			return l.word(tHelp)
		case c == '\n':
			if l.state&inSpecList == 0 {
				return tEOL
			}
		case c == ' ' || c == '\r' || c == '\t':
			for c = l.get(); c == ' ' || c == '\r' || c == '\t'; c = l.get() {
			}
			l.ungetc(c)
		case c == '#':
			for c = l.get(); c != '\n' && c != eof; c = l.get() {
			}
			l.ungetc(c)
		case c >= '0' && c <= '9':
			b := []byte{byte(c)}
			for c = l.get(); c >= '0' && c <= '9' && len(b) < maxToken; c = l.get() {
				b = append(b, byte(c))
			}
			l.ungetc(c)
			l.text = string(b)
			l.num = atol(b)
			return tNumber
		case c == '"':
			if t, ok := l.quoted(); ok {
				return t
			}
			l.unexpected('"')
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return l.letters(byte(c))
		default:
			l.unexpected(byte(c))
		}
	}
}

// quoted reads a non-empty string in double quotes, after the opening
// one. When there is none, what was read is left pending.
func (l *lexer) quoted() (tok, bool) {
	var b []byte
	for {
		c := l.get()
		if c == '"' && len(b) > 0 {
			l.text = string(b)
			return tString, true
		}
		if c == '"' || c == '\n' || c == eof || len(b) >= maxToken {
			l.ungetc(c)
			l.unget(b...)
			return 0, false
		}
		b = append(b, byte(c))
	}
}

// letters reads a word: a name, a host name (with '-') or a "unix:" or
// "local:" URL, the longest that matches.
func (l *lexer) letters(first byte) tok {
	b := []byte{first}
	c := l.get()
	for (isNameByte(c) || c == '-') && len(b) < maxToken {
		b = append(b, byte(c))
		c = l.get()
	}
	if c == ':' && (string(b) == "unix" || string(b) == "local") {
		b = append(b, ':')
		for c = l.get(); isURLByte(c) && len(b) < maxToken; c = l.get() {
			b = append(b, byte(c))
		}
		if c == '*' {
			b = append(b, '*')
		} else {
			l.ungetc(c)
		}
		l.text = string(b)
		return tURL
	}
	l.ungetc(c)
	l.text = string(b)
	for _, x := range b {
		if x == '-' {
			return tHostname
		}
	}
	if t, ok := keywords[l.text]; ok {
		return l.word(t)
	}
	return tName
}

func (l *lexer) unexpected(c byte) {
	l.errf("Unexpected character '" + string([]byte{c}) + "'")
}

// atol reads digits as C's atol, wrapping as a 64-bit long does.
func atol(b []byte) int64 {
	var n int64
	for _, c := range b {
		n = n*10 + int64(c-'0')
	}
	return n
}
