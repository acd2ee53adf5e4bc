package pmda

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// Serve runs the agent over one connection to pmcd, such as the pipe of a
// daemon agent (stdin and stdout) or an accepted socket: it does the agent's
// side of the handshake, then answers PDUs until pmcd closes the connection,
// which returns nil. Bytes that cannot be framed as a PDU end it with an
// error wrapping pcp.ErrIPC, and so does a panic in the agent's code (a
// request is answered with PM_ERR_IPC first, and the panic logged with
// where it happened), leaving pmcd to start the agent afresh; ctx ends it
// with ctx's error. Serve closes neither r nor w.
func (a *Agent) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	// A socket's reads and writes skip Go's blocking-call bookkeeping
	// (pdu.Direct), and reads are buffered so that a request's header and
	// body come in one call; Serve has the stream to itself until it
	// ends. Files are left as they are: a write to a broken standard
	// output must still end the program with SIGPIPE, as Go's own write
	// makes it.
	if s, ok := r.(net.Conn); ok {
		r = direct(s)
	}
	if s, ok := w.(net.Conn); ok {
		w = direct(s)
	}
	// libpcp_pmda waits for pmcd's side of the handshake without limit
	// and reads no PMCD_REQUEST_TIMEOUT; the default bounds a pmcd that
	// never answers.
	pr := pdu.NewReader(newBufferedReader(r), pdu.DefaultTimeout)
	pw := pdu.NewWriter(w)
	if _, err := pdu.AgentHandshake(ctx, pr, pw, a.flags); err != nil {
		return fmt.Errorf("pmda: %s: handshake: %w", a.name, err)
	}
	pr.Timeout = 0 // pmcd may be quiet for as long as it likes
	d := NewDispatcher(a, pw)
	// ctx's end interrupts the connection once, here, and reads and
	// writes go without it: a read or write watching ctx registers a
	// callback each time, an allocation per PDU, which made a steady
	// agent's garbage (two PDUs a fetch when pmcd's clients take turns).
	quiet := context.WithoutCancel(ctx)
	d.ioCtx = quiet
	stop := context.AfterFunc(ctx, func() {
		if dl, ok := r.(interface{ SetReadDeadline(time.Time) error }); ok {
			_ = dl.SetReadDeadline(time.Unix(1, 0))
		}
		if dl, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok {
			_ = dl.SetWriteDeadline(time.Unix(1, 0))
		}
	})
	defer stop()
	for {
		req, err := pr.ReadPDU(quiet)
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("pmda: %s: reading PDU: %w", a.name, ctx.Err())
		}
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

// bufferedReader reads through a buffer and keeps the read deadline of
// the stream beneath settable, when it has one, for ctx's cancellation.
type bufferedReader struct {
	*bufio.Reader
	dl interface{ SetReadDeadline(time.Time) error }
}

func newBufferedReader(r io.Reader) io.Reader {
	b := bufio.NewReaderSize(r, 16<<10)
	if dl, ok := r.(interface{ SetReadDeadline(time.Time) error }); ok {
		return &bufferedReader{b, dl}
	}
	return b
}

func (b *bufferedReader) SetReadDeadline(t time.Time) error { return b.dl.SetReadDeadline(t) }

// direct is pdu.Direct for a connection that has a descriptor, else c.
func direct(c net.Conn) io.ReadWriter {
	if s, ok := c.(pdu.Stream); ok {
		return pdu.Direct(s)
	}
	return c
}
