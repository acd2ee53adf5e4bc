package pmapi

import (
	"io"
	"net"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// loopbackServer stands in for a pmcd or a proxy on a loopback port
// (clitest.ServeLoopback: each connection served in a goroutine of its
// own, all ended with the test).
func loopbackServer(t *testing.T, serve func(net.Conn)) *net.TCPAddr {
	t.Helper()
	return clitest.ServeLoopback(t, serve)
}

// splice relays between a client and a server until either side ends,
// then closes both and returns once both directions have stopped. What
// the client sends goes to tee first (when not nil), then to the server,
// so that a request is seen before its reply can come back.
func splice(client, server net.Conn, tee io.Writer) {
	up := io.Writer(server)
	if tee != nil {
		up = io.MultiWriter(tee, server)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, client)
		server.Close()
	}()
	io.Copy(client, server)
	client.Close()
	server.Close()
	<-done
}
