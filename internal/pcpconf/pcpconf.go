// Package pcpconf reads pcp.conf(5), PCP's map of where its programs and
// files live, with libpcp's rules: the file named by $PCP_CONF, else
// $PCP_DIR/etc/pcp.conf, else /etc/pcp.conf; values lose one pair of
// enclosing quotes; a variable set in the environment wins over the file.
package pcpconf

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// DefaultPath is where libpcp looks for its configuration when neither
// PCP_CONF nor PCP_DIR names another file.
const DefaultPath = "/etc/pcp.conf"

// Path names the pcp.conf that libpcp would read under the given
// environment lookup.
func Path(lookup func(string) (string, bool)) string {
	if p, ok := lookup("PCP_CONF"); ok {
		return p
	}
	if d, ok := lookup("PCP_DIR"); ok {
		return d + "/etc/pcp.conf"
	}
	return DefaultPath
}

// lineMax is the most of a line libpcp reads at once (fgets into a
// MAXPATHLEN buffer): a longer line is read as several, each on its own.
const lineMax = 4096 - 1

// Parse reads pcp.conf text into a map, following libpcp's rules so that
// callers resolve the same paths the PCP tools do: the text is read in
// lines of at most 4095 bytes (a longer line goes on as further lines),
// each ending at its first NUL as a C string does; lines that start with
// '#' or hold no '=' are ignored; the value runs to the end of the line
// with one pair of enclosing quotes removed; a variable set in the
// environment wins, and so does the first line to set a variable, as
// libpcp puts each into the environment as it reads. A variable with no
// name cannot be looked up and is left out. Parse holds one line at a
// time; it fails only when r does.
func Parse(r io.Reader, lookup func(string) (string, bool)) (map[string]string, error) {
	vars := make(map[string]string)
	br := bufio.NewReaderSize(r, lineMax)
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return nil, err
		}
		if name, value, ok := assignment(chunk); ok {
			if _, seen := vars[string(name)]; !seen {
				if env, ok := lookup(string(name)); ok {
					vars[string(name)] = env
				} else {
					vars[string(name)] = unquote(string(value))
				}
			}
		}
		if err == io.EOF {
			return vars, nil
		}
	}
}

// assignment is the variable a line read as Parse reads it (its
// newline, if any, included) sets, and the value before unquoting.
func assignment[T []byte | string](chunk T) (name, value T, ok bool) {
	line := chunk
	for i := 0; i < len(line); i++ {
		if line[i] == 0 {
			line = line[:i]
			break
		}
	}
	if len(line) > 0 && line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	if len(line) == 0 || line[0] == '#' {
		return name, value, false
	}
	for i := 0; i < len(line); i++ {
		if line[i] == '=' {
			return line[:i], line[i+1:], i > 0
		}
	}
	return name, value, false
}

// parseText is Parse of the whole text of a file, without the
// environment: names and values are cut from text (one string, not two
// a variable) into a map made once at its size. pcp.conf's 7 KB parsed
// so were 12 of the first context's page faults in every tool.
func parseText(text string) map[string]string {
	n := 0
	for rest := text; rest != ""; {
		var chunk string
		chunk, rest = nextLine(rest)
		if _, _, ok := assignment(chunk); ok {
			n++
		}
	}
	vars := make(map[string]string, n)
	for rest := text; rest != ""; {
		var chunk string
		chunk, rest = nextLine(rest)
		if name, value, ok := assignment(chunk); ok {
			if _, seen := vars[name]; !seen {
				vars[name] = unquote(value)
			}
		}
	}
	return vars
}

// nextLine cuts the first line of text as Parse reads one: up to and
// with its newline, or lineMax bytes of a longer line.
func nextLine(text string) (chunk, rest string) {
	end := min(len(text), lineMax)
	if i := strings.IndexByte(text[:end], '\n'); i >= 0 {
		end = i + 1
	}
	return text[:end], text[end:]
}

// Load finds and parses pcp.conf using the process environment, and
// returns its variables and the path it read.
func Load() (map[string]string, string, error) {
	path := Path(os.LookupEnv)
	f, err := os.Open(path)
	if err != nil {
		return nil, path, fmt.Errorf("cannot read PCP configuration: %w", err)
	}
	defer f.Close()
	vars, err := Parse(f, os.LookupEnv)
	if err != nil {
		return nil, path, fmt.Errorf("reading %s: %w", path, err)
	}
	return vars, path, nil
}

// unquote strips one pair of matching enclosing quotes, as libpcp does for
// values such as "gawk --posix".
func unquote(v string) string {
	if v == "" {
		return v
	}
	first, last := v[0], v[len(v)-1]
	if first != last || (first != '"' && first != '\'') {
		return v
	}
	if len(v) == 1 {
		return ""
	}
	return v[1 : len(v)-1]
}

// Get returns one variable as libpcp's pmGetConfig sees it: from the
// environment when set there, else from pcp.conf.
func Get(name string) (string, bool) {
	if v, ok := os.LookupEnv(name); ok {
		return v, true
	}
	vars, err := cached()
	if err != nil {
		return "", false
	}
	v, ok := vars[name]
	return v, ok
}

// The last pcp.conf parsed, by path and the file's size and time: Get is
// called for every new context (a pmproxy making thousands of them parsed
// the file each time, 16 KB of garbage a context), and libpcp too reads
// the file once. A changed file, or another PCP_CONF, is read again.
var cache struct {
	sync.Mutex
	path string
	size int64
	mod  time.Time
	vars map[string]string
}

// cached is the file's variables, parsed again only when it changed.
func cached() (map[string]string, error) {
	path := Path(os.LookupEnv)
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	cache.Lock()
	defer cache.Unlock()
	if cache.vars != nil && cache.path == path && cache.size == st.Size() && cache.mod.Equal(st.ModTime()) {
		return cache.vars, nil
	}
	// The file's own values: Get looks in the environment first, and
	// the environment may change after this parse.
	vars, err := parseFile(path, st.Size())
	if err != nil {
		return nil, err
	}
	cache.path, cache.size, cache.mod, cache.vars = path, st.Size(), st.ModTime(), vars
	return vars, nil
}

// maxWhole is the largest pcp.conf read whole for parseText (PCP's is 7
// KB); a larger one is read a line at a time by Parse.
const maxWhole = 64 << 10

// parseFile parses the pcp.conf at path, of the size found, without the
// environment.
func parseFile(path string, size int64) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > maxWhole {
		return Parse(f, func(string) (string, bool) { return "", false })
	}
	// one byte more than the size, to see the end in one read
	b := make([]byte, 0, size+1)
	for len(b) <= maxWhole {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			// the bytes are not written again: the string is them
			return parseText(unsafe.String(unsafe.SliceData(b), len(b))), nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	// grown past the bound since the stat: read again as a stream
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return Parse(f, func(string) (string, bool) { return "", false })
}
