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

// Parse reads pcp.conf text into a map, following libpcp's rules so that
// callers resolve the same paths the PCP tools do: lines that
// start with '#' or hold no '=' are ignored, the value runs to the end of
// the line with one pair of enclosing quotes removed, and a variable already
// set in the environment wins.
func Parse(r io.Reader, lookup func(string) (string, bool)) (map[string]string, error) {
	vars := make(map[string]string)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if env, ok := lookup(name); ok {
			value = env
		} else {
			value = unquote(value)
		}
		vars[name] = value
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return vars, nil
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
	vars, _, err := Load()
	if err != nil {
		return "", false
	}
	v, ok := vars[name]
	return v, ok
}
