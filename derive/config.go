package derive

import (
	"bufio"
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
	path := config
	if !set {
		if dir, ok := pcpconf.Get("PCP_VAR_DIR"); ok {
			if _, err := os.Stat(dir + "/config/derived"); err == nil {
				path = dir + "/config/derived"
			}
		}
		if path == "" {
			return r.loadEmbedded()
		}
	}
	n, _ := r.loadPath(path, true)
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
		n += r.loadConfig("gopcp:"+name, strings.NewReader(string(data)))
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
	for _, a := range above {
		if os.SameFile(a, st) {
			return 0, configErr(&os.PathError{Op: "stat", Path: name, Err: syscall.ELOOP})
		}
	}
	if st.Mode().IsRegular() {
		f, err := os.Open(name)
		if err != nil {
			return 0, configErr(err)
		}
		defer f.Close()
		return r.loadConfig(name, f), nil
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

// loadConfig reads one configuration file: "name = expr" lines,
// "name(oneline) = text" and "name(helptext) = text" attributes (text
// may be quoted with " or ', span lines and use backslash escapes),
// comments starting with '#' and empty lines. As in libpcp, a last line
// without a newline is ignored.
func (r *Registry) loadConfig(fname string, in io.Reader) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	br := bufio.NewReader(in)
	count := 0
	lineno := 1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			break // EOF, with or without a partial last line
		}
		line = strings.TrimSuffix(line, "\n")
		if line != "" && line[0] != '#' {
			extra, ok := r.configLine(fname, lineno, line, br)
			lineno += extra
			if ok {
				count++
			}
		}
		lineno++
	}
	return count
}

// configLine handles one line; extra counts the further lines a quoted
// attribute value took.
func (r *Registry) configLine(fname string, lineno int, line string, br *bufio.Reader) (extra int, registered bool) {
	where := loc{fname, lineno}
	eq := strings.IndexByte(line, '=')
	if eq < 0 {
		r.warn("%sError: pmLoadDerivedConfig: missing ``='' after derived metric name\n%s\n", where, line)
		return 0, false
	}
	head := line[:eq]
	lp := strings.IndexByte(head, '(')
	rp := strings.IndexByte(head, ')')
	nameEnd := eq
	if lp >= 0 {
		nameEnd = lp
	}
	name := strings.TrimFunc(line[:nameEnd], isSpaceRune)
	switch {
	case name == "":
		r.warn("%sError: pmLoadDerivedConfig: derived metric name missing\n%s\n", where, line)
		return 0, false
	case !checkName(name):
		r.warn("%sError: pmLoadDerivedConfig: illegal derived metric name (%s)\n", where, name)
		return 0, false
	case lp >= 0 && rp < 0:
		r.warn("%sError: pmLoadDerivedConfig: missing ')' after attribute\n%s\n", where, line)
		return 0, false
	case rp >= 0 && lp < 0:
		r.warn("%sError: pmLoadDerivedConfig: missing '(' before attribute\n%s\n", where, line)
		return 0, false
	}
	rest := line[eq+1:]
	if lp < 0 {
		expr := strings.TrimLeftFunc(rest, isSpaceRune)
		if expr == "" {
			r.warn("%sError: pmLoadDerivedConfig: expression missing\n%s\n", where, line)
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
	attr := strings.TrimFunc(head[lp+1:max(rp, lp+1)], isSpaceRune)
	if rp < lp {
		attr = ""
	}
	if attr == "" {
		r.warn("%sError: pmLoadDerivedConfig: attribute name missing\n%s\n", where, line)
		return 0, false
	}
	value := strings.TrimLeftFunc(rest, isSpaceRune)
	var delim byte
	if value != "" && (value[0] == '"' || value[0] == '\'') {
		delim = value[0]
		value = value[1:]
	}
	if value == "" {
		r.warn("%sError: pmLoadDerivedConfig: attribute value missing\n%s\n", where, line)
		return 0, false
	}
	if delim != 0 {
		var ok bool
		value, extra, ok = r.quoted(where, value, delim, br, lineno)
		if !ok {
			return extra, false
		}
	}
	switch err := r.setAttr(name, attr, value); err {
	case nil:
	case errAttrMetric:
		r.warn("%sError: pmLoadDerivedConfig: cannot set attribute, derived metric (%s) not defined\n%s\n", where, name, line)
	case errAttrName:
		r.warn("%sError: pmLoadDerivedConfig: attribute (%s) is unknown for metric (%s)\n%s\n", where, attr, name, line)
	case errAttrDup:
		r.warn("%sError: pmLoadDerivedConfig: duplicate value for attribute (%s) of metric (%s)\n%s\n", where, attr, name, line)
	}
	return extra, false
}

// quoted reads a delimited attribute value that starts in text and may
// continue on the following lines; a backslash takes the next character
// literally, and a backslash before a newline joins the lines.
func (r *Registry) quoted(where loc, text string, delim byte, br *bufio.Reader, lineno int) (string, int, bool) {
	v := make([]byte, 0, len(text)+32) // most values end on their first line
	esc := false
	lines := 0
	i := 0
	for {
		var c byte
		switch {
		case i < len(text):
			c = text[i]
			i++
		case lines == 0:
			c = '\n'
		default:
			b, err := br.ReadByte()
			if err != nil {
				r.warn("%sError: pmLoadDerivedConfig: missing termination (%c) for value\n", loc{where.file, lineno + max(lines-1, 0)}, delim)
				return "", max(lines-1, 0), false
			}
			c = b
		}
		if c == '\n' {
			lines++
		}
		if esc {
			esc = false
			if c != '\n' {
				v = append(v, c)
			}
			continue
		}
		if c == '\\' {
			esc = true
			continue
		}
		if c == delim {
			break
		}
		v = append(v, c)
	}
	extra := max(lines-1, 0)
	if i < len(text) {
		if tail := strings.TrimLeftFunc(text[i:], isSpaceRune); tail != "" {
			r.warn("%sWarning: pmLoadDerivedConfig: extra text (%s) after attribute value will be ignored\n", loc{where.file, lineno + extra}, tail)
		}
	} else if lines > 0 {
		tail, _ := br.ReadString('\n')
		if t := strings.TrimSpace(tail); t != "" {
			r.warn("%sWarning: pmLoadDerivedConfig: extra text (%s) after attribute value will be ignored\n", loc{where.file, lineno + extra}, t)
		}
	}
	return string(v), extra, true
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
