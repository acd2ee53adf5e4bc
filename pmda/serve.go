package pmda

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/gopcp/gopcp/pdu"
)

// Serve runs the agent over one connection to pmcd, such as the pipe of a
// daemon agent (stdin and stdout) or an accepted socket: it does the agent's
// side of the handshake, then answers PDUs until pmcd closes the connection,
// which returns nil. A malformed PDU ends it with an error wrapping
// pcp.ErrIPC; ctx ends it with ctx's error. Serve closes neither r nor w.
func (a *Agent) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	pr := pdu.NewReader(r)
	pw := pdu.NewWriter(w)
	if _, err := pdu.AgentHandshake(ctx, pr, pw, a.flags); err != nil {
		return fmt.Errorf("pmda: %s: handshake: %w", a.name, err)
	}
	pr.Timeout = 0 // pmcd may be quiet for as long as it likes
	d := NewDispatcher(a, pw)
	for {
		req, err := pr.ReadPDU(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("pmda: %s: %w", a.name, err)
		}
		if err := d.Dispatch(ctx, req); err != nil {
			return fmt.Errorf("pmda: %s: %w", a.name, err)
		}
	}
}

// ServeListener waits for pmcd to connect on ln, as a socket agent does,
// and serves that one connection. It closes ln once pmcd has connected, and
// the connection when done.
func (a *Agent) ServeListener(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	conn, err := ln.Accept()
	stop()
	ln.Close()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("pmda: %s: %w", a.name, err)
	}
	defer conn.Close()
	return a.Serve(ctx, conn, conn)
}
