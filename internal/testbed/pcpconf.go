package testbed

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// defaultConfPath is where libpcp looks for its configuration when neither
// PCP_CONF nor PCP_DIR names another file.
const defaultConfPath = "/etc/pcp.conf"

// confPath names the pcp.conf that libpcp would read under the given
// environment lookup.
func confPath(lookup func(string) (string, bool)) string {
	if p, ok := lookup("PCP_CONF"); ok {
		return p
	}
	if d, ok := lookup("PCP_DIR"); ok {
		return d + "/etc/pcp.conf"
	}
	return defaultConfPath
}

// parseConf reads pcp.conf text into a map. It follows libpcp's rules so
// that the test bed resolves the same paths the PCP tools do: lines that
// start with '#' or hold no '=' are ignored, the value runs to the end of
// the line with one pair of enclosing quotes removed, and a variable already
// set in the environment wins.
func parseConf(r io.Reader, lookup func(string) (string, bool)) (map[string]string, error) {
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

// loadConf finds and parses pcp.conf using the process environment.
func loadConf() (map[string]string, string, error) {
	path := confPath(os.LookupEnv)
	f, err := os.Open(path)
	if err != nil {
		return nil, path, fmt.Errorf("%w: %v", ErrNotInstalled, err)
	}
	defer f.Close()
	vars, err := parseConf(f, os.LookupEnv)
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
