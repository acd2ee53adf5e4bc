package httpd

import (
	"context"
	"errors"
	"log"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/lograte"
)

// Options are a Server's handler and bounds; zero values take the
// defaults given.
type Options struct {
	// Handler answers the requests.
	Handler Handler
	// Other, when set, takes a connection whose first byte is no HTTP
	// method's initial (another protocol on the same port): it is called
	// in a goroutine of its own, which owns the connection from then on.
	// Without it such connections are closed.
	Other func(net.Conn)
	// IsHTTP says which first bytes begin an HTTP request (default: an
	// upper-case method's initial, G H P D T O C); other connections go
	// to Other.
	IsHTTP func(first byte) bool
	// FirstByteTimeout bounds the wait for a new connection's first byte
	// (default HeaderTimeout); HeaderTimeout a request's line and headers
	// from their first byte (default 10s); ReadTimeout the whole request
	// with its body (default 30s); WriteTimeout an answer from the
	// handler's start (default 120s); IdleTimeout a kept-alive
	// connection between requests (default 30s). A connection past its
	// wait is closed, one with part of a request after 408.
	FirstByteTimeout, HeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's line and headers (default 64
	// KiB, 431 past it); MaxBodyBytes its body (default 1 MiB, 413).
	MaxHeaderBytes int
	MaxBodyBytes   int64
	// Workers bounds the goroutines running handlers at once while they
	// keep finishing requests (default 4 per CPU); more requests wait,
	// read, in a queue. When requests wait and no worker has finished
	// one for stallTime (handlers waiting on an unreachable host), more
	// are started for them, Workers at first and twice as many each
	// further stallTime without a request finished, up to MaxWorkers in
	// all (default 256); these extra workers end once the queue is
	// empty.
	Workers, MaxWorkers int
	// ChunkSize, when above zero, sends an answer to an HTTP/1.1
	// request whose body reaches it in chunks of that size, whatever
	// Content-Length the handler set, as PCP's pmproxy frames its
	// answers ([pmproxy] chunksize); a smaller answer keeps its length.
	// It is at most MaxChunkSize (a chunk is held whole before it goes).
	// Zero: only answers longer than a buffer, with no length set, are
	// chunked.
	ChunkSize int
	// ChunkRefusal, with ChunkSize, refuses an answer to an HTTP/1.0
	// request (which cannot be chunked) once its body reaches ChunkSize,
	// as PCP's pmproxy does: what the handler wrote is dropped and the
	// answer is 413 with the body ChunkRefusal returns and the headers it
	// sets in h. Nil sends such answers whole.
	ChunkRefusal func(r *Request, h Header) []byte
	// Head, when set, writes an answer's status line and headers, up to
	// and with the blank line that ends them, in place of httpd's own
	// (net/http's, with Date and Connection), once the framing is
	// settled: pmproxy writes PCP's. It appends to b and returns it,
	// and must not allocate on a kept-alive request's path. The 100
	// Continue interim answer and the refusals of requests no handler
	// saw are httpd's own.
	Head func(b []byte, a *Answer) []byte
	// Log receives handler panics and the event loop's errors, rate
	// limited; nil discards them.
	Log *log.Logger

	// workerIdle is how long a worker waits for work before it ends
	// (default workerIdle; tests lengthen it).
	workerIdle time.Duration
}

func (o *Options) setDefaults() {
	dur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	dur(&o.HeaderTimeout, 10*time.Second)
	dur(&o.FirstByteTimeout, o.HeaderTimeout)
	dur(&o.ReadTimeout, 30*time.Second)
	dur(&o.WriteTimeout, 120*time.Second)
	dur(&o.IdleTimeout, 30*time.Second)
	dur(&o.workerIdle, workerIdle)
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = 64 << 10
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 1 << 20
	}
	o.ChunkSize = min(max(o.ChunkSize, 0), MaxChunkSize)
	if o.IsHTTP == nil {
		o.IsHTTP = MethodInitial
	}
	if o.Workers <= 0 {
		o.Workers = 4 * runtime.GOMAXPROCS(0)
	}
	if o.MaxWorkers <= 0 {
		o.MaxWorkers = 256
	}
	o.MaxWorkers = max(o.MaxWorkers, o.Workers)
}

// MethodInitial reports whether b begins one of the methods of RFC 9110
// (in upper case, as clients send them), the default of Options.IsHTTP.
func MethodInitial(b byte) bool {
	switch b {
	case 'G', 'H', 'P', 'D', 'T', 'O', 'C':
		return true
	}
	return false
}

// stallTime is how long the workers may all go without finishing a
// request, with requests waiting, before more are started. Handlers
// that wait their turn for one lock (pmproxy's fetches on one web
// context) finish one at a time, each after the pmcd's answer: on a
// loaded CPU one such answer took longer than 100 ms often enough that
// extra workers were started by the hundred during a burst, none of
// them any faster, each with its grown stack and buffers.
const stallTime = 500 * time.Millisecond

// workerIdle is how long a worker waits for work before it ends: a
// server with nothing to do keeps no worker and no worker's stack.
const workerIdle = 5 * time.Second

// Server is one event loop with its workers and connections.
type Server struct {
	opts   Options
	epfd   int
	ep     *os.File // epfd, in Go's poller
	eprc   syscall.RawConn
	ctx    context.Context // requests' contexts, ended by Close
	cancel context.CancelFunc
	kick   chan struct{} // wakes an idle worker
	done   chan struct{}
	wg     sync.WaitGroup
	logs   lograte.Limiter
	// when a worker last finished a request (unix nanoseconds)
	lastDone atomic.Int64

	mu      sync.Mutex // guards what follows and every conn's state and deadline
	conns   map[int32]*conn
	closed  bool
	workers int     // running
	idle    int     // of them, waiting for work
	batch   int     // extra workers the next stall starts (0: Workers)
	queue   []*conn // read and waiting for a worker
	next    int64   // the earliest deadline of an armed conn noted since the loop's scan (0 none)
	planned int64   // when the loop waits until (0 while it runs, -1 forever)
}

// New starts a server's event loop; connections come through Add.
func New(opts Options) (*Server, error) {
	opts.setDefaults()
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	// The loop waits for the epoll descriptor itself in Go's poller, so
	// that it holds no thread in epoll_wait, and its waits end by the
	// descriptor's read deadline.
	if err := syscall.SetNonblock(epfd, true); err != nil {
		syscall.Close(epfd)
		return nil, err
	}
	ep := os.NewFile(uintptr(epfd), "httpd-epoll")
	eprc, err := ep.SyscallConn()
	if err == nil {
		// fails unless the descriptor is in the poller
		err = ep.SetReadDeadline(time.Time{})
	}
	if err != nil {
		ep.Close()
		return nil, err
	}
	s := &Server{opts: opts, epfd: epfd, ep: ep, eprc: eprc, conns: map[int32]*conn{},
		kick: make(chan struct{}, opts.MaxWorkers), done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.lastDone.Store(time.Now().UnixNano())
	s.wg.Add(1)
	go s.loop()
	return s, nil
}

// Add hands the server a connection to serve; the server closes it
// (through its Close, once) or passes it to Options.Other.
func (s *Server) Add(nc net.Conn) error {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		nc.Close()
		return errors.New("httpd: connection has no file descriptor")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		nc.Close()
		return err
	}
	fd := -1
	if err := rc.Control(func(f uintptr) { fd = int(f) }); err != nil {
		nc.Close()
		return err
	}
	c := &conn{s: s, nc: nc, rc: rc, fd: fd, remote: remoteString(nc)}
	deadline := time.Now().Add(s.opts.FirstByteTimeout).UnixNano()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		nc.Close()
		return net.ErrClosed
	}
	c.state, c.deadline = armedNew, deadline
	s.conns[int32(fd)] = c
	ev := syscall.EpollEvent{Events: armEvents, Fd: int32(fd)}
	err = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_ADD, fd, &ev)
	if err != nil {
		delete(s.conns, int32(fd))
	} else {
		s.noteLocked(deadline)
	}
	s.mu.Unlock()
	if err != nil {
		nc.Close()
		return err
	}
	return nil
}

func remoteString(nc net.Conn) string {
	if a := nc.RemoteAddr(); a != nil {
		return a.String()
	}
	return ""
}

// armEvents: readable, or closed by the peer; one event per arming.
const armEvents = syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT

// noteLocked records an armed connection's deadline, and when the loop
// sleeps past it, brings its waking forward.
func (s *Server) noteLocked(deadline int64) {
	if s.next == 0 || deadline < s.next {
		s.next = deadline
	}
	if s.planned < 0 || (s.planned > 0 && deadline < s.planned) {
		s.planned = deadline
		_ = s.ep.SetReadDeadline(time.Unix(0, deadline))
	}
}

// Close closes every connection waiting for a request, stops the loop,
// lets the requests being served end (their contexts are cancelled), and
// waits for them.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	_ = s.ep.SetReadDeadline(time.Unix(0, 1))
	s.mu.Unlock()
	s.cancel()
	close(s.done)
	s.wg.Wait()
	s.ep.Close()
	return nil
}

// Conns is the number of connections the server holds.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// loop waits for connections to become readable and hands them to
// workers, and closes those past their deadlines.
func (s *Server) loop() {
	defer s.wg.Done()
	events := make([]syscall.EpollEvent, 64)
	// made once: a closure or a slice made in each turn of the loop was
	// garbage of every readable connection
	n := 0
	var werr error
	wait := func(fd uintptr) bool {
		for {
			n, werr = syscall.EpollWait(int(fd), events, 0)
			if werr != syscall.EINTR {
				break
			}
		}
		return n > 0 || werr != nil
	}
	var ready []*conn
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			break
		}
		s.planned = -1
		if s.next > 0 {
			s.planned = s.next
		}
		if len(s.queue) > 0 {
			// back to see whether the workers are stuck
			if stall := time.Now().Add(stallTime).UnixNano(); s.planned < 0 || s.planned > stall {
				s.planned = stall
			}
		}
		if s.planned > 0 {
			_ = s.ep.SetReadDeadline(time.Unix(0, s.planned))
		} else {
			_ = s.ep.SetReadDeadline(time.Time{})
		}
		s.mu.Unlock()
		n, werr = 0, nil
		err := s.eprc.Read(wait)
		if err == nil {
			err = werr
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			s.logf("httpd: epoll: %v", err)
			time.Sleep(10 * time.Millisecond)
		}
		s.mu.Lock()
		s.planned = 0
		ready = ready[:0]
		for _, ev := range events[:max(n, 0)] {
			if c := s.conns[ev.Fd]; c != nil && c.state <= armedPartial {
				c.waited, c.state = c.state, busy
				ready = append(ready, c)
			}
		}
		s.unstickLocked(time.Now().UnixNano())
		s.mu.Unlock()
		for i, c := range ready {
			ready[i] = nil
			s.submit(c)
		}
		// next is a bound below every armed deadline: until it has
		// passed, no connection is late and the table is not scanned
		s.mu.Lock()
		next := s.next
		s.mu.Unlock()
		if now := time.Now().UnixNano(); next != 0 && now >= next {
			s.expire(now)
		}
	}
	s.mu.Lock()
	var armed []*conn
	for _, c := range s.conns {
		if c.state <= armedPartial {
			c.state = busy
			armed = append(armed, c)
		}
	}
	s.mu.Unlock()
	for _, c := range armed {
		c.close()
	}
}

// expire closes the armed connections past their deadlines (after a 408
// for one holding part of a request) and notes the next deadline.
func (s *Server) expire(now int64) {
	var late []*conn
	s.mu.Lock()
	s.next = 0
	for _, c := range s.conns {
		if c.state > armedPartial {
			continue
		}
		if c.deadline <= now {
			c.waited, c.state = c.state, busy
			late = append(late, c)
		} else if s.next == 0 || c.deadline < s.next {
			s.next = c.deadline
		}
	}
	s.mu.Unlock()
	for _, c := range late {
		if c.waited == armedPartial {
			_, _ = syscall.Write(c.fd, timeoutAnswer)
		}
		c.close()
	}
}

// timeoutAnswer ends a request not read whole in time.
var timeoutAnswer = refusalBytes(refuse(StatusRequestTimeout, ""))

// submit queues a connection for a worker: an idle one is woken, else a
// new one started while there are fewer than MaxWorkers; otherwise it
// waits its turn.
func (s *Server) submit(c *conn) {
	s.mu.Lock()
	s.queue = append(s.queue, c)
	switch {
	case s.idle > 0:
		select {
		case s.kick <- struct{}{}:
		default:
		}
	case s.workers < s.opts.Workers:
		s.workers++
		s.wg.Add(1)
		go s.worker()
	default:
		s.unstickLocked(time.Now().UnixNano())
	}
	s.mu.Unlock()
}

// unstickLocked starts more workers for the requests waiting, when none
// is idle and none has finished a request for stallTime: the handlers
// running wait on something slow, and the requests behind them need
// not. The workers come in batches, one per stallTime while nothing
// finishes, each twice the last (Workers at first), up to MaxWorkers:
// all at once, handlers waiting on one lock took a worker each for
// nothing (the lock's holder finishes no sooner); a batch that does not
// unstick the queue is soon followed by a larger one. s.mu held.
func (s *Server) unstickLocked(now int64) {
	if len(s.queue) == 0 || s.idle > 0 || now-s.lastDone.Load() < int64(stallTime) {
		return
	}
	batch := max(s.batch, s.opts.Workers)
	for n := min(len(s.queue), s.opts.MaxWorkers-s.workers, batch); n > 0; n-- {
		s.workers++
		s.wg.Add(1)
		go s.worker()
	}
	s.batch = 2 * batch
	// the next batch only after another stallTime without progress
	s.lastDone.Store(now)
}

// take removes the first queued connection, nil if none; s.mu held.
func (s *Server) take() *conn {
	if len(s.queue) == 0 {
		return nil
	}
	c := s.queue[0]
	s.queue[0] = nil
	s.queue = s.queue[1:]
	if len(s.queue) == 0 {
		s.queue = nil
	}
	return c
}

// worker serves queued connections until none comes for workerIdle, or
// the server closes (then it closes what is still queued).
func (s *Server) worker() {
	defer s.wg.Done()
	var t *time.Timer
	for {
		s.mu.Lock()
		if c := s.take(); c != nil {
			closed := s.closed
			s.mu.Unlock()
			if closed {
				c.close()
			} else {
				c.run()
			}
			s.mu.Lock()
			s.lastDone.Store(time.Now().UnixNano())
			s.batch = 0
			s.mu.Unlock()
			continue
		}
		if s.workers > s.opts.Workers {
			// an extra worker, started for a stall, is not kept
			// waiting with its stack once the queue is served
			s.workers--
			s.mu.Unlock()
			return
		}
		s.idle++
		s.mu.Unlock()
		if t == nil {
			t = time.NewTimer(s.opts.workerIdle)
			defer t.Stop()
		} else {
			t.Reset(s.opts.workerIdle)
		}
		var end bool
		select {
		case <-s.kick:
		case <-t.C:
			end = true
		case <-s.done:
			end = true
		}
		s.mu.Lock()
		s.idle--
		if end && (len(s.queue) == 0 || s.closed) {
			var rest []*conn
			for c := s.take(); c != nil; c = s.take() {
				rest = append(rest, c)
			}
			s.workers--
			s.mu.Unlock()
			for _, c := range rest {
				c.close()
			}
			return
		}
		s.mu.Unlock()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log == nil {
		return
	}
	if ok, n := s.logs.Allow(); ok {
		if n > 0 {
			format += " (%d more lines suppressed)"
			args = append(args, n)
		}
		s.opts.Log.Printf(format, args...)
	}
}
