package pmda

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// HelpEntry is one entry of a help text source: the text of a metric or
// of an instance domain.
type HelpEntry struct {
	// Name is the entry's name as written after the "@": a metric name,
	// a numeric PMID (29.0.5) or an instance domain (29.2).
	Name string
	// ID is the PMID, or for an instance domain the InDom.
	ID    uint32
	InDom bool
	// OneLine is the rest of the "@" line, Text the lines after it with
	// trailing newlines removed. Either may be empty.
	OneLine string
	Text    string
	// Line is where the entry ends in its source, for messages.
	Line int
}

// key is the entry's index key in a help database: the PMID, or the InDom
// with the top bit set, which no PMID has.
func (e *HelpEntry) key() uint32 {
	if e.InDom {
		return e.ID | 1<<31
	}
	return e.ID
}

// HelpOptions say how to read help text source.
type HelpOptions struct {
	// File names the source in messages.
	File string
	// Lookup resolves metric names; nil resolves none, leaving numeric
	// names only. It returns a PCP error such as pcp.ErrName for a name
	// it does not know.
	Lookup func(name string) (pcp.PMID, error)
	// Domains maps symbolic domain names to numbers, so that "@ SIMPLE.0"
	// names instance domain 0 of SIMPLE's domain, as PCP's Install
	// scripts arrange by editing the file before newhelp reads it.
	Domains map[string]uint32
	// Limits applies newhelp's buffer limits: lines longer than 127 bytes
	// are split and entries longer than 1024 bytes cut, with a warning
	// each, so that the result is byte for byte what newhelp builds.
	// Without it lines and entries may be of any length.
	Limits bool
	// Notify, if set, is called in source order with each entry kept
	// (err nil) and each problem found (e nil), as newhelp reports them.
	Notify func(e *HelpEntry, err *HelpError)
}

// HelpError is a problem in help text source: a warning (an entry cut or
// split, or empty) when Fatal is false, else an entry left out.
type HelpError struct {
	File  string
	Line  int
	Msg   string
	Fatal bool
	Err   error // the PCP error behind an abandoned entry, if any
}

func (e *HelpError) Error() string { return fmt.Sprintf("[%s:%d] %s", e.File, e.Line, e.Msg) }
func (e *HelpError) Unwrap() error { return e.Err }

// newhelp's buffer sizes.
const (
	helpMaxLine  = 128
	helpMaxEntry = 1024
)

// ParseHelp reads help text in newhelp(1)'s source format:
//
//	# a comment line
//	@ metric.name one-line summary
//	Longer text, over as many lines as needed,
//	up to the next "@" line.
//
//	@ 29.2 one-line summary of instance domain 2 of domain 29
//	...
//
// Lines starting with "#" are skipped wherever they are; text before the
// first "@" is ignored. A name the Lookup does not know may be a numeric
// PMID (domain.cluster.item) or an instance domain (domain.serial, the
// domain possibly symbolic). Entries that cannot be placed, and an entry
// repeating the one before it, are left out with a *HelpError each; the
// other entries are returned, with every problem joined in the error.
func ParseHelp(r io.Reader, opts HelpOptions) ([]HelpEntry, error) {
	hp := NewHelpParser(opts)
	err := hp.Parse(r, opts.File)
	return hp.Entries(), err
}

// HelpParser reads several help text sources into one set of entries, as
// newhelp reads the files it is given: lines are counted across them and a
// repeat of the last entry of one file at the start of the next is caught.
// A HelpParser belongs to one goroutine.
type HelpParser struct {
	opts    HelpOptions
	entries []HelpEntry
	errs    []error
	line    int
}

// NewHelpParser returns a parser with the given options; File is
// replaced by each Parse call's.
func NewHelpParser(opts HelpOptions) *HelpParser { return &HelpParser{opts: opts} }

// Parse reads one source, file naming it in messages ("" for "<stdin>"),
// and returns its problems joined.
func (p *HelpParser) Parse(r io.Reader, file string) error {
	src, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	return p.parseSource(src, file)
}

// parseSource is Parse of a source already in memory.
func (p *HelpParser) parseSource(src []byte, file string) error {
	if file == "" {
		file = "<stdin>"
	}
	p.opts.File = file
	p.errs = nil
	p.scan(src)
	return errors.Join(p.errs...)
}

// Entries returns the entries kept so far, in source order.
func (p *HelpParser) Entries() []HelpEntry { return p.entries }

func (p *HelpParser) problem(fatal bool, cause error, format string, args ...any) {
	he := &HelpError{File: p.opts.File, Line: p.line, Msg: fmt.Sprintf(format, args...), Fatal: fatal, Err: cause}
	p.errs = append(p.errs, he)
	if p.opts.Notify != nil {
		p.opts.Notify(nil, he)
	}
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// scan splits src into entries the way newhelp reads its input: as fgets
// chunks of at most helpMaxLine-1 bytes when limits apply, else whole lines.
func (p *HelpParser) scan(src []byte) {
	var buf []byte // the entry so far: name, one-line text, help
	skip := true
	cut := false // the last entry was cut at helpMaxEntry
	next := func() ([]byte, bool) {
		if len(src) == 0 {
			return nil, false
		}
		n := bytes.IndexByte(src, '\n') + 1
		if n == 0 {
			n = len(src)
		}
		if p.opts.Limits && n > helpMaxLine-1 {
			n = helpMaxLine - 1
		}
		c := src[:n]
		src = src[n:]
		return c, true
	}
	for {
		chunk, ok := next()
		p.line++
		if !ok {
			if len(buf) > 0 {
				p.entry(buf)
			}
			return
		}
		if chunk[0] == '#' {
			continue
		}
		if chunk[0] == '@' {
			if len(buf) > 0 {
				p.entry(buf)
			}
			rest := chunk[1:]
			for len(rest) > 0 && isSpace(rest[0]) {
				rest = rest[1:]
			}
			buf = append(buf[:0], rest...)
			// newhelp loses the entry after one it cut: the cut leaves
			// its buffer such that the next "@" line reads as empty.
			skip = len(rest) == 0 || cut
			cut = false
			if skip {
				buf = buf[:0]
				p.problem(false, nil, "null entry?")
				continue
			}
		} else if skip {
			continue
		} else {
			buf = append(buf, chunk...)
		}
		if buf[len(buf)-1] != '\n' {
			buf = append(buf, '\n')
			p.problem(false, nil, "long line split after ...\n%s", buf)
			p.line--
		}
		if p.opts.Limits && len(buf) > helpMaxEntry {
			buf = append(buf[:helpMaxEntry-2], '\n')
			p.problem(false, nil, "entry truncated after ... %s", buf[len(buf)-63:])
			skip, cut = true, true
		}
	}
}

// entry finishes one entry: trailing newlines become one, then the name,
// one-line text and help text are split out and the name resolved.
func (p *HelpParser) entry(buf []byte) {
	end := len(buf) - 1
	for end > 0 && buf[end] == '\n' {
		end--
	}
	body := string(buf[:end+1]) + "\n"
	i := 0
	for i < len(body) && !isSpace(body[i]) {
		i++
	}
	name := body[:i]
	rest := body[i:]
	if rest[0] != '\n' {
		rest = rest[1:]
	}
	for len(rest) > 0 && rest[0] != '\n' && isSpace(rest[0]) {
		rest = rest[1:]
	}
	nl := strings.IndexByte(rest, '\n') // body ends in one, so there is one
	e := HelpEntry{Name: name, OneLine: rest[:nl], Line: p.line}
	text := rest[nl+1:]
	for len(text) > 0 && text[len(text)-1] == '\n' {
		text = text[:len(text)-1]
	}
	e.Text = text
	if err := p.resolve(&e); err != nil {
		p.problem(true, err, "%s: %v, entry abandoned", name, err)
		return
	}
	// newhelp only notices a repeat of the entry just before.
	if n := len(p.entries); n > 1 && p.entries[n-1].key() == e.key() {
		p.problem(true, nil, "duplicate key (%s) entry abandoned", e.idString())
		return
	}
	// The warnings name the entry by its whole first line.
	first := body[:strings.IndexByte(body, '\n')]
	if e.OneLine == "" {
		p.problem(false, nil, "%s: warning, null oneline", first)
	}
	if e.Text == "" {
		p.problem(false, nil, "%s: warning, null help", first)
	}
	p.entries = append(p.entries, e)
	if p.opts.Notify != nil {
		p.opts.Notify(&p.entries[len(p.entries)-1], nil)
	}
}

func (e *HelpEntry) idString() string {
	if e.InDom {
		return pcp.InDom(e.ID).String()
	}
	return pcp.PMID(e.ID).String()
}

// resolve sets the entry's ID: by name, else as numbers.
func (p *HelpParser) resolve(e *HelpEntry) error {
	lookupErr := error(pcp.ErrName)
	if p.opts.Lookup != nil {
		id, err := p.opts.Lookup(e.Name)
		if err == nil {
			if id == pcp.PMIDNull {
				return fmt.Errorf("unknown metric")
			}
			e.ID = uint32(id)
			return nil
		}
		lookupErr = err
	}
	nums, n := scanInts(e.Name, p.opts.Domains)
	switch {
	case n >= 3:
		e.ID = uint32(nums[0]&0x1ff)<<22 | uint32(nums[1]&0xfff)<<10 | uint32(nums[2]&0x3ff)
	case n == 2:
		e.ID = uint32(nums[0]&0x1ff)<<22 | uint32(nums[1]&0x3fffff)
		e.InDom = true
	default:
		return lookupErr
	}
	return nil
}

// scanInts reads up to three dot-separated integers from the start of s as
// sscanf("%d.%d.%d") does, the first possibly a symbolic domain, and says
// how many it read.
func scanInts(s string, domains map[string]uint32) ([3]int64, int) {
	var out [3]int64
	for k := 0; k < 3; k++ {
		if k > 0 {
			if s == "" || s[0] != '.' {
				return out, k
			}
			s = s[1:]
		}
		if k == 0 && domains != nil {
			j := 0
			for j < len(s) && s[j] != '.' {
				j++
			}
			if d, ok := domains[s[:j]]; ok {
				out[0] = int64(d)
				s = s[j:]
				continue
			}
		}
		for len(s) > 0 && isSpace(s[0]) {
			s = s[1:]
		}
		j := 0
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		d := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == d {
			return out, k
		}
		v, err := strconv.ParseInt(s[:j], 10, 32)
		if err != nil {
			v = int64(int32(v)) // overflow: C leaves it undefined; any value will do
		}
		out[k] = v
		s = s[j:]
	}
	return out, 3
}
