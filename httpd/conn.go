package httpd

import (
	"bytes"
	"io"
	"net"
	"sync"
	"syscall"
	"time"
)

// A connection's states. The first three are armed: waiting in the
// event loop, which may hand it to a worker or close it at its deadline.
const (
	armedNew     = iota // for its first byte
	armedIdle           // between requests
	armedPartial        // for the rest of a request
	busy                // with a worker or its writer
	closed
)

// conn is one client connection. While armed it is the loop's; while
// busy it belongs to one goroutine at a time (a worker, then perhaps a
// writer finishing its answer), which alone touches the fields below
// the server's mutex.
type conn struct {
	s      *Server
	nc     net.Conn
	rc     syscall.RawConn
	fd     int
	remote string

	// under s.mu
	state    int
	waited   int   // the armed state it left for busy
	deadline int64 // unix nanoseconds: an armed conn is closed past it

	// the request being read, kept while more of it is awaited
	pending  []byte // its bytes (and any after it), exactly, or a grown buffer
	scanned  int    // how far the head's end was looked for
	h        *head
	hn       int // the head's length
	dc       dechunker
	started  int64  // when its first byte came
	contSent bool   // 100 Continue was sent
	last     []byte // the end of an answer the socket did not take
	served   int    // requests answered in this turn with a worker
}

// maxPerTurn bounds the requests one connection has answered before the
// others ready get their turn.
const maxPerTurn = 16

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, bufSize); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if cap(*b) == bufSize {
		*b = (*b)[:0]
		bufPool.Put(b)
	}
}

// headerPool keeps requests' and answers' header maps, emptied, for the
// next ones: a map's first entry allocates its table, a few hundred
// bytes, for every request otherwise. A handler is done with its
// ResponseWriter and Request, Headers included, when ServeHTTP returns.
var headerPool = sync.Pool{New: func() any { return make(Header) }}

func getHeader() Header { return headerPool.Get().(Header) }

// putHeader keeps h unless it grew past what answers usually carry.
func putHeader(h Header) {
	if len(h) <= 16 {
		clear(h)
		headerPool.Put(h)
	}
}

// Outcomes of looking at a new connection's first byte.
const (
	sniffHTTP = iota
	sniffWait
	sniffOther
	sniffGone
)

// sniff peeks at a new connection's first byte without taking it.
func (c *conn) sniff() int {
	var b [1]byte
	for {
		n, _, err := syscall.Recvfrom(c.fd, b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return sniffWait
		case err != nil || n == 0:
			return sniffGone
		}
		if c.s.opts.IsHTTP(b[0]) {
			return sniffHTTP
		}
		return sniffOther
	}
}

// run serves a connection the loop found readable: reads what came,
// answers every request that is whole, and arms it again for the rest.
func (c *conn) run() {
	if c.waited == armedNew {
		switch c.sniff() {
		case sniffWait:
			c.arm(armedNew, c.deadline)
			return
		case sniffOther:
			c.handOff()
			return
		case sniffGone:
			c.close()
			return
		}
	}
	c.served = 0
	bp := getBuf()
	defer putBuf(bp)
	in := *bp
	if len(c.pending) > bufSize {
		in = c.pending
	} else {
		in = append(in, c.pending...)
	}
	c.pending = nil
	for {
		var eof, full bool
		var err error
		in, eof, full, err = c.fill(in)
		if err != nil {
			c.close()
			return
		}
		var next int
		in, next = c.step(in, eof)
		switch {
		case next == stepClosed:
			return
		case next == stepAwait && full:
			if len(in) < bufSize {
				// answered requests made room at the buffer's start
				in = append((*bp)[:0], in...)
				continue
			}
			if grown, ok := c.grow(in); ok {
				in = grown
				continue
			}
			if c.h != nil {
				c.refuse(refuse(StatusRequestEntityTooLarge, ""))
			} else {
				c.refuse(refuse(StatusRequestHeaderFieldsTooLarge, ""))
			}
			return
		case eof:
			c.close()
			return
		}
		break
	}
	if len(in) == 0 {
		c.arm(armedIdle, time.Now().Add(c.s.opts.IdleTimeout).UnixNano())
		return
	}
	if len(in) > bufSize {
		c.pending = in
	} else {
		c.pending = bytes.Clone(in)
	}
	limit := c.s.opts.HeaderTimeout
	if c.h != nil {
		limit = c.s.opts.ReadTimeout
	}
	c.arm(armedPartial, c.started+int64(limit))
}

// fill reads what the socket holds into in's free room. full says it
// stopped for want of room rather than of bytes.
func (c *conn) fill(in []byte) (out []byte, eof, full bool, err error) {
	for len(in) < cap(in) {
		n, err := syscall.Read(c.fd, in[len(in):cap(in)])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return in, false, false, nil
		case err != nil:
			return in, false, false, err
		case n == 0:
			return in, true, false, nil
		}
		in = in[:len(in)+n]
	}
	return in, false, true, nil
}

// grow makes room for more of the request being read, up to what its
// bounds allow: the head's, then its body's.
func (c *conn) grow(in []byte) ([]byte, bool) {
	o := &c.s.opts
	limit := o.MaxHeaderBytes
	if c.h != nil {
		limit = c.hn + int(o.MaxBodyBytes) + 2*maxChunkLine
		if !c.h.chunked {
			limit = c.hn + int(c.h.contentLength)
		}
	}
	if len(in) >= limit {
		return in, false
	}
	n := min(max(2*cap(in), bufSize), limit)
	grown := make([]byte, len(in), n)
	copy(grown, in)
	return grown, true
}

// What step left.
const (
	stepAwait  = iota // the rest of a request
	stepClosed        // the connection is closed or passed on
)

// step answers the whole requests at the start of in and returns what
// is left of it.
func (c *conn) step(in []byte, eof bool) ([]byte, int) {
	o := &c.s.opts
	for {
		if c.h == nil {
			if k := skipEmptyLines(in); k > 0 {
				in = in[k:]
				c.scanned = max(c.scanned-k, 0)
			}
			if len(in) == 0 {
				c.started = 0
				return in, stepAwait
			}
			if c.started == 0 {
				c.started = time.Now().UnixNano()
			}
			n := headEnd(in, c.scanned)
			if n == 0 || n > o.MaxHeaderBytes {
				if len(in) >= o.MaxHeaderBytes || n > o.MaxHeaderBytes {
					c.refuse(refuse(StatusRequestHeaderFieldsTooLarge, ""))
					return nil, stepClosed
				}
				c.scanned = len(in)
				return in, stepAwait
			}
			h := getHead()
			if err := h.parse(in[:n]); err != nil {
				putHead(h)
				c.refuse(err.(*refusal))
				return nil, stepClosed
			}
			if h.contentLength > o.MaxBodyBytes {
				putHead(h)
				c.refuse(refuse(StatusRequestEntityTooLarge, ""))
				return nil, stepClosed
			}
			c.h, c.hn = h, n
		}
		var body []byte
		end := c.hn
		switch {
		case c.h.chunked:
			rest := in[c.hn:]
			done, err := c.dc.decode(rest, o.MaxBodyBytes)
			if err != nil {
				c.refuse(err.(*refusal))
				return nil, stepClosed
			}
			if !done {
				// what was decoded moves up to the data, so that the
				// buffer holds the body and one line at most
				k := copy(rest[c.dc.out:], rest[c.dc.raw:])
				in = in[:c.hn+c.dc.out+k]
				c.dc.raw = c.dc.out
				return c.await(in, eof)
			}
			body, end = rest[:c.dc.out], c.hn+c.dc.raw
		case c.h.contentLength > 0:
			end = c.hn + int(c.h.contentLength)
			if len(in) < end {
				return c.await(in, eof)
			}
			body = in[c.hn:end]
		}
		keep, handed := c.serve(c.h, body)
		putHead(c.h)
		in = in[end:]
		c.h, c.hn, c.scanned, c.dc, c.started, c.contSent = nil, 0, 0, dechunker{}, 0, false
		switch {
		case !keep:
			c.close()
			return nil, stepClosed
		case handed != nil:
			// the writer finishes the answer and then goes on with
			// what is left
			c.pending = bytes.Clone(in)
			c.s.wg.Add(1)
			go func() {
				defer c.s.wg.Done()
				c.finish(handed)
			}()
			return nil, stepClosed
		}
		if c.served++; c.served >= maxPerTurn {
			// a client pipelining without end waits its turn behind
			// the other connections ready
			c.pending = bytes.Clone(in)
			c.waited = armedPartial
			c.s.submit(c)
			return nil, stepClosed
		}
	}
}

// await is a request waiting for its body; a client that asked is told
// to send it.
func (c *conn) await(in []byte, eof bool) ([]byte, int) {
	if c.h.expectContinue && !c.contSent && !eof {
		c.contSent = true
		if err := c.write([]byte("HTTP/1.1 100 Continue\r\n\r\n")); err != nil {
			c.close()
			return nil, stepClosed
		}
	}
	return in, stepAwait
}

// refuse answers a request refused before any handler and closes.
func (c *conn) refuse(r *refusal) {
	_ = c.nc.SetWriteDeadline(time.Now().Add(c.s.opts.WriteTimeout))
	if c.write(refusalBytes(r)) != nil {
		c.close()
		return
	}
	c.linger()
}

// Bounds of the reading that follows a refusal.
const (
	lingerTime  = 500 * time.Millisecond
	lingerBytes = 256 << 10
)

// linger closes a connection after a refusal as net/http does: its
// sending side first, then, once what the client still sends (the body
// of the refused request) is read and dropped, for a short while, the
// rest. Closed at once with bytes unread, the connection would be reset
// and the client could lose the answer before reading it.
func (c *conn) linger() {
	c.release()
	_ = syscall.Shutdown(c.fd, syscall.SHUT_WR)
	c.s.wg.Add(1)
	go func() {
		defer c.s.wg.Done()
		defer c.nc.Close()
		_ = c.nc.SetReadDeadline(time.Now().Add(lingerTime))
		var b [512]byte
		for n := 0; n < lingerBytes; {
			k, err := c.nc.Read(b[:])
			if err != nil {
				return
			}
			n += k
		}
	}()
}

// serve runs the handler on one request and sends its answer. keep says
// whether the connection may serve another; handed is the end of an
// answer the socket did not take at once, left to finish.
func (c *conn) serve(h *head, body []byte) (keep bool, handed []byte) {
	s := c.s
	_ = c.nc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
	delete(h.header, "Host")
	r := &h.req
	*r = Request{
		Method: h.method, URL: h.url, Proto: h.proto, ProtoMajor: h.major, ProtoMinor: h.minor,
		Header: h.header, Host: h.host, RemoteAddr: c.remote, RequestURI: h.target,
		ContentLength: int64(len(body)), Close: !h.keepAlive, Body: NoBody, ctx: s.ctx,
	}
	if h.chunked {
		r.ContentLength, r.TransferEncoding = -1, []string{"chunked"}
	}
	if len(body) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	bb, wb := getBuf(), getBuf()
	defer putBuf(bb)
	defer putBuf(wb)
	w := &h.resp
	*w = response{c: c, req: r, header: getHeader(), isHEAD: h.method == MethodHead,
		minor: h.minor, keep: h.keepAlive, declared: -1, body: bb, wire: wb}
	switch {
	case w.isHEAD:
	case h.minor >= 1:
		w.chunk = s.opts.ChunkSize
	case s.opts.ChunkRefusal != nil:
		w.refuseAt = s.opts.ChunkSize
	}
	if !c.handle(w, r) {
		return false, nil
	}
	defer putHeader(w.header)
	defer putHeader(h.header)
	if !w.started {
		w.WriteHeader(StatusOK)
	}
	if w.failed != nil {
		return false, nil
	}
	if w.declared >= 0 && w.written < w.declared && !w.isHEAD && !w.noBody {
		// the handler wrote less than it said: the client cannot
		// find the next answer's start
		w.keep = false
	}
	c.last = nil
	if err := w.flush(true); err != nil {
		return false, nil
	}
	return w.keep, c.last
}

// handle runs the handler, containing its panic as net/http does (the
// connection is then closed).
func (c *conn) handle(w *response, r *Request) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			ok = false
			if p != ErrAbortHandler {
				c.s.logf("httpd: panic serving %s %s: %v", c.remote, r.URL.Path, p)
			}
		}
	}()
	c.s.opts.Handler.ServeHTTP(w, r)
	return true
}

// write sends p, waiting for the socket as long as the write deadline
// allows.
func (c *conn) write(p []byte) error {
	var werr error
	err := c.rc.Write(func(fd uintptr) bool {
		for len(p) > 0 {
			n, err := syscall.Write(int(fd), p)
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return false
			case err != nil:
				werr = err
				return true
			}
			p = p[n:]
		}
		return true
	})
	if err != nil {
		return err
	}
	return werr
}

// writeLast sends an answer's end as far as the socket takes it now and
// leaves the rest in c.last for a goroutine of its own, so that a slow
// reader holds no worker.
func (c *conn) writeLast(p []byte) error {
	for len(p) > 0 {
		n, err := syscall.Write(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			c.last = bytes.Clone(p)
			return nil
		case err != nil:
			return err
		}
		p = p[n:]
	}
	return nil
}

// finish writes the rest of an answer, then goes on with the
// connection: the requests already read, or the loop's wait.
func (c *conn) finish(rest []byte) {
	if err := c.write(rest); err != nil {
		c.close()
		return
	}
	if len(c.pending) > 0 {
		c.waited = armedPartial
		c.s.submit(c)
		return
	}
	c.pending = nil
	c.arm(armedIdle, time.Now().Add(c.s.opts.IdleTimeout).UnixNano())
}

// arm gives the connection back to the loop, to wait for readability
// until deadline; on a closed server it is closed instead.
func (c *conn) arm(state int, deadline int64) {
	s := c.s
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.close()
		return
	}
	c.state, c.deadline = state, deadline
	ev := syscall.EpollEvent{Events: armEvents, Fd: int32(c.fd)}
	err := syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_MOD, c.fd, &ev)
	if err != nil {
		c.state = busy
	} else {
		s.noteLocked(deadline)
	}
	s.mu.Unlock()
	if err != nil {
		c.close()
	}
}

// release takes the connection out of the loop and the server's table.
func (c *conn) release() {
	s := c.s
	s.mu.Lock()
	if c.state == closed {
		s.mu.Unlock()
		return
	}
	c.state = closed
	if s.conns[int32(c.fd)] == c {
		delete(s.conns, int32(c.fd))
	}
	s.mu.Unlock()
	_ = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_DEL, c.fd, nil)
}

// close closes the connection.
func (c *conn) close() {
	c.release()
	c.pending = nil
	c.nc.Close()
}

// handOff passes a connection that speaks something else to Options.Other.
func (c *conn) handOff() {
	c.release()
	if c.s.opts.Other == nil {
		c.nc.Close()
		return
	}
	c.s.wg.Add(1)
	go func() {
		defer c.s.wg.Done()
		c.s.opts.Other(c.nc)
	}()
}
