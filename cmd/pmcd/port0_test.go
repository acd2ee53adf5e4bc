package main

import (
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// listening returns the local addresses of the TCP sockets pid listens
// on, from its descriptors and the kernel's socket tables.
func listening(t *testing.T, pid int) []*net.TCPAddr {
	t.Helper()
	inodes := map[string]bool{}
	fds, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/fd/*")
	for _, fd := range fds {
		if l, err := os.Readlink(fd); err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	var out []*net.TCPAddr
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			// sl local rem st ... inode (10th)
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] {
				continue
			}
			hexIP, hexPort, _ := strings.Cut(f[1], ":")
			raw, _ := hex.DecodeString(hexIP)
			// the kernel prints each 32-bit word in host (little endian) order
			ip := make(net.IP, len(raw))
			for i := 0; i+4 <= len(raw); i += 4 {
				ip[i], ip[i+1], ip[i+2], ip[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
			}
			port, _ := strconv.ParseUint(hexPort, 16, 16)
			out = append(out, &net.TCPAddr{IP: ip, Port: int(port)})
		}
	}
	return out
}

// TestPortZeroLikePCP gives PCP's pmcd and ours -p 0 beside the bed's
// port, without -i: as libpcp's AddRequestPort, the port the system
// picks is for this host only (the table's rows say INADDR_LOOPBACK),
// each family's socket having a port of its own, while the bed's port
// stays on every address.
func TestPortZeroLikePCP(t *testing.T) {
	t.Parallel()
	portRow := regexp.MustCompile(`(?m)^  (ok|err)\s+-?\d+\s+(\d+) (inet|ipv6)\s+(.*)$`)
	run := func(start func(testing.TB, testbed.Options) *testbed.PMCD) (rows string, addrs []string) {
		p := start(t, testbed.Options{Args: []string{"-p", "0"}})
		var r []string
		for _, m := range portRow.FindAllStringSubmatch(waitLog(t, p, "pmcd request port(s)"), -1) {
			port := m[2]
			if port == strconv.Itoa(p.Port()) {
				port = "BED"
			}
			r = append(r, strings.Join([]string{m[1], port, m[3], m[4]}, " "))
		}
		for _, a := range listening(t, p.PID()) {
			if a.Port == p.Port() {
				addrs = append(addrs, "BED on "+a.IP.String())
			} else {
				addrs = append(addrs, "picked on "+a.IP.String())
			}
		}
		sort.Strings(addrs)
		return strings.Join(r, "\n"), addrs
	}
	wantRows, wantAddrs := run(testbed.StartPMCD)
	gotRows, gotAddrs := run(testbed.StartGoPMCD)
	if !strings.Contains(wantRows, "ok 0 inet INADDR_LOOPBACK") {
		t.Fatalf("PCP's pmcd with -p 0:\n%s", wantRows)
	}
	if gotRows != wantRows {
		t.Errorf("request ports with -p 0:\nPCP's:\n%s\nours:\n%s", wantRows, gotRows)
	}
	if strings.Join(gotAddrs, "\n") != strings.Join(wantAddrs, "\n") {
		t.Errorf("listening sockets with -p 0:\nPCP's: %q\nours:  %q", wantAddrs, gotAddrs)
	}
}
