package pmcd

import (
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// Clients' readiness, told by one epoll set of pmcd's own while several
// clients are connected.
//
// A client's goroutine answers a request and reads the next one. Its
// client has not sent it yet (the answer was written a moment ago), so
// the read finds nothing, and only then does Go's poller wait: under 32
// clients that empty read was half of pmcd's reads, one system call of
// three a fetch. Go's poller cannot be asked to wait without that read:
// it clears what it knows of the descriptor's readiness before every
// attempt, so waiting first could sleep through a request already there.
//
// Here every client's socket is also in an epoll set of pmcd's own,
// edge-triggered: every arrival of bytes queues an event. A goroutine
// whose last read drained its socket (it read less than it asked for)
// waits for its client's event instead of reading, and one goroutine
// (run) collects the events of all clients, in the order they came, and
// wakes the clients' goroutines in that order. It reads the set without
// waiting, as many events at a time as there are, and waits for the set
// itself through Go's poller (the set is readable while it holds events).
// So the empty read a fetch becomes a read of the set per batch of ready
// clients, and the clients are served in turn, as PCP's select loop
// serves them.
//
// With few clients a batch is one client, and the set's read and the
// goroutine's turn cost more than the one empty read: below pollMinClients the set is
// off, its goroutine parked, and the clients read as before (their
// sockets are put in the kernel's set when it goes on, and taken out
// when it goes off).
//
// An event can come for bytes a read took already (they came before the
// read): the goroutine then reads nothing and waits in Go's poller as
// before, so a wake-up that finds nothing costs what every fetch cost
// before.

// pollMinClients is the number of connected clients from which the set
// is on.
const pollMinClients = 4

// epollET is EPOLLET, the kernel's bit 31, as the event's uint32:
// package syscall has it negative on some architectures (amd64) and
// positive on others (arm64), so that neither it nor its negation is a
// uint32 constant on both.
const epollET = 1 << 31

// pollBatch is the most events one read of the set takes.
const pollBatch = 128

// clientPolls is a Server's set of clients, made for the first client
// and closed when the last goes.
type clientPolls struct {
	mu  sync.Mutex
	cur *clientPoller
	// off, when set, keeps the set from being made: every client reads
	// as if it were off (for tests and comparisons).
	off bool
}

// clientPoller is one epoll set and the goroutine reading it.
type clientPoller struct {
	file *os.File // the set, through Go's poller
	rc   syscall.RawConn
	epfd int

	// on says the set is on (at least pollMinClients clients); wake
	// unparks run when it goes on; done ends run.
	on   atomic.Bool
	wake chan struct{}
	done chan struct{}

	mu      sync.Mutex
	waiters map[uint64]*pollWaiter
	next    uint64

	// Read by run alone.
	events [pollBatch]syscall.EpollEvent
	errno  syscall.Errno
	readFn func(uintptr) bool
}

// pollWaiter is one client's place in the set.
type pollWaiter struct {
	ps *clientPolls
	p  *clientPoller
	id uint64
	// ready holds a wake-up for the client's goroutine; closed ends its
	// waits when the connection closes.
	ready     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
	rc        syscall.RawConn
	// in says the socket is in the kernel's set (enter, leave): only
	// then does its goroutine wait for its events.
	in atomic.Bool
	// ended says the client has shut its side down, or the socket
	// failed: a read that takes the last bytes does not see the end,
	// and no further event will tell it (the set is edge-triggered),
	// so from then on its goroutine reads without waiting.
	ended atomic.Bool
}

// polledStream is a client's stream that waits for its client's event
// when the set is on and its last read drained the socket.
type polledStream struct {
	stream
	w       *pollWaiter
	drained bool
	// timed says a read deadline is set: a read that may wait under
	// one waits in Go's poller, which keeps it. It is set from other
	// goroutines too (a cancelled context's past deadline).
	timed atomic.Bool
}

// polledConn closes its client's place in the set with the connection.
type polledConn struct {
	net.Conn
	w *pollWaiter
}

// pollClient puts conn, read and written through rw, into s's set, and
// returns what the client should use instead: conn and rw as they are
// when the set cannot take the connection.
func (s *Server) pollClient(conn net.Conn, rw stream) (net.Conn, stream) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return conn, rw
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return conn, rw
	}
	w := s.polls.add(rc)
	if w == nil {
		return conn, rw
	}
	return &polledConn{Conn: conn, w: w}, &polledStream{stream: rw, w: w}
}

// add registers the connection behind rc, making the set if there is
// none; nil if it cannot.
func (ps *clientPolls) add(rc syscall.RawConn) *pollWaiter {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.off {
		return nil
	}
	if ps.cur == nil {
		p, err := newClientPoller()
		if err != nil {
			return nil
		}
		ps.cur = p
	}
	p := ps.cur
	p.mu.Lock()
	p.next++
	w := &pollWaiter{ps: ps, p: p, id: p.next, ready: make(chan struct{}, 1), closed: make(chan struct{}), rc: rc}
	p.waiters[w.id] = w
	n := len(p.waiters)
	p.mu.Unlock()
	switch {
	case p.on.Load():
		w.enter()
	case n >= pollMinClients:
		for _, o := range p.all() {
			o.enter()
		}
		p.on.Store(true)
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
	return w
}

// all is every client of p, in the set or not.
func (p *clientPoller) all() []*pollWaiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	all := make([]*pollWaiter, 0, len(p.waiters))
	for _, w := range p.waiters {
		all = append(all, w)
	}
	return all
}

// enter puts w's socket into the kernel's set; under ps.mu. A socket
// that cannot be put there (closed meanwhile, or the kernel's limit on
// watches reached) is read as if the set were off.
func (w *pollWaiter) enter() {
	if w.in.Load() {
		return
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | epollET,
		Fd: int32(uint32(w.id)), Pad: int32(uint32(w.id >> 32))}
	var err error
	// Through Control, so that the descriptor is still this
	// connection's (here and in leave): once closed, its number may be
	// another's.
	if w.rc.Control(func(fd uintptr) {
		err = syscall.EpollCtl(w.p.epfd, syscall.EPOLL_CTL_ADD, int(fd), &ev)
	}) == nil && err == nil {
		w.in.Store(true)
	}
}

// leave takes w's socket out of the kernel's set and wakes its goroutine
// if it waits for an event, to read (and wait in Go's poller) as when
// the set is off; under ps.mu. A goroutine that saw its socket in the set
// but waits only after this finds its wake-up there.
func (w *pollWaiter) leave() {
	if !w.in.Load() {
		return
	}
	w.in.Store(false)
	w.notify()
	_ = w.rc.Control(func(fd uintptr) {
		_ = syscall.EpollCtl(w.p.epfd, syscall.EPOLL_CTL_DEL, int(fd), nil)
	})
}

// remove takes w out of its set, closing the set when it was the last.
// Below pollMinClients the set goes off: every socket leaves the
// kernel's set, so that while it is off the clients' bytes cost the
// kernel nothing more than before.
func (ps *clientPolls) remove(w *pollWaiter) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p := w.p
	w.leave()
	p.mu.Lock()
	delete(p.waiters, w.id)
	n := len(p.waiters)
	p.mu.Unlock()
	if n < pollMinClients && p.on.Load() {
		p.on.Store(false)
		for _, o := range p.all() {
			o.leave()
		}
	}
	ps.closeIfUnused(p)
}

// closeIfUnused closes p if it is the set and has no clients; under
// ps.mu.
func (ps *clientPolls) closeIfUnused(p *clientPoller) {
	p.mu.Lock()
	n := len(p.waiters)
	p.mu.Unlock()
	if n > 0 || ps.cur != p {
		return
	}
	ps.cur = nil
	close(p.done)
	// Closing the file ends run's wait in Go's poller.
	p.file.Close()
}

// newClientPoller makes a set and starts its goroutine.
func newClientPoller() (*clientPoller, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	// Non-blocking, so that os.NewFile gives it to Go's poller (the set's
	// reads never block: they are asked not to wait).
	if err := syscall.SetNonblock(epfd, true); err != nil {
		syscall.Close(epfd)
		return nil, os.NewSyscallError("fcntl", err)
	}
	f := os.NewFile(uintptr(epfd), "pmcd-clients")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	p := &clientPoller{file: f, rc: rc, epfd: epfd, wake: make(chan struct{}, 1), done: make(chan struct{}),
		waiters: map[uint64]*pollWaiter{}}
	p.readFn = p.read
	go p.run()
	return p, nil
}

// read wakes the goroutines of the clients whose events have come, and
// says to wait for more (false) until the set goes off or fails. Go's
// poller clears what it knows of the set's readiness once, when run
// hands it this function, not between its calls: so an event that comes
// while this delivers others makes the wait that follows return at once,
// and a batch costs one read of the set, not a read and an empty one.
func (p *clientPoller) read(fd uintptr) bool {
	for {
		if !p.on.Load() {
			return true
		}
		n, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, fd, uintptr(unsafe.Pointer(&p.events[0])),
			uintptr(len(p.events)), 0, 0, 0)
		switch {
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			p.errno = errno
			return true
		case n == 0:
			return false
		}
		p.mu.Lock()
		for i := range p.events[:n] {
			ev := &p.events[i]
			if w := p.waiters[uint64(uint32(ev.Fd))|uint64(uint32(ev.Pad))<<32]; w != nil {
				if ev.Events&(syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
					w.ended.Store(true)
				}
				w.notify()
			}
		}
		p.mu.Unlock()
		if int(n) < len(p.events) {
			// The set was emptied: whatever comes next makes it
			// readable again.
			return false
		}
	}
}

// run wakes the clients' goroutines as their events come, while the set
// is on, until the set is closed.
func (p *clientPoller) run() {
	for {
		if !p.on.Load() {
			select {
			case <-p.wake:
				continue
			case <-p.done:
				return
			}
		}
		if err := p.rc.Read(p.readFn); err != nil || p.errno != 0 {
			select {
			case <-p.done: // closed: no client is left
			default:
				p.failed()
			}
			return
		}
	}
}

// failed turns the clients' sets off for good when this one's wait fails
// (epoll_pwait's EBADF or EFAULT, never expected): each client leaves the
// set and is woken to read as without it, so that none waits for an
// event nobody will deliver, and clients that come later are not put in
// a set.
func (p *clientPoller) failed() {
	all := p.all()
	if len(all) == 0 {
		return
	}
	ps := all[0].ps
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.off = true
	p.on.Store(false)
	for _, w := range p.all() {
		w.leave()
	}
}

// notify leaves a wake-up for w's goroutine, unless one is there.
func (w *pollWaiter) notify() {
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// Read reads, first waiting for the client's event when its socket is in
// the set, no deadline is set, the last read drained the socket and the
// client has not ended its side.
func (s *polledStream) Read(b []byte) (int, error) {
	if s.waitsForEvent() {
		select {
		case <-s.w.ready:
		case <-s.w.closed:
		}
	}
	n, err := s.stream.Read(b)
	s.drained = err == nil && n < len(b)
	return n, err
}

// waitsForEvent says the next Read waits for the client's event before
// reading (see Read).
func (s *polledStream) waitsForEvent() bool {
	return s.drained && !s.timed.Load() && s.w.in.Load() && !s.w.ended.Load()
}

// SetReadDeadline sets the deadline on the connection, then wakes a
// wait for the client's event, so that the read waits in Go's poller
// under the deadline instead (a past one interrupts it).
func (s *polledStream) SetReadDeadline(t time.Time) error {
	err := s.stream.SetReadDeadline(t)
	s.timed.Store(!t.IsZero())
	if !t.IsZero() {
		s.w.notify()
	}
	return err
}

// Close closes the connection after taking it out of the set; a second
// Close closes again, as net.Conn's does.
func (c *polledConn) Close() error {
	c.w.closeOnce.Do(func() {
		close(c.w.closed)
		c.w.ps.remove(c.w)
	})
	return c.Conn.Close()
}

// SyscallConn is the connection's own, so that its descriptor can still
// be asked for (the client table's fd).
func (c *polledConn) SyscallConn() (syscall.RawConn, error) { return c.w.rc, nil }
