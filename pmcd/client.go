package pmcd

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// features are the PDU features this pmcd offers a client beyond PCP's
// base set, those PCP's pmcd offers: authentication (which a client asks
// for only when it has a user name or must prove who it is remotely;
// this pmcd has no SASL, so such a client is refused) and containers
// (whose names are forwarded to the agents that want them).
const features = pdu.FlagAuth | pdu.FlagContainer

// client is one connection's state; it lives on the connection's
// goroutine, except what Reload and pmcd's own agent look at, which is
// under mu.
type client struct {
	s    *Server
	conn net.Conn
	r    *pdu.Reader
	w    *pdu.Writer
	// in is r's buffer, and events the client's stream when it can say
	// that its next read waits for the client's event (clientpoll):
	// together they tell loop whether the next request is there yet.
	in     *bufferedReader
	events eventWaiter
	wmu    sync.Mutex // one writer at a time: the client's goroutine or Reload
	out    []byte     // reused encoding buffer
	// notice is the reused buffer of the state-change notice sent
	// before a fetch's answer (sendChanges).
	notice []byte
	num    int32  // the client's number, the "from" of its requests to agents
	seq    int32  // the client's place in order of arrival, its pmcd.client.* instance
	st     *state // the state the current request works with

	id    access.ClientID
	start time.Time // when it connected, for pmcd.client.start_date

	mu sync.Mutex
	// deny holds the operations access control denies this client.
	deny int
	// acl is the access control that counted this client, and
	// hostCounted and acctCounted what it counted.
	acl                      *access.Control
	hostCounted, acctCounted bool
	// attrs are the client's connection attributes, in PCP's order, for
	// the agents that want them.
	attrs []clientAttr
	// whoami is what the client stored into pmcd.client.whoami.
	whoami string

	// Storage reused from one request to the next, on the client's
	// goroutine: its fetch requests, the answer sent, and an agent's
	// answer (see agent.fetch).
	fetchReq   pdu.Fetch
	hrFetchReq pdu.HighResFetch
	result     pcp.Result
	agentReply pdu.Result
	// reqs counts the requests answered, added to by the client's
	// goroutine alone; reqsSeen is what the last count of busy clients
	// read (under the Server's clientsMu). See procs.go.
	reqs     atomic.Uint64
	reqsSeen uint64
	// waiter is the client's place in a daemon agent's queue of fetches
	// (see agent.fetchQueued).
	waiter fetchWaiter
	// quiet is the connection's context without its cancellation, for
	// writes, which closing the connection interrupts.
	quiet context.Context
	// ctx is the connection's context, cancel ends it, and stopClose
	// stops its closing the connection when it ends (for finish).
	ctx       context.Context
	cancel    context.CancelFunc
	stopClose func() bool
	// added says the client was counted among the server's.
	added bool
	// owner numbers the goroutines that have served the client in turn:
	// a rescuer takes over from one left in a hung agent (see rescue).
	owner atomic.Uint64
	// cur and curType are the fetch being answered and its PDU type,
	// for a rescuer to answer it.
	cur     *pdu.Fetch
	curType pdu.Type

	// profiles are the client's instance profiles by context number, and
	// gens count their changes, so agents get a PROFILE only when needed.
	profiles map[int32]*pdu.Profile
	gens     map[int32]uint64
	// profileSize is the PDU length of each profile kept, and
	// profileBytes their sum, held under maxProfileBytes.
	profileSize  map[int32]int
	profileBytes int

	// changes are the state-change bits (PMCD_*) agents announced that
	// the client has not yet been told of (see statechange.go).
	changes atomic.Uint32
}

// maxProfileBytes bounds the profiles one client has pmcd keep: a
// client with many contexts on one connection (libpcp's duplicated
// contexts share it) keeps one each, usually a few dozen bytes.
const maxProfileBytes = 4 << 20

// profileOverhead is what pmcd spends to keep a context's profile beyond
// its PDU's bytes, counted against maxProfileBytes: about a map entry in
// each of profiles, profileSize and gens, and the pdu.Profile itself.
const profileOverhead = 128

// profileGen is the change count of the profile of ctxnum.
func (c *client) profileGen(ctxnum int32) uint64 { return c.gens[ctxnum] }

// profileFor is the profile of ctxnum, or the default (every instance).
func (c *client) profileFor(ctxnum int32) *pdu.Profile {
	if p := c.profiles[ctxnum]; p != nil {
		return p
	}
	return &pdu.Profile{Context: ctxnum, State: pdu.ProfileInclude}
}

// serveClient serves one connection until it ends, then ends the client
// (see finish) and marks s.wg done, unless its goroutine was given up on
// in a hung in-process agent, whose rescuer then serves the connection
// on (see resume).
func (s *Server) serveClient(ctx context.Context, conn net.Conn) {
	ctx, cancel := context.WithCancel(ctx)
	// Past the access checks, which want the connection's own type, the
	// client's connection is the one in the server's set of clients
	// (clientpoll_linux.go), whose Close also ends a wait for the
	// client's event.
	id := access.ClientOf(conn)
	conn, rw := s.pollClient(conn, direct(conn))
	stop := context.AfterFunc(ctx, func() { conn.Close() })

	// Whether the client sent anything tells a port probe from a client
	// that failed its handshake.
	heard := &heardFrom{stream: rw}
	in := newBufferedReader(heard, clientReadBuffer)
	c := &client{s: s, conn: conn, r: pdu.NewReader(in, s.timeout()), in: in, w: pdu.NewWriter(rw),
		num: s.clientNum(), profiles: map[int32]*pdu.Profile{}, gens: map[int32]uint64{}, profileSize: map[int32]int{},
		id: id, start: timeNow(), seq: s.clientSeq.Add(1) - 1, quiet: context.WithoutCancel(ctx),
		ctx: ctx, cancel: cancel, stopClose: stop}
	defer c.finishIfOwner(c.owner.Load())
	c.r.MaxLen = s.maxPDU()
	c.r.IdleWait = true
	c.w.Timeout = s.timeout()
	// Only these read and write the connection: deadlines may stay set.
	c.r.KeepDeadline, c.w.KeepDeadline = true, true
	c.events, _ = rw.(eventWaiter)
	c.st = s.st()

	// Access control judges the host first; a client it refuses gets the
	// reason in place of the greeting and is gone.
	deny, err := c.st.acl.AdmitHost(c.id)
	if err != nil {
		s.clientLogf("access violation from host %s: %v", c.id, err)
		s.countOut(pdu.TypeError)
		_ = pdu.GreetClient(ctx, c.w, int32(pcp.CodeOf(err, pcp.ErrGeneric)), pdu.PDUInfo{})
		return
	}
	c.acl, c.hostCounted, c.deny = c.st.acl, true, deny
	if c.id.HasCreds {
		c.attrs = credAttrs(c.id)
	}
	s.addClient(c)
	c.added = true

	extra := features
	if c.st.acl.HasAccounts() || s.RequireCreds {
		extra |= pdu.FlagCredsReqd
	}
	s.countOut(pdu.TypeError)
	if err := pdu.GreetClient(ctx, c.w, 0, pdu.PMCDInfo(extra)); err != nil {
		if !hungUp(ctx, err) {
			s.clientLogf("client %v: cannot greet: %v", conn.RemoteAddr(), err)
		}
		return
	}
	hello, err := pdu.AcceptClient(ctx, c.r)
	if err != nil {
		// A client gone before its first PDU is a port probe or a
		// health check, which PCP's pmcd does not log either.
		if !hungUp(ctx, err) && (heard.any || isTimeout(err)) {
			s.clientLogf("client %v: handshake: %v", conn.RemoteAddr(), err)
		}
		return
	}
	s.countIn(pdu.TypeCreds)
	// Then the account, now that the client has said who it is; a
	// refusal is an ERROR PDU, after which the client may do nothing.
	if err := c.negotiate(ctx, hello.Flags); err != nil {
		if !errors.Is(err, pcp.ErrPermission) {
			s.clientLogf("client %v: %v", conn.RemoteAddr(), err)
			return
		}
		c.mu.Lock()
		c.deny = access.OpAll
		c.mu.Unlock()
		if c.sendError(ctx, err) != nil {
			return
		}
	} else if err := c.admitAccount(); err != nil {
		if c.sendError(ctx, err) != nil {
			return
		}
	} else if c.id.HasCreds {
		c.sendAttrs(ctx)
	}
	c.loop(ctx)
}

// loop answers the client's requests until the connection ends.
func (c *client) loop(ctx context.Context) {
	for {
		// Shutting down closes the connection, which ends the read;
		// a context without cancellation spares each PDU a callback.
		b, err := c.r.ReadPDU(c.quiet)
		if err != nil {
			if !hungUp(ctx, err) {
				c.s.clientLogf("client %v: %v", c.conn.RemoteAddr(), err)
			}
			return
		}
		c.s.requestCame(c)
		if err := c.handle(ctx, b); err != nil {
			// A PDU we cannot parse, or a reply we cannot send, ends this
			// client; the daemon and its other clients carry on.
			if !hungUp(ctx, err) {
				c.s.clientLogf("client %v: %v", c.conn.RemoteAddr(), err)
			}
			return
		}
		// Other clients' goroutines get their turn now. A client that
		// sends its next request as soon as it has the answer finds
		// this goroutine's read satisfied at once, and without the
		// yield the two ran in step for a whole scheduling slice
		// (10 ms) while the clients on the same P waited: under 32
		// clients the median fetch took 15-50 µs and the 99th
		// percentile 7-11 ms, against 0.4 and 2.3-6 ms with it. The
		// yield costs about 0.2 µs (a trip through the scheduler's
		// global queue); one every 8 requests left the 99th
		// percentile at 4-9 ms.
		//
		// A goroutine whose next read waits for its client's event
		// (nothing buffered, the socket drained, the set on) parks in
		// that read and cannot run in step: the yield would only
		// queue it behind every runnable client to park later, a
		// second turn on the P for each request (half the
		// goroutine switches under 32 clients), and its client's
		// next request found later (see parksNext).
		if !c.parksNext() {
			runtime.Gosched()
		}
	}
}

// parksNext says the next read of the client's requests waits for its
// client's event: nothing left in the buffer, and the stream says its
// read would wait.
func (c *client) parksNext() bool {
	return c.events != nil && c.in.Buffered() == 0 && c.events.waitsForEvent()
}

// eventWaiter is a client's stream that can say whether its next read
// first waits for its client's event (clientpoll_linux.go).
type eventWaiter interface{ waitsForEvent() bool }

// finishIfOwner ends the client (finish) if the goroutine that serves it
// is still the one that was when owner was read: one left in a hung
// in-process agent, which ends with runtime.Goexit, must leave the
// client to its rescuer.
func (c *client) finishIfOwner(owner uint64) {
	if c.owner.Load() == owner {
		c.finish()
	}
}

// finish undoes what serveClient set up, in reverse order.
func (c *client) finish() {
	if c.added {
		c.endContexts()
		c.s.dropClient(c)
	}
	c.s.freeClientNum(c.num)
	c.conn.Close()
	c.stopClose()
	c.cancel()
	c.s.wg.Done()
}

// takeOver makes the rescuer of a direct call the client's goroutine
// (see fetchDirect): the one in the call no longer is.
func (c *client) takeOver() { c.owner.Add(1) }

// rescue carries on from a fetch whose direct call to in-process agent p
// was given up on with err: the agent is dead, the fetch is answered with
// err for every value (all of them p's: a fetch of one domain), and the
// connection is served on this goroutine.
func (c *client) rescue(p *inProc, err error) {
	defer c.finishIfOwner(c.owner.Load())
	p.owner.markHung(p, err)
	// Given up on because pmcd stops serving (Serve's context ended, see
	// Serve): the connection ends unanswered, as PCP's pmcd drops its
	// clients when it stops. The client's own context may not be marked
	// done yet when this runs, so the reason is asked too.
	if c.ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	out := &c.result
	code := int32(pcp.CodeOf(err, pcp.ErrGeneric))
	for i, id := range c.cur.PMIDs {
		out.Sets[i] = pcp.ValueSet{PMID: id, NumVal: code}
	}
	out.Timestamp = pcp.TimestampOf(timeNow())
	if err := c.sendResult(c.ctx, c.curType, out); err != nil {
		if !hungUp(c.ctx, err) {
			c.s.clientLogf("client %v: %v", c.conn.RemoteAddr(), err)
		}
		return
	}
	c.loop(c.ctx)
}

// sendResult sends the answer to a fetch of type t, after the state
// changes the client has not been told of.
func (c *client) sendResult(ctx context.Context, t pdu.Type, r *pcp.Result) error {
	if err := c.sendChanges(ctx); err != nil {
		return err
	}
	if t == pdu.TypeHighResFetch {
		c.out = pdu.AppendHighResResult(c.out[:0], 0, r)
	} else {
		c.out = pdu.AppendResult(c.out[:0], 0, r)
	}
	return c.write(ctx, c.out)
}

// handle answers one request. A returned error ends the connection; a PCP
// error for the request itself is sent to the client as an ERROR PDU.
func (c *client) handle(ctx context.Context, b []byte) error {
	h, err := pdu.ParseHeader(b)
	if err != nil {
		return err
	}
	c.s.countIn(h.Type)
	// An agent being restarted is waited for, so the request finds it
	// back, as with PCP's pmcd, which restarts before reading on.
	c.s.restartsDue.wait(ctx)
	c.st = c.s.st()
	if op := opOf(h.Type); op != 0 && c.denied(op) {
		// As PCP's pmcd, a refused PDU gets an ERROR even when it
		// expects no answer (PROFILE).
		return c.sendError(ctx, pcp.ErrPermission)
	}
	var reply pdu.Message
	var status error
	switch h.Type {
	case pdu.TypeCreds:
		var m pdu.Creds
		if err := m.Decode(b); err != nil {
			return c.refuse(ctx, err)
		}
		return nil
	case pdu.TypeAttr:
		var m pdu.Attr
		if err := m.Decode(b); err != nil {
			return c.refuse(ctx, err)
		}
		return c.attribute(ctx, &m)
	case pdu.TypeProfile:
		// Kept for the agents, which get it before the context's next
		// fetch.
		var m pdu.Profile
		if err := m.Decode(b); err != nil {
			return c.refuse(ctx, err)
		}
		// What a client may make pmcd keep is bounded: the bytes of
		// its profiles, each with what keeping it costs pmcd (its
		// entries in three maps and the decoded struct), so that many
		// tiny profiles count too.
		size := len(b) + profileOverhead
		if old := c.profiles[m.Context]; old != nil {
			size -= c.profileSize[m.Context]
		}
		if c.profileBytes+size > maxProfileBytes {
			c.s.clientLogf("client %v: profiles over %d bytes", c.conn.RemoteAddr(), maxProfileBytes)
			return c.sendError(ctx, pcp.ErrTooBig)
		}
		c.profileBytes += size
		c.profileSize[m.Context] = len(b) + profileOverhead
		c.profiles[m.Context] = &m
		c.gens[m.Context]++
		return nil

	case pdu.TypePMNSNames:
		var m pdu.PMNSNames
		if err = m.Decode(b); err == nil {
			reply, status = c.lookupNames(ctx, m.Names)
		}
	case pdu.TypePMNSIDs:
		var m pdu.PMNSIDs
		if err = m.Decode(b); err == nil {
			reply, status = c.namesOf(ctx, m.PMIDs)
		}
	case pdu.TypePMNSChild:
		var m pdu.PMNSChild
		if err = m.Decode(b); err == nil {
			reply, status = c.children(ctx, m.Name, m.Subtype)
		}
	case pdu.TypePMNSTraverse:
		var m pdu.PMNSTraverse
		if err = m.Decode(b); err == nil {
			reply, status = c.traverse(ctx, m.Name)
		}
	case pdu.TypeFetch:
		m := &c.fetchReq
		if err = m.Decode(b); err == nil {
			if status = c.checkFetch(m.Context); status == nil {
				c.cur, c.curType = m, h.Type
				return c.answerFetch(ctx, h.Type, m)
			}
		}
	case pdu.TypeHighResFetch:
		m := &c.hrFetchReq
		if err = m.Decode(b); err == nil {
			if status = c.checkFetch(m.Context); status == nil {
				// Agents are sent a FETCH whichever the client sent;
				// the two decode to the same fields.
				c.cur, c.curType = (*pdu.Fetch)(m), h.Type
				return c.answerFetch(ctx, h.Type, c.cur)
			}
		}
	case pdu.TypeDescReq:
		var m pdu.DescReq
		if err = m.Decode(b); err == nil {
			var d pcp.Desc
			if d, status = c.desc(ctx, m.PMID); status == nil {
				reply = &pdu.Desc{Desc: d}
			}
		}
	case pdu.TypeDescIDs:
		var m pdu.DescIDs
		if err = m.Decode(b); err == nil {
			reply, status = c.descs(ctx, m.PMIDs)
		}
	case pdu.TypeInstanceReq:
		var m pdu.InstanceReq
		if err = m.Decode(b); err == nil {
			// An instance domain of an absent agent is unknown to pmcd.
			reply, status = c.ask(ctx, m.InDom.Domain(), &m, pcp.ErrInDom)
		}
	case pdu.TypeTextReq:
		var m pdu.TextReq
		if err = m.Decode(b); err == nil {
			reply, status = c.ask(ctx, textDomain(&m), &m, pcp.ErrPMID)
		}
	case pdu.TypeLabelReq:
		var m pdu.LabelReq
		if err = m.Decode(b); err == nil {
			reply, status = c.labels(ctx, &m)
		}
	case pdu.TypeResult:
		var m pdu.Result
		if err = m.Decode(b); err == nil {
			status = c.store(ctx, &m.Result)
			if status == nil {
				reply = &pdu.Error{}
			}
		}
	default:
		err = pcp.ErrIPC
	}
	if err != nil {
		return c.refuse(ctx, err)
	}
	if status != nil {
		return c.sendError(ctx, status)
	}
	c.out = reply.Append(c.out[:0], 0)
	return c.write(ctx, c.out)
}

// checkFetch refuses a fetch for a context the client has sent no
// PROFILE for, a negative one included, with PM_ERR_NOPROFILE, as PCP's
// pmcd does: such a context number must never reach an agent, which
// would be sent a PROFILE it cannot decode.
func (c *client) checkFetch(ctxnum int32) error {
	if ctxnum < 0 || c.profiles[ctxnum] == nil {
		c.s.clientLogf("client %v: fetch of context %d without a profile", c.conn.RemoteAddr(), ctxnum)
		return pcp.ErrNoProfile
	}
	return nil
}

// write sends one encoded PDU, counting it for pmcd.pdu_out.
func (c *client) write(ctx context.Context, b []byte) error {
	if h, err := pdu.ParseHeader(b); err == nil {
		c.s.countOut(h.Type)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// As for reads, closing the connection is what interrupts a write.
	return c.w.WritePDU(c.quiet, b)
}

// refuse tells the client its PDU was bad with PM_ERR_IPC, as PCP's
// pmcd does, and keeps the connection: the PDU was whole, so the stream
// is still in step. (A PDU that cannot be framed ends the connection in
// serveClient.)
func (c *client) refuse(ctx context.Context, err error) error {
	c.s.clientLogf("client %v: %v", c.conn.RemoteAddr(), err)
	return c.sendError(ctx, pcp.ErrIPC)
}

// heardFrom notes whether a client has sent a byte.
type heardFrom struct {
	stream
	any bool
}

func (h *heardFrom) Read(p []byte) (int, error) {
	n, err := h.stream.Read(p)
	if n > 0 {
		h.any = true
	}
	return n, err
}

// isTimeout says whether err is a deadline's.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, pcp.ErrTimeout) || errors.As(err, &ne) && ne.Timeout()
}

// hungUp says whether err is only the client going away (or pmcd
// shutting down), nothing worth a log line: the connection ended at a
// PDU's boundary, or was reset or broken by the other side.
func hungUp(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

func (c *client) sendError(ctx context.Context, err error) error {
	c.s.countOut(pdu.TypeError)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.w.WriteMessage(ctx, &pdu.Error{Code: int32(pcp.CodeOf(err, pcp.ErrGeneric))}, 0)
}

// labelsWithoutAgents is pmcd's answer to a label request for a level
// owned by an absent agent. Context labels are pmcd's own and not served
// yet.
func labelsWithoutAgents(level int32) error {
	switch uint8(level) {
	case pcp.LabelInDom, pcp.LabelInstances:
		if level>>8 == 0 {
			return pcp.ErrInDom
		}
	case pcp.LabelCluster, pcp.LabelItem:
		if level>>8 == 0 {
			return pcp.ErrPMID
		}
	case pcp.LabelContext, pcp.LabelDomain:
		if level>>8 == 0 {
			return pcp.ErrNoAgent
		}
	}
	return pcp.ErrType
}
