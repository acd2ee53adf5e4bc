package pmcd

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/internal/pcpconf"
)

func confDir(name, def string) string {
	if v, ok := pcpconf.Get(name); ok && v != "" {
		return v
	}
	return def
}

// services is pmcd.services: pmcd, and pmproxy when its pid file in
// $PCP_RUN_DIR names a live process.
func services() string {
	out := "pmcd"
	b, err := os.ReadFile(filepath.Join(confDir("PCP_RUN_DIR", "/run/pcp"), "pmproxy.pid"))
	if err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && ownfile.Alive(pid) {
			out += " pmproxy"
		}
	}
	return out
}

// timezone is pmcd.timezone: the host's zone (never $TZ, which PCP's
// pmcd clears first) as libpcp squashes it into a POSIX TZ string, the
// current abbreviation and offset west of UTC, e.g. "UTC", "EST+5",
// "IST-5:30".
func timezone() string { return timezoneAt(time.Now(), hostZone()) }

func timezoneAt(now time.Time, loc *time.Location) string {
	name, east := now.In(loc).Zone()
	west := -east
	if west == 0 {
		return name
	}
	// C's division: hours truncated toward zero, minutes unsigned.
	hours, mins := west/3600, west%3600/60
	if mins < 0 {
		mins = -mins
	}
	sign := "+"
	if hours < 0 || (hours == 0 && west < 0) {
		sign = "-"
	}
	h := hours
	if h < 0 {
		h = -h
	}
	out := name + sign + strconv.Itoa(h)
	if mins != 0 {
		out += ":" + strconv.Itoa(mins/10) + strconv.Itoa(mins%10)
	}
	return out
}

// hostZone is the zone of /etc/localtime, whatever $TZ says.
func hostZone() *time.Location {
	if b, err := os.ReadFile("/etc/localtime"); err == nil {
		if loc, err := time.LoadLocationFromTZData("Local", b); err == nil {
			return loc
		}
	}
	return timeLocal
}

// timeLocal is the local zone; tests replace it.
var timeLocal = time.Local

// zoneinfo is pmcd.zoneinfo: ":" and the zoneinfo name of the local
// zone, from tz (pmcd's $TZ, Server.TZ) or /etc/localtime, else "".
func zoneinfo(tz string) string {
	if strings.HasPrefix(tz, ":") {
		return tz
	}
	target, err := filepath.EvalSymlinks("/etc/localtime")
	if err != nil {
		return ""
	}
	if i := strings.Index(target, "zoneinfo/"); i >= 0 {
		return ":" + target[i+len("zoneinfo/"):]
	}
	return ""
}

// logger is one running pmlogger's port file in $PCP_TMP_DIR/pmlogger.
type logger struct {
	pid      int32
	name     string
	port     int
	pmcdHost string
	archive  string
}

// findLoggers reads the port files of the pmloggers running on this
// host: each is named by the logger's pid (or "primary") and holds its
// control port, the host it records and its archive, a line each.
func findLoggers() []logger {
	dir := filepath.Join(confDir("PCP_TMP_DIR", "/var/tmp"), "pmlogger")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []logger
	for _, e := range entries {
		name := e.Name()
		pid, err := strconv.Atoi(name)
		if name != "primary" && (err != nil || pid <= 1 || !ownfile.Alive(pid)) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		lines := strings.Split(string(b), "\n")
		port, err := strconv.Atoi(lines[0])
		if err != nil || len(lines) < 2 {
			continue
		}
		l := logger{pid: int32(pid), name: name, port: port}
		if len(lines) > 1 {
			l.pmcdHost = lines[1]
		}
		if len(lines) > 2 {
			l.archive = lines[2]
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// pmieStats is pmie's statistics file, pmiestats_t.
type pmieStats struct {
	config, logfile, host                               string
	evalExpected                                        float32
	numRules, actions, evalTrue, evalFalse, evalUnknown uint32
	evalActual                                          uint32
}

type pmie struct {
	pid   int32
	name  string
	stats pmieStats
}

// The layout of pmiestats_t on Linux: three NUL-padded strings of
// MAXPATHLEN+1, MAXPATHLEN+1 and MAXHOSTNAMELEN+1 bytes, a float aligned
// to 4, then seven unsigned ints, version last (1).
const (
	pmiePath     = 4097
	pmieHost     = 65
	pmieFloatOff = (2*pmiePath + pmieHost + 3) &^ 3
	pmieSize     = pmieFloatOff + 4 + 7*4
)

// findPmies reads the statistics files of the pmies running on this
// host, $PCP_TMP_DIR/pmie/PID.
func findPmies() []pmie {
	dir := filepath.Join(confDir("PCP_TMP_DIR", "/var/tmp"), "pmie")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []pmie
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !ownfile.Alive(pid) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(b) != pmieSize {
			continue
		}
		u := func(off int) uint32 { return binary.NativeEndian.Uint32(b[off:]) }
		if u(pmieFloatOff+4+6*4) != 1 {
			continue
		}
		cstr := func(b []byte) string {
			if i := strings.IndexByte(string(b), 0); i >= 0 {
				return string(b[:i])
			}
			return string(b)
		}
		st := pmieStats{
			config:       cstr(b[:pmiePath]),
			logfile:      cstr(b[pmiePath : 2*pmiePath]),
			host:         cstr(b[2*pmiePath : 2*pmiePath+pmieHost]),
			evalExpected: math.Float32frombits(u(pmieFloatOff)),
			numRules:     u(pmieFloatOff + 4),
			actions:      u(pmieFloatOff + 8),
			evalTrue:     u(pmieFloatOff + 12),
			evalFalse:    u(pmieFloatOff + 16),
			evalUnknown:  u(pmieFloatOff + 20),
			evalActual:   u(pmieFloatOff + 24),
		}
		out = append(out, pmie{pid: int32(pid), name: e.Name(), stats: st})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}
