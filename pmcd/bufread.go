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

// bufferedReaderSize is the read buffer of each client and agent; most
// PDUs fit.
const bufferedReaderSize = 16 << 10

// newBufferedReader buffers r, which must have SetReadDeadline.
func newBufferedReader(r interface {
	io.Reader
	SetReadDeadline(time.Time) error
}) *bufferedReader {
	return &bufferedReader{bufio.NewReaderSize(r, bufferedReaderSize), r}
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
