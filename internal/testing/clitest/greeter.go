package clitest

import (
	"context"
	"net"
	"strconv"
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
	port int
	// sent are the client ports of the connections that sent bytes
	// since the last Reset.
	sent clientPorts
}

// Sent says whether the program pid has sent bytes on a connection of
// its own since the last Reset. It asks for the program's connections,
// not any: a program of an earlier run (PCP's, say, before ours) may
// still be sending when the next one starts.
func (g *Greeter) Sent(_ []byte, pid int) bool { return g.sent.heldBy(pid, g.port) }

// Reset forgets what came so far.
func (g *Greeter) Reset() { g.sent.reset() }

// NewGreeter starts a Greeter for t's life.
func NewGreeter(t testing.TB, features pdu.Flags) *Greeter {
	t.Helper()
	g := &Greeter{}
	hello := pdu.Greeting{Info: pdu.PDUInfo{Version: pdu.PDUVersion2, Features: features}}.Message()
	addr := ServeLoopback(t, func(c net.Conn) {
		if pdu.NewWriter(c).WriteMessage(context.Background(), hello, 0) != nil {
			return
		}
		from := -1
		if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
			from = a.Port
		}
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			if n > 0 {
				g.sent.add(from)
			}
			if err != nil {
				return
			}
		}
	})
	g.port = addr.Port
	g.Host = "127.0.0.1:" + strconv.Itoa(addr.Port)
	return g
}
