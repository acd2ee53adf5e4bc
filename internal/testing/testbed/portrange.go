package testbed

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
)

// portRanges are the ranges private ports may come from, in order of
// preference; each keeps away from PCP's registered ports (pmcd 44321,
// pmproxy 44322, pmlogger 4330) so a system pmcd is never disturbed.
//
// The one used is the first that lies wholly outside the kernel's
// ephemeral range (net.ipv4.ip_local_port_range). A port inside it can be
// taken at any moment by anything on the machine that connects out or
// listens on port 0, whatever our reservation says, between our check
// that it is free and the daemon's bind. PCP's pmlogger then quietly
// binds the next port for one address family only (it searches upwards
// separately for IPv4 and IPv6 and writes the last one it bound to its
// port map), so a test reads a port that 127.0.0.1 does not answer on.
//
// 20400-20999 comes before 30400-30999 because the latter lies inside
// Kubernetes' NodePort range (30000-32767), where kube-proxy on a node
// may answer for ports nothing here listens on.
var portRanges = [][2]int{{44400, 44999}, {20400, 20999}, {30400, 30999}}

// ephemeralRangePath is where Linux says which ports it hands out on
// its own.
const ephemeralRangePath = "/proc/sys/net/ipv4/ip_local_port_range"

// privatePorts is the range this process, and every other test run on
// the machine (they read the same setting), reserves private ports from.
var privatePorts = sync.OnceValue(func() [2]int {
	data, err := os.ReadFile(ephemeralRangePath)
	if err != nil {
		return portRanges[0] // not Linux, or no /proc: nothing to avoid
	}
	lo, hi, ok := parsePortRange(string(data))
	if !ok {
		return portRanges[0]
	}
	return choosePortRange(portRanges, lo, hi)
})

// parsePortRange reads the two numbers of ip_local_port_range.
func parsePortRange(s string) (lo, hi int, ok bool) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, false
	}
	lo, err1 := strconv.Atoi(f[0])
	hi, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || lo > hi {
		return 0, 0, false
	}
	return lo, hi, true
}

// choosePortRange returns the first candidate that does not overlap the
// ephemeral range lo-hi, or the first candidate if all do (the check
// that a port is free then is all that protects it).
func choosePortRange(candidates [][2]int, lo, hi int) [2]int {
	for _, r := range candidates {
		if r[1] < lo || r[0] > hi {
			return r
		}
	}
	return candidates[0]
}

// errNoPort says that every port of the private range is reserved or in
// use; reservePort adds the range.
var errNoPort = errors.New("testbed: no free private port")
