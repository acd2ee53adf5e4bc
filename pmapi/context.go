package pmapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi/internal/profile"
	"github.com/gopcp/gopcp/pmns"
)

// contextSlot is the context number sent in PROFILE and FETCH PDUs,
// libpcp's c_slot: the context's index among the process's contexts.
// Each HostContext has a connection of its own, so it is always the first.
const contextSlot = 0

// HostContext is a connection to one pmcd, PCP's PM_CONTEXT_HOST context,
// with the instance profile that goes with it. See the package
// documentation for its concurrency rules.
type HostContext struct {
	spec *HostSpec
	opts options

	mu       sync.Mutex
	conn     *connection // nil when closed or after a connection failure
	rb       *bufferedConn
	r        *pdu.Reader
	w        *pdu.Writer
	closed   bool
	profile  profile.Profile
	profSent bool // pmcd holds the current profile (libpcp's c_sent)

	fetchReq   pdu.Fetch        // reused by Fetch
	highResReq pdu.HighResFetch // reused by Fetch

	counts pduCounters

	unread   int       // replies owed: waits missed, zero-wait traversals (traversewait.go)
	sentAt   time.Time // when the last request was sent, which its reply's wait counts from
	failures int       // failed reconnection attempts in a row
	retryAt  time.Time // no reconnection attempt before this
}

// Option configures NewHostContext, NewArchiveContext and NewContext.
type Option func(*options)

type options struct {
	ns             *pmns.Tree
	connectTimeout time.Duration
	requestTimeout time.Duration
	traverseWait   *time.Duration  // nil: requestTimeout (WithTraverseTimeout)
	handshakeWait  *time.Duration  // nil: requestTimeout (WithHandshakeWait)
	ports          []int           // nil: DefaultPort
	backoff        []time.Duration // nil: DefaultReconnectBackoff
	container      *string         // for specifications naming none
	secure         bool            // every connection secure (PCP_SECURE_SOCKETS)
	socket         *string         // pmcd's Unix socket (PMCD_SOCKET); nil: DefaultSocketPath
	proxy          *Host           // every connection through this pmproxy (PMPROXY_HOST); nil: direct
	console        string          // where SASL asks for missing credentials (PCP_CONSOLE); "": never
	firstSend      func()          // before the first PDU sent (WithFirstSend); nil: nothing
	// archive contexts' settings (archiveopts.go)
	ignoreMarks *string // PCP_IGNORE_MARK_RECORDS's value, nil when unset
	counterWrap bool
	warn        io.Writer
}

// WithNamespace makes the context answer name questions (LookupName,
// NameID, NameAll, Children, ChildrenStatus, Traverse) from a local
// namespace instead of pmcd's, as PCP's tools do with -n.
func WithNamespace(t *pmns.Tree) Option {
	return func(o *options) { o.ns = t }
}

// WithSocketPath sets pmcd's Unix domain socket, the one "local:" and
// "unix:" specifications without a path name, PCP's PMCD_SOCKET
// (DefaultSocketPath without it); a relative path is taken from the root,
// as libpcp takes it.
func WithSocketPath(path string) Option {
	return func(o *options) { o.socket = &path }
}

// WithConnectTimeout sets how long a connection may take to be made,
// PCP's PMCD_CONNECT_TIMEOUT (DefaultConnectTimeout without it); zero
// means no limit besides the context.Context's.
func WithConnectTimeout(d time.Duration) Option {
	return func(o *options) { o.connectTimeout = d }
}

// WithRequestTimeout sets the wait for each reply from pmcd, PCP's
// PMCD_REQUEST_TIMEOUT (pdu.DefaultTimeout without it); zero means no
// limit besides the context.Context's.
func WithRequestTimeout(d time.Duration) Option {
	return func(o *options) { o.requestTimeout = d }
}

// NewHostContext connects to the pmcd a host specification names, as
// pmNewContext(PM_CONTEXT_HOST, spec) does: "host", "host:port[,port...]",
// "[ipv6-address]:port", "pcp://host:port", "local:" or "unix:" with an
// optional socket path, and "?container=name" among the attributes.
// Hosts without ports try each port of WithPorts (default 44321); the
// connection must be made within WithConnectTimeout (default 5 s) and
// each reply arrive within WithRequestTimeout (default 10 s). The
// environment is not read here: PCP's tools give these options from
// PMCD_PORT, PMCD_CONNECT_TIMEOUT, PMCD_REQUEST_TIMEOUT,
// PMCD_RECONNECT_TIMEOUT and PCP_CONTAINER (internal/cli).
//
// A malformed specification is a *HostSpecError (pcp.ErrGeneric), one
// without a host pcp.ErrNotHost; failing to connect gives the errno PCP
// gives (ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH as pcp.Error), and pmcd's
// refusal its code. "host@proxyhost[:port]" (or WithProxy, PCP's
// PMPROXY_HOST) reaches pmcd through a pmproxy, as libpcp does (proxy.go).
// The attributes username, password, method (mechanism) and realm
// authenticate to pmcd with SASL as libpcp does (PLAIN, LOGIN, CRAM-MD5,
// DIGEST-MD5 and SCRAM-SHA-*: sasl.go); so does a TCP connection to a pmcd
// that demands credentials. TLS (pcps:) is not implemented (pcp.ErrNYI).
func NewHostContext(ctx context.Context, spec string, opts ...Option) (*HostContext, error) {
	o := options{connectTimeout: DefaultConnectTimeout, requestTimeout: pdu.DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	socket := DefaultSocketPath()
	if o.socket != nil {
		socket = *o.socket
	}
	hs, err := parseHostSpec(spec, socket)
	if err != nil {
		return nil, fmt.Errorf("pmapi: %w", err)
	}
	if len(hs.Hosts) == 0 {
		return nil, fmt.Errorf("pmapi: host specification %q: %w", spec, pcp.ErrNotHost)
	}
	if _, ok := hs.Attrs[pdu.AttrContainer]; !ok {
		if o.container != nil {
			hs.Attrs[pdu.AttrContainer] = *o.container
		}
	}
	c := &HostContext{spec: hs, opts: o}
	c.profile.Reset(pdu.ProfileInclude)
	conn, err := connect(ctx, hs, o)
	if err != nil {
		return nil, err
	}
	c.attach(conn)
	hostContextMade.Store(true)
	return c, nil
}

func (c *HostContext) attach(conn *connection) {
	for _, t := range conn.handshakeIn {
		countPDU(&c.counts.in, t)
	}
	for _, t := range conn.handshakeOut {
		countPDU(&c.counts.out, t)
	}
	c.conn = conn
	var rw interface {
		io.Reader
		io.Writer
		SetReadDeadline(time.Time) error
	} = conn.conn
	if s, ok := conn.conn.(pdu.Stream); ok {
		rw = pdu.Direct(s)
	}
	// Replies are read through a buffer the context holds only while it
	// reads one (readbuf.go).
	c.rb = &bufferedConn{conn: rw}
	c.r = pdu.NewReader(c.rb, c.opts.requestTimeout)
	c.w = pdu.NewWriter(rw)
	c.w.Timeout = c.opts.requestTimeout
	// Only c.r and c.w read and write the connection: deadlines may stay
	// set between requests.
	c.r.KeepDeadline, c.w.KeepDeadline = true, true
	c.profSent = false
	c.unread = 0
}

// Spec returns the context's parsed host specification, which the caller
// must not modify.
func (c *HostContext) Spec() *HostSpec { return c.spec }

// Features returns the features pmcd offered when the connection was
// made (pdu.FlagHighRes, pdu.FlagDescs, pdu.FlagLabels, ...), or 0 when
// the context has no connection.
func (c *HostContext) Features() pdu.Flags {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return 0
	}
	return c.conn.features
}

// Close ends the connection, as pmDestroyContext does. Later calls fail
// with pcp.ErrNoContext. Closing twice is harmless.
func (c *HostContext) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.conn == nil {
		return nil
	}
	err := c.conn.conn.Close()
	c.conn = nil
	return err
}

// Reconnect closes the connection, if any, and makes a new one to the
// same pmcd, as pmReconnectContext does; pmcd gets the instance profile
// again before the next fetch. After a failed attempt, further attempts
// within PCP's back-off time (PMCD_RECONNECT_TIMEOUT: 5, 10, 20, 40, then
// 80 s, counted from the whole second of the failure as libpcp counts)
// fail at once. The connect waits PMCD_CONNECT_TIMEOUT as libpcp's does,
// the handshake WithHandshakeWait's wait. Failures wrap ETIMEDOUT as in
// PCP, and the cause.
func (c *HostContext) Reconnect(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: Reconnect: %w", pcp.ErrNoContext)
	}
	etimedout := pcp.Error(-int32(syscall.ETIMEDOUT))
	if c.failures > 0 && time.Now().Before(c.retryAt) {
		return fmt.Errorf("pmapi: Reconnect: too soon after a failed attempt: %w", etimedout)
	}
	if c.conn != nil {
		c.conn.conn.Close()
		c.conn = nil
	}
	conn, err := connect(ctx, c.spec, c.opts)
	if err != nil {
		backoff := c.opts.backoff
		if backoff == nil {
			backoff = DefaultReconnectBackoff
		}
		if c.failures < len(backoff) {
			c.failures++
		}
		// from the whole second, as libpcp counts with time(2): the
		// next attempt may come up to a second early
		c.retryAt = time.Now().Truncate(time.Second).Add(backoff[c.failures-1])
		return fmt.Errorf("pmapi: Reconnect: %w (%w)", etimedout, err)
	}
	c.failures = 0
	c.attach(conn)
	return nil
}

// ready checks that the context can talk to pmcd; the caller holds mu.
func (c *HostContext) ready() error {
	switch {
	case c.closed:
		return pcp.ErrNoContext
	case c.conn == nil:
		return fmt.Errorf("%w: no connection to pmcd (Reconnect)", pcp.ErrIPC)
	}
	return nil
}

// broken drops a connection whose PDU stream can no longer be trusted.
func (c *HostContext) broken() {
	if c.conn != nil {
		c.conn.conn.Close()
		c.conn = nil
	}
	c.profSent = false
	c.unread = 0
}

// transportError gives a failed read or write the PCP code libpcp would
// return for it, keeping ctx's error and any PCP code already there.
func transportError(err error) error {
	var code pcp.Error
	switch {
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w: pmcd closed the connection", pcp.ErrIPC)
	case errors.As(err, &code), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return fmt.Errorf("%w (%w)", pcp.ErrIPC, err)
}

// send writes one request; the caller holds mu.
func (c *HostContext) send(ctx context.Context, req pdu.Message) error {
	if err := c.ready(); err != nil {
		return err
	}
	c.sentAt = time.Now()
	if err := c.w.WriteMessage(ctx, req, 0); err != nil {
		c.broken()
		return transportError(err)
	}
	countPDU(&c.counts.out, req.PDUType())
	return nil
}

// receive reads one reply; the slice is valid until the next read. The
// caller holds mu.
func (c *HostContext) receive(ctx context.Context) ([]byte, pdu.Type, error) {
	if err := c.ready(); err != nil {
		return nil, 0, err
	}
	if err := c.skipUnread(ctx); err != nil {
		if c.conn != nil {
			c.unread++ // this request's reply is owed too
		}
		return nil, 0, err
	}
	return c.receiveOwn(ctx)
}

// receiveOwn reads the reply to the request sent last, once no earlier
// reply is owed. A wait that ran out before any of the reply came leaves
// the connection up, as libpcp's does, with the reply owed (skipUnread).
// The caller holds mu.
func (c *HostContext) receiveOwn(ctx context.Context) ([]byte, pdu.Type, error) {
	before := c.rb.taken
	buf, err := c.r.ReadPDU(ctx)
	if err != nil {
		if c.missedWait(err, before) {
			c.unread++
		} else {
			c.broken()
		}
		return nil, 0, transportError(err)
	}
	// The PDU is in the reader's own storage now: the buffer goes back
	// unless pmcd sent more already.
	c.rb.release()
	h, err := pdu.ParseHeader(buf)
	if err != nil {
		c.broken()
		return nil, 0, err
	}
	countPDU(&c.counts.in, h.Type)
	if w := c.r.Timeout; w > 0 && time.Since(c.sentAt) > w {
		// libpcp looks at the clock once the reply is there and gives
		// up if its wait has passed; so do we, counting from the
		// request (a reply already read ahead would otherwise meet a
		// wait shorter than any reply takes, which libpcp's never do).
		if stateNotice(buf) {
			c.unread++ // a fetch's result is still to come
		}
		c.releaseReply()
		return nil, 0, fmt.Errorf("pmapi: %v PDU came after the %v wait: %w", h.Type, w, pcp.ErrTimeout)
	}
	return buf, h.Type, nil
}

// call sends req and decodes the reply into resp. An ERROR reply is the
// error it carries; any other PDU is pcp.ErrIPC. The caller holds mu.
func (c *HostContext) call(ctx context.Context, req, resp pdu.Message) error {
	if err := c.send(ctx, req); err != nil {
		return err
	}
	buf, typ, err := c.receive(ctx)
	if err != nil {
		return err
	}
	defer c.releaseReply()
	return c.decodeReply(buf, typ, resp)
}

// releaseReply lets go of the reader's storage once a reply has been
// decoded (decoders copy what they keep), so that a context between
// calls holds none (readbuf.go). The caller holds mu.
func (c *HostContext) releaseReply() { c.r.Release() }

func (c *HostContext) decodeReply(buf []byte, typ pdu.Type, resp pdu.Message) error {
	switch typ {
	case resp.PDUType():
		if err := resp.Decode(buf); err != nil {
			c.broken()
			return err
		}
		return nil
	case pdu.TypeError:
		var e pdu.Error
		if err := e.Decode(buf); err != nil {
			c.broken()
			return err
		}
		if e.Code < 0 {
			return e.Err()
		}
	}
	c.broken()
	return fmt.Errorf("%w: pmcd answered %s with %s", pcp.ErrIPC, resp.PDUType(), typ)
}

// WithPorts gives the ports a host specification without ports means,
// PCP's PMCD_PORT (ParsePorts); without it, DefaultPort.
func WithPorts(ports []int) Option {
	return func(o *options) { o.ports = ports }
}

// WithReconnectBackoff gives the waits between failed reconnection
// attempts, PCP's PMCD_RECONNECT_TIMEOUT (ParseReconnectTimeout);
// without it, DefaultReconnectBackoff.
func WithReconnectBackoff(waits []time.Duration) Option {
	return func(o *options) { o.backoff = waits }
}

// WithDefaultContainer names the container of a host specification that
// names none, as PCP_CONTAINER does (set but empty, an empty name).
func WithDefaultContainer(name string) Option {
	return func(o *options) { o.container = &name }
}

// WithSecureSockets asks for secure connections to every host, as
// PCP_SECURE_SOCKETS set to "", "1" or "enforce" does; they are not
// implemented, so connecting is pcp.ErrNYI.
func WithSecureSockets(on bool) Option {
	return func(o *options) { o.secure = on }
}

func (o options) defaultPorts() []int {
	if o.ports == nil {
		return []int{DefaultPort}
	}
	return o.ports
}
