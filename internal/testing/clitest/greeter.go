package clitest

import (
	"context"
	"net"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/gopcp/gopcp/pdu"
)

// Greeter is a pmcd that greets each client, offering features, and then
// never answers: a client that asked nothing of the handshake's end goes
// on, one that must wait (for SASL's exchange when features ask for
// authentication) waits there, past the first PDU it sent (its CREDS).
// Sent is a Ready for a program that has sent it something.
type Greeter struct {
	Host string // 127.0.0.1:port
	got  atomic.Int64
}

// Sent says whether a client has sent bytes since the last Reset.
func (g *Greeter) Sent(_ []byte, _ int) bool { return g.got.Load() > 0 }

// Reset forgets what came so far.
func (g *Greeter) Reset() { g.got.Store(0) }

// NewGreeter starts a Greeter for t's life.
func NewGreeter(t testing.TB, features pdu.Flags) *Greeter {
	t.Helper()
	g := &Greeter{}
	hello := pdu.Greeting{Info: pdu.PDUInfo{Version: pdu.PDUVersion2, Features: features}}.Message()
	addr := ServeLoopback(t, func(c net.Conn) {
		if pdu.NewWriter(c).WriteMessage(context.Background(), hello, 0) != nil {
			return
		}
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			g.got.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	g.Host = "127.0.0.1:" + strconv.Itoa(addr.Port)
	return g
}
