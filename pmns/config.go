package pmns

import (
	"bufio"
	"os"
	"strings"
)

// varDir is $PCP_VAR_DIR as pmGetConfig gives it to pmcpp and libpcp: the
// environment first, then pcp.conf, then PCP's usual value.
func varDir() string {
	if d, ok := os.LookupEnv("PCP_VAR_DIR"); ok {
		return d
	}
	if d, ok := pcpConf("PCP_VAR_DIR"); ok {
		return d
	}
	return "/var/lib/pcp"
}

// pcpConf reads one setting from pcp.conf(5), found as libpcp finds it:
// $PCP_CONF, else $PCP_DIR/etc/pcp.conf, else /etc/pcp.conf.
func pcpConf(name string) (string, bool) {
	path := os.Getenv("PCP_CONF")
	if path == "" {
		path = "/etc/pcp.conf"
		if dir, ok := os.LookupEnv("PCP_DIR"); ok {
			path = dir + "/etc/pcp.conf"
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || key != name {
			continue
		}
		// Quoted values lose their quotes, as libpcp strips them.
		if n := len(val); n >= 2 && val[0] == val[n-1] && (val[0] == '\'' || val[0] == '"') {
			val = val[1 : n-1]
		}
		return val, true
	}
	return "", false
}
