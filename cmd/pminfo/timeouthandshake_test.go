package main

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// slowGreeter relays connections to pmcd at host, holding pmcd's side
// back for delay at the start, so that its greeting comes late.
func slowGreeter(t *testing.T, host string, delay time.Duration) string {
	t.Helper()
	return clitest.ServeLoopback(t, func(client net.Conn) {
		defer client.Close()
		server, err := net.Dial("tcp", host)
		if err != nil {
			return
		}
		defer server.Close()
		go func() {
			io.Copy(server, client)
			server.Close()
		}()
		time.Sleep(delay)
		io.Copy(client, server)
	}).String()
}

// TestHandshakeWaitLikePCP: libpcp waits PMCD_REQUEST_TIMEOUT's exact
// value for pmcd's greeting, but reads that variable only once its first
// host context is made: a process's first connection waits the default
// 10 s, later ones the value (here 0.5 s, which requests would not wait
// at all). A greeting 3 s late is therefore met by the first connection
// and missed by the second, with margins of seconds either way; PCP's
// programs and ours must agree on stdout, stderr and the exit status.
func TestHandshakeWaitLikePCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	slow := slowGreeter(t, bed.Host(), 3*time.Second)
	const env = "PMCD_REQUEST_TIMEOUT=0.5"
	sameAsPCP(t, "pminfo", ".", []string{"-h", slow, "-f", "sample.long.one"}, env)
	sameAsPCP(t, "pmstat", "../pmstat", []string{"-h", bed.Host(), "-h", slow, "-s", "1"}, env)
}
