package pmproxy

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Conf is pmproxy.conf(5) as read: "section.key" to value, with the
// settings this pmproxy acts on.
type Conf map[string]string

// ReadConf reads an ini file as PCP's pmIniFileSetup does: [section]
// headers, key = value lines, '#' and ';' comments. A missing file is an
// error only when the path was given.
func ReadConf(path string) (Conf, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseConf(f)
}

// ParseConf reads an ini file from r, at most 1 MiB of it.
func ParseConf(r io.Reader) (Conf, error) {
	conf := Conf{}
	section := ""
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' || s[0] == ';' {
			continue
		}
		if s[0] == '[' {
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("pmproxy.conf line %d: unterminated section", line)
			}
			section = strings.TrimSpace(s[1:end])
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return nil, fmt.Errorf("pmproxy.conf line %d: no '=' in %q", line, s)
		}
		conf[section+"."+strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return conf, sc.Err()
}

// Bool is a setting's truth ("true", "yes", "on" or "1"), def when unset.
func (c Conf) Bool(key string, def bool) bool {
	v, ok := c[key]
	if !ok {
		return def
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}
