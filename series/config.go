package series

import (
	"bufio"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

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

// IniFiles are the files libpcp_web's pmIniFileSetup reads for name, in
// order, a later one's settings replacing an earlier one's: an absolute
// name is that file alone; any other is a program's name, whose files
// are sysconfDir/NAME/NAME.conf (when sysconfDir is not ""), then
// home/.NAME.conf and home/.pcp/NAME.conf (when home is not ""), then
// ./NAME.conf. So "-c pmproxy.conf" is not a file in the current
// directory but the settings of a program called "pmproxy.conf".
func IniFiles(name, sysconfDir, home string) []string {
	if strings.HasPrefix(name, "/") {
		return []string{name}
	}
	var out []string
	if sysconfDir != "" {
		out = append(out, sysconfDir+"/"+name+"/"+name+".conf")
	}
	if home != "" {
		out = append(out, home+"/."+name+".conf", home+"/.pcp/"+name+".conf")
	}
	return append(out, "./"+name+".conf")
}

// maxIniBytes bounds what ReadIniFiles reads of each file.
const maxIniBytes = 1 << 20

// ReadIniFiles reads the files in turn into one Config, as
// pmIniFileSetup does: a file that cannot be read is no settings, and
// a file's settings up to a fault in it are kept. Nothing here is an
// error; at most maxIniBytes of a file are read.
func ReadIniFiles(paths []string) Config {
	c := Config{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		got, _ := ParseConfig(io.LimitReader(f, maxIniBytes))
		f.Close()
		for k, v := range got {
			c[k] = v
		}
	}
	return c
}

// SearchEnabled is [pmsearch] enabled as libpcp_web reads it: the
// text "true" alone turns the search index on.
func (c Config) SearchEnabled() bool { return c["pmsearch.enabled"] == "true" }

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

// ProxyLoadOptions are LoadOptions as PCP's pmproxy takes [pmseries]
// stream.maxlen and stream.expire: libpcp_web passes their text to Redis
// unread (XADD key MAXLEN ~ <maxlen> ..., then EXPIRE key <expire>), so
// what Redis makes of it rules. A maxlen Redis reads as no length makes
// every XADD fail (StreamsRefused, with Redis's words); an expire Redis
// reads as no number, or as a time past its range, leaves the streams
// without a time to live; one at or below zero deletes each stream as it
// is written (StreamsDeleted). now is the time Redis adds expire to.
func (c Config) ProxyLoadOptions(now time.Time) LoadOptions {
	o := c.LoadOptions()
	o.MaxStreamLen, o.StreamExpire = 0, 0
	if v, ok := c["pmseries.stream.maxlen"]; ok {
		n, ok := redisInt(v)
		switch {
		case !ok:
			o.StreamsRefused = "ERR value is not an integer or out of range"
		case n < 0:
			o.StreamsRefused = "ERR The MAXLEN argument must be >= 0."
		case n == 0:
			o.MaxStreamLen = -1 // none kept
		default:
			o.MaxStreamLen = n
		}
	}
	if v, ok := c["pmseries.stream.expire"]; ok {
		n, ok := redisInt(v)
		switch {
		case ok && n <= 0:
			o.StreamsDeleted = true
		case !ok || n > (math.MaxInt64-now.UnixMilli())/1000:
			o.StreamExpire = -1 // refused: no time to live
		default:
			o.StreamExpire = n
		}
	}
	return o
}

// redisInt reads s as Redis reads an integer argument: decimal digits
// with an optional minus sign, no other sign, space or leading zero,
// within 64 bits.
func redisInt(s string) (int64, bool) {
	if s == "0" {
		return 0, true
	}
	d := strings.TrimPrefix(s, "-")
	if d == "" || d[0] < '1' || d[0] > '9' {
		return 0, false
	}
	for i := 1; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
