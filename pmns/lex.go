package pmns

import (
	"bufio"
	"bytes"
	"io"

	"github.com/gopcp/gopcp/pcp"
)

type tokKind int

const (
	tokEOF tokKind = iota
	tokName
	tokPath
	tokPMID
	tokLBrace
	tokRBrace
	tokBogus
)

type token struct {
	kind tokKind
	text string
	pmid pcp.PMID
}

// maxLine is the longest line libpcp's reader takes, newline included: it
// reads into a 256-byte buffer and gives up on anything longer.
const maxLine = 255

// lexer reads the pmns(5) token stream the way libpcp does, from pmcpp's
// output or from the raw file, and keeps libpcp's view of its line buffer so
// its diagnostics come out the same.
type lexer struct {
	// in is the input, read a line at a time: a namespace file is
	// not held whole, whose pages a short-lived tool would touch once
	// (pminfo -L reads the system's, 50 kB).
	in    *bufio.Reader
	ended bool
	file  string
	line  int32 // a C int: line markers can set any value
	buf   []byte
	// sq is the squeezed line's storage, reused from line to line.
	sq    []byte
	cur   int // next unread byte of buf
	tok   int // where the last token began in buf; -1 before the first
	diags []Diagnostic
	// cppErr is pmcpp's failure, which libpcp only notices when the
	// output ends.
	cppErr *CPPError
}

func newLexer(in io.Reader, file string, cppErr *CPPError) *lexer {
	// Before any line marker libpcp's count starts at 1, so without pmcpp
	// the first line is line 2; with pmcpp the first marker resets it.
	return &lexer{in: bufio.NewReaderSize(in, inputBuffer), file: file, line: 1, tok: -1, cppErr: cppErr}
}

// inputBuffer is how much of the input the lexer holds; a line it takes
// is at most maxLine bytes.
const inputBuffer = 4096

// diag records a message as libpcp's err() prints it. Like err(), it
// overwrites the line buffer with the caret line, which is what a second
// message about the same token shows.
func (l *lexer) diag(msg string) {
	d := Diagnostic{File: l.file, Line: int(l.line), Msg: msg, Col: -1}
	if l.line > 0 {
		d.Text = string(l.buf)
		if l.tok >= 0 {
			d.Col = l.tok
			l.buf = caretLine(l.buf, l.tok)
		}
	}
	l.diags = append(l.diags, d)
}

// diagBuf records a message that libpcp formats into its line buffer
// first, so the buffer (which it prints as the line) is the message, cut
// to the buffer's size.
func (l *lexer) diagBuf(msg string) {
	if len(msg) > maxLine {
		msg = msg[:maxLine]
	}
	l.buf = []byte(msg)
	l.diag(msg)
}

// next returns the next token; ok is false when the file is refused.
func (l *lexer) next() (token, bool) {
	for l.cur < len(l.buf) && isSpace(l.buf[l.cur]) {
		l.cur++
	}
	for l.cur >= len(l.buf) {
		if !l.readLine() {
			return token{}, false
		}
		if l.ended {
			return token{kind: tokEOF}, true
		}
	}
	l.tok = l.cur
	end := l.cur
	for end < len(l.buf) && !isSpace(l.buf[end]) {
		end++
	}
	// libpcp reads on past the end of a line that ends in ':', into stale
	// buffer contents; the token ends at the line's end here.
	text := l.buf[l.cur:end]
	l.cur = end
	return l.classify(text), true
}

// readLine loads the next line into buf. At the end of the input (or at
// a read error, where libpcp's fgets stops too) it sets ended; it returns
// false when libpcp refuses what it read.
func (l *lexer) readLine() bool {
	for {
		var raw []byte
		if !l.ended {
			raw, _ = l.in.Peek(maxLine)
		}
		if len(raw) == 0 {
			l.ended = true
			l.line = -1
			if l.cppErr != nil {
				l.diag(cppExit)
				return false
			}
			return true
		}
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			raw = raw[:i+1]
		}
		taken := len(raw)
		if i := bytes.IndexByte(raw, 0); i >= 0 {
			raw = raw[:i] // the C string ends there
		}
		sq := squeeze(l.sq[:0], raw)
		l.sq = sq
		if len(raw) == 0 || raw[len(raw)-1] != '\n' {
			// libpcp squeezes in place and complains before ending the
			// string, so the rest of the raw line is still in the buffer.
			l.buf = append(sq, raw[len(sq):]...)
			l.diag("Absurdly long line, cannot recover")
			return false
		}
		// raw was valid only until the next read; the line is in sq.
		l.in.Discard(taken)
		l.buf = sq
		l.cur = 0
		if len(sq) > 0 && sq[0] == '#' {
			n, name, ok := parseMarker(sq)
			if !ok {
				if n != nil {
					// sscanf stored the number before failing.
					l.line = *n
				}
				l.diag("Illegal line number control number")
				return false
			}
			l.line, l.file = *n-1, name
			continue
		}
		l.line++
		for l.cur < len(l.buf) && isSpace(l.buf[l.cur]) {
			l.cur++
		}
		return true
	}
}

// squeeze is libpcp's clean-up of a line: no leading white space, each run
// of white space cut to its first byte, and none on either side of a colon,
// so "KERNEL : 3 : 4" after macro substitution is one token. A colon after
// leading white space is lost: libpcp writes it before its buffer. The
// line is appended to out, whose storage the caller reuses.
func squeeze(out, raw []byte) []byte {
	inSpace := false
	for _, c := range raw {
		switch {
		case isSpace(c):
			if !inSpace {
				if len(out) > 0 && out[len(out)-1] != ':' {
					out = append(out, c)
				}
				inSpace = true
			}
		case c == ':':
			if inSpace {
				inSpace = false
				if len(out) == 0 {
					continue
				}
				out = out[:len(out)-1]
			}
			out = append(out, c)
		default:
			out = append(out, c)
			inSpace = false
		}
	}
	return out
}

// parseMarker reads a pmcpp line marker as libpcp's sscanf("# %d \"%s")
// does: the name is the next word with its last byte (the quote) removed.
// n is set whenever the number was read, even if the rest fails, because
// sscanf has stored it by then.
func parseMarker(b []byte) (n *int32, name string, ok bool) {
	i := 1
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	v, used := cInt(b[i:])
	if used == 0 {
		return nil, "", false
	}
	n = &v
	i += used
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i == len(b) || b[i] != '"' {
		return n, "", false
	}
	i++
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	start := i
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	if i == start {
		return n, "", false
	}
	return n, string(b[start : i-1]), true
}

// cInt converts a decimal as scanf's %d does with glibc: optional white
// space and sign, at least one digit; a value beyond a long saturates, and
// the long is then cut to an int. used is 0 when there is no number.
func cInt(b []byte) (v int32, used int) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	start := i
	var u uint64
	overflow := false
	for ; i < len(b) && isDigit(b[i]); i++ {
		d := uint64(b[i] - '0')
		if u > (1<<63-d)/10 {
			overflow = true
		}
		if !overflow {
			u = u*10 + d
		}
	}
	if i == start {
		return 0, 0
	}
	var long int64
	switch {
	case neg && (overflow || u > 1<<63):
		long = -1 << 63
	case neg:
		long = -int64(u)
	case overflow || u > 1<<63-1:
		long = 1<<63 - 1
	default:
		long = int64(u)
	}
	return int32(long), i
}
