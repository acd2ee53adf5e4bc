package main

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestKeepAliveLikePCP: [pmproxy] keepalive as PCP 6.0.3's pmproxy sets
// it on its TCP ports, whose connections inherit it: C's atoi of the text
// (45 unset; "7x" is 7; "abc", 0 and below turn it off; an idle time past
// the system's limit leaves it on with the system's). A connection to
// each pmproxy is looked up from the server's side in /proc/net/tcp: the
// keep-alive timer running or not, and the seconds it has left (both
// were started at the handshake, an instant apart).
func TestKeepAliveLikePCP(t *testing.T) {
	for _, v := range []string{"unset", "45", "0", "7", "7x", "abc", "-3", "", "40000"} {
		t.Run(v, func(t *testing.T) {
			conf := "[pmproxy]\npcp.enabled = false\n[redis]\nenabled = false\n"
			if v != "unset" {
				conf = "[pmproxy]\nkeepalive = " + v + "\n[redis]\nenabled = false\n"
			}
			pcps, _ := startPCPConf(t, conf, nil)
			ours := startOursAt(t, conf, t.TempDir(), t.TempDir())
			pc, oc := dialV4(t, pcps), dialV4(t, ours)
			want, got := keepAliveTimer(t, pc), keepAliveTimer(t, oc)
			if (want < 0) != (got < 0) || want-got > 300 || got-want > 300 {
				t.Errorf("keep-alive timer left: ours %s, PCP's %s", ticks(got), ticks(want))
			}
			t.Logf("keep-alive timer left: ours %s, PCP's %s", ticks(got), ticks(want))
		})
	}
}

// dialV4 connects to addr's port over IPv4 loopback, trying for a
// minute while the server starts; closed at the test's end.
func dialV4(t *testing.T, addr string) net.Conn {
	t.Helper()
	_, port, _ := net.SplitHostPort(addr)
	var c net.Conn
	var err error
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if c, err = net.Dial("tcp4", "127.0.0.1:"+port); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// keepAliveTimer is the time the keep-alive timer of the server's end of
// c has left, in clock ticks, -1 when none runs.
func keepAliveTimer(t *testing.T, c net.Conn) int {
	t.Helper()
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Skip("no /proc/net/tcp:", err)
	}
	local := c.RemoteAddr().(*net.TCPAddr).Port
	remote := c.LocalAddr().(*net.TCPAddr).Port
	want := fmt.Sprintf(":%04X", local)
	peer := fmt.Sprintf(":%04X", remote)
	for _, l := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 6 || !strings.HasSuffix(f[1], want) || !strings.HasSuffix(f[2], peer) {
			continue
		}
		tr, when, _ := strings.Cut(f[5], ":")
		if tr != "02" {
			return -1
		}
		n, err := strconv.ParseInt(when, 16, 64)
		if err != nil {
			t.Fatalf("/proc/net/tcp: %q", l)
		}
		return int(n)
	}
	t.Fatalf("no server end of %v in /proc/net/tcp", c.LocalAddr())
	return 0
}

func ticks(n int) string {
	if n < 0 {
		return "none"
	}
	return strconv.Itoa(n) + " ticks"
}
