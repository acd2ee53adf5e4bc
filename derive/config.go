package derive

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/pcp"
)

//go:embed defaults/*.conf
var defaultConfigs embed.FS

// LoadDefaults loads what libpcp loads when a process starts, given
// $PCP_DERIVED_CONFIG as the caller read it (os.LookupEnv): the files
// and directories config names when set (nothing when it is empty), else
// $PCP_VAR_DIR/config/derived, else gopcp's own definitions of PCP's
// default metrics. Missing or unreadable parts are skipped. It returns
// the number of metrics registered.
func (r *Registry) LoadDefaults(config string, set bool) int {
	if !set {
		if dir, ok := pcpconf.Get("PCP_VAR_DIR"); ok {
			path := dir + "/config/derived"
			if st, err := os.Stat(path); err == nil {
				if strings.Contains(path, ":") {
					// a list, as libpcp reads it
					n, _ := r.loadPath(path, true)
					return n
				}
				n, _ := r.loadStat(path, st, true, nil) // stat once
				return n
			}
		}
		return r.loadEmbedded()
	}
	n, _ := r.loadPath(config, true)
	return n
}

func (r *Registry) loadEmbedded() int {
	names, _ := fs.Glob(defaultConfigs, "defaults/*.conf")
	n := 0
	for _, name := range names {
		data, err := defaultConfigs.ReadFile(name)
		if err != nil {
			continue
		}
		n += r.loadConfig("gopcp:"+name, string(data))
	}
	return n
}

// LoadConfig loads definitions from the files and directories of path
// (separated by ':'), pmLoadDerivedConfig: every file of a directory is
// loaded, and directories are descended. Bad lines are reported through
// Warn and skipped; a missing or unreadable file or directory is an
// error. It returns the number of metrics registered.
func (r *Registry) LoadConfig(path string) (int, error) {
	return r.loadPath(path, false)
}

func (r *Registry) loadPath(path string, recover bool) (int, error) {
	total := 0
	for _, part := range strings.Split(path, ":") {
		if part == "" {
			continue
		}
		n, err := r.loadComponent(part, recover, nil)
		if err != nil && !recover {
			return total, err
		}
		total += n
	}
	return total, nil
}

// configErr wraps a file system error with the PCP code libpcp returns
// for it, the negated errno.
func configErr(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return fmt.Errorf("derive: configuration: %w (%w)", pcp.Error(-int32(errno)), err)
	}
	return fmt.Errorf("derive: configuration: %w", err)
}

// loadComponent loads a file, or the files under a directory. above
// holds the directories being walked, so that a link back to one of them
// is a loop: an error (ELOOP, where libpcp ends up once the path has too
// many links) or, when errors are skipped, skipped, instead of a walk
// round the loop that grows exponentially with the links in it.
func (r *Registry) loadComponent(name string, recover bool, above []os.FileInfo) (int, error) {
	st, err := os.Stat(name)
	if err != nil {
		return 0, configErr(err)
	}
	return r.loadStat(name, st, recover, above)
}

// loadStat is loadComponent of a file or directory already looked at.
func (r *Registry) loadStat(name string, st os.FileInfo, recover bool, above []os.FileInfo) (int, error) {
	for _, a := range above {
		if os.SameFile(a, st) {
			return 0, configErr(&os.PathError{Op: "stat", Path: name, Err: syscall.ELOOP})
		}
	}
	if st.Mode().IsRegular() {
		text, err := readConfig(name, st.Size())
		if err != nil {
			return 0, configErr(err)
		}
		return r.loadConfig(name, text), nil
	}
	if !st.IsDir() {
		return 0, nil
	}
	d, err := os.Open(name)
	if err != nil {
		return 0, configErr(err)
	}
	// directory order, not sorted: libpcp uses readdir's order, and the
	// order decides the PMIDs
	entries, err := d.Readdirnames(-1)
	d.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, configErr(err)
	}
	total := 0
	for _, e := range entries {
		n, err := r.loadComponent(filepath.Join(name, e), recover, append(above, st))
		if err != nil && !recover {
			return total, err
		}
		total += n
	}
	return total, nil
}

// maxConfigFile bounds a configuration file read: libpcp's has no
// bound, and a file larger than this is refused as too large (EFBIG).
const maxConfigFile = 16 << 20

// readConfig reads a configuration file whole: its lines, names,
// expressions and texts are then cut from one string, where a string a
// line and a value was half of loading PCP's defaults' allocations. A
// read that fails part way keeps what it read, as libpcp's reading
// stops at the failure. size is the file's size as found, a hint.
func readConfig(name string, size int64) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	// room for the size the file had, and to see its end
	b := make([]byte, 0, min(max(size, 0), maxConfigFile)+512)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if len(b) > maxConfigFile {
			return "", &os.PathError{Op: "read", Path: name, Err: syscall.EFBIG}
		}
		if err != nil {
			// the bytes are never written again: the string is
			// them, not a second copy of the file (12 KB and three
			// page faults of every tool's start for PCP's defaults)
			return unsafe.String(unsafe.SliceData(b), len(b)), nil
		}
	}
}

// loadConfig reads one configuration file: "name = expr" lines,
// "name(oneline) = text" and "name(helptext) = text" attributes (text
// may be quoted with " or ', span lines and use backslash escapes),
// comments starting with '#' and empty lines. As in libpcp, a last line
// without a newline is ignored.
func (r *Registry) loadConfig(fname, text string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	in := &cursor{s: text}
	count := 0
	lineno := 1
	for {
		line, ok := in.line()
		if !ok {
			break // the end, with or without a partial last line
		}
		if line != "" && line[0] != '#' {
			extra, ok := r.configLine(fname, lineno, line, in)
			lineno += extra
			if ok {
				count++
			}
		}
		lineno++
	}
	return count
}

// cursor reads a configuration file's text.
type cursor struct {
	s   string
	off int
}

// line returns the next line without its newline; false at the end or
// for a last line without one (which is then read).
func (c *cursor) line() (string, bool) {
	rest := c.s[c.off:]
	i := strings.IndexByte(rest, '\n')
	if i < 0 {
		c.off = len(c.s)
		return "", false
	}
	c.off += i + 1
	return rest[:i], true
}

// rest reads to the end of the line, its newline included.
func (c *cursor) rest() string {
	rest := c.s[c.off:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i+1]
	}
	c.off += len(rest)
	return rest
}

// configLine handles one line; extra counts the further lines a quoted
// attribute value took.
//
// libpcp finds the line's '=', '(' and ')' in all its bytes but reads
// its parts as C strings, so a NUL byte ends each part it falls in: the
// line its messages show, the name (then not trimmed at its end, as
// libpcp trims from where the name would have ended), the attribute, the
// expression or value (a quoted one then continuing on the next line).
func (r *Registry) configLine(fname string, lineno int, line string, in *cursor) (extra int, registered bool) {
	where := loc{fname, lineno}
	shown := cString(line) // the line as libpcp's messages show it
	eq := strings.IndexByte(line, '=')
	if eq < 0 {
		r.warn("%sError: pmLoadDerivedConfig: missing ``='' after derived metric name\n%s\n", where, shown)
		return 0, false
	}
	head := line[:eq]
	lp := strings.IndexByte(head, '(')
	rp := strings.IndexByte(head, ')')
	nameEnd := eq
	if lp >= 0 {
		nameEnd = lp
	}
	named := cString(head) // libpcp's copy of the name and attribute
	var name string
	if len(named) < nameEnd {
		name = strings.TrimLeftFunc(named, isSpaceRune)
	} else {
		name = strings.TrimFunc(named[:nameEnd], isSpaceRune)
	}
	switch {
	case name == "":
		r.warn("%sError: pmLoadDerivedConfig: derived metric name missing\n%s\n", where, shown)
		return 0, false
	case !checkName(name):
		r.warn("%sError: pmLoadDerivedConfig: illegal derived metric name (%s)\n", where, name)
		return 0, false
	case lp >= 0 && rp < 0:
		r.warn("%sError: pmLoadDerivedConfig: missing ')' after attribute\n%s\n", where, shown)
		return 0, false
	case rp >= 0 && lp < 0:
		r.warn("%sError: pmLoadDerivedConfig: missing '(' before attribute\n%s\n", where, shown)
		return 0, false
	}
	rest := cString(line[eq+1:])
	if lp < 0 {
		expr := strings.TrimLeftFunc(rest, isSpaceRune)
		if expr == "" {
			r.warn("%sError: pmLoadDerivedConfig: expression missing\n%s\n", where, shown)
			return 0, false
		}
		err := r.register(name, expr)
		if err == nil {
			return 0, true
		}
		var se *SyntaxError
		errors.As(err, &se)
		r.warn("%sError: pmRegisterDerived(%s, ...) syntax error\n%s\n%s\n", where, name, rest, caretLine(rest, len(rest)-len(expr)+se.Pos))
		if se.Msg != "" {
			r.warn("%s\n", se.Msg)
		}
		return 0, false
	}
	attr := attrName(named, lp, rp)
	if attr == "" {
		r.warn("%sError: pmLoadDerivedConfig: attribute name missing\n%s\n", where, shown)
		return 0, false
	}
	value := strings.TrimLeftFunc(rest, isSpaceRune)
	var delim byte
	if value != "" && (value[0] == '"' || value[0] == '\'') {
		delim = value[0]
		value = value[1:]
	}
	if value == "" {
		r.warn("%sError: pmLoadDerivedConfig: attribute value missing\n%s\n", where, shown)
		return 0, false
	}
	if delim != 0 {
		var ok bool
		value, extra, ok = r.quotedCut(where, value, delim, in, lineno, len(rest) < len(line)-eq-1)
		if !ok {
			return extra, false
		}
	}
	switch err := r.setAttr(name, attr, value); err {
	case nil:
	case errAttrMetric:
		r.warn("%sError: pmLoadDerivedConfig: cannot set attribute, derived metric (%s) not defined\n%s\n", where, name, shown)
	case errAttrName:
		r.warn("%sError: pmLoadDerivedConfig: attribute (%s) is unknown for metric (%s)\n%s\n", where, attr, name, shown)
	case errAttrDup:
		r.warn("%sError: pmLoadDerivedConfig: duplicate value for attribute (%s) of metric (%s)\n%s\n", where, attr, name, shown)
	}
	return extra, false
}

// cString is s as C reads it, up to its first NUL.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// attrName is the attribute between lp and rp of named, the part before
// '=' up to its first NUL: libpcp trims it from rp back, and a NUL
// before that leaves it untrimmed at its end (and none after '(' at all,
// where libpcp reads the unset bytes past its copy, zeros when fresh).
func attrName(named string, lp, rp int) string {
	switch {
	case rp < lp, len(named) <= lp:
		return ""
	case len(named) < rp:
		return strings.TrimLeftFunc(named[lp+1:], isSpaceRune)
	}
	return strings.TrimFunc(named[lp+1:rp], isSpaceRune)
}

// quotedCut is quoted for a value whose line had a NUL after '=' (cut):
// libpcp reads the line's value up to the NUL, then a newline, then
// goes on with the next line. The value is a C string too, so a NUL in
// a following line ends it.
func (r *Registry) quotedCut(where loc, text string, delim byte, in *cursor, lineno int, cut bool) (string, int, bool) {
	if !cut {
		v, extra, ok := r.quoted(where, text, delim, in, lineno)
		return cString(v), extra, ok
	}
	// the line as libpcp goes on reading it, then the file after it up
	// to the end of the line the value ends on: copying no further keeps
	// a file of such lines read in linear time
	tmp := &cursor{s: text + "\n" + in.s[in.off:quotedEnd(in.s, in.off, delim)], off: len(text) + 1}
	v, extra, ok := r.quoted(where, text, delim, tmp, lineno)
	in.off += tmp.off - (len(text) + 1)
	return cString(v), extra, ok
}

// quotedEnd is where quoted, reading s from off, stops: past the newline
// of the line with the closing delimiter (a backslash takes the byte
// after it), or the end of s.
func quotedEnd(s string, off int, delim byte) int {
	i := off
	for i < len(s) && s[i] != delim {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(s) {
		return len(s)
	}
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// quoted reads a delimited attribute value that starts in text, the end
// of the line just read from in, and may continue on the following
// lines; a backslash takes the next character literally, and a
// backslash before a newline joins the lines. A value without escapes
// after its first is cut from the file's text, not copied.
func (r *Registry) quoted(where loc, text string, delim byte, in *cursor, lineno int) (string, int, bool) {
	// text ends just before the newline in.off follows, so the value's
	// bytes are all in.s from start on
	start := in.off - 1 - len(text)
	s := in.s
	var v []byte // the value when it is not one run of s
	run := start // where the run of the value's bytes being read begins
	lines := 0
	i := start
	for {
		if i >= len(s) {
			in.off = len(s)
			r.warn("%sError: pmLoadDerivedConfig: missing termination (%c) for value\n", loc{where.file, lineno + max(lines-1, 0)}, delim)
			return "", max(lines-1, 0), false
		}
		c := s[i]
		if c == '\n' {
			lines++
		}
		if c == delim {
			break
		}
		if c != '\\' {
			i++
			continue
		}
		// an escape: the run ends before the backslash and the next one
		// starts at the byte it escapes, or after an escaped newline
		if v != nil || i > run {
			v = append(v, s[run:i]...)
		}
		i++
		if i < len(s) && s[i] == '\n' {
			lines++
			i++
			run = i
			continue
		}
		run = i
		if i < len(s) {
			i++
		}
	}
	value := s[run:i]
	if v != nil {
		value = string(append(v, value...))
	}
	i++ // the delimiter
	extra := max(lines-1, 0)
	if lines == 0 {
		if tail := strings.TrimLeftFunc(s[i:in.off-1], isSpaceRune); tail != "" {
			r.warn("%sWarning: pmLoadDerivedConfig: extra text (%s) after attribute value will be ignored\n", loc{where.file, lineno + extra}, tail)
		}
	} else {
		in.off = i
		if t := strings.TrimSpace(in.rest()); t != "" {
			r.warn("%sWarning: pmLoadDerivedConfig: extra text (%s) after attribute value will be ignored\n", loc{where.file, lineno + extra}, t)
		}
	}
	return value, extra, true
}

// loc is a message's "[file:line] " prefix, formatted only when a
// message is printed.
type loc struct {
	file string
	line int
}

func (l loc) String() string { return "[" + l.file + ":" + strconv.Itoa(l.line) + "] " }

// caretLine marks pos in text with '^', blanking everything else but
// white space, as libpcp's configuration errors do.
func caretLine(text string, pos int) string {
	b := []byte(text)
	for i, c := range b {
		switch {
		case i == pos:
			b[i] = '^'
		case !isCSpace(c):
			b[i] = ' '
		}
	}
	return string(b)
}

func isSpaceRune(r rune) bool { return r < 0x80 && isCSpace(byte(r)) }
