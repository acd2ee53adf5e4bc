package testbed

import (
	"errors"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
)

// Private ports come from a range kept away from PCP's registered ports
// (pmcd 44321, pmproxy 44322, pmlogger 4330) so a system pmcd, if any,
// is never disturbed.
const (
	portLow  = 44400
	portHigh = 44999
)

// ports remembers which private ports this process has handed out, so
// test beds running in parallel in one process never collide. Beds in
// other processes are avoided by probing and, if pmcd still loses a race,
// by retrying with another port.
var ports = struct {
	sync.Mutex
	used map[int]bool
}{used: make(map[int]bool)}

var errNoPort = errors.New("testbed: no free private port in 44400-44999")

// reservePort finds a port in the private range that nothing is listening
// on and marks it used by this process until releasePort.
func reservePort() (int, error) {
	ports.Lock()
	defer ports.Unlock()
	span := portHigh - portLow + 1
	start := rand.IntN(span)
	for i := range span {
		p := portLow + (start+i)%span
		if ports.used[p] || !portFree(p) {
			continue
		}
		ports.used[p] = true
		return p, nil
	}
	return 0, errNoPort
}

func releasePort(p int) {
	ports.Lock()
	delete(ports.used, p)
	ports.Unlock()
}

// portFree reports whether the port can be bound on the wildcard address,
// which is what pmcd, pmlogger and socket agents will try.
func portFree(p int) bool {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
