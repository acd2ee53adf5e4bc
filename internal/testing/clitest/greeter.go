package clitest

import (
	"context"
	"net"
	"strconv"
	"sync"
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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &Greeter{Host: "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)}
	hello := pdu.Greeting{Info: pdu.PDUInfo{Version: pdu.PDUVersion2, Features: features}}.Message()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
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
		}
	})
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return g
}
