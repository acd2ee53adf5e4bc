package pmapi

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// readBufSize is the read buffer a host context reads pmcd's replies
// through while it reads one: a small reply's header and body come in one
// read, and a reply larger than the buffer is read past it, straight into
// the PDU's storage.
const readBufSize = 4 << 10

// readBufs holds the read buffers of host contexts between replies. A
// server holding many contexts that are mostly idle (pmproxy: a web
// context lives for its poll timeout after each request) would otherwise
// keep a buffer per context, most of its live heap under churn, for
// bytes that are only there while a reply is read. The PDU reader's own
// storage goes back to pdu's pool the same way once a reply is decoded
// (releaseReply).
var readBufs = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBufSize) }}

// bufferedConn reads a connection through a pooled buffer while keeping
// its read deadline settable, which the PDU reader uses for timeouts. It
// takes a buffer on the first read after release and gives it back at
// release when the buffer holds nothing of a next reply.
type bufferedConn struct {
	br    *bufio.Reader // nil between replies
	taken int64         // bytes handed out, to tell a reply not begun (missedWait)
	conn  interface {
		io.Reader
		SetReadDeadline(time.Time) error
	}
}

func (b *bufferedConn) Read(p []byte) (int, error) {
	if b.br == nil {
		b.br = readBufs.Get().(*bufio.Reader)
		b.br.Reset(b.conn)
	}
	n, err := b.br.Read(p)
	b.taken += int64(n)
	return n, err
}

// Buffered is what has been read from the connection and not yet taken,
// which can be taken without waiting.
func (b *bufferedConn) Buffered() int {
	if b.br == nil {
		return 0
	}
	return b.br.Buffered()
}

func (b *bufferedConn) SetReadDeadline(t time.Time) error { return b.conn.SetReadDeadline(t) }

// release gives the buffer back to the pool unless it still holds bytes
// of what pmcd sent next (they stay for the next read).
func (b *bufferedConn) release() {
	if b.br == nil || b.br.Buffered() > 0 {
		return
	}
	b.br.Reset(nil) // the pool must not keep the connection
	readBufs.Put(b.br)
	b.br = nil
}
