package pmapi

import (
	"net"
	"sync"
)

// WithFirstSend has the context call f before the first PDU it sends to
// a pmcd (its handshake's CREDS), once: for a program that ignores
// SIGPIPE from then on, as libpcp does at its first PDU, so that a tool
// waiting in the rest of the handshake (SASL's exchange) survives SIGPIPE
// as PCP's does, and dies of it waiting for the greeting as PCP's does.
// The library itself never touches the process's signals.
func WithFirstSend(f func()) Option {
	return func(o *options) { o.firstSend = f }
}

// firstWrite calls f before the first write on its connection.
type firstWrite struct {
	net.Conn
	once *sync.Once
	f    func()
}

func (c firstWrite) Write(b []byte) (int, error) {
	c.once.Do(c.f)
	return c.Conn.Write(b)
}

// handshakeConn is conn as the handshake writes to it: through
// firstWrite when the options ask for the first send.
func (o options) handshakeConn(conn net.Conn) net.Conn {
	if o.firstSend == nil {
		return conn
	}
	return firstWrite{Conn: conn, once: new(sync.Once), f: o.firstSend}
}
