package pmcd

import (
	"context"
	"errors"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Fetches for one daemon agent from many clients are sent to it
// together. One round trip to an agent costs pmcd and the agent a
// sleep and a wake-up each, the bulk of the CPU a relayed fetch costs
// (perf: the kernel's task switch and wake-up paths). While one fetch
// is out at the agent, the fetches other clients ask for queue up; the
// caller that holds the agent then writes them all in one system call
// and reads the answers in order, so the agent reads the next request
// without waiting and both sides sleep once for the lot. The agent sees
// the same PDUs in the same order as one at a time: agents read one
// PDU at a time (libpcp never reads past the PDU it wants), and the
// PROFILE of a client comes before its FETCH whenever it changed, as
// before.
//
// Deadlock: the requests are written whole before any answer is read,
// so their bytes must fit in the agent's input at once, whatever it
// writes meanwhile. The agent's input is empty when a batch starts (the
// answers to everything sent before have been read), and a pipe holds
// at least one page (4096 bytes, a pipe's size when its owner is over
// the kernel's pipe quota), so a batch of more than one request is kept
// under maxBatchBytes. One request alone is sent as before.

// maxBatchBytes bounds the bytes of a batch of more than one request.
const maxBatchBytes = 4096

// fetchWaiter is one client's fetch waiting for a daemon agent.
type fetchWaiter struct {
	c    *client
	req  *pdu.Fetch
	into *pdu.Result
	// key and prof are the client's profile for the request's context,
	// and size the bytes the request may take, its profile's included.
	key  profileKey
	prof *pdu.Profile
	size int
	// res and err are the answer; done says they are set.
	res  *pcp.Result
	err  error
	done bool
	// lead says the waiter was woken to send the queue, holding a.mu,
	// instead of with its answer.
	lead bool
	// wake is signalled once, with the answer or to lead.
	wake chan struct{}
}

// fetchQueued is fetch for a daemon agent, with into the client's
// storage: the request joins the agent's queue, and the caller either
// sends the queue itself or waits while another does (see above).
func (a *agent) fetchQueued(ctx context.Context, c *client, req *pdu.Fetch, into *pdu.Result) (*pcp.Result, error) {
	w := &c.waiter
	wake := w.wake
	if wake == nil {
		wake = make(chan struct{}, 1)
	}
	*w = fetchWaiter{c: c, req: req, into: into, wake: wake,
		key:  profileKey{client: c, ctxnum: req.Context, gen: c.profileGen(req.Context)},
		prof: c.profileFor(req.Context),
		size: fetchSize(req) + c.profileSize[req.Context]}
	a.qmu.Lock()
	a.queue = append(a.queue, w)
	if a.leading {
		a.qmu.Unlock()
		<-w.wake
		if !w.lead {
			return w.res, w.err
		}
		// Handed a.mu to send what is queued, this request first.
	} else {
		a.leading = true
		a.qmu.Unlock()
		a.mu.Lock()
	}
	for !w.done {
		a.sendQueued(ctx, w)
	}
	// The requests queued meanwhile are sent by one of their callers,
	// which is handed a.mu; this caller goes back to its client.
	a.qmu.Lock()
	if len(a.queue) > 0 {
		next := a.queue[0]
		next.lead = true
		a.qmu.Unlock()
		next.wake <- struct{}{}
	} else {
		a.leading = false
		a.qmu.Unlock()
		a.mu.Unlock()
	}
	return w.res, w.err
}

// fetchSize is the bytes of req as a PDU.
func fetchSize(req *pdu.Fetch) int { return pdu.HeaderSize + 16 + 4*len(req.PMIDs) }

// sendQueued takes requests from the head of the queue, up to
// maxBatchBytes unless only one, sends them, and wakes their callers
// but self, the sender's own. a.mu is held.
func (a *agent) sendQueued(ctx context.Context, self *fetchWaiter) {
	a.qmu.Lock()
	n, size := 0, 0
	for n < len(a.queue) && (n == 0 || size+a.queue[n].size <= maxBatchBytes) {
		size += a.queue[n].size
		n++
	}
	batch := append(a.batch[:0], a.queue[:n]...)
	rest := copy(a.queue, a.queue[n:])
	clear(a.queue[rest:])
	a.queue = a.queue[:rest]
	a.qmu.Unlock()

	d, alive := a.b.(*daemon)
	if len(batch) == 1 || !alive || a.fenced.Load() || a.notReady {
		// One at a time: the usual way, which also fails each request
		// as it should when the agent cannot take them.
		for _, w := range batch {
			w.res, w.err = a.fetchLocked(ctx, w.c, w.req, w.into, w.key, w.prof)
		}
	} else {
		a.sendBatch(d, batch)
	}
	for _, w := range batch {
		w.done = true
		if w != self {
			// Its caller may reuse w as soon as it wakes.
			w.wake <- struct{}{}
		}
	}
	clear(batch)
	a.batch = batch[:0]
}

// fetchBatch is the PDUs of a batch, each fetch after its client's
// profile when the agent has another; only ever encoded.
type fetchBatch struct {
	a     *agent
	batch []*fetchWaiter
}

func (m *fetchBatch) PDUType() pdu.Type { return pdu.TypeFetch }

func (m *fetchBatch) Append(dst []byte, _ int32) []byte {
	for _, w := range m.batch {
		if m.a.prof != w.key {
			m.a.s.countOut(pdu.TypeProfile)
			dst = w.prof.Append(dst, w.c.num)
			m.a.prof = w.key
		}
		m.a.s.countOut(pdu.TypeFetch)
		dst = w.req.Append(dst, w.c.num)
	}
	return dst
}

func (m *fetchBatch) Decode([]byte) error { return pcp.ErrIPC }

// sendBatch writes the requests of batch to d, the agent's live
// connection, in one write, and reads the answers in order into each
// waiter's storage, failing them as doLocked fails one request. a.mu is
// held.
func (a *agent) sendBatch(d *daemon, batch []*fetchWaiter) {
	ctx := context.Background()
	d.r.Timeout, d.w.Timeout = a.s.agentTimeout(), a.s.agentTimeout()
	a.batchMsg = fetchBatch{a: a, batch: batch}
	err := d.w.WriteMessage(ctx, &a.batchMsg, 0)
	a.batchMsg = fetchBatch{}
	if err != nil {
		a.failFrom(batch, 0, a.lost(pdu.TypeFetch, fmt.Errorf("%w: %w", errAgentLost, err)))
		return
	}
	// A busy agent (PM_ERR_PMDANOTREADY) still answers what it was
	// sent, in order; its PM_ERR_PMDAREADY may come among the answers.
	busy := false
	for i := 0; i < len(batch); i++ {
		w := batch[i]
		d.into = w.into
		m, err := d.receive(ctx, w.req)
		d.into = nil
		switch {
		case m != nil:
			a.s.countIn(m.PDUType())
		case !errors.Is(err, errAgentLost):
			a.s.countIn(pdu.TypeError)
		}
		var code pcp.Error
		switch {
		case err == nil:
			r := &m.(*pdu.Result).Result
			if len(r.Sets) != len(w.req.PMIDs) {
				a.kill(fmt.Errorf("%d value sets for %d PMIDs: %w", len(r.Sets), len(w.req.PMIDs), pcp.ErrIPC))
				a.failFrom(batch, i, pcp.ErrIPC)
				return
			}
			w.res, w.err = r, nil
		case errors.Is(err, errAgentLost) || errors.Is(err, pcp.ErrIPC) || !errors.As(err, &code):
			a.failFrom(batch, i, a.lost(pdu.TypeFetch, err))
			return
		case code == pcp.ErrPMDAReady && busy:
			busy = false
			i-- // the answer is still to come
		case code == pcp.ErrPMDANotReady:
			busy = true
			w.res, w.err = nil, pcp.ErrAgain
		default:
			w.res, w.err = nil, code
		}
	}
	if busy {
		a.waitReady(d)
	}
}

// failFrom fails batch[i] with err and the requests after it, which the
// agent, now dead, will not answer, with PM_ERR_NOAGENT.
func (a *agent) failFrom(batch []*fetchWaiter, i int, err error) {
	batch[i].res, batch[i].err = nil, err
	for _, w := range batch[i+1:] {
		w.res, w.err = nil, pcp.ErrNoAgent
	}
}
