package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Client sends trace data to one agent. Its methods may be called from
// any goroutine; calls are serialised on the connection, as libpcp_trace
// serialises them under its lock.
type Client struct {
	opts Options
	pid  int32

	mu       sync.Mutex
	state    State
	fixed    bool // protocol chosen: the first connection was tried
	conn     net.Conn
	fd       int       // conn's descriptor, as StatePDU's lines show it
	ever     bool      // a connection was made once
	lastErr  error     // why the last attempt failed
	next     time.Time // no attempt before this
	step     int       // back-off steps taken since the last success
	closed   bool
	txns     map[string]*txnState
	buf      []byte
	rbuf     [MaxPDULen]byte
	dropped  uint64
	received uint64

	// readBy and writeBy are the deadlines set on conn; they are moved
	// only when a wait could outlast RequestTimeout's half or a context
	// asks for sooner, since setting one costs more than a send.
	readBy, writeBy time.Time
}

type txnState struct {
	start      time.Time
	inProgress bool
}

// New makes a client; it connects on its first call. The options are
// checked but nothing is dialled yet.
func New(o Options) (*Client, error) {
	if o.Port < PortZero {
		return nil, fmt.Errorf("trace: bad port %d", o.Port)
	}
	for _, s := range o.Reconnect {
		if s <= 0 {
			return nil, fmt.Errorf("trace: reconnect steps must be positive")
		}
	}
	switch o.Port {
	case 0:
		o.Port = DefaultPort
	case PortZero:
		o.Port = 0
	}
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if len(o.Reconnect) == 0 {
		o.Reconnect = DefaultReconnect()
	}
	c := &Client{opts: o, pid: o.PID, state: o.State, txns: map[string]*txnState{}}
	if c.pid == 0 {
		c.pid = int32(os.Getpid())
	}
	if o.Async {
		c.state |= StateAsync
	}
	if o.NoAgent {
		c.state |= StateNoAgent
	}
	return c, nil
}

// SetState is pmtracestate: it sets the flags and returns the old ones.
// StateAsync can only be set before the first connection
// (syscall.EINVAL after).
func (c *Client) SetState(s State) (State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.state
	if s&StateAsync != 0 && old&StateAsync == 0 && c.fixed {
		return old, syscall.EINVAL
	}
	if old&StateAsync != 0 {
		s |= StateAsync // the protocol never goes back
	}
	c.state = s
	return old, nil
}

// Dropped is how many data were not delivered because no agent was
// connected (synchronous protocol; asynchronous calls report ErrIPC).
func (c *Client) Dropped() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped
}

// Close ends the connection; later calls fail with ErrIPC.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return c.dropConn()
}

func (c *Client) async() bool { return c.state&StateAsync != 0 }

// tracing says whether diagnostics of flag are wanted; callers check it
// first so that a quiet client does not box the arguments.
func (c *Client) tracing(flag State) bool { return c.state&flag != 0 && c.opts.Log != nil }

func (c *Client) debugf(flag State, format string, args ...any) {
	if c.state&flag != 0 && c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, format+"\n", args...)
	}
}

func (c *Client) dropConn() error {
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}

// lost ends a connection that failed; the next call may try again at
// once, as libpcp_trace does, and failures after that back off.
func (c *Client) lost(why error) {
	var n syscall.Errno
	if errors.As(why, &n) {
		c.remapped(-int(n))
	}
	c.dropConn()
	c.next = time.Time{}
}

// ensure makes sure there is a connection, trying one if the back-off
// allows. It returns nil when connected.
func (c *Client) ensure(ctx context.Context) error {
	if c.closed {
		return ErrIPC
	}
	if c.conn != nil {
		return nil
	}
	c.fixed = true
	now := time.Now()
	if c.ever {
		c.debugf(StateComms, "_pmtracereconnect: attempting PMDA reconnection")
	}
	if now.Before(c.next) {
		c.debugf(StateComms, "_pmtracereconnect: too soon to retry (%d seconds remain)", int(c.next.Sub(now).Seconds()))
		if c.lastErr != nil && !c.ever {
			return c.lastErr
		}
		return ErrIPC
	}
	err := c.connect(ctx)
	if err == nil {
		if c.ever {
			c.debugf(StateComms, "_pmtracereconnect: reconnect succeeded!")
		}
		c.ever, c.step, c.lastErr = true, 0, nil
		return nil
	}
	if c.ever {
		c.debugf(StateComms, "_pmtracereconnect: failed to reconnect")
		c.debugf(StateComms, "_pmtraceupdatewait: updating reconnect back-off")
	}
	c.lastErr = err
	steps := c.opts.Reconnect
	d := steps[min(c.step, len(steps)-1)]
	if c.step < len(steps)-1 {
		c.step++
	}
	c.next = time.Now().Add(d)
	if c.ever {
		c.debugf(StateComms, "_pmtraceupdatewait: next attempt after %d seconds", int(d.Seconds()))
	}
	return err
}

// connect dials the agent and reads its welcome: the protocol version,
// or a refusal (ErrPermission, ErrConnLimit).
func (c *Client) connect(ctx context.Context) error {
	host := c.opts.Host
	if host == "" && !c.opts.EmptyHost {
		h, err := os.Hostname()
		if err != nil {
			return err
		}
		host = h
	}
	c.debugf(StateComms, "_pmtraceconnect: connecting to PMDA ...")
	c.envWarnings()
	var ips []net.IPAddr
	err := errNoName
	if host != "" {
		ips, err = net.DefaultResolver.LookupIPAddr(ctx, host)
	}
	if err != nil {
		if c.tracing(StateComms) {
			n := hostError(err)
			c.debugf(StateComms, "_pmtraceconnect(__pmGetAddrInfo(hostname=%s): hosterror=%d, ``%s''", host, n, hostErrorText[n])
		}
		return syscall.EHOSTUNREACH
	}
	// An attempt ends at the alarm (EINTR) or at ConnectWait
	// (ETIMEDOUT), whichever comes first, as libpcp_trace's do.
	wait, late := ConnectWait, error(syscall.ETIMEDOUT)
	alarm := max(c.opts.ConnectTimeout, 0)
	if alarm > 0 && alarm <= wait {
		wait, late = alarm, syscall.EINTR
	}
	var conn net.Conn
	for _, ip := range ips {
		// libpcp_trace asks getaddrinfo for no socket type, so each
		// address comes three times (stream, datagram, raw) and it
		// tries a TCP connection to each of them.
		for range addrTries {
			if c.tracing(StateComms) {
				c.debugf(StateComms, "_pmtraceconnect: PMDA host=%s port=%d timeout=%dsecs", hostName(ctx, ip.IP), c.opts.Port, int(alarm.Seconds()))
			}
			dial := func() {
				dctx, cancel := context.WithTimeout(ctx, wait)
				defer cancel()
				var d net.Dialer
				conn, err = d.DialContext(dctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(c.opts.Port&0xffff)))
				// the dial's own deadline can fire before dctx's
				var ne net.Error
				if err != nil && ctx.Err() == nil && (dctx.Err() != nil || errors.As(err, &ne) && ne.Timeout()) {
					err = late
				}
			}
			if c.opts.Dialling != nil {
				c.opts.Dialling(dial)
			} else {
				dial()
			}
			if err == nil {
				break
			}
		}
		if err == nil {
			break
		}
	}
	if conn == nil {
		if err == nil {
			err = syscall.EHOSTUNREACH
		}
		err = dialError(err)
		c.debugf(StateComms, "_pmtraceconnect(socket failed): %s", ErrText(CodeOf(err)))
		return err
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	c.conn = conn
	c.fd = connFD(conn)
	c.readBy, c.writeBy = time.Time{}, time.Time{}
	if c.async() {
		c.debugf(StateComms, "_pmtraceconnect: async protocol setup complete")
	} else {
		c.debugf(StateComms, "_pmtraceconnect: sync protocol setup complete")
	}
	c.debugf(StateComms, "_pmtracegetack: awaiting ack ...")
	if c.ackUnread() {
		return nil
	}
	v, err := c.readAck(ctx)
	if err != nil {
		c.dropConn()
		return err
	}
	if v < 0 {
		c.dropConn()
		return Error(v)
	}
	return nil
}

// errNoName is the lookup of an empty host name, which getaddrinfo
// refuses with no answer from any server.
var errNoName = errors.New("no host name")

// hostError is the h_errno libpcp_trace reports of a failed lookup:
// HOST_NOT_FOUND for a name no server knows, TRY_AGAIN for one not
// answered in time, NO_RECOVERY otherwise (an empty name among them).
func hostError(err error) int {
	var de *net.DNSError
	switch {
	case errors.As(err, &de) && de.IsNotFound:
		return 1
	case errors.As(err, &de) && (de.IsTimeout || de.IsTemporary):
		return 2
	}
	return 3
}

// hostErrorText is hstrerror's text of each h_errno hostError gives.
var hostErrorText = [...]string{1: "Unknown host", 2: "Host name lookup failure", 3: "Unknown server error"}

// dialError gives the errno of a failed dial when there is one, as
// libpcp_trace returns -errno from its connect.
func dialError(err error) error {
	var n syscall.Errno
	if errors.As(err, &n) {
		return n
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return syscall.ETIMEDOUT
	}
	return syscall.EHOSTUNREACH
}

// addrTries is how many times libpcp_trace tries each of a host's
// addresses.
const addrTries = 3

// envWarnings writes libpcp_trace's warnings about a malformed port or
// connect timeout, which it gives at each connection attempt (without
// a newline, as it writes them).
func (c *Client) envWarnings() {
	if c.opts.Warn == nil {
		return
	}
	if c.opts.badEnv(EnvPort) {
		fmt.Fprint(c.opts.Warn, "trace warning: bad PCP_TRACE_PORT ignored.")
	}
	if c.opts.badEnv(EnvTimeout) {
		fmt.Fprint(c.opts.Warn, "trace warning: bogus PCP_TRACE_TIMEOUT.")
	}
}

// ackUnread is libpcp_trace's wait for an acknowledgement when
// PCP_TRACE_REQTIMEOUT is malformed: its read fails at once, that is
// reported, and the failure is taken as a protocol error it hides, so the
// caller goes on as if acknowledged. It says whether that happened.
func (c *Client) ackUnread() bool {
	if !c.opts.badEnv(EnvReqTimeout) {
		return false
	}
	if c.opts.Warn != nil {
		fmt.Fprintf(c.opts.Warn, "__pmtracegetPDU: fd=%d hdr: %s", c.fd, ErrText(int(ErrEnvFormat)))
	}
	c.remapped(int(ErrIPC))
	return true
}

// readAck waits for one ACK PDU.
func (c *Client) readAck(ctx context.Context) (int32, error) {
	var r io.Reader = c.conn
	if p, ok := c.arrived(); ok {
		r = p
	} else {
		c.armDeadline(ctx, &c.readBy, c.conn.SetReadDeadline)
	}
	h, pdu, err := ReadPDU(r, c.rbuf[:])
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			c.remapped(int(ErrTimeout))
			return 0, ErrTimeout
		}
		return 0, ErrIPC
	}
	if c.tracing(StatePDU) {
		c.dumpPDU("__pmtracegetPDU", pdu)
	}
	if h.Type != PDUAck {
		return 0, ErrIPC
	}
	v, err := DecodeAck(pdu)
	switch {
	case err != nil:
		c.remapped(CodeOf(err))
	case c.tracing(StatePDU):
		c.debugf(StatePDU, "__pmtracedecodeack -> data=%d", v)
	}
	if v < 0 {
		// a refusal, remapped as libpcp_trace remaps every error
		// it reads
		c.remapped(int(v))
	}
	return v, err
}

// send delivers one datum (the lock held).
// connect says whether the call made a connection attempt before it, as
// libpcp_trace's calls other than pmtraceend do (it matters only to the
// lines StateNoAgent prints).
func (c *Client) send(ctx context.Context, tag string, t Type, value float64, connect bool) error {
	if c.state&StateNoAgent != 0 {
		c.skipped(connect)
		c.fixed = true
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	wasEver := c.ever
	if err := c.ensure(ctx); err != nil {
		c.dropped++
		if !wasEver || c.async() || c.closed {
			return err
		}
		return nil // synchronous: hidden, tried again later
	}
	c.buf = AppendData(c.buf[:0], c.pid, tag, t, !c.async(), value)
	if c.tracing(StatePDU) {
		c.debugf(StatePDU, "__pmtracesenddata(tag=\"%s\", data=%f)", tag, value)
		c.dumpPDU("__pmtracexmitPDU", c.buf)
	}
	c.armDeadline(ctx, &c.writeBy, c.conn.SetWriteDeadline)
	if c.opts.Sending != nil {
		c.opts.Sending()
	}
	if _, err := c.conn.Write(c.buf); err != nil {
		c.lost(err)
		c.dropped++
		if c.async() {
			return ErrIPC
		}
		return nil
	}
	c.remapped(len(c.buf))
	if c.async() {
		return nil
	}
	c.debugf(StateComms, "_pmtracegetack: awaiting ack ...")
	if c.ackUnread() {
		return nil
	}
	v, err := c.readAck(ctx)
	switch {
	case err != nil:
		c.lost(err)
		if err == ErrTimeout {
			return ErrTimeout
		}
		return nil
	case v < 0:
		return Error(v)
	case v != int32(t):
		c.lost(fmt.Errorf("ACK %d for a datum of type %d", v, t))
		return ErrIPC
	}
	c.received++
	return nil
}

func (c *Client) common(ctx context.Context, tag string, t Type, value float64) error {
	if err := CheckTag(tag); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tracing(StateAPI) {
		c.debugf(StateAPI, "_pmtracecommon: trace tag '%s' (type=%d,value=%f)", tag, t, value)
	}
	return c.send(ctx, tag, t, value, true)
}

// Point is pmtracepoint: the program passed the point tag.
func (c *Client) Point(ctx context.Context, tag string) error {
	return c.common(ctx, tag, TypePoint, -1)
}

// Observe is pmtraceobs: tag was seen to have value.
func (c *Client) Observe(ctx context.Context, tag string, value float64) error {
	return c.common(ctx, tag, TypeObserve, value)
}

// Counter is pmtracecounter: tag's monotonic count is now value.
func (c *Client) Counter(ctx context.Context, tag string, value float64) error {
	return c.common(ctx, tag, TypeCounter, value)
}

// armDeadline makes sure the next wait on the connection ends within
// RequestTimeout (between half of it and all of it) and by ctx's
// deadline, touching the connection only when the deadline must move.
func (c *Client) armDeadline(ctx context.Context, by *time.Time, set func(time.Time) error) {
	now := time.Now()
	bound := c.opts.RequestTimeout
	if bound < 0 {
		bound = DefaultRequestTimeout
	}
	if d, ok := ctx.Deadline(); ok && d.Before(now.Add(bound)) {
		*by = d
		set(d)
		return
	}
	if !by.IsZero() && by.Sub(now) >= bound/2 {
		return
	}
	*by = now.Add(bound)
	set(*by)
}

// arrived is the reader of an acknowledgement when RequestTimeout is
// negative: what has already arrived and no more. A deadline cannot say
// it, as Go's poller fails a read whose deadline has passed without
// trying it.
func (c *Client) arrived() (io.Reader, bool) {
	if c.opts.RequestTimeout >= 0 {
		return nil, false
	}
	sc, ok := c.conn.(syscall.Conn)
	if !ok {
		return nil, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, false
	}
	return arrivedReader{rc}, true
}

// arrivedReader makes one nonblocking read of the socket at each Read;
// nothing there is a timeout.
type arrivedReader struct{ rc syscall.RawConn }

func (a arrivedReader) Read(b []byte) (int, error) {
	var n int
	var err error
	if cerr := a.rc.Read(func(fd uintptr) bool {
		n, err = syscall.Read(int(fd), b)
		return true // one attempt, ready or not
	}); cerr != nil {
		return 0, cerr
	}
	switch {
	case err == syscall.EAGAIN:
		return 0, os.ErrDeadlineExceeded
	case err != nil:
		return 0, err
	case n == 0 && len(b) > 0:
		return 0, io.EOF
	}
	return n, nil
}

// connFD is the descriptor under conn, -1 when it has none.
func connFD(conn net.Conn) int {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return -1
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	rc.Control(func(f uintptr) { fd = int(f) })
	return fd
}
