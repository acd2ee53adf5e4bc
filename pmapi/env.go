package pmapi

import (
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/pcpconf"
)

// DefaultPort is pmcd's well-known TCP port, PCP's SERVER_PORT.
const DefaultPort = 44321

// DefaultConnectTimeout is how long PCP waits for a connection to pmcd
// to be established, the default of PMCD_CONNECT_TIMEOUT.
const DefaultConnectTimeout = 5 * time.Second

// ParsePorts reads $PMCD_PORT's value as PCP does, the ports a host
// specification without ports means (WithPorts): a comma-separated list,
// each port read as C's strtol reads it (decimal, 0x hex or 0 octal); a
// list with anything else in it, or a negative port, gives DefaultPort.
func ParsePorts(s string) []int {
	if ports, ok := parsePortList(s); ok {
		return ports
	}
	return []int{DefaultPort}
}

func parsePortList(s string) ([]int, bool) {
	var ports []int
	for _, field := range strings.Split(s, ",") {
		port, ok := strtol(field)
		if !ok || port < 0 {
			return nil, false
		}
		ports = append(ports, port)
	}
	return ports, true
}

// strtol reads one field as libpcp's __pmAddPorts does:
// (int)strtol(field, &end, 0) with end at the field's end. A field of
// no digits is taken only when empty (C's end is then the field's
// start), so "-" or white space alone is refused; a long out of range
// saturates and is then cut to an int (LONG_MIN to 0).
func strtol(s string) (int, bool) {
	n, end, _ := cstrtod.ParseInt(s, 0)
	return int(int32(n)), end == len(s)
}

// ParseConnectTimeout reads $PMCD_CONNECT_TIMEOUT's value as libpcp
// does (getopt.EnvTimeout), how long to wait for a connection
// (WithConnectTimeout): seconds as C's strtod reads the whole value
// (white space before it, hex, exponents; the empty value is zero),
// rounded to the microsecond; zero, or more than a Duration holds, means
// no limit. A value strtod does not take whole, a negative number or a
// NaN gives DefaultConnectTimeout, where libpcp warns
// (ConnectTimeoutWarning) and ignores it.
func ParseConnectTimeout(env string) time.Duration {
	if d, ok := getopt.EnvTimeout(env); ok {
		return d
	}
	return DefaultConnectTimeout
}

// ConnectTimeoutWarning is the warning libpcp writes (pmNotifyErr,
// LOG_WARNING) the first time it looks for the connection timeout, when
// ParseConnectTimeout ignores $PMCD_CONNECT_TIMEOUT's value; "" when
// the value is taken.
func ConnectTimeoutWarning(env string) string {
	if _, ok := getopt.EnvTimeout(env); ok {
		return ""
	}
	return "auxconnect.c:__pmAuxConnectPMCDPort: ignored bad PMCD_CONNECT_TIMEOUT = '" + env + "'"
}

// DefaultSocketPath is pmcd's Unix domain socket when $PMCD_SOCKET does
// not name one (WithSocketPath): pmcd.socket in pcp.conf's PCP_RUN_DIR.
func DefaultSocketPath() string {
	dir, _ := pcpconf.Get("PCP_RUN_DIR")
	return dir + "/pmcd.socket"
}

// DefaultReconnectBackoff is PCP's waits between failed reconnection
// attempts.
var DefaultReconnectBackoff = []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second}

// ParseReconnectTimeout reads $PMCD_RECONNECT_TIMEOUT's value as PCP
// does, the waits between failed reconnection attempts
// (WithReconnectBackoff): comma-separated positive seconds, else
// DefaultReconnectBackoff.
func ParseReconnectTimeout(env string) []time.Duration {
	def := DefaultReconnectBackoff
	if env == "" {
		return def
	}
	// libpcp's loop: each field (int)strtol(field, &end, 10), which
	// must be positive and end at a comma or the end, a comma last
	// ending the list.
	var out []time.Duration
	for p := env; p != ""; {
		n, end, _ := getopt.CStrtol(p, 10)
		val := int32(n)
		if val <= 0 || (end < len(p) && p[end] != ',') {
			return def
		}
		out = append(out, time.Duration(val)*time.Second)
		if end == len(p) {
			break
		}
		p = p[end+1:]
	}
	return out
}
