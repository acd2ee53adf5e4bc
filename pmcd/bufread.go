package pmcd

import (
	"bufio"
	"io"
	"net"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// bufferedReader reads a connection or pipe through a buffer, so that a
// PDU's header and body usually come in one system call, while keeping
// the read deadline settable for the PDU reader's timeouts.
type bufferedReader struct {
	*bufio.Reader
	dl interface{ SetReadDeadline(time.Time) error }
}

// The read buffers: an agent's answers (RESULTs of many values) are
// large; a client's requests are small (a FETCH of 500 metrics is 2 KB),
// and with many clients connected their buffers were most of pmcd's
// live heap (32 clients: 550 KB of 940 KB). A PDU larger than the buffer
// still reads whole, in more system calls.
const (
	agentReadBuffer  = 16 << 10
	clientReadBuffer = 4 << 10
)

// newBufferedReader buffers r, which must have SetReadDeadline, with a
// buffer of size bytes.
func newBufferedReader(r interface {
	io.Reader
	SetReadDeadline(time.Time) error
}, size int) *bufferedReader {
	return &bufferedReader{bufio.NewReaderSize(r, size), r}
}

func (b *bufferedReader) SetReadDeadline(t time.Time) error { return b.dl.SetReadDeadline(t) }

// stream is a connection as the PDU reader and writer use it.
type stream interface {
	io.Reader
	io.Writer
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

// direct is conn with reads and writes that skip Go's blocking-call
// bookkeeping where it can (see pdu.Direct), else conn.
func direct(conn net.Conn) stream {
	if s, ok := conn.(pdu.Stream); ok {
		return pdu.Direct(s)
	}
	return conn
}
