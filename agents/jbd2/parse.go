package jbd2

import (
	"bytes"

	"github.com/gopcp/gopcp/internal/cstrtod"
)

// journal is what one journal's info file said, kept from scan to scan:
// as in PCP's agent, a field the file no longer has keeps the value an
// earlier read gave it.
type journal struct {
	// version is the header's format: 3 for "N transactions (M
	// requested), ...", 2 for the older "N transaction, ..." without
	// the requested count and the request delay.
	version    uint32
	maxBuffers uint32

	tid       uint64 // transactions committed
	requested uint64

	// Averages per transaction, as the kernel prints them.
	waiting, requestDelay, running, locked, flushing, logging uint64 // ms
	commitTime                                                uint64 // µs
	handles, blocks, blocksLogged                             uint64
}

// lineMax is the longest piece of a line the parser looks at alone: PCP's
// agent reads the file with fgets into a buffer of 4096 bytes, so a longer
// line is taken as several, and the parser takes it the same way.
const lineMax = 4096 - 1

// The parser's states, in the order a well-formed file passes them.
const (
	wantHeader = iota
	wantAverage
	inAverages
)

// averageFields are the lines of the averages section: the text that
// follows the number, newline included, and the field it sets.
var averageFields = [...]struct {
	text  string
	field func(*journal) *uint64
}{
	{"ms waiting for transaction\n", func(j *journal) *uint64 { return &j.waiting }},
	{"ms request delay\n", func(j *journal) *uint64 { return &j.requestDelay }},
	{"ms running transaction\n", func(j *journal) *uint64 { return &j.running }},
	{"ms transaction was being locked\n", func(j *journal) *uint64 { return &j.locked }},
	{"ms flushing data (in ordered mode)\n", func(j *journal) *uint64 { return &j.flushing }},
	{"ms logging transaction\n", func(j *journal) *uint64 { return &j.logging }},
	{"us average transaction commit time\n", func(j *journal) *uint64 { return &j.commitTime }},
	{" handles per transaction\n", func(j *journal) *uint64 { return &j.handles }},
	{" blocks per transaction\n", func(j *journal) *uint64 { return &j.blocks }},
	{" logged blocks per transaction\n", func(j *journal) *uint64 { return &j.blocksLogged }},
}

// headers are the two header formats, newest first, in scanf's terms:
// the first number is the transaction count, then for the newer the
// requests, and the last is the block limit.
var headers = [...]struct {
	format    string
	version   uint32
	requested bool
}{
	{"%llu transactions (%llu requested), each up to %u blocks\n", 3, true},
	{"%llu transaction, each up to %u blocks\n", 2, false},
}

// parseInfo reads the text of a journal's info file into j and reports
// whether it had both a header and the line that opens the averages
// section, which is what makes the journal an instance. Lines are taken
// as PCP's agent takes them: at most lineMax bytes at a time, each ending
// at its first NUL byte. Fields are set as they are read, so j may be
// changed even when the text is refused, as PCP's journal record is.
func parseInfo(j *journal, text []byte) bool {
	state := wantHeader
	for len(text) > 0 {
		n := min(len(text), lineMax)
		if i := bytes.IndexByte(text[:n], '\n'); i >= 0 {
			n = i + 1
		}
		line := text[:n]
		text = text[n:]
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		switch state {
		case wantHeader:
			if header(j, line) {
				state = wantAverage
			}
		case wantAverage:
			// Only the first eight bytes are looked at, as PCP does.
			if bytes.HasPrefix(line, []byte("average:")) {
				state = inAverages
			}
		case inAverages:
			average(j, line)
		}
	}
	return state == inAverages
}

// header reads line as either header format, storing each number it
// converts (scanf stores those it reads before a mismatch too), and
// reports whether one format converted all its numbers.
func header(j *journal, line []byte) bool {
	var v [3]uint64
	for _, h := range headers {
		n := scan(line, h.format, v[:])
		all := 2
		if n > 0 {
			j.tid = v[0]
		}
		if h.requested {
			all = 3
			if n > 1 {
				j.requested = v[1]
			}
		}
		if n == all {
			j.maxBuffers = uint32(v[n-1])
			j.version = h.version
			return true
		}
	}
	return false
}

// average reads one line of the averages section: a number as strtoull
// reads it, then one of averageFields' texts exactly. Other lines are
// ignored.
func average(j *journal, line []byte) {
	v, n, _ := cstrtod.ParseUint(line, 10)
	if n == 0 {
		return
	}
	rest := line[n:]
	for _, f := range averageFields {
		if string(rest) == f.text {
			*f.field(j) = v
			return
		}
	}
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// scan is sscanf(line, format, ...) for formats of literal text, white
// space and the conversions %llu and %u, which both store a 64-bit value
// here (the caller truncates %u's). It returns how many numbers it
// converted: a literal that does not match, or the end of line, stops it.
func scan(line []byte, format string, out []uint64) int {
	n, p := 0, 0
	for f := 0; f < len(format); {
		c := format[f]
		switch {
		case isSpace(c):
			for p < len(line) && isSpace(line[p]) {
				p++
			}
			f++
		case c == '%':
			f++
			for f < len(format) && format[f] == 'l' {
				f++
			}
			f++ // the 'u'
			// scanf's conversion skips white space and takes a sign and
			// digits, valued as strtoull values them.
			v, used, _ := cstrtod.ParseUint(line[p:], 10)
			if used == 0 || n >= len(out) {
				return n
			}
			out[n] = v
			n++
			p += used
		default:
			if p >= len(line) || line[p] != c {
				return n
			}
			p++
			f++
		}
	}
	return n
}
