package series

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/series/resp"
)

// Config is pmseries.conf / pmproxy.conf: "section.key" to value, as
// pmIniFileSetup reads it ('#' and ';' comments, [section] headers,
// key = value lines, a later line replacing an earlier one).
type Config map[string]string

// ParseConfig reads an ini file. Lines are bounded by bufio.Scanner's
// default limit; a longer one ends the read with an error.
func ParseConfig(r io.Reader) (Config, error) {
	c := Config{}
	sec := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			if i := strings.IndexByte(line, ']'); i > 0 {
				sec = strings.TrimSpace(line[1:i])
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		c[sec+"."+strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return c, sc.Err()
}

// LoadOptions are the load settings the configuration gives.
func (c Config) LoadOptions() LoadOptions {
	var o LoadOptions
	if v, err := strconv.ParseInt(c["pmseries.stream.maxlen"], 10, 64); err == nil {
		o.MaxStreamLen = v
	}
	if v, err := strconv.ParseInt(c["pmseries.stream.expire"], 10, 64); err == nil {
		o.StreamExpire = v
		if v == 0 {
			o.StreamExpire = -1
		}
	}
	if v := c["discover.exclude.metrics"]; v != "" {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				o.Exclude = append(o.Exclude, p)
			}
		}
	}
	if v := c["discover.exclude.indoms"]; v != "" {
		o.ExcludeInDoms = parseInDoms(v)
	}
	return o
}

// parseInDoms reads "domain.serial" instance domains separated by
// commas, as pmproxy reads exclude.indoms: what does not scan is passed
// over.
func parseInDoms(v string) []pcp.InDom {
	var out []pcp.InDom
	for _, s := range strings.Split(v, ",") {
		d, ser, ok := strings.Cut(strings.TrimSpace(s), ".")
		if !ok {
			continue
		}
		dn, err1 := strconv.ParseUint(d, 10, 32)
		sn, err2 := strconv.ParseUint(ser, 10, 32)
		if err1 != nil || err2 != nil || dn >= 1<<9 || sn >= 1<<22 {
			continue
		}
		out = append(out, pcp.NewInDom(uint32(dn), uint32(sn)))
	}
	return out
}

// RedisOptions are the client settings the configuration gives: the
// credentials, [redis] username and password, else [pmseries]
// auth.username and auth.password, as libpcp_web 6.0.3 reads them (an
// empty value is none).
func (c Config) RedisOptions() resp.Options {
	get := func(k string) string {
		if v, ok := c["redis."+k]; ok {
			return v
		}
		return c["pmseries.auth."+k]
	}
	return resp.Options{Username: get("username"), Password: get("password")}
}

// Servers is the Redis servers to use: [redis] servers, else [pmseries]
// servers, as host:port separated by commas.
func (c Config) Servers() []string {
	v, ok := c["redis.servers"]
	if !ok {
		v = c["pmseries.servers"]
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
